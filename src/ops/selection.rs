//! Selections: sets of cells, as NetHack 3.7's `selection` and DCSS's
//! map masks. Stored as sorted row-major indices, so a small region costs
//! little on a big map and unions and intersections are linear merges.

use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

/// A set of cells of a `width` x `height` map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    width: i32,
    height: i32,
    /// Sorted, without duplicates.
    cells: Vec<u32>,
}

impl Selection {
    pub fn empty(width: i32, height: i32) -> Selection {
        Selection {
            width,
            height,
            cells: Vec::new(),
        }
    }

    /// From indices in any order (duplicates removed).
    pub fn from_indices(width: i32, height: i32, mut cells: Vec<u32>) -> Selection {
        cells.sort_unstable();
        cells.dedup();
        Selection {
            width,
            height,
            cells,
        }
    }

    /// From a row-major mask.
    pub fn from_mask(width: i32, height: i32, mask: &[bool]) -> Selection {
        let cells = mask
            .iter()
            .enumerate()
            .filter(|(_, &on)| on)
            .map(|(i, _)| i as u32)
            .collect();
        Selection {
            width,
            height,
            cells,
        }
    }

    /// Every cell of `rect`, corners included (the cells `fill_rect`
    /// writes); the rect must lie on the map.
    pub fn of_rect(map: &Map, rect: &crate::geom::Rect) -> Result<Selection, MapError> {
        map.check_rect(rect)?;
        let w = map.width() as u32;
        let cells = (rect.y1..=rect.y2)
            .flat_map(|y| (rect.x1..=rect.x2).map(move |x| y as u32 * w + x as u32))
            .collect();
        Ok(Selection {
            width: map.width(),
            height: map.height(),
            cells,
        })
    }

    /// The dead ends: walkable cells with exactly one walkable
    /// 4-neighbour (what `dunlua check` counts as `dead_ends`).
    pub fn dead_ends(map: &Map) -> Selection {
        let walk = |x: i32, y: i32| map.is_walkable(x as i64, y as i64);
        let mut cells = Vec::new();
        for y in 0..map.height() {
            for x in 0..map.width() {
                if walk(x, y) {
                    let exits = [(0, -1), (1, 0), (0, 1), (-1, 0)]
                        .iter()
                        .filter(|(dx, dy)| walk(x + dx, y + dy))
                        .count();
                    if exits == 1 {
                        cells.push(y as u32 * map.width() as u32 + x as u32);
                    }
                }
            }
        }
        Selection {
            width: map.width(),
            height: map.height(),
            cells,
        }
    }

    /// Every cell holding `tile`.
    pub fn of_tile(map: &Map, tile: Tile) -> Selection {
        let cells = map
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, &t)| t == tile)
            .map(|(i, _)| i as u32)
            .collect();
        Selection {
            width: map.width(),
            height: map.height(),
            cells,
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn count(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn indices(&self) -> &[u32] {
        &self.cells
    }

    /// The cells as `(x, y)`, in row-major order.
    pub fn points(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let w = self.width as u32;
        self.cells
            .iter()
            .map(move |&i| ((i % w) as i32, (i / w) as i32))
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && x < self.width
            && y < self.height
            && self
                .cells
                .binary_search(&((y * self.width + x) as u32))
                .is_ok()
    }

    fn same_size(&self, other: &Selection) -> Result<(), MapError> {
        if (self.width, self.height) == (other.width, other.height) {
            Ok(())
        } else {
            Err(MapError::SelectionSize {
                a: (self.width, self.height),
                b: (other.width, other.height),
            })
        }
    }

    pub fn union(&self, other: &Selection) -> Result<Selection, MapError> {
        self.same_size(other)?;
        let mut cells = Vec::with_capacity(self.cells.len() + other.cells.len());
        let (mut i, mut j) = (0, 0);
        while i < self.cells.len() || j < other.cells.len() {
            let a = self.cells.get(i).copied().unwrap_or(u32::MAX);
            let b = other.cells.get(j).copied().unwrap_or(u32::MAX);
            cells.push(a.min(b));
            i += (a <= b) as usize;
            j += (b <= a) as usize;
        }
        Ok(Selection { cells, ..*self })
    }

    pub fn intersect(&self, other: &Selection) -> Result<Selection, MapError> {
        self.same_size(other)?;
        let mut cells = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.cells.len() && j < other.cells.len() {
            let (a, b) = (self.cells[i], other.cells[j]);
            if a == b {
                cells.push(a);
            }
            i += (a <= b) as usize;
            j += (b <= a) as usize;
        }
        Ok(Selection { cells, ..*self })
    }

    /// The cells of `self` not in `other`.
    pub fn subtract(&self, other: &Selection) -> Result<Selection, MapError> {
        self.same_size(other)?;
        let cells = self
            .cells
            .iter()
            .copied()
            .filter(|c| other.cells.binary_search(c).is_err())
            .collect();
        Ok(Selection { cells, ..*self })
    }

    /// Adds every cell 8-adjacent to the selection.
    /// The bytes this selection holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<u32>()
    }

    /// The cells of the map it is a selection of.
    pub fn area(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    pub fn grow(&self) -> Selection {
        let (w, h) = (self.width, self.height);
        let mut out = Vec::with_capacity(self.cells.len() * 3);
        for (x, y) in self.points() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx >= 0 && ny >= 0 && nx < w && ny < h {
                        out.push((ny * w + nx) as u32);
                    }
                }
            }
        }
        Selection::from_indices(w, h, out)
    }

    /// A uniformly chosen cell (one `rng:int(count)` draw), or None if empty.
    pub fn random_cell(&self, rng: &mut Rng) -> Option<(i32, i32)> {
        if self.cells.is_empty() {
            return None;
        }
        let i = self.cells[rng.int(self.cells.len() as u64) as usize];
        Some((
            (i % self.width as u32) as i32,
            (i / self.width as u32) as i32,
        ))
    }
}

impl Map {
    /// Sets every selected cell to `tile`.
    pub fn fill_selection(&mut self, sel: &Selection, tile: Tile) -> Result<(), MapError> {
        if (sel.width(), sel.height()) != (self.width(), self.height()) {
            return Err(MapError::SelectionSize {
                a: (sel.width(), sel.height()),
                b: (self.width(), self.height()),
            });
        }
        for (x, y) in sel.points() {
            self.set(x as i64, y as i64, tile)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel_text(sel: &Selection) -> String {
        let mut out = String::new();
        for y in 0..sel.height() {
            for x in 0..sel.width() {
                out.push(if sel.contains(x, y) { 'x' } else { '-' });
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn select_union_intersect_subtract() {
        let map = Map::from_ascii("#..#\n#.~#\n####\n").unwrap();
        let floor = Selection::of_tile(&map, Tile::FLOOR);
        let water = Selection::of_tile(&map, Tile::WATER);
        assert_eq!(sel_text(&floor), "-xx-\n-x--\n----\n");
        let wet = floor.union(&water).unwrap();
        assert_eq!(sel_text(&wet), "-xx-\n-xx-\n----\n");
        assert_eq!(wet.count(), 4);
        assert_eq!(
            sel_text(&wet.intersect(&water).unwrap()),
            "----\n--x-\n----\n"
        );
        assert_eq!(sel_text(&wet.subtract(&water).unwrap()), sel_text(&floor));
        assert!(floor.union(&Selection::empty(3, 3)).is_err());
    }

    #[test]
    fn grow_adds_the_eight_neighbours() {
        let one = Selection::from_indices(5, 4, vec![6]);
        assert_eq!(sel_text(&one.grow()), "xxx--\nxxx--\nxxx--\n-----\n");
        let corner = Selection::from_indices(3, 3, vec![0]);
        assert_eq!(corner.grow().count(), 4, "clipped at the edge");
    }

    #[test]
    fn random_cell_is_one_draw() {
        let sel = Selection::from_indices(4, 4, vec![1, 5, 15]);
        let mut a = Rng::new(3);
        let mut b = Rng::new(3);
        let i = b.int(3) as usize;
        let want = [(1, 0), (1, 1), (3, 3)][i];
        assert_eq!(sel.random_cell(&mut a), Some(want));
        assert_eq!(Selection::empty(2, 2).random_cell(&mut a), None);
    }

    #[test]
    fn fill_selection_paints() {
        let mut map = Map::from_ascii("####\n####\n").unwrap();
        let sel = Selection::from_indices(4, 2, vec![1, 2, 6]);
        map.fill_selection(&sel, Tile::FLOOR).unwrap();
        assert_eq!(map.to_string(), "#..#\n##.#\n");
    }
}
