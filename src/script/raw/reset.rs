//! A run's own globals, as one raw C function (see `host.rs`, `Vm::reset`):
//! the tables the host set up (`_G`, the libraries, `Rect`, `tiles`, the
//! strings' metatable) are never handed to a script. Each run gets a new
//! `_G` (a copy of the host's) and a new strings' metatable, and each
//! library as a new empty *overlay* whose protected metatable reads through
//! to the host's library: `string.trim = f` lands in the run's overlay,
//! `math.floor` is found in the host's table, and nothing a script writes
//! can reach the next run. New tables filled in the same order have the
//! same layout, so `pairs` visits them alike in every run.
//!
//! Copying every library instead cost 6 µs a run (117 entries); the
//! overlays cost a table each.

use std::ffi::c_int;

use mlua::{ffi, Function, Lua};

/// The function that makes a run's globals, to be called with the host's
/// globals, the strings' metatable, each library's overlay metatable (by
/// library) and the key counts of the first two.
pub(crate) fn fresh_globals_function(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY: fresh_globals only uses the stack as its comment says.
    unsafe { lua.create_c_function(fresh_globals) }
}

/// Arguments: 1 the host's globals, 2 the strings' metatable, 3 library ->
/// overlay metatable, 4 key counts. Makes the run's globals (`_G._G` is
/// itself) and strings' metatable, each library value replaced by the
/// run's overlay of it (one per library, shared by both); makes them the
/// registry's globals (what `load` and new chunks see) and the strings'
/// metatable; returns the globals.
unsafe extern "C-unwind" fn fresh_globals(state: *mut ffi::lua_State) -> c_int {
    use ffi::*;
    lua_settop(state, 4);
    lua_createtable(state, 0, 8); // 5: library -> the run's overlay
    copy_with_overlays(state, 1, 1); // 6: the globals
    copy_with_overlays(state, 2, 1); // 7: the strings' metatable
    lua_pushstring(state, c"".as_ptr());
    lua_pushvalue(state, 7);
    lua_setmetatable(state, 8);
    lua_settop(state, 6);
    lua_pushvalue(state, 6);
    lua_rawseti(state, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    1
}

/// Pushes a new table with the entries of the table at `src` (an absolute
/// index; the function's arguments as `fresh_globals` has them), with the
/// host's globals (at `globals`) mapped to the new globals (the table at 6,
/// or this one when it is the globals) and every other table value to the
/// run's overlay of it.
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

/// Pushes the run's overlay of the library at `library` (made on first
/// use): an empty table with the library's overlay metatable (argument 3).
/// A table the host gave no overlay metatable gets an empty overlay with
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

/// Makes `globals` the registry's globals and `strings_mt` the strings'
/// metatable again (between runs: the host's own, so the last run's copies
/// are garbage).
pub(crate) fn point_globals(
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
        })
    }
}
