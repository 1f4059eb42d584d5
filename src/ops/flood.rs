//! Reachability over walkable cells (4-connected, as the player walks in the
//! reference scripts' corridors).

use super::bits::Bits;
use super::selection::Selection;
use crate::map::Map;

/// The cells reachable from `(x, y)` through walkable cells, 4-connected, as a
/// row-major mask. An unwalkable or off-map start reaches nothing.
pub fn flood(map: &Map, x: i64, y: i64) -> Vec<bool> {
    flood_avoiding(map, x, y, None)
}

/// [`flood`] that never enters a cell of `avoid` (a locked door, a vault):
/// what is reachable without crossing it. A start in `avoid` reaches nothing.
pub fn flood_avoiding(map: &Map, x: i64, y: i64, avoid: Option<&Selection>) -> Vec<bool> {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let mut seen = vec![false; w * h];
    let Ok(first) = map.index(x, y) else {
        return seen;
    };
    let mut walkable = map.walkable_mask();
    if let Some(avoid) = avoid {
        for &i in avoid.indices() {
            if let Some(cell) = walkable.get_mut(i as usize) {
                *cell = false;
            }
        }
    }
    if !walkable[first] {
        return seen;
    }
    let mut stack = vec![first];
    seen[first] = true;
    while let Some(i) = stack.pop() {
        let (cx, cy) = (i % w, i / w);
        let mut visit = |j: usize| {
            if walkable[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        };
        if cx > 0 {
            visit(i - 1);
        }
        if cx + 1 < w {
            visit(i + 1);
        }
        if cy > 0 {
            visit(i - w);
        }
        if cy + 1 < h {
            visit(i + w);
        }
    }
    seen
}

/// [`flood_avoiding`] as a selection, in time and memory that follow what
/// it reaches rather than the map: cells are marked in a bitset (an eighth
/// of a byte a cell to clear) and kinds read through a table, so a small
/// room on a big map costs little more than clearing the bits.
pub fn flood_selection(map: &Map, x: i64, y: i64, avoid: Option<&Selection>) -> Selection {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let (wi, hi) = (map.width(), map.height());
    let Ok(first) = map.index(x, y) else {
        return Selection::empty(wi, hi);
    };
    let mut table = [false; 256];
    for (tile, kind) in map.tiles().iter() {
        table[tile.index()] = kind.walkable;
    }
    let cells = map.cells();
    // `seen` starts with the avoided cells in it, so they are never entered.
    let mut seen = Bits::new(cells.len());
    if let Some(avoid) = avoid {
        for &i in avoid.indices() {
            if (i as usize) < cells.len() {
                seen.insert(i as usize);
            }
        }
    }
    if !table[cells[first].index()] || seen.get(first) {
        return Selection::empty(wi, hi);
    }
    let mut reached = Bits::new(cells.len());
    seen.insert(first);
    reached.insert(first);
    let mut count = 1usize;
    let mut stack = vec![first as u32];
    while let Some(i) = stack.pop() {
        let i = i as usize;
        let (cx, cy) = (i % w, i / w);
        let mut visit = |j: usize| {
            if table[cells[j].index()] && seen.insert(j) {
                reached.insert(j);
                count += 1;
                stack.push(j as u32);
            }
        };
        if cx > 0 {
            visit(i - 1);
        }
        if cx + 1 < w {
            visit(i + 1);
        }
        if cy > 0 {
            visit(i - w);
        }
        if cy + 1 < h {
            visit(i + w);
        }
    }
    debug_assert_eq!(reached.indices().len(), count);
    Selection::from_sorted(wi, hi, reached.indices())
}

/// Walkable cells that cannot be reached from the start (all of them when
/// there is no start), as `(x, y)` in row-major order.
pub fn unreachable_walkable(map: &Map) -> Vec<(i32, i32)> {
    let reach = match map.start() {
        Some((x, y)) => flood(map, x as i64, y as i64),
        None => vec![false; map.cells().len()],
    };
    let w = map.width() as usize;
    map.cells()
        .iter()
        .enumerate()
        .filter(|&(i, &t)| map.tiles().kind(t).walkable && !reach[i])
        .map(|(i, _)| ((i % w) as i32, (i / w) as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reached(map: &Map, x: i64, y: i64) -> String {
        let mask = flood(map, x, y);
        let w = map.width() as usize;
        mask.chunks(w)
            .map(|row| {
                let mut s: String = row.iter().map(|&r| if r { 'x' } else { '-' }).collect();
                s.push('\n');
                s
            })
            .collect()
    }

    #[test]
    fn flood_stops_at_walls_and_ignores_diagonals() {
        let map = Map::from_ascii("#####\n#..##\n##.#.\n#####\n").unwrap();
        assert_eq!(reached(&map, 1, 1), "-----\n-xx--\n--x--\n-----\n");
        assert_eq!(reached(&map, 0, 0), "-----\n-----\n-----\n-----\n");
    }

    #[test]
    fn flood_can_avoid_cells() {
        let map = Map::from_ascii("#######\n#..+..#\n#######\n").unwrap();
        let door = Selection::from_indices(7, 3, vec![7 + 3]);
        let mask = flood_avoiding(&map, 1, 1, Some(&door));
        let reached: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
        assert_eq!(reached, [8, 9], "the door and beyond are not reached");
        let sel = flood_selection(&map, 1, 1, Some(&door));
        assert_eq!(sel.indices(), [8, 9]);
        assert_eq!(flood_selection(&map, 1, 1, None).count(), 5);
        assert_eq!(flood_selection(&map, 3, 1, Some(&door)).count(), 0);
        assert_eq!(flood_selection(&map, 0, 0, None).count(), 0);
        assert_eq!(flood_selection(&map, 9, 9, None).count(), 0);
        assert_eq!(flood(&map, 1, 1).iter().filter(|&&r| r).count(), 5);
    }

    #[test]
    fn unreachable_lists_cut_off_cells() {
        let map = Map::from_ascii("######\n#@.#.#\n######\n").unwrap();
        assert_eq!(unreachable_walkable(&map), vec![(4, 1)]);
        let joined = Map::from_ascii("######\n#@.+.#\n######\n").unwrap();
        assert!(unreachable_walkable(&joined).is_empty());
    }
}
