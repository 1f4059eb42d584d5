//! What cuts the walkable area in pieces. Chokepoints (Brogue's chokeMap):
//! the walkable cells whose removal splits the walkable region they are
//! in, i.e. the articulation points of the 4-connected walkable graph,
//! found in linear time by Hopcroft and Tarjan's depth-first search, run
//! with an explicit stack so a 2000x2000 map (4 million cells, a DFS as
//! deep) cannot overflow the call stack. And whether blocking a set of
//! cells would split a region (Brogue's levelIsDisconnectedWithBlockingMap,
//! which its lakes use).

use std::collections::VecDeque;

use super::bits::Bits;
use super::selection::Selection;
use crate::map::{Map, MapError};

/// Whether making the cells of `blocked` impassable would split a walkable
/// region (4-connected) in two or more pieces: some two walkable cells
/// outside `blocked` that are joined now would no longer be. Cells of
/// `blocked` that are not walkable change nothing.
///
/// Linear in `blocked` and in the regions it touches, never in the whole
/// map: the walkable cells next to the blocked ones are where the pieces
/// would meet, so the regions that split are those where they fall apart.
/// A search from one of them stops as soon as it has met all the others.
pub fn disconnects(map: &Map, blocked: &Selection) -> Result<bool, MapError> {
    if (blocked.width(), blocked.height()) != (map.width(), map.height()) {
        return Err(MapError::SelectionSize {
            a: (blocked.width(), blocked.height()),
            b: (map.width(), map.height()),
        });
    }
    let mut table = [false; 256];
    for (tile, kind) in map.tiles().iter() {
        table[tile.index()] = kind.walkable;
    }
    let cells = map.cells();
    let walk = |i: usize| table[cells[i].index()];
    let (w, h) = (map.width() as usize, map.height() as usize);
    let n = cells.len();
    let neighbours = |i: usize| {
        let (x, y) = (i % w, i / w);
        [
            (y > 0).then(|| i - w),
            (x + 1 < w).then(|| i + 1),
            (y + 1 < h).then(|| i + w),
            (x > 0).then(|| i - 1),
        ]
        .into_iter()
        .flatten()
    };
    let mut in_blocked = Bits::new(n);
    for &i in blocked.indices() {
        in_blocked.insert(i as usize);
    }
    // The walkable cells left next to a walkable blocked one: every piece
    // of a region that splits holds one of them.
    let mut is_edge = Bits::new(n);
    let mut edge = Vec::new();
    for &s in blocked.indices() {
        let s = s as usize;
        if !walk(s) {
            continue;
        }
        for j in neighbours(s) {
            if walk(j) && !in_blocked.get(j) && is_edge.insert(j) {
                edge.push(j);
            }
        }
    }
    if edge.len() <= 1 {
        return Ok(false);
    }
    // The pieces after blocking, one search each from an edge cell not yet
    // reached; the first that meets every edge cell settles it.
    let mut seen = Bits::new(n);
    let mut queue = VecDeque::new();
    let mut pieces = Vec::new();
    for &start in &edge {
        if seen.get(start) {
            continue;
        }
        pieces.push(start);
        seen.insert(start);
        queue.clear();
        queue.push_back(start);
        let mut met = 1;
        while let Some(i) = queue.pop_front() {
            for j in neighbours(i) {
                if walk(j) && !in_blocked.get(j) && seen.insert(j) {
                    queue.push_back(j);
                    met += is_edge.get(j) as usize;
                }
            }
            if pieces.len() == 1 && met == edge.len() {
                return Ok(false);
            }
        }
    }
    // Several pieces: a split when two of them were one region before.
    let mut is_piece = Bits::new(n);
    for &p in &pieces {
        is_piece.insert(p);
    }
    let mut before = Bits::new(n);
    for &start in &pieces {
        if before.get(start) {
            continue;
        }
        before.insert(start);
        queue.clear();
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            for j in neighbours(i) {
                if walk(j) && before.insert(j) {
                    if is_piece.get(j) {
                        return Ok(true);
                    }
                    queue.push_back(j);
                }
            }
        }
    }
    Ok(false)
}

/// A mask, row-major, of the walkable cells whose removal would leave the
/// rest of their walkable region (4-connected) in two or more pieces.
pub fn chokepoints(map: &Map) -> Vec<bool> {
    let walkable = map.walkable_mask();
    let (w, h) = (map.width() as usize, map.height() as usize);
    let n = walkable.len();
    // Discovery times from 1 (0 = not yet visited) and low points: the
    // earliest discovery time reachable from a cell's DFS subtree by one
    // edge out of it.
    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut cut = vec![false; n];
    // The DFS path: (cell, how many of its 4 directions were tried).
    let mut stack: Vec<(u32, u8)> = Vec::new();
    let mut time = 0u32;
    let neighbour = |i: usize, dir: u8| -> Option<usize> {
        let (x, y) = (i % w, i / w);
        match dir {
            0 if y > 0 => Some(i - w),
            1 if x + 1 < w => Some(i + 1),
            2 if y + 1 < h => Some(i + w),
            3 if x > 0 => Some(i - 1),
            _ => None,
        }
    };
    for root in 0..n {
        if !walkable[root] || disc[root] != 0 {
            continue;
        }
        time += 1;
        disc[root] = time;
        low[root] = time;
        let mut root_children = 0;
        stack.push((root as u32, 0));
        while let Some(top) = stack.last_mut() {
            let v = top.0 as usize;
            if top.1 < 4 {
                let dir = top.1;
                top.1 += 1;
                let Some(u) = neighbour(v, dir) else {
                    continue;
                };
                if !walkable[u] {
                    continue;
                }
                if disc[u] == 0 {
                    time += 1;
                    disc[u] = time;
                    low[u] = time;
                    if v == root {
                        root_children += 1;
                    }
                    stack.push((u as u32, 0));
                } else {
                    // A back edge (or the edge to the parent, which cannot
                    // lower `low` below the parent's time and so never
                    // changes the test below).
                    low[v] = low[v].min(disc[u]);
                }
                continue;
            }
            stack.pop();
            if let Some(&(p, _)) = stack.last() {
                let p = p as usize;
                low[p] = low[p].min(low[v]);
                // No cell of v's subtree reaches above p: p cuts it off.
                if p != root && low[v] >= disc[p] {
                    cut[p] = true;
                }
            }
        }
        if root_children >= 2 {
            cut[root] = true;
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{flood, regions};

    /// Against the definition: more regions after blocking than before,
    /// counting only regions not wholly blocked, on random maps and
    /// random blocked sets.
    #[test]
    fn disconnects_matches_counting_regions() {
        let mut rng = crate::rng::Rng::new(8);
        let (w, h) = (10, 8);
        let mut splits = 0;
        for round in 0..400 {
            let text: String = (0..h)
                .map(|_| {
                    let row: String = (0..w)
                        .map(|_| if rng.chance(0.65) { '.' } else { '#' })
                        .collect();
                    row + "\n"
                })
                .collect();
            let map = Map::from_ascii(&text).unwrap();
            let density = [0.03, 0.1, 0.3][round % 3];
            let picked: Vec<u32> = (0..(w * h) as u32)
                .filter(|_| rng.chance(density))
                .collect();
            let sel = Selection::from_indices(w, h, picked);
            // Each region before: into how many pieces does it fall?
            let mut blocked_map = map.clone();
            blocked_map
                .fill_selection(&sel, crate::map::Tile::WALL)
                .unwrap();
            let after = regions(&blocked_map);
            let split = regions(&map).iter().any(|r| {
                after
                    .iter()
                    .filter(|a| r.cells.intersect(&a.cells).unwrap().count() > 0)
                    .count()
                    > 1
            });
            assert_eq!(
                disconnects(&map, &sel).unwrap(),
                split,
                "round {round}\n{text}{:?}",
                sel.indices()
            );
            splits += split as usize;
        }
        assert!((50..350).contains(&splits), "both answers tried: {splits}");
        let map = Map::from_ascii("....\n").unwrap();
        assert!(disconnects(&map, &Selection::empty(3, 1)).is_err());
    }

    fn cuts(map: &Map) -> String {
        let mask = chokepoints(map);
        let w = map.width() as usize;
        mask.chunks(w)
            .map(|row| {
                let mut s: String = row.iter().map(|&c| if c { 'x' } else { '-' }).collect();
                s.push('\n');
                s
            })
            .collect()
    }

    #[test]
    fn corridors_cut_and_rooms_and_loops_do_not() {
        // Two rooms joined by a corridor, and a dead-end spur; a loop
        // (bottom right) has no chokepoint on it.
        let map = Map::from_ascii(
            "############\n\
             #...#####..#\n\
             #.......#..#\n\
             #...###.#..#\n\
             #######.....\n\
             #######.#.#.\n\
             #######.....\n",
        )
        .unwrap();
        assert_eq!(
            cuts(&map),
            "------------\n\
             ------------\n\
             ---xxxxx----\n\
             -------x----\n\
             -------x----\n\
             ------------\n\
             ------------\n",
            "\n{map}"
        );
    }

    #[test]
    fn a_single_cell_and_a_pair_have_none() {
        let map = Map::from_ascii("###\n#.#\n###\n").unwrap();
        assert_eq!(cuts(&map), "---\n---\n---\n");
        let map = Map::from_ascii("####\n#..#\n####\n").unwrap();
        assert_eq!(cuts(&map), "----\n----\n----\n");
        let map = Map::from_ascii("#####\n#...#\n#####\n").unwrap();
        assert_eq!(cuts(&map), "-----\n--x--\n-----\n");
    }

    /// Against the definition: a cell is a chokepoint exactly when making
    /// it rock leaves more regions than before (minus the one it was, if
    /// it was a region alone), on random maps.
    #[test]
    fn matches_removing_each_cell() {
        let mut rng = crate::rng::Rng::new(3);
        for _ in 0..40 {
            let (w, h) = (9, 7);
            let text: String = (0..h)
                .map(|_| {
                    let row: String = (0..w)
                        .map(|_| if rng.chance(0.6) { '.' } else { '#' })
                        .collect();
                    row + "\n"
                })
                .collect();
            let map = Map::from_ascii(&text).unwrap();
            let mask = chokepoints(&map);
            let before = regions(&map).len();
            for (i, &cut) in mask.iter().enumerate() {
                let (x, y) = ((i % w as usize) as i64, (i / w as usize) as i64);
                if !map.is_walkable(x, y) {
                    assert!(!cut);
                    continue;
                }
                let alone = flood(&map, x, y).iter().filter(|&&r| r).count() == 1;
                let mut without = map.clone();
                without.set(x, y, crate::map::Tile::WALL).unwrap();
                let after = regions(&without).len();
                let splits = after > before - alone as usize;
                assert_eq!(cut, splits, "({x}, {y})\n{text}");
            }
        }
    }

    #[test]
    fn a_long_winding_corridor_needs_no_deep_call_stack() {
        // A serpentine one cell wide: a DFS as deep as the map is big.
        let (w, h) = (401, 401);
        let mut text = String::new();
        for y in 0..h {
            for x in 0..w {
                let open = if y % 2 == 0 {
                    true
                } else if (y / 2) % 2 == 0 {
                    x == w - 1
                } else {
                    x == 0
                };
                text.push(if open { '.' } else { '#' });
            }
            text.push('\n');
        }
        let map = Map::from_ascii(&text).unwrap();
        let mask = chokepoints(&map);
        let count = mask.iter().filter(|&&c| c).count();
        // Every cell but the two ends.
        let walkable = map.walkable_mask().iter().filter(|&&c| c).count();
        assert_eq!(count, walkable - 2);
    }
}
