//! The overlapping model's vocabulary: every N×N window of a sample (turned
//! and mirrored as the symmetry asks), counted, and which windows may sit
//! next to which (they agree where they overlap).

use std::collections::HashMap;

use super::bitset::Bits;
use crate::map::Tile;

/// The four neighbour offsets, in the order the propagator uses them:
/// left, up, right, down.
pub(super) const DIRS: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

/// A sample drawn as tiles, row-major.
#[derive(Clone, Debug)]
pub struct Sample {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Tile>,
}

/// The learned patterns: their tiles (row-major, `n * n` each), how often
/// each was seen, and for each direction the patterns allowed next to it.
pub(super) struct Patterns {
    pub n: usize,
    /// `tiles[p * n * n + j * n + i]`: pattern p's tile at (i, j).
    pub tiles: Vec<Tile>,
    pub weights: Vec<u64>,
    /// `compat[d][p]`: the patterns that may sit at offset `DIRS[d]` of p.
    pub compat: [Vec<Bits>; 4],
    /// `unions[d]`, when small enough to keep: for each byte of a domain
    /// (8 patterns) and each of its 256 values, the union of `compat[d]`
    /// over those patterns, so what a domain allows next to it costs a
    /// lookup per byte instead of a pass per pattern.
    pub unions: Option<[Vec<u64>; 4]>,
}

/// The most bytes the union tables may take; past it, unions are built
/// pattern by pattern.
pub(super) const MAX_UNION_BYTES: usize = 8 << 20;

/// The bytes the union tables of `count` patterns take.
pub(super) fn union_bytes(count: usize) -> usize {
    4 * count.div_ceil(8) * 256 * super::bitset::words(count) * 8
}

/// The union tables (see [`Patterns::unions`]) of `compat`.
fn union_tables(compat: &[Vec<Bits>; 4], count: usize) -> [Vec<u64>; 4] {
    let w = super::bitset::words(count);
    let chunks = count.div_ceil(8);
    std::array::from_fn(|d| {
        let mut table = vec![0u64; chunks * 256 * w];
        for k in 0..chunks {
            for byte in 1..256usize {
                let low = byte.trailing_zeros() as usize;
                let rest = byte & (byte - 1);
                let at = (k * 256 + byte) * w;
                let from = (k * 256 + rest) * w;
                for i in 0..w {
                    let bit = match compat[d].get(k * 8 + low) {
                        Some(bits) => bits.0[i],
                        None => 0,
                    };
                    table[at + i] = table[from + i] | bit;
                }
            }
        }
        table
    })
}

impl Patterns {
    pub fn count(&self) -> usize {
        self.weights.len()
    }

    pub fn tile(&self, p: usize, i: usize, j: usize) -> Tile {
        self.tiles[p * self.n * self.n + j * self.n + i]
    }
}

/// How many windows learning reads (each turned `symmetry` ways): the work
/// to charge before it starts.
pub(super) fn windows(sample: &Sample, n: usize, symmetry: usize) -> u64 {
    let w = (sample.width + 1).saturating_sub(n) as u64;
    let h = (sample.height + 1).saturating_sub(n) as u64;
    w * h * symmetry as u64
}

/// The `k`-th of mxgmn's eight variants of a square pattern read by `get`:
/// as drawn, mirrored, turned a quarter, turned and mirrored, ...
fn variant(n: usize, k: usize, get: impl Fn(usize, usize) -> Tile, out: &mut Vec<Tile>) {
    out.clear();
    for j in 0..n {
        for i in 0..n {
            // Turn (k / 2) quarters, then mirror when k is odd.
            let (mut x, mut y) = (if k % 2 == 1 { n - 1 - i } else { i }, j);
            for _ in 0..k / 2 {
                (x, y) = (n - 1 - y, x);
            }
            out.push(get(x, y));
        }
    }
}

/// Learns the patterns of `sample`; `None` when it holds more than
/// `max_patterns` distinct ones (the caller names the limit).
pub(super) fn learn(
    sample: &Sample,
    n: usize,
    symmetry: usize,
    max_patterns: usize,
) -> Option<Patterns> {
    let mut index: HashMap<Vec<Tile>, usize> = HashMap::new();
    let mut tiles = Vec::new();
    let mut weights: Vec<u64> = Vec::new();
    let mut buf = Vec::with_capacity(n * n);
    for y in 0..=sample.height - n {
        for x in 0..=sample.width - n {
            for k in 0..symmetry {
                variant(
                    n,
                    k,
                    |i, j| sample.cells[(y + j) * sample.width + x + i],
                    &mut buf,
                );
                // The index is only looked up: pattern numbers follow the
                // order windows are first seen, so no hash order leaks out.
                match index.get(&buf) {
                    Some(&p) => weights[p] += 1,
                    None => {
                        if weights.len() == max_patterns {
                            return None;
                        }
                        index.insert(buf.clone(), weights.len());
                        tiles.extend_from_slice(&buf);
                        weights.push(1);
                    }
                }
            }
        }
    }
    let count = weights.len();
    let compat = std::array::from_fn(|d| compatible(&tiles, n, count, DIRS[d]));
    let unions = (union_bytes(count) <= MAX_UNION_BYTES).then(|| union_tables(&compat, count));
    Some(Patterns {
        n,
        tiles,
        weights,
        compat,
        unions,
    })
}

/// For each pattern p, the patterns q that agree with p where q, moved by
/// `(dx, dy)`, overlaps it: grouped by the overlap's tiles, so the work is
/// linear in the patterns, not quadratic.
fn compatible(tiles: &[Tile], n: usize, count: usize, (dx, dy): (i32, i32)) -> Vec<Bits> {
    let overlap = |p: usize, ox: i32, oy: i32| -> Vec<Tile> {
        // The cells of p inside the window moved by (ox, oy), in p's frame.
        let mut out = Vec::with_capacity(n * n);
        for j in 0..n as i32 {
            for i in 0..n as i32 {
                let (u, v) = (i - ox, j - oy);
                if u >= 0 && v >= 0 && u < n as i32 && v < n as i32 {
                    out.push(tiles[p * n * n + j as usize * n + i as usize]);
                }
            }
        }
        out
    };
    // q at (dx, dy) from p: p's cells shifted by -(dx, dy)... seen from p,
    // the shared cells are those of p at (i, j) with (i - dx, j - dy) in q.
    let mut groups: HashMap<Vec<Tile>, Bits> = HashMap::new();
    for q in 0..count {
        // q's part shared with p, in q's frame: q at (i, j) is p at
        // (i + dx, j + dy).
        groups
            .entry(overlap(q, -dx, -dy))
            .or_insert_with(|| Bits::new(count))
            .set(q);
    }
    let empty = Bits::new(count);
    (0..count)
        .map(|p| groups.get(&overlap(p, dx, dy)).unwrap_or(&empty).clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rows: &[&str]) -> Sample {
        let cells = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| Tile(if c == '#' { 0 } else { 1 })))
            .collect();
        Sample {
            width: rows[0].len(),
            height: rows.len(),
            cells,
        }
    }

    #[test]
    fn eight_variants_of_an_asymmetric_pattern_are_distinct() {
        let s = sample(&["#..", "...", "..."]);
        let p = learn(&s, 3, 8, 100).unwrap();
        assert_eq!(p.count(), 4, "a corner turns four ways, mirrors onto them");
        let s = sample(&["##.", "...", "..."]);
        assert_eq!(learn(&s, 3, 8, 100).unwrap().count(), 8);
        assert_eq!(learn(&s, 3, 1, 100).unwrap().count(), 1);
    }

    #[test]
    fn neighbours_agree_on_their_overlap() {
        let s = sample(&["#.#.", ".#.#", "#.#."]);
        let p = learn(&s, 2, 1, 100).unwrap();
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            for a in 0..p.count() {
                for b in 0..p.count() {
                    let agree = (0..2).all(|j| {
                        (0..2).all(|i| {
                            let (u, v) = (i as i32 - dx, j as i32 - dy);
                            !(0..2).contains(&u)
                                || !(0..2).contains(&v)
                                || p.tile(a, i, j) == p.tile(b, u as usize, v as usize)
                        })
                    });
                    assert_eq!(p.compat[d][a].has(b), agree, "d {d} a {a} b {b}");
                }
            }
        }
    }

    #[test]
    fn too_many_patterns_is_refused() {
        let s = sample(&["#.#..", ".##.#", "#..##", "##.#."]);
        assert!(learn(&s, 2, 8, 3).is_none());
    }
}
