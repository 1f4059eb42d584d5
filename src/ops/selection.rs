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

    /// From indices already sorted and without duplicates (a row-major
    /// scan's output), so nothing needs sorting.
    pub(crate) fn from_sorted(width: i32, height: i32, cells: Vec<u32>) -> Selection {
        debug_assert!(cells.windows(2).all(|p| p[0] < p[1]));
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

    /// Every cell holding `tile`. The map is scanned 32 cells at a time
    /// and a block with no match is skipped whole, so a rare tile costs
    /// little more than reading the cells.
    pub fn of_tile(map: &Map, tile: Tile) -> Selection {
        const BLOCK: usize = 32;
        let mut cells = Vec::new();
        for (b, block) in map.cells().chunks(BLOCK).enumerate() {
            if !block.iter().fold(false, |any, &t| any | (t == tile)) {
                continue;
            }
            let base = (b * BLOCK) as u32;
            for (k, &t) in block.iter().enumerate() {
                if t == tile {
                    cells.push(base + k as u32);
                }
            }
        }
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
        let (small, large) = if self.cells.len() <= other.cells.len() {
            (&self.cells, &other.cells)
        } else {
            (&other.cells, &self.cells)
        };
        // A small selection against a big one (the cells next to a room
        // against every wall): a search per small cell instead of a walk
        // over the big one.
        if small.len().saturating_mul(16) < large.len() {
            let mut cells = Vec::new();
            let mut rest: &[u32] = large;
            for &c in small {
                match rest.binary_search(&c) {
                    Ok(k) => {
                        cells.push(c);
                        rest = &rest[k + 1..];
                    }
                    Err(k) => rest = &rest[k..],
                }
            }
            return Ok(Selection { cells, ..*self });
        }
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

    /// The bytes this selection holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<u32>()
    }

    /// The cells of the map it is a selection of.
    pub fn area(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    /// Adds every cell 8-adjacent to the selection. A big selection is
    /// grown on a row-major mask (linear in the map); a small one by
    /// sorting its neighbours (no whole-map pass).
    pub fn grow(&self) -> Selection {
        let (w, h) = (self.width, self.height);
        let area = self.area() as usize;
        let neighbour = |(x, y): (i32, i32), f: &mut dyn FnMut(u32)| {
            for ny in (y - 1).max(0)..=(y + 1).min(h - 1) {
                for nx in (x - 1).max(0)..=(x + 1).min(w - 1) {
                    f((ny * w + nx) as u32);
                }
            }
        };
        if self.cells.len().saturating_mul(64) >= area {
            let mut mask = vec![false; area];
            for p in self.points() {
                neighbour(p, &mut |i| mask[i as usize] = true);
            }
            return Selection::from_mask(w, h, &mask);
        }
        let mut out = Vec::with_capacity(self.cells.len() * 3);
        for p in self.points() {
            neighbour(p, &mut |i| out.push(i));
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

    /// The fast paths (a search per cell of a small selection, a mask for
    /// a big grow) give what the plain definitions give.
    #[test]
    fn fast_paths_match_the_definitions() {
        let (w, h) = (37, 23);
        let mut rng = Rng::new(11);
        for density in [0.002, 0.02, 0.3, 0.9] {
            let pick = |rng: &mut Rng| {
                let cells = (0..(w * h) as u32)
                    .filter(|_| rng.chance(density))
                    .collect();
                Selection::from_indices(w, h, cells)
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            let both: Vec<u32> = a
                .indices()
                .iter()
                .copied()
                .filter(|c| b.indices().contains(c))
                .collect();
            assert_eq!(a.intersect(&b).unwrap().indices(), both);
            assert_eq!(b.intersect(&a).unwrap().indices(), both);
            let grown: Vec<u32> = (0..(w * h) as u32)
                .filter(|&i| {
                    let (x, y) = ((i % w as u32) as i32, (i / w as u32) as i32);
                    a.points()
                        .any(|(ax, ay)| (ax - x).abs() <= 1 && (ay - y).abs() <= 1)
                })
                .collect();
            assert_eq!(a.grow().indices(), grown, "density {density}");
        }
        let map = Map::from_ascii(&format!("{}~\n{}\n", "#".repeat(70), ".".repeat(71))).unwrap();
        let water = Selection::of_tile(&map, Tile::WATER);
        assert_eq!(water.indices(), [70]);
        assert_eq!(Selection::of_tile(&map, Tile::FLOOR).count(), 71);
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
