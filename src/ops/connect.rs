//! Making any map playable: tunnels that join every walkable region to the
//! largest, and doors where corridors enter rooms.

use super::analysis::{regions, Columns, Region};
use super::meter::{unmetered, Charge, Stopped};
use super::selection::Selection;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

/// Units of work a cell costs the regions' labelling.
const LABEL_UNITS: u64 = 2;
/// Units of work a cell popped from the search costs (the pop, four
/// neighbours relaxed, the pushes: 30-100 ns a cell on the AMD machine,
/// the more the bigger the map, as its tables outgrow the caches).
const POP_UNITS: u64 = 16;
/// Cells popped between two reports of the work (a report may look at the
/// clock).
const POPS_A_REPORT: u64 = 1 << 14;

/// What `found` holds on the heap, headers included.
fn regions_bytes(found: &[Region]) -> usize {
    found
        .iter()
        .map(|r| std::mem::size_of::<Region>() + r.cells.heap_bytes() + 16)
        .sum()
}

/// The multi-source search `connect_regions` keeps across tunnels.
struct Search {
    dist: Vec<u32>,
    /// The cell each cell was last reached from. Read only on the way back
    /// from a reached cell, which stops at a source (distance 0), so
    /// sources and unreached cells never need one: the table starts zeroed
    /// and a big map's pages are only touched where the search steps.
    parent: Vec<u32>,
    /// A bucket queue: `buckets[d]` holds the cells pushed at distance `d`,
    /// in push order, and `heads[d]` how many of them were popped. Popping
    /// the smallest distance first and, within it, the earliest push is the
    /// order the specified (distance, push order) priority gives, in
    /// linear time (every step costs 1, so distances stay below the cells).
    buckets: Vec<Vec<u32>>,
    heads: Vec<usize>,
    /// No bucket below this one holds an unpopped cell.
    lowest: usize,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            dist: vec![u32::MAX; n],
            parent: vec![0; n],
            buckets: Vec::new(),
            heads: Vec::new(),
            lowest: 0,
        }
    }

    fn push(&mut self, d: u32, i: usize) {
        let d = d as usize;
        if d >= self.buckets.len() {
            self.buckets.resize_with(d + 1, Vec::new);
            self.heads.resize(d + 1, 0);
        }
        self.buckets[d].push(i as u32);
        self.lowest = self.lowest.min(d);
    }

    /// The next (distance, cell): the smallest distance, earliest pushed.
    fn pop(&mut self) -> Option<(u32, u32)> {
        while self.lowest < self.buckets.len() {
            let d = self.lowest;
            if let Some(&cell) = self.buckets[d].get(self.heads[d]) {
                self.heads[d] += 1;
                return Some((d as u32, cell));
            }
            // Drained: give its memory back; later pushes start it afresh.
            self.buckets[d] = Vec::new();
            self.heads[d] = 0;
            self.lowest += 1;
        }
        None
    }

    /// Makes a cell a source: distance 0.
    fn source(&mut self, i: usize) {
        self.dist[i] = 0;
        self.push(0, i);
    }

    /// Makes every cell of a region a source, in order. A cell whose
    /// neighbours on the map are all sources already is not queued: popped,
    /// it would reach nothing closer, so leaving it out changes nothing
    /// but the time (most of a big cave's cells).
    fn sources(&mut self, cells: &[u32], columns: &Columns, w: usize, h: usize) {
        for &i in cells {
            self.dist[i as usize] = 0;
        }
        for &i in cells {
            let (x, y) = (columns.column(i) as usize, columns.row(i) as usize);
            let i = i as usize;
            let inner = (y > 0 && self.dist[i - w] != 0)
                || (x + 1 < w && self.dist[i + 1] != 0)
                || (y + 1 < h && self.dist[i + w] != 0)
                || (x > 0 && self.dist[i - 1] != 0);
            if inner {
                self.push(0, i);
            }
        }
    }

    /// Reaches `j` from `i` at distance `d` if that is closer than before.
    #[inline]
    fn relax(&mut self, i: usize, j: usize, d: u32) {
        if d < self.dist[j] {
            self.dist[j] = d;
            self.parent[j] = i as u32;
            self.push(d, j);
        }
    }
}

impl Map {
    /// Joins every walkable region to the largest one with the shortest
    /// tunnel of `tile`, nearest region first, until one region is left.
    /// Tunnels never cut the map's outer ring. `rng` shuffles the search's
    /// direction order at the start and after each tunnel, so tunnels do not
    /// all bend alike. Returns how many tunnels were dug.
    ///
    /// One search serves every tunnel: a multi-source Dijkstra from the
    /// joined cells; when it reaches an unjoined region, the path back is
    /// dug and that region and the tunnel become sources at distance 0, and
    /// the search goes on, re-relaxing whatever they bring closer. So the
    /// next region found is always the nearest to everything joined so far,
    /// without starting over for each region.
    pub fn connect_regions(&mut self, rng: &mut Rng, tile: Tile) -> usize {
        self.connect_regions_avoiding(rng, tile, None)
    }

    /// [`connect_regions`](Self::connect_regions) whose tunnels never enter a
    /// cell of `avoid` (a vault's walls, a river): a region reachable only
    /// through it stays apart.
    pub fn connect_regions_avoiding(
        &mut self,
        rng: &mut Rng,
        tile: Tile,
        avoid: Option<&Selection>,
    ) -> usize {
        self.connect_regions_metered(rng, tile, avoid, &mut unmetered)
            .unwrap_or(0)
    }

    /// [`connect_regions_avoiding`](Self::connect_regions_avoiding) telling
    /// `report` the work it does as it goes and the bytes it holds, before
    /// it allocates them: a refusal stops it at once (with some tunnels dug:
    /// the caller's run ends). The search's work is not a function of the
    /// map's size alone (a cell is searched again each time a tunnel brings
    /// it closer), so no charge before it starts could bound its time.
    pub fn connect_regions_metered(
        &mut self,
        rng: &mut Rng,
        tile: Tile,
        avoid: Option<&Selection>,
        report: &mut dyn FnMut(Charge) -> Result<(), Stopped>,
    ) -> Result<usize, Stopped> {
        let (w, h) = (self.width(), self.height());
        let n = (w * h) as usize;
        // Labelling the regions: a label a cell and the regions' lists.
        report(Charge::Memory(n * 8))?;
        report(Charge::Work(n as u64 * LABEL_UNITS))?;
        let found = regions(self);
        if found.len() <= 1 {
            return Ok(0);
        }
        // The search's tables (owner, distance, parent: 12 bytes a cell),
        // the regions (their cells and headers) and the queue (a cell can
        // be queued more than once; about 8 bytes a cell at its peak).
        report(Charge::Memory(n * 20 + regions_bytes(&found)))?;
        // The region each walkable cell belongs to.
        let mut owner = vec![u32::MAX; n];
        for (id, region) in found.iter().enumerate() {
            for &i in region.cells.indices() {
                owner[i as usize] = id as u32;
            }
        }
        let mut joined = vec![false; found.len()];
        let mut left = found.len();
        let mut search = Search::new(n);
        // Cells no tunnel may enter (the avoided ones, and the outer ring
        // where it is not walkable already) start at distance 0, as if
        // sources: no step can bring them closer, so they are never
        // queued, and a step tests one table instead of three. (Only the
        // way back from a reached region reads distances, and it never
        // passes through them; `sources` leaves a cell out when nothing
        // around it can be reached, which these cells do not change.)
        if let Some(avoid) = avoid {
            for &i in avoid.indices() {
                if let Some(d) = search.dist.get_mut(i as usize) {
                    *d = 0;
                }
            }
        }
        let (wu, hu) = (w as usize, h as usize);
        let ring = (0..wu)
            .flat_map(|x| [x, (hu - 1) * wu + x])
            .chain((0..hu).flat_map(|y| [y * wu, y * wu + wu - 1]));
        for i in ring {
            if owner[i] == u32::MAX {
                search.dist[i] = 0;
            }
        }
        joined[0] = true;
        left -= 1;
        let columns = Columns::new(w as u32);
        search.sources(found[0].cells.indices(), &columns, w as usize, h as usize);
        let mut dirs = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)];
        rng.shuffle(&mut dirs);
        let mut tunnels = 0;
        let mut pops: u64 = 0;
        while let Some((d, cell)) = search.pop() {
            pops += 1;
            if pops == POPS_A_REPORT {
                report(Charge::Work(pops * POP_UNITS))?;
                pops = 0;
            }
            let i = cell as usize;
            if d > search.dist[i] {
                continue; // a stale entry: a closer route was found since
            }
            let region = owner[i] as usize;
            if owner[i] != u32::MAX && !joined[region] {
                // The nearest unjoined region: dig the way back to a source.
                joined[region] = true;
                left -= 1;
                tunnels += 1;
                let mut j = search.parent[i] as usize;
                while search.dist[j] != 0 {
                    let next = search.parent[j] as usize;
                    if owner[j] == u32::MAX {
                        let _ = self.set((j as i32 % w) as i64, (j as i32 / w) as i64, tile);
                        owner[j] = 0;
                    }
                    search.source(j);
                    j = next;
                }
                search.sources(
                    found[region].cells.indices(),
                    &columns,
                    w as usize,
                    h as usize,
                );
                if left == 0 {
                    break;
                }
                rng.shuffle(&mut dirs);
                continue;
            }
            let (x, y) = (columns.column(cell) as i32, columns.row(cell) as i32);
            for (dx, dy) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                search.relax(i, j, d + 1);
            }
        }
        report(Charge::Work(pops * POP_UNITS))?;
        Ok(tunnels)
    }

    /// Puts a door (`door`) in each single-cell opening where a corridor
    /// enters a recorded room through its wall ring: the ring cell is
    /// walkable, its neighbours along the ring are not, the room's inside
    /// and the outside next to it are walkable, and no door is next to it
    /// already (never two doors side by side). Returns how many it placed.
    pub fn add_doors(&mut self, door: Tile) -> usize {
        self.place_doors(door).len()
    }

    /// [`add_doors`](Self::add_doors), then each door placed becomes a
    /// secret door (the `secret_door` kind, defined when first used) with
    /// probability `p`: one `rng:chance(p)` per door, in placement order
    /// (rings of the rooms in order, each ring row-major).
    pub fn add_doors_secret(
        &mut self,
        door: Tile,
        p: f64,
        rng: &mut Rng,
    ) -> Result<usize, MapError> {
        let placed = self.place_doors(door);
        let mut secret = None;
        for &(x, y) in &placed {
            if rng.chance(p) {
                let tile = match secret {
                    Some(t) => t,
                    None => *secret.insert(self.tiles_mut().secret_door()?),
                };
                self.set(x as i64, y as i64, tile)?;
            }
        }
        Ok(placed.len())
    }

    /// Where [`add_doors`](Self::add_doors) puts doors, in order.
    fn place_doors(&mut self, door: Tile) -> Vec<(i32, i32)> {
        let rooms = self.rooms().to_vec();
        let walkable = |m: &Map, x: i32, y: i32| m.is_walkable(x as i64, y as i64);
        let mut placed = Vec::new();
        for room in rooms {
            let mut ring = Vec::new();
            for x in room.x1 + 1..room.x2 {
                ring.push((x, room.y1, (1, 0), (0, 1)));
                ring.push((x, room.y2, (1, 0), (0, -1)));
            }
            for y in room.y1 + 1..room.y2 {
                ring.push((room.x1, y, (0, 1), (1, 0)));
                ring.push((room.x2, y, (0, 1), (-1, 0)));
            }
            ring.sort_by_key(|&(x, y, _, _)| (y, x));
            for (x, y, (ax, ay), (ix, iy)) in ring {
                let is_opening = self.get(x as i64, y as i64).is_ok_and(|t| t != door)
                    && walkable(self, x, y)
                    && !walkable(self, x + ax, y + ay)
                    && !walkable(self, x - ax, y - ay)
                    && walkable(self, x + ix, y + iy)
                    && walkable(self, x - ix, y - iy);
                let door_near = (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        self.get((x + dx) as i64, (y + dy) as i64)
                            .is_ok_and(|t| t == door)
                    })
                });
                if is_opening && !door_near {
                    let _ = self.set(x as i64, y as i64, door);
                    placed.push((x, y));
                }
            }
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Rect;
    use crate::ops::unreachable_walkable;

    #[test]
    fn joins_every_region_to_the_largest() {
        let mut map = Map::from_ascii(
            "##########\n#@..#....#\n#...#....#\n#####..#.#\n#..###...#\n#..#######\n##########\n",
        )
        .unwrap();
        let mut rng = Rng::new(1);
        assert_eq!(map.connect_regions(&mut rng, Tile::FLOOR), 2);
        assert!(unreachable_walkable(&map).is_empty(), "\n{map}");
        assert_eq!(crate::ops::regions(&map).len(), 1);
        for x in 0..10 {
            assert_eq!(map.get(x, 0).unwrap(), Tile::WALL, "the outer ring stays");
        }
        assert_eq!(
            map.connect_regions(&mut rng, Tile::FLOOR),
            0,
            "nothing left to join"
        );
    }

    /// The metered search digs what the unmetered one digs, reports its
    /// work as it goes (more than the map's size on a map of many regions)
    /// and stops at the first refusal.
    #[test]
    fn the_metered_search_reports_its_work_and_stops_when_refused() {
        let mut map = Map::new(300, 300).unwrap();
        map.fill(Tile::FLOOR);
        let mut rng = Rng::new(4);
        for y in 0..300 {
            for x in 0..300 {
                if rng.chance(0.6) {
                    map.set(x, y, Tile::WALL).unwrap();
                }
            }
        }
        let (mut plain, mut metered) = (map.clone(), map.clone());
        let dug = plain.connect_regions(&mut Rng::new(9), Tile::FLOOR);
        let (mut work, mut most_held) = (0u64, 0usize);
        let mut count = |c: Charge| {
            match c {
                Charge::Work(u) => work += u,
                Charge::Memory(b) => most_held = most_held.max(b),
            }
            Ok(())
        };
        let counted = metered
            .connect_regions_metered(&mut Rng::new(9), Tile::FLOOR, None, &mut count)
            .unwrap();
        assert_eq!((counted, metered.to_string()), (dug, plain.to_string()));
        assert!(work > 300 * 300 * POP_UNITS, "{work}");
        assert!(most_held > 300 * 300 * 20, "{most_held}");
        let mut reports = 0;
        let mut refuse_the_third = |_| {
            reports += 1;
            if reports < 3 {
                Ok(())
            } else {
                Err(Stopped)
            }
        };
        let stopped =
            map.connect_regions_metered(&mut Rng::new(9), Tile::FLOOR, None, &mut refuse_the_third);
        assert_eq!((stopped, reports), (Err(Stopped), 3));
    }

    #[test]
    fn tunnels_are_shortest() {
        let mut map = Map::from_ascii("#######\n#..#..#\n#######\n").unwrap();
        map.connect_regions(&mut Rng::new(2), Tile::FLOOR);
        assert_eq!(map.to_string(), "#######\n#.....#\n#######\n");
    }

    #[test]
    fn doors_go_in_single_openings_only() {
        // A room (corners (1,1)-(5,4)) entered from the left by a corridor,
        // from below by a two-wide opening, and along its top wall.
        let mut map = Map::from_ascii(
            "########\n\
             ######.#\n\
             ##...#.#\n\
             ....##.#\n\
             ##...#.#\n\
             ###..#.#\n\
             ###..#.#\n\
             ########\n",
        )
        .unwrap();
        map.add_room(Rect::new(1, 1, 4, 4)).unwrap();
        assert_eq!(map.add_doors(Tile::DOOR), 1);
        assert_eq!(map.get(1, 3).unwrap(), Tile::DOOR);
        assert_eq!(
            map.get(3, 5).unwrap(),
            Tile::FLOOR,
            "a wide opening gets no door"
        );
        assert_eq!(map.add_doors(Tile::DOOR), 0, "doors are never doubled");
    }

    #[test]
    fn no_two_doors_side_by_side() {
        // Two rooms whose rings are one apart, joined straight through.
        let mut map = Map::from_ascii(
            "#########\n\
             #########\n\
             ##.###.##\n\
             ##.....##\n\
             ##.###.##\n\
             #########\n",
        )
        .unwrap();
        map.add_room(Rect::new(1, 1, 3, 4)).unwrap();
        map.add_room(Rect::new(5, 1, 3, 4)).unwrap();
        let placed = map.add_doors(Tile::DOOR);
        assert_eq!(
            placed, 1,
            "the second ring's opening is next to the first door\n{map}"
        );
        assert_eq!(
            map.to_string(),
            "#########\n#########\n##.###.##\n##..+..##\n##.###.##\n#########\n"
        );
    }

    #[test]
    fn tunnels_never_enter_avoided_cells() {
        // Two rooms; the straight way between them runs through a vault
        // wall (column 4), so an avoiding tunnel goes round it or not at all.
        let text = "#########\n#..#.#..#\n#..#.#..#\n#########\n#########\n";
        let mut free = Map::from_ascii(text).unwrap();
        let dug = free.connect_regions(&mut Rng::new(1), Tile::FLOOR);
        assert!(dug > 0);
        let wall: Vec<u32> = (0..5)
            .map(|y| y * 9 + 3)
            .chain((0..5).map(|y| y * 9 + 5))
            .collect();
        let vault = Selection::from_indices(9, 5, wall);
        let mut avoiding = Map::from_ascii(text).unwrap();
        avoiding.connect_regions_avoiding(&mut Rng::new(1), Tile::FLOOR, Some(&vault));
        for &i in vault.indices() {
            let (x, y) = ((i % 9) as i64, (i / 9) as i64);
            assert_eq!(
                avoiding.get(x, y),
                Map::from_ascii(text).unwrap().get(x, y),
                "({x}, {y})"
            );
        }
    }

    /// The search as first written: walls of the outer ring and avoided
    /// cells tested at every step, positions by division. The tables the
    /// fast one starts from must dig the very same tunnels.
    fn connect_by_definition(
        map: &mut Map,
        rng: &mut Rng,
        tile: Tile,
        avoid: Option<&Selection>,
    ) -> usize {
        let found = regions(map);
        if found.len() <= 1 {
            return 0;
        }
        let (w, h) = (map.width(), map.height());
        let n = (w * h) as usize;
        let mut owner = vec![u32::MAX; n];
        for (id, region) in found.iter().enumerate() {
            for &i in region.cells.indices() {
                owner[i as usize] = id as u32;
            }
        }
        let mut blocked = vec![false; n];
        for &i in avoid.map(|a| a.indices()).unwrap_or(&[]) {
            blocked[i as usize] = true;
        }
        let columns = Columns::new(w as u32);
        let (wu, hu) = (w as usize, h as usize);
        let mut joined = vec![false; found.len()];
        let mut left = found.len() - 1;
        let mut search = Search::new(n);
        joined[0] = true;
        search.sources(found[0].cells.indices(), &columns, wu, hu);
        let mut dirs = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)];
        rng.shuffle(&mut dirs);
        let mut tunnels = 0;
        while let Some((d, cell)) = search.pop() {
            let i = cell as usize;
            if d > search.dist[i] {
                continue;
            }
            if owner[i] != u32::MAX && !joined[owner[i] as usize] {
                let region = owner[i] as usize;
                joined[region] = true;
                left -= 1;
                tunnels += 1;
                let mut j = search.parent[i] as usize;
                while search.dist[j] != 0 {
                    let next = search.parent[j] as usize;
                    if owner[j] == u32::MAX {
                        let _ = map.set((j as i32 % w) as i64, (j as i32 / w) as i64, tile);
                        owner[j] = 0;
                    }
                    search.source(j);
                    j = next;
                }
                search.sources(found[region].cells.indices(), &columns, wu, hu);
                if left == 0 {
                    break;
                }
                rng.shuffle(&mut dirs);
                continue;
            }
            let (x, y) = (i as i32 % w, i as i32 / w);
            for (dx, dy) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                let on_ring = nx == 0 || ny == 0 || nx == w - 1 || ny == h - 1;
                if on_ring && owner[j] == u32::MAX || blocked[j] {
                    continue;
                }
                search.relax(i, j, d + 1);
            }
        }
        tunnels
    }

    #[test]
    fn digs_what_the_search_by_definition_digs() {
        let mut rng = Rng::new(27);
        for round in 0..300 {
            let (w, h) = (1 + rng.int(24) as i64, 1 + rng.int(16) as i64);
            let mut map = Map::new(w, h).unwrap();
            let floor = [0.3, 0.5, 0.7][round % 3];
            let mut avoided = Vec::new();
            for y in 0..h {
                for x in 0..w {
                    if rng.float() < floor {
                        map.set(x, y, Tile::FLOOR).unwrap();
                    }
                    // Avoided cells, walls and floors alike, in some rounds.
                    if round % 2 == 1 && rng.float() < 0.1 {
                        avoided.push((y * w + x) as u32);
                    }
                }
            }
            let avoid = Selection::from_indices(w as i32, h as i32, avoided);
            let avoid = (round % 2 == 1).then_some(&avoid);
            let seed = rng.int(1000);
            let mut fast = map.clone();
            let dug = fast.connect_regions_avoiding(&mut Rng::new(seed), Tile::DOOR, avoid);
            let mut slow = map.clone();
            let want = connect_by_definition(&mut slow, &mut Rng::new(seed), Tile::DOOR, avoid);
            assert_eq!(
                (dug, fast.to_string()),
                (want, slow.to_string()),
                "round {round}: {w}x{h}\n{map}"
            );
        }
    }
}
