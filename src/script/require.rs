//! `require`: modules from the script's own folder (or from the sources a
//! game supplied), compiled once per VM into bytecode by a separate Lua
//! state and loaded afresh in every run, so a module's closure, its `_ENV`
//! and whatever it keeps in upvalues never outlive the run that loaded it,
//! and the first run of a VM pays and allocates exactly what a later one
//! does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use mlua::{Function, Lua, LuaOptions, StdLib, Value};

use super::error::located;
use super::raw::guard::Guard;
use super::run_state::HostState;
use super::Modules;

/// A file's text as Lua's own `lua` loads a file (`luaL_loadfilex`): a
/// UTF-8 byte-order mark (which some editors write) is skipped, and a
/// first line starting with `#` (`#!/usr/bin/env lua`) is read as an empty
/// one, so every later line keeps its number.
pub(crate) fn as_file_chunk(source: String) -> String {
    let text = source.strip_prefix('\u{feff}').unwrap_or(&source);
    if text.starts_with('#') {
        return text
            .find('\n')
            .map_or_else(String::new, |at| text[at..].to_string());
    }
    if text.len() == source.len() {
        source
    } else {
        text.to_string()
    }
}

/// The folder `require` searches: the script's own.
fn script_folder(script: &Path) -> PathBuf {
    match script.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file `require(name)` reads for the script at `script`, or `None`
/// for a name `require` refuses (what the window watches for when a module
/// was not found, by the same rule).
#[cfg(feature = "window")]
pub(crate) fn module_file(script: &Path, name: &str) -> Option<PathBuf> {
    valid_module_name(name)
        .then(|| script_folder(script).join(format!("{}.lua", name.replace('.', "/"))))
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
        let source = as_file_chunk(source);
        // A compile stopped by its deadline (preloading's is short) left
        // its stop in this state's guard, which no run resets: every later
        // compile failed at once, with "memory limit exceeded" (Lua gives
        // up on a refused block, which the guard takes for the limit).
        self.guard.clear_stop();
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

/// What `require` keeps for the VM's life: the script's folder and where
/// modules come from, each module's bytecode once compiled, and the
/// modules found before the first run (see [`preload`]) as functions in
/// the VM, of which each run gets a new closure.
struct Loader {
    root: PathBuf,
    modules: Modules,
    memory_limit: usize,
    /// By path.
    compiled: RefCell<HashMap<PathBuf, Compiled>>,
    compiler: RefCell<Option<Compiler>>,
    /// By path: the modules loaded before the first run, and their
    /// sources' lengths.
    loaded: RefCell<HashMap<PathBuf, (Function, usize)>>,
    /// By path: the modules each compiled module names literally.
    names: RefCell<HashMap<PathBuf, Vec<String>>>,
    /// By module name: its relative path and path ([`Loader::path_of`]),
    /// worked out once (a run's `require` formatted them again: 2,000
    /// instructions of a 20,000-instruction `require`).
    paths: RefCell<HashMap<String, (String, PathBuf)>>,
}

impl Loader {
    /// Where module `name` is: `lib/doors.lua` beside a script in the
    /// current folder (as the user would write it, not `./lib/doors.lua`).
    fn path_of(&self, name: &str) -> (String, PathBuf) {
        if let Some(known) = self.paths.borrow().get(name) {
            return known.clone();
        }
        let found = self.work_out_path(name);
        let mut paths = self.paths.borrow_mut();
        // Bounded like the names a script can make up: past it, worked out every time.
        if paths.len() < MAX_PATHS_KEPT {
            paths.insert(name.to_string(), found.clone());
        }
        found
    }

    fn work_out_path(&self, name: &str) -> (String, PathBuf) {
        let relative = format!("{}.lua", name.replace('.', "/"));
        let path = if self.root == Path::new(".") {
            PathBuf::from(&relative)
        } else {
            self.root.join(&relative)
        };
        (relative, path)
    }

    /// The bytecode of the module at `path` and its source's length,
    /// compiled on first need (its source read from the folder or the
    /// game's modules). `pay` is given the source's length once, before
    /// the compile on first need: what every run is charged for the
    /// module, compiled then or not.
    fn bytecode(
        &self,
        relative: &str,
        path: &Path,
        vm: &Guard,
        pay: impl FnOnce(usize) -> mlua::Result<()>,
    ) -> Result<Compiled, ModuleError> {
        let known = self.compiled.borrow().get(path).cloned();
        if let Some(known) = known {
            pay(known.1).map_err(ModuleError::Lua)?;
            return Ok(known);
        }
        let source = match &self.modules {
            Modules::Folder => read_module(&self.root, path),
            supplied => supplied_module(supplied, relative),
        }
        .map_err(ModuleError::Source)?;
        let source_len = source.len();
        pay(source_len).map_err(ModuleError::Lua)?;
        self.names
            .borrow_mut()
            .insert(path.to_path_buf(), required_names(&source));
        if self.compiler.borrow().is_none() {
            *self.compiler.borrow_mut() =
                Some(Compiler::new(self.memory_limit).map_err(ModuleError::Lua)?);
        }
        let bytes = self
            .compiler
            .borrow()
            .as_ref()
            .expect("made above")
            .compile(vm, source, format!("@{}", path.display()))
            .map_err(ModuleError::Lua)?;
        let entry = (std::rc::Rc::<[u8]>::from(bytes), source_len);
        self.compiled
            .borrow_mut()
            .insert(path.to_path_buf(), entry.clone());
        Ok(entry)
    }
}

/// Why a module could not be compiled.
enum ModuleError {
    /// Not found or refused: what `require` says after the module's name.
    Source(String),
    /// Lua's own error (a syntax error, the deadline).
    Lua(mlua::Error),
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
    let loader = Rc::new(Loader {
        root: script_folder(script),
        modules,
        memory_limit,
        compiled: RefCell::default(),
        compiler: RefCell::default(),
        loaded: RefCell::default(),
        names: RefCell::default(),
        paths: RefCell::default(),
    });
    lua.set_app_data(LoaderRef(loader.clone()));
    let require = lua.create_function(move |lua, name: Value| {
        // The script's own string is the cache's key: a key given as a
        // `&str` is made a Lua string again in a protected call of its own.
        let (name, key) = match &name {
            Value::String(s) if s.as_bytes().len() <= MAX_MODULE_NAME => (s.to_string_lossy(), s.clone()),
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
        match loaded.raw_get::<Value>(&key)? {
            Value::Nil => {}
            Value::Boolean(false) => {
                return Err(located(lua, format!("require: module '{name}' requires itself in a cycle")))
            }
            value => return Ok(value),
        }
        let (relative, path) = loader.path_of(&name);
        // Loaded before the first run: a new closure of it, with this
        // run's globals, as loading the bytecode would give.
        let template = loader.loaded.borrow().get(&path).cloned();
        let chunk = match template {
            Some((function, source_len)) => {
                super::budget::charge(lua, "require", super::cost::compiled(source_len as u64))?;
                super::raw::reset::reclose(lua, &function)?
            }
            None => {
                let guard = Guard::of(lua).ok_or_else(|| mlua::Error::runtime("require: no run under way"))?;
                let pay = |len: usize| super::budget::charge(lua, "require", super::cost::compiled(len as u64));
                let (bytecode, _) = loader.bytecode(&relative, &path, &guard, pay).map_err(|e| match e {
                    ModuleError::Lua(e) => e,
                    ModuleError::Source(e) => {
                        // Lua's own words for a missing module; "require:" for the rest.
                        let prefix = if e.starts_with("not found") { "" } else { "require: " };
                        located(lua, format!("{prefix}module '{name}' {e}"))
                    }
                })?;
                lua.load(&bytecode[..])
                    .set_mode(mlua::chunk::ChunkMode::Binary)
                    .into_function()?
            }
        };
        loaded.raw_set(&key, false)?;
        if let Some(mut state) = lua.app_data_mut::<HostState>() {
            state.modules.push(path.clone());
        }
        let result: Value = match chunk.call(&key) {
            Ok(v) => v,
            Err(e) => {
                // A failed module is not loaded: a later require (after a
                // pcall caught this one) tries again instead of reporting a cycle.
                loaded.raw_set(&key, Value::Nil)?;
                return Err(e);
            }
        };
        let value = if result.is_nil() { Value::Boolean(true) } else { result };
        loaded.raw_set(&key, value.clone())?;
        Ok(value)
    })?;
    lua.globals().set("require", require)
}

/// `source` with its comments blanked out (strings kept, so a `--` inside
/// one is no comment): where [`required_names`] looks.
fn without_comments(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    // The level of a long bracket opening at `at` (`[[` is 0, `[==[` 2).
    let long_bracket = |at: usize| -> Option<usize> {
        if bytes.get(at) != Some(&b'[') {
            return None;
        }
        let level = bytes[at + 1..].iter().take_while(|b| **b == b'=').count();
        (bytes.get(at + 1 + level) == Some(&b'[')).then_some(level)
    };
    // Where the long bracket of `level` that starts at `at` ends.
    let close = |at: usize, level: usize| -> usize {
        let closing = format!("]{}]", "=".repeat(level));
        match source[at..].find(&closing) {
            Some(k) => at + k + closing.len(),
            None => bytes.len(),
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                let end = match long_bracket(i + 2) {
                    Some(level) => close(i + 2, level),
                    None => source[i..].find('\n').map_or(bytes.len(), |k| i + k),
                };
                for b in &mut out[i..end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
                i = end;
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'[' => match long_bracket(i) {
                Some(level) => i = close(i, level),
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced (by spaces), so the text stays UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Keeps the VM's [`Loader`] where [`preload`] finds it.
struct LoaderRef(Rc<Loader>);

/// The most modules loaded before the first run, the largest source one
/// may have, all of theirs together, and the longest the loading may take:
/// a module named but not required in a run (under a condition) is loaded
/// for nothing and stays in every run's heap, so big or slow ones are left
/// to `require`.
const MAX_PRELOADED: usize = 64;
const MAX_PRELOADED_SOURCE: usize = 256 << 10;
const MAX_PRELOADED_SOURCES: usize = 1 << 20;
const PRELOAD_TIME: std::time::Duration = std::time::Duration::from_millis(100);

/// Loads into the VM, before its first run, the modules (from the
/// script's folder or the texts a game gave, not through its loader
/// function) that `source` names in literal calls (`require("lib.doors")`, `require "x"`), and
/// those they name in turn: a run then makes a new closure of each (a few
/// hundred instructions) instead of loading its bytecode again (a sixth of
/// a `rooms.lua` run went to loading `lib/features.lua`). A run is what it
/// was: the module's chunk runs afresh in every run with the run's own
/// globals, is charged as if compiled, and whatever it keeps in upvalues
/// lives only as long as the run. Loaded before the first run, the
/// functions (and the strings they hold) are part of every run's starting
/// heap alike, in a fresh VM as in a reused one.
///
/// A module that cannot be found or compiled now is left to `require`,
/// which reports it at its line, as before; so is one past the caps above.
/// Called under the deadline of the script's compilation (which may stop a
/// compile); [`PRELOAD_TIME`] ends the preloading sooner.
pub(crate) fn preload(lua: &Lua, source: &str) {
    let Some(loader) = lua.app_data_ref::<LoaderRef>().map(|l| l.0.clone()) else {
        return;
    };
    // A game's loader function is called only when a run requires (it may
    // not be ready while its generator is being built: the C ABI's loader
    // gets the generator's handle, which does not exist yet).
    if matches!(loader.modules, Modules::Loader(_)) {
        return;
    }
    let Some(guard) = Guard::of(lua) else {
        return;
    };
    // Compiles and loads stop at the sooner of the compile's deadline and
    // this one (a slow compile is then left to the run, under its own).
    let until = Instant::now() + PRELOAD_TIME;
    let (deadline, cancel) = (guard.deadline(), guard.cancel_flag());
    guard.set_deadline(
        Some(deadline.map_or(until, |d| d.min(until))),
        cancel.clone(),
    );
    preload_names(lua, &loader, &guard, required_names(source), until);
    guard.set_deadline(deadline, cancel);
    // A load stopped by the short deadline leaves nothing for what follows.
    guard.clear_stop();
}

/// Preloads `names` and the modules they name, until `until`.
fn preload_names(lua: &Lua, loader: &Loader, guard: &Guard, names: Vec<String>, until: Instant) {
    let mut queue: std::collections::VecDeque<String> = names.into();
    let mut seen = std::collections::HashSet::new();
    let mut total = 0;
    while let Some(name) = queue.pop_front() {
        let out_of_time = Instant::now() >= until;
        if loader.loaded.borrow().len() >= MAX_PRELOADED || out_of_time {
            return;
        }
        if !valid_module_name(&name) || !seen.insert(name.clone()) {
            continue;
        }
        let (relative, path) = loader.path_of(&name);
        let small = |len: usize| {
            if len > MAX_PRELOADED_SOURCE || total + len > MAX_PRELOADED_SOURCES {
                return Err(mlua::Error::runtime("left to require"));
            }
            Ok(())
        };
        let Ok((bytecode, source_len)) = loader.bytecode(&relative, &path, guard, small) else {
            continue;
        };
        total += source_len;
        let Ok(function) = lua
            .load(&bytecode[..])
            .set_mode(mlua::chunk::ChunkMode::Binary)
            .into_function()
        else {
            continue;
        };
        loader
            .loaded
            .borrow_mut()
            .insert(path.clone(), (function, source_len));
        if let Some(names) = loader.names.borrow().get(&path) {
            queue.extend(names.iter().cloned());
        }
    }
}

/// The module names `source` passes to `require` as a literal string, in
/// its code (not its comments): the word `require`, then `(` or not, then
/// a quoted name.
fn required_names(source: &str) -> Vec<String> {
    let code = without_comments(source);
    let source = code.as_str();
    let bytes = source.as_bytes();
    let mut names = Vec::new();
    let mut from = 0;
    while let Some(at) = source[from..].find("require") {
        let start = from + at;
        from = start + "require".len();
        // `myrequire(...)` is another function.
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let mut i = from;
        let skip_space = |mut i: usize| {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            i
        };
        i = skip_space(i);
        if i < bytes.len() && bytes[i] == b'(' {
            i = skip_space(i + 1);
        }
        let Some(&quote) = bytes.get(i).filter(|q| **q == b'"' || **q == b'\'') else {
            continue;
        };
        let name_start = i + 1;
        let mut end = name_start;
        while end < bytes.len()
            && end - name_start <= MAX_MODULE_NAME
            && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b'.')
        {
            end += 1;
        }
        if bytes.get(end) == Some(&quote) && end > name_start {
            names.push(source[name_start..end].to_string());
        }
    }
    names
}

/// A module's bytecode, and its source's length (what every run is
/// charged for compiling it, cached or not).
type Compiled = (std::rc::Rc<[u8]>, usize);

/// The longest module name `require` takes.
const MAX_MODULE_NAME: usize = 256;

/// The most module names whose paths [`Loader::path_of`] keeps.
const MAX_PATHS_KEPT: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    /// A module's compile stopped by its deadline (preloading gives one
    /// 100 ms) leaves the compiler as it found it: its stop stayed in the
    /// compiler's guard, which no run resets, and every later compile in
    /// that VM failed at once, reported as "memory limit exceeded" (the C
    /// ABI's fuzzer found it under valgrind, where `lib/features.lua` took
    /// longer than 100 ms to preload).
    #[test]
    fn a_compile_stopped_at_its_deadline_leaves_the_next_one_working() {
        let vm = Lua::new();
        let vm_guard = Guard::install(&vm, 1 << 30).unwrap();
        let compiler = Compiler::new(1 << 30).unwrap();
        let source =
            "local t = {}\n".to_string() + &"t[#t + 1] = 'x'\n".repeat(2000) + "return t\n";
        // Cancelled (what a deadline passing does, without the watchdog
        // thread's timing): the compile is stopped.
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        vm_guard.set_deadline(None, Some(cancel));
        let stopped = compiler.compile(&vm_guard, source.clone(), "@late.lua".into());
        assert!(stopped.is_err(), "a cancelled compile stops");
        vm_guard.set_deadline(None, None);
        let again = compiler.compile(&vm_guard, source, "@late.lua".into());
        assert!(again.is_ok(), "{:?}", again.err());
        vm_guard.uninstall();
    }

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
    fn literal_requires_are_found() {
        let source = r#"
            local a = require("lib.doors")
            local b = require 'helpers'
            local c = require ( "x_y.z" )
            local d = myrequire("not.this")
            local e = require(name)
            local f = require("bad name")
            -- require "in.a.comment"
            --[==[ require "in.a.long.comment" ]==]
            local g = "-- not a comment" .. require "after.a.string"
            local h = [[ -- ]] .. require "after.a.long.string"
        "#;
        assert_eq!(
            required_names(source),
            [
                "lib.doors",
                "helpers",
                "x_y.z",
                "after.a.string",
                "after.a.long.string"
            ]
        );
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
