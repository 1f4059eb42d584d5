//! All of dunlua's raw Lua C API code, and the only place allowed to use
//! `unsafe` (the crate root denies it everywhere else).
//!
//! The soundness contract every function here keeps:
//! - **Stack discipline.** A raw function touches only the stack slots its
//!   comment names and leaves exactly the values it promises; closures
//!   passed to `Lua::exec_raw` pop what they were given.
//! - **No destructor across a Lua error.** Lua raises errors with
//!   `longjmp`. Any call that may raise (`lua_error`, `lua_callk`, an
//!   allocation, a metamethod) is made only when no Rust value with a
//!   destructor is alive in the frames it would jump over: borrows and
//!   guards are dropped first, messages are pushed as Lua strings before
//!   raising.
//! - **Pointers by identity.** Userdata are recognised by their registry
//!   metatable or by the exact block address the host lent for this run,
//!   never by trusting a script's value; pointers to host state (the budget
//!   guard, the fast state) live as long as the Lua state that holds them.
//! - **One thread.** A Lua state and everything here is used from one
//!   thread at a time; only the guard's cancel flag is shared, as an atomic.
//!
//! Modules: [`fast`] (fast paths for the hottest map and rng methods),
//! [`rect`] (rect and index userdata), [`reset`] (restoring a reused VM's
//! tables), and the budget guard.

pub(crate) mod fast;
pub(crate) mod guard;
pub(crate) mod libs;
pub(crate) mod rect;
pub(crate) mod reset;

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

/// An integer argument (not a float, not a numeric string: those go the slow way).
pub(crate) unsafe fn int_arg(state: *mut lua_State, idx: c_int) -> Option<i64> {
    (ffi::lua_isinteger(state, idx) != 0).then(|| ffi::lua_tointeger(state, idx))
}

/// Calls the ordinary binding (in upvalue `slow`) with this call's
/// arguments and returns what it returns. `lua_callk` keeps the call
/// yieldable, so the budget hook can still stop a script inside it.
pub(crate) unsafe fn fall_back(state: *mut lua_State, slow: c_int) -> c_int {
    let n = ffi::lua_gettop(state);
    ffi::lua_pushvalue(state, ffi::lua_upvalueindex(slow));
    ffi::lua_insert(state, 1);
    ffi::lua_callk(state, n, ffi::LUA_MULTRET, 0, Some(after_fall_back));
    ffi::lua_gettop(state)
}

unsafe extern "C-unwind" fn after_fall_back(
    state: *mut lua_State,
    _status: c_int,
    _ctx: ffi::lua_KContext,
) -> c_int {
    ffi::lua_gettop(state)
}
