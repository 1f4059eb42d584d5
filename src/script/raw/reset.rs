//! Putting a reused VM's tables back as the host set them up, as one raw
//! C function (see `host.rs`, `Vm::reset`).

use std::ffi::c_int;

use mlua::{ffi, Function, Lua};

/// The restoring function, to be called with the snapshot list.
pub(crate) fn restore_function(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY: restore_tables only uses the stack as its comment says.
    unsafe { lua.create_c_function(restore_tables) }
}

/// Puts every table of the snapshot list (argument 1) back as it was: no
/// metatable, no key it did not have, every saved value in place. A raw C
/// function because it is a few hundred table reads, which cost several
/// times more through `next` called from Lua (the profile showed a Lua
/// version as 14% of a small map's time). One pass over each table mends
/// what is there; a second, over the saved copy, runs only when the first
/// found fewer saved keys than the copy has (the script deleted one).
unsafe extern "C-unwind" fn restore_tables(state: *mut ffi::lua_State) -> c_int {
    use ffi::*;
    // Stack: 1 list, 2 t, 3 saved, 4 saved size, 5 key, 6 value, 7 saved value.
    lua_settop(state, 1);
    let n = lua_rawlen(state, 1) as ffi::lua_Integer;
    let mut i = 1;
    while i + 2 <= n {
        lua_rawgeti(state, 1, i);
        lua_rawgeti(state, 1, i + 1);
        lua_rawgeti(state, 1, i + 2);
        let saved_size = lua_tointeger(state, 4);
        lua_pushnil(state);
        lua_setmetatable(state, 2);
        // Setting an existing field during a traversal is allowed.
        let mut known = 0;
        lua_pushnil(state);
        while lua_next(state, 2) != 0 {
            lua_pushvalue(state, 5);
            if lua_rawget(state, 3) == LUA_TNIL {
                lua_pushvalue(state, 5);
                lua_pushnil(state);
                lua_rawset(state, 2);
            } else {
                known += 1;
                if lua_rawequal(state, 6, 7) == 0 {
                    lua_pushvalue(state, 5);
                    lua_pushvalue(state, 7);
                    lua_rawset(state, 2);
                }
            }
            lua_settop(state, 5);
        }
        if known < saved_size {
            lua_pushnil(state);
            while lua_next(state, 3) != 0 {
                lua_pushvalue(state, 5);
                if lua_rawget(state, 2) == LUA_TNIL {
                    lua_pushvalue(state, 5);
                    lua_pushvalue(state, 6);
                    lua_rawset(state, 2);
                }
                lua_settop(state, 5);
            }
        }
        lua_settop(state, 1);
        i += 3;
    }
    0
}
