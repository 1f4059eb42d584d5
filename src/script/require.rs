//! `require`: modules from the script's own folder (or from the sources a
//! game supplied), compiled once per VM into bytecode by a separate Lua
//! state and loaded afresh in every run, so a module's closure, its `_ENV`
//! and whatever it keeps in upvalues never outlive the run that loaded it,
//! and the first run of a VM pays and allocates exactly what a later one
//! does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use mlua::{Function, Lua, LuaOptions, StdLib, Value};

use super::error::located;
use super::raw::guard::Guard;
use super::run_state::HostState;
use super::Modules;

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

/// Reads a script or module source: a regular file of at most
/// [`files::SOURCE`](crate::files::SOURCE)'s cap, as every input file is
/// read (see [`crate::files`]). The error says why, without naming the
/// file (the caller does).
pub(crate) fn read_source(path: &Path) -> Result<String, String> {
    crate::files::read_text(path, crate::files::SOURCE).map_err(|e| e.to_string())
}

/// A script or module of `bytes` is refused when larger than
/// [`files::SOURCE`](crate::files::SOURCE)'s cap.
pub(crate) fn check_source_size(bytes: u64) -> Result<(), String> {
    crate::files::SOURCE
        .check_size(bytes)
        .map_err(|e| e.to_string())
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

/// Compiles module sources outside the VM, so compiling leaves nothing in
/// the VM's heap (its garbage, its interned strings) that a later run would
/// not also have. Guarded like the VM: the same memory limit, and the VM's
/// deadline while it compiles.
struct Compiler {
    lua: Lua,
    guard: std::rc::Rc<Guard>,
}

impl Compiler {
    fn new(memory_limit: usize) -> mlua::Result<Compiler> {
        let lua = Lua::new_with(StdLib::NONE, LuaOptions::default())?;
        let guard = Guard::install(&lua, memory_limit)?;
        Ok(Compiler { lua, guard })
    }

    /// The bytecode of `source` (with its line information), named `name`
    /// (`@lib/doors.lua`); compiled under `vm`'s deadline and cancel flag.
    fn compile(&self, vm: &Guard, source: String, name: String) -> mlua::Result<Vec<u8>> {
        self.guard.set_deadline(vm.deadline(), vm.cancel_flag());
        let compiled = self
            .lua
            .load(source)
            .set_name(name)
            .set_mode(mlua::chunk::ChunkMode::Text)
            .into_function();
        self.guard.set_deadline(None, None);
        let bytes = compiled?.dump(false);
        self.lua.gc_collect()?;
        Ok(bytes)
    }
}

impl Drop for Compiler {
    fn drop(&mut self) {
        self.guard.uninstall();
    }
}

/// `require(name)`: loads `name.lua` (dots are folders) from the script's
/// folder only (or from the modules the caller supplied, by the same
/// relative path), once per run, and records the file for hot reload.
pub(crate) fn install_require(
    lua: &Lua,
    script: &Path,
    modules: Modules,
    memory_limit: usize,
) -> mlua::Result<()> {
    let root = script_folder(script);
    // By path.
    let compiled: RefCell<HashMap<PathBuf, Compiled>> = RefCell::default();
    let compiler: RefCell<Option<Compiler>> = RefCell::default();
    let require = lua.create_function(move |lua, name: Value| {
        let name = match &name {
            Value::String(s) if s.as_bytes().len() <= MAX_MODULE_NAME => s.to_string_lossy(),
            Value::String(s) => {
                return Err(located(
                    lua,
                    format!(
                        "require: module name is {} bytes; at most {MAX_MODULE_NAME}",
                        s.as_bytes().len()
                    ),
                ))
            }
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
        let known = compiled.borrow().get(&path).cloned();
        let (bytecode, source_len) = match known {
            Some(known) => known,
            None => {
                let source = match &modules {
                    Modules::Folder => read_module(&root, &path),
                    supplied => supplied_module(supplied, &relative),
                }
                .map_err(|e| {
                    // Lua's own words for a missing module; "require:" for the rest.
                    let prefix = if e.starts_with("not found") { "" } else { "require: " };
                    located(lua, format!("{prefix}module '{name}' {e}"))
                })?;
                let source_len = source.len();
                super::budget::charge(lua, "require", super::cost::compiled(source_len as u64))?;
                let guard = Guard::of(lua).ok_or_else(|| mlua::Error::runtime("require: no run under way"))?;
                if compiler.borrow().is_none() {
                    *compiler.borrow_mut() = Some(Compiler::new(memory_limit)?);
                }
                let bytes = compiler
                    .borrow()
                    .as_ref()
                    .expect("made above")
                    .compile(&guard, source, format!("@{}", path.display()))?;
                let entry = (std::rc::Rc::<[u8]>::from(bytes), source_len);
                compiled.borrow_mut().insert(path.clone(), entry.clone());
                // Charged once here; every later run below.
                (entry.0, 0)
            }
        };
        if source_len > 0 {
            super::budget::charge(lua, "require", super::cost::compiled(source_len as u64))?;
        }
        let chunk: Function = lua
            .load(&bytecode[..])
            .set_mode(mlua::chunk::ChunkMode::Binary)
            .into_function()?;
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

/// A module's bytecode, and its source's length (what every run is
/// charged for compiling it, cached or not).
type Compiled = (std::rc::Rc<[u8]>, usize);

/// The longest module name `require` takes.
const MAX_MODULE_NAME: usize = 256;

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
