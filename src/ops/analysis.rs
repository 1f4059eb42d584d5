//! Questions about a finished or half-finished map: connected regions,
//! distance maps, neighbour counts, random cells. Walking is 4-connected
//! here, as in [`flood`](super::flood), the strictest reading of "reachable".

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
    regions_of(map, &map.walkable_mask())
}

/// Connected regions (4-connected) of the cells whose kind is one of
/// `kinds` (a lake's water, a forest's trees), ordered as [`regions`].
pub fn regions_of_kinds(map: &Map, kinds: &[Tile]) -> Vec<Region> {
    let member: Vec<bool> = map.cells().iter().map(|t| kinds.contains(t)).collect();
    regions_of(map, &member)
}

/// Connected regions of the cells marked in `member`, row-major. Linear:
/// each cell is labelled with its region by a breadth-first search from
/// the region's first cell, then one row-major pass hands every cell to
/// its region, so each region's cells come out sorted without a sort.
fn regions_of(map: &Map, member: &[bool]) -> Vec<Region> {
    let (w, h) = (map.width() as usize, map.height() as usize);
    const NONE: u32 = u32::MAX;
    let mut label = vec![NONE; member.len()];
    let mut firsts: Vec<usize> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let mut queue: Vec<u32> = Vec::new();
    for first in 0..member.len() {
        if !member[first] || label[first] != NONE {
            continue;
        }
        let id = firsts.len() as u32;
        label[first] = id;
        queue.clear();
        queue.push(first as u32);
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if member[j] && label[j] == NONE {
                    label[j] = id;
                    queue.push(j as u32);
                }
            };
            if y > 0 {
                visit(i - w);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y + 1 < h {
                visit(i + w);
            }
            if x > 0 {
                visit(i - 1);
            }
        }
        firsts.push(first);
        sizes.push(queue.len());
    }
    let mut cells: Vec<Vec<u32>> = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
    for (i, &l) in label.iter().enumerate() {
        if l != NONE {
            cells[l as usize].push(i as u32);
        }
    }
    let (wi, hi) = (map.width(), map.height());
    let mut out: Vec<Region> = cells
        .into_iter()
        .zip(firsts)
        .map(|(cells, first)| Region {
            size: cells.len(),
            x: (first % w) as i32,
            y: (first / w) as i32,
            cells: Selection::from_sorted(wi, hi, cells),
        })
        .collect();
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
    let walkable = map.walkable_mask();
    let mut dist = vec![-1i32; map.cells().len()];
    let mut queue: Vec<u32> = Vec::new();
    for &(x, y) in sources {
        let i = map.index(x, y)?;
        if dist[i] != 0 {
            dist[i] = 0;
            queue.push(i as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        let (x, y) = (i as i32 % w, i as i32 / w);
        for (dx, dy) in STEPS4 {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                continue;
            }
            let j = (ny * w + nx) as usize;
            if dist[j] < 0 && walkable[j] {
                dist[j] = dist[i] + 1;
                queue.push(j as u32);
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
