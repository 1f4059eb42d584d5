//! The sandboxed Lua VM: a fresh state per run with only safe libraries,
//! `print` on stderr, `require` confined to the script's folder, an
//! instruction budget and a memory limit.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{
    AnyUserData, Function, HookTriggers, IntoLuaMulti, Lua, LuaOptions, MultiValue, StdLib, Table,
    Value, VmState,
};

use super::api_map::LuaMap;
use super::api_rng::{LuaRng, MathStream};
use super::args::{located, script_location};
use super::error::{FailureKind, ScriptError};
use super::raw::fast::FastState;
use crate::map::{Map, TileSet};
use crate::rng::Rng;

/// How much a run may consume before it is stopped with a clear error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lua VM instructions over the whole run (load and generate).
    pub max_instructions: u64,
    /// Bytes the Lua heap may hold (the map's tiles live in Rust, outside it).
    pub max_memory: usize,
}

impl Limits {
    pub const DEFAULT_INSTRUCTIONS: u64 = 1_000_000_000;
    pub const DEFAULT_MEMORY_MB: usize = 512;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_instructions: Self::DEFAULT_INSTRUCTIONS,
            max_memory: Self::DEFAULT_MEMORY_MB << 20,
        }
    }
}

/// The standard libraries a script gets (the base library always comes).
pub(crate) fn safe_libs() -> StdLib {
    StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE
}

/// How often the budget hook runs; the budget is counted in these steps.
const HOOK_EVERY: u32 = 1000;

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
}

impl HostState {
    fn fresh() -> HostState {
        HostState {
            pending_tiles: TileSet::builtin(),
            map: None,
            modules: Vec::new(),
            rejected: None,
            loaded: None,
        }
    }
}

/// Snapshots the globals as the host set them up: every top-level name and
/// every field of the library tables. Returns a flat list `t1, saved1,
/// size1, t2, ...` (each table, its copy, the copy's number of keys) for
/// `raw::reset::restore_tables`; the copies live only there, out of any script's reach.
const SNAPSHOT: &str = r#"
local G, pairs, type = _G, pairs, type
local list = {}
local function add(t)
  local c, n = {}, 0
  for k, v in pairs(t) do c[k] = v n = n + 1 end
  list[#list + 1] = t
  list[#list + 1] = c
  list[#list + 1] = n
end
add(G)
for _, v in pairs(G) do
  if type(v) == "table" and v ~= G then add(v) end
end
return list
"#;

/// A fresh sandboxed VM for one run.
pub(crate) struct Vm {
    pub lua: Lua,
    /// The script path as the user gave it, for messages without a line.
    script: String,
    limits: Limits,
    budget: Rc<Budget>,
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

/// The instruction budget shared by every call of one run.
#[derive(Default)]
struct Budget {
    used: Cell<u64>,
    /// Where the script was when the budget ran out.
    spent_at: RefCell<Option<String>>,
    /// Hook calls since the budget ran out that could not yield.
    stuck: Cell<u64>,
}

impl Vm {
    pub fn new(script: &Path, limits: Limits, fast_paths: bool) -> mlua::Result<Vm> {
        let lua = Lua::new_with(safe_libs(), LuaOptions::default())?;
        lua.set_app_data(HostState::fresh());
        sandbox(&lua)?;
        install_reject(&lua)?;
        install_require(&lua, script)?;
        super::api_rect::register(&lua)?;
        super::api_tiles::register(&lua)?;
        lua.set_memory_limit(limits.max_memory)?;
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
            budget: Rc::default(),
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

    /// Makes a used VM as good as new for the next run: the globals and
    /// library tables as the host set them up, an empty module cache, no
    /// script tiles, a full instruction budget. What a script did to them
    /// in an earlier run cannot reach the next one.
    pub fn reset(&self) -> mlua::Result<()> {
        self.restore.call::<()>(&self.snapshot)?;
        if let Some(mut state) = self.lua.app_data_mut::<HostState>() {
            *state = HostState::fresh();
        }
        self.budget.used.set(0);
        self.budget.stuck.set(0);
        *self.budget.spent_at.borrow_mut() = None;
        Ok(())
    }

    /// Calls `func` as a coroutine under the instruction budget. When the
    /// budget runs out the hook *yields* rather than raising, so no `pcall`
    /// in the script can catch the stop; the abandoned coroutine is dropped.
    pub fn call(&self, func: Function, args: impl IntoLuaMulti) -> Result<Value, ScriptError> {
        let fail = |e: mlua::Error| self.failure(e);
        let thread = self.lua.create_thread(func).map_err(fail)?;
        let budget = self.budget.clone();
        let max = self.limits.max_instructions;
        thread
            .set_hook(
                HookTriggers::new().every_nth_instruction(HOOK_EVERY),
                move |lua, debug| {
                    budget
                        .used
                        .set(budget.used.get().saturating_add(HOOK_EVERY as u64));
                    if budget.used.get() <= max {
                        return Ok(VmState::Continue);
                    }
                    if budget.spent_at.borrow().is_none() {
                        let at = debug
                            .current_line()
                            .and_then(|line| Some(format!("{}:{line}", debug.source().short_src?)))
                            .or_else(|| script_location(lua));
                        *budget.spent_at.borrow_mut() = Some(at.unwrap_or_default());
                    }
                    // A yield that cannot happen (inside a C call such as
                    // require) returns here; then raise to leave that call.
                    budget.stuck.set(budget.stuck.get() + 1);
                    if budget.stuck.get().is_multiple_of(2) {
                        return Err(mlua::Error::RuntimeError(
                            "instruction budget exceeded".into(),
                        ));
                    }
                    Ok(VmState::Yield)
                },
            )
            .map_err(fail)?;
        let result = thread.resume::<Value>(args);
        if let Some(at) = self.budget.spent_at.borrow().as_ref() {
            let at = if at.is_empty() {
                String::new()
            } else {
                format!("{at}: ")
            };
            return Err(ScriptError::new(
                FailureKind::Limit,
                format!(
                    "{at}instruction budget of {max} exceeded (a runaway loop?); raise it with --max-instructions"
                ),
            ));
        }
        let value = result.map_err(fail)?;
        if thread.status() == mlua::thread::ThreadStatus::Resumable {
            return Err(ScriptError::contract(format!(
                "{}: the script yielded outside a coroutine of its own; dunlua does not resume it",
                self.script
            )));
        }
        Ok(value)
    }

    /// Turns an mlua error into what the user sees, naming the limit hit.
    pub fn failure(&self, err: mlua::Error) -> ScriptError {
        let mut failure = ScriptError::from_lua(&err);
        if failure.kind == FailureKind::Limit {
            failure.message = format!(
                "memory limit of {} MiB exceeded (a table that grows forever?); raise it with --max-memory",
                self.limits.max_memory >> 20
            );
            failure.traceback.clear();
        }
        failure
    }
}

/// Removes what could touch the machine or load bytecode; routes `print`
/// to stderr so it never mixes with a map printed on stdout.
fn sandbox(lua: &Lua) -> mlua::Result<()> {
    lua.load(
        r#"
        dofile, loadfile = nil, nil
        string.dump = nil
        local raw_load = load
        load = function(chunk, name, mode, ...)
          if mode ~= nil and mode ~= "t" then
            error("load: only text chunks are allowed (mode \"t\")", 2)
          end
          return raw_load(chunk, name, "t", ...)
        end
        "#,
    )
    .set_name("=sandbox")
    .exec()?;
    lua.globals().set(
        "print",
        lua.create_function(|lua, values: MultiValue| {
            let mut parts = Vec::with_capacity(values.len());
            for v in values {
                parts.push(match lua.coerce_string(v.clone())? {
                    Some(s) => s.to_string_lossy(),
                    None => super::args::show(&v),
                });
            }
            eprintln!("{}", parts.join("\t"));
            Ok(())
        })?,
    )
}

/// `reject("why")`: this attempt's map is not wanted; the host tries again
/// with the next attempt's stream.
fn install_reject(lua: &Lua) -> mlua::Result<()> {
    let reject = lua.create_function(|lua, why: Value| -> mlua::Result<()> {
        let why = match why {
            Value::Nil => "rejected".to_string(),
            Value::String(s) => s.to_string_lossy(),
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

/// `require(name)`: loads `name.lua` (dots are folders) from the script's
/// folder only, once per run, and records the file for hot reload.
fn install_require(lua: &Lua, script: &Path) -> mlua::Result<()> {
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
        let path = root.join(format!("{}.lua", name.replace('.', "/")));
        // Compiled once per VM: a VM reused across seeds runs the module's
        // code afresh each run but reads and parses the file only once.
        let compiled = compiled_modules.borrow().get(&path).cloned();
        let chunk = match compiled {
            Some(f) => f,
            None => {
                let source = std::fs::read_to_string(&path).map_err(|e| {
                    located(
                        lua,
                        format!("require: module '{name}' not found: cannot read {}: {e}", path.display()),
                    )
                })?;
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
        let result: Value = chunk.call(name.as_str())?;
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
