//! The sandboxed Lua VM: a fresh state per run with only safe libraries,
//! `print` on stderr, `require` confined to the script's folder, an
//! instruction budget and a memory limit.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_int;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mlua::{
    prelude::{LuaGcIncParams as GcIncParams, LuaGcMode as GcMode},
    AnyUserData, Function, IntoLuaMulti, Lua, LuaOptions, MultiValue, StdLib, Table, Value,
};

use super::api_map::LuaMap;
use super::api_rng::{LuaRng, MathStream};
use super::error::{located, script_location};
use super::error::{FailureKind, ScriptError};
use super::raw::fast::FastState;
use super::raw::guard::{Guard, Stop};
use super::Modules;
use crate::map::{Map, TileSet};
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

/// Lua 5.4's default incremental collector settings (`lgc.h`), restored
/// before every run.
const GC_PAUSE: c_int = 200;
const GC_STEP_MULTIPLIER: c_int = 100;
const GC_STEP_SIZE: c_int = 13;

/// What the host keeps about one run, reachable from every API function.
pub(crate) struct HostState {
    /// Kinds defined before the map exists; moved into it by `generate`.
    pub pending_tiles: TileSet,
    /// The map while `generate` runs.
    pub map: Option<AnyUserData>,
    /// Every file `require` loaded, for hot reload.
    pub modules: Vec<PathBuf>,
    /// Why the script called `reject`, if it did (even if a `pcall` caught it).
    pub rejected: Option<String>,
    /// `require`'s cache of loaded modules.
    pub loaded: Option<Table>,
    /// Bytes `print` wrote in this run.
    pub printed: usize,
    /// The objects `tostring` numbered in this run (see `object_names`).
    pub object_names: Option<Table>,
    /// How many it numbered.
    pub named_objects: u64,
}

impl HostState {
    fn fresh() -> HostState {
        HostState {
            pending_tiles: TileSet::builtin(),
            map: None,
            modules: Vec::new(),
            rejected: None,
            loaded: None,
            printed: 0,
            object_names: None,
            named_objects: 0,
        }
    }
}

/// Snapshots the globals as the host set them up: every table reachable
/// from `_G` (the library tables, `Rect`, `tiles`, ...) and the strings'
/// shared metatable. Returns a flat list `t1, saved1,
/// size1, t2, ...` (each table, its copy, the copy's number of keys) for
/// `raw::reset::restore_tables`; the copies live only there, out of any script's reach.
const SNAPSHOT: &str = r#"
local G, pairs, type, next = _G, pairs, type, next
local list, seen = {}, {}
local function add(t)
  if seen[t] then return end
  seen[t] = true
  local c, n = {}, 0
  for k, v in next, t do c[k] = v n = n + 1 end
  list[#list + 1] = t
  list[#list + 1] = c
  list[#list + 1] = n
  for _, v in next, t do
    if type(v) == "table" then add(v) end
  end
end
add(G)
add(getmetatable(""))
return list
"#;

/// A fresh sandboxed VM for one run.
pub(crate) struct Vm {
    pub lua: Lua,
    /// The script path as the user gave it, for messages without a line.
    script: String,
    limits: Limits,
    /// The budget, memory limit and deadline of the current run.
    pub(crate) guard: Rc<Guard>,
    /// Set from another thread to cancel the runs of this VM.
    cancel: Option<Arc<AtomicBool>>,
    /// The deadline of the run under way (all its attempts), if one began.
    deadline: std::cell::Cell<Option<std::time::Instant>>,
    /// `raw::reset::restore_tables`, and the snapshot it restores (taken once the
    /// host's globals are in place).
    restore: Function,
    snapshot: Table,
    /// The map and rng the fast paths may use during a run.
    pub(crate) fast: Rc<FastState>,
    /// Where `math.random` draws from in the current run.
    pub(crate) math_stream: MathStream,
    /// The map type's method table (`__index`), holding the run's size;
    /// `None` when the fast paths are off.
    map_methods: Option<Table>,
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
        install_reject(&lua)?;
        install_require(&lua, script, modules.clone())?;
        super::api_rect::register(&lua)?;
        super::api_tiles::register(&lua)?;
        let math_stream = super::api_rng::install_math_random(&lua)?;
        let snapshot: Table = lua.load(SNAPSHOT).set_name("=snapshot").eval()?;
        let restore = super::raw::reset::restore_function(&lua)?;
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
            guard,
            cancel: None,
            deadline: std::cell::Cell::new(None),
            restore,
            snapshot,
            fast,
            math_stream,
            map_methods,
        })
    }

    /// Lends this run's map and rng to the fast paths until the guard drops.
    pub fn lend(&self, map: &AnyUserData, rng: &AnyUserData) -> mlua::Result<Lent<'_>> {
        if let Some(methods) = &self.map_methods {
            let (width, height) = self.fast.attach(map, rng)?;
            methods.raw_set("width", width)?;
            methods.raw_set("height", height)?;
        }
        Ok(Lent(&self.fast))
    }

    /// Starts the clock of a run of several attempts: every reset until
    /// [`Vm::end_run`] keeps the same deadline.
    pub fn begin_run(&self) {
        let deadline = self.limits.timeout.map(|t| std::time::Instant::now() + t);
        self.deadline.set(deadline);
    }

    /// Ends the run begun by [`Vm::begin_run`].
    pub fn end_run(&self) {
        self.deadline.set(None);
    }

    /// Compiles a script's main chunk as a run would be timed: Lua's
    /// parser runs no instruction, so only the allocator's look at the
    /// clock (see `raw::guard`) can stop a source made to parse slowly.
    pub fn compile(&self, source: String, name: String) -> mlua::Result<Function> {
        let deadline = self.limits.timeout.map(|t| std::time::Instant::now() + t);
        self.guard.set_deadline(deadline, self.cancel.clone());
        let compiled = self
            .lua
            .load(source)
            .set_name(name)
            .set_mode(mlua::chunk::ChunkMode::Text)
            .into_function();
        self.guard.set_deadline(None, None);
        compiled
    }

    /// Lets another thread cancel this VM's runs by setting `flag`.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Makes a used VM as good as new for the next run: the globals and
    /// library tables as the host set them up, the garbage collector in its
    /// default mode, an empty module cache, no script tiles, a full budget
    /// and a new deadline. What a script did to them in an earlier run
    /// cannot reach the next one.
    pub fn reset(&self) -> mlua::Result<()> {
        let deadline = self
            .deadline
            .get()
            .or_else(|| self.limits.timeout.map(|t| std::time::Instant::now() + t));
        self.guard
            .start_run(self.limits.max_instructions, deadline, self.cancel.clone());
        self.restore.call::<()>(&self.snapshot)?;
        // Only when a script stopped it: restarting also zeroes the
        // collector's debt, which would make every run start with GC work.
        if !self.lua.gc_is_running() {
            self.lua.gc_restart();
        }
        self.lua.gc_set_mode(GcMode::Incremental(
            GcIncParams::default()
                .pause(GC_PAUSE)
                .step_multiplier(GC_STEP_MULTIPLIER)
                .step_size(GC_STEP_SIZE),
        ));
        if let Some(mut state) = self.lua.app_data_mut::<HostState>() {
            *state = HostState::fresh();
        }
        Ok(())
    }

    /// Calls `func` under the run's guard. A budget, memory, time or
    /// cancel stop cannot be caught inside the script (see `raw::guard`),
    /// so it always ends up here, reported with where it happened.
    pub fn call(&self, func: Function, args: impl IntoLuaMulti) -> Result<Value, ScriptError> {
        func.call::<Value>(args).map_err(|e| self.failure(e))
    }

    /// Turns an mlua error into what the user sees: the guard's stop, if
    /// the run was stopped, else the error itself.
    pub fn failure(&self, err: mlua::Error) -> ScriptError {
        let failure = ScriptError::from_lua(&err);
        let stop = match self.guard.stopped() {
            Some(stop) => stop,
            // Lua's own "not enough memory" with no stop recorded.
            None if failure.kind == FailureKind::Limit => Stop::Memory,
            None => return failure,
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
                        "instruction budget of {} exceeded: {detail}; raise it with --max-instructions",
                        limits.max_instructions
                    ),
                    None => format!(
                        "instruction budget of {} exceeded (a runaway loop?); raise it with --max-instructions",
                        limits.max_instructions
                    ),
                },
            ),
            Stop::Memory => (
                FailureKind::Limit,
                format!(
                    "memory limit of {} MiB exceeded (a table that grows forever?); raise it with --max-memory",
                    limits.max_memory >> 20
                ),
            ),
            Stop::Timeout => (
                FailureKind::TimedOut,
                format!(
                    "timed out after {} s (--timeout)",
                    limits.timeout.map(|t| t.as_secs_f64()).unwrap_or(0.0)
                ),
            ),
            Stop::Cancelled => (FailureKind::Cancelled, "cancelled".to_string()),
        };
        ScriptError::new(kind, format!("{at}: {message}"))
    }
}

impl Drop for Vm {
    fn drop(&mut self) {
        self.guard.uninstall();
    }
}

/// Removes what could touch the machine or load bytecode; routes `print`
/// to stderr so it never mixes with a map printed on stdout.
fn sandbox(lua: &Lua) -> mlua::Result<()> {
    lua.load(
        r#"
        local charge, stopped, typename = ...
        dofile, loadfile = nil, nil
        string.dump = nil
        -- Compiling runs no instructions, so its work is charged by size.
        local raw_load, type = load, type
        load = function(chunk, name, mode, ...)
          if mode ~= nil and mode ~= "t" then
            error("load: only text chunks are allowed (mode \"t\")", 2)
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
          return raw_load(chunk, name, "t", ...)
        end
        -- Finalizers run with hooks off (lgc.c's GCTM), outside any budget:
        -- a table may not get one.
        local raw_setmetatable, rawget, type, error = setmetatable, rawget, type, error
        local raw_getmetatable = getmetatable
        setmetatable = function(t, mt)
          -- Lua's own checks, said at the caller's line.
          if type(t) ~= "table" then
            error("bad argument #1 to 'setmetatable' (table expected, got " .. typename(t) .. ")", 2)
          end
          if mt ~= nil and type(mt) ~= "table" then
            error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
          end
          local old = raw_getmetatable(t)
          if type(old) == "table" and rawget(old, "__metatable") ~= nil then
            error("cannot change a protected metatable", 2)
          end
          if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
            error("setmetatable: __gc finalizers are not allowed in dunlua scripts (they would run outside the instruction budget)", 2)
          end
          return raw_setmetatable(t, mt)
        end
        -- An xpcall handler called for an error the budget hook raised runs
        -- with hooks off (the hook never returned): once the run is
        -- stopped, handlers are skipped so none can keep it alive.
        local raw_xpcall = xpcall
        xpcall = function(f, handler, ...)
          if type(handler) ~= "function" then return raw_xpcall(f, handler, ...) end
          return raw_xpcall(f, function(e)
            if stopped() then return e end
            return handler(e)
          end, ...)
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
    ))?;
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
                    None => Err(super::args::show(&v)),
                };
                len = len.saturating_add(match &part {
                    Ok(s) => s.as_bytes().len(),
                    Err(shown) => shown.len(),
                });
                parts.push(part);
            }
            super::budget::charge(lua, "print", len as u64)?;
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

/// The folder `require` searches: the script's own.
fn script_folder(script: &Path) -> PathBuf {
    match script.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn valid_module_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// The largest script or module file dunlua reads.
pub(crate) const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads a script or module source: a regular file of at most
/// [`MAX_SOURCE_BYTES`] (not a FIFO or a device that would block or never end).
/// The error says why, without naming the file (the caller does).
pub(crate) fn read_source(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    check_source_size(meta.len())?;
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// A script or module of `bytes` is refused when larger than [`MAX_SOURCE_BYTES`].
pub(crate) fn check_source_size(bytes: u64) -> Result<(), String> {
    if bytes > MAX_SOURCE_BYTES {
        return Err(format!(
            "{bytes} bytes is more than the {} MiB a script may have",
            MAX_SOURCE_BYTES >> 20
        ));
    }
    Ok(())
}

/// A module's source from what the caller supplied, by its path relative
/// to the script's folder.
fn supplied_module(modules: &Modules, relative: &str) -> Result<String, String> {
    let found = match modules {
        Modules::Folder => None,
        Modules::Map(map) => map.get(relative).cloned(),
        Modules::Loader(load) => load(relative)
            .map_err(|why| format!("refused: the game's loader: {relative}: {why}"))?,
    };
    let source = found
        .ok_or_else(|| format!("not found: no {relative} among the modules the game supplied"))?;
    check_source_size(source.len() as u64).map_err(|e| format!("refused: {relative}: {e}"))?;
    Ok(source)
}

/// A module's source, if its real path (symlinks resolved) lies inside the
/// script's real folder `root` and is a regular file.
fn read_module(root: &Path, path: &Path) -> Result<String, String> {
    let real = path
        .canonicalize()
        .map_err(|e| format!("not found: cannot read {}: {e}", path.display()))?;
    let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    if !real.starts_with(&real_root) {
        return Err(format!(
            "refused: {} leads to {}, outside the script's folder {}",
            path.display(),
            real.display(),
            real_root.display()
        ));
    }
    read_source(&real).map_err(|e| format!("refused: cannot read {}: {e}", path.display()))
}

/// `require(name)`: loads `name.lua` (dots are folders) from the script's
/// folder only (or from the modules the caller supplied, by the same
/// relative path), once per run, and records the file for hot reload.
fn install_require(lua: &Lua, script: &Path, modules: Modules) -> mlua::Result<()> {
    let root = script_folder(script);
    let compiled_modules: RefCell<HashMap<PathBuf, Function>> = RefCell::default();
    let require = lua.create_function(move |lua, name: Value| {
        let name = match &name {
            Value::String(s) => s.to_string_lossy(),
            other => {
                return Err(located(
                    lua,
                    format!("require: module name must be a string, got {}", super::args::show(other)),
                ))
            }
        };
        if !valid_module_name(&name) {
            return Err(located(
                lua,
                format!("require: bad module name {name:?}: use names like \"lib.doors\" (letters, digits, _ and dots)"),
            ));
        }
        let cached = lua.app_data_ref::<HostState>().and_then(|s| s.loaded.clone());
        let loaded = match cached {
            Some(t) => t,
            None => {
                let t = lua.create_table()?;
                if let Some(mut state) = lua.app_data_mut::<HostState>() {
                    state.loaded = Some(t.clone());
                }
                t
            }
        };
        match loaded.raw_get::<Value>(name.as_str())? {
            Value::Nil => {}
            Value::Boolean(false) => {
                return Err(located(lua, format!("require: module '{name}' requires itself in a cycle")))
            }
            value => return Ok(value),
        }
        let relative = format!("{}.lua", name.replace('.', "/"));
        // Named as the user would write it: `lib/doors.lua` beside a script
        // in the current folder, not `./lib/doors.lua`.
        let path = if root == Path::new(".") {
            PathBuf::from(&relative)
        } else {
            root.join(&relative)
        };
        // Compiled once per VM: a VM reused across seeds runs the module's
        // code afresh each run but reads and parses the file only once.
        let compiled = compiled_modules.borrow().get(&path).cloned();
        let chunk = match compiled {
            Some(f) => f,
            None => {
                let source = match &modules {
                    Modules::Folder => read_module(&root, &path),
                    supplied => supplied_module(supplied, &relative),
                }
                .map_err(|e| located(lua, format!("require: module '{name}' {e}")))?;
                super::budget::charge(lua, "require", super::cost::compiled(source.len() as u64))?;
                let f = lua
                    .load(source)
                    .set_name(format!("@{}", path.display()))
                    .set_mode(mlua::chunk::ChunkMode::Text)
                    .into_function()?;
                compiled_modules.borrow_mut().insert(path.clone(), f.clone());
                f
            }
        };
        loaded.raw_set(name.as_str(), false)?;
        if let Some(mut state) = lua.app_data_mut::<HostState>() {
            state.modules.push(path.clone());
        }
        let result: Value = match chunk.call(name.as_str()) {
            Ok(v) => v,
            Err(e) => {
                // A failed module is not loaded: a later require (after a
                // pcall caught this one) tries again instead of reporting a cycle.
                loaded.raw_set(name.as_str(), Value::Nil)?;
                return Err(e);
            }
        };
        let value = if result.is_nil() { Value::Boolean(true) } else { result };
        loaded.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })?;
    lua.globals().set("require", require)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_stay_inside_the_folder() {
        assert!(valid_module_name("lib.doors"));
        assert!(valid_module_name("helpers"));
        assert!(!valid_module_name("../etc/passwd"));
        assert!(!valid_module_name("lib..x"));
        assert!(!valid_module_name("/abs"));
        assert!(!valid_module_name(""));
    }

    #[test]
    fn script_folder_of_a_bare_name_is_here() {
        assert_eq!(script_folder(Path::new("rooms.lua")), PathBuf::from("."));
        assert_eq!(
            script_folder(Path::new("scripts/rooms.lua")),
            PathBuf::from("scripts")
        );
    }
}
