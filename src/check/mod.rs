//! `dunlua check`: a script over thousands of seeds, in parallel, with the
//! failures grouped by kind and the distribution of what the maps look
//! like. Every seed is generated in its own fresh Lua VM on a worker
//! thread; results are gathered in seed order, so the report is the same
//! whatever the number of threads (only the timings vary). `--html`
//! writes the report with pictures ([`html`]).

pub mod catalog;
mod completion;
pub mod html;
mod proof_picture;
pub mod shard;
pub mod variety;
mod variety_html;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::export::{self, Options};
use crate::generated::{dungeon_hash, Generated};
use crate::map::{Map, Tile};
use crate::ops::{dijkstra, regions, unreachable_walkable};
use crate::script::{FailureKind, Request, ScriptError, Session, Stairs};

/// What `check` should do.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The script and its parameters; the seed is replaced for each run.
    pub request: Request,
    pub seeds: Range<u64>,
    pub jobs: usize,
    /// Where to write the PNG and JSON (or the error) of each failing seed.
    pub save_failures: Option<PathBuf>,
    pub export: Options,
    /// Show a progress bar (only on a terminal).
    pub progress: bool,
    /// Where to write the report as one self-contained HTML page.
    pub html: Option<PathBuf>,
    /// How varied the maps are ([`variety`]); `None` skips the pass.
    pub variety: Option<variety::Settings>,
    /// Measure each seed for the seed catalog ([`catalog`]).
    pub catalog: bool,
}

/// Why a seed failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    ScriptError,
    Rejected,
    StartNotWalkable,
    Unreachable,
    /// A script that says `stairs = "aligned"` made levels whose stairs
    /// do not line up.
    StairsMisaligned,
    /// The run passed `--timeout` (only what the budget cannot catch).
    TimedOut,
    /// The declared goal cannot be reached from the start (see
    /// [`crate::proof`]).
    Unfinishable,
    /// The goal can be reached, but some move strands the player.
    Softlock,
    /// The proof met too many states to decide.
    Unproved,
}

impl Problem {
    pub fn describe(self) -> &'static str {
        match self {
            Problem::ScriptError => "script error",
            Problem::Rejected => "rejected after all attempts",
            Problem::StartNotWalkable => "start not walkable",
            Problem::Unreachable => "walkable cells unreachable from the start",
            Problem::StairsMisaligned => "stairs do not line up between levels",
            Problem::TimedOut => "timed out",
            Problem::Unfinishable => "cannot be finished",
            Problem::Softlock => "softlock: a move strands the player",
            Problem::Unproved => "too many states to prove",
        }
    }
}

/// What one good map measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Which attempt the script accepted, from 1 (rerolls plus one).
    pub attempts: f64,
    pub rooms: f64,
    pub floor_ratio: f64,
    pub regions: f64,
    pub longest_path: f64,
    pub dead_ends: f64,
}

/// A metric's name and how to read it off [`Metrics`].
pub type Column = (&'static str, fn(&Metrics) -> f64);

/// Every metric, as the reports name them.
pub const COLUMNS: [Column; 6] = [
    ("attempts", |m| m.attempts),
    ("rooms", |m| m.rooms),
    ("floor_ratio", |m| m.floor_ratio),
    ("regions", |m| m.regions),
    ("longest_path", |m| m.longest_path),
    ("dead_ends", |m| m.dead_ends),
];

/// One seed's outcome.
pub(crate) struct SeedResult {
    pub(crate) seed: u64,
    /// The dungeon's hash ([`dungeon_hash`]: the map's for one level),
    /// when the seed made one (even one that failed a check).
    hash: Option<u64>,
    /// Each level's metrics, in order.
    pub(crate) outcome: Result<Vec<Metrics>, (Problem, String)>,
    time_ms: f64,
    /// Kept only for failures that have maps, when they are to be saved or
    /// pictured (a seed rejected on every attempt: its last rejected map).
    pub(crate) maps: Option<Vec<Generated>>,
    /// Whether the failure had a map to keep (so a merge of shards, which
    /// keep none, knows which seeds to make again for their pictures).
    has_map: bool,
    /// The modules the run loaded (a shard records their hashes).
    modules: Vec<PathBuf>,
    /// Time spent proving completion, for a script that declares a puzzle.
    pub(crate) proof_ms: Option<f64>,
    /// A failed proof's verdict (its cells and path), kept with the maps.
    pub(crate) verdict: Option<crate::proof::Verdict>,
    /// The map's variety sketch, when the pass runs and the seed made one.
    sketch: Option<Box<variety::Sketch>>,
    /// What the seed catalog says of each level, when it is asked for.
    facts: Option<Vec<catalog::LevelFacts>>,
    /// Why the script rejected attempts of this seed (every level's, as
    /// the run kept them), whether the seed passed in the end or not.
    pub(crate) rejections: Vec<String>,
}

/// min, median, 95th percentile and max (nearest rank).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub p95: f64,
    pub max: f64,
}

impl Spread {
    fn of(mut values: Vec<f64>) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let rank = |q: f64| values[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
        Some(Spread {
            min: values[0],
            median: values[(n - 1) / 2],
            p95: rank(0.95),
            max: values[n - 1],
        })
    }
}

/// The seeds of one kind of failure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FailureGroup {
    pub kind: Problem,
    pub seeds: Vec<u64>,
    /// The first failing seed's message, as an example.
    pub example: String,
}

/// How often scripts rejected an attempt for one reason (a `reject(why)`,
/// e.g. a graph layout's or a constraint fill's reason for failing), over
/// every attempt of every seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RejectionCount {
    pub reason: String,
    /// Attempts rejected for it.
    pub attempts: u64,
    /// Seeds with at least one such attempt.
    pub seeds: u64,
}

/// Counts rejection reasons over the seeds, most frequent first (ties in
/// the reason's order), so `check` names what fails most.
fn count_rejections(results: &[SeedResult]) -> Vec<RejectionCount> {
    let mut counts: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for r in results {
        let mut seen: Vec<&str> = Vec::new();
        for why in &r.rejections {
            let entry = counts.entry(why.as_str()).or_default();
            entry.0 += 1;
            if !seen.contains(&why.as_str()) {
                seen.push(why);
                entry.1 += 1;
            }
        }
    }
    let mut out: Vec<RejectionCount> = counts
        .into_iter()
        .map(|(reason, (attempts, seeds))| RejectionCount {
            reason: reason.to_string(),
            attempts,
            seeds,
        })
        .collect();
    out.sort_by(|a, b| b.attempts.cmp(&a.attempts).then(a.reason.cmp(&b.reason)));
    out
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub script: String,
    pub seeds: [u64; 2],
    pub total: u64,
    pub ok: u64,
    pub failed: u64,
    pub failures: Vec<FailureGroup>,
    /// The reasons attempts were rejected for, counted (empty when the
    /// script never rejects).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rejections: Vec<RejectionCount>,
    /// Metric name -> spread over the maps that passed (every level's).
    pub metrics: BTreeMap<&'static str, Spread>,
    /// For a multi-level script, the same per level (level 1 first);
    /// empty for one level.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<BTreeMap<&'static str, Spread>>,
    /// Generation time in milliseconds of the maps that passed; the one
    /// part that varies run to run.
    pub time_ms: Option<Spread>,
    /// Time spent proving completion, in milliseconds, of the maps that
    /// passed, for a script that declares a puzzle (varies run to run; no
    /// part of the digest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_ms: Option<Spread>,
    /// [`crate::map::digest`] of every seed that made a map with its hash,
    /// in seed order, as 16 hex digits: the same maps give the same digest
    /// on every machine, whatever `--jobs`.
    pub digest: String,
    /// How many maps the digest covers.
    pub maps: u64,
    /// How varied the maps are, unless the pass was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variety: Option<variety::Variety>,
    /// Each seed's catalog line, in seed order, when `--catalog` or
    /// `--against` asked for them.
    #[serde(skip)]
    pub catalog: Option<catalog::Lines>,
}

/// Cells walkable with exactly one walkable 4-neighbour (the cells of
/// `map:dead_ends()`).
pub fn dead_ends(map: &Map) -> usize {
    crate::ops::Selection::dead_ends(map).count()
}

fn measure(g: &Generated) -> Result<Metrics, (Problem, String)> {
    let map = &g.map;
    // A declared puzzle's proof decides what the player can reach (through
    // locks, down drops); walking from the start is not the whole story.
    let unreachable = match g.puzzle {
        Some(_) => Vec::new(),
        None => unreachable_walkable(map),
    };
    if let Some(&(x, y)) = unreachable.first() {
        return Err((
            Problem::Unreachable,
            format!(
                "{} walkable cells unreachable from the start, e.g. ({x}, {y})",
                unreachable.len()
            ),
        ));
    }
    let walkable = map
        .cells()
        .iter()
        .filter(|&&t| map.tiles().kind(t).walkable)
        .count();
    let (sx, sy) = map.start().unwrap_or((0, 0));
    let longest = dijkstra(map, &[(sx as i64, sy as i64)])
        .ok()
        .and_then(|d| d.max())
        .unwrap_or(0);
    Ok(Metrics {
        attempts: g.provenance.attempt as f64 + 1.0,
        rooms: map.rooms().len() as f64,
        floor_ratio: walkable as f64 / map.cells().len() as f64,
        regions: regions(map).len() as f64,
        longest_path: longest as f64,
        dead_ends: dead_ends(map) as f64,
    })
}

/// Where level `k`'s `stairs_down` cells and level `k+1`'s `stairs_up`
/// cells differ, for a script that promised `stairs = "aligned"`: every
/// level but the last needs stairs down, each exactly over stairs up.
pub fn stairs_mismatch(levels: &[Generated]) -> Option<String> {
    let cells = |map: &Map, tile: Tile| -> Vec<(i32, i32)> {
        let w = map.width() as usize;
        map.cells()
            .iter()
            .enumerate()
            .filter(|(_, &t)| t == tile)
            .map(|(i, _)| ((i % w) as i32, (i / w) as i32))
            .collect()
    };
    for pair in levels.windows(2) {
        let (above, below) = (&pair[0], &pair[1]);
        let k = above.provenance.level;
        let down = cells(&above.map, Tile::STAIRS_DOWN);
        let up = cells(&below.map, Tile::STAIRS_UP);
        if down.is_empty() {
            return Some(format!("level {k} has no stairs_down to level {}", k + 1));
        }
        if let Some((x, y)) = down.iter().find(|c| !up.contains(c)) {
            return Some(format!(
                "level {k}'s stairs_down at ({x}, {y}) has no stairs_up under it on level {}",
                k + 1
            ));
        }
        if let Some((x, y)) = up.iter().find(|c| !down.contains(c)) {
            return Some(format!(
                "level {}'s stairs_up at ({x}, {y}) has no stairs_down over it on level {k}",
                k + 1
            ));
        }
    }
    None
}

/// Every level measured, the first failing one named; then the stairs.
fn measure_levels(levels: &[Generated], stairs: Stairs) -> Result<Vec<Metrics>, (Problem, String)> {
    let mut all = Vec::with_capacity(levels.len());
    for g in levels {
        let metrics = measure(g).map_err(|(problem, why)| match g.is_level() {
            true => (problem, format!("{why} (on level {})", g.provenance.level)),
            false => (problem, why),
        })?;
        all.push(metrics);
    }
    if stairs == Stairs::Aligned {
        if let Some(why) = stairs_mismatch(levels) {
            return Err((Problem::StairsMisaligned, why));
        }
    }
    Ok(all)
}

fn run_seed(
    options: &CheckOptions,
    session: &Result<Session, ScriptError>,
    stairs: Stairs,
    seed: u64,
    heat: &variety::HeatCollector,
) -> SeedResult {
    let started = Instant::now();
    let result = match session {
        Ok(session) => session.run_levels(seed),
        Err(e) => Err(e.clone()),
    };
    let time_ms = started.elapsed().as_secs_f64() * 1000.0;
    match result {
        Ok(levels) => {
            let mut outcome = measure_levels(&levels, stairs);
            let stop = crate::proof::Stop {
                deadline: options
                    .request
                    .limits
                    .timeout
                    .and_then(|t| started.checked_add(t)),
                cancel: options.request.cancel.clone(),
            };
            let proved = completion::prove_seed(&levels, &stop);
            let proof_ms = proved.as_ref().map(|p| p.ms);
            let mut verdict = None;
            if let (Ok(_), Some(proved)) = (&outcome, proved) {
                if let Some(problem) = proved.problem {
                    outcome = Err(problem);
                    verdict = proved.verdict;
                }
            }
            let keep =
                outcome.is_err() && (options.save_failures.is_some() || options.html.is_some());
            let sketch = options.variety.map(|_| {
                heat.count(&levels);
                Box::new(variety::sketch(&levels))
            });
            let facts = options.catalog.then(|| catalog::facts(&levels));
            let mut modules: Vec<PathBuf> = Vec::new();
            for path in levels.iter().flat_map(|g| &g.modules) {
                if !modules.contains(path) {
                    modules.push(path.clone());
                }
            }
            let rejections = levels
                .iter()
                .flat_map(|g| g.rejections.iter().map(|(_, why)| why.clone()))
                .collect();
            SeedResult {
                seed,
                rejections,
                hash: Some(dungeon_hash(&levels)),
                has_map: outcome.is_err(),
                outcome,
                time_ms,
                maps: keep.then_some(levels),
                modules,
                proof_ms,
                verdict: verdict.filter(|_| keep),
                sketch,
                facts,
            }
        }
        Err(e) => {
            let problem = match e.kind {
                FailureKind::Rejected => Problem::Rejected,
                FailureKind::BadStart => Problem::StartNotWalkable,
                FailureKind::TimedOut => Problem::TimedOut,
                _ => Problem::ScriptError,
            };
            // What the script turned down last, to look at.
            let rejected = session
                .as_ref()
                .ok()
                .and_then(Session::take_rejected)
                .filter(|_| problem == Problem::Rejected)
                .map(|(level, map)| rejected_map(&options.request, seed, level, map));
            let keep = options.save_failures.is_some() || options.html.is_some();
            SeedResult {
                seed,
                rejections: e.rejections.iter().map(|(_, why)| why.clone()).collect(),
                hash: None,
                outcome: Err((problem, e.to_string())),
                time_ms,
                has_map: rejected.is_some(),
                maps: rejected.filter(|_| keep).map(|g| vec![g]),
                modules: Vec::new(),
                proof_ms: None,
                verdict: None,
                sketch: None,
                facts: None,
            }
        }
    }
}

/// Runs every seed and builds the report (and saves failures if asked).
pub fn check(options: &CheckOptions) -> anyhow::Result<Report> {
    let (results, heats) = run_seeds(options, options.seeds.clone(), false)?;
    finish(options, &results, heats)
}

/// The request every seed runs with: no replay, and the rejected maps
/// kept when failures are to be saved or pictured (or, for a shard, to
/// learn which failures have a map).
fn seed_request(options: &CheckOptions, keep_rejected: bool) -> Request {
    let mut request = options.request.clone();
    request.record = false;
    request.keep_rejected =
        keep_rejected || options.save_failures.is_some() || options.html.is_some();
    request
}

/// Runs `seeds` on `options.jobs` threads; the results in seed order,
/// and the walkable heat maps of every map size.
fn run_seeds(
    options: &CheckOptions,
    seeds: Range<u64>,
    keep_rejected: bool,
) -> anyhow::Result<(Vec<SeedResult>, Vec<variety::Heat>)> {
    let seeds: Vec<u64> = seeds.collect();
    let bar = options.progress.then(|| {
        let bar = indicatif::ProgressBar::new(seeds.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} seeds {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let request = seed_request(options, keep_rejected);
    // What the script promises about stairs, read once (a script that
    // cannot load fails every seed below anyway).
    let stairs = crate::script::inspect(&load_request(&request))
        .map(|info| info.stairs)
        .unwrap_or_default();
    let heat = variety::HeatCollector::default();
    let results = in_parallel(
        options.jobs,
        &seeds,
        || Session::new(&request),
        |session, &seed| {
            let r = run_seed(options, session, stairs, seed, &heat);
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            r
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok((results, heat.into_heats()))
}

/// How many worker threads `--jobs N` runs over `items` seeds: never more
/// than the seeds, nor than the cores (the work is all on the CPU: more
/// threads than cores make no map sooner, and each makes a Lua VM of its
/// own), and at least one.
pub fn workers(jobs: usize, items: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    jobs.min(cores).min(items).max(1)
}

/// `work` over `items` on [`workers`] threads, the results in the items'
/// order. Each thread takes the next item as it is free (so a slow seed
/// holds up no other) and makes its state with `init` (a Lua VM) once, on
/// its first item: a thread never keeps a VM it does not use, and no
/// thread makes two.
pub(crate) fn in_parallel<I: Sync, S, T: Send>(
    jobs: usize,
    items: &[I],
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &I) -> T + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let threads = workers(jobs, items.len());
    let parts: Vec<Vec<(usize, T)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut state: Option<S> = None;
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            break;
                        };
                        let state = state.get_or_insert_with(&init);
                        done.push((i, work(state, item)));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (i, t) in parts.into_iter().flatten() {
        slots[i] = Some(t);
    }
    slots
        .into_iter()
        .map(|t| t.unwrap_or_else(|| unreachable!("every item is taken once")))
        .collect()
}

/// The request that loads the script to read what it declares (its
/// parameters, stairs, levels) before the seeds run: loading it is no
/// seed's run, so a `--timeout` shorter than the load (each seed's own
/// deadline) does not stop the check; the instruction and memory budgets
/// still bound it, and a deadline at least the default one stays.
pub fn load_request(request: &Request) -> Request {
    let mut request = request.clone();
    let floor = std::time::Duration::from_secs(crate::script::Limits::DEFAULT_TIMEOUT_SECS);
    request.limits.timeout = request.limits.timeout.map(|t| t.max(floor));
    request
}

/// Saves the failures if asked, builds the report (with the variety pass,
/// which makes candidate maps again) and writes the page.
fn finish(
    options: &CheckOptions,
    results: &[SeedResult],
    heats: Vec<variety::Heat>,
) -> anyhow::Result<Report> {
    if let Some(dir) = &options.save_failures {
        save_failures(dir, &options.request, results, &options.export)?;
    }
    let mut report = report(options, results);
    if let Some(settings) = options.variety {
        report.variety = Some(variety_of(options, settings, results, heats)?);
    }
    if options.catalog {
        let mut read: Vec<PathBuf> = vec![options.request.script.clone()];
        for path in results.iter().flat_map(|r| &r.modules) {
            if !read.contains(path) {
                read.push(path.clone());
            }
        }
        report.catalog = Some(catalog::Lines {
            lines: results.iter().map(catalog_line).collect(),
            read,
        });
    }
    if let Some(path) = &options.html {
        html::write(path, options, &report, results)?;
    }
    Ok(report)
}

/// A rejected map, dressed as a generated one to be saved or pictured;
/// a level below the first keeps its number (`levels` is at least that
/// many, so it is saved and shown as that level).
fn rejected_map(request: &Request, seed: u64, level: u32, map: Map) -> Generated {
    Generated {
        map,
        provenance: crate::generated::Provenance {
            script: request.script.display().to_string(),
            name: String::new(),
            seed,
            attempt: request.max_attempts.saturating_sub(1),
            params: Default::default(),
            level,
            levels: level,
        },
        modules: Vec::new(),
        replay: None,
        rejections: Vec::new(),
        work: 0,
        native_work: 0,
        puzzle: None,
    }
}

fn report(options: &CheckOptions, results: &[SeedResult]) -> Report {
    let mut groups: BTreeMap<Problem, FailureGroup> = BTreeMap::new();
    let mut good: Vec<Metrics> = Vec::new();
    let mut per_level: Vec<Vec<Metrics>> = Vec::new();
    let mut ok = 0;
    for r in results {
        match &r.outcome {
            Ok(levels) => {
                ok += 1;
                good.extend(levels);
                if levels.len() > 1 {
                    per_level.resize(per_level.len().max(levels.len()), Vec::new());
                    for (k, m) in levels.iter().enumerate() {
                        per_level[k].push(*m);
                    }
                }
            }
            Err((kind, message)) => {
                groups
                    .entry(*kind)
                    .or_insert_with(|| FailureGroup {
                        kind: *kind,
                        seeds: Vec::new(),
                        example: message.lines().next().unwrap_or("").to_string(),
                    })
                    .seeds
                    .push(r.seed);
            }
        }
    }
    let mut metrics = BTreeMap::new();
    let columns = COLUMNS;
    let spreads = |maps: &[Metrics]| {
        let mut metrics = BTreeMap::new();
        for (name, get) in columns {
            if let Some(spread) = Spread::of(maps.iter().map(get).collect()) {
                metrics.insert(name, spread);
            }
        }
        metrics
    };
    metrics.extend(spreads(&good));
    let levels = per_level.iter().map(|maps| spreads(maps)).collect();
    let failed = results.len() - ok;
    let passed = || results.iter().filter(|r| r.outcome.is_ok());
    Report {
        script: options.request.script.display().to_string(),
        seeds: [options.seeds.start, options.seeds.end],
        total: results.len() as u64,
        ok: ok as u64,
        failed: failed as u64,
        failures: groups.into_values().collect(),
        rejections: count_rejections(results),
        metrics,
        levels,
        // Over the maps that passed, as the table says (a failed seed's
        // time, a timeout's or a refused proof's, is no map's).
        time_ms: Spread::of(passed().map(|r| r.time_ms).collect()),
        proof_ms: Spread::of(passed().filter_map(|r| r.proof_ms).collect()),
        digest: format!(
            "{:016x}",
            crate::map::digest(results.iter().filter_map(|r| Some((r.seed, r.hash?))))
        ),
        maps: results.iter().filter(|r| r.hash.is_some()).count() as u64,
        variety: None,
        catalog: None,
    }
}

/// The variety pass over the results: candidates from the sketches,
/// verified by making their maps again.
fn variety_of(
    options: &CheckOptions,
    settings: variety::Settings,
    results: &[SeedResult],
    heats: Vec<variety::Heat>,
) -> anyhow::Result<variety::Variety> {
    let views = seed_views(results);
    let found = variety::candidates(&views, settings.near);
    let bytes_per_map = heats
        .iter()
        .map(|h| h.walkable.len())
        .max()
        .unwrap_or(1)
        .saturating_mul(
            crate::script::inspect(&load_request(&options.request))
                .map_or(1, |info| info.levels.max(1)) as usize,
        );
    let pairs = if found.pairs.is_empty() {
        Vec::new()
    } else {
        let request = seed_request(options, false);
        variety::verify(&found.pairs, settings.near, bytes_per_map, |seeds| {
            in_parallel(
                options.jobs,
                seeds,
                || Session::new(&request),
                |session, &seed| {
                    let levels = session.as_ref().ok()?.run_levels(seed).ok()?;
                    Some((seed, variety::Tiles::of(&levels)))
                },
            )
            .into_iter()
            .flatten()
            .collect()
        })
    };
    Ok(variety::summarise(settings, &views, found, pairs, heats))
}

/// What the variety pass reads of each seed.
pub(crate) fn seed_views(results: &[SeedResult]) -> Vec<variety::SeedView<'_>> {
    results
        .iter()
        .map(|r| variety::SeedView {
            seed: r.seed,
            hash: r.hash,
            sketch: r.sketch.as_deref(),
            rooms: r
                .outcome
                .as_ref()
                .ok()
                .and_then(|l| l.first())
                .map(|m| m.rooms),
        })
        .collect()
}

/// A seed's catalog line; the verdict is `ok` or the failure kind's name.
fn catalog_line(r: &SeedResult) -> String {
    let verdict = match &r.outcome {
        Ok(_) => "ok".to_string(),
        Err((problem, _)) => serde_json::to_value(problem)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{problem:?}")),
    };
    catalog::line(r.seed, r.hash, r.facts.as_deref(), &verdict)
}

fn save_failures(
    dir: &std::path::Path,
    request: &Request,
    results: &[SeedResult],
    options: &Options,
) -> anyhow::Result<()> {
    use anyhow::Context;
    // A check where nothing failed leaves no empty folder behind.
    if results.iter().all(|r| r.outcome.is_ok()) {
        return Ok(());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let stem = request
        .script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    for r in results {
        let Err((_, message)) = &r.outcome else {
            continue;
        };
        let base = dir.join(format!("{stem}-{}", r.seed));
        match &r.maps {
            Some(levels) => {
                let paths = [base.with_extension("png"), base.with_extension("json")];
                export::write_levels(&paths, levels, options)?;
                // A proof's sentence is what the picture cannot say.
                if r.verdict.is_some() {
                    export::write_atomically(
                        &base.with_extension("txt"),
                        format!("{message}\n").as_bytes(),
                    )?;
                }
            }
            None => export::write_atomically(
                &base.with_extension("txt"),
                format!("{message}\n").as_bytes(),
            )?,
        }
    }
    Ok(())
}

impl Report {
    /// The report as `--json` prints it.
    pub fn json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("a report always serialises: {e}"));
        text.push('\n');
        text
    }

    /// The report as text for a terminal.
    pub fn text(&self) -> String {
        let mut out = format!(
            "check {}: seeds {}..{} ({}): {} ok, {} failed\n",
            self.script, self.seeds[0], self.seeds[1], self.total, self.ok, self.failed
        );
        out.push_str(&format!(
            "maps digest {} over {} maps (the same maps give the same digest on every machine)\n",
            self.digest, self.maps
        ));
        if !self.failures.is_empty() {
            out.push_str("failures:\n");
            for g in &self.failures {
                let seeds: Vec<String> = g.seeds.iter().take(20).map(|s| s.to_string()).collect();
                let more = if g.seeds.len() > 20 {
                    format!(" and {} more", g.seeds.len() - 20)
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "  {} ({}): seeds {}{more}\n    e.g. {}\n",
                    g.kind.describe(),
                    g.seeds.len(),
                    seeds.join(" "),
                    g.example
                ));
            }
        }
        if !self.rejections.is_empty() {
            out.push_str("rejected attempts by reason:\n");
            for r in self.rejections.iter().take(10) {
                out.push_str(&format!(
                    "  {} attempts in {} seeds: {}\n",
                    r.attempts, r.seeds, r.reason
                ));
            }
            if self.rejections.len() > 10 {
                out.push_str(&format!(
                    "  and {} other reasons\n",
                    self.rejections.len() - 10
                ));
            }
        }
        if self.ok == 0 && self.failed > 0 {
            // A table "over ok maps" would measure none (its time rows
            // would be the failed seeds').
            out.push_str("no ok maps to measure\n");
        } else if !self.metrics.is_empty() || self.time_ms.is_some() {
            out.push_str(&format!(
                "{:<14}{:>10}{:>10}{:>10}{:>10}\n",
                "over ok maps", "min", "median", "p95", "max"
            ));
            let row = |name: &str, s: &Spread, digits: usize| {
                format!(
                    "{:<14}{:>10.d$}{:>10.d$}{:>10.d$}{:>10.d$}\n",
                    name,
                    s.min,
                    s.median,
                    s.p95,
                    s.max,
                    d = digits
                )
            };
            for (name, spread) in &self.metrics {
                out.push_str(&row(
                    name,
                    spread,
                    if *name == "floor_ratio" { 3 } else { 0 },
                ));
            }
            if let Some(t) = &self.time_ms {
                out.push_str(&row("time_ms", t, 2));
            }
            if let Some(t) = &self.proof_ms {
                out.push_str(&row("proof_ms", t, 3));
            }
            for (k, metrics) in self.levels.iter().enumerate() {
                out.push_str(&format!("level {}\n", k + 1));
                for (name, spread) in metrics {
                    out.push_str(&row(
                        &format!("  {name}"),
                        spread,
                        if *name == "floor_ratio" { 3 } else { 0 },
                    ));
                }
            }
        }
        // Over no map (every seed failed) there is no variety to show.
        if let Some(variety) = self.variety.as_ref().filter(|v| v.maps > 0) {
            out.push_str(&variety.text());
        }
        out
    }
}

/// Parses `A..B` (B excluded), `A..=B` (B included) or `N` (0..N).
pub fn parse_seeds(text: &str) -> Result<Range<u64>, String> {
    let bad = || format!("expected seeds as A..B, A..=B or N, got '{text}'");
    let number = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let range = if let Some((a, b)) = text.split_once("..=") {
        // Ranges are kept with their end excluded (in reports, catalogs and
        // shard files), so the very last seed cannot end one.
        let end = number(b)?.checked_add(1).ok_or_else(|| {
            format!(
                "the seed range '{text}' includes seed {}, the last one, which a range \
                 cannot end with: check up to {} and run that seed alone \
                 (dunlua SCRIPT --seed {})",
                u64::MAX,
                u64::MAX - 1,
                u64::MAX
            )
        })?;
        number(a)?..end
    } else if let Some((a, b)) = text.split_once("..") {
        number(a)?..number(b)?
    } else {
        0..number(text)?
    };
    if range.is_empty() {
        return Err(format!("the seed range '{text}' is empty"));
    }
    if range.end - range.start > 100_000_000 {
        return Err(format!(
            "the seed range '{text}' is too long: at most 100000000 seeds"
        ));
    }
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges() {
        assert_eq!(parse_seeds("0..200"), Ok(0..200));
        assert_eq!(parse_seeds("5..=9"), Ok(5..10));
        assert_eq!(parse_seeds("50"), Ok(0..50));
        assert!(parse_seeds("9..3").is_err());
        assert!(parse_seeds("a..b").is_err());
        assert!(parse_seeds("0..1000000000").is_err());
        assert_eq!(
            parse_seeds("18446744073709551610..=18446744073709551614"),
            Ok(u64::MAX - 5..u64::MAX)
        );
        let last = parse_seeds("18446744073709551614..=18446744073709551615").unwrap_err();
        assert!(
            last.contains("includes seed 18446744073709551615, the last one")
                && last.contains("--seed 18446744073709551615"),
            "{last}"
        );
    }

    #[test]
    fn workers_are_never_more_than_the_items_nor_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(workers(1024, 3), 3.min(cores));
        assert_eq!(workers(1024, 100_000), cores);
        assert_eq!(workers(1, 100), 1);
        assert_eq!(workers(0, 0), 1);
        // Every item once, in order, whatever the threads; each thread
        // makes its state once, and only if it takes an item.
        let made = std::sync::atomic::AtomicUsize::new(0);
        let items: Vec<u64> = (0..1000).collect();
        for jobs in [1, 2, 7, 1024] {
            made.store(0, std::sync::atomic::Ordering::Relaxed);
            let out = in_parallel(
                jobs,
                &items,
                || made.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                |_, &i| i * 2,
            );
            assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
            assert!(made.load(std::sync::atomic::Ordering::Relaxed) <= workers(jobs, 1000));
        }
        assert!(in_parallel(4, &[] as &[u64], || (), |_, &i| i).is_empty());
    }

    #[test]
    fn spreads_use_nearest_rank() {
        let s = Spread::of((1..=20).map(|v| v as f64).collect()).unwrap();
        assert_eq!((s.min, s.median, s.p95, s.max), (1.0, 10.0, 19.0, 20.0));
        assert_eq!(Spread::of(vec![]), None);
        let one = Spread::of(vec![3.0]).unwrap();
        assert_eq!(
            (one.min, one.median, one.p95, one.max),
            (3.0, 3.0, 3.0, 3.0)
        );
    }

    /// Level `level` of `levels`, drawn as text.
    fn level(text: &str, level: u32, levels: u32) -> Generated {
        Generated {
            map: Map::from_ascii(text).unwrap(),
            provenance: crate::generated::Provenance {
                script: "x.lua".into(),
                name: "X".into(),
                seed: 1,
                attempt: 0,
                params: Default::default(),
                level,
                levels,
            },
            modules: vec![],
            replay: None,
            rejections: vec![],
            work: 0,
            native_work: 0,
            puzzle: None,
        }
    }

    #[test]
    fn stairs_line_up_only_cell_for_cell() {
        let one = level("#####\n#@.>#\n#####\n", 1, 3);
        let two = level("#####\n#>.<#\n#####\n", 2, 3);
        let three = level("#####\n#<@.#\n#####\n", 3, 3);
        assert_eq!(
            stairs_mismatch(&[one.clone(), two.clone(), three.clone()]),
            None
        );
        let shifted = level("#####\n#.<@#\n#####\n", 3, 3);
        assert_eq!(
            stairs_mismatch(&[one.clone(), two.clone(), shifted]).as_deref(),
            Some("level 2's stairs_down at (1, 1) has no stairs_up under it on level 3")
        );
        let extra_up = level("#####\n#<<@#\n#####\n", 3, 3);
        assert_eq!(
            stairs_mismatch(&[one.clone(), two.clone(), extra_up]).as_deref(),
            Some("level 3's stairs_up at (2, 1) has no stairs_down over it on level 2")
        );
        let no_way_down = level("#####\n#..<#\n#####\n", 2, 3);
        assert_eq!(
            stairs_mismatch(&[one.clone(), no_way_down, three]).as_deref(),
            Some("level 2 has no stairs_down to level 3")
        );
        assert_eq!(
            stairs_mismatch(&[one]),
            None,
            "one level: nothing to line up"
        );
    }

    #[test]
    fn level_streams_are_the_seed_then_forks() {
        use crate::rng::{fnv1a64, Rng};
        use crate::script::level_seed;
        assert_eq!(level_seed(42, 1), 42);
        assert_eq!(level_seed(42, 2), 42 ^ fnv1a64("level-2"));
        assert_eq!(level_seed(42, 3), Rng::new(42).fork("level-3").seed());
        assert_ne!(level_seed(42, 2), level_seed(43, 2));
    }

    #[test]
    fn dead_ends_are_cells_with_one_way_out() {
        let map = Map::from_ascii("#######\n#@....#\n###.###\n#######\n").unwrap();
        assert_eq!(dead_ends(&map), 3);
    }
}
