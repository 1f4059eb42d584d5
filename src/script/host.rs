//! The sandboxed Lua VM and its life cycle: one state per session, made
//! with only safe libraries, `print` on stderr, `require` confined to the
//! script's folder; each run under a budget, a memory limit and a deadline.
//!
//! What happens between two runs of a reused VM ([`Vm::reset`]):
//!
//! ```text
//!  run k ends ──► end_run: the watchdog lets go of the state
//!  reset ───────► guard: full budget, no stop, deadline armed (watchdog)
//!            ├──► the run's globals, strings' metatable, module cache and
//!            │    tostring numbers are dropped (the registry's globals and
//!            │    the strings' metatable are the host's again)
//!            ├──► collect_history: one minor collection (generational
//!            │    mode), a second when something of the run had a
//!            │    finalizer, or a full one when they leave anything: nothing of
//!            │    run k is left in the heap (no garbage, no interned
//!            │    string, no weak-table entry), the collector as after the
//!            │    first reset
//!            ├──► new globals (a copy of the host's _G, made in one memcpy
//!            │    from a template, each library an empty overlay reading
//!            │    through to the host's: raw/reset.rs)
//!            │    and strings' metatable; the registry's globals point at
//!            │    them, and the main chunk is made anew with them as _ENV
//!            └──► the run's memory base (what collectgarbage("count") counts from)
//!  run k+1 ─────► main chunk, generate, validate; modules load afresh from
//!                 bytecode compiled once (require.rs)
//! ```
//!
//! The host's own tables are never handed to a script, so a run starts from
//! the same state whatever ran before: same maps, same verdicts, same
//! messages as a fresh VM.

use std::cell::{Cell, RefCell};
use std::ffi::c_int;
use std::io::Write;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mlua::{
    prelude::{LuaGcGenParams as GcGenParams, LuaGcIncParams as GcIncParams, LuaGcMode as GcMode},
    AnyUserData, Function, IntoLuaMulti, Lua, LuaOptions, MultiValue, StdLib, Table, Value,
};

use super::api_map::LuaMap;
use super::api_rng::{LuaRng, MathStream};
use super::error::{located, script_location};
use super::error::{FailureKind, ScriptError};
use super::raw::fast::FastState;
use super::raw::guard::{GcHistory, Guard, Stop};
use super::raw::reset::{FixUps, QuickReset};
use super::run_state::HostState;
use super::Modules;
use crate::map::Map;
use crate::rng::Rng;

/// How much a run may consume before it is stopped with a clear error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lua VM instructions over the whole run (load and generate).
    pub max_instructions: u64,
    /// Bytes the run may hold: Lua's heap plus what the host keeps for the
    /// script (selections, distance maps, markers, indexes, the replay).
    pub max_memory: usize,
    /// The wall-clock deadline of one run, the last safety net behind the
    /// budget (which is deterministic; the clock is not).
    pub timeout: Option<Duration>,
}

/// How the caller raises each limit, as the messages of a run stopped by
/// one name it: the command line's flags, or a game's own calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitNames {
    pub instructions: &'static str,
    pub memory: &'static str,
    pub timeout: &'static str,
    pub attempts: &'static str,
}

impl LimitNames {
    /// `dunlua`'s flags (a [`Request`](super::Request)'s default).
    pub const COMMAND_LINE: LimitNames = LimitNames {
        instructions: "--max-instructions",
        memory: "--max-memory",
        timeout: "--timeout",
        attempts: "--max-attempts",
    };
    /// The Rust library's (a [`Generator`](crate::Generator)'s default).
    pub const RUST: LimitNames = LimitNames {
        instructions: "Limits::max_instructions",
        memory: "Limits::max_memory",
        timeout: "Limits::timeout",
        attempts: "GeneratorBuilder::max_attempts",
    };
    /// The C ABI's (`capi/include/dunlua.h`; the LÖVE binding's too).
    pub const C: LimitNames = LimitNames {
        instructions: "dunlua_generator_set_limits's max_instructions",
        memory: "dunlua_generator_set_limits's max_memory_mb",
        timeout: "dunlua_generator_set_limits's timeout_seconds",
        attempts: "dunlua_generator_set_max_attempts",
    };
    /// The Python binding's keyword arguments.
    pub const PYTHON: LimitNames = LimitNames {
        instructions: "budget=",
        memory: "memory=",
        timeout: "timeout=",
        attempts: "max_attempts=",
    };
}

impl Default for LimitNames {
    fn default() -> Self {
        LimitNames::COMMAND_LINE
    }
}

impl Limits {
    pub const DEFAULT_INSTRUCTIONS: u64 = 400_000_000;
    pub const DEFAULT_MEMORY_MB: usize = 512;
    pub const DEFAULT_TIMEOUT_SECS: u64 = 10;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_instructions: Self::DEFAULT_INSTRUCTIONS,
            max_memory: Self::DEFAULT_MEMORY_MB << 20,
            timeout: Some(Duration::from_secs(Self::DEFAULT_TIMEOUT_SECS)),
        }
    }
}

/// The standard libraries mlua opens for a script (the base library always
/// comes); `string`, `table` and `utf8` are dunlua's charged copies, opened
/// by [`Vm::new`].
pub(crate) fn safe_libs() -> StdLib {
    StdLib::MATH | StdLib::COROUTINE
}

// Lua 5.4's default incremental collector settings (`lgc.h`), restored
// after a run that changed them (or went incremental: `raw::guard`).
use super::raw::guard::{GC_PAUSE, GC_STEP_MULTIPLIER, GC_STEP_SIZE};
/// How deep mlua's pool of error boxes is refilled before every run:
/// deeper than scripts usually nest host calls (a module's chunk calling
/// the API is 2 deep; each module requiring another adds one). A run
/// nesting deeper makes a box per extra level that mlua keeps, so a VM's
/// first run counts more memory than later ones there; each level costs
/// about 2,000 instructions after every run that raised an error.
const POOL_DEPTH: u32 = 8;

/// Lua 5.4's default generational settings (`lgc.h`), the mode every run
/// starts in: the host's objects stay old, so the reset's collection only
/// looks at what the last run made.
const GC_GEN_MINOR: c_int = 20;
const GC_GEN_MAJOR: c_int = 100;

/// What `raw::reset` needs to make a run's globals: the key counts of the
/// host's globals and strings' metatable, and for each library (every
/// other table in them) its overlay metatable: reads go through to the
/// library, `getmetatable` says nothing (so no script can change it), and
/// `pairs` visits the overlay's own entries and the library's others. A
/// library holding a table is refused: its inner table would be shared.
const OVERLAYS: &str = r#"
local G, strings_mt = ...
local next, type, error, tostring = next, type, error, tostring
local counts, overlays = {}, {}
local function count(t)
  local n = 0
  for _ in next, t do n = n + 1 end
  counts[t] = n
end
count(G)
count(strings_mt)
local function overlay(name, library)
  if overlays[library] or library == G then return end
  for k, v in next, library do
    if type(v) == "table" then
      error("host library " .. tostring(name) .. " holds a table (" .. tostring(k) .. "); each run would share it")
    end
  end
  overlays[library] = {
    __index = library,
    __metatable = false,
    __pairs = function(own)
      local merged = {}
      for k, v in next, library do merged[k] = v end
      for k, v in next, own do merged[k] = v end
      return next, merged, nil
    end,
  }
end
for name, v in next, G do
  if type(v) == "table" then overlay(name, v) end
end
for name, v in next, strings_mt do
  if type(v) == "table" then overlay(name, v) end
end
return overlays, counts
"#;

/// What each run's globals and strings' metatable are copied from (see
/// `raw::reset`): never given to a script.
struct Templates {
    globals: Table,
    strings_mt: Table,
    overlay_metatables: Table,
    globals_fix_ups: FixUps,
    strings_mt_fix_ups: FixUps,
}

/// A sandboxed VM, reused run after run (see the module doc).
pub(crate) struct Vm {
    pub lua: Lua,
    /// The script path as the user gave it, for messages without a line.
    script: String,
    limits: Limits,
    /// How the caller raises them, as messages name it.
    names: LimitNames,
    /// The budget, memory limit and deadline of the current run.
    pub(crate) guard: Rc<Guard>,
    /// Set from another thread to cancel the runs of this VM.
    cancel: Option<Arc<AtomicBool>>,
    /// The deadline of the run under way (all its attempts), if one began.
    deadline: std::cell::Cell<Option<std::time::Instant>>,
    /// What `raw::reset` copies: the host's globals and strings' metatable
    /// as set up, never given to a script, through templates of a run's
    /// copies of them.
    host_globals: Table,
    host_strings_mt: Table,
    templates: Templates,
    /// The run's globals (see `raw::reset`).
    env: RefCell<Option<Table>>,
    /// Calls itself through mlua [`POOL_DEPTH`] deep (see `Vm::reset`).
    nest: Function,
    /// Whether `nest` has filled mlua's pool once.
    pool_filled: Cell<bool>,
    /// Lua's bytes after the last full collection at a reset: what a heap
    /// holding nothing of earlier runs weighs.
    base_bytes: Cell<Option<usize>>,
    /// The map and rng the fast paths may use during a run.
    pub(crate) fast: Rc<FastState>,
    /// Where `math.random` draws from in the current run.
    pub(crate) math_stream: MathStream,
    /// The map type's method table (`__index`), holding the run's size;
    /// `None` when the fast paths are off.
    map_methods: Option<Table>,
    /// The metatable of every run's `params` table (`params_table`).
    pub(crate) params_metatable: Table,
    /// The map and rng userdata every run is handed, made once per VM:
    /// each run lends the map its own ([`LuaMap::refill`]) and starts the
    /// rng's stream (`rng_stream`, the same `LuaRng` as the userdata's).
    pub(crate) run_map: AnyUserData,
    pub(crate) run_rng: AnyUserData,
    pub(crate) rng_stream: LuaRng,
}

/// The map and rng lent to the fast paths for one run; taken back on drop.
pub(crate) struct Lent<'vm>(&'vm FastState);

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.0.detach();
    }
}

impl Vm {
    pub fn new(
        script: &Path,
        modules: &Modules,
        limits: Limits,
        fast_paths: bool,
    ) -> mlua::Result<Vm> {
        let lua = Lua::new_with(safe_libs(), LuaOptions::default())?;
        let guard = Guard::install(&lua, limits.max_memory)?;
        super::raw::libs::open_charged_libs(&lua)?;
        lua.set_app_data(HostState::fresh());
        sandbox(&lua)?;
        super::object_names::install(&lua)?;
        wrap_print(&lua)?;
        install_reject(&lua)?;
        super::require::install_require(&lua, script, modules.clone(), limits.max_memory)?;
        super::api_rect::register(&lua)?;
        super::api_tiles::register(&lua)?;
        super::api_prefab::register(&lua)?;
        super::api_graph::register(&lua)?;
        super::api_markers::register(&lua)?;
        super::api_wfc::register(&lua)?;
        let math_stream = super::api_rng::install_math_random(&lua)?;
        make_userdata_metatables(&lua)?;
        let run_map = lua.create_userdata(LuaMap::empty())?;
        let rng_stream = LuaRng::new(Rng::new(0));
        let run_rng = lua.create_userdata(rng_stream.clone())?;
        let host_globals = lua.globals();
        let host_strings_mt: Table = lua
            .load("return getmetatable('')")
            .set_name("=sandbox")
            .eval()?;
        let (overlays, key_counts): (Table, Table) = lua
            .load(OVERLAYS)
            .set_name("=sandbox")
            .call((&host_globals, &host_strings_mt))?;
        let (template_globals, template_strings_mt) = super::raw::reset::templates_function(&lua)?
            .call::<(Table, Table)>((&host_globals, &host_strings_mt, &overlays, &key_counts))?;
        let (overlay_metatables, globals_fix_ups, strings_mt_fix_ups) = lua
            .load(super::raw::reset::FIX_UPS)
            .set_name("=sandbox")
            .call::<(Table, Table, Table)>((&host_globals, &host_strings_mt, &overlays))?;
        let templates = Templates {
            globals_fix_ups: FixUps::of(&lua, &template_globals, &globals_fix_ups)?,
            strings_mt_fix_ups: FixUps::of(&lua, &template_strings_mt, &strings_mt_fix_ups)?,
            globals: template_globals,
            strings_mt: template_strings_mt,
            overlay_metatables,
        };
        let nest = lua.create_function(|_, (me, depth): (Function, u32)| {
            if depth > 1 {
                me.call::<()>((me.clone(), depth - 1))?;
            }
            Ok(())
        })?;
        let params_metatable = super::params_table::metatable(&lua)?;
        super::raw::fields::install_keys(&lua)?;
        super::raw::reset::mark_host_thread(&lua)?;
        let fast = FastState::new();
        let map_methods = if fast_paths {
            let sample_map = Map::new(1, 1).map_err(mlua::Error::external)?;
            Some(super::raw::fast::install(
                &lua,
                &fast,
                &lua.create_userdata(LuaMap::new(sample_map, None))?,
                &lua.create_userdata(LuaRng::new(Rng::new(0)))?,
            )?)
        } else {
            None
        };
        Ok(Vm {
            lua,
            script: script.display().to_string(),
            limits,
            names: LimitNames::COMMAND_LINE,
            guard,
            cancel: None,
            deadline: std::cell::Cell::new(None),
            host_globals,
            host_strings_mt,
            templates,
            env: RefCell::new(None),
            base_bytes: Cell::new(None),
            nest,
            pool_filled: Cell::new(false),
            fast,
            math_stream,
            map_methods,
            params_metatable,
            run_map,
            run_rng,
            rng_stream,
        })
    }

    /// Lends this run's map and rng to the fast paths until the guard drops.
    pub fn lend(&self, map: &AnyUserData, rng: &AnyUserData) -> mlua::Result<Lent<'_>> {
        if let Some(methods) = &self.map_methods {
            let (width, height) = self.fast.attach(map, rng)?;
            super::raw::fields::set_size(&self.lua, methods, width.into(), height.into())?;
        }
        Ok(Lent(&self.fast))
    }

    /// Starts the clock of a run of several attempts: every reset until
    /// [`Vm::end_run`] keeps the same deadline.
    pub fn begin_run(&self) {
        let deadline = self.deadline_from_now();
        self.deadline.set(deadline);
    }

    /// When the timeout ends if it starts now; none when there is no
    /// timeout, or it ends past what the clock can hold (`Duration::MAX`
    /// given by a library caller), which is never.
    fn deadline_from_now(&self) -> Option<std::time::Instant> {
        self.limits
            .timeout
            .and_then(|t| std::time::Instant::now().checked_add(t))
    }

    /// Ends the run begun by [`Vm::begin_run`].
    pub fn end_run(&self) {
        self.deadline.set(None);
        self.guard.end_run();
    }

    /// The run's globals (after [`Vm::reset`]).
    pub fn env(&self) -> mlua::Result<Table> {
        self.env
            .borrow()
            .clone()
            .ok_or_else(|| mlua::Error::runtime("no run under way"))
    }

    /// Compiles a script's main chunk as a run would be timed: Lua's
    /// parser runs no instruction, so only the alarm (see `raw::guard`) can
    /// stop a source made to parse slowly.
    ///
    /// What it returns is not the chunk but a maker of it: called with a
    /// run's globals, it returns a new closure of the chunk whose `_ENV` is
    /// those globals. The chunk is compiled inside `local _ENV = ...; return
    /// function(...) <source> end` (the source starting on line 1, so lines
    /// are the file's), after compiling the source alone so that a syntax
    /// error reads as it would. A new closure per run, rather than the same
    /// closure re-pointed, keeps the run's globals out of the old generation
    /// of the collector (an old closure made to point at them would keep
    /// them alive past the run), and whatever a script assigns to `_ENV`
    /// lives only as long as its run.
    pub fn compile(&self, source: String, name: String) -> mlua::Result<Function> {
        let source = super::require::as_file_chunk(source);
        let deadline = self.deadline_from_now();
        self.guard.set_deadline(deadline, self.cancel.clone());
        let compile = |text: &str| {
            self.lua
                .load(text)
                .set_name(name.clone())
                .set_mode(mlua::chunk::ChunkMode::Text)
                .into_function()
        };
        let compiled = compile(&source).and_then(|_| {
            compile(&format!(
                "local _ENV = ...; return function(...) {source}\nend"
            ))
        });
        if compiled.is_ok() {
            super::require::preload(&self.lua, &source);
        }
        self.guard.set_deadline(None, None);
        compiled
    }

    /// How the messages of a stopped run name the limits.
    pub fn set_limit_names(&mut self, names: LimitNames) {
        self.names = names;
        self.guard.set_budget_name(names.instructions);
    }

    /// Lets another thread cancel this VM's runs by setting `flag`.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Makes a used VM as good as new for the next run (see the module
    /// doc): a full budget and the deadline armed, nothing of the last run
    /// left in the heap, new globals over the host's tables,
    /// the collector in its default mode, an empty module cache, no script
    /// tiles.
    pub fn reset(&self) -> mlua::Result<()> {
        let deadline = self.deadline.get().or_else(|| self.deadline_from_now());
        self.guard
            .start_run(self.limits.max_instructions, deadline, self.cancel.clone());
        // Everything the last run made becomes garbage: its globals, its
        // module cache and tostring numbers.
        if let Some(mut state) = self.lua.app_data_mut::<HostState>() {
            *state = HostState::fresh();
        }
        self.env.borrow_mut().take();
        // A run that failed left its map lent: dropped now, as a run's own
        // map userdata was by this reset's collection.
        if let Ok(map) = self.run_map.borrow::<LuaMap>() {
            map.clear();
        }
        let history = self.guard.take_gc_history();
        // The common case in one call (raw/reset.rs): a run that raised no
        // error, left the collector as it was and whose heap one or two
        // minor collections free.
        let quick = match self.base_bytes.get() {
            Some(base)
                if self.pool_filled.get()
                    && !history.touched
                    && history.peak < base.saturating_mul(2) =>
            {
                let t = &self.templates;
                let guard = &self.guard;
                super::raw::reset::quick_reset(
                    &self.lua,
                    [&self.host_globals, &self.host_strings_mt],
                    [&t.globals, &t.strings_mt, &t.overlay_metatables],
                    [&t.globals_fix_ups, &t.strings_mt_fix_ups],
                    (GC_GEN_MINOR, GC_GEN_MAJOR),
                    base,
                    || guard.lua_bytes(),
                )?
            }
            _ => QuickReset::Throws(0),
        };
        // What the quick path took of the count of errors is not there
        // to be taken again.
        let (collected_quickly, threw) = match quick {
            QuickReset::Done(env) => {
                *self.env.borrow_mut() = Some(env);
                self.guard.mark_run_base();
                return Ok(());
            }
            QuickReset::Collect => (true, false),
            QuickReset::Throws(throws) => (false, throws > 0),
        };
        if !collected_quickly {
            // mlua keeps a box ready for an error per level of nested host
            // calls, made on first need; an error takes its box away. Calling
            // through POOL_DEPTH levels refills what the last run's errors took,
            // so a run does not make boxes (memory, collector pacing) that
            // another run would not. Only an error takes a box: after a run
            // that raised none, the pool is as full as it was (the refill cost
            // a seventh of an empty script's run).
            if threw || super::raw::reset::take_throws(&self.lua)? > 0 || !self.pool_filled.get() {
                self.nest.call::<()>((self.nest.clone(), POOL_DEPTH))?;
                self.pool_filled.set(true);
                super::raw::reset::take_throws(&self.lua)?;
            }
            super::raw::reset::point_globals_and_settle(
                &self.lua,
                &self.host_globals,
                &self.host_strings_mt,
            )?;
        }
        self.collect_history(history, collected_quickly)?;
        // Objects the run makes get the same ids (what tables hash them
        // by, so `pairs` order) in every run (see raw/lua/lgc.c), the
        // run's globals first.
        let t = &self.templates;
        let env = super::raw::reset::make_fresh_globals(
            &self.lua,
            [&t.globals, &t.strings_mt, &t.overlay_metatables],
            [&t.globals_fix_ups, &t.strings_mt_fix_ups],
        )?;
        *self.env.borrow_mut() = Some(env);
        self.guard.mark_run_base();
        Ok(())
    }

    /// Frees everything earlier runs left, so the heap and the collector
    /// are as after the first reset: the host's objects, all old
    /// (generational mode), and nothing else. One minor collection frees
    /// what the last run made, or two when something of it had a finalizer
    /// (freed a collection after the one that runs it; the run's map and
    /// rng userdata are the VM's own, so a run that made no other userdata
    /// needs one); when Lua's bytes are then not
    /// exactly what they were after the last full collection, something of
    /// the run grew old, and a full collection follows. A run that may have
    /// moved the collector's own state (its heap doubled, so a major
    /// collection may have run; it called `collectgarbage`) gets a full one
    /// at once.
    fn collect_history(&self, history: GcHistory, stepped: bool) -> mlua::Result<()> {
        // Only when a script stopped it: restarting also zeroes the
        // collector's debt.
        if !self.lua.gc_is_running() {
            self.lua.gc_restart();
        }
        if history.touched {
            // Parameters a script set stay in the state whatever the mode.
            self.lua.gc_set_mode(GcMode::Incremental(
                GcIncParams::default()
                    .pause(GC_PAUSE)
                    .step_multiplier(GC_STEP_MULTIPLIER)
                    .step_size(GC_STEP_SIZE),
            ));
        }
        let was = self.lua.gc_set_mode(GcMode::Generational(
            GcGenParams::default()
                .minor_multiplier(GC_GEN_MINOR)
                .minor_to_major(GC_GEN_MAJOR),
        ));
        let quick = match self.base_bytes.get() {
            Some(base) => {
                !stepped
                    && matches!(was, GcMode::Generational(_))
                    && !history.touched
                    && history.peak < base.saturating_mul(2)
            }
            None => false,
        };
        if quick {
            self.lua.gc_step()?;
            self.lua.gc_step()?;
            if Some(self.guard.lua_bytes()) == self.base_bytes.get() {
                return Ok(());
            }
        }
        self.lua.gc_collect()?;
        // A collection frees only half of a thread's spare call frames
        // (`luaE_shrinkCI`): what a run's deepest calls left would stay
        // in a reused VM and not in a fresh one (224 bytes after
        // weak_tables.lua), moving the collector's pacing. Collecting until
        // nothing more is freed leaves none, as in a fresh VM.
        for _ in 0..16 {
            let before = self.guard.lua_bytes();
            self.lua.gc_collect()?;
            if self.guard.lua_bytes() == before {
                break;
            }
        }
        self.base_bytes.set(Some(self.guard.lua_bytes()));
        Ok(())
    }

    /// Calls `func` under the run's guard. A budget, memory, time or
    /// cancel stop cannot be caught inside the script (see `raw::guard`),
    /// so it always ends up here, reported with where it happened.
    pub fn call(&self, func: Function, args: impl IntoLuaMulti) -> Result<Value, ScriptError> {
        let value = func.call::<Value>(args).map_err(|e| self.failure(e))?;
        // A stop the script caught and then returned at once (a budget
        // spent in a coroutine, whose `resume` only returned false) still
        // ends the run: no instruction was left to raise it again.
        match self.guard.stopped() {
            Some(stop) => Err(self.limit_failure(stop, self.guard.stopped_at())),
            None => Ok(value),
        }
    }

    /// Turns an mlua error into what the user sees: the guard's stop, if
    /// the run was stopped, else the error itself.
    pub fn failure(&self, err: mlua::Error) -> ScriptError {
        let mut failure = ScriptError::from_lua(&err);
        let stop = match self.guard.stopped() {
            Some(stop) => stop,
            // Lua's own "not enough memory" with no stop recorded.
            None if failure.kind == FailureKind::Limit => Stop::Memory,
            None => {
                // No line to name (Lua refused the chunk before running
                // it, or the raising frame was a tail call's): the script
                // is named, so the message still says whose error it is.
                // A line the traceback has is better (Lua's "C stack
                // overflow" raised in a C function, `tostring` recursing
                // through `__tostring`, names none of its own).
                if !super::error::has_location(&failure.message)
                    && !failure.message.starts_with(&format!("{}:", self.script))
                {
                    let at = failure
                        .innermost_located_frame()
                        .unwrap_or_else(|| self.script.clone());
                    failure.message = format!("{at}: {}", failure.message);
                }
                return failure;
            }
        };
        // A stop the allocator saw has no line of its own: the error that
        // ended the run (or its innermost script frame) has one.
        let at = self.guard.stopped_at().or_else(|| failure.location());
        let mut stopped = self.limit_failure(stop, at);
        stopped.traceback = failure.traceback;
        stopped
    }

    fn limit_failure(&self, stop: Stop, at: Option<String>) -> ScriptError {
        let at = at.unwrap_or_else(|| self.script.clone());
        let limits = &self.limits;
        let (kind, message) = match stop {
            Stop::Budget => (
                FailureKind::Limit,
                match self.guard.detail() {
                    Some(detail) => format!(
                        "instruction budget of {} exceeded: {detail}; raise it with {}",
                        limits.max_instructions, self.names.instructions
                    ),
                    None => format!(
                        "instruction budget of {} exceeded (a runaway loop?); raise it with {}",
                        limits.max_instructions, self.names.instructions
                    ),
                },
            ),
            Stop::Memory => (
                FailureKind::Limit,
                match self.guard.detail() {
                    // Lua's "not enough memory" with no stop of the guard's:
                    // the system refused the block, not the run's limit.
                    None if self.guard.system_refused().is_some() => format!(
                        "out of memory: the system refused {} with the run at {} of its {} MiB limit (the process's own memory ran out: a ulimit, or other runs at once)",
                        Guard::size_text(self.guard.system_refused().unwrap_or(0)),
                        Guard::size_text(self.guard.memory_used()),
                        limits.max_memory >> 20
                    ),
                    Some(detail) => format!(
                        "memory limit of {} MiB exceeded: {detail}; raise it with {}",
                        limits.max_memory >> 20,
                        self.names.memory
                    ),
                    None => format!(
                        "memory limit of {} MiB exceeded (a table that grows forever?); raise it with {}",
                        limits.max_memory >> 20,
                        self.names.memory
                    ),
                },
            ),
            Stop::Timeout => (
                FailureKind::TimedOut,
                format!(
                    "timed out after {} s ({})",
                    limits.timeout.map(|t| t.as_secs_f64()).unwrap_or(0.0),
                    self.names.timeout
                ),
            ),
            Stop::Cancelled => (FailureKind::Cancelled, "cancelled".to_string()),
            Stop::Stack => (
                FailureKind::Limit,
                "C stack exhausted: the thread running the script has too little stack for calls nested this deep (Lua allows 200; give the thread at least 1 MiB, or nest fewer)".to_string(),
            ),
        };
        ScriptError::new(kind, format!("{at}: {message}"))
    }
}

impl Drop for Vm {
    fn drop(&mut self) {
        self.guard.uninstall();
    }
}

/// Makes every userdata type's metatable now, by making (and dropping) one
/// value of each: mlua makes a type's metatable with its first value, and a
/// run must find the VM as every other run does, not pay for that in its
/// budget (a first `map:select` of a VM cost 842 units more).
fn make_userdata_metatables(lua: &Lua) -> mlua::Result<()> {
    use super::api_selection::{LuaDistance, LuaNoise, LuaSelection};
    use super::budget::Reservation;
    let map = Map::new(1, 1).map_err(mlua::Error::external)?;
    let distances = crate::ops::dijkstra(&map, &[(0, 0)]).map_err(mlua::Error::external)?;
    let noise =
        crate::ops::Noise::new(1, 1, &mut Rng::new(0), 1.0, 1).map_err(mlua::Error::external)?;
    lua.create_userdata(LuaSelection(
        crate::ops::Selection::empty(1, 1),
        Reservation::none(),
    ))?;
    lua.create_userdata(LuaDistance(distances, Reservation::none()))?;
    lua.create_userdata(LuaNoise(noise, Reservation::none()))?;
    lua.create_userdata(super::api_level::LevelView::new(Rc::new(map.clone()), 1))?;
    lua.create_userdata(LuaMap::new(map, None))?;
    lua.create_userdata(LuaRng::new(Rng::new(0)))?;
    lua.create_userdata(super::api_graph::LuaGraph::placeholder())?;
    // Lua's string buffers keep a long text in a userdata whose metatable
    // lauxlib.c makes on first need and keeps in the registry: made here,
    // a VM's first run that builds a long string (string.rep, gsub,
    // table.concat) does not pay 367 bytes a later run does not.
    lua.load("return string.rep('-', 2 * 1024)")
        .set_name("=sandbox")
        .eval::<mlua::LuaString>()?;
    Ok(())
}

/// Removes what could touch the machine or load bytecode; routes `print`
/// to stderr so it never mixes with a map printed on stdout.
fn sandbox(lua: &Lua) -> mlua::Result<()> {
    // A host error the script caught becomes its text; any other value
    // stays as it is.
    let caught_error_text = lua.create_function(|lua, value: Value| match value {
        Value::Error(err) => {
            // What making it cost (mlua's traceback, the message) is paid
            // here, so a pcall loop of them stops at the budget like any
            // loop.
            super::budget::charge(
                lua,
                "catching a host function's error",
                super::cost::CAUGHT_HOST_ERROR_UNITS,
            )?;
            Ok(Value::String(lua.create_string(error_text(&err))?))
        }
        other => Ok(other),
    })?;
    lua.load(
        r#"
        local charge, stopped, typename, charge_heap, run_kbytes, error_text = ...
        dofile, loadfile = nil, nil
        string.dump = nil
        -- Compiling runs no instructions, so its work is charged by size.
        local raw_load, type = load, type
        local find = string.find
        load = function(chunk, name, mode, ...)
          -- Text chunks only, whatever the mode allows besides; a mode that
          -- allows none, or a binary chunk, gives nil and a message, as
          -- Lua's own load does for a chunk its mode refuses ("bt", the
          -- mode of many a library, raised an error).
          if mode ~= nil and type(mode) ~= "string" then
            error("bad argument #3 to 'load' (string expected, got " .. typename(mode) .. ")", 2)
          end
          if mode ~= nil and not find(mode, "t", 1, true) then
            return nil, "attempt to load a chunk with mode '" .. mode:sub(1, 40) .. "': dunlua loads text chunks only (mode 't')"
          end
          if type(chunk) == "string" then
            charge(#chunk)
          elseif type(chunk) == "function" then
            local read = chunk
            chunk = function()
              local piece = read()
              if type(piece) == "string" then charge(#piece) end
              return piece
            end
          end
          local f, e = raw_load(chunk, name, "t", ...)
          if f == nil and type(e) == "userdata" then e = error_text(e) end
          return f, e
        end
        -- Finalizers run with hooks off (lgc.c's GCTM), outside any budget:
        -- a table may not get one.
        local raw_setmetatable, rawget, type, error = setmetatable, rawget, type, error
        local raw_getmetatable, raw_pcall = getmetatable, pcall
        setmetatable = function(t, mt)
          -- Lua's own checks, said at the caller's line.
          if type(t) ~= "table" then
            error("bad argument #1 to 'setmetatable' (table expected, got " .. typename(t) .. ")", 2)
          end
          if mt ~= nil and type(mt) ~= "table" then
            error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
          end
          if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
            error("setmetatable: __gc finalizers are not allowed in dunlua scripts (they would run outside the instruction budget)", 2)
          end
          local old = raw_getmetatable(t)
          if old ~= nil then
            -- getmetatable gives a protected metatable's __metatable field:
            -- anything but a table (the host's params table gives false)
            -- is one, as is a metatable holding the field.
            if type(old) ~= "table" or rawget(old, "__metatable") ~= nil then
              error("cannot change a protected metatable", 2)
            end
            -- A script's own __metatable may itself be a table, which
            -- cannot be told from a real metatable here: Lua refuses, and
            -- the refusal is said at the caller's line, not this one.
            local ok, refused = raw_pcall(raw_setmetatable, t, mt)
            if not ok then error(refused, 2) end
            return t
          end
          return raw_setmetatable(t, mt)
        end
        -- An xpcall handler called for an error the budget hook raised runs
        -- with hooks off (the hook never returned): once the run is
        -- stopped, handlers are skipped so none can keep it alive.
        -- An error message is a quoted value like any other: a string
        -- raised by error or assert is cut short before it travels (into
        -- every pcall that catches it, into the host's report).
        local raw_error, raw_assert, select = error, assert, select
        local function short(message)
          if type(message) == "string" and #message > 2000 then
            return message:sub(1, 2000) .. "... (" .. #message .. " bytes)"
          end
          return message
        end
        _ENV.error = function(message, level)
          level = level == nil and 1 or level
          if type(level) == "number" and level > 0 then level = level + 1 end
          -- Not a tail call: the level counts this function's frame.
          raw_error(short(message), level)
        end
        _ENV.assert = function(v, message, ...)
          if v then return v, message, ... end
          if select('#', message) == 0 then return raw_assert(v) end
          return raw_error(short(message), 0)
        end
        -- An error a host function raised reaches the script as its text
        -- (Lua's way), not as the host's error object: pcall, xpcall's
        -- handler and coroutine.resume hand over the message.
        local function settle(ok, ...)
          if ok then return ok, ... end
          local e = ...
          if type(e) == "userdata" then e = error_text(e) end
          return false, e
        end
        pcall = function(f, ...) return settle(raw_pcall(f, ...)) end
        local raw_resume = coroutine.resume
        coroutine.resume = function(co, ...) return settle(raw_resume(co, ...)) end
        -- (and coroutine.close, load's reader and __close: lfunc.c)
        local raw_close = coroutine.close
        coroutine.close = function(co) return settle(raw_close(co)) end
        local raw_xpcall = xpcall
        xpcall = function(f, handler, ...)
          if type(handler) ~= "function" then return raw_xpcall(f, handler, ...) end
          return raw_xpcall(f, function(e)
            if stopped() then return e end
            if type(e) == "userdata" then e = error_text(e) end
            return handler(e)
          end, ...)
        end
        -- A collection walks the whole heap in one call: charged by its
        -- size first. "count" reports the run's own bytes after collecting,
        -- not the heap's (whose garbage depends on what ran before).
        local raw_collect = collectgarbage
        local options = { collect = true, stop = true, restart = true, count = true, step = true,
          isrunning = true, incremental = true, generational = true, setpause = true, setstepmul = true }
        collectgarbage = function(opt, ...)
          if opt == nil then opt = "collect" end
          if type(opt) ~= "string" or not options[opt] then
            error("bad argument #1 to 'collectgarbage' (invalid option '" .. tostring(opt):sub(1, 40) .. "')", 2)
          end
          -- Charged after collecting, by what is left: the garbage before
          -- depends on when the collector last ran, the live heap does not.
          if opt == "collect" or opt == "count" then
            raw_collect("collect")
            charge_heap(true)
            if opt == "count" then return run_kbytes() end
            return 0
          end
          -- A step may finish a cycle, and a change of mode collects in
          -- full: charged as a collection.
          charge_heap(opt == "step" or opt == "incremental" or opt == "generational")
          return raw_collect(opt, ...)
        end
        -- A yield with no coroutine of the script's own to return to: say
        -- where, instead of Lua's unlocated "attempt to yield from outside
        -- a coroutine".
        local raw_yield, isyieldable = coroutine.yield, coroutine.isyieldable
        coroutine.yield = function(...)
          if not isyieldable() then
            error("coroutine.yield: not inside a coroutine the script created (generate, validate and metamethods called by Lua's C code cannot yield)", 2)
          end
          return raw_yield(...)
        end
        "#,
    )
    .set_name("=sandbox")
    .call::<()>((
        lua.create_function(|lua, bytes: i64| {
            super::budget::charge(lua, "load", super::cost::compiled(bytes.max(0) as u64))
        })?,
        lua.create_function(|lua, ()| {
            Ok(Guard::of(lua).is_some_and(|g| g.stopped().is_some()))
        })?,
        lua.create_function(|_, value: Value| Ok(super::args::type_name(&value)))?,
        lua.create_function(|lua, walks_heap: bool| {
            let Some(guard) = Guard::of(lua) else {
                return Ok(());
            };
            guard.touch_gc();
            let bytes = if walks_heap { guard.lua_bytes() } else { 0 };
            super::budget::charge(lua, "collectgarbage", super::cost::collection(bytes as u64))
        })?,
        lua.create_function(|lua, ()| {
            Ok(Guard::of(lua).map_or(0, |g| g.run_bytes()) as f64 / 1024.0)
        })?,
        &caught_error_text,
    ))?;
    super::raw::install_error_text(lua, &caught_error_text)?;
    lua.globals().set(
        "print",
        lua.create_function(|lua, values: MultiValue| {
            // The line's length is worked out from the arguments in place
            // and charged before a byte of it is copied; a line past what
            // the run may print is never copied at all.
            let mut parts = Vec::with_capacity(values.len().min(256));
            let mut len = values.len().saturating_sub(1);
            for v in values {
                let part = match lua.coerce_string(v.clone())? {
                    Some(s) => Ok(s),
                    // What dunlua's `tostring` gives (`table: #1`, a
                    // `__tostring`'s text; a script's `tostring = f` lands
                    // in its globals, not here), as Lua's own print
                    // writes: "a table" told two tables apart by nothing.
                    None => match lua
                        .named_registry_value::<Function>(super::object_names::REGISTRY_KEY)?
                        .call::<Value>(v)?
                    {
                        Value::String(s) => Ok(s),
                        other => Err(super::args::show(&other)),
                    },
                };
                len = len.saturating_add(match &part {
                    Ok(s) => s.as_bytes().len(),
                    Err(shown) => shown.len(),
                });
                parts.push(part);
            }
            super::budget::charge(
                lua,
                "print",
                (len as u64)
                    .saturating_add(super::cost::PRINT_LINE_UNITS)
                    .saturating_add(parts.len() as u64 * super::cost::PRINT_VALUE_UNITS),
            )?;
            // A run prints at most MAX_PRINTED bytes: a print loop must not
            // fill a disk with its log before the budget stops it.
            let before = lua.app_data_mut::<HostState>().map_or(0, |mut s| {
                let before = s.printed;
                s.printed = s.printed.saturating_add(len.saturating_add(1));
                before
            });
            let mut err = std::io::stderr().lock();
            // A closed stderr is no reason to stop the script.
            if before.saturating_add(len) < MAX_PRINTED {
                let mut line = String::with_capacity(len);
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        line.push('\t');
                    }
                    match part {
                        Ok(s) => line.push_str(&String::from_utf8_lossy(&s.as_bytes())),
                        Err(shown) => line.push_str(shown),
                    }
                }
                let _ = writeln!(err, "{line}");
            } else if before < MAX_PRINTED {
                let _ = writeln!(
                    err,
                    "dunlua: print: this run printed {} MiB; the rest of its output is not shown",
                    MAX_PRINTED >> 20
                );
            }
            Ok(())
        })?,
    )
}

/// `print` as a script calls it: each value that is neither a string nor a
/// number is made text by dunlua's `tostring` (`table: #1`, a
/// `__tostring`'s text) in Lua, then the host's writer (the `print`
/// [`sandbox`] set) writes the line. Called from the host's writer, an
/// error a `__tostring` raised reached a `pcall` as a string holding the
/// sandbox's own frames; raised here, it is the value the script raised.
/// One table for the values, so the work is linear in their number.
fn wrap_print(lua: &Lua) -> mlua::Result<()> {
    let write: Function = lua.globals().get("print")?;
    let print: Function = lua
        .load(
            r##"
            local write, tostring, select, type, unpack = ...
            return function(...)
              local n = select("#", ...)
              local values = { ... }
              for k = 1, n do
                local kind = type(values[k])
                if kind ~= "string" and kind ~= "number" then
                  values[k] = tostring(values[k])
                end
              end
              return write(unpack(values, 1, n))
            end
            "##,
        )
        .set_name("=sandbox")
        .call((
            write,
            lua.globals().get::<Function>("tostring")?,
            lua.globals().get::<Function>("select")?,
            lua.globals().get::<Function>("type")?,
            lua.globals()
                .get::<Table>("table")?
                .get::<Function>("unpack")?,
        ))?;
    lua.globals().set("print", print)
}

/// The text a script sees for an error a host function raised: the
/// innermost cause's message (already located at the script's line).
fn error_text(err: &mlua::Error) -> String {
    let mut inner = err;
    while let mlua::Error::CallbackError { cause, .. } = inner {
        inner = cause;
    }
    match inner {
        mlua::Error::RuntimeError(message) => message.clone(),
        // mlua's own "bad argument `self` to `LuaMap.set`: userdata is not
        // expected type" (a method called with `.` or on another object):
        // in the API's words and at the script's line, as the same mistake
        // uncaught says it.
        mlua::Error::BadArgument { .. } => ScriptError::from_lua(err).message,
        other => other.to_string(),
    }
}

/// The most a run may print, in bytes.
const MAX_PRINTED: usize = 16 << 20;

/// `reject("why")`: this attempt's map is not wanted; the host tries again
/// with the next attempt's stream.
fn install_reject(lua: &Lua) -> mlua::Result<()> {
    let reject = lua.create_function(|lua, why: Value| -> mlua::Result<()> {
        let why = match why {
            Value::Nil => "rejected".to_string(),
            // Kept and shown at most MAX_QUOTED bytes of it (only those are
            // read): a reason is a sentence, not a payload.
            Value::String(s) => super::args::cut(&s),
            other => {
                return Err(located(
                    lua,
                    format!(
                        "reject: reason must be a string, got {}",
                        super::args::show(&other)
                    ),
                ))
            }
        };
        let at = script_location(lua)
            .map(|l| format!("{l}: "))
            .unwrap_or_default();
        if let Some(mut state) = lua.app_data_mut::<HostState>() {
            state.rejected = Some(format!("{at}{why}"));
        }
        Err(mlua::Error::RuntimeError(format!("{at}rejected: {why}")))
    })?;
    lua.globals().set("reject", reject)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heap a reset leaves is the same after a VM's first reset as
    /// after any later one, whatever the run between them did. The first
    /// reset switches the collector to generational mode, which collects
    /// from the base frame while the host settles the main thread from
    /// inside a call: spare call frames counted from the frame in use kept
    /// one fewer in the first reset than in the later ones (64 bytes), and
    /// a reused VM's collector paced differently from a fresh one's.
    #[test]
    fn every_reset_leaves_the_same_heap() {
        let vm = Vm::new(
            std::path::Path::new("x.lua"),
            &Default::default(),
            Limits::default(),
            true,
        )
        .unwrap();
        let mut bases = Vec::new();
        for run in [
            "return 1",
            "local function f(n) if n > 0 then return 1 + f(n - 1) end return 0 end return f(200)",
            "local t = {} for i = 1, 1000 do t[i] = {i} end return #t",
            "return 2",
        ] {
            vm.reset().unwrap();
            bases.push(vm.guard.lua_bytes());
            let chunk = vm.lua.load(run).set_name("@x.lua").into_function().unwrap();
            vm.call(chunk, ()).unwrap();
        }
        vm.reset().unwrap();
        bases.push(vm.guard.lua_bytes());
        assert!(bases.iter().all(|&b| b == bases[0]), "{bases:?}");
    }
}
