//! Stamping prefabs and vaults written as ASCII: each character of the rows
//! maps through a legend to a tile and optionally a marker; a space the
//! legend does not map leaves the cell as it is. Prefabs turn and mirror ([`orient`]: mirrored first,
//! then turned clockwise), and [`Map::place_prefab`] finds where one fits.

use super::selection::Selection;
use crate::geom::Rect;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

/// A mirror axis: `X` swaps left and right, `Y` top and bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    X,
    Y,
}

/// The rows of a prefab mirrored (if asked), then turned clockwise by
/// `rotate` degrees (0, 90, 180 or 270). Rows must be equally long.
pub fn orient(
    rows: &[String],
    rotate: u32,
    mirror: Option<Mirror>,
) -> Result<Vec<String>, MapError> {
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    match mirror {
        Some(Mirror::X) => grid.iter_mut().for_each(|row| row.reverse()),
        Some(Mirror::Y) => grid.reverse(),
        None => {}
    }
    let turns = match rotate {
        0 => 0,
        90 => 1,
        180 => 2,
        270 => 3,
        other => {
            return Err(MapError::Invalid(format!(
                "rotate must be 0, 90, 180 or 270, got {other}"
            )))
        }
    };
    for _ in 0..turns {
        let (h, w) = (grid.len(), grid.first().map_or(0, |r| r.len()));
        // Clockwise: the new row i is the old column i read bottom to top.
        grid = (0..w)
            .map(|i| {
                (0..h)
                    .rev()
                    .map(|j| grid[j].get(i).copied().unwrap_or(' '))
                    .collect()
            })
            .collect();
    }
    Ok(grid.into_iter().map(|r| r.into_iter().collect()).collect())
}

/// Where and how [`Map::place_prefab`] put a prefab: `x, y, rotate, mirror`.
pub type Placed = (i32, i32, u32, Option<Mirror>);

/// How [`Map::place_prefab`] mirrors a prefab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MirrorChoice {
    /// As given (`None`: not mirrored).
    Fixed(Option<Mirror>),
    /// Mirrored across X or not, drawn per try.
    Any,
}

/// Where a prefab may go, and how it may be turned.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// `None`: any of the four turns, drawn per try.
    pub rotate: Option<u32>,
    pub mirror: MirrorChoice,
    /// Every cell the prefab puts down must be on one of these cells.
    pub on: Option<PlaceOn>,
    /// The prefab must lie inside this rect (the whole map by default).
    pub within: Option<Rect>,
    pub tries: u32,
}

/// Where [`Placement::on`] lets a prefab's cells go.
#[derive(Clone, Debug, PartialEq)]
pub enum PlaceOn {
    /// Cells holding this tile when the call starts (read off the map as
    /// each try is checked, so no whole-map selection is built per call).
    Tile(Tile),
    /// The cells of a selection.
    Cells(Selection),
}

impl PlaceOn {
    fn allows(&self, map: &Map, x: i32, y: i32) -> bool {
        match self {
            PlaceOn::Tile(t) => map.get(x as i64, y as i64).is_ok_and(|c| c == *t),
            PlaceOn::Cells(sel) => sel.contains(x, y),
        }
    }
}

/// What one legend character puts down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StampCell {
    pub tile: Option<Tile>,
    pub mark: Option<String>,
}

impl Map {
    /// Stamps `rows` with their top-left corner at `(x, y)`. The whole stamp
    /// must fit on the map, rows must be equally long, and every character
    /// but a space must be in the legend; nothing is changed otherwise.
    pub fn stamp(
        &mut self,
        x: i64,
        y: i64,
        rows: &[String],
        legend: &[(char, StampCell)],
    ) -> Result<(), MapError> {
        // Each character is looked up in a sorted copy of the legend (the
        // first entry of a key wins, as in the legend): a long legend costs
        // a few steps a cell, not a scan of it.
        let mut sorted: Vec<(char, &StampCell)> = legend.iter().map(|(c, s)| (*c, s)).collect();
        sorted.sort_by_key(|(c, _)| *c);
        sorted.dedup_by_key(|(c, _)| *c);
        let lookup = |c: char| {
            sorted
                .binary_search_by_key(&c, |(k, _)| *k)
                .ok()
                .map(|i| sorted[i].1)
        };
        let width = rows.first().map_or(0, |r| r.chars().count());
        for (i, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width {
                return Err(MapError::Invalid(format!(
                    "stamp row {} has {} where row 1 has {width}",
                    i + 1,
                    crate::one_line::characters(len)
                )));
            }
            if let Some(c) = row.chars().find(|&c| c != ' ' && lookup(c).is_none()) {
                return Err(MapError::Invalid(format!(
                    "stamp row {} uses '{c}', which the legend does not define",
                    i + 1
                )));
            }
        }
        if rows.is_empty() {
            return Err(MapError::Invalid("the stamp has no rows".into()));
        }
        if width == 0 {
            return Err(MapError::Invalid(
                "the stamp's rows are empty: give at least one character a row".into(),
            ));
        }
        let (w, h) = (width as i64, rows.len() as i64);
        if self.index(x, y).is_err() || self.index(x + w - 1, y + h - 1).is_err() {
            return Err(MapError::Invalid(format!(
                "the {w}x{h} stamp at ({x}, {y}) reaches outside the {}x{} map",
                self.width(),
                self.height()
            )));
        }
        for (dy, row) in rows.iter().enumerate() {
            for (dx, c) in row.chars().enumerate() {
                let Some(cell) = lookup(c) else {
                    continue;
                };
                let (cx, cy) = (x + dx as i64, y + dy as i64);
                if let Some(tile) = cell.tile {
                    self.set(cx, cy, tile)?;
                }
                if let Some(name) = &cell.mark {
                    self.mark(cx, cy, name)?;
                }
            }
        }
        Ok(())
    }

    /// Finds where a prefab fits and stamps it there; returns where and how
    /// it went (`x, y, rotate, mirror`), or `None` after `tries` misses.
    /// Specified, per try: `rng:int(4)` for the turn (×90°) if any turn may
    /// do, `rng:int(2)` for mirroring across X if either may do, then
    /// `x = r.x1 + rng:int(r.x2 - r.x1 + 1 - w + 1)` and `y` likewise in the
    /// `within` rect `r` (default the whole map) for the turned prefab's
    /// `w x h`; it fits when every cell it puts down (not a space) is on
    /// the `on` cells (if given).
    pub fn place_prefab(
        &mut self,
        rows: &[String],
        legend: &[(char, StampCell)],
        rng: &mut Rng,
        how: &Placement,
    ) -> Result<Option<Placed>, MapError> {
        // Checks the rows and legend once, on a copy the size of the prefab.
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut probe = Map::with_tiles(
            width.max(1) as i64,
            rows.len().max(1) as i64,
            self.tiles().clone(),
        )?;
        probe.stamp(0, 0, rows, legend)?;
        let area = how.within.unwrap_or(Rect {
            x1: 0,
            y1: 0,
            x2: self.width() - 1,
            y2: self.height() - 1,
        });
        self.check_rect(&area)?;
        if let Some(PlaceOn::Cells(on)) = &how.on {
            if (on.width(), on.height()) != (self.width(), self.height()) {
                return Err(MapError::SelectionSize {
                    a: (on.width(), on.height()),
                    b: (self.width(), self.height()),
                });
            }
        }
        for _ in 0..how.tries {
            let rotate = match how.rotate {
                Some(r) => r,
                None => 90 * rng.int(4) as u32,
            };
            let mirror = match how.mirror {
                MirrorChoice::Fixed(m) => m,
                MirrorChoice::Any => (rng.int(2) == 1).then_some(Mirror::X),
            };
            let turned = orient(rows, rotate, mirror)?;
            let (w, h) = (turned[0].chars().count() as i32, turned.len() as i32);
            let (room_w, room_h) = (area.x2 - area.x1 + 1, area.y2 - area.y1 + 1);
            if w > room_w || h > room_h {
                continue;
            }
            let x = area.x1 + rng.int((room_w - w + 1) as u64) as i32;
            let y = area.y1 + rng.int((room_h - h + 1) as u64) as i32;
            let fits = turned.iter().enumerate().all(|(dy, row)| {
                row.chars().enumerate().all(|(dx, c)| {
                    c == ' '
                        || how
                            .on
                            .as_ref()
                            .is_none_or(|on| on.allows(self, x + dx as i32, y + dy as i32))
                })
            });
            if fits {
                self.stamp(x as i64, y as i64, &turned, legend)?;
                return Ok(Some((x, y, rotate, mirror)));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend() -> Vec<(char, StampCell)> {
        vec![
            (
                '#',
                StampCell {
                    tile: Some(Tile::WALL),
                    mark: None,
                },
            ),
            (
                '.',
                StampCell {
                    tile: Some(Tile::FLOOR),
                    mark: None,
                },
            ),
            (
                '+',
                StampCell {
                    tile: Some(Tile::DOOR),
                    mark: None,
                },
            ),
            (
                '$',
                StampCell {
                    tile: Some(Tile::FLOOR),
                    mark: Some("treasure".into()),
                },
            ),
        ]
    }

    fn rows(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn stamps_tiles_and_markers_and_skips_spaces() {
        let mut map = Map::from_ascii("......\n......\n......\n......\n").unwrap();
        map.stamp(1, 0, &rows(&["### ", "#$+.", "####"]), &legend())
            .unwrap();
        assert_eq!(map.to_string(), ".###..\n.#.+..\n.####.\n......\n");
        assert_eq!(map.markers()[0].name, "treasure");
        assert_eq!((map.markers()[0].x, map.markers()[0].y), (2, 1));
    }

    #[test]
    fn a_stamp_of_empty_rows_says_so() {
        let mut map = Map::from_ascii("...\n...\n").unwrap();
        let err = map.stamp(0, 0, &rows(&[""]), &legend()).unwrap_err();
        assert!(err.to_string().contains("rows are empty"), "{err}");
        let err = map.stamp(0, 0, &rows(&[]), &legend()).unwrap_err();
        assert!(err.to_string().contains("has no rows"), "{err}");
    }

    #[test]
    fn prefabs_mirror_then_turn_clockwise() {
        let l = rows(&["ab", "cd", "ef"]);
        assert_eq!(orient(&l, 0, None).unwrap(), l);
        assert_eq!(orient(&l, 90, None).unwrap(), rows(&["eca", "fdb"]));
        assert_eq!(orient(&l, 180, None).unwrap(), rows(&["fe", "dc", "ba"]));
        assert_eq!(orient(&l, 270, None).unwrap(), rows(&["bdf", "ace"]));
        assert_eq!(
            orient(&l, 0, Some(Mirror::X)).unwrap(),
            rows(&["ba", "dc", "fe"])
        );
        assert_eq!(
            orient(&l, 0, Some(Mirror::Y)).unwrap(),
            rows(&["ef", "cd", "ab"])
        );
        assert_eq!(
            orient(&l, 90, Some(Mirror::X)).unwrap(),
            rows(&["fdb", "eca"])
        );
        assert!(orient(&l, 45, None).is_err());
    }

    #[test]
    fn place_prefab_finds_room_on_the_cells_asked_for() {
        // Floor only on the right half: a 3x2 prefab must land there.
        let mut map = Map::from_ascii("#####.....\n#####.....\n#####.....\n").unwrap();
        let on = Selection::of_tile(&map, Tile::FLOOR);
        let how = Placement {
            rotate: None,
            mirror: MirrorChoice::Any,
            on: Some(PlaceOn::Cells(on)),
            within: None,
            tries: 200,
        };
        let put = map
            .place_prefab(&rows(&["#+#", "#$."]), &legend(), &mut Rng::new(5), &how)
            .unwrap()
            .unwrap();
        let (x, _, rotate, _) = put;
        assert!(x >= 5, "on floor only: {put:?}");
        assert!([0, 90, 180, 270].contains(&rotate));
        assert_eq!(map.count(Tile::DOOR), 1);
        assert_eq!(map.markers().len(), 1);
        // Somewhere it cannot fit: nothing happens.
        let mut small = Map::from_ascii("###\n###\n").unwrap();
        let before = small.clone();
        let none = Placement {
            rotate: Some(0),
            mirror: MirrorChoice::Fixed(None),
            on: Some(PlaceOn::Cells(Selection::of_tile(&small, Tile::FLOOR))),
            within: None,
            tries: 20,
        };
        assert_eq!(
            small.place_prefab(&rows(&["##", "#."]), &legend(), &mut Rng::new(1), &none),
            Ok(None)
        );
        assert_eq!(small, before);
    }

    #[test]
    fn place_prefab_on_a_tile_places_as_on_its_selection() {
        let text = "#####.....\n##.##.....\n#####.....\n#####.....\n";
        for seed in 0..20 {
            let mut by_tile = Map::from_ascii(text).unwrap();
            let mut by_cells = by_tile.clone();
            let how = |on| Placement {
                rotate: None,
                mirror: MirrorChoice::Any,
                on: Some(on),
                within: None,
                tries: 30,
            };
            let cells = PlaceOn::Cells(Selection::of_tile(&by_cells, Tile::FLOOR));
            let prefab = rows(&["#+#", "#$."]);
            let a = by_tile.place_prefab(
                &prefab,
                &legend(),
                &mut Rng::new(seed),
                &how(PlaceOn::Tile(Tile::FLOOR)),
            );
            let b = by_cells.place_prefab(&prefab, &legend(), &mut Rng::new(seed), &how(cells));
            assert_eq!(a, b, "seed {seed}");
            assert_eq!(by_tile, by_cells, "seed {seed}");
        }
    }

    #[test]
    fn refuses_stamps_off_the_edge_and_unknown_characters() {
        let mut map = Map::new(6, 4).unwrap();
        let before = map.clone();
        let err = map
            .stamp(4, 2, &rows(&["...", "..."]), &legend())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the 3x2 stamp at (4, 2) reaches outside the 6x4 map"
        );
        let err = map.stamp(0, 0, &rows(&[".?."]), &legend()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "stamp row 1 uses '?', which the legend does not define"
        );
        assert!(map.stamp(0, 0, &rows(&["...", ".."]), &legend()).is_err());
        assert_eq!(map, before, "a refused stamp changes nothing");
    }
}
