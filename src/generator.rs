//! [`Generator`]: the one type a game needs. A script (a file, or text the
//! game ships in its own assets with its modules) is compiled once, its
//! parameters and size are checked once, and then every
//! [`Generator::generate`] makes the map of one seed in the same reused,
//! sandboxed VM `dunlua check` uses: the same seed gives the same map as the
//! command line, and nothing one seed's run does reaches the next.
//!
//! ```
//! use dunlua::Generator;
//!
//! let generator = Generator::file("scripts/rooms.lua")
//!     .param("max_rooms", 12)
//!     .size(60, 40)
//!     .build()?;
//! let level = generator.generate(7)?;
//! assert_eq!((level.width(), level.height()), (60, 40));
//! let (x, y) = level.start();
//! let kind = level.kind_at(x, y).unwrap();
//! assert!(kind.walkable);
//! # Ok::<(), dunlua::Error>(())
//! ```
//!
//! A script and its modules from a game's packed assets:
//!
//! ```
//! use dunlua::Generator;
//!
//! let level = Generator::source("mods/cave.lua", r#"
//!         local walls = require("lib.walls")
//!         return { width = 20, height = 10, generate = function(map, rng)
//!             walls.outline(map)
//!             map:set_start(3, 3)
//!         end }"#)
//!     .module("lib/walls.lua", r#"
//!         return { outline = function(map)
//!             map:fill("wall")
//!             map:carve_room(Rect.new(0, 0, map.width - 1, map.height - 1))
//!         end }"#)
//!     .build()?
//!     .generate(1)?;
//! assert_eq!(level.tile_name(0, 0), Some("wall"));
//! # Ok::<(), dunlua::Error>(())
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::generated::Generated;
use crate::map;
use crate::params::{ParamValue, Params};
use crate::script::{LimitNames, Limits, Modules, Request, ScriptError, ScriptInfo, Session};

/// A compiled script, ready to generate seed after seed. `Send`: build it
/// on one thread and generate on a worker. Not `Sync`: one `generate` at a
/// time (give each worker its own `Generator` to generate in parallel).
pub struct Generator {
    session: Session,
    info: ScriptInfo,
    params: Params,
    size: (i64, i64),
    /// The builder's `levels`, overriding the script's.
    request_levels: Option<u32>,
}

/// Everything a [`Generator`] is built from; [`GeneratorBuilder::build`]
/// checks it all at once. Cloning one (to build several generators, one per
/// worker thread) is cheap: the script text and modules are shared.
#[derive(Clone, Debug)]
pub struct GeneratorBuilder {
    request: Request,
    modules: BTreeMap<String, String>,
}

impl Generator {
    /// A generator for the script file at `path`; `require` reads modules
    /// from the script's folder.
    pub fn file(path: impl AsRef<Path>) -> GeneratorBuilder {
        GeneratorBuilder::new(Request::new(path.as_ref(), 0))
    }

    /// A generator for script text the caller holds. `name` is the path it
    /// would have as a file (`"mods/cave.lua"`): messages and tracebacks
    /// name it, and its modules are found relative to its folder. Supply
    /// them with [`GeneratorBuilder::module`] or [`GeneratorBuilder::loader`].
    pub fn source(name: impl Into<PathBuf>, text: impl Into<String>) -> GeneratorBuilder {
        let mut request = Request::new(name.into(), 0);
        request.source = Some(Arc::from(text.into()));
        request.modules = Modules::Map(Arc::default());
        GeneratorBuilder::new(request)
    }

    /// The map of one seed (with the script's rerolls, if it rejects maps).
    /// The same seed, parameters and size always give the same map, equal to
    /// `dunlua SCRIPT --seed N` with the same `-p` and `--size`.
    ///
    /// For a script that declares `levels = N`, this is level 1; see
    /// [`generate_levels`](Self::generate_levels).
    pub fn generate(&self, seed: u64) -> Result<Generated, ScriptError> {
        self.session.run(seed)
    }

    /// Every level of one seed's dungeon, level 1 first: a script that
    /// declares `levels = N` (or the builder's [`levels`](GeneratorBuilder::levels))
    /// makes N maps, each generated knowing the one above (`ctx.above`); a
    /// one-level script makes one. Level k draws from
    /// `script::level_seed(seed, k)`; `dunlua SCRIPT --seed N --out d.json`
    /// writes the same levels.
    pub fn generate_levels(&self, seed: u64) -> Result<Vec<Generated>, ScriptError> {
        self.session.run_levels(seed)
    }

    /// How many levels each seed makes.
    pub fn levels(&self) -> u32 {
        self.request_levels.unwrap_or(self.info.levels)
    }

    /// What the script declares: its name, default size and parameters
    /// (with their defaults).
    pub fn info(&self) -> &ScriptInfo {
        &self.info
    }

    /// Every declared parameter with the value this generator uses.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The width and height of the maps it makes.
    pub fn size(&self) -> (i64, i64) {
        self.size
    }
}

impl GeneratorBuilder {
    fn new(mut request: Request) -> GeneratorBuilder {
        request.limit_names = LimitNames::RUST;
        GeneratorBuilder {
            request,
            modules: BTreeMap::new(),
        }
    }

    /// How the messages of a run stopped by a limit name it ("raise it with
    /// Limits::max_instructions"): a binding names its own calls or
    /// arguments ([`LimitNames::C`], [`LimitNames::PYTHON`]).
    pub fn limit_names(mut self, names: LimitNames) -> Self {
        self.request.limit_names = names;
        self
    }

    /// Overrides a declared parameter with a typed value (an integer is
    /// accepted for a number parameter); checked by [`build`](Self::build).
    pub fn param(mut self, name: &str, value: impl Into<ParamValue>) -> Self {
        self.request.values.push((name.to_string(), value.into()));
        self
    }

    /// Overrides a parameter from text, as `-p name=value` does.
    pub fn param_text(mut self, name: &str, value: &str) -> Self {
        self.request.params.push(format!("{name}={value}"));
        self
    }

    /// The map size, instead of the script's own `width` and `height`.
    pub fn size(mut self, width: i64, height: i64) -> Self {
        self.request.size = Some((width, height));
        self
    }

    /// The budget, memory limit and deadline of each `generate`.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.request.limits = limits;
        self
    }

    /// How many levels each seed makes, instead of the script's `levels`
    /// (1..=32).
    pub fn levels(mut self, levels: u32) -> Self {
        self.request.levels = Some(levels);
        self
    }

    /// A flag another thread sets to stop the generator's run in progress
    /// at once (a game's Ctrl-C, a newer request overtaking this one): the
    /// run fails with [`FailureKind::Cancelled`](crate::FailureKind), at
    /// the script's next 1000 instructions or when the native call in
    /// progress returns, with or without limits. While the flag stays set,
    /// every run is cancelled; clear it to generate again.
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.request.cancel = Some(flag);
        self
    }

    /// How many attempts a script that rejects its maps gets (default 20,
    /// 1..=[`MAX_ATTEMPTS`](crate::script::MAX_ATTEMPTS); `build` refuses
    /// others).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.request.max_attempts = attempts;
        self
    }

    /// Supplies a module's source by its path relative to the script's
    /// folder: `require("lib.walls")` finds `"lib/walls.lua"`. Once modules
    /// are supplied, `require` looks only among them, never on disk (for a
    /// script from a file too). Replaces a loader given before.
    pub fn module(mut self, relative_path: &str, text: impl Into<String>) -> Self {
        self.modules.insert(
            relative_path.trim_start_matches("./").to_string(),
            text.into(),
        );
        self
    }

    /// Supplies modules through a function from that relative path to the
    /// source (`Ok(None)`: no such module; `Err(why)`: it cannot be read,
    /// and the script's `require` fails saying why), for scripts whose
    /// modules live in a game's pack files. It is called the first time a generator's script
    /// requires a module (each module's text is compiled once per
    /// generator), on the thread that calls `build` or `generate`; a module
    /// over 16 MiB is refused. Replaces modules given before.
    pub fn loader(
        mut self,
        load: impl Fn(&str) -> Result<Option<String>, String> + Send + Sync + 'static,
    ) -> Self {
        self.modules.clear();
        self.request.modules = Modules::Loader(Arc::new(load));
        self
    }

    /// Compiles the script, runs its top level once to read what it
    /// declares, and checks the parameters and size: an unknown parameter or
    /// a value of the wrong type is an error listing the declared ones.
    pub fn build(mut self) -> Result<Generator, ScriptError> {
        if !self.modules.is_empty() {
            self.request.modules = Modules::Map(Arc::new(std::mem::take(&mut self.modules)));
        }
        let session = Session::new(&self.request)?;
        let info = session.inspect()?;
        let params = info
            .params
            .with_overrides(&self.request.params)
            .and_then(|p| p.with_values(&self.request.values))
            .map_err(ScriptError::usage)?;
        let size = self.request.size.unwrap_or((info.width, info.height));
        if let Some(n) = self.request.levels {
            if !(1..=crate::script::MAX_LEVELS).contains(&(n as i64)) {
                return Err(ScriptError::usage(format!(
                    "levels {n}: a dungeon has 1..={} levels",
                    crate::script::MAX_LEVELS
                )));
            }
        }
        let attempts = self.request.max_attempts;
        if !(1..=crate::script::MAX_ATTEMPTS).contains(&attempts) {
            return Err(ScriptError::usage(format!(
                "max_attempts {attempts}: expected 1..={}",
                crate::script::MAX_ATTEMPTS
            )));
        }
        // The error already says "size WxH is invalid: ..."; a size the
        // script declares is named after the script, as a run names it.
        map::check_size(size.0, size.1).map_err(|e| {
            ScriptError::usage(match self.request.size {
                Some(_) => e.to_string(),
                None => format!("{}: {e}", self.request.script.display()),
            })
        })?;
        Ok(Generator {
            session,
            info,
            params,
            size,
            request_levels: self.request.levels,
        })
    }
}

// A generator moves to a game's worker thread (see `raw::Session`'s `Send`).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Generator>();
};
