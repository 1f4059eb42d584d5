//! Questions about a finished or half-finished map: connected regions,
//! distance maps, neighbour counts, random cells. Walking is 4-connected
//! here, as in [`flood`](super::flood), the strictest reading of "reachable".

use super::selection::Selection;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

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
    let member = RegionKinds::walkable(map);
    label_regions(map, &member).into_regions(map)
}

/// Connected regions of the cells of `kinds` (any of them), largest first as
/// [`regions`] (lakes: `&[Tile::WATER]`; what blocks: walls and water).
pub fn regions_of_kinds(map: &Map, kinds: &[Tile]) -> Vec<Region> {
    let member = RegionKinds::of(kinds);
    label_regions(map, &member).into_regions(map)
}

/// Which kinds make up regions, by kind index.
pub struct RegionKinds([bool; 256]);

impl RegionKinds {
    /// The walkable kinds.
    pub fn walkable(map: &Map) -> RegionKinds {
        let mut table = [false; 256];
        for (tile, kind) in map.tiles().iter() {
            table[tile.index()] = kind.walkable;
        }
        RegionKinds(table)
    }

    /// The kinds listed.
    pub fn of(kinds: &[Tile]) -> RegionKinds {
        let mut table = [false; 256];
        for t in kinds {
            table[t.index()] = true;
        }
        RegionKinds(table)
    }

    fn has(&self, tile: Tile) -> bool {
        self.0[tile.index()]
    }
}

/// How many runs (a row's unbroken stretches of member cells) the map
/// has: what labelling its regions holds, 20 bytes a run, known before it
/// is made (a checkerboard has a run for every other cell).
pub fn region_runs(map: &Map, member: &RegionKinds) -> usize {
    let w = map.width() as usize;
    map.cells()
        .chunks(w.max(1))
        .map(|row| {
            let mut inside = false;
            let mut runs = 0;
            for &t in row {
                let now = member.has(t);
                runs += (now && !inside) as usize;
                inside = now;
            }
            runs
        })
        .sum()
}

/// Finds the root of run `r`, halving the path on the way.
fn root(parent: &mut [u32], mut r: u32) -> u32 {
    while parent[r as usize] != r {
        let up = parent[parent[r as usize] as usize];
        parent[r as usize] = up;
        r = up;
    }
    r
}

/// The regions of a map found and numbered, before their cells are handed
/// out: [`RegionLabels::len`] says how many regions
/// [`RegionLabels::into_regions`] will make, so a caller can refuse a
/// million one-cell regions before making them.
pub struct RegionLabels {
    /// Runs as (first cell, one past the last), row-major.
    runs: Vec<(u32, u32)>,
    /// Each run's region number.
    run_region: Vec<u32>,
    /// Each region's cell count and first cell, by number.
    sizes: Vec<usize>,
    firsts: Vec<u32>,
}

/// Connected regions of the cells whose kind `member` marks, row-major.
/// Linear, and by runs rather than cells: each row's runs of member cells
/// are joined (union-find) to the runs of the row above that they touch;
/// then the regions are numbered in the order of their first runs, so
/// [`RegionLabels::into_regions`] hands each region its cells sorted and
/// finds the regions in the order of their first cells, without a sort.
pub fn label_regions(map: &Map, member: &RegionKinds) -> RegionLabels {
    let w = map.width() as usize;
    let cells = map.cells();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let mut above = 0..0;
    for (y, row) in cells.chunks(w.max(1)).enumerate() {
        let base = y * w;
        let first = runs.len();
        let mut x = 0;
        while x < row.len() {
            if !member.has(row[x]) {
                x += 1;
                continue;
            }
            let start = x;
            while x < row.len() && member.has(row[x]) {
                x += 1;
            }
            let r = runs.len() as u32;
            runs.push(((base + start) as u32, (base + x) as u32));
            parent.push(r);
            if y == 0 {
                continue;
            }
            // Join the runs above that share a column with this one.
            let (lo, hi) = (base + start - w, base + x - w);
            while above.start < above.end && (runs[above.start].1 as usize) <= lo {
                above.start += 1;
            }
            let mut k = above.start;
            while k < above.end && (runs[k].0 as usize) < hi {
                let (a, b) = (root(&mut parent, k as u32), root(&mut parent, r));
                if a != b {
                    // The lower number stays the root: any root works.
                    parent[a.max(b) as usize] = a.min(b);
                }
                k += 1;
            }
        }
        above = first..runs.len();
    }
    // Regions numbered in the order of their first runs.
    const NONE: u32 = u32::MAX;
    let mut id_of_root = vec![NONE; runs.len()];
    let mut run_region = Vec::with_capacity(runs.len());
    let mut sizes: Vec<usize> = Vec::new();
    let mut firsts: Vec<u32> = Vec::new();
    for (r, &(start, end)) in runs.iter().enumerate() {
        let top = root(&mut parent, r as u32) as usize;
        if id_of_root[top] == NONE {
            id_of_root[top] = sizes.len() as u32;
            sizes.push(0);
            firsts.push(start);
        }
        let id = id_of_root[top];
        sizes[id as usize] += (end - start) as usize;
        run_region.push(id);
    }
    RegionLabels {
        runs,
        run_region,
        sizes,
        firsts,
    }
}

impl RegionLabels {
    /// How many regions there are.
    pub fn len(&self) -> usize {
        self.sizes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sizes.is_empty()
    }

    /// The regions, largest first (ties in row-major order of their first
    /// cell), each with its cells.
    pub fn into_regions(self, map: &Map) -> Vec<Region> {
        let w = map.width() as usize;
        let mut region_cells: Vec<Vec<u32>> =
            self.sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
        for (&(start, end), &id) in self.runs.iter().zip(&self.run_region) {
            region_cells[id as usize].extend(start..end);
        }
        let (wi, hi) = (map.width(), map.height());
        let mut out: Vec<Region> = region_cells
            .into_iter()
            .zip(self.firsts)
            .map(|(cells, first)| Region {
                size: cells.len(),
                x: (first as usize % w) as i32,
                y: (first as usize / w) as i32,
                cells: Selection::from_sorted(wi, hi, cells),
            })
            .collect();
        // A stable sort keeps equal sizes in first-cell order.
        out.sort_by_key(|r| std::cmp::Reverse(r.size));
        out
    }
}

/// Steps from the nearest source through walkable cells; `None` where no
/// source reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceMap {
    width: i32,
    height: i32,
    /// Row by row; -1 where no source reaches.
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
    let mut walkable = [false; 256];
    for (tile, kind) in map.tiles().iter() {
        walkable[tile.index()] = kind.walkable;
    }
    let cells = map.cells();
    // Unreached cells are -1 if walkable and BLOCKED if not, so spreading
    // reads one table, not the distances and the kinds (the blocked ones
    // become -1 at the end).
    const BLOCKED: i32 = -2;
    let mut dist: Vec<i32> = cells
        .iter()
        .map(|t| if walkable[t.index()] { -1 } else { BLOCKED })
        .collect();
    let mut queue: Vec<u32> = Vec::new();
    for &(x, y) in sources {
        let i = map.index(x, y)?;
        if dist[i] != 0 {
            dist[i] = 0;
            queue.push(i as u32);
        }
    }
    let (wu, last_row) = (w as usize, cells.len().saturating_sub(w as usize));
    let columns = Columns::new(w as u32);
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        let x = columns.column(i as u32);
        let d = dist[i] + 1;
        // N, E, S, W, as the steps are listed.
        let around = [
            (i >= wu).then(|| i.wrapping_sub(wu)),
            (x + 1 < w as u32).then_some(i + 1),
            (i < last_row).then_some(i + wu),
            (x > 0).then(|| i.wrapping_sub(1)),
        ];
        for j in around.into_iter().flatten() {
            if dist[j] == -1 {
                dist[j] = d;
                queue.push(j as u32);
            }
        }
    }
    for d in &mut dist {
        if *d == BLOCKED {
            *d = -1;
        }
    }
    Ok(DistanceMap {
        width: w,
        height: h,
        dist,
    })
}

/// `i % width` and `i / width` for cell numbers `i` below 2^32, by multiplication
/// instead of a division (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation", 2019: exact for every 32-bit `i` and `width`).
pub(crate) struct Columns {
    width: u32,
    magic: u64,
}

impl Columns {
    pub(crate) fn new(width: u32) -> Columns {
        let width = width.max(1);
        Columns {
            width,
            magic: (u64::MAX / width as u64).wrapping_add(1),
        }
    }

    /// `i / width`, alike.
    pub(crate) fn row(&self, i: u32) -> u32 {
        if self.width == 1 {
            return i; // the one width whose magic number wraps to 0
        }
        ((self.magic as u128 * i as u128) >> 64) as u32
    }

    pub(crate) fn column(&self, i: u32) -> u32 {
        let low = self.magic.wrapping_mul(i as u64);
        ((low as u128 * self.width as u128) >> 64) as u32
    }
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
        // A source in a wall is 0 and spreads to the floor beside it, never
        // to the walls around it.
        let walled = dijkstra(&map, &[(0, 1)]).unwrap();
        assert_eq!(walled.get(0, 1), Some(0));
        assert_eq!(walled.get(1, 1), Some(1));
        assert_eq!((walled.get(0, 0), walled.get(0, 2)), (None, None));
        assert_eq!(walled.farthest(), Some((1, 3, 9)));
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

    /// The run-based labelling gives what a breadth-first search from
    /// each region's first cell gives, on random maps of every density.
    #[test]
    fn regions_match_a_search_from_each_first_cell() {
        fn by_search(map: &Map) -> Vec<(usize, i32, i32, Vec<u32>)> {
            let (w, h) = (map.width() as usize, map.height() as usize);
            let walk = map.walkable_mask();
            let mut label = vec![usize::MAX; walk.len()];
            let mut found = Vec::new();
            for first in 0..walk.len() {
                if !walk[first] || label[first] != usize::MAX {
                    continue;
                }
                let id = found.len();
                label[first] = id;
                let mut queue = vec![first];
                let mut head = 0;
                while head < queue.len() {
                    let i = queue[head];
                    head += 1;
                    let (x, y) = (i % w, i / w);
                    let around = [
                        (y > 0).then(|| i - w),
                        (x + 1 < w).then(|| i + 1),
                        (y + 1 < h).then(|| i + w),
                        (x > 0).then(|| i - 1),
                    ];
                    for j in around.into_iter().flatten() {
                        if walk[j] && label[j] == usize::MAX {
                            label[j] = id;
                            queue.push(j);
                        }
                    }
                }
                let mut cells: Vec<u32> = queue.iter().map(|&i| i as u32).collect();
                cells.sort_unstable();
                found.push((cells.len(), (first % w) as i32, (first / w) as i32, cells));
            }
            found.sort_by_key(|r| std::cmp::Reverse(r.0));
            found
        }
        let mut rng = Rng::new(9);
        for round in 0..400 {
            let (w, h) = (rng.range(1, 45).unwrap(), rng.range(1, 35).unwrap());
            let mut map = Map::new(w, h).unwrap();
            let open = rng.float();
            for y in 0..h {
                for x in 0..w {
                    let tile = match rng.float() {
                        f if f < open => Tile::FLOOR,
                        f if f < open + 0.1 => Tile::DOOR,
                        _ => Tile::WALL,
                    };
                    map.set(x, y, tile).unwrap();
                }
            }
            let got: Vec<(usize, i32, i32, Vec<u32>)> = regions(&map)
                .into_iter()
                .map(|r| (r.size, r.x, r.y, r.cells.indices().to_vec()))
                .collect();
            assert_eq!(got, by_search(&map), "round {round}\n{map}");
        }
    }

    #[test]
    fn columns_are_remainders() {
        let mut rng = Rng::new(4);
        for width in (1..300).chain([1999, 2000, 4096, 65_535, 1 << 20, u32::MAX]) {
            let columns = Columns::new(width);
            for i in (0..2000)
                .chain((0..2000).map(|_| rng.next_u32()))
                .chain([u32::MAX])
            {
                assert_eq!(columns.column(i), i % width, "{i} % {width}");
                assert_eq!(columns.row(i), i / width, "{i} / {width}");
            }
        }
    }
}
