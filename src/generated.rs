//! A finished map together with where it came from: what every sink writes.

use std::path::PathBuf;

use crate::map::Map;
use crate::params::Params;
use crate::replay::Replay;

/// How a map was made: enough to make it again.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The script path as the user gave it.
    pub script: String,
    /// The script's `name`.
    pub name: String,
    pub seed: u64,
    /// Which attempt was accepted (0 unless the script rejected maps);
    /// attempt k ran on `script::attempt_seed(seed, k)`.
    pub attempt: u32,
    /// Every declared parameter with the value used.
    pub params: Params,
}

/// The output of one run.
#[derive(Clone, Debug)]
pub struct Generated {
    pub map: Map,
    pub provenance: Provenance,
    /// Files the script `require`d, for hot reload.
    pub modules: Vec<PathBuf>,
    /// The generation step by step, when it was recorded.
    pub replay: Option<Replay>,
    /// The attempts the script rejected before this one, and why.
    pub rejections: Vec<(u32, String)>,
    /// The budget units the whole run used (Lua instructions plus charged
    /// native work, over every attempt), out of `--max-instructions`.
    pub work: u64,
    /// The part of `work` charged for native primitives and C library
    /// functions; the rest are Lua instructions.
    pub native_work: u64,
}
