//! [`Session`]: a script compiled once into a VM that runs seed after seed,
//! each run from a reset VM; the attempts of a run, the contract checks on
//! what the script returns, and the bench loop.

use std::path::Path;

use mlua::{Function, Table, Value};

use std::rc::Rc;

use super::api_level::LevelView;
use super::api_map::LuaMap;
use super::host::Vm;
use super::require::{check_source_size, read_source};
use super::run_state::HostState;
use super::{
    args, attempt_seed, level_seed, FailureKind, Request, ScriptError, ScriptInfo, Stairs,
    DEFAULT_SIZE, MAX_DUNGEON_CELLS, MAX_LEVELS,
};
use crate::generated::{Generated, Provenance};
use crate::map::{self, Map};
use crate::params::{ParamValue, Params};
use crate::replay::Journal;
use crate::rng::Rng;

/// A script compiled into a VM that is reused run after run (each run
/// starts from a reset VM, so runs cannot see each other): what `check`,
/// `bench` and batch callers use to avoid paying for a new VM per seed.
pub struct Session {
    request: Request,
    pub(super) vm: Vm,
    /// Makes the script's main chunk for a run (see `Vm::compile`).
    chunk: Function,
    /// The map of the last rejected attempt, when the request keeps them.
    last_rejected: std::cell::RefCell<Option<(u32, Map)>>,
    /// The script's path as maps and messages name it, made once (a
    /// run's provenance copies it: formatting it cost 1% of a run).
    shown: String,
}

/// One run's view of the script: its returned table and what it declares.
struct Loaded {
    generate: Function,
    validate: Option<Function>,
    info: ScriptInfo,
}

impl Session {
    /// Reads and compiles the script in a new sandboxed VM.
    pub fn new(request: &Request) -> Result<Session, ScriptError> {
        let _entered = enter()?;
        Session::open(request)
    }

    /// [`Session::new`] once the stack is known to be enough (not inlined:
    /// its frame is the big one).
    #[inline(never)]
    fn open(request: &Request) -> Result<Session, ScriptError> {
        // What the command line's --max-memory allows at least: under it,
        // Lua itself cannot start ("cannot start Lua: memory error").
        if request.limits.max_memory < 1 << 20 {
            return Err(ScriptError::usage(format!(
                "a memory limit of {} bytes is too small to start Lua: give at least 1 MiB ({})",
                request.limits.max_memory, request.limit_names.memory
            )));
        }
        let path = &request.script;
        let shown = path.display().to_string();
        // The name is the chunk's name, a C string inside Lua (mlua said
        // "invalid name: nul byte found in provided data at position 1").
        if shown.contains('\0') {
            return Err(ScriptError::usage(format!(
                "script {}: a script's name cannot hold a NUL byte",
                crate::one_line::one_line(&shown)
            )));
        }
        let source = match &request.source {
            Some(text) => check_source_size(text.len() as u64)
                .map(|()| text.to_string())
                .map_err(|e| ScriptError::usage(format!("script {shown}: {e}")))?,
            None => read_source(path)
                .map_err(|e| ScriptError::usage(format!("cannot read script {shown}: {e}")))?,
        };
        let mut vm =
            Vm::new(path, &request.modules, request.limits, request.fast_paths).map_err(|e| {
                ScriptError::new(FailureKind::Runtime, format!("cannot start Lua: {e}"))
            })?;
        vm.set_cancel(request.cancel.clone());
        vm.set_limit_names(request.limit_names);
        let chunk = vm
            .compile(source, format!("@{shown}"))
            .map_err(|e| vm.failure(e))?;
        Ok(Session {
            request: request.clone(),
            vm,
            chunk,
            last_rejected: Default::default(),
            shown,
        })
    }

    /// Resets the VM, runs the chunk with a stream for `seed` and checks
    /// the table it returns.
    fn load(&self, seed: u64) -> Result<Loaded, ScriptError> {
        let vm = &self.vm;
        // Only an error names the script (formatting the path cost 1% of
        // an empty run).
        let shown = self.request.script.display();
        vm.reset().map_err(|e| vm.failure(e))?;
        // The VM's one rng, started on this run's stream.
        *vm.rng_stream.0.borrow_mut() = Rng::new(seed);
        vm.math_stream.route(&vm.rng_stream);
        let main: Function = self
            .chunk
            .call(vm.env().map_err(|e| vm.failure(e))?)
            .map_err(|e| vm.failure(e))?;
        let returned = vm.call(main, ())?;
        let Value::Table(table) = returned else {
            return Err(ScriptError::contract(format!(
                "{shown}: the script must return a table with a generate function, got {}",
                args::show(&returned)
            )));
        };
        let (fields, keys) =
            super::raw::fields::script_fields(&vm.lua, &table).map_err(|e| vm.failure(e))?;
        // A key of the script's own is looked at only when there is one:
        // one close to a field's name is a typo (`widht = 40` made an
        // 80-wide map, `validte` never ran).
        if keys > fields.iter().filter(|v| !v.is_nil()).count() {
            if let Some((key, field)) = misspelled_field(&vm.lua, &table) {
                return Err(ScriptError::contract(format!(
                    "{shown}: the returned table has '{key}', which is no field of a script: did you mean {field}?"
                )));
            }
        }
        let [generate, validate, declared @ ..] = fields;
        let generate = match generate {
            Value::Function(f) => f,
            other => {
                let hint = match other {
                    Value::Nil => misspelled(&vm.lua, &table, "generate")
                        .map(|key| format!(" (the table has '{key}': did you mean generate?)"))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                return Err(ScriptError::contract(format!(
                    "{shown}: the returned table needs generate = function(map, rng, params), got {}{hint}",
                    args::show(&other)
                )));
            }
        };
        let validate = match validate {
            Value::Nil => None,
            Value::Function(f) => Some(f),
            other => {
                return Err(ScriptError::contract(format!(
                    "{shown}: validate must be a function(map), got {}",
                    args::show(&other)
                )))
            }
        };
        let mut info =
            read_info(&vm.lua, declared, &self.request.script).map_err(ScriptError::contract)?;
        // Only a run given parameters can be told one is undeclared: then,
        // and only then, a key like `parms` is looked for.
        if info.params.is_empty()
            && (!self.request.params.is_empty() || !self.request.values.is_empty())
        {
            if let Some(key) = misspelled(&vm.lua, &table, "params") {
                info.params = std::mem::take(&mut info.params).misspelled_as(key);
            }
        }
        Ok(Loaded {
            generate,
            validate,
            info,
        })
    }

    /// The map the script rejected last (with `Request::keep_rejected`)
    /// and its level: what a seed rejected on every attempt looked like at
    /// the end.
    pub fn take_rejected(&self) -> Option<(u32, Map)> {
        self.last_rejected.take()
    }

    /// What the script declares, without generating.
    pub fn inspect(&self) -> Result<ScriptInfo, ScriptError> {
        let _entered = enter()?;
        self.read_declared()
    }

    #[inline(never)]
    fn read_declared(&self) -> Result<ScriptInfo, ScriptError> {
        self.load(self.request.seed).map(|loaded| loaded.info)
    }

    /// Generates the map for `seed` with the session's parameters and size:
    /// attempt 0 on the seed and, while the script rejects its map
    /// (`reject(...)` or `validate` returning false), further attempts on
    /// derived streams, up to `max_attempts`.
    ///
    /// A multi-level script's run is its first level; see
    /// [`run_levels`](Self::run_levels).
    pub fn run(&self, seed: u64) -> Result<Generated, ScriptError> {
        let _entered = enter()?;
        self.run_first_level(seed)
    }

    #[inline(never)]
    fn run_first_level(&self, seed: u64) -> Result<Generated, ScriptError> {
        // One deadline for every attempt: rerolls cannot stretch --timeout.
        self.vm.begin_run();
        let result = self.attempts(seed, 1, None, 0);
        self.vm.end_run();
        result
    }

    /// Generates every level of the dungeon for `seed`, in order, each
    /// handed the one above as `ctx.above`; one `--timeout` covers them
    /// all. A failure names its level.
    pub fn run_levels(&self, seed: u64) -> Result<Vec<Generated>, ScriptError> {
        let _entered = enter()?;
        self.run_every_level(seed)
    }

    #[inline(never)]
    fn run_every_level(&self, seed: u64) -> Result<Vec<Generated>, ScriptError> {
        self.vm.begin_run();
        let mut levels: Vec<Generated> = Vec::new();
        let mut failure = None;
        // What the finished levels hold, counted against each later
        // level's memory limit: a dungeon cannot keep 32 times the limit.
        let mut carried = 0;
        loop {
            let level = levels.len() as u32 + 1;
            let above = levels.last().map(|g| Rc::new(g.map.clone()));
            match self.attempts(seed, level, above, carried) {
                Ok(g) => {
                    let total = g.provenance.levels;
                    carried += g.map.heap_bytes();
                    levels.push(g);
                    if level >= total {
                        break;
                    }
                }
                Err(mut e) => {
                    if level > 1 {
                        e.message = format!("{} (on level {level})", e.message);
                    }
                    failure = Some(e);
                    break;
                }
            }
        }
        self.vm.end_run();
        match failure {
            Some(e) => Err(e),
            None => Ok(levels),
        }
    }

    fn attempts(
        &self,
        seed: u64,
        level: u32,
        above: Option<Rc<Map>>,
        carried: usize,
    ) -> Result<Generated, ScriptError> {
        let limit = self.request.limits.max_memory;
        if carried >= limit {
            return Err(ScriptError::new(
                FailureKind::Limit,
                format!(
                    "{}: memory limit exceeded: the {} levels above hold {} MB of the {} MB limit (raise {})",
                    self.request.script.display(),
                    level - 1,
                    carried >> 20,
                    limit >> 20,
                    self.request.limit_names.memory
                ),
            ));
        }
        let mut rejections: Vec<(u32, String)> = Vec::new();
        let attempts = self.request.max_attempts.max(1);
        let (mut work, mut native_work) = (0, 0);
        let stream = level_seed(seed, level);
        for k in 0..attempts {
            if k > 0 {
                work += self.vm.guard.used();
                native_work += self.vm.guard.native();
            }
            let at = Level {
                seed,
                stream: attempt_seed(stream, k),
                level,
                above: above.clone(),
                carried,
            };
            match self.attempt(at)? {
                Attempt::Accepted(mut generated) => {
                    generated.provenance.attempt = k;
                    generated.rejections = rejections;
                    generated.work = work + self.vm.guard.used();
                    generated.native_work = native_work + self.vm.guard.native();
                    return Ok(*generated);
                }
                // Kept: the first reasons and the last (each already cut
                // short by reject()), however many attempts are allowed.
                Attempt::Rejected(why) if rejections.len() < KEPT_REJECTIONS => {
                    rejections.push((k, why))
                }
                Attempt::Rejected(why) => {
                    if let Some(last) = rejections.last_mut() {
                        *last = (k, why);
                    }
                }
            }
        }
        let last = rejections.last().map(|(_, why)| why.as_str()).unwrap_or("");
        let mut failure = ScriptError::new(
            FailureKind::Rejected,
            format!(
                "{}: all {attempts} attempts were rejected; the last because {last} (raise {} or loosen the script's checks)",
                self.request.script.display(),
                self.request.limit_names.attempts
            ),
        );
        failure.rejections = rejections;
        Err(failure)
    }
}

/// What every way into the VM does first: refuses to start on a thread
/// with too little stack left for a run to do anything but fail (a game's
/// worker thread made with a small stack), said at once, before the host's
/// own frames could overflow it; and puts the thread's numbers in the C
/// locale until the returned guard drops (`raw::locale`: a game's locale
/// changed `tostring(0.5)` and so the map).
fn enter() -> Result<super::raw::locale::CNumbers, ScriptError> {
    match super::raw::cstack::too_little_left() {
        None => Ok(super::raw::locale::CNumbers::enter()),
        Some(left) => Err(ScriptError::new(
            FailureKind::Limit,
            format!(
                "C stack exhausted: the thread has {} KiB of stack left and a run needs at least {} KiB (give the thread a bigger stack)",
                left >> 10,
                super::raw::cstack::LEAST_TO_START >> 10
            ),
        )),
    }
}

/// How many of the returned table's keys [`misspelled`] looks at.
const KEYS_LOOKED_AT: usize = 48;

/// A string key of the script's returned table close to `field` (`genrate`
/// for `generate`, `parms` for `params`), escaped for one line: read raw
/// (no metamethod runs), among the first [`KEYS_LOOKED_AT`] keys only.
fn misspelled(lua: &mlua::Lua, table: &Table, field: &str) -> Option<String> {
    let pairs = super::raw::fields::first_pairs(lua, table, KEYS_LOOKED_AT).ok()?;
    let keys: Vec<String> = pairs
        .iter()
        .filter_map(|(key, _)| match key {
            Value::String(s) => s.to_str().ok().map(|k| k.to_string()),
            _ => None,
        })
        .collect();
    crate::closest::closest(field, keys.iter().map(String::as_str))
        .map(|key| crate::one_line::one_line(key).into_owned())
}

/// The fields of a script's table (`raw::fields::script_fields` reads
/// them; the API reference lists them).
const FIELDS: [&str; 11] = [
    "generate", "validate", "name", "width", "height", "levels", "stairs", "params", "goal",
    "locks", "one_way",
];

/// A key of the script's table (among its first [`KEYS_LOOKED_AT`]) that
/// is no field but close to one, with that field: a typo. A key far from
/// every field is the script's own. Typos of `generate` and `params` are
/// left to the messages that name them where they matter (a missing
/// `generate`; `-p` given to a script that declares no `params`).
fn misspelled_field(lua: &mlua::Lua, table: &Table) -> Option<(String, &'static str)> {
    let pairs = super::raw::fields::first_pairs(lua, table, KEYS_LOOKED_AT).ok()?;
    pairs.iter().find_map(|(key, _)| {
        let Value::String(s) = key else { return None };
        let key = s.to_str().ok()?.to_string();
        let field = crate::closest::closest(&key, FIELDS)?;
        let named_elsewhere = field == "generate" || field == "params";
        // A typo is one letter off (`widht`, `validte`, `lcoks`); a key
        // holding a field's name, or held in one, or the same but for case
        // (`names`, `level`, `stairs_up`, `Name`) is a word of the
        // script's own, as `validator` (two off) is.
        let (lower, field_lower) = (key.to_lowercase(), field.to_lowercase());
        let own_word = crate::closest::edit_distance(&key, field) > 1
            || lower.contains(&field_lower)
            || field_lower.contains(&lower);
        (!named_elsewhere && !own_word)
            .then(|| (crate::one_line::one_line(&key).into_owned(), field))
    })
}

/// What a script declares, from its table's `name`, `width`, `height`,
/// `levels`, `stairs`, `params` and its puzzle (`goal`, `locks`,
/// `one_way`) (as `raw::fields::script_fields` reads
/// them).
fn read_info(lua: &mlua::Lua, declared: [Value; 9], path: &Path) -> Result<ScriptInfo, String> {
    let shown = path.display();
    let [name, width, height, levels, stairs, params, goal, locks, one_way] = declared;
    let name = match name {
        Value::Nil => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        Value::String(s) => {
            args::bounded_text(&s, args::MAX_NAME, "name").map_err(|e| format!("{shown}: {e}"))?
        }
        other => {
            return Err(format!(
                "{shown}: name must be a string, got {}",
                args::show(&other)
            ))
        }
    };
    let dimension = |key: &str, value: Value, default: i64| -> Result<i64, String> {
        match args::as_whole(value) {
            Value::Nil => Ok(default),
            Value::Integer(v) => Ok(v),
            other => Err(format!(
                "{shown}: {key} must be an integer, got {}",
                args::show(&other)
            )),
        }
    };
    let width = dimension("width", width, DEFAULT_SIZE.0)?;
    let height = dimension("height", height, DEFAULT_SIZE.1)?;
    let levels = match args::as_whole(levels) {
        Value::Nil => 1,
        Value::Integer(n) if (1..=MAX_LEVELS).contains(&n) => n as u32,
        other => {
            return Err(format!(
                "{shown}: levels must be an integer 1..={MAX_LEVELS}, got {}",
                args::show(&other)
            ))
        }
    };
    let stairs = match stairs {
        Value::Nil => Stairs::Free,
        Value::String(s) if s.as_bytes().as_ref() == b"aligned" => Stairs::Aligned,
        Value::String(s) if s.as_bytes().as_ref() == b"free" => Stairs::Free,
        other => {
            return Err(format!(
                "{shown}: stairs must be \"aligned\" (each level's stairs_up under the stairs_down above) or \"free\", got {}",
                args::show(&other)
            ))
        }
    };
    let params = match params {
        Value::Nil => Params::default(),
        Value::Table(t) => read_params(lua, &t, &shown.to_string())?,
        other => {
            return Err(format!(
                "{shown}: params must be a table, got {}",
                args::show(&other)
            ))
        }
    };
    let puzzle = super::puzzle_decl::read(goal, locks, one_way)
        .map_err(|e| format!("{shown}: {e}"))?
        .map(std::sync::Arc::new);
    Ok(ScriptInfo {
        name,
        width,
        height,
        params,
        levels,
        stairs,
        puzzle,
    })
}

/// How many rejection reasons a run keeps (the first ones and the last).
const KEPT_REJECTIONS: usize = 32;

/// The most parameters a script may declare.
const MAX_PARAMS: usize = 1024;

fn read_params(lua: &mlua::Lua, table: &Table, shown: &str) -> Result<Params, String> {
    let mut entries = Vec::new();
    let pairs = super::raw::fields::first_pairs(lua, table, MAX_PARAMS + 1)
        .map_err(|e| format!("{shown}: params: {e}"))?;
    for (key, value) in pairs {
        if entries.len() == MAX_PARAMS {
            return Err(format!(
                "{shown}: params declares more than {MAX_PARAMS} parameters"
            ));
        }
        let Value::String(key) = key else {
            return Err(format!(
                "{shown}: params keys must be names, got {}",
                args::show(&key)
            ));
        };
        // Read lossily, two names that are not UTF-8 became the same name
        // and neither could be read or set under its own.
        if key.to_str().is_err() {
            return Err(format!(
                "{shown}: params keys must be UTF-8 names, got {}",
                args::show(&Value::String(key))
            ));
        }
        let key = args::bounded_text(&key, args::MAX_NAME, "params key")
            .map_err(|e| format!("{shown}: {e}"))?;
        let value = match value {
            Value::Integer(v) => ParamValue::Integer(v),
            Value::Number(v) => ParamValue::Number(v),
            Value::Boolean(v) => ParamValue::Boolean(v),
            Value::String(v) => ParamValue::Text(
                args::bounded_text(&v, args::MAX_TEXT, &format!("params.{key}"))
                    .map_err(|e| format!("{shown}: {e}"))?,
            ),
            other => {
                return Err(format!(
                    "{shown}: params.{key} must default to an integer, number, boolean or string, got {}",
                    args::show(&other)
                ))
            }
        };
        entries.push((key, value));
    }
    Ok(Params::new(entries))
}

/// Which level an attempt makes, on which stream, below what.
struct Level {
    /// The user's seed.
    seed: u64,
    /// The attempt's stream: [`attempt_seed`] of [`level_seed`].
    stream: u64,
    level: u32,
    above: Option<Rc<Map>>,
    /// The bytes the finished levels hold.
    carried: usize,
}

/// What one attempt gave.
enum Attempt {
    Accepted(Box<Generated>),
    Rejected(String),
}

impl Session {
    /// What the request asks of the script declaring `info`: the
    /// parameters with the request's, the size and the number of levels;
    /// a usage error when the command line asked for something impossible
    /// (a bad `-p`, size or level count), a contract error when the
    /// script's own size is.
    fn settings(&self, info: &ScriptInfo) -> Result<(Params, (i64, i64), u32), ScriptError> {
        let request = &self.request;
        let shown = &self.shown;
        let params = info
            .params
            .with_overrides(&request.params)
            .and_then(|p| p.with_values(&request.values))
            .map_err(ScriptError::usage)?;
        let (width, height) = match request.size {
            Some((w, h)) => {
                // The error names the size ("size 0x5 is invalid: ...").
                map::check_size(w, h).map_err(|e| ScriptError::usage(e.to_string()))?;
                (w, h)
            }
            None => {
                let (w, h) = (info.width, info.height);
                map::check_size(w, h)
                    .map_err(|e| ScriptError::contract(format!("{shown}: {e}")))?;
                (w, h)
            }
        };
        let levels = request.levels.unwrap_or(info.levels);
        if levels as i64 * width * height > MAX_DUNGEON_CELLS {
            return Err(ScriptError::usage(format!(
                "{shown}: {levels} levels of {width}x{height} are {} cells in all; a dungeon holds at most {MAX_DUNGEON_CELLS} (fewer levels or a smaller --size)",
                levels as i64 * width * height
            )));
        }
        Ok((params, (width, height), levels))
    }

    /// The command line's usage error, if it has one for this script (a
    /// bad `-p`, size or level count), found without generating: what a
    /// caller checks before it says anything else (`dunlua` notes the
    /// seed it drew only for a command that can run).
    pub fn usage_error(&self) -> Option<ScriptError> {
        let _entered = enter().ok()?;
        let info = self.read_declared().ok()?;
        self.settings(&info)
            .err()
            .filter(|e| e.kind == FailureKind::Usage)
    }

    /// One attempt: a reset VM, the contract checked, `generate` called on a
    /// new map, the script's verdict, and the start checked to be walkable.
    /// `seed` is the user's; `stream` the attempt's.
    fn attempt(&self, at: Level) -> Result<Attempt, ScriptError> {
        let request = &self.request;
        let vm = &self.vm;
        let Level {
            seed,
            stream,
            level,
            above,
            carried,
        } = at;
        let loaded = self.load(stream)?;
        let (params, (width, height), levels) = self.settings(&loaded.info)?;
        let shown = &self.shown;
        let Loaded {
            generate,
            validate,
            info,
        } = loaded;
        let lua = &vm.lua;
        let tiles = lua
            .app_data_mut::<HostState>()
            .map(|mut s| s.take_pending_tiles())
            .unwrap_or_default();
        let mut map =
            Map::with_tiles(width, height, tiles).map_err(|e| ScriptError::usage(e.to_string()))?;
        let journal = request.record.then(|| Journal::new(&mut map));
        // The VM's map and rng userdata, numbered where a run made its own
        // (so every later object's id, and a table keyed by them, is as
        // it was).
        let (ud, rng_ud) = (&vm.run_map, &vm.run_rng);
        let handed = (|| -> mlua::Result<_> {
            ud.borrow::<LuaMap>()?.refill(map, journal)?;
            let p = super::raw::fields::make_params(lua, ud, &params, &vm.params_metatable)?;
            let above = match above {
                Some(above) => Some(lua.create_userdata(LevelView::new(above, level - 1))?),
                None => None,
            };
            let ctx = super::raw::fields::make_ctx(
                lua,
                level,
                levels,
                seed as i64,
                above.as_ref(),
                rng_ud,
            )?;
            Ok((ud.clone(), rng_ud.clone(), p, ctx))
        })()
        .map_err(|e| vm.failure(e))?;
        let (map_ud, rng_ud, p, ctx) = handed;
        match lua.app_data_mut::<HostState>() {
            Some(mut state) => {
                state.map = Some(map_ud.clone());
                state.params = Some(params);
            }
            None => return Err(vm.failure(mlua::Error::runtime("the host state is missing"))),
        }
        let lent = vm.lend(&map_ud, &rng_ud).map_err(|e| vm.failure(e))?;
        // The levels above count against this level's memory limit.
        let _above_held =
            super::budget::reserve(lua, "the levels above", carried).map_err(|e| vm.failure(e))?;
        let mut called = vm
            .call(generate, (map_ud.clone(), rng_ud, p, ctx))
            .map(|_| true);
        // Why validate turned the map down, if it did: false, or nil (a
        // `return map:path(...)` that found none; nothing returned at all
        // was said as "returned false", which it had not).
        let mut turned_down = None;
        if let (Ok(true), Some(validate)) = (&called, validate) {
            // Where it is defined (a C function given as validate has no line).
            let at = match validate.info().line_defined {
                Some(line) if line > 0 => format!("{shown}:{line}"),
                _ => shown.to_string(),
            };
            let judge = |on: bool| map_ud.borrow::<LuaMap>().map(|m| m.set_judging(on));
            judge(true).map_err(|e| vm.failure(e))?;
            let verdict = vm.call(validate, map_ud.clone());
            judge(false).map_err(|e| vm.failure(e))?;
            called = verdict.map(|verdict| {
                turned_down = match verdict {
                    Value::Boolean(false) => Some(format!("{shown}: validate returned false")),
                    Value::Nil => Some(format!(
                        "{at}: validate returned nil (return true to keep the map)"
                    )),
                    _ => None,
                };
                turned_down.is_none()
            });
        }
        drop(lent);
        let (modules, rejected, handed_params) = match lua.app_data_mut::<HostState>() {
            Some(mut state) => {
                state.map = None;
                (
                    std::mem::take(&mut state.modules),
                    state.rejected.take(),
                    state.params.take(),
                )
            }
            None => (Vec::new(), None, None),
        };
        // Lent to the run (a read of an undeclared name is compared with
        // them), never changed by it.
        let params = handed_params.unwrap_or_else(|| Params::new(Vec::new()));
        // A reject() wins even over the error it raised or a pcall that caught it.
        let rejected = match rejected {
            Some(why) => Some(why),
            None if !called? => turned_down,
            None => None,
        };
        let (map, journal) = map_ud
            .borrow::<LuaMap>()
            .and_then(|m| m.take_parts())
            .map_err(|e| vm.failure(e))?;
        if let Some(why) = rejected {
            // Kept only when asked (check --save-failures): the map the
            // script turned down, for the last attempt of a seed that fails.
            if request.keep_rejected {
                self.last_rejected.replace(Some((level, map)));
            }
            return Ok(Attempt::Rejected(why));
        }
        check_start(&map, shown)?;
        Ok(Attempt::Accepted(Box::new(Generated {
            map,
            provenance: Provenance {
                script: shown.clone(),
                name: info.name,
                seed,
                attempt: 0,
                params,
                level,
                levels,
            },
            modules,
            replay: journal.map(Journal::finish),
            rejections: Vec::new(),
            work: 0,
            native_work: 0,
            puzzle: info.puzzle,
        })))
    }
}

/// A map must leave the player on a walkable cell, not in rock.
fn check_start(map: &Map, shown: &str) -> Result<(), ScriptError> {
    match map.start() {
        None => Err(ScriptError::new(
            FailureKind::BadStart,
            format!("{shown}: generate set no start; call map:set_start(x, y) on a walkable cell"),
        )),
        Some((x, y)) if !map.is_walkable(x as i64, y as i64) => {
            let tile = map
                .get(x as i64, y as i64)
                .map(|t| map.tiles().kind(t).name.clone());
            Err(ScriptError::new(
                FailureKind::BadStart,
                format!(
                    "{shown}: generate left the start at ({x}, {y}) on '{}', which is not walkable",
                    tile.unwrap_or_default()
                ),
            ))
        }
        Some(_) => Ok(()),
    }
}

/// What [`Session::bench`] adds up: checksums any other implementation of
/// the specified RNG and algorithm can compare with, and the most work one
/// map took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// Maps made: the seeds times the levels each makes.
    pub maps: u64,
    pub floors: u64,
    pub rooms: u64,
    pub work_max: u64,
}

impl Session {
    /// Generates seeds `0..count` one after the other (what `dunlua bench`
    /// times), every level of a multi-level script; the first failure stops
    /// it, with its seed.
    pub fn bench(&self, count: u64) -> Result<BenchTotals, (u64, ScriptError)> {
        let mut totals = BenchTotals::default();
        for seed in 0..count {
            for generated in self.run_levels(seed).map_err(|e| (seed, e))? {
                totals.maps += 1;
                totals.floors += generated.map.count(crate::map::Tile::FLOOR) as u64;
                totals.rooms += generated.map.rooms().len() as u64;
                totals.work_max = totals.work_max.max(generated.work);
            }
        }
        Ok(totals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The VM lends its one map userdata to every run: a run that fails
    /// while its map holds memory (markers) leaves none of it counted
    /// against the next run's limit, as when each run had a map of its own
    /// that the reset's collection freed.
    #[test]
    fn a_failed_runs_map_gives_its_memory_back_before_the_next_run() {
        let mut request = Request::new(std::path::Path::new("lent.lua"), 0);
        request.source = Some(
            "return { generate = function(map, rng)
               map:fill('wall')
               map:carve_room(Rect.new(1, 1, 8, 8))
               map:set_start(2, 2)
               for i = 1, 5000 do map:mark(2, 2, 'm' .. i) end
               if rng:int(2) >= 0 then error('failed after marking') end
             end }"
                .into(),
        );
        let session = Session::new(&request).unwrap();
        let held = |s: &Session| s.vm.guard.memory_used() - s.vm.guard.lua_bytes();
        session.vm.reset().unwrap();
        let before = held(&session);
        let failed = session.run(0).unwrap_err();
        assert!(
            failed.message.contains("failed after marking"),
            "{}",
            failed.message
        );
        assert!(held(&session) > before + 5000, "the markers were counted");
        session.vm.reset().unwrap();
        assert_eq!(held(&session), before);
    }
}
