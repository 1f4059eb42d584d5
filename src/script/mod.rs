//! The Lua host, and the only module that knows Lua: loads a script in a
//! fresh sandboxed VM, checks the returned table against the contract,
//! resolves parameters and runs `generate(map, rng, params)` on a lent map.

pub mod api_doc;
mod api_graph;
mod api_level;
mod api_map;
mod api_markers;
mod api_prefab;
mod api_rect;
mod api_rng;
mod api_selection;
mod api_tiles;
mod api_wfc;
mod args;
mod budget;
mod cost;
mod error;
mod hash_seed;
mod host;
mod object_names;
mod params_table;
mod puzzle_decl;
#[allow(unsafe_code)]
mod raw;
mod registered_names;
mod require;
mod run_state;
mod session;
mod suggest;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use error::{FailureKind, LimitKind, ScriptError};
pub use hash_seed::string_hash_is_fixed;
pub use host::{LimitNames, Limits};
#[cfg(feature = "window")]
pub(crate) use require::module_file;
pub use session::{BenchTotals, Session};

use crate::generated::Generated;
use crate::params::{ParamValue, Params};
use crate::rng::Rng;

/// The default size when a script's table gives none.
pub const DEFAULT_SIZE: (i64, i64) = (80, 50);

/// What one run should do.
#[derive(Clone, Debug)]
pub struct Request {
    /// The script's path: read from disk unless `source` is given, and the
    /// name messages and tracebacks use either way.
    pub script: PathBuf,
    /// The script's text, when the caller supplies it (a game's packed
    /// assets) instead of a file.
    pub source: Option<Arc<str>>,
    /// Where `require` finds modules (the script's folder by default).
    pub modules: Modules,
    pub seed: u64,
    /// `--size`, overriding the script's own width and height.
    pub size: Option<(i64, i64)>,
    /// `-p key=value` overrides, in order.
    pub params: Vec<String>,
    /// Typed overrides (a game's), applied after `params`.
    pub values: Vec<(String, ParamValue)>,
    pub limits: Limits,
    /// Record a replay step per primitive call (the window's replay); off
    /// for text and files, which then pay nothing for it.
    pub record: bool,
    /// How many attempts a script that rejects its map gets (at least 1).
    pub max_attempts: u32,
    /// Use the raw fast paths for the hottest primitives (see `fast.rs`);
    /// off only to check that they agree with the ordinary bindings.
    pub fast_paths: bool,
    /// Set from another thread to stop the run at once (the window cancels
    /// a reload that a newer save has overtaken).
    pub cancel: Option<Arc<AtomicBool>>,
    /// `--levels`, overriding the script's own `levels`.
    pub levels: Option<u32>,
    /// Keep the map of a rejected attempt ([`Session::take_rejected`]).
    pub keep_rejected: bool,
    /// How messages name the limits (the command line's flags by default).
    pub limit_names: LimitNames,
}

/// The default of `--max-attempts`.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 20;

/// The most attempts a script that rejects its maps may be given.
pub const MAX_ATTEMPTS: u32 = 10_000;

/// The seed of attempt `k`: the request's own for attempt 0, then
/// `rng:fork("attempt-" .. k)` of it, so attempts never share a stream.
pub fn attempt_seed(seed: u64, attempt: u32) -> u64 {
    if attempt == 0 {
        seed
    } else {
        Rng::new(seed).fork(&format!("attempt-{attempt}")).seed()
    }
}

/// The most levels a dungeon may have.
pub const MAX_LEVELS: i64 = 32;

/// The most cells a whole dungeon may hold (every level's, added up).
pub const MAX_DUNGEON_CELLS: i64 = 64 * 1024 * 1024;

/// The stream of level `level` (1-based): the seed's own for level 1, so a
/// one-level script draws exactly as before, then `rng:fork("level-" .. k)`
/// of it; a level's attempts derive from its stream as any run's do.
pub fn level_seed(seed: u64, level: u32) -> u64 {
    if level <= 1 {
        seed
    } else {
        Rng::new(seed).fork(&format!("level-{level}")).seed()
    }
}

impl Request {
    pub fn new(script: impl Into<PathBuf>, seed: u64) -> Request {
        Request {
            script: script.into(),
            source: None,
            modules: Modules::Folder,
            seed,
            size: None,
            params: Vec::new(),
            values: Vec::new(),
            limits: Limits::default(),
            record: false,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            fast_paths: true,
            cancel: None,
            levels: None,
            keep_rejected: false,
            limit_names: LimitNames::COMMAND_LINE,
        }
    }
}

/// Where `require("lib.doors")` finds `lib/doors.lua` (dots are folders,
/// relative to the script's folder; names are letters, digits, `_` and dots
/// in every case, so no name leaves the folder).
#[derive(Clone, Default)]
pub enum Modules {
    /// Files in the script's real folder, symlinks out refused.
    #[default]
    Folder,
    /// Sources the caller holds, keyed by that relative path
    /// (`"lib/doors.lua"`).
    Map(Arc<BTreeMap<String, String>>),
    /// A function from that relative path to the source: `Ok(None)` when
    /// there is no such module, `Err(why)` when it cannot be read (a game's
    /// pack file that is damaged).
    Loader(Arc<ModuleLoader>),
}

/// What [`Modules::Loader`] calls.
pub type ModuleLoader = dyn Fn(&str) -> Result<Option<String>, String> + Send + Sync;

impl std::fmt::Debug for Modules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Modules::Folder => f.write_str("Folder"),
            Modules::Map(map) => f.debug_tuple("Map").field(&map.keys()).finish(),
            Modules::Loader(_) => f.write_str("Loader(..)"),
        }
    }
}

/// What a script declares about itself, read without generating.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptInfo {
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub params: Params,
    /// How many linked levels one seed makes (`levels`, 1 by default).
    pub levels: u32,
    /// What `stairs` promises between consecutive levels.
    pub stairs: Stairs,
    /// The puzzle the script declares (`goal`, `locks`, `one_way`), which
    /// `check` and [`crate::proof`] prove; `None` when it declares none.
    pub puzzle: Option<std::sync::Arc<crate::proof::Puzzle>>,
}

/// What a multi-level script promises about its stairs (`stairs = ...`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stairs {
    /// Nothing: `check` does not look at stairs.
    #[default]
    Free,
    /// `stairs = "aligned"`: every level but the last has a `stairs_down`,
    /// and the cells of level k's `stairs_down` tiles are exactly those of
    /// level k+1's `stairs_up` tiles, so going down lands on the way back.
    Aligned,
}

/// Loads a script and reports what it declares, without generating.
pub fn inspect(request: &Request) -> Result<ScriptInfo, ScriptError> {
    Session::new(request)?.inspect()
}

/// Runs a script once, in a VM of its own (level 1 of a multi-level script).
pub fn run(request: &Request) -> Result<Generated, ScriptError> {
    Session::new(request)?.run(request.seed)
}

/// Runs a script once for every level it makes, in a VM of its own.
pub fn run_levels(request: &Request) -> Result<Vec<Generated>, ScriptError> {
    Session::new(request)?.run_levels(request.seed)
}
