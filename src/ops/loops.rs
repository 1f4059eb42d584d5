//! Loops (Brogue's `addLoops`): opening a wall cell that separates two
//! walkable cells far apart by walking, so a tree of rooms and corridors
//! gets circuits. Specified: candidates are the cells off the outer ring
//! that are not walkable, with walkable cells on two opposite sides (north
//! and south, or east and west) and not on the other two; in row-major
//! order, shuffled by `rng:shuffle` when a stream is given. Each candidate
//! in turn, on the map as it is by then, is opened (set to the tile) when
//! it still qualifies and the walking distance between its two sides
//! (4-connected, walkable cells) is at least `min_distance`.

use std::collections::VecDeque;

use crate::map::{Map, Tile};
use crate::rng::Rng;

/// The walkable cells of a map, row-major, read off by coordinates (off
/// the map is not walkable) and kept up to date as loops are opened.
struct Walkable {
    w: i32,
    h: i32,
    mask: Vec<bool>,
}

impl Walkable {
    fn of(map: &Map) -> Walkable {
        Walkable {
            w: map.width(),
            h: map.height(),
            mask: map.walkable_mask(),
        }
    }

    fn at(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.w && y < self.h && self.mask[(y * self.w + x) as usize]
    }
}

/// Whether (x, y) is a wall between two walkable cells on opposite sides;
/// the two sides if so.
fn between(walk: &Walkable, x: i32, y: i32) -> Option<((i32, i32), (i32, i32))> {
    if walk.at(x, y) {
        return None;
    }
    let (n, s) = (walk.at(x, y - 1), walk.at(x, y + 1));
    let (e, w) = (walk.at(x + 1, y), walk.at(x - 1, y));
    if n && s && !e && !w {
        Some(((x, y - 1), (x, y + 1)))
    } else if e && w && !n && !s {
        Some(((x + 1, y), (x - 1, y)))
    } else {
        None
    }
}

/// The cells off the outer ring that qualify now, row-major: what
/// [`between`] says, read straight off three rows of the mask at a time.
fn candidates(walk: &Walkable) -> Vec<(i32, i32)> {
    let (w, h) = (walk.w as usize, walk.h as usize);
    let mut out = Vec::new();
    if w < 3 || h < 3 {
        return out;
    }
    for y in 1..h - 1 {
        let up = &walk.mask[(y - 1) * w..y * w];
        let row = &walk.mask[y * w..(y + 1) * w];
        let down = &walk.mask[(y + 1) * w..(y + 2) * w];
        for x in 1..w - 1 {
            let (n, s, e, west) = (up[x], down[x], row[x + 1], row[x - 1]);
            if !row[x] && ((n && s && !e && !west) || (e && west && !n && !s)) {
                out.push((x as i32, y as i32));
            }
        }
    }
    out
}

/// Walking distance from `a` to `b`, if it is below `limit`.
fn distance_below(
    walk: &Walkable,
    a: (i32, i32),
    b: (i32, i32),
    limit: u32,
    seen: &mut [u32],
    stamp: u32,
) -> Option<u32> {
    let w = walk.w;
    let index = |(x, y): (i32, i32)| (y * w + x) as usize;
    let mut queue = VecDeque::from([(a, 0u32)]);
    seen[index(a)] = stamp;
    while let Some(((x, y), d)) = queue.pop_front() {
        if (x, y) == b {
            return Some(d);
        }
        if d + 1 >= limit {
            continue;
        }
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let next = (x + dx, y + dy);
            if walk.at(next.0, next.1) && seen[index(next)] != stamp {
                seen[index(next)] = stamp;
                queue.push_back((next, d + 1));
            }
        }
    }
    None
}

impl Map {
    /// How many cells qualify to open now (what a caller can charge for:
    /// each costs at most one bounded search).
    pub fn loop_candidates(&self) -> usize {
        candidates(&Walkable::of(self)).len()
    }

    /// Opens loops as specified above; returns how many cells it opened.
    pub fn add_loops(&mut self, min_distance: u32, tile: Tile, rng: Option<&mut Rng>) -> usize {
        let mut walk = Walkable::of(self);
        let mut candidates = candidates(&walk);
        if let Some(rng) = rng {
            rng.shuffle(&mut candidates);
        }
        let opens_walkable = self.tiles().kind(tile).walkable;
        // A stamp per search instead of clearing the marks each time.
        let mut seen = vec![0u32; self.cells().len()];
        let mut opened = 0;
        for (stamp, (x, y)) in candidates.into_iter().enumerate() {
            let Some((a, b)) = between(&walk, x, y) else {
                continue;
            };
            if distance_below(&walk, a, b, min_distance, &mut seen, stamp as u32 + 1).is_none() {
                let _ = self.set(x as i64, y as i64, tile);
                walk.mask[(y * walk.w + x) as usize] = opens_walkable;
                opened += 1;
            }
        }
        opened
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two corridors joined only at the far end: the wall between them near
    // the start separates cells 2 steps apart as the crow flies but 14 by
    // walking.
    const U: &str = "##########\n#........#\n########.#\n#........#\n##########\n";

    #[test]
    fn opens_walls_between_cells_far_apart_by_walking() {
        let mut map = Map::from_ascii(U).unwrap();
        // (1, 2) first: 16 steps round, so it opens; after it every other
        // candidate is at most 8 steps round.
        assert_eq!(map.add_loops(10, Tile::DOOR, None), 1);
        assert_eq!(
            map.to_string(),
            "##########\n#........#\n#+######.#\n#........#\n##########\n"
        );
        let mut far = Map::from_ascii(U).unwrap();
        assert_eq!(
            far.add_loops(100, Tile::FLOOR, None),
            0,
            "nothing is 100 steps round"
        );
        let mut near = Map::from_ascii(U).unwrap();
        // Every candidate is 2 or more round, but an opening disqualifies
        // its neighbours (a wall needs walls on its other two sides).
        assert_eq!(near.add_loops(2, Tile::FLOOR, None), 3);
        assert_eq!(
            near.to_string(),
            "##########\n#........#\n#.#.#.##.#\n#........#\n##########\n"
        );
        // With a stream the order is shuffled (specified): still one loop.
        let mut shuffled = Map::from_ascii(U).unwrap();
        assert_eq!(
            shuffled.add_loops(10, Tile::DOOR, Some(&mut Rng::new(3))),
            1
        );
    }
}
