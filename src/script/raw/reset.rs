//! A run's own globals, made in one raw call (see `host.rs`, `Vm::reset`):
//! the tables the host set up (`_G`, the libraries, `Rect`, `tiles`, the
//! strings' metatable) are never handed to a script. Each run gets a new
//! `_G` (a copy of the host's) and a new strings' metatable, and each
//! library as a new empty *overlay* whose protected metatable reads through
//! to the host's library: `string.trim = f` lands in the run's overlay,
//! `math.floor` is found in the host's table, and nothing a script writes
//! can reach the next run.
//!
//! The copies are made from templates built once per VM (the host's tables
//! copied a key at a time in their `next` order): each run clones a
//! template node for node (`dunlua_clonetable_with`, one `memcpy`), so
//! `pairs` visits every run's globals alike, and points the library
//! entries at its new overlays by node index as it copies ([`FixUps`]).
//! Copying a key at a time each run cost about a third of an empty
//! script's run (`benches/empty.lua`: 138k instructions a map before, 108k
//! after, with the inline count of `lvm.c`); copying every library instead
//! cost 6 µs a run (117 entries); the overlays cost a table each; setting
//! the library entries by key instead of by node, 2,000 instructions.
//!
//! In the common case the whole reset, collections included, is one
//! protected call ([`quick_reset`]).

use std::ffi::c_int;

use mlua::{ffi, Function, Lua};

/// Where each run's copy of a template gets its own tables: the nodes of
/// the template's hash part that hold a table (a library, `_G`), and for
/// each the slot of what replaces it (0 the run's globals, i its i-th
/// overlay). Set node by node in the copy (`dunlua_clonetable_with`): the
/// keys are there already, so no lookup and no new node.
pub(crate) struct FixUps {
    nodes: Vec<c_int>,
    slots: Vec<c_int>,
}

/// The most tables one template may hold (the host's globals hold a dozen).
const MAX_FIX_UPS: usize = 64;

impl FixUps {
    /// The fix-ups of `template` from `list` (`{key1, slot1, key2, ...}`,
    /// as [`FIX_UPS`] returns them), each key found in the template's hash
    /// part.
    pub(crate) fn of(
        lua: &Lua,
        template: &mlua::Table,
        list: &mlua::Table,
    ) -> mlua::Result<FixUps> {
        let mut fix_ups = FixUps {
            nodes: Vec::new(),
            slots: Vec::new(),
        };
        let mut missing = false;
        // SAFETY: pops everything it pushes; lua_rawgeti on the list and
        // dunlua_nodeindex (a raw lookup) raise nothing.
        unsafe {
            lua.exec_raw::<()>((template, list), |state| {
                let n = ffi::lua_rawlen(state, 2) as i64;
                let mut i = 1;
                while i < n {
                    ffi::lua_rawgeti(state, 2, i + 1);
                    let slot = ffi::lua_tointeger(state, -1) as c_int;
                    ffi::lua_pop(state, 1);
                    ffi::lua_rawgeti(state, 2, i);
                    let node = dunlua_nodeindex(state, 1);
                    missing |= node < 0;
                    fix_ups.nodes.push(node);
                    fix_ups.slots.push(slot);
                    i += 2;
                }
                ffi::lua_settop(state, 0);
            })?;
        }
        if missing {
            return Err(mlua::Error::runtime(
                "a host table's key is not in its template's hash part",
            ));
        }
        if fix_ups.nodes.len() > MAX_FIX_UPS {
            return Err(mlua::Error::runtime(format!(
                "the host's globals hold {} tables; at most {MAX_FIX_UPS}",
                fix_ups.nodes.len()
            )));
        }
        Ok(fix_ups)
    }
}

/// The function that makes the templates, called once per VM with the
/// host's globals, the strings' metatable, each library's overlay
/// metatable and the key counts of the first two: returns the templates of
/// a run's globals and strings' metatable.
pub(crate) fn templates_function(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY: make_templates only uses the stack as its comment says.
    unsafe { lua.create_c_function(make_templates) }
}

/// Run once per VM with the host's globals, the strings' metatable and
/// each library's overlay metatable: returns the overlay metatables in the
/// order a run makes the overlays (a library's first appearance in the
/// host's `next` order, globals first; `false` for a table the host gave
/// none, which gets an empty overlay with no metatable, so a host mistake
/// shows as a missing library, not a shared one), and for the globals and
/// the strings' metatable the fix-ups of their copies, `{key1, slot1, key2,
/// ...}` in `next` order: slot 0 is the run's globals, slot i its i-th
/// overlay.
pub(crate) const FIX_UPS: &str = r#"
local G, strings_mt, overlay_mts = ...
local next, type = next, type
local metatables, slot_of = {}, {}
local function fix_ups(src)
  local list = {}
  for k, v in next, src do
    if type(v) == "table" then
      local slot = 0
      if v ~= G then
        slot = slot_of[v]
        if not slot then
          metatables[#metatables + 1] = overlay_mts[v] or false
          slot = #metatables
          slot_of[v] = slot
        end
      end
      list[#list + 1] = k
      list[#list + 1] = slot
    end
  end
  return list
end
local globals = fix_ups(G)
local strings = fix_ups(strings_mt)
return metatables, globals, strings
"#;

/// Where the ids of the objects a run makes start (`dunlua_reset_ids`):
/// far above those of the host's own objects, made before.
const RUN_IDS_FROM: u32 = 1 << 24;

/// Marks mlua's stack of references (the thread holding every value the
/// host holds) as the host's (`dunlua_mark_host_thread` in a patched
/// `lstate.c`): its stack grows with the most values the host ever held at
/// once, which a script drives (one call with hundreds of arguments), and
/// never shrinks, so a VM's first such run grew it and a later one did
/// not; its growth is left out of the collector's debt and of the bytes a
/// run counts. Called once, when the VM is made.
pub(crate) fn mark_host_thread(lua: &Lua) -> mlua::Result<()> {
    let mut found = 0;
    // SAFETY: walks the registry with lua_next, popping what it pushes.
    unsafe { lua.exec_raw::<()>((), |state| found = dunlua_mark_host_thread(state)) }?;
    if found != 1 {
        return Err(mlua::Error::runtime(format!(
            "expected one thread of the host's in the registry, found {found}"
        )));
    }
    Ok(())
}

/// How many errors Lua raised (and yields across C it made) since the last
/// call: mlua takes a box from its pool for an error a host function
/// raises, and only then (`src/script/raw/lua/ldo.c`).
pub(crate) fn take_throws(lua: &Lua) -> mlua::Result<u32> {
    let mut throws = 0;
    // SAFETY: reads and zeroes a counter in the global state.
    unsafe { lua.exec_raw::<()>((), |state| throws = dunlua_take_throws(state)) }?;
    Ok(throws)
}

/// A new closure of `function`'s prototype for this run: new upvalues, the
/// first (a chunk's `_ENV`) the run's globals, as loading the chunk again
/// would give.
pub(crate) fn reclose(lua: &Lua, function: &Function) -> mlua::Result<Function> {
    // SAFETY: replaces the function exec_raw pushed with its new closure;
    // the host passes only functions it loaded from bytecode (Lua functions).
    unsafe {
        lua.exec_raw(function, |state| {
            dunlua_reclose(state, -1);
            ffi::lua_remove(state, -2);
        })
    }
}

extern "C-unwind" {
    /// Pushes a new closure of the Lua function at `idx` (`lapi.c`).
    fn dunlua_reclose(state: *mut ffi::lua_State, idx: c_int);
    /// The errors raised since the last call (`ldo.c`).
    fn dunlua_take_throws(state: *mut ffi::lua_State) -> u32;
    /// Marks the registry's one thread other than the main one as the
    /// host's; returns how many it found.
    fn dunlua_mark_host_thread(state: *mut ffi::lua_State) -> c_int;
    /// Leaves the thread a fixed number of call frames past its base one
    /// (or up to the one in use, if deeper) and a stack of a fixed size (or
    /// twice what is in use).
    fn dunlua_settle(state: *mut ffi::lua_State);
    /// Sets the id the next object made gets, less one.
    fn dunlua_reset_ids(state: *mut ffi::lua_State, next: u32);
    /// Pushes a copy of the table at `idx`: the same array part and the
    /// same hash part node for node (`src/script/raw/lua/ltable.c`), with
    /// `n` of its nodes' values set from the stack (`lapi.c`).
    fn dunlua_clonetable_with(
        state: *mut ffi::lua_State,
        idx: c_int,
        n: c_int,
        nodes: *const c_int,
        values: *const c_int,
    );
    /// The node of the hash part of the table at `idx` holding the key on
    /// top of the stack (popped), or -1.
    fn dunlua_nodeindex(state: *mut ffi::lua_State, idx: c_int) -> c_int;
}

/// Arguments: 1 the host's globals, 2 the strings' metatable, 3 library ->
/// overlay metatable, 4 key counts. Returns the templates of a run's
/// globals and strings' metatable: each a new table presized to the key
/// count and filled in the host's `next` order (as runs made their copies
/// a key at a time before templates, so every run's copy has that layout
/// and `pairs` order), its library values overlays to be replaced by each
/// run's own.
unsafe extern "C-unwind" fn make_templates(state: *mut ffi::lua_State) -> c_int {
    use ffi::*;
    lua_settop(state, 4);
    lua_createtable(state, 0, 8); // 5: library -> the template's overlay
    copy_with_overlays(state, 1, 1); // 6: the globals' template
    copy_with_overlays(state, 2, 1); // 7: the strings' metatable's template
    2
}

/// With 1 the globals' template, 2 the strings' metatable's template and 3
/// the overlay metatables on the stack (and nothing above): makes the
/// run's overlays (new empty tables, one per library, shared by both
/// copies), then the run's globals (`_G._G` is itself) and strings'
/// metatable as copies of the templates with their fix-ups applied; makes
/// them the registry's globals (what `load` and new chunks see) and the
/// strings' metatable; leaves the globals alone on the stack.
///
/// SAFETY: `state` is a VM's, its stack as above; may raise (memory).
unsafe fn fresh_globals(state: *mut ffi::lua_State, globals_fix: &FixUps, strings_fix: &FixUps) {
    use ffi::*;
    lua_settop(state, 3);
    let overlays = lua_rawlen(state, 3) as c_int;
    luaL_checkstack(state, overlays + 8, std::ptr::null());
    for i in 1..=overlays {
        lua_createtable(state, 0, 0); // 3 + i
        if lua_rawgeti(state, 3, i.into()) == LUA_TTABLE {
            lua_setmetatable(state, -2);
        } else {
            lua_pop(state, 1);
        }
    }
    let globals = 4 + overlays;
    // Slot i is the overlay at 3 + i; slot 0 the globals (the copy itself
    // in the globals' own copy, the one at `globals` in the other). In
    // arrays, not vectors: nothing with a destructor may be alive here
    // when Lua raises (it longjmps over this frame).
    let values = |fix: &FixUps, globals_at: c_int| {
        let mut at = [0; MAX_FIX_UPS];
        for (at, &slot) in at.iter_mut().zip(&fix.slots) {
            *at = if slot == 0 { globals_at } else { 3 + slot };
        }
        at
    };
    let (g, s) = (values(globals_fix, 0), values(strings_fix, globals));
    clone_with(state, 1, globals_fix, &g);
    clone_with(state, 2, strings_fix, &s);
    lua_pushstring(state, c"".as_ptr());
    lua_pushvalue(state, globals + 1);
    lua_setmetatable(state, -2);
    lua_settop(state, globals);
    lua_pushvalue(state, globals);
    lua_rawseti(state, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_replace(state, 1);
    lua_settop(state, 1);
}

/// Pushes a copy of the template at `template` with `fix`'s nodes set to
/// the values at the stack indices `values` (0: the copy itself).
unsafe fn clone_with(state: *mut ffi::lua_State, template: c_int, fix: &FixUps, values: &[c_int]) {
    dunlua_clonetable_with(
        state,
        template,
        fix.nodes.len() as c_int,
        fix.nodes.as_ptr(),
        values.as_ptr(),
    );
}

/// Resets the ids and makes the run's globals (see [`fresh_globals`]) in a
/// call of their own: the slow reset's, after a full collection.
pub(crate) fn make_fresh_globals(
    lua: &Lua,
    templates: [&mlua::Table; 3],
    fix_ups: [&FixUps; 2],
) -> mlua::Result<mlua::Table> {
    let [tg, tsm, om] = templates;
    // SAFETY: fresh_globals leaves the globals alone on the stack.
    unsafe {
        lua.exec_raw((tg, tsm, om), |state| {
            dunlua_reset_ids(state, RUN_IDS_FROM);
            fresh_globals(state, fix_ups[0], fix_ups[1])
        })
    }
}

/// Pushes a new table with the entries of the table at `src` (an absolute
/// index; the function's arguments as `make_templates` has them), with the
/// host's globals (at `globals`) mapped to the new globals (the table at 6,
/// or this one when it is the globals) and every other table value to the
/// overlay of it.
unsafe fn copy_with_overlays(state: *mut ffi::lua_State, src: c_int, globals: c_int) {
    use ffi::*;
    luaL_checkstack(state, 8, std::ptr::null());
    lua_pushvalue(state, src);
    let keys = if lua_rawget(state, 4) == LUA_TNUMBER {
        lua_tointeger(state, -1).clamp(0, 1 << 16) as c_int
    } else {
        0
    };
    lua_pop(state, 1);
    lua_createtable(state, 0, keys);
    let copy = lua_gettop(state);
    lua_pushnil(state);
    while lua_next(state, src) != 0 {
        // Stack: copy+1 key, copy+2 value.
        if lua_type(state, -1) == LUA_TTABLE {
            let value = lua_gettop(state);
            if lua_rawequal(state, value, globals) != 0 {
                // The globals' copy: this one, or the one made first (6).
                lua_pushvalue(state, if src == globals { copy } else { 6 });
            } else {
                push_overlay(state, value);
            }
            lua_replace(state, value);
        }
        lua_pushvalue(state, -2);
        lua_insert(state, -2);
        lua_rawset(state, copy);
    }
}

/// Pushes the template's overlay of the library at `library`, made on first
/// use and kept by library in the table at 5:
/// an empty table with the library's overlay metatable (argument 3). A
/// table the host gave no overlay metatable gets an empty overlay with
/// none, so a host mistake shows as a missing library, not a shared one.
unsafe fn push_overlay(state: *mut ffi::lua_State, library: c_int) {
    use ffi::*;
    lua_pushvalue(state, library);
    if lua_rawget(state, 5) != LUA_TNIL {
        return;
    }
    lua_pop(state, 1);
    lua_createtable(state, 0, 0);
    lua_pushvalue(state, library);
    if lua_rawget(state, 3) == LUA_TTABLE {
        lua_setmetatable(state, -2);
    } else {
        lua_pop(state, 1);
    }
    lua_pushvalue(state, library);
    lua_pushvalue(state, -2);
    lua_rawset(state, 5);
}

/// What [`quick_reset`] did.
pub(crate) enum QuickReset {
    /// Nothing but taking the count of errors the last run raised, which
    /// it holds: not 0, so mlua's pool of error boxes is to be refilled
    /// first (the count is taken: it reads 0 again).
    Throws(u32),
    /// The globals are pointed and the thread settled, but the minor
    /// collections left something of the last run (or the collector was
    /// not in generational mode): a full collection is to follow.
    Collect,
    /// Everything: the run's new globals.
    Done(mlua::Table),
}

/// The whole reset of a reused VM in its common case, in one protected
/// call instead of seven (each call into Lua through mlua costs a few
/// hundred instructions: together 2,200 of an empty script's 68,000): takes the
/// throws, points the globals back at the host's and settles the thread
/// ([`point_globals_and_settle`]), makes one or two minor collections in
/// generational mode (`gen` its minor and major multipliers), and when the
/// heap then weighs `base` bytes again (`lua_bytes` reads it), resets the
/// ids and makes the run's globals (`fresh_globals`). What
/// it stopped short of is for the caller to finish the slow way.
pub(crate) fn quick_reset(
    lua: &Lua,
    host: [&mlua::Table; 2],
    templates: [&mlua::Table; 3],
    fix_ups: [&FixUps; 2],
    gen: (c_int, c_int),
    base: usize,
    lua_bytes: impl Fn() -> usize,
) -> mlua::Result<QuickReset> {
    let (mut code, mut throws) = (0, 0);
    let [tg, tsm, om] = templates;
    let [host_globals, host_strings_mt] = host;
    // SAFETY: the closure leaves on the stack either nothing or the run's
    // globals alone; fresh_globals uses the stack as its comment says.
    let env: Option<mlua::Table> = unsafe {
        lua.exec_raw((host_globals, host_strings_mt, tg, tsm, om), |state| {
            use ffi::*;
            throws = dunlua_take_throws(state);
            if throws > 0 {
                lua_settop(state, 0);
                return;
            }
            // 1 the host's globals, 2 its strings' metatable: both the
            // registry's again before the thread is settled and the
            // heap collected, as point_globals_and_settle leaves them.
            lua_pushstring(state, c"".as_ptr());
            lua_pushvalue(state, 2);
            lua_setmetatable(state, -2);
            lua_pop(state, 1);
            lua_pushvalue(state, 1);
            lua_rawseti(state, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
            lua_rotate(state, 1, -2);
            lua_pop(state, 2); // 1..3: what fresh_globals takes
            dunlua_settle(state);
            code = 1;
            if lua_gc(state, LUA_GCISRUNNING, 0) == 0
                || lua_gc(state, LUA_GCGEN, gen.0, gen.1) != LUA_GCGEN
            {
                lua_settop(state, 0);
                return;
            }
            // One minor collection frees what the run made unless
            // something of it had a finalizer (a map primitive's
            // selection, a `Rect.index()`): Lua frees such an object at
            // the collection after the one that finalized it.
            lua_gc(state, LUA_GCSTEP, 0);
            if lua_bytes() != base {
                lua_gc(state, LUA_GCSTEP, 0);
            }
            if lua_bytes() != base {
                lua_settop(state, 0);
                return;
            }
            dunlua_reset_ids(state, RUN_IDS_FROM);
            fresh_globals(state, fix_ups[0], fix_ups[1]);
            code = 2;
        })?
    };
    Ok(match (code, env) {
        (2, Some(env)) => QuickReset::Done(env),
        (0, _) => QuickReset::Throws(throws),
        _ => QuickReset::Collect,
    })
}

/// Makes `globals` the registry's globals and `strings_mt` the strings'
/// metatable again (between runs: the host's own, so the last run's copies
/// are garbage), and settles the main thread: its spare call frames and its
/// stack are made the same sizes whatever the runs before did
/// (`dunlua_settle` in a patched `ldo.c`). A run that nested calls deeper
/// than any before it in this VM (modules requiring modules) made frames a
/// later run found ready, so the first run of a VM counted more memory than
/// the later ones. (One call for both: a call into Lua from here costs a
/// few hundred instructions.)
pub(crate) fn point_globals_and_settle(
    lua: &Lua,
    globals: &mlua::Table,
    strings_mt: &mlua::Table,
) -> mlua::Result<()> {
    // SAFETY: the closure pops the two values exec_raw pushed.
    unsafe {
        lua.exec_raw::<()>((globals, strings_mt), |state| {
            ffi::lua_pushstring(state, c"".as_ptr());
            ffi::lua_insert(state, -2);
            ffi::lua_setmetatable(state, -2);
            ffi::lua_pop(state, 1);
            ffi::lua_rawseti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS);
            dunlua_settle(state);
        })
    }
}
