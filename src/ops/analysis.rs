//! Questions about a finished or half-finished map: connected regions,
//! distance maps, neighbour counts, random cells. Walking is 4-connected
//! here, as in [`flood`](super::flood), the strictest reading of "reachable".

use std::collections::VecDeque;

use super::selection::Selection;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

const STEPS4: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// One connected walkable region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub size: usize,
    /// Its first cell in row-major order.
    pub x: i32,
    pub y: i32,
    pub cells: Selection,
}

/// Connected walkable regions, largest first; equal sizes in the row-major
/// order of their first cells, so the order never depends on anything else.
pub fn regions(map: &Map) -> Vec<Region> {
    let walkable: Vec<bool> = map
        .cells()
        .iter()
        .map(|&t| map.tiles().kind(t).walkable)
        .collect();
    regions_of(map, &walkable)
}

/// Connected regions (4-connected) of the cells whose kind is one of
/// `kinds` (a lake's water, a forest's trees), ordered as [`regions`].
pub fn regions_of_kinds(map: &Map, kinds: &[Tile]) -> Vec<Region> {
    let member: Vec<bool> = map.cells().iter().map(|t| kinds.contains(t)).collect();
    regions_of(map, &member)
}

/// Connected regions of the cells marked in `member`, row-major.
fn regions_of(map: &Map, walkable: &[bool]) -> Vec<Region> {
    let (w, h) = (map.width(), map.height());
    let mut seen = vec![false; walkable.len()];
    let mut out = Vec::new();
    for first in 0..walkable.len() {
        if !walkable[first] || seen[first] {
            continue;
        }
        let mut cells = vec![first as u32];
        seen[first] = true;
        let mut head = 0;
        while head < cells.len() {
            let i = cells[head] as i32;
            head += 1;
            let (x, y) = (i % w, i / w);
            for (dx, dy) in STEPS4 {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                if walkable[j] && !seen[j] {
                    seen[j] = true;
                    cells.push(j as u32);
                }
            }
        }
        out.push(Region {
            size: cells.len(),
            x: first as i32 % w,
            y: first as i32 / w,
            cells: Selection::from_indices(w, h, cells),
        });
    }
    // A stable sort keeps equal sizes in first-cell order.
    out.sort_by_key(|r| std::cmp::Reverse(r.size));
    out
}

/// Steps from the nearest source through walkable cells; `None` where no
/// source reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceMap {
    width: i32,
    height: i32,
    dist: Vec<i32>,
}

impl DistanceMap {
    /// The bytes this distance map holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.dist.capacity() * std::mem::size_of::<i32>()
    }

    pub fn get(&self, x: i32, y: i32) -> Option<i32> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        let d = self.dist[(y * self.width + x) as usize];
        (d >= 0).then_some(d)
    }

    /// The reachable cell farthest from every source (the first in
    /// row-major order among equals) and its distance.
    pub fn farthest(&self) -> Option<(i32, i32, i32)> {
        let mut best: Option<(usize, i32)> = None;
        for (i, &d) in self.dist.iter().enumerate() {
            if d >= 0 && best.is_none_or(|(_, b)| d > b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, d)| (i as i32 % self.width, i as i32 / self.width, d))
    }

    /// [`farthest`](Self::farthest) among the cells of `within` only (the
    /// farthest room cell, the farthest dead end).
    pub fn farthest_within(&self, within: &Selection) -> Option<(i32, i32, i32)> {
        let mut best: Option<(u32, i32)> = None;
        for &i in within.indices() {
            let d = self.dist.get(i as usize).copied().unwrap_or(-1);
            if d >= 0 && best.is_none_or(|(_, b)| d > b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, d)| (i as i32 % self.width, i as i32 / self.width, d))
    }

    pub fn max(&self) -> Option<i32> {
        self.farthest().map(|(_, _, d)| d)
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }
}

/// Breadth-first distances (every step costs 1) from `sources`, spreading
/// through walkable cells. Each source must be on the map.
pub fn dijkstra(map: &Map, sources: &[(i64, i64)]) -> Result<DistanceMap, MapError> {
    let (w, h) = (map.width(), map.height());
    let mut dist = vec![-1i32; map.cells().len()];
    let mut queue = VecDeque::new();
    for &(x, y) in sources {
        let i = map.index(x, y)?;
        if dist[i] != 0 {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let (x, y) = (i as i32 % w, i as i32 / w);
        for (dx, dy) in STEPS4 {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                continue;
            }
            let j = (ny * w + nx) as usize;
            if dist[j] < 0 && map.tiles().kind(map.cells()[j]).walkable {
                dist[j] = dist[i] + 1;
                queue.push_back(j);
            }
        }
    }
    Ok(DistanceMap {
        width: w,
        height: h,
        dist,
    })
}

impl Map {
    /// How many of the 8 neighbours of a cell hold `tile` (off-map
    /// neighbours count as nothing).
    pub fn neighbors(&self, x: i64, y: i64, tile: Tile) -> Result<usize, MapError> {
        self.index(x, y)?;
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.get(x + dx, y + dy).is_ok_and(|t| t == tile) {
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// A uniformly chosen cell holding `tile` (one `rng:int(count)` draw
    /// over the matching cells in row-major order), or None.
    pub fn random_cell(&self, tile: Tile, rng: &mut Rng) -> Option<(i32, i32)> {
        let count = self.count(tile);
        if count == 0 {
            return None;
        }
        let k = rng.int(count as u64) as usize;
        let i = self
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, &t)| t == tile)
            .nth(k)
            .map(|(i, _)| i)?;
        Some((i as i32 % self.width(), i as i32 / self.width()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_come_largest_first() {
        let map = Map::from_ascii("#######\n#.#...#\n###.#.#\n#..####\n#######\n").unwrap();
        let r = regions(&map);
        let summary: Vec<(usize, i32, i32)> = r.iter().map(|g| (g.size, g.x, g.y)).collect();
        assert_eq!(summary, [(5, 3, 1), (2, 1, 3), (1, 1, 1)]);
        assert!(r[0].cells.contains(5, 2) && !r[0].cells.contains(1, 1));
    }

    #[test]
    fn doors_join_regions_and_water_splits_them() {
        let map = Map::from_ascii("#######\n#..+..#\n#######\n").unwrap();
        assert_eq!(regions(&map).len(), 1);
        let wet = Map::from_ascii("#######\n#..~..#\n#######\n").unwrap();
        assert_eq!(regions(&wet).len(), 2);
    }

    #[test]
    fn dijkstra_counts_steps_around_walls() {
        let map = Map::from_ascii("######\n#....#\n####.#\n#....#\n######\n").unwrap();
        let d = dijkstra(&map, &[(1, 1)]).unwrap();
        assert_eq!(d.get(1, 1), Some(0));
        assert_eq!(d.get(4, 1), Some(3));
        assert_eq!(d.get(4, 3), Some(5));
        assert_eq!(d.get(1, 3), Some(8));
        assert_eq!(d.get(0, 0), None, "walls are unreachable");
        assert_eq!(d.farthest(), Some((1, 3, 8)));
        assert_eq!(d.max(), Some(8));
        let two = dijkstra(&map, &[(1, 1), (1, 3)]).unwrap();
        assert_eq!(two.get(4, 3), Some(3));
        assert!(dijkstra(&map, &[(9, 9)]).is_err());
    }

    #[test]
    fn neighbours_count_the_eight_around() {
        let map = Map::from_ascii("###\n#.#\n..#\n").unwrap();
        assert_eq!(map.neighbors(1, 1, Tile::WALL).unwrap(), 6);
        assert_eq!(
            map.neighbors(0, 0, Tile::WALL).unwrap(),
            2,
            "off-map counts as nothing"
        );
        assert_eq!(map.neighbors(1, 1, Tile::FLOOR).unwrap(), 2);
        assert!(map.neighbors(3, 0, Tile::WALL).is_err());
    }

    #[test]
    fn random_cell_picks_among_matching_cells() {
        let map = Map::from_ascii("#.#\n..#\n").unwrap();
        let mut a = Rng::new(5);
        let mut b = Rng::new(5);
        let k = b.int(3) as usize;
        assert_eq!(
            map.random_cell(Tile::FLOOR, &mut a),
            Some([(1, 0), (0, 1), (1, 1)][k])
        );
        assert_eq!(map.random_cell(Tile::WATER, &mut a), None);
    }
}
