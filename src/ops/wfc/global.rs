//! The constraints a finished fill is checked against as a whole: the
//! region's walkable cells connected, a walkable route between two cells,
//! and how many cells of a kind the region holds.
//!
//! Each search charges the meter for every cell it takes off its stack,
//! as it takes it (as the watch's searches do), so a check that walks a
//! big map is paid for by what it visits.

use super::live::UNITS_PER_CELL_SEARCHED;
use super::meter::{Meter, Stopped};
use crate::map::Tile;

/// Budget units for a cell of the box around the region the connected
/// check looks at: a member test (its tile, and up to four region marks)
/// on each of its looks along the box.
const UNITS_PER_BOX_LOOK: u64 = 1;
/// Budget units for a cell the connected check takes off its stack: as a
/// cell the watch searches, besides the member tests of its neighbours.
const UNITS_PER_MEMBER_SEARCHED: u64 = UNITS_PER_CELL_SEARCHED + 1;

/// The cells of a `width`-wide grid 4-adjacent to `i`.
fn neighbours(i: usize, width: usize, len: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % width, i / width);
    let height = len / width;
    [
        (x > 0).then(|| i - 1),
        (x + 1 < width).then(|| i + 1),
        (y > 0).then(|| i - width),
        (y + 1 < height).then(|| i + width),
    ]
    .into_iter()
    .flatten()
}

/// Whether the walkable region cells and the walkable cells outside it
/// that touch it form one 4-connected area by themselves (no detour
/// through other cells counts). Empty counts as connected.
///
/// `bbox` (x1, y1, x2, y2, inclusive) holds every region cell: only the
/// cells in it and the ring around it can count, so only those are read.
/// The looks along the box (at most three: the first member twice, the
/// last check) are charged before they are made, each cell searched as it
/// is.
pub(super) fn connected(
    cells: &[Tile],
    width: usize,
    region: &[bool],
    walkable: &[bool; 256],
    bbox: (usize, usize, usize, usize),
    meter: &mut Meter<'_>,
) -> Result<bool, Stopped> {
    let len = cells.len();
    let height = len / width;
    let walk = |i: usize| walkable[cells[i].index()];
    let member = |i: usize| walk(i) && (region[i] || neighbours(i, width, len).any(|n| region[n]));
    let (x1, y1) = (bbox.0.saturating_sub(1), bbox.1.saturating_sub(1));
    let (x2, y2) = ((bbox.2 + 1).min(width - 1), (bbox.3 + 1).min(height - 1));
    let boxed_cells = ((x2 + 1 - x1) * (y2 + 1 - y1)) as u64;
    meter.upfront(boxed_cells.saturating_mul(UNITS_PER_BOX_LOOK) + 1)?;
    // The box's cells in row-major order.
    let boxed = || (y1..=y2).flat_map(move |y| (x1..=x2).map(move |x| y * width + x));
    let Some(first) = boxed()
        .find(|&i| region[i] && walk(i))
        .or_else(|| boxed().find(|&i| !region[i] && member(i)))
    else {
        return Ok(true);
    };
    let mut seen = vec![false; len];
    seen[first] = true;
    let mut stack = vec![first];
    while let Some(i) = stack.pop() {
        meter.work(UNITS_PER_MEMBER_SEARCHED)?;
        for n in neighbours(i, width, len) {
            if !seen[n] && member(n) {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    Ok(boxed().all(|i| seen[i] || !member(i)))
}

/// Whether a 4-connected route of walkable cells joins `a` and `b`.
pub(super) fn joined(
    cells: &[Tile],
    width: usize,
    a: usize,
    b: usize,
    walkable: &[bool; 256],
    meter: &mut Meter<'_>,
) -> Result<bool, Stopped> {
    let len = cells.len();
    let walk = |i: usize| walkable[cells[i].index()];
    if !walk(a) || !walk(b) {
        return Ok(false);
    }
    let mut seen = vec![false; len];
    seen[a] = true;
    let mut stack = vec![a];
    while let Some(i) = stack.pop() {
        meter.work(UNITS_PER_CELL_SEARCHED)?;
        if i == b {
            return Ok(true);
        }
        for n in neighbours(i, width, len) {
            if !seen[n] && walk(n) {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searches with a meter that takes every charge.
    fn connected(
        cells: &[Tile],
        width: usize,
        region: &[bool],
        walkable: &[bool; 256],
        bbox: (usize, usize, usize, usize),
    ) -> bool {
        let mut free = |_| Ok(());
        let mut meter = Meter::new(&mut free);
        super::connected(cells, width, region, walkable, bbox, &mut meter).unwrap()
    }

    fn joined(cells: &[Tile], width: usize, a: usize, b: usize, walkable: &[bool; 256]) -> bool {
        let mut free = |_| Ok(());
        let mut meter = Meter::new(&mut free);
        super::joined(cells, width, a, b, walkable, &mut meter).unwrap()
    }

    fn grid(rows: &[&str]) -> (Vec<Tile>, usize) {
        let cells = rows
            .iter()
            .flat_map(|r| {
                r.chars()
                    .map(|c| if c == '#' { Tile::WALL } else { Tile::FLOOR })
            })
            .collect();
        (cells, rows[0].len())
    }

    fn walkable() -> [bool; 256] {
        let mut w = [false; 256];
        w[Tile::FLOOR.index()] = true;
        w
    }

    #[test]
    fn two_rooms_apart_are_not_connected_until_a_door_joins_them() {
        let (cells, width) = grid(&["..#..", "..#..", "....."]);
        let all = vec![true; cells.len()];
        assert!(connected(&cells, width, &all, &walkable(), (0, 0, 4, 2)));
        let (cells, width) = grid(&["..#..", "..#..", "..#.."]);
        assert!(!connected(&cells, width, &all, &walkable(), (0, 0, 4, 2)));
        assert!(!joined(&cells, width, 0, 4, &walkable()));
        assert!(joined(&cells, width, 0, 11, &walkable()));
    }

    #[test]
    fn a_detour_outside_the_region_does_not_count() {
        // The region is the top row; the two halves meet only below it.
        let (cells, width) = grid(&["..#..", ".....", "....."]);
        let mut region = vec![false; cells.len()];
        region[..5].iter_mut().for_each(|r| *r = true);
        // Fixed walkable cells touching the region (row 1) join them.
        assert!(connected(&cells, width, &region, &walkable(), (0, 0, 4, 0)));
        let (cells, width) = grid(&["..#..", "##.##", "....."]);
        assert!(!connected(
            &cells,
            width,
            &region,
            &walkable(),
            (0, 0, 4, 0)
        ));
    }
}
