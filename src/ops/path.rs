//! The cheapest path between two cells (A*), with a cost per tile kind,
//! and carving one. Specified so any implementation finds the same path:
//! entering a cell costs its kind's cost (1 for walkable kinds unless
//! given, impassable for the others), a diagonal step costs that times
//! √2; the open set is ordered by f = g + h, then h, then cell index
//! (`y * width + x`), smallest first; neighbours are tried N, E, S, W (then
//! NE, SE, SW, NW); a cell's cost is only replaced by a strictly smaller
//! one. The heuristic is the Manhattan (or octile) distance times the
//! cheapest cost, so the path found is a cheapest one. With per-cell extra
//! costs (a noise field times a weight), entering a passable cell costs
//! its kind's cost plus its extra; extras are never negative, so the same
//! heuristic stays a lower bound.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use super::analysis::Columns;
use crate::map::{Map, MapError, Tile};

/// What entering each kind costs, by kind index: `None` is impassable.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCosts {
    pub per_kind: Vec<Option<f64>>,
    pub diagonal: bool,
    /// What entering each cell costs on top of its kind's cost.
    pub field: Option<Field>,
}

/// Per-cell extra costs: a noise field's values times a weight, read where
/// the field keeps them (a copy of a 2000x2000 field's extras was 32 MB of
/// fresh pages).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    values: Arc<Vec<f64>>,
    weight: f64,
    /// The largest extra.
    dearest: f64,
}

impl Field {
    /// What entering `cell` costs on top of its kind's cost: finite and
    /// not negative (`add_field` checked every cell).
    #[inline]
    pub fn extra(&self, cell: usize) -> f64 {
        (self.values[cell] * self.weight).max(0.0)
    }
}

impl PathCosts {
    /// Walkable kinds cost 1, the others are impassable.
    pub fn walkable(map: &Map) -> PathCosts {
        PathCosts {
            per_kind: map
                .tiles()
                .iter()
                .map(|(_, k)| k.walkable.then_some(1.0))
                .collect(),
            diagonal: false,
            field: None,
        }
    }

    /// Adds `weight * values[cell]` (at least 0) to entering each cell (a
    /// noise field's values, row by row, for a map of `cells` cells).
    pub fn add_field(
        &mut self,
        values: Arc<Vec<f64>>,
        weight: f64,
        cells: usize,
    ) -> Result<(), MapError> {
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(MapError::Invalid(format!(
                "a field's weight must be a finite number 0 or more, got {weight}"
            )));
        }
        if values.len() != cells {
            return Err(MapError::Invalid(format!(
                "the field has {} cells and the map {cells}: make it with this map's noise",
                values.len()
            )));
        }
        let mut field = Field {
            values,
            weight,
            dearest: 0.0,
        };
        for cell in 0..cells {
            let extra = field.extra(cell);
            if !extra.is_finite() {
                return Err(MapError::Invalid(
                    "a field's weighted values must be finite".into(),
                ));
            }
            field.dearest = field.dearest.max(extra);
        }
        self.field = Some(field);
        Ok(())
    }

    /// What the dearest step costs at most (diagonals aside): the dearest
    /// kind plus the largest extra.
    fn dearest(&self) -> f64 {
        self.per_kind
            .iter()
            .flatten()
            .fold(0.0f64, |m, &c| m.max(c))
            + self.field.as_ref().map_or(0.0, |f| f.dearest)
    }

    /// Sets what entering `tile` costs (`None`: impassable). A cost must be
    /// finite and positive. A tile past the map's kinds (a latent kind such
    /// as `secret_door` that nothing has written yet: see
    /// [`crate::map::TileSet::lookup`]) is held by no cell, so its price,
    /// once checked, changes nothing.
    pub fn set(&mut self, tile: Tile, cost: Option<f64>) -> Result<(), MapError> {
        if let Some(c) = cost {
            if !(c.is_finite() && c > 0.0) {
                return Err(MapError::Invalid(format!(
                    "a path cost must be a positive finite number or false, got {c}"
                )));
            }
        }
        if let Some(slot) = self.per_kind.get_mut(tile.index()) {
            *slot = cost;
        }
        Ok(())
    }
}

/// An open-set entry's key, ordered as the specification orders the open
/// set: the smallest f first, then h, then cell index. `f` and `h` are
/// stored as [`order_bits`], so comparing the integers is comparing the
/// numbers (by `total_cmp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    f: u64,
    h: u64,
    cell: u32,
}

/// `x`'s bits, turned so that unsigned order is `f64::total_cmp`'s.
fn order_bits(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// The open set: a priority queue that pops keys in exactly the order a
/// binary heap of them would (smallest first), faster when f grows
/// steadily, as it does in A* with a consistent heuristic.
///
/// Keys are spread over buckets by f: bucket number
/// `floor((f - origin) / delta)`, a nondecreasing function of f, so every
/// key in a lower bucket is smaller than every key in a higher one. The
/// bucket being popped is a heap ordered by the whole key; the next
/// `WINDOW - 1` buckets are plain lists, made a heap when their turn
/// comes; keys past the window wait in an overflow heap and move into the
/// window as it slides up. A key below the bucket being popped (rounding
/// can make f dip a little below the last f popped) joins that bucket,
/// which keeps the buckets in order. Which bucket a key lands in only
/// changes the time, never the order of pops: that is always the keys'
/// own order.
struct OpenSet {
    origin: f64,
    /// 1 / delta: finite and positive.
    scale: f64,
    /// The absolute number of the bucket being popped; no key is in a
    /// bucket below it.
    cursor: u64,
    /// The keys of bucket `cursor` (and any that fell below it).
    current: BinaryHeap<Reverse<Key>>,
    /// Buckets `cursor + 1 .. cursor + WINDOW`, unsorted, at `b % WINDOW`.
    buckets: Vec<Vec<Reverse<Key>>>,
    in_window: usize,
    overflow: BinaryHeap<Reverse<(Key, u64)>>,
}

/// Buckets in the window (a power of two).
const WINDOW: usize = 1024;

impl OpenSet {
    /// A queue whose window spans `span` of f from `origin` (the span of f
    /// the keys alive at once are expected to cover).
    fn new(origin: f64, span: f64) -> OpenSet {
        let scale = WINDOW as f64 / span;
        OpenSet {
            origin,
            scale: if scale.is_finite() && scale > 0.0 {
                scale
            } else {
                1.0
            },
            cursor: 0,
            current: BinaryHeap::new(),
            buckets: (0..WINDOW).map(|_| Vec::new()).collect(),
            in_window: 0,
            overflow: BinaryHeap::new(),
        }
    }

    /// The bucket number of f: nondecreasing in f (each step rounds
    /// monotonically; the cast truncates and saturates, which is floor
    /// for the numbers at or above 0 and 0 for those below).
    fn bucket(&self, f: f64) -> u64 {
        ((f - self.origin) * self.scale) as u64
    }

    fn push(&mut self, f: f64, key: Key) {
        self.place(self.bucket(f), key);
    }

    fn place(&mut self, b: u64, key: Key) {
        if b <= self.cursor {
            self.current.push(Reverse(key));
        } else if b < self.cursor.saturating_add(WINDOW as u64) {
            self.buckets[b as usize % WINDOW].push(Reverse(key));
            self.in_window += 1;
        } else {
            self.overflow.push(Reverse((key, b)));
        }
    }

    fn pop(&mut self) -> Option<Key> {
        loop {
            if let Some(Reverse(key)) = self.current.pop() {
                return Some(key);
            }
            // The next bucket: the window's next, or the overflow's lowest.
            self.cursor = if self.in_window > 0 {
                self.cursor.saturating_add(1)
            } else {
                let &Reverse((_, b)) = self.overflow.peek()?;
                b.max(self.cursor.saturating_add(1))
            };
            while let Some(&Reverse((key, b))) = self.overflow.peek() {
                // (At the top of the numbers the window cannot slide past
                // a key: one at the cursor is always taken.)
                if b > self.cursor && b >= self.cursor.saturating_add(WINDOW as u64) {
                    break;
                }
                self.overflow.pop();
                self.place(b, key);
            }
            let slot = self.cursor as usize % WINDOW;
            if !self.buckets[slot].is_empty() {
                let keys = std::mem::take(&mut self.buckets[slot]);
                self.in_window -= keys.len();
                let mut keys = BinaryHeap::from(keys);
                std::mem::swap(&mut keys, &mut self.current);
                self.buckets[slot] = keys.into_vec();
            }
        }
    }
}

/// The steps tried from a cell, in the specified order: N, E, S, W, then
/// (with diagonal steps) NE, SE, SW, NW.
const STEPS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The cheapest path from `a` to `b` (both included), or `None` when `b`
/// cannot be reached. The start may be on an impassable cell; the goal may
/// not.
pub fn path(
    map: &Map,
    a: (i64, i64),
    b: (i64, i64),
    costs: &PathCosts,
) -> Result<Option<Vec<(i32, i32)>>, MapError> {
    let start = map.index(a.0, a.1)?;
    let goal = map.index(b.0, b.1)?;
    // Each kind's price, impassable as infinity: a step into an impassable
    // cell then costs infinity, which is never below a cost so far, so it
    // is never taken, and the search needs no branch to skip it. A price
    // plus an extra is the sum the specification makes.
    let mut price = [f64::INFINITY; 256];
    for (slot, cost) in price.iter_mut().zip(&costs.per_kind) {
        *slot = cost.unwrap_or(f64::INFINITY);
    }
    let cells = map.cells();
    // A path's cost is at most the dearest step over every cell: it must
    // stay a number, or a path whose cost overflowed to infinity would
    // look like no path at all.
    let dearest_step = costs.dearest();
    if !(dearest_step * std::f64::consts::SQRT_2 * cells.len() as f64).is_finite() {
        return Err(MapError::Invalid(format!(
            "costs up to {dearest_step:e} a step over {} cells could add up past the largest number; use smaller costs or a smaller weight",
            cells.len()
        )));
    }
    if price[cells[goal].index()] == f64::INFINITY && start != goal {
        return Ok(None);
    }
    let price = &price;
    Ok(match &costs.field {
        Some(field) => search(map, start, goal, costs, |cell| {
            price[cells[cell].0 as usize] + field.extra(cell)
        }),
        None => search(map, start, goal, costs, |cell| {
            price[cells[cell].0 as usize]
        }),
    })
}

/// [`path`]'s A* from `start` to `goal`, `enter(cell)` what entering a
/// cell costs (infinity: impassable). Made once for each way of pricing a
/// cell, so the price is read in line.
fn search(
    map: &Map,
    start: usize,
    goal: usize,
    costs: &PathCosts,
    enter: impl Fn(usize) -> f64,
) -> Option<Vec<(i32, i32)>> {
    let (w, h) = (map.width(), map.height());
    let cheapest = costs
        .per_kind
        .iter()
        .flatten()
        .fold(f64::INFINITY, |m, &c| m.min(c));
    let (gx, gy) = (goal as i32 % w, goal as i32 / w);
    let heuristic = |x: i32, y: i32| {
        let (dx, dy) = ((x - gx).abs() as f64, (y - gy).abs() as f64);
        let steps = if costs.diagonal {
            dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
        } else {
            dx + dy
        };
        steps * cheapest
    };
    // How far above the lowest f the open keys reach: a step's dearest
    // cost, plus what the heuristic can drop in one step.
    let dearest = costs.dearest();
    let reach = if costs.diagonal {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let h_start = heuristic(start as i32 % w, start as i32 / w);
    let mut open = OpenSet::new(h_start, (dearest + cheapest) * reach);
    // Each cell's cost so far, stored as its bits XOR those of infinity:
    // zeroed memory is "not reached", so the map-sized table is never
    // written through, and a short search on a big map touches only the
    // pages it reaches. Apart, the step each cell was reached by (an index
    // into the steps tried), read only to walk the path back.
    let mut g = vec![0u64; map.cells().len()];
    let mut step_in = vec![0u8; map.cells().len()];
    g[start] = store(0.0);
    open.push(
        h_start,
        Key {
            f: order_bits(h_start),
            h: order_bits(h_start),
            cell: start as u32,
        },
    );
    let steps: &[(i32, i32)] = if costs.diagonal { &STEPS } else { &STEPS[..4] };
    // Each step as a change of cell index, in the order tried.
    let offsets: Vec<isize> = steps
        .iter()
        .map(|&(dx, dy)| (dy * w + dx) as isize)
        .collect();
    let columns = Columns::new(w as u32);
    while let Some(Key { f, h: h_cell, cell }) = open.pop() {
        let cell = cell as usize;
        if cell == goal {
            let mut found = vec![cell];
            let mut at = cell;
            while at != start {
                at = (at as isize - offsets[step_in[at] as usize]) as usize;
                found.push(at);
            }
            found.reverse();
            return Some(
                found
                    .into_iter()
                    .map(|c| (c as i32 % w, c as i32 / w))
                    .collect(),
            );
        }
        // A stale entry: the cell was reached more cheaply since (its h,
        // stored with it, is the cell's heuristic).
        let g_cell = load(g[cell]);
        if from_order_bits(f) > g_cell + from_order_bits(h_cell) {
            continue;
        }
        let x = columns.column(cell as u32) as i32;
        let y = columns.row(cell as u32) as i32;
        for (i, (&(dx, dy), &offset)) in steps.iter().zip(&offsets).enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            // Off the map (a coordinate of -1 is past the width as u32).
            if nx as u32 >= w as u32 || ny as u32 >= h as u32 {
                continue;
            }
            let next = (cell as isize + offset) as usize;
            let price = enter(next);
            let step = if i >= 4 {
                price * std::f64::consts::SQRT_2
            } else {
                price
            };
            let tentative = g_cell + step;
            if tentative < load(g[next]) {
                g[next] = store(tentative);
                step_in[next] = i as u8;
                let hn = heuristic(nx, ny);
                let f_next = tentative + hn;
                open.push(
                    f_next,
                    Key {
                        f: order_bits(f_next),
                        h: order_bits(hn),
                        cell: next as u32,
                    },
                );
            }
        }
    }
    None
}

/// A cost so far as kept in [`path`]'s table: infinity is 0.
fn store(g: f64) -> u64 {
    g.to_bits() ^ f64::INFINITY.to_bits()
}

/// The cost so far kept as `k`.
fn load(k: u64) -> f64 {
    f64::from_bits(k ^ f64::INFINITY.to_bits())
}

/// The number whose [`order_bits`] are `k`.
fn from_order_bits(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

impl Map {
    /// Sets every cell of `cells` to `tile`; returns how many changed.
    pub fn carve_path(&mut self, cells: &[(i64, i64)], tile: Tile) -> Result<usize, MapError> {
        for &(x, y) in cells {
            self.index(x, y)?;
        }
        let mut changed = 0;
        for &(x, y) in cells {
            if self.get(x, y)? != tile {
                self.set(x, y, tile)?;
                changed += 1;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    // The reference: the plain binary-heap A* the bucketed open set must
    // match pop for pop, so the path is the same to the last tie.
    use std::cmp::Ordering;

    /// An open-set entry: ordered so the heap pops the smallest f, then h,
    /// then cell index.
    #[derive(PartialEq)]
    struct Open {
        f: f64,
        h: f64,
        cell: usize,
    }

    impl Eq for Open {}

    impl Ord for Open {
        fn cmp(&self, other: &Self) -> Ordering {
            other
                .f
                .total_cmp(&self.f)
                .then(other.h.total_cmp(&self.h))
                .then(other.cell.cmp(&self.cell))
        }
    }

    impl PartialOrd for Open {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }

    /// The specification's A* as first written: one binary heap of every
    /// entry, stale ones skipped when popped.
    fn reference_path(
        map: &Map,
        a: (i64, i64),
        b: (i64, i64),
        costs: &PathCosts,
    ) -> Result<Option<Vec<(i32, i32)>>, MapError> {
        let start = map.index(a.0, a.1)?;
        let goal = map.index(b.0, b.1)?;
        let (w, h) = (map.width(), map.height());
        let cost_of = |cell: usize| {
            let kind = costs.per_kind[map.cells()[cell].index()];
            match &costs.field {
                Some(field) => kind.map(|c| c + field.extra(cell)),
                None => kind,
            }
        };
        if cost_of(goal).is_none() && start != goal {
            return Ok(None);
        }
        let cheapest = costs
            .per_kind
            .iter()
            .flatten()
            .fold(f64::INFINITY, |m, &c| m.min(c));
        let (gx, gy) = (b.0 as i32, b.1 as i32);
        let heuristic = |cell: usize| {
            let (x, y) = ((cell as i32 % w), (cell as i32 / w));
            let (dx, dy) = ((x - gx).abs() as f64, (y - gy).abs() as f64);
            let steps = if costs.diagonal {
                dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
            } else {
                dx + dy
            };
            steps * cheapest
        };
        let mut g = vec![f64::INFINITY; map.cells().len()];
        let mut came_from = vec![u32::MAX; map.cells().len()];
        let mut open = BinaryHeap::new();
        g[start] = 0.0;
        open.push(Open {
            f: heuristic(start),
            h: heuristic(start),
            cell: start,
        });
        while let Some(Open { f, h: h_cell, cell }) = open.pop() {
            if cell == goal {
                let mut cells = vec![cell];
                let mut at = cell;
                while at != start {
                    at = came_from[at] as usize;
                    cells.push(at);
                }
                cells.reverse();
                let steps = cells
                    .into_iter()
                    .map(|c| (c as i32 % w, c as i32 / w))
                    .collect();
                return Ok(Some(steps));
            }
            // A stale entry: the cell was reached more cheaply since (its h,
            // stored with it, is heuristic(cell)).
            if f > g[cell] + h_cell {
                continue;
            }
            let (x, y) = (cell as i32 % w, cell as i32 / w);
            let steps: &[(i32, i32)] = if costs.diagonal { &STEPS } else { &STEPS[..4] };
            for (i, &(dx, dy)) in steps.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let next = (ny * w + nx) as usize;
                let Some(enter) = cost_of(next) else {
                    continue;
                };
                let step = if i >= 4 {
                    enter * std::f64::consts::SQRT_2
                } else {
                    enter
                };
                let tentative = g[cell] + step;
                if tentative < g[next] {
                    g[next] = tentative;
                    came_from[next] = cell as u32;
                    let hn = heuristic(next);
                    open.push(Open {
                        f: tentative + hn,
                        h: hn,
                        cell: next,
                    });
                }
            }
        }
        Ok(None)
    }

    /// The open set pops what a binary heap of the same keys pops, with
    /// keys far past its window (the overflow), below its lowest bucket
    /// (rounding) and equal f's (ties by h, then cell).
    #[test]
    fn open_set_pops_in_key_order() {
        let mut rng = Rng::new(5);
        // 1e-300: every bucket number saturates at the largest u64.
        for span in [1e-300, 1e-3, 1.0, 37.0, 1e9] {
            let mut open = OpenSet::new(10.0, span);
            let mut heap = BinaryHeap::new();
            let mut last = 10.0f64;
            for step in 0..20_000 {
                if rng.chance(0.55) {
                    let f = match rng.int(5) {
                        0 => last,
                        1 => last - rng.float() * 1e-9 * last,
                        2 => last + rng.float() * span * 3.0,
                        3 => last + rng.float(),
                        _ => last + (rng.int(3) as f64) * span,
                    };
                    let key = Key {
                        f: order_bits(f),
                        h: order_bits(rng.int(4) as f64),
                        cell: rng.int(1000) as u32,
                    };
                    open.push(f, key);
                    heap.push(Reverse(key));
                } else {
                    let want = heap.pop().map(|Reverse(k)| k);
                    assert_eq!(open.pop(), want, "span {span}, step {step}");
                    if let Some(k) = want {
                        last = from_order_bits(k.f);
                    }
                }
            }
            while let Some(Reverse(k)) = heap.pop() {
                assert_eq!(open.pop(), Some(k));
            }
            assert_eq!(open.pop(), None);
        }
    }

    /// The bucketed open set finds exactly the path of the plain heap on
    /// random maps: integer costs (ties everywhere), fields with small and
    /// huge weights (keys far past the window), diagonal steps, walls and
    /// unreachable goals.
    #[test]
    fn matches_the_plain_heap_search_on_random_maps() {
        let mut rng = Rng::new(27);
        let mut found = 0;
        for round in 0..300 {
            let (w, h) = (rng.range(2, 40).unwrap(), rng.range(2, 30).unwrap());
            let mut map = Map::new(w, h).unwrap();
            let walls = rng.float() * 0.4;
            for y in 0..h {
                for x in 0..w {
                    let tile = if rng.chance(walls) {
                        Tile::WALL
                    } else if rng.chance(0.3) {
                        Tile::WATER
                    } else {
                        Tile::FLOOR
                    };
                    map.set(x, y, tile).unwrap();
                }
            }
            let mut costs = PathCosts::walkable(&map);
            costs.diagonal = rng.coin();
            match round % 4 {
                0 => {}
                1 => costs
                    .set(Tile::WATER, Some(rng.range(1, 5).unwrap() as f64))
                    .unwrap(),
                _ => {
                    costs
                        .set(Tile::WATER, Some(0.25 + rng.float() * 3.0))
                        .unwrap();
                    let weight = [0.5, 3.0, 100.0, 1e6, 1e300][rng.int(5) as usize];
                    let field: Vec<f64> = (0..w * h).map(|_| rng.float()).collect();
                    costs
                        .add_field(Arc::new(field.clone()), weight, (w * h) as usize)
                        .unwrap();
                }
            }
            for _ in 0..5 {
                let a = (rng.int(w as u64) as i64, rng.int(h as u64) as i64);
                let b = (rng.int(w as u64) as i64, rng.int(h as u64) as i64);
                let want = reference_path(&map, a, b, &costs).unwrap();
                found += want.is_some() as u32;
                assert_eq!(
                    path(&map, a, b, &costs).unwrap(),
                    want,
                    "round {round}, {a:?} to {b:?}\n{map}"
                );
            }
        }
        assert!(found > 500, "most searches find a path: {found}");
    }

    fn draw(map: &Map, cells: &[(i32, i32)]) -> String {
        let mut rows: Vec<Vec<char>> = map
            .glyph_rows()
            .iter()
            .map(|r| r.chars().collect())
            .collect();
        for &(x, y) in cells {
            rows[y as usize][x as usize] = '*';
        }
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn finds_the_shortest_way_round_walls() {
        let map = Map::from_ascii(
            "#######\n\
             #..#..#\n\
             #..#..#\n\
             #.....#\n\
             #######\n",
        )
        .unwrap();
        let costs = PathCosts::walkable(&map);
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 9, "4 down and round: {p:?}");
        assert_eq!(p[0], (1, 1));
        assert_eq!(*p.last().unwrap(), (5, 1));
        assert_eq!(
            draw(&map, &p),
            "#######\n#**#**#\n#.*#*.#\n#.***.#\n#######\n",
            "among equal paths, the one the specified order finds (smaller h first)"
        );
        assert_eq!(
            path(&map, (1, 1), (3, 1), &costs).unwrap(),
            None,
            "into a wall"
        );
        assert!(path(&map, (1, 1), (9, 1), &costs).is_err());
    }

    #[test]
    fn costs_steer_the_path_and_false_blocks_it() {
        // Water is cheap to cross here, floor dear: the path goes by water.
        let map = Map::from_ascii(
            "#######\n\
             #.....#\n\
             #~~~~~#\n\
             #######\n",
        )
        .unwrap();
        let mut costs = PathCosts::walkable(&map);
        costs.set(Tile::WATER, Some(0.5)).unwrap();
        costs.set(Tile::FLOOR, Some(3.0)).unwrap();
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(draw(&map, &p), "#######\n#*...*#\n#*****#\n#######\n");
        costs.set(Tile::WATER, None).unwrap();
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 5, "floor only now");
        assert!(costs.set(Tile::FLOOR, Some(0.0)).is_err());
        assert!(costs.set(Tile::FLOOR, Some(f64::NAN)).is_err());
        // A cost whose sum over the map could overflow is refused, not
        // taken for "no path" (1e308 a step gave nil on an open map).
        costs.set(Tile::FLOOR, Some(1e308)).unwrap();
        let err = path(&map, (1, 1), (5, 1), &costs).unwrap_err();
        assert!(
            err.to_string()
                .contains("could add up past the largest number"),
            "{err}"
        );
        costs.set(Tile::FLOOR, Some(1e300)).unwrap();
        assert!(path(&map, (1, 1), (5, 1), &costs).unwrap().is_some());
    }

    #[test]
    fn diagonal_steps_cut_corners() {
        let map = Map::from_ascii("######\n#....#\n#....#\n#....#\n######\n").unwrap();
        let mut costs = PathCosts::walkable(&map);
        costs.diagonal = true;
        let p = path(&map, (1, 1), (4, 3), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 4, "two diagonal steps and one straight: {p:?}");
        let mut map = map;
        assert!(map
            .carve_path(&[(1, 1), (2, 1), (9, 9)], Tile::WATER)
            .is_err());
        assert_eq!(
            map.get(1, 1),
            Ok(Tile::FLOOR),
            "all checked before any is set"
        );
        assert_eq!(
            map.carve_path(&[(1, 1), (2, 1), (2, 1)], Tile::WATER),
            Ok(2)
        );
        assert_eq!(map.get(2, 1), Ok(Tile::WATER));
    }

    #[test]
    fn a_field_makes_cells_dearer() {
        let map = Map::from_ascii("#####\n#...#\n#...#\n#...#\n#####\n").unwrap();
        let mut costs = PathCosts::walkable(&map);
        // The middle column costs 10 more to enter: the path goes round it
        // by the bottom row, which is as long and cheaper than crossing.
        let mut field = vec![0.0; 25];
        for y in 1..3 {
            field[y * 5 + 2] = 1.0;
        }
        costs.add_field(Arc::new(field.clone()), 10.0, 25).unwrap();
        let p = path(&map, (1, 1), (3, 1), &costs).unwrap().unwrap();
        assert_eq!(draw(&map, &p), "#####\n#*.*#\n#*.*#\n#***#\n#####\n");
        assert!(costs.add_field(Arc::new(field.clone()), -1.0, 25).is_err());
        assert!(costs
            .add_field(Arc::new(field.clone()), f64::NAN, 25)
            .is_err());
        assert!(costs.add_field(Arc::new(field.clone()), 1.0, 24).is_err());
        let mut plain = PathCosts::walkable(&map);
        plain.add_field(Arc::new(field.clone()), 0.0, 25).unwrap();
        assert_eq!(
            path(&map, (1, 1), (3, 1), &plain).unwrap().unwrap().len(),
            3,
            "weight 0: straight across"
        );
    }
}
