//! Charging the work and memory of native primitives to the run's guard
//! (`raw::guard`), from the bindings: work is charged *before* it is done,
//! from the arguments, so a call that could not finish within the budget
//! is refused at once with a located error instead of starting.
//!
//! What each call costs is worked out in `cost.rs`.

use std::rc::Rc;

use mlua::Lua;

use super::error::{located, script_location};
use super::raw::guard::{Guard, Stop};

/// What a script line reads when the run is stopped by `what`.
fn stop_message(what: &str, stop: Stop, units: u64, remaining: u64, raise: &str) -> String {
    match stop {
        Stop::Budget if units > remaining => format!(
            "{what}: instruction budget exceeded: this call needs about {units} units of work and {remaining} remain (raise {raise})"
        ),
        Stop::Budget => format!("{what}: instruction budget exceeded"),
        Stop::Memory => format!("{what}: memory limit exceeded"),
        Stop::Timeout => format!("{what}: timed out"),
        Stop::Cancelled => format!("{what}: cancelled"),
        Stop::Stack => format!("{what}: C stack exhausted"),
    }
}

/// Charges `units` of work for the primitive `what`; a located error (and
/// the run stopped for good) when they do not fit.
pub(crate) fn charge(lua: &Lua, what: &str, units: u64) -> mlua::Result<()> {
    let Some(guard) = Guard::of(lua) else {
        return Ok(());
    };
    let remaining = guard.remaining();
    guard
        .charge(units, || script_location(lua))
        .map_err(|stop| {
            if stop == Stop::Budget && units > remaining {
                guard.set_detail(format!(
                    "{what} needs about {units} units of work and {remaining} remain"
                ));
            }
            located(
                lua,
                stop_message(what, stop, units, remaining, guard.budget_name()),
            )
        })
}

/// Adds `more` to what the message of the run's stop says (why a
/// primitive that was stopped had not finished yet).
pub(crate) fn add_stop_detail(lua: &Lua, more: &str) {
    if let Some(guard) = Guard::of(lua) {
        guard.add_detail(more);
    }
}

/// Memory the host keeps for the script (a selection's cells, a distance
/// map, an index), counted against the run's memory limit until dropped.
pub(crate) struct Reservation {
    guard: Option<Rc<Guard>>,
    bytes: usize,
}

impl Reservation {
    /// A reservation of nothing, for values made outside a run.
    pub(crate) fn none() -> Reservation {
        Reservation {
            guard: None,
            bytes: 0,
        }
    }

    /// The bytes it holds.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Grows the reservation to `bytes` (the holder grew).
    pub(crate) fn resize(&mut self, lua: &Lua, what: &str, bytes: usize) -> mlua::Result<()> {
        if bytes > self.bytes {
            // The extra bytes move into this reservation; `extra` then
            // drops holding none (forgetting it instead leaked its count
            // of the guard, and with it the guard, once per VM).
            let mut extra = reserve(lua, what, bytes - self.bytes)?;
            self.bytes += std::mem::take(&mut extra.bytes);
            if self.guard.is_none() {
                self.guard = extra.guard.take();
            }
        } else if let Some(guard) = &self.guard {
            guard.release(self.bytes - bytes);
            self.bytes = bytes;
        }
        Ok(())
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if let Some(guard) = &self.guard {
            guard.release(self.bytes);
        }
    }
}

/// Reserves `bytes` for the primitive `what`; a located error (and the run
/// stopped) when they do not fit under the memory limit.
pub(crate) fn reserve(lua: &Lua, what: &str, bytes: usize) -> mlua::Result<Reservation> {
    let Some(guard) = Guard::of(lua) else {
        return Ok(Reservation::none());
    };
    match guard.reserve(lua, what, bytes, || script_location(lua)) {
        Ok(()) => Ok(Reservation {
            guard: Some(guard),
            bytes,
        }),
        Err(stop) => Err(located(
            lua,
            stop_message(what, stop, 0, guard.remaining(), guard.budget_name()),
        )),
    }
}

/// Makes sure `bytes` more fit under the memory limit (after a full
/// collection, if needed) before the primitive `what` builds that much in
/// Lua, where the allocator counts it as it is made: a located error (and
/// the run stopped) when they do not. The allocator grants a block past the
/// limit and stops the run at its next instruction, so a primitive that
/// built a list of millions of tables in one call went on to twice the
/// limit (`sel:cells()` of 3 million cells under a 100 MiB limit: 257 MB).
pub(crate) fn make_room(lua: &Lua, what: &str, bytes: usize) -> mlua::Result<()> {
    reserve(lua, what, bytes).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Growing a reservation keeps one count of the guard, and dropping it
    /// gives that back: a count left behind kept the guard (and its VM's
    /// accounting) alive after the VM was gone.
    #[test]
    fn a_grown_reservation_holds_the_guard_once() {
        let lua = Lua::new();
        let guard = Guard::install(&lua, 1 << 30).unwrap();
        let before = Rc::strong_count(&guard);
        let mut held = Reservation::none();
        for bytes in [100, 300, 200, 900] {
            held.resize(&lua, "test", bytes).unwrap();
            assert_eq!(Rc::strong_count(&guard), before + 1, "at {bytes} bytes");
        }
        // (What the host holds is counted apart from Lua's bytes, which
        // leave out the string table's resizing: mlua's own count does not.)
        assert_eq!(guard.memory_used() - guard.lua_bytes(), 900);
        drop(held);
        assert_eq!(Rc::strong_count(&guard), before);
        assert_eq!(guard.memory_used(), guard.lua_bytes());
    }
}
