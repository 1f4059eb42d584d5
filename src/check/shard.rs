//! `dunlua check --shard I/N --shard-out FILE`: one slice of the seed range,
//! its per-seed results written as a JSON file; `dunlua check --merge
//! FILES...`: the shards put back together into the report (text, JSON,
//! digest and `--html`) that one run over every seed gives. The shards
//! must fit: the same script source and modules, parameters, size, limits,
//! seed range and N, and every slice exactly once; anything else is
//! refused with one line naming the file and the mismatch.
//!
//! A slice is contiguous: shard I of N over `A..B` is
//! `A + (B-A)(I-1)/N .. A + (B-A)I/N`, so the shards in order are the
//! seeds in order and the merged report is built from the same per-seed
//! results, in the same order, as a single run's.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::variety::{self, Heat, HeatCollector, Sketch};
use super::{
    finish, html, run_seed, run_seeds, seed_request, CheckOptions, Metrics, Problem, Report,
    SeedResult, COLUMNS,
};
use crate::files;
use crate::script::{Limits, Request, Session};

/// What `format` says, so a stray JSON file is told apart from a shard.
pub const FORMAT: &str = "dunlua-check-shard";
/// The shard format's version; bumped on any incompatible change.
pub const VERSION: u32 = 2;
/// The engine's identity: a hash of the sources that make maps (`src/`
/// with the vendored Lua, `build.rs`, `Cargo.toml` and `Cargo.lock`),
/// made by `build.rs`: the same sources give the same identity on every
/// machine, and a change that could change a map changes it.
pub const ENGINE: &str = env!("DUNLUA_ENGINE");
/// The most shards a range is cut into.
pub const MAX_SHARDS: u64 = 100_000;
/// The largest shard file `--merge` reads (a million seeds is ~100 MB).
const SHARD_FILE: files::Kind = files::Kind {
    what: "a check shard",
    max_bytes: 4 << 30,
};

/// `--shard I/N`: slice `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `I/N` with `1 <= I <= N <= 100000`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 1 <= I <= N (shard 2 of 4 is 2/4), got '{text}'");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        if count > MAX_SHARDS {
            return Err(format!("at most {MAX_SHARDS} shards, got '{text}'"));
        }
        Ok(Shard { index, count })
    }

    /// This shard's seeds of `seeds`: contiguous, the shards in order
    /// covering the range once (a slice may be empty when N exceeds it).
    pub fn slice(self, seeds: &Range<u64>) -> Range<u64> {
        let len = (seeds.end - seeds.start) as u128;
        let at = |k: u64| seeds.start + (len * k as u128 / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A number that reads back bit for bit: whole numbers (all the metrics
/// but `floor_ratio`) as JSON integers, others as Rust's shortest
/// round-trip text in a string, since JSON readers (serde_json's among
/// them) may round a long decimal to a neighbouring double.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Exact(f64);

impl Serialize for Exact {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
            s.serialize_i64(v as i64)
        } else {
            s.serialize_str(&format!("{v:?}"))
        }
    }
}

impl<'de> Deserialize<'de> for Exact {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Exact, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Exact;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or a number as a string")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Exact, E> {
                Ok(Exact(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Exact, E> {
                Ok(Exact(v as f64))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Exact, E> {
                Ok(Exact(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Exact, E> {
                v.parse()
                    .map(Exact)
                    .map_err(|_| E::custom(format!("'{v}' is not a number")))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The limits a shard ran under; shards with different ones do not merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ShardLimits {
    max_instructions: u64,
    /// Bytes.
    max_memory: u64,
    /// Seconds; absent for no deadline.
    timeout_seconds: Option<Exact>,
    max_attempts: u32,
    /// `--levels`, when given.
    levels: Option<u32>,
}

/// One seed's result: what the digest and the report need.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ShardSeed {
    seed: u64,
    /// The dungeon hash as 16 hex digits, when the seed made a map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hash: Option<String>,
    time_ms: Exact,
    /// A passing seed's metrics, a row per level in `columns` order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metrics: Option<Vec<Vec<Exact>>>,
    /// A failing seed's kind and whole message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    problem: Option<Problem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The failure had a map (saved by `--save-failures`, pictured by
    /// `--html`); a merge makes it again from the seed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    map: bool,
    /// Time spent proving completion (a script that declares a puzzle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proof_ms: Option<Exact>,
    /// The map's variety sketch ([`variety::Sketch`]) as hex, 4 digits a
    /// bin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sketch: Option<String>,
    /// Why attempts of the seed were rejected (counted by the report).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rejections: Vec<String>,
}

/// How many maps of one size had each cell walkable (level 1).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ShardHeat {
    size: [i32; 2],
    maps: u64,
    /// Per cell, row by row.
    walkable: Vec<u32>,
}

/// A shard file (see the guide's `check` chapter, docs/guide/src/check.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ShardFile {
    format: String,
    version: u32,
    /// The dunlua version that ran it.
    dunlua: String,
    /// The build of the engine that ran it ([`ENGINE`]): shards of other
    /// builds may hold other maps, so they do not merge (absent in older
    /// shards).
    #[serde(default)]
    engine: String,
    /// The script as given on the command line (the report names it so),
    /// from the folder the shard ran in.
    script: String,
    /// The script's path from the shard file's folder, `/` separated, for
    /// a merge run from another folder (absent in older shards, and when
    /// there is none, as from another drive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    script_from_shard: Option<String>,
    /// FNV-1a 64 of the script's bytes, 16 hex digits.
    source_hash: String,
    /// Every module a run loaded, by its path under the script's folder,
    /// with the same hash of its bytes.
    modules: BTreeMap<String, String>,
    /// Every declared parameter with the value it ran with.
    params: BTreeMap<String, String>,
    /// `--size`, when given.
    size: Option<[i64; 2]>,
    limits: ShardLimits,
    /// The whole range, `[A, B)`.
    seeds: [u64; 2],
    /// `[I, N]`.
    shard: [u64; 2],
    /// This shard's seeds, `[a, b)`.
    slice: [u64; 2],
    /// The metric names of each `metrics` row, in order.
    columns: Vec<String>,
    /// Where the shard saved its failures (`--save-failures`), if it did.
    #[serde(default)]
    saved_failures: Option<String>,
    /// Whether the seeds carry variety sketches and `heat` is counted
    /// (not with `--no-variety`).
    variety: bool,
    /// The walkable heat map of each map size.
    #[serde(default)]
    heat: Vec<ShardHeat>,
    /// One entry per seed of the slice, in seed order.
    results: Vec<ShardSeed>,
}

/// FNV-1a 64 of bytes, as 16 hex digits.
fn hash_bytes(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}

fn hash_file(path: &Path) -> anyhow::Result<String> {
    let bytes = files::read(path, files::SOURCE)
        .map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(hash_bytes(&bytes))
}

/// A module's name in a shard: its path under the script's folder.
fn module_name(script: &Path, module: &Path) -> String {
    let folder = script.parent().unwrap_or(Path::new(""));
    module
        .strip_prefix(folder)
        .unwrap_or(module)
        .to_string_lossy()
        .replace('\\', "/")
}

fn module_path(script: &Path, name: &str) -> PathBuf {
    script.parent().unwrap_or(Path::new("")).join(name)
}

/// The file `to` from the folder `from` (`../scripts/caves.lua`), both
/// taken as they are on disk (symlinks followed); `None` when either is
/// missing or no relative path joins them (another drive).
fn path_from(from: &Path, to: &Path) -> Option<String> {
    let here = Path::new(".");
    let from = std::fs::canonicalize(if from.as_os_str().is_empty() {
        here
    } else {
        from
    })
    .ok()?;
    let to = std::fs::canonicalize(to).ok()?;
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return None;
    }
    let mut path = PathBuf::new();
    for _ in from.components().skip(common) {
        path.push("..");
    }
    for part in to.components().skip(common) {
        path.push(part);
    }
    Some(path.to_string_lossy().replace('\\', "/"))
}

/// The parameters a request runs with, every declared one, as `-p` text.
fn resolved_params(request: &Request) -> anyhow::Result<BTreeMap<String, String>> {
    let info = crate::script::inspect(&super::load_request(request))
        .map_err(|e| anyhow!("{}", e.message))?;
    let params = info
        .params
        .with_overrides(&request.params)
        .map_err(|e| anyhow!(e))?;
    Ok(params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_arg()))
        .collect())
}

fn limits_of(request: &Request) -> ShardLimits {
    ShardLimits {
        max_instructions: request.limits.max_instructions,
        max_memory: request.limits.max_memory as u64,
        timeout_seconds: request.limits.timeout.map(|t| Exact(t.as_secs_f64())),
        max_attempts: request.max_attempts,
        levels: request.levels,
    }
}

fn to_entry(r: &SeedResult) -> ShardSeed {
    let (metrics, problem, message) = match &r.outcome {
        Ok(levels) => (
            Some(
                levels
                    .iter()
                    .map(|m| COLUMNS.iter().map(|(_, get)| Exact(get(m))).collect())
                    .collect(),
            ),
            None,
            None,
        ),
        Err((p, why)) => (None, Some(*p), Some(why.clone())),
    };
    ShardSeed {
        seed: r.seed,
        hash: r.hash.map(|h| format!("{h:016x}")),
        time_ms: Exact(r.time_ms),
        metrics,
        map: problem.is_some() && r.has_map,
        proof_ms: r.proof_ms.map(Exact),
        problem,
        message,
        sketch: r.sketch.as_deref().map(sketch_text),
        rejections: r.rejections.clone(),
    }
}

fn sketch_text(s: &Sketch) -> String {
    let mut text = String::with_capacity(variety::BINS * 4);
    for b in s.bins {
        text.push_str(&format!("{b:04x}"));
    }
    text
}

fn sketch_of(text: &str) -> Option<Sketch> {
    if text.len() != variety::BINS * 4 || !text.is_ascii() {
        return None;
    }
    let mut s = Sketch {
        bins: [0; variety::BINS],
    };
    for (i, b) in s.bins.iter_mut().enumerate() {
        *b = u16::from_str_radix(&text[i * 4..i * 4 + 4], 16).ok()?;
    }
    Some(s)
}

/// The largest count a metric may hold (a count of cells, rooms or
/// attempts is far below it; JSON numbers are exact up to here).
const MAX_COUNT: f64 = 9_007_199_254_740_992.0;

/// [`Metrics`] from a row in [`COLUMNS`] order, if each is a value the
/// check could have measured: whole counts from 0 (attempts from 1, the
/// accepted one), a ratio from 0 to 1.
fn metrics_of(row: &[Exact]) -> Option<Metrics> {
    let [attempts, rooms, floor_ratio, regions, longest_path, dead_ends] = row else {
        return None;
    };
    let count = |v: &Exact| v.0.fract() == 0.0 && (0.0..MAX_COUNT).contains(&v.0);
    if ![attempts, rooms, regions, longest_path, dead_ends]
        .into_iter()
        .all(count)
        || attempts.0 < 1.0
        || !(0.0..=1.0).contains(&floor_ratio.0)
    {
        return None;
    }
    Some(Metrics {
        attempts: attempts.0,
        rooms: rooms.0,
        floor_ratio: floor_ratio.0,
        regions: regions.0,
        longest_path: longest_path.0,
        dead_ends: dead_ends.0,
    })
}

/// A shard entry back as a result (no maps: a merge makes those again).
/// `variety` is whether the shard ran the variety pass.
fn from_entry(e: &ShardSeed, variety: bool) -> Result<SeedResult, String> {
    let hash = match &e.hash {
        Some(text) => Some(
            Some(text)
                .filter(|t| t.len() == 16 && t.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|t| u64::from_str_radix(t, 16).ok())
                .ok_or_else(|| format!("seed {}: hash '{text}' is not 16 hex digits", e.seed))?,
        ),
        None => None,
    };
    let outcome = match (&e.metrics, e.problem) {
        (Some(rows), None) => Ok(rows
            .iter()
            .map(|row| metrics_of(row))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                format!(
                    "seed {}: a metrics row is not 6 measures (whole counts from 0, attempts from 1, a floor ratio from 0 to 1)",
                    e.seed
                )
            })?),
        (None, Some(problem)) => Err((
            problem,
            e.message
                .clone()
                .ok_or_else(|| format!("seed {}: a problem with no message", e.seed))?,
        )),
        _ => {
            return Err(format!(
                "seed {}: needs either metrics or a problem",
                e.seed
            ))
        }
    };
    if let Ok(rows) = &outcome {
        if !(1..=crate::script::MAX_LEVELS as usize).contains(&rows.len()) {
            return Err(format!(
                "seed {}: {} metrics rows, where a seed makes 1 to {} levels",
                e.seed,
                rows.len(),
                crate::script::MAX_LEVELS
            ));
        }
    }
    // A run makes a sketch of each seed that made a map (one with a
    // hash) when the variety pass is on, and of no other.
    if e.sketch.is_some() != (variety && e.hash.is_some()) {
        return Err(format!(
            "seed {}: {}",
            e.seed,
            match (e.sketch.is_some(), variety) {
                (true, false) => "a variety sketch, where the shard ran without the variety pass",
                (true, true) => "a variety sketch, where the seed made no map",
                (false, _) => "no variety sketch, where the seed made a map",
            }
        ));
    }
    if e.map && e.problem.is_none() {
        return Err(format!(
            "seed {}: a failure's map, where the seed passed",
            e.seed
        ));
    }
    let times = std::iter::once(&e.time_ms).chain(&e.proof_ms);
    if !times.into_iter().all(|t| (0.0..1e12).contains(&t.0)) {
        return Err(format!(
            "seed {}: a time that is not a number of milliseconds",
            e.seed
        ));
    }
    Ok(SeedResult {
        seed: e.seed,
        hash,
        outcome,
        time_ms: e.time_ms.0,
        maps: None,
        has_map: e.map,
        modules: Vec::new(),
        proof_ms: e.proof_ms.as_ref().map(|t| t.0),
        sketch: match &e.sketch {
            Some(text) => {
                Some(Box::new(sketch_of(text).ok_or_else(|| {
                    format!("seed {}: a damaged sketch", e.seed)
                })?))
            }
            None => None,
        },
        facts: None,
        verdict: None,
        rejections: e.rejections.clone(),
    })
}

/// What is wrong with a shard's heat maps, if anything. The run counts
/// level 1 of every seed that made a map (a seed with a dungeon hash,
/// passing or not) into the heat map of its size, when the variety pass
/// is on: so one entry a size, each of at least one map, no cell walkable
/// in more maps than its entry counts, and the entries' maps adding up to
/// the seeds with a hash.
fn heat_problem(file: &ShardFile) -> Option<String> {
    if !file.variety {
        return (!file.heat.is_empty())
            .then(|| "heat maps, where the shard ran without the variety pass".to_string());
    }
    let mut sizes = std::collections::BTreeSet::new();
    let mut counted: u64 = 0;
    for h in &file.heat {
        let [width, height] = h.size;
        if width < 0 || height < 0 || h.walkable.len() != width as usize * height as usize {
            return Some(format!("a heat map is not {width}x{height}"));
        }
        if !sizes.insert(h.size) {
            return Some(format!("the heat map of {width}x{height} is given twice"));
        }
        if h.maps == 0 {
            return Some(format!("the heat map of {width}x{height} counts 0 maps"));
        }
        if let Some(&most) = h.walkable.iter().find(|&&c| c as u64 > h.maps) {
            return Some(format!(
                "the heat map of {width}x{height} counts a cell walkable in {most} of its {} maps",
                h.maps
            ));
        }
        counted = counted.saturating_add(h.maps);
    }
    let made = file.results.iter().filter(|r| r.hash.is_some()).count() as u64;
    (counted != made)
        .then(|| format!("its heat maps count {counted} maps, where its seeds made {made}"))
}

/// Runs shard `shard` of `options.seeds`, writes its file to `out` (all or
/// nothing) and returns the report of its slice alone.
pub fn run(options: &CheckOptions, shard: Shard, out: &Path) -> anyhow::Result<Report> {
    let slice = shard.slice(&options.seeds);
    let request = &options.request;
    // Read before the run: the shard describes the script it ran.
    let source_hash = hash_file(&request.script)?;
    let params = resolved_params(request)?;
    let (results, heats) = run_seeds(options, slice.clone(), true)?;
    let loaded: std::collections::BTreeSet<&PathBuf> =
        results.iter().flat_map(|r| &r.modules).collect();
    let mut modules = BTreeMap::new();
    for path in loaded {
        if files::same_file(out, path) {
            return Err(Refused(format!(
                "--shard-out {}: is the module {} the script loads",
                out.display(),
                path.display()
            ))
            .into());
        }
        modules.insert(module_name(&request.script, path), hash_file(path)?);
    }
    let file = ShardFile {
        format: FORMAT.into(),
        version: VERSION,
        dunlua: env!("CARGO_PKG_VERSION").into(),
        engine: ENGINE.into(),
        script: request.script.display().to_string(),
        script_from_shard: path_from(out.parent().unwrap_or(Path::new("")), &request.script),
        source_hash,
        modules,
        params,
        size: request.size.map(|(w, h)| [w, h]),
        limits: limits_of(request),
        seeds: [options.seeds.start, options.seeds.end],
        shard: [shard.index, shard.count],
        slice: [slice.start, slice.end],
        columns: COLUMNS.iter().map(|(name, _)| name.to_string()).collect(),
        saved_failures: options
            .save_failures
            .as_ref()
            .map(|d| d.display().to_string()),
        variety: options.variety.is_some(),
        heat: heats
            .iter()
            .map(|h| ShardHeat {
                size: [h.width, h.height],
                maps: h.maps,
                walkable: h.walkable.clone(),
            })
            .collect(),
        results: results.iter().map(to_entry).collect(),
    };
    let mut text = serde_json::to_string(&file)
        .unwrap_or_else(|e| unreachable!("a shard always serialises: {e}"));
    text.push('\n');
    let slice_options = CheckOptions {
        seeds: slice,
        html: None,
        ..options.clone()
    };
    let report = finish(&slice_options, &results, heats)?;
    crate::export::write_atomically(out, text.as_bytes())?;
    Ok(report)
}

/// What `--merge` needs besides the shard files.
pub struct MergeOptions {
    pub jobs: usize,
    pub save_failures: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub export: crate::export::Options,
    pub progress: bool,
    /// The variety pass (when the shards carry sketches), as for `check`.
    pub variety: Option<variety::Settings>,
}

/// Why shards were refused: a usage error (exit 2), one line.
pub use crate::export::Refused;

fn read_shard(path: &Path) -> Result<ShardFile, Refused> {
    let name = path.display();
    let bytes = files::read(path, SHARD_FILE)
        .map_err(|e| Refused(format!("--merge {name}: cannot read it: {e}")))?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| Refused(format!("--merge {name}: not a check shard (not JSON: {e})")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(Refused(format!(
            "--merge {name}: not a check shard (no \"format\": \"{FORMAT}\"); write shards with dunlua check --shard I/N --shard-out FILE"
        )));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == VERSION as u64 => {}
        other => {
            return Err(Refused(format!(
                "--merge {name}: shard format version {}, this dunlua reads version {VERSION}",
                other.map_or("missing".to_string(), |v| v.to_string())
            )))
        }
    }
    serde_json::from_value(value)
        .map_err(|e| Refused(format!("--merge {name}: a damaged check shard: {e}")))
}

/// The first thing that must be the same for all shards where `a` and
/// `b` differ: what it is, and its value in each (as compact JSON).
fn mismatch(a: &ShardFile, b: &ShardFile) -> Option<(&'static str, String, String)> {
    fn show(v: &impl Serialize) -> String {
        serde_json::to_string(v).unwrap_or_default()
    }
    let fields = [
        ("dunlua version", show(&a.dunlua), show(&b.dunlua)),
        ("dunlua engine build", show(&a.engine), show(&b.engine)),
        ("script", show(&a.script), show(&b.script)),
        (
            "script source hash",
            show(&a.source_hash),
            show(&b.source_hash),
        ),
        ("parameters", show(&a.params), show(&b.params)),
        ("--size", show(&a.size), show(&b.size)),
        ("limits", show(&a.limits), show(&b.limits)),
        ("seed range", show(&a.seeds), show(&b.seeds)),
        ("shard count N", show(&a.shard[1]), show(&b.shard[1])),
        ("metric columns", show(&a.columns), show(&b.columns)),
        ("variety", show(&a.variety), show(&b.variety)),
    ];
    fields.into_iter().find(|(_, x, y)| x != y)
}

/// The shards checked to fit together, in slice order.
fn fit(paths: &[PathBuf]) -> Result<Vec<(PathBuf, ShardFile)>, Refused> {
    let mut shards: Vec<(PathBuf, ShardFile)> = Vec::new();
    for path in paths {
        let file = read_shard(path)?;
        let name = path.display();
        let [index, count] = file.shard;
        let seeds = file.seeds[0]..file.seeds[1];
        let shard = Shard { index, count };
        if index == 0 || index > count || count > MAX_SHARDS || seeds.start > seeds.end {
            return Err(Refused(format!(
                "--merge {name}: shard {index}/{count} of seeds {}..{} is not a shard",
                seeds.start, seeds.end
            )));
        }
        let slice = shard.slice(&seeds);
        if file.slice != [slice.start, slice.end] {
            return Err(Refused(format!(
                "--merge {name}: its slice {}..{} is not shard {shard} of seeds {}..{} ({}..{})",
                file.slice[0], file.slice[1], seeds.start, seeds.end, slice.start, slice.end
            )));
        }
        let listed: Vec<u64> = file.results.iter().map(|r| r.seed).collect();
        if !listed.iter().copied().eq(slice.clone()) {
            return Err(Refused(format!(
                "--merge {name}: holds {} results, not one for each seed of its slice {}..{} in order",
                listed.len(),
                slice.start,
                slice.end
            )));
        }
        if let Some((first, head)) = shards.first() {
            if let Some((what, ours, theirs)) = mismatch(head, &file) {
                return Err(Refused(format!(
                    "--merge {name}: {what} {theirs} differs from {ours} in {}",
                    first.display()
                )));
            }
        }
        for (module, hash) in &file.modules {
            let other = shards
                .iter()
                .find(|(_, s)| s.modules.get(module).is_some_and(|h| h != hash));
            if let Some((other, theirs)) = other {
                return Err(Refused(format!(
                    "--merge {name}: module {module} hash \"{hash}\" differs from \"{}\" in {}",
                    theirs.modules[module],
                    other.display()
                )));
            }
        }
        if let Some((other, _)) = shards.iter().find(|(_, s)| s.shard == file.shard) {
            return Err(Refused(format!(
                "--merge {name}: shard {shard} is also in {} (each slice once)",
                other.display()
            )));
        }
        shards.push((path.clone(), file));
    }
    let Some((_, head)) = shards.first() else {
        return Err(Refused("--merge: no shard files given".into()));
    };
    let count = head.shard[1];
    let seeds = head.seeds[0]..head.seeds[1];
    for index in 1..=count {
        if !shards.iter().any(|(_, s)| s.shard[0] == index) {
            let shard = Shard { index, count };
            let slice = shard.slice(&seeds);
            return Err(Refused(format!(
                "--merge: shard {shard} (seeds {}..{}) is missing: {} of {count} shards given",
                slice.start,
                slice.end,
                shards.len()
            )));
        }
    }
    shards.sort_by_key(|(_, s)| s.shard[0]);
    Ok(shards)
}

/// The request the shards ran with.
fn request_of(head: &ShardFile) -> Request {
    let mut request = Request::new(&head.script, 0);
    request.size = head.size.map(|[w, h]| (w, h));
    request.params = head
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    request.limits = Limits {
        max_instructions: head.limits.max_instructions,
        max_memory: head.limits.max_memory as usize,
        timeout: head
            .limits
            .timeout_seconds
            .map(|s| std::time::Duration::from_secs_f64(s.0)),
    };
    request.max_attempts = head.limits.max_attempts;
    request.levels = head.limits.levels;
    request
}

/// Puts the shards in `paths` together: the report one run over all their
/// seeds gives, with failures saved and the page written as it would.
/// Shards that do not fit are a [`Refused`] error.
pub fn merge(paths: &[PathBuf], merge: &MergeOptions) -> anyhow::Result<Report> {
    let shards = fit(paths)?;
    let head = &shards[0].1;
    let mut options = CheckOptions {
        request: request_of(head),
        seeds: head.seeds[0]..head.seeds[1],
        jobs: merge.jobs,
        save_failures: merge.save_failures.clone(),
        export: merge.export.clone(),
        progress: merge.progress,
        html: merge.html.clone(),
        variety: merge.variety.filter(|_| head.variety),
        catalog: false,
    };
    let mut results = Vec::with_capacity((options.seeds.end - options.seeds.start) as usize);
    let mut modules = BTreeMap::new();
    let heat = HeatCollector::default();
    for (path, file) in &shards {
        if let Some(why) = heat_problem(file) {
            return Err(Refused(format!(
                "--merge {}: a damaged check shard: {why}",
                path.display()
            ))
            .into());
        }
        for h in &file.heat {
            let [width, height] = h.size;
            heat.add(&Heat {
                width,
                height,
                maps: h.maps,
                walkable: h.walkable.clone(),
            });
        }
        for entry in &file.results {
            results.push(from_entry(entry, file.variety).map_err(|e| {
                Refused(format!(
                    "--merge {}: a damaged check shard: {e}",
                    path.display()
                ))
            })?);
        }
        modules.extend(file.modules.clone());
    }
    // Every seed of a script makes the same number of levels (its own or
    // --levels): a row count that differs is a damaged file.
    // (The count most seeds have, when --levels did not say: a damaged
    // seed is the odd one out.)
    let levels = |r: &SeedResult| r.outcome.as_ref().ok().map(Vec::len);
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    for n in results.iter().filter_map(levels) {
        *seen.entry(n).or_default() += 1;
    }
    let most = seen
        .iter()
        .max_by_key(|&(&n, &times)| (times, std::cmp::Reverse(n)));
    let want = head
        .limits
        .levels
        .map(|n| n as usize)
        .or(most.map(|(&n, _)| n));
    if let Some(bad) = results
        .iter()
        .find(|r| levels(r).is_some_and(|n| Some(n) != want))
    {
        return Err(Refused(format!(
            "--merge: a damaged check shard: seed {} has {} metrics rows, where its dungeons have {} levels",
            bad.seed,
            levels(bad).unwrap_or(0),
            want.unwrap_or(0)
        ))
        .into());
    }
    // The page pictures maps, --save-failures writes them and the variety
    // pass verifies near-duplicate candidates: all make maps again from
    // their seeds, so the script must be the one the shards ran.
    let verifies = options.variety.is_some()
        && !variety::candidates(
            &super::seed_views(&results),
            merge.variety.map_or(0.0, |v| v.near),
        )
        .pairs
        .is_empty();
    if options.html.is_some() || options.save_failures.is_some() || verifies {
        options.request.script = find_script(&shards)?;
        let script = &options.request.script;
        if head.engine != ENGINE {
            return Err(Refused(format!(
                "--merge {}: its dunlua engine build \"{}\" is not this one's \"{ENGINE}\", which would make its maps again; {}",
                shards[0].0.display(),
                head.engine,
                "--html, --save-failures and the variety pass's near-duplicate candidates make maps again (--no-variety does without), so merge with the dunlua that ran the shards"
            ))
            .into());
        }
        for (name, hash) in &modules {
            let path = module_path(script, name);
            let now = hash_file(&path).map_err(|e| {
                Refused(format!(
                    "--merge: module {name} of {} cannot be read, so its maps cannot be made again ({e})",
                    script.display()
                ))
            })?;
            if &now != hash {
                return Err(Refused(format!(
                    "--merge: module {name} of {} changed since the shards ran (hash {now}, the shards' {hash})",
                    script.display()
                ))
                .into());
            }
        }
        remake_failures(&options, &mut results)?;
    }
    finish(&options, &results, heat.into_heats())
}

/// The script the shards ran, found to make maps again: as they name it
/// (from the folder they ran in, the usual place to merge), else from
/// each shard file's folder (`script_from_shard`, or the name itself in
/// older shards), the first whose bytes are the ones the shards ran. A
/// script that is there but edited, or nowhere, is refused.
fn find_script(shards: &[(PathBuf, ShardFile)]) -> anyhow::Result<PathBuf> {
    let (first, head) = &shards[0];
    let named = PathBuf::from(&head.script);
    let mut tried = vec![named.clone()];
    for (path, file) in shards {
        let folder = path.parent().unwrap_or(Path::new(""));
        let from_shard = match &file.script_from_shard {
            Some(relative) => folder.join(relative),
            None if named.is_relative() => folder.join(&named),
            None => continue,
        };
        if !tried.contains(&from_shard) {
            tried.push(from_shard);
        }
    }
    let mut edited = None;
    for path in &tried {
        let Ok(now) = hash_file(path) else {
            continue;
        };
        if now == head.source_hash {
            return Ok(path.clone());
        }
        edited.get_or_insert((path, now));
    }
    let why = "--html, --save-failures and the variety pass's near-duplicate candidates make maps again from it (--no-variety does without)";
    Err(Refused(match edited {
        Some((path, now)) => format!(
            "--merge: {} changed since the shards ran (source hash {now}, the shards' {}); {why}",
            path.display(),
            head.source_hash
        ),
        None => format!(
            "--merge {}: cannot find its script {} (from here, nor from the shard file's folder{}); {why}",
            first.display(),
            head.script,
            match tried.get(1..).unwrap_or_default() {
                [] => String::new(),
                more => format!(
                    " as {}{}",
                    more.iter()
                        .take(3)
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    match more.len() {
                        0..=3 => String::new(),
                        n => format!(" and {} more", n - 3),
                    }
                ),
            }
        ),
    })
    .into())
}

/// Makes again the maps of the failures that had one and are to be saved
/// (all) or pictured (as many a kind as the page shows).
fn remake_failures(options: &CheckOptions, results: &mut [SeedResult]) -> anyhow::Result<()> {
    let mut shown: BTreeMap<Problem, usize> = BTreeMap::new();
    let mut wanted = Vec::new();
    for (i, r) in results.iter().enumerate() {
        let Err((kind, _)) = &r.outcome else {
            continue;
        };
        let count = shown.entry(*kind).or_default();
        *count += 1;
        let pictured = options.html.is_some() && *count <= html::FAILURES_SHOWN;
        if r.has_map && (options.save_failures.is_some() || pictured) {
            wanted.push(i);
        }
    }
    if wanted.is_empty() {
        return Ok(());
    }
    let request = seed_request(options, false);
    let stairs = crate::script::inspect(&super::load_request(&request))
        .map(|info| info.stairs)
        .unwrap_or_default();
    let seeds: Vec<u64> = wanted.iter().map(|&i| results[i].seed).collect();
    // The heat was counted when the shards ran.
    let unused = HeatCollector::default();
    let maps: Vec<_> = super::in_parallel(
        options.jobs,
        &seeds,
        || Session::new(&request),
        |session, &seed| {
            let r = run_seed(options, session, stairs, seed, &unused);
            (r.maps, r.verdict)
        },
    );
    for (i, (maps, verdict)) in wanted.into_iter().zip(maps) {
        results[i].maps = maps;
        results[i].verdict = verdict;
    }
    Ok(())
}

/// `--shard-out FILE` can be written: its folder exists and it is no folder.
pub fn check_target(path: &Path) -> anyhow::Result<()> {
    if let Some(problem) = crate::export::target_problem(path) {
        bail!("--shard-out {}: {problem}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_cover_the_range_once() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0", "1/100001"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        for (range, n) in [(0..1000u64, 4u64), (5..12, 3), (0..3, 5), (7..8, 1)] {
            let mut next = range.start;
            for index in 1..=n {
                let slice = Shard { index, count: n }.slice(&range);
                assert_eq!(slice.start, next, "{range:?} {index}/{n}");
                assert!(slice.end >= slice.start);
                next = slice.end;
            }
            assert_eq!(next, range.end);
        }
        assert_eq!(Shard { index: 2, count: 4 }.slice(&(0..1000)), 250..500);
    }

    #[test]
    fn numbers_read_back_bit_for_bit() {
        for v in [
            0.0,
            3.0,
            -7.0,
            0.1,
            1.0 / 3.0,
            2345.0 / 3999.0,
            1e-300,
            f64::MAX,
            9_007_199_254_740_993.0,
        ] {
            let text = serde_json::to_string(&Exact(v)).unwrap();
            let back: Exact = serde_json::from_str(&text).unwrap();
            assert_eq!(back.0.to_bits(), v.to_bits(), "{v} as {text}");
        }
        assert_eq!(serde_json::to_string(&Exact(12.0)).unwrap(), "12");
    }

    #[test]
    fn metrics_rows_follow_the_columns() {
        let m = Metrics {
            attempts: 1.0,
            rooms: 2.0,
            floor_ratio: 0.3,
            regions: 4.0,
            longest_path: 5.0,
            dead_ends: 6.0,
        };
        let row: Vec<Exact> = COLUMNS.iter().map(|(_, get)| Exact(get(&m))).collect();
        assert_eq!(metrics_of(&row), Some(m));
        assert_eq!(metrics_of(&row[..5]), None);
    }
}
