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
//! - **One thread at a time.** A Lua state and everything here is used
//!   from one thread at a time (a whole session may move to another thread,
//!   see its `Send` below); only the guard's cancel flag and its alarm are
//!   shared, as atomics (the watchdog sets the hook of an armed state under
//!   the alarm's lock, which Lua allows from another thread).
//!
//! Modules: [`cstack`] (how deep a run's C calls may go), [`fast`] (fast paths for the hottest map and rng methods),
//! [`fields`] (the fields every run reads and writes, a group per call),
//! [`locale`] (the C library's numbers in the C locale while Lua runs),
//! [`rect`] (rect and index userdata), [`reset`] (a run's fresh copy of the
//! globals), [`watchdog`] (the deadline thread), [`libs`] (the charged C
//! libraries) and the budget guard.

pub(crate) mod cstack;
pub(crate) mod fast;
pub(crate) mod fields;
pub(crate) mod guard;
pub(crate) mod libs;
pub(crate) mod locale;
pub(crate) mod rect;
pub(crate) mod reset;
pub(crate) mod watchdog;

use std::ffi::{c_int, c_void};

use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua};

/// Where `error_text` (see [`install_error_text`]) is in the registry:
/// this static's address.
static ERROR_TEXT_SLOT: u8 = 0;

fn error_text_slot() -> *const c_void {
    std::ptr::addr_of!(ERROR_TEXT_SLOT).cast()
}

/// Gives Lua the sandbox's `error_text` (a host error object to its text,
/// any other value as it is) for a to-be-closed variable's `__close`,
/// which Lua's C calls with the error object (`lfunc.c`): a script must
/// never hold the host's error object, which raised again through the
/// host nests one level deeper each time (a chain whose drop overflowed
/// the stack) and keeps its identity from an earlier run.
pub(crate) fn install_error_text(lua: &Lua, error_text: &Function) -> mlua::Result<()> {
    // SAFETY: pops the function exec_raw pushed into the registry.
    unsafe {
        lua.exec_raw::<()>(error_text, |state| {
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, error_text_slot());
            dunlua_set_error_text(state, Some(error_text_of));
        })
    }
}

/// Argument 1: an error object; returns what the sandbox's `error_text`
/// makes of it.
unsafe extern "C-unwind" fn error_text_of(state: *mut lua_State) -> c_int {
    ffi::lua_settop(state, 1);
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, error_text_slot());
    ffi::lua_insert(state, 1);
    ffi::lua_callk(state, 1, 1, 0, None);
    1
}

/// An integer argument (not a float, not a numeric string: those go the slow way).
pub(crate) unsafe fn int_arg(state: *mut lua_State, idx: c_int) -> Option<i64> {
    let mut n = 0;
    (dunlua_tointeger_exact(state, idx, &mut n) != 0).then_some(n)
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

extern "C-unwind" {
    /// Sets the function `__close` gets its error object through (`lstate.c`).
    fn dunlua_set_error_text(state: *mut lua_State, f: Option<ffi::lua_CFunction>);
    /// Whether the value at `idx` is an integer, stored in `n` if so
    /// (`src/script/raw/lua/lapi.c`).
    fn dunlua_tointeger_exact(state: *mut lua_State, idx: c_int, n: *mut ffi::lua_Integer)
        -> c_int;
    /// Marks the table at `idx` as a type's method table (see
    /// `src/script/raw/lua/lobject.h`, `DUNLUA_SELFINDEX`).
    fn dunlua_markmethods(state: *mut lua_State, idx: c_int);
}

/// Marks `methods` as a type's method table: when a key misses it, its own
/// `__index` function gets the object whose `__index` it is, not the table (the
/// rng's forks read their own `seed`, a rect its corners), while a method
/// is a plain table lookup that never leaves the VM.
pub(crate) fn mark_methods(lua: &mlua::Lua, methods: &mlua::Table) -> mlua::Result<()> {
    // SAFETY: marks the table exec_raw pushed, then pops it.
    unsafe {
        lua.exec_raw::<()>(methods, |state| {
            dunlua_markmethods(state, -1);
            ffi::lua_pop(state, 1);
        })
    }
}

/// A [`super::Session`] may move to another thread, as a whole.
///
/// It is not `Send` automatically because mlua (without its `send` feature,
/// whose locks would tax every call) holds the Lua state through `Rc`s, and
/// the guard and fast state are `Rc`s too. Moving them is sound because a
/// session is a closed graph: every `Rc` clone, every Lua reference
/// (`Function`, `Table`, `AnyUserData`), the state's registry and the host
/// state it points to belong to this session's VM alone. No method returns
/// a Lua value or an `Rc` (runs return plain Rust: `Generated`,
/// `ScriptInfo`, `ScriptError`), so nothing stays behind on the old thread
/// to race with the moved copy. Neither Lua nor mlua keeps thread-local or
/// thread-id state, and what a caller supplies (a module loader, a cancel
/// flag) is itself `Send + Sync`. It is not `Sync`: two threads must never
/// run one session at once, which `&self` methods on a `!Sync` type forbid.
unsafe impl Send for super::Session {}
