//! The C stack a run may use. Lua counts nested C calls (`LUAI_MAXCCALLS`,
//! 200), not bytes, and a level can take kilobytes: a `require` that
//! requires goes through the host's Rust each time, a `gsub` callback or a
//! metamethod through Lua's C. Two hundred of them overflowed a game's
//! worker thread (2 MiB in Rust, 512 KiB for a thread on macOS), which
//! crashes the game instead of failing the script. So before a run, on the
//! thread that runs it, the host tells Lua how low the stack may go (a
//! patched `lstate.c`, `dunlua_cstack_low`): a C call below that floor
//! stops the run for good with "C stack exhausted" at the script's line
//! (the guard's `Stop::Stack`). Lua's own count still raises its
//! catchable "C stack overflow" at 200 nested calls on a thread with stack
//! enough for them; a smaller stack ends the run instead of letting the
//! script catch an overflow at another depth, so a map never depends on
//! the thread that made it.

use std::ffi::c_void;

use mlua::ffi::lua_State;

/// Room kept below the floor: Lua's slack for handling the overflow
/// (`DUNLUA_STACK_SLACK`, 64 KiB) and, under it, what a native call made
/// between two checks may use (a primitive, the host's callbacks, Lua's
/// parser in a debug build).
const RESERVED: usize = 256 << 10;

/// Lua's slack under the floor (`DUNLUA_STACK_SLACK` in `lstate.h`): a
/// check below `floor - SLACK` is an "error in error handling", which
/// ends the raising.
const SLACK: usize = 64 << 10;

/// What raising that last error needs under `floor - SLACK`: the floor is
/// never lower than this above the stack's end, however small the thread.
const LAST_RAISE: usize = 32 << 10;

/// The least stack a thread must have left to start a run (or a compile):
/// with less than `RESERVED` and some room above it, every C call of the
/// run is under the floor and the run could only fail; and on a very small
/// thread the host's own frames could overflow before Lua checks anything.
pub(crate) const LEAST_TO_START: usize = RESERVED + (64 << 10);

/// The stack the current thread has left, if it can be told, when it is
/// less than [`LEAST_TO_START`].
pub(crate) fn too_little_left() -> Option<usize> {
    stacker::remaining_stack().filter(|&left| left < LEAST_TO_START)
}

/// Sets the floor of `state`'s C stack for the current thread: `RESERVED`
/// bytes above the end of its stack, or no check where the end is unknown.
///
/// SAFETY: `state` is a live Lua state built from `src/script/raw/lua`.
pub(crate) unsafe fn set_floor(state: *mut lua_State) {
    let floor = stacker::remaining_stack().map_or(std::ptr::null_mut(), |remaining| {
        let here = stacker_here();
        let end = here.saturating_sub(remaining);
        // A thread with less than that left fails its first C call with
        // "C stack exhausted"; but the floor stays high enough that the
        // raising of that error, which checks again as it goes, reaches
        // "error in error handling" before the stack's end (on a 64 KiB
        // thread, a floor at the current frame let the raises recurse past
        // it: a crash).
        end.saturating_add(RESERVED)
            .min(here)
            .max(end.saturating_add(SLACK + LAST_RAISE)) as *mut c_void
    });
    dunlua_set_stack_floor(state, floor);
}

/// No floor: before the state is closed, maybe on another thread.
///
/// SAFETY: `state` is a live Lua state built from `src/script/raw/lua`.
pub(crate) unsafe fn clear_floor(state: *mut lua_State) {
    dunlua_set_stack_floor(state, std::ptr::null_mut());
}

/// Where the stack is now (the address of a local in this frame).
#[inline(never)]
fn stacker_here() -> usize {
    let here = 0u8;
    std::hint::black_box(&here) as *const u8 as usize
}

extern "C-unwind" {
    /// The lowest address the C stack may reach (`lstate.c`); null: none.
    fn dunlua_set_stack_floor(state: *mut lua_State, floor: *mut c_void);
}
