//! The map: a grid of [`Tile`]s plus what generation recorded about it
//! (rooms, start position, named markers). Plain Rust, no Lua; every sink
//! reads the finished value.

mod ascii;
mod hash;
pub use hash::digest;
mod tile;

pub use tile::{MarkerLook, Rgb, Tile, TileError, TileKind, TileSet, SECRET_DOOR, START_GLYPH};

use crate::geom::Rect;
use crate::ops::Selection;
use crate::params::ParamValue;

/// The largest width or height a map may have.
pub const MAX_SIDE: i64 = 10_000;
/// The most cells a map may have (one byte each).
pub const MAX_CELLS: i64 = 25_000_000;

/// A named point recorded by a script: stairs, items, monsters, with the
/// data the script gave it (`map:mark(x, y, "monster", {kind = "orc"})`).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub x: i32,
    pub y: i32,
    pub name: String,
    /// String keys to values, sorted by key; numbers are finite.
    pub props: Vec<(String, ParamValue)>,
}

// Props hold no NaN (mark refuses non-finite numbers), so equality is total.
impl Eq for Marker {}

/// A room's cells (for a room that is not its whole rect), name and kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomDetails {
    pub cells: Option<Selection>,
    pub name: Option<String>,
    pub kind: Option<String>,
}

/// What a map primitive refused to do. Messages name the bad value and the
/// map size, so a script author sees at once what was out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("cell ({x}, {y}) is outside the {width}x{height} map")]
    OutOfBounds {
        x: i64,
        y: i64,
        width: i32,
        height: i32,
    },
    #[error("{rect} reaches outside the {width}x{height} map")]
    RectOutside { rect: Rect, width: i32, height: i32 },
    #[error("size {width}x{height} is invalid: width and height must be 1..={max}", max = MAX_SIDE)]
    BadSide { width: i64, height: i64 },
    #[error("size {width}x{height} is too large: at most {max} cells", max = MAX_CELLS)]
    TooManyCells { width: i64, height: i64 },
    #[error("marker name must not be empty")]
    EmptyMarker,
    #[error("marker property '{0}' must be a finite number")]
    MarkerValue(String),
    #[error("a selection of a {}x{} map used with a {}x{} one", a.0, a.1, b.0, b.1)]
    SelectionSize { a: (i32, i32), b: (i32, i32) },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Tile(#[from] TileError),
    #[error("line {line} of the ASCII map: {message}")]
    Ascii { line: usize, message: String },
}

/// A rectangular grid of tiles with the rooms, start and markers a script
/// recorded while carving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    width: i32,
    height: i32,
    cells: Vec<Tile>,
    tiles: TileSet,
    rooms: Vec<Rect>,
    /// Each room's cells (when it is not just its rect), name and kind.
    room_details: Vec<RoomDetails>,
    start: Option<(i32, i32)>,
    markers: Vec<Marker>,
    /// Each marker's index by cell and name, so marking a cell finds its
    /// same-named marker without a scan (however many a script places).
    marked_cells: MarkedCells,
    /// The boxes of cells written since the last [`Map::take_dirty`], so a
    /// replay journal diffs only what a primitive touched.
    dirty: DirtyBox,
}

/// An index derived from the markers: not content of its own.
#[derive(Clone, Debug, Default)]
struct MarkedCells(std::collections::HashMap<(i32, i32, String), usize>);

impl PartialEq for MarkedCells {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for MarkedCells {}

/// Bookkeeping, not content: two maps with the same cells are equal
/// whatever was last written.
#[derive(Clone, Debug, Default)]
struct DirtyBox(Vec<Rect>);

/// More boxes than this are merged into their bounding box: a few thin
/// boxes (an L-tunnel's two legs) stay thin, many small writes stay cheap.
const DIRTY_BOXES: usize = 8;

impl PartialEq for DirtyBox {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for DirtyBox {}

/// Checks a requested size against the limits without allocating anything.
pub fn check_size(width: i64, height: i64) -> Result<(i32, i32), MapError> {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(MapError::BadSide { width, height });
    }
    if width * height > MAX_CELLS {
        return Err(MapError::TooManyCells { width, height });
    }
    Ok((width as i32, height as i32))
}

impl Map {
    /// A map of solid wall, the rock every seed carves from.
    pub fn new(width: i64, height: i64) -> Result<Map, MapError> {
        Map::with_tiles(width, height, TileSet::builtin())
    }

    pub fn with_tiles(width: i64, height: i64, tiles: TileSet) -> Result<Map, MapError> {
        let (w, h) = check_size(width, height)?;
        Ok(Map {
            width: w,
            height: h,
            cells: vec![Tile::WALL; (w as usize) * (h as usize)],
            tiles,
            rooms: Vec::new(),
            room_details: Vec::new(),
            start: None,
            markers: Vec::new(),
            marked_cells: MarkedCells::default(),
            dirty: DirtyBox::default(),
        })
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn tiles(&self) -> &TileSet {
        &self.tiles
    }

    pub fn tiles_mut(&mut self) -> &mut TileSet {
        &mut self.tiles
    }

    /// The cells in row-major order.
    pub fn cells(&self) -> &[Tile] {
        &self.cells
    }

    /// The cells for writing, after noting the inclusive box the caller is
    /// about to write as dirty.
    pub(crate) fn cells_to_write(&mut self, x1: i32, y1: i32, x2: i32, y2: i32) -> &mut [Tile] {
        let boxes = &mut self.dirty.0;
        let new = Rect { x1, y1, x2, y2 };
        if !boxes
            .iter()
            .any(|b| b.x1 <= x1 && b.y1 <= y1 && b.x2 >= x2 && b.y2 >= y2)
        {
            boxes.push(new);
            if boxes.len() > DIRTY_BOXES {
                let all = boxes.iter().fold(new, |a, b| Rect {
                    x1: a.x1.min(b.x1),
                    y1: a.y1.min(b.y1),
                    x2: a.x2.max(b.x2),
                    y2: a.y2.max(b.y2),
                });
                boxes.clear();
                boxes.push(all);
            }
        }
        &mut self.cells
    }

    /// The boxes of cells written since the last call (possibly overlapping).
    pub fn take_dirty(&mut self) -> Vec<Rect> {
        std::mem::take(&mut self.dirty.0)
    }

    pub fn in_bounds(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64
    }

    /// The row-major index of a cell, or an error naming the cell and size.
    pub fn index(&self, x: i64, y: i64) -> Result<usize, MapError> {
        if self.in_bounds(x, y) {
            Ok(y as usize * self.width as usize + x as usize)
        } else {
            Err(self.out_of_bounds(x, y))
        }
    }

    pub(crate) fn out_of_bounds(&self, x: i64, y: i64) -> MapError {
        MapError::OutOfBounds {
            x,
            y,
            width: self.width,
            height: self.height,
        }
    }

    /// Checks that every cell of the rect (corners inclusive) is on the map.
    pub fn check_rect(&self, rect: &Rect) -> Result<(), MapError> {
        let inside = rect.x1 >= 0
            && rect.y1 >= 0
            && rect.x2 < self.width
            && rect.y2 < self.height
            && rect.x1 <= rect.x2
            && rect.y1 <= rect.y2;
        if inside {
            Ok(())
        } else {
            Err(MapError::RectOutside {
                rect: *rect,
                width: self.width,
                height: self.height,
            })
        }
    }

    pub fn get(&self, x: i64, y: i64) -> Result<Tile, MapError> {
        Ok(self.cells[self.index(x, y)?])
    }

    pub fn set(&mut self, x: i64, y: i64, tile: Tile) -> Result<(), MapError> {
        let i = self.index(x, y)?;
        self.cells_to_write(x as i32, y as i32, x as i32, y as i32)[i] = tile;
        Ok(())
    }

    /// Whether the cell is on the map and its kind can be walked on.
    pub fn is_walkable(&self, x: i64, y: i64) -> bool {
        match self.index(x, y) {
            Ok(i) => self.tiles.kind(self.cells[i]).walkable,
            Err(_) => false,
        }
    }

    /// Which cells can be walked on, row-major: one table lookup a cell
    /// instead of a kind lookup, for the whole-map searches.
    pub fn walkable_mask(&self) -> Vec<bool> {
        let mut table = [false; 256];
        for (tile, kind) in self.tiles.iter() {
            table[tile.index()] = kind.walkable;
        }
        self.cells.iter().map(|t| table[t.index()]).collect()
    }

    pub fn count(&self, tile: Tile) -> usize {
        // Summed in chunks small enough for a u8 each, so the compiler
        // compares and adds 32 cells at a time (a filter-count went a cell
        // at a time: a fifth of an empty script's run in `dunlua bench`).
        self.cells
            .chunks(255)
            .map(|chunk| {
                chunk
                    .iter()
                    .fold(0u8, |n, &t| n.wrapping_add(u8::from(t == tile))) as usize
            })
            .sum()
    }

    pub fn rooms(&self) -> &[Rect] {
        &self.rooms
    }

    /// Records a room; it must lie on the map.
    pub fn add_room(&mut self, room: Rect) -> Result<(), MapError> {
        self.check_rect(&room)?;
        self.rooms.push(room);
        self.room_details.push(RoomDetails::default());
        Ok(())
    }

    /// Records a room of any shape (the cells of `cells`, its bounding box
    /// as its rect) or a rect, with an optional name and kind. A cross of
    /// two rects is one room.
    pub fn add_shaped_room(
        &mut self,
        rect: Option<Rect>,
        cells: Option<Selection>,
        name: Option<String>,
        kind: Option<String>,
    ) -> Result<(), MapError> {
        let rect = match (&cells, rect) {
            (Some(sel), _) => {
                if (sel.width(), sel.height()) != (self.width, self.height) {
                    return Err(MapError::SelectionSize {
                        a: (sel.width(), sel.height()),
                        b: (self.width, self.height),
                    });
                }
                let mut points = sel.points();
                let Some((x0, y0)) = points.next() else {
                    return Err(MapError::Invalid("a room needs at least one cell".into()));
                };
                let (mut x1, mut y1, mut x2, mut y2) = (x0, y0, x0, y0);
                for (x, y) in points {
                    (x1, y1, x2, y2) = (x1.min(x), y1.min(y), x2.max(x), y2.max(y));
                }
                Rect { x1, y1, x2, y2 }
            }
            (None, Some(r)) => r,
            (None, None) => return Err(MapError::Invalid("a room needs a rect or cells".into())),
        };
        self.check_rect(&rect)?;
        self.rooms.push(rect);
        self.room_details.push(RoomDetails { cells, name, kind });
        Ok(())
    }

    /// What each room has besides its rect, in the order of [`rooms`](Self::rooms).
    pub fn room_details(&self) -> &[RoomDetails] {
        &self.room_details
    }

    pub fn start(&self) -> Option<(i32, i32)> {
        self.start
    }

    /// Sets where the player begins. Whether it is walkable is checked when
    /// generation ends, since a script may carve the cell afterwards.
    pub fn set_start(&mut self, x: i64, y: i64) -> Result<(), MapError> {
        self.index(x, y)?;
        self.start = Some((x as i32, y as i32));
        Ok(())
    }

    /// About how many bytes the map keeps on the heap: its cells, rooms
    /// (with their cells and names) and markers (with their names and
    /// data, twice for the index). What a finished level holds while the
    /// levels below it are generated.
    pub fn heap_bytes(&self) -> usize {
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let rooms: usize = self
            .room_details
            .iter()
            .map(|d| {
                std::mem::size_of::<Rect>()
                    + std::mem::size_of::<RoomDetails>()
                    + d.cells.as_ref().map_or(0, Selection::heap_bytes)
                    + text(&d.name)
                    + text(&d.kind)
            })
            .sum();
        let markers: usize = self
            .markers
            .iter()
            .map(|m| {
                let props: usize = m
                    .props
                    .iter()
                    .map(|(k, v)| {
                        let value = match v {
                            ParamValue::Text(t) => t.len(),
                            _ => 0,
                        };
                        k.len() + value + std::mem::size_of::<(String, ParamValue)>()
                    })
                    .sum();
                // The marker, and its key in the cell index.
                2 * (std::mem::size_of::<Marker>() + m.name.len()) + props
            })
            .sum();
        self.cells.len() * std::mem::size_of::<Tile>() + rooms + markers
    }

    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// Marks (x, y) with `name`. Marking a cell with a name it already has
    /// keeps one marker (a prefab stamped twice does not double its
    /// markers).
    pub fn mark(&mut self, x: i64, y: i64, name: &str) -> Result<(), MapError> {
        self.mark_with(x, y, name, Vec::new())
    }

    /// Marks (x, y) with `name` and data; marking the same cell with the
    /// same name again replaces the data and keeps the marker's place.
    pub fn mark_with(
        &mut self,
        x: i64,
        y: i64,
        name: &str,
        mut props: Vec<(String, ParamValue)>,
    ) -> Result<(), MapError> {
        self.index(x, y)?;
        if name.is_empty() {
            return Err(MapError::EmptyMarker);
        }
        for (key, value) in &props {
            if matches!(value, ParamValue::Number(n) if !n.is_finite()) {
                return Err(MapError::MarkerValue(key.clone()));
            }
        }
        props.sort_by(|a, b| a.0.cmp(&b.0));
        props.dedup_by(|later, earlier| later.0 == earlier.0);
        let (x, y) = (x as i32, y as i32);
        match self.marked_cells.0.entry((x, y, name.to_string())) {
            std::collections::hash_map::Entry::Occupied(at) => {
                self.markers[*at.get()].props = props
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(self.markers.len());
                self.markers.push(Marker {
                    x,
                    y,
                    name: name.to_string(),
                    props,
                });
            }
        }
        Ok(())
    }

    /// Removes the markers at (x, y), or only those named `name`; returns
    /// how many went.
    pub fn unmark(&mut self, x: i64, y: i64, name: Option<&str>) -> Result<usize, MapError> {
        self.index(x, y)?;
        let (x, y) = (x as i32, y as i32);
        let before = self.markers.len();
        self.markers
            .retain(|m| !(m.x == x && m.y == y && name.is_none_or(|n| m.name == n)));
        let removed = before - self.markers.len();
        if removed > 0 {
            // Indices after the removed ones moved: rebuild (callers pay for
            // the markers walked).
            let index = self
                .markers
                .iter()
                .enumerate()
                .map(|(i, m)| ((m.x, m.y, m.name.clone()), i))
                .collect();
            self.marked_cells = MarkedCells(index);
        }
        Ok(removed)
    }

    /// The glyph rows of the map, one string per row, without the start.
    pub fn glyph_rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width as usize)
            .map(|row| row.iter().map(|&t| self.tiles.kind(t).glyph).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_is_solid_wall() {
        let map = Map::new(4, 3).unwrap();
        assert_eq!(map.to_string(), "####\n####\n####\n");
        assert_eq!(map.count(Tile::WALL), 12);
    }

    #[test]
    fn count_agrees_with_a_cell_by_cell_count_past_255_a_chunk() {
        let mut map = Map::new(97, 31).unwrap();
        let mut rng = crate::rng::Rng::new(5);
        for y in 0..31 {
            for x in 0..97 {
                // Mostly floor: a chunk of 255 cells nearly all counted.
                let t = if rng.int(9) < 8 {
                    Tile::FLOOR
                } else {
                    Tile::DOOR
                };
                map.set(x, y, t).unwrap();
            }
        }
        for tile in [Tile::FLOOR, Tile::DOOR, Tile::WALL] {
            let naive = map.cells.iter().filter(|&&t| t == tile).count();
            assert_eq!(map.count(tile), naive);
        }
        let all = Map::new(300, 300).unwrap();
        assert_eq!(all.count(Tile::WALL), 90_000);
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(
            Map::new(0, 5).unwrap_err().to_string(),
            "size 0x5 is invalid: width and height must be 1..=10000"
        );
        assert!(matches!(
            Map::new(100_000, 100_000),
            Err(MapError::BadSide { .. })
        ));
        assert!(matches!(
            Map::new(10_000, 10_000),
            Err(MapError::TooManyCells { .. })
        ));
        assert!(Map::new(-3, 5).is_err());
    }

    #[test]
    fn get_set_and_bounds() {
        let mut map = Map::new(3, 2).unwrap();
        map.set(2, 1, Tile::FLOOR).unwrap();
        assert_eq!(map.get(2, 1).unwrap(), Tile::FLOOR);
        assert_eq!(map.to_string(), "###\n##.\n");
        assert_eq!(
            map.set(3, 0, Tile::FLOOR).unwrap_err().to_string(),
            "cell (3, 0) is outside the 3x2 map"
        );
        assert!(map.get(-1, 0).is_err());
        assert!(map.in_bounds(0, 0) && !map.in_bounds(0, 2));
        assert!(map.is_walkable(2, 1) && !map.is_walkable(0, 0) && !map.is_walkable(9, 9));
    }

    #[test]
    fn record_rooms_start_and_markers() {
        let mut map = Map::from_ascii("#####\n#...#\n#####\n").unwrap();
        map.add_room(Rect::new(0, 0, 4, 2)).unwrap();
        assert!(map.add_room(Rect::new(0, 0, 5, 2)).is_err());
        map.set_start(1, 1).unwrap();
        map.mark(3, 1, "chest").unwrap();
        assert_eq!(map.rooms(), &[Rect::new(0, 0, 4, 2)]);
        assert_eq!(map.start(), Some((1, 1)));
        assert_eq!(map.markers()[0].name, "chest");
        assert!(map.mark(3, 1, "").is_err());
        assert!(map.set_start(5, 1).is_err());
        assert_eq!(map.to_string(), "#####\n#@..#\n#####\n");
    }

    #[test]
    fn markers_carry_data_and_a_cell_keeps_one_of_each_name() {
        let mut map = Map::from_ascii("#####\n#...#\n#####\n").unwrap();
        map.mark(1, 1, "chest").unwrap();
        map.mark(2, 1, "orc").unwrap();
        let gold = vec![
            ("gold".to_string(), ParamValue::Integer(30)),
            ("cursed".to_string(), ParamValue::Boolean(false)),
        ];
        map.mark_with(1, 1, "chest", gold).unwrap();
        assert_eq!(
            map.markers().len(),
            2,
            "the same name on the same cell is one marker"
        );
        assert_eq!(map.markers()[0].name, "chest", "and keeps its place");
        let keys: Vec<&str> = map.markers()[0]
            .props
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["cursed", "gold"], "sorted by key");
        map.mark(1, 1, "trap").unwrap();
        let nan = vec![("hp".to_string(), ParamValue::Number(f64::NAN))];
        assert_eq!(
            map.mark_with(3, 1, "x", nan),
            Err(MapError::MarkerValue("hp".into()))
        );
        assert_eq!(map.unmark(1, 1, Some("trap")), Ok(1));
        assert_eq!(map.unmark(3, 1, None), Ok(0));
        assert_eq!(map.unmark(1, 1, None), Ok(1));
        let names: Vec<&str> = map.markers().iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["orc"]);
        assert!(map.unmark(9, 9, None).is_err());
    }
}
