//! `wfc.fill`: wave function collapse, the overlapping model
//! (mxgmn/WaveFunctionCollapse) with DeBroglie's backtracking. Learns every
//! N×N window of a small sample and fills a region of the map so that every
//! N×N window touching it is one of them, the cells outside it kept as they
//! are and read as context; then checks the global constraints (border,
//! connected, path, counts) and retries on the same stream when one fails.
//! When the kept cells make that impossible, the same call reads them more
//! loosely (by walkability, then not at all: [`Context`]), on the same
//! stream, unless the caller forced one reading.
//! All work and memory is reported to a meter, so a script's limits hold.

mod bitset;
mod global;
mod live;
mod meter;
mod patterns;
mod solver;

pub use meter::{Charge, Stopped};
pub use patterns::Sample;

use bitset::{words, Bits};
use live::{Live, Source};
use meter::Meter;
use patterns::Patterns;
use solver::{End, Grid, Solver};

use crate::map::{Map, Tile};
use crate::ops::Selection;
use crate::rng::Rng;

/// The largest pattern side: a window of 8×8 already needs a large sample
/// to say anything, and the work grows with its square.
pub const MAX_N: usize = 8;
/// The most distinct patterns a sample may hold: the allowed-neighbour
/// table grows with their square.
pub const MAX_PATTERNS: usize = 4096;
/// The most attempts a fill may ask for.
pub const MAX_ATTEMPTS: u32 = 10_000;

/// What a fill must satisfy besides the sample's windows.
#[derive(Clone, Debug)]
pub struct WfcOptions {
    /// The pattern side, 1..=MAX_N.
    pub n: usize,
    /// 1, 2, 4 or 8 variants of each window: as drawn, mirrored, turned.
    pub symmetry: usize,
    /// Every region cell on the map's outer ring is this tile.
    pub border: Option<Tile>,
    /// The walkable cells of the region (and the walkable fixed cells
    /// touching it) form one 4-connected area.
    pub connected: bool,
    /// Two cells that must be walkable and joined by a walkable route.
    pub path: Option<[(i32, i32); 2]>,
    /// `(tile, min, max)`: how many region cells hold the tile.
    pub counts: Vec<(Tile, u64, u64)>,
    /// Attempts (each a fresh search on the same stream) before giving up.
    pub attempts: u32,
    /// Backtracks one attempt may make before it is abandoned.
    pub backtracks: u32,
    /// How windows read the kept cells: one level only, or `None` for the
    /// fallback chain (exact, then walkable, then free).
    pub context: Option<Context>,
}

/// How the N×N windows that overlap kept cells (outside the region) must
/// agree with them. `connected`, `path`, `counts` and `border` always use
/// the kept cells' real tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// A window's tile at a kept cell is the kept tile.
    Exact,
    /// A window's tile at a kept cell is walkable exactly when the kept
    /// tile is.
    Walkable,
    /// A window is free at kept cells: only its region cells count.
    Free,
}

impl Context {
    /// The level's name, as scripts write it.
    pub fn name(self) -> &'static str {
        match self {
            Context::Exact => "exact",
            Context::Walkable => "walkable",
            Context::Free => "free",
        }
    }

    /// The level named `name`.
    pub fn named(name: &str) -> Option<Context> {
        [Context::Exact, Context::Walkable, Context::Free]
            .into_iter()
            .find(|c| c.name() == name)
    }
}

impl Default for WfcOptions {
    fn default() -> Self {
        WfcOptions {
            n: 3,
            symmetry: 8,
            border: None,
            connected: false,
            path: None,
            counts: Vec::new(),
            attempts: 20,
            backtracks: 1000,
            context: None,
        }
    }
}

/// Why a fill did not start: an argument that can never work. The binding
/// reports it as the script's error, at the script's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WfcError {
    Invalid(String),
    /// The meter refused a charge (budget or memory spent).
    Stopped,
}

impl From<Stopped> for WfcError {
    fn from(_: Stopped) -> Self {
        WfcError::Stopped
    }
}

/// `Ok(())` when the region was filled, else the plain reason it was not
/// (the map is then unchanged).
pub type Outcome = Result<(), String>;

/// Fills `region` of `map` from `sample` (see the module docs).
pub fn fill(
    map: &mut Map,
    region: &Selection,
    sample: &Sample,
    opts: &WfcOptions,
    rng: &mut Rng,
    report: &mut dyn FnMut(Charge) -> Result<(), Stopped>,
) -> Result<Outcome, WfcError> {
    let invalid = |m: String| Err(WfcError::Invalid(m));
    let n = opts.n;
    if !(1..=MAX_N).contains(&n) {
        return invalid(format!("n must be 1 to {MAX_N}, got {n}"));
    }
    if ![1, 2, 4, 8].contains(&opts.symmetry) {
        return invalid(format!(
            "symmetry must be 1, 2, 4 or 8, got {}",
            opts.symmetry
        ));
    }
    if sample.width < n || sample.height < n {
        return invalid(format!(
            "the sample ({}x{}) is smaller than n = {n}: it has no {n}x{n} window",
            sample.width, sample.height
        ));
    }
    if opts.attempts == 0 || opts.attempts > MAX_ATTEMPTS {
        return invalid(format!(
            "attempts must be 1 to {MAX_ATTEMPTS}, got {}",
            opts.attempts
        ));
    }
    let (mw, mh) = (map.width() as usize, map.height() as usize);
    if (region.width() as usize, region.height() as usize) != (mw, mh) {
        return invalid(format!(
            "region is a selection of a {}x{} map, not of this one",
            region.width(),
            region.height()
        ));
    }
    for (x, y) in opts.path.iter().flatten() {
        if !map.in_bounds(*x as i64, *y as i64) {
            return invalid(format!("path end ({x}, {y}) is off the map"));
        }
    }
    for &(tile, min, max) in &opts.counts {
        if min > max {
            let name = &map.tiles().kind(tile).name;
            return invalid(format!("counts.{name}: min {min} is more than max {max}"));
        }
    }
    if region.is_empty() {
        return Ok(Ok(()));
    }
    if mw < n || mh < n {
        return invalid(format!("the map ({mw}x{mh}) is smaller than n = {n}"));
    }

    let mut meter = Meter::new(report);
    let windows = patterns::windows(sample, n, opts.symmetry);
    meter.upfront(windows.saturating_mul((n * n) as u64) / 4 + 1)?;
    meter.keep(sample.cells.len() + (windows as usize).min(MAX_PATTERNS) * (n * n + 64))?;
    let Some(pats) = patterns::learn(sample, n, opts.symmetry, MAX_PATTERNS) else {
        return invalid(format!(
            "the sample has more than {MAX_PATTERNS} distinct {n}x{n} patterns; draw a smaller sample or use a smaller n"
        ));
    };
    let count = pats.count();
    let w = words(count);
    let unions = if pats.unions.is_some() {
        patterns::union_bytes(count)
    } else {
        0
    };
    meter.keep(4 * count * w * 8 + unions)?;
    meter.upfront((4 * count * w) as u64 / 4 + 1)?;

    let mut walkable = [false; 256];
    for (tile, kind) in map.tiles().iter() {
        walkable[tile.index()] = kind.walkable;
    }
    let setup = Setup::new(map, region, &pats, opts, &walkable, &mut meter)?;
    let setup = match setup {
        Ok(s) => s,
        Err(reason) => return Ok(Err(reason)),
    };
    let chain = [Context::Exact, Context::Walkable, Context::Free];
    let levels = match opts.context {
        Some(level) => std::slice::from_ref(match level {
            Context::Exact => &chain[0],
            Context::Walkable => &chain[1],
            Context::Free => &chain[2],
        }),
        // A looser reading only differs when some window holds a kept cell.
        None if setup.touches_kept(n) => &chain[..],
        None => &chain[..1],
    };
    let mut reasons: Vec<(Context, String)> = Vec::new();
    for &level in levels {
        let held = meter.held();
        match fill_at(level, map, &setup, &pats, opts, rng, &mut meter)? {
            Ok(()) => return Ok(Ok(())),
            Err(reason) => reasons.push((level, reason)),
        }
        meter.release_to(held);
    }
    let mut reasons = reasons.into_iter();
    let (_, first) = reasons.next().expect("one level at least");
    Ok(Err(reasons.fold(first, |all, (level, why)| {
        format!(
            "{all}; with the kept cells read {}: {why}",
            match level {
                Context::Walkable => "by walkability",
                _ => "as free",
            }
        )
    })))
}

/// One fill at one reading of the kept cells: `Ok(Ok(()))` when the map
/// was filled.
fn fill_at(
    level: Context,
    map: &mut Map,
    setup: &Setup,
    pats: &Patterns,
    opts: &WfcOptions,
    rng: &mut Rng,
    meter: &mut Meter<'_>,
) -> Result<Outcome, WfcError> {
    let (n, w) = (pats.n, words(pats.count()));
    let positions = setup.grid.gw * setup.grid.gh;
    meter.keep(solver::base_bytes(positions, w))?;
    meter.upfront((positions * w) as u64 / 2 + 1)?;

    let initial = setup.initial_domains(pats, level, meter)?;
    let mut solver = Solver::new(pats, &setup.grid, initial);
    if let Err(pos) = solver.propagate_all(meter)? {
        return Ok(Err(setup.no_window_fits(pos, n)));
    }
    let initial = solver.domains().to_vec();
    let mut live = setup.live(pats, opts, meter)?;
    if let Some(live) = live.as_mut() {
        live.reset(&initial);
        if let Some((k, must, might)) = live.count_out_of_reach(&initial) {
            let (tile, min, max) = opts.counts[k];
            let name = &map.tiles().kind(tile).name;
            return Ok(Err(if must > max {
                format!("the region needs at least {must} '{name}' cells, and counts allow at most {max}")
            } else {
                format!("the region has room for at most {might} '{name}' cells, and counts ask for at least {min}")
            }));
        }
        if !live.check(&initial, meter)? {
            return Ok(Err(setup.never_joined(opts)));
        }
    }

    let mut failures = Failures::default();
    let mut cells = map.cells().to_vec();
    // The copy, the region mask and the marks of the final checks.
    meter.keep(cells.len() * 8)?;
    for attempt in 0..opts.attempts {
        if attempt > 0 {
            solver = Solver::new(pats, &setup.grid, initial.clone());
        }
        meter.upfront((positions * w) as u64 / 8 + 1)?;
        match solver.search(rng, opts.backtracks, live.as_mut(), meter)? {
            End::Solved => {}
            End::GaveUp => {
                failures.contradictions += 1;
                continue;
            }
            End::Impossible => {
                return Ok(Err(format!(
                    "no fill of the region exists: every choice of the sample's {n}x{n} patterns ends in a contradiction"
                )));
            }
        }
        setup.write(&solver, pats, &mut cells);
        let unmet = setup.unmet(&cells, map, opts, meter)?;
        // What the checks searched is charged before the map is written.
        meter.flush()?;
        if let Some(why) = unmet {
            failures.note(why);
            continue;
        }
        setup.commit(map, &cells);
        return Ok(Ok(()));
    }
    Ok(Err(failures.reason(opts.attempts)))
}

/// Why attempts failed, counted for the final reason.
#[derive(Default)]
struct Failures {
    contradictions: u32,
    /// The global constraint each failed attempt missed, in order of kind.
    unmet: Vec<(String, u32)>,
}

impl Failures {
    fn note(&mut self, why: String) {
        match self.unmet.iter_mut().find(|(w, _)| *w == why) {
            Some((_, k)) => *k += 1,
            None => self.unmet.push((why, 1)),
        }
    }

    fn reason(&self, attempts: u32) -> String {
        let mut parts = Vec::new();
        if self.contradictions > 0 {
            parts.push(format!(
                "{} ran into contradictions past the backtracking limit",
                self.contradictions
            ));
        }
        for (why, k) in &self.unmet {
            parts.push(format!("{k} {why}"));
        }
        format!("gave up after {attempts} attempts: {}", parts.join(", "))
    }
}

/// What a cell of the map is to the fill.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// Outside the region: its tile is kept and read as context.
    Fixed,
    /// In the region, any tile the patterns allow.
    Free,
    /// In the region, on the map's ring: the border tile.
    Border,
    /// In the region, a path end: any walkable tile.
    Walkable,
}

/// The fill's frame: which map cells are what, and the window positions.
struct Setup {
    width: usize,
    kinds: Vec<Cell>,
    /// The map's tiles as the fill found them.
    fixed: Vec<Tile>,
    border_tile: Tile,
    walkable: [bool; 256],
    grid: Grid,
    /// The bounding box of the region's cells, inclusive.
    bbox: (usize, usize, usize, usize),
}

impl Setup {
    fn new(
        map: &Map,
        region: &Selection,
        pats: &Patterns,
        opts: &WfcOptions,
        walkable: &[bool; 256],
        meter: &mut Meter<'_>,
    ) -> Result<Result<Setup, String>, Stopped> {
        let (mw, mh) = (map.width() as usize, map.height() as usize);
        let n = pats.n;
        meter.keep(mw * mh)?;
        meter.upfront((mw * mh) as u64 / 4 + region.count() as u64)?;
        let mut kinds = vec![Cell::Fixed; mw * mh];
        let (mut x1, mut y1, mut x2, mut y2) = (usize::MAX, usize::MAX, 0, 0);
        for &i in region.indices() {
            let i = i as usize;
            let (x, y) = (i % mw, i / mw);
            let ring = x == 0 || y == 0 || x + 1 == mw || y + 1 == mh;
            kinds[i] = if ring && opts.border.is_some() {
                Cell::Border
            } else {
                Cell::Free
            };
            (x1, y1, x2, y2) = (x1.min(x), y1.min(y), x2.max(x), y2.max(y));
        }
        let tile_name = |t: Tile| map.tiles().kind(t).name.clone();
        if let Some(t) = opts.border {
            if !pats.tiles.contains(&t) && kinds.contains(&Cell::Border) {
                return Ok(Err(format!(
                    "the border tile '{}' is not in the sample",
                    tile_name(t)
                )));
            }
        }
        for &(x, y) in opts.path.iter().flatten() {
            let i = y as usize * mw + x as usize;
            match kinds[i] {
                Cell::Fixed if !walkable[map.cells()[i].index()] => {
                    return Ok(Err(format!(
                        "path end ({x}, {y}) is outside the region and not walkable ('{}')",
                        tile_name(map.cells()[i])
                    )))
                }
                Cell::Fixed => {}
                Cell::Border if !walkable[opts.border.map_or(0, |t| t.index())] => {
                    return Ok(Err(format!(
                        "path end ({x}, {y}) is on the map's edge, where the border '{}' is not walkable",
                        opts.border.map_or(String::new(), tile_name)
                    )))
                }
                Cell::Border => {}
                Cell::Free | Cell::Walkable => kinds[i] = Cell::Walkable,
            }
        }
        if kinds.contains(&Cell::Walkable) && !pats.tiles.iter().any(|t| walkable[t.index()]) {
            return Ok(Err(
                "the path's ends must be walkable, and the sample has no walkable tile".into(),
            ));
        }
        // Window positions: every top-left whose window can cover a region
        // cell, clipped to windows inside the map.
        let (ox, oy) = (x1.saturating_sub(n - 1), y1.saturating_sub(n - 1));
        let (ex, ey) = (x2.min(mw - n), y2.min(mh - n));
        let (gw, gh) = (ex + 1 - ox, ey + 1 - oy);
        meter.keep(gw * gh)?;
        let active = windows_touching(&kinds, mw, ox, oy, gw, gh, n, |k| k != Cell::Fixed);
        Ok(Ok(Setup {
            width: mw,
            kinds,
            fixed: map.cells().to_vec(),
            border_tile: opts.border.unwrap_or(Tile::WALL),
            walkable: *walkable,
            grid: Grid {
                ox: ox as i32,
                oy: oy as i32,
                gw,
                gh,
                active,
            },
            bbox: (x1, y1, x2, y2),
        }))
    }

    /// Each active position's patterns before propagation: those that agree
    /// with the fixed cells, the border and the path ends in its window.
    /// `level` says how a kept cell's tile rules patterns out.
    fn initial_domains(
        &self,
        pats: &Patterns,
        level: Context,
        meter: &mut Meter<'_>,
    ) -> Result<Vec<u64>, Stopped> {
        let n = pats.n;
        let count = pats.count();
        let w = words(count);
        let Grid { ox, oy, gw, gh, .. } = self.grid;
        let (ox, oy) = (ox as usize, oy as usize);
        let constrained = windows_touching(&self.kinds, self.width, ox, oy, gw, gh, n, |k| {
            k != Cell::Free
        });
        // at[(j * n + i) * 256 + tile]: the patterns with `tile` at (i, j),
        // made for the tiles that occur; walk[j * n + i]: with a walkable one.
        let mut tiles: Vec<Tile> = pats.tiles.clone();
        tiles.sort_unstable_by_key(|t| t.0);
        tiles.dedup();
        meter.keep((tiles.len() + 1) * n * n * w * 8)?;
        meter.upfront((count * n * n) as u64 + 1)?;
        let mut at: Vec<Option<Bits>> = vec![None; n * n * 256];
        for p in 0..count {
            for j in 0..n {
                for i in 0..n {
                    at[(j * n + i) * 256 + pats.tile(p, i, j).index()]
                        .get_or_insert_with(|| Bits::new(count))
                        .set(p);
                }
            }
        }
        let empty = Bits::new(count);
        let full = Bits::full(count);
        let mut dom = vec![0u64; gw * gh * w];
        for pos in 0..gw * gh {
            if !self.grid.active[pos] {
                continue;
            }
            let d = &mut dom[pos * w..(pos + 1) * w];
            d.copy_from_slice(&full.0);
            if !constrained[pos] {
                continue;
            }
            meter.work((n * n * w) as u64 / 2 + 1)?;
            let (px, py) = (ox + pos % gw, oy + pos / gw);
            for j in 0..n {
                for i in 0..n {
                    let cell = (py + j) * self.width + px + i;
                    let slot = (j * n + i) * 256;
                    match self.kinds[cell] {
                        Cell::Free => {}
                        Cell::Fixed if level == Context::Free => {}
                        Cell::Fixed if level == Context::Walkable => {
                            let want = self.walkable[self.fixed[cell].index()];
                            let mut any = vec![0u64; w];
                            for (t, bits) in at[slot..slot + 256].iter().enumerate() {
                                if let (true, Some(bits)) = (self.walkable[t] == want, bits) {
                                    any.iter_mut().zip(&bits.0).for_each(|(a, b)| *a |= b);
                                }
                            }
                            d.iter_mut().zip(&any).for_each(|(a, b)| *a &= b);
                        }
                        Cell::Fixed | Cell::Border => {
                            let tile = match self.kinds[cell] {
                                Cell::Border => self.border_tile,
                                _ => self.fixed[cell],
                            };
                            let allowed = at[slot + tile.index()].as_ref().unwrap_or(&empty);
                            d.iter_mut().zip(&allowed.0).for_each(|(a, b)| *a &= b);
                        }
                        Cell::Walkable => {
                            let mut any = vec![0u64; w];
                            for (t, bits) in at[slot..slot + 256].iter().enumerate() {
                                if let (true, Some(bits)) = (self.walkable[t], bits) {
                                    any.iter_mut().zip(&bits.0).for_each(|(a, b)| *a |= b);
                                }
                            }
                            d.iter_mut().zip(&any).for_each(|(a, b)| *a &= b);
                        }
                    }
                }
            }
        }
        Ok(dom)
    }
}

impl Setup {
    /// Whether some window of the fill holds a kept cell, so that a looser
    /// reading of the kept cells can change anything.
    fn touches_kept(&self, n: usize) -> bool {
        self.some_window_touches(n, |k| k == Cell::Fixed)
    }

    /// Whether some window of the fill holds a cell of a kind `wanted`
    /// picks.
    fn some_window_touches(&self, n: usize, wanted: impl Fn(Cell) -> bool) -> bool {
        let Grid { ox, oy, gw, gh, .. } = self.grid;
        let touched = windows_touching(
            &self.kinds,
            self.width,
            ox as usize,
            oy as usize,
            gw,
            gh,
            n,
            wanted,
        );
        touched.iter().zip(&self.grid.active).any(|(&t, &a)| t && a)
    }

    /// The reason no window fits at a position the first propagation
    /// emptied: what was kept around the region, the border or the path
    /// ends, when any window touches one; else the sample itself, whose
    /// patterns cannot overlap to cover the region (a window touching no
    /// such cell starts with every pattern, so nothing else took them).
    fn no_window_fits(&self, pos: usize, n: usize) -> String {
        let x = self.grid.ox as usize + pos % self.grid.gw;
        let y = self.grid.oy as usize + pos / self.grid.gw;
        if !self.some_window_touches(n, |k| k != Cell::Free) {
            return format!(
                "no fill of the region exists: the sample's {n}x{n} patterns cannot overlap to cover it (none is left for the map at ({x}, {y}) to ({}, {}), with nothing kept around the region, no border and no path)",
                x + n - 1,
                y + n - 1
            );
        }
        format!(
            "no {n}x{n} pattern of the sample fits the map at ({x}, {y}) to ({}, {}): the cells kept around the region, the border or the path ends rule every one out",
            x + n - 1,
            y + n - 1
        )
    }

    /// The window position holding region cell (x, y), and the cell's
    /// offset in it: the window at (wx, wy) holds the cell and is on the map.
    fn window_of(&self, x: usize, y: usize, n: usize) -> (usize, usize, usize) {
        let height = self.fixed.len() / self.width;
        let (wx, wy) = (x.min(self.width - n), y.min(height - n));
        let pos = (wy - self.grid.oy as usize) * self.grid.gw + wx - self.grid.ox as usize;
        (pos, x - wx, y - wy)
    }

    /// The search's watch on connectivity, when the fill asks for it.
    fn live(
        &self,
        pats: &Patterns,
        opts: &WfcOptions,
        meter: &mut Meter<'_>,
    ) -> Result<Option<Live>, Stopped> {
        if !opts.connected && opts.path.is_none() && opts.counts.is_empty() {
            return Ok(None);
        }
        let (n, count, len) = (pats.n, pats.count(), self.fixed.len());
        let per_tile = n * n * words(count) * 8;
        meter.keep(
            Live::bytes(len, self.grid.gw * self.grid.gh) + per_tile * (1 + opts.counts.len()),
        )?;
        meter.upfront(len as u64 / 2 + (count * n * n * (1 + opts.counts.len())) as u64)?;
        let counts = opts
            .counts
            .iter()
            .map(|&(tile, min, max)| {
                let mut at = vec![Bits::new(count); n * n];
                for p in 0..count {
                    for j in 0..n {
                        for i in 0..n {
                            if pats.tile(p, i, j) == tile {
                                at[j * n + i].set(p);
                            }
                        }
                    }
                }
                (min, max, at)
            })
            .collect();
        let mut walk_at = vec![Bits::new(count); n * n];
        for p in 0..count {
            for j in 0..n {
                for i in 0..n {
                    if self.walkable[pats.tile(p, i, j).index()] {
                        walk_at[j * n + i].set(p);
                    }
                }
            }
        }
        let source = (0..len)
            .map(|c| match self.kinds[c] {
                Cell::Fixed => Source::Fixed(self.walkable[self.fixed[c].index()]),
                _ => {
                    let (pos, i, j) = self.window_of(c % self.width, c / self.width, n);
                    Source::Window {
                        pos: pos as u32,
                        slot: (j * n + i) as u32,
                    }
                }
            })
            .collect();
        let region: Vec<bool> = self.kinds.iter().map(|&k| k != Cell::Fixed).collect();
        let path = opts.path.map(|[(ax, ay), (bx, by)]| {
            (
                ay as usize * self.width + ax as usize,
                by as usize * self.width + bx as usize,
            )
        });
        Ok(Some(Live::new(
            self.width,
            source,
            &region,
            walk_at,
            words(count),
            opts.connected,
            path,
            counts,
            self.grid.gw * self.grid.gh,
        )))
    }

    /// The reason when, before any choice, the walkable cells can already
    /// never be joined.
    fn never_joined(&self, opts: &WfcOptions) -> String {
        match opts.path {
            Some([(ax, ay), (bx, by)]) => format!(
                "no route of walkable cells can join ({ax}, {ay}) and ({bx}, {by}), or the region's walkable cells, with the sample's patterns and the cells kept around the region"
            ),
            None => "the region's walkable cells can never form one piece with the sample's patterns and the cells kept around the region".into(),
        }
    }

    /// The solved tiles of the region, into `cells` (a copy of the map's).
    fn write(&self, solver: &Solver<'_>, pats: &Patterns, cells: &mut [Tile]) {
        let n = pats.n;
        let (x1, y1, x2, y2) = self.bbox;
        for y in y1..=y2 {
            for x in x1..=x2 {
                let i = y * self.width + x;
                if self.kinds[i] == Cell::Fixed {
                    continue;
                }
                let (pos, u, v) = self.window_of(x, y, n);
                cells[i] = pats.tile(solver.pattern(pos), u, v);
            }
        }
    }

    /// The first global constraint the filled `cells` miss, as the end of
    /// a sentence that starts with a number of attempts. The passes over
    /// the map (the region's marks, each count) are charged before they
    /// are made, and each search charges every cell it visits as it visits
    /// it (the path's search may cross the whole map).
    fn unmet(
        &self,
        cells: &[Tile],
        map: &Map,
        opts: &WfcOptions,
        meter: &mut Meter<'_>,
    ) -> Result<Option<String>, Stopped> {
        let len = cells.len() as u64;
        meter.upfront(len / 8 + len.saturating_mul(opts.counts.len() as u64) / 2 + 1)?;
        let region: Vec<bool> = self.kinds.iter().map(|&k| k != Cell::Fixed).collect();
        if let Some([(ax, ay), (bx, by)]) = opts.path {
            let (a, b) = (
                ay as usize * self.width + ax as usize,
                by as usize * self.width + bx as usize,
            );
            if !global::joined(cells, self.width, a, b, &self.walkable, meter)? {
                return Ok(Some(format!(
                    "found no walkable route from ({ax}, {ay}) to ({bx}, {by})"
                )));
            }
        }
        if opts.connected
            && !global::connected(cells, self.width, &region, &self.walkable, self.bbox, meter)?
        {
            return Ok(Some(
                "left the region's walkable cells in more than one piece".into(),
            ));
        }
        for &(tile, min, max) in &opts.counts {
            let had = cells
                .iter()
                .zip(&region)
                .filter(|&(&t, &r)| r && t == tile)
                .count() as u64;
            if had < min || had > max {
                return Ok(Some(format!(
                    "had a count of '{}' outside {min}..{max}",
                    map.tiles().kind(tile).name
                )));
            }
        }
        Ok(None)
    }

    /// Writes the region's cells of `cells` to the map.
    fn commit(&self, map: &mut Map, cells: &[Tile]) {
        let (x1, y1, x2, y2) = self.bbox;
        let out = map.cells_to_write(x1 as i32, y1 as i32, x2 as i32, y2 as i32);
        for y in y1..=y2 {
            for x in x1..=x2 {
                let i = y * self.width + x;
                if self.kinds[i] != Cell::Fixed {
                    out[i] = cells[i];
                }
            }
        }
    }
}

/// Which window positions (top-lefts `(ox + px, oy + py)`, `gw` × `gh`)
/// cover at least one cell whose kind passes `keep`: by a summed-area
/// table, linear in the cells.
#[allow(clippy::too_many_arguments)]
fn windows_touching(
    kinds: &[Cell],
    width: usize,
    ox: usize,
    oy: usize,
    gw: usize,
    gh: usize,
    n: usize,
    keep: impl Fn(Cell) -> bool,
) -> Vec<bool> {
    let (sw, sh) = (gw + n - 1, gh + n - 1);
    let mut sum = vec![0u32; (sw + 1) * (sh + 1)];
    for y in 0..sh {
        for x in 0..sw {
            let hit = keep(kinds[(oy + y) * width + ox + x]) as u32;
            sum[(y + 1) * (sw + 1) + x + 1] =
                hit + sum[y * (sw + 1) + x + 1] + sum[(y + 1) * (sw + 1) + x]
                    - sum[y * (sw + 1) + x];
        }
    }
    let at = |x: usize, y: usize| sum[y * (sw + 1) + x];
    (0..gw * gh)
        .map(|pos| {
            let (x, y) = (pos % gw, pos / gw);
            at(x + n, y + n) + at(x, y) - at(x + n, y) - at(x, y + n) > 0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` x `h` map (`h` odd) of floor rows joined into one corridor
    /// by a gap at alternate ends of the wall rows between them: the only
    /// route from the top-left to the end of the bottom row visits every
    /// floor cell. Returns the map and its floor cells.
    fn serpentine(w: usize, h: usize) -> (Map, u64) {
        let mut map = Map::new(w as i64, h as i64).unwrap();
        let mut floors = 0;
        for y in 0..h {
            for x in 0..w {
                let open = y % 2 == 0 || (y % 4 == 1 && x == w - 1) || (y % 4 == 3 && x == 0);
                let tile = if open { Tile::FLOOR } else { Tile::WALL };
                map.set(x as i64, y as i64, tile).unwrap();
                floors += open as u64;
            }
        }
        (map, floors)
    }

    /// The units `unmet` charges for the map's own cells as a filled
    /// region (the 4 x 1 cells at its top-left, or the whole map).
    fn unmet_units(map: &Map, whole: bool, opts: &WfcOptions) -> (Option<String>, u64) {
        let (w, h) = (map.width(), map.height());
        let cells: Vec<u32> = if whole {
            (0..(w * h) as u32).collect()
        } else {
            (0..4).collect()
        };
        let region = Selection::from_indices(w, h, cells);
        let sample = Sample {
            width: 2,
            height: 2,
            cells: vec![Tile::FLOOR; 4],
        };
        let pats = patterns::learn(&sample, 1, 1, MAX_PATTERNS).unwrap();
        let mut walkable = [false; 256];
        for (tile, kind) in map.tiles().iter() {
            walkable[tile.index()] = kind.walkable;
        }
        let mut free = |_| Ok(());
        let setup = Setup::new(
            map,
            &region,
            &pats,
            opts,
            &walkable,
            &mut Meter::new(&mut free),
        )
        .unwrap()
        .unwrap();
        let mut units = 0;
        let mut count = |c: Charge| {
            if let Charge::Work(u) = c {
                units += u;
            }
            Ok(())
        };
        let mut meter = Meter::new(&mut count);
        let why = setup.unmet(map.cells(), map, opts, &mut meter).unwrap();
        meter.flush().unwrap();
        drop(meter);
        (why, units)
    }

    #[test]
    fn the_final_checks_are_charged_for_every_cell_they_search() {
        for (w, h) in [(60, 41), (300, 201)] {
            let (map, floors) = serpentine(w, h);
            let len = (w * h) as u64;
            // The path's ends are the corridor's: its search visits every
            // floor cell, at 2 units each, besides a pass of an eighth.
            let end = if h % 4 == 1 {
                (w as i32 - 1, h as i32 - 1)
            } else {
                (0, h as i32 - 1)
            };
            let opts = WfcOptions {
                path: Some([(0, 0), end]),
                ..WfcOptions::default()
            };
            let (why, units) = unmet_units(&map, false, &opts);
            assert_eq!(why, None);
            assert!(
                (2 * floors..=2 * floors + len / 8 + 1).contains(&units),
                "{w}x{h}: the path's search charged {units} units for {floors} cells visited"
            );
            // The whole map as the region: the connected search visits
            // every floor cell (3 units each) and looks along the box.
            let opts = WfcOptions {
                connected: true,
                ..WfcOptions::default()
            };
            let (why, units) = unmet_units(&map, true, &opts);
            assert_eq!(why, None);
            assert!(
                (3 * floors + len..=3 * floors + len + len / 8 + 2).contains(&units),
                "{w}x{h}: the connected search charged {units} units for {floors} cells visited"
            );
        }
    }
}
