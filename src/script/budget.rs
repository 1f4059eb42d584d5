//! Charging the work and memory of native primitives to the run's guard
//! (`raw::guard`), from the bindings: work is charged *before* it is done,
//! from the arguments, so a call that could not finish within the budget
//! is refused at once with a located error instead of starting.
//!
//! Work is counted in the budget's unit, one Lua VM instruction (about
//! 7 ns here); the rates below make native work cost about what its time
//! would have bought in Lua instructions.

use std::rc::Rc;

use mlua::Lua;

use super::args::{located, script_location};
use super::raw::guard::{Guard, Stop};

/// Cells written per unit by bulk writes (fill, carve, copy): memset speed.
pub(crate) const CELLS_PER_UNIT_WRITTEN: u64 = 16;
/// Units per cell visited by searches and whole-map passes (flood, regions,
/// distances, cellular steps, neighbour counts): a few loads and a branch.
pub(crate) const UNITS_PER_CELL_VISITED: u64 = 1;

/// Units for writing `cells` cells.
pub(crate) fn written(cells: u64) -> u64 {
    cells / CELLS_PER_UNIT_WRITTEN + 1
}

/// Units for visiting `cells` cells.
pub(crate) fn visited(cells: u64) -> u64 {
    cells.saturating_mul(UNITS_PER_CELL_VISITED)
}

/// What a script line reads when the run is stopped by `what`.
fn stop_message(what: &str, stop: Stop, units: u64, remaining: u64) -> String {
    match stop {
        Stop::Budget if units > remaining => format!(
            "{what}: instruction budget exceeded: this call needs about {units} units of work and {remaining} remain (raise --max-instructions)"
        ),
        Stop::Budget => format!("{what}: instruction budget exceeded"),
        Stop::Memory => format!("{what}: memory limit exceeded"),
        Stop::Timeout => format!("{what}: timed out"),
        Stop::Cancelled => format!("{what}: cancelled"),
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
        .map_err(|stop| located(lua, stop_message(what, stop, units, remaining)))
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

    /// Grows the reservation to `bytes` (the holder grew).
    pub(crate) fn resize(&mut self, lua: &Lua, what: &str, bytes: usize) -> mlua::Result<()> {
        if bytes > self.bytes {
            let extra = reserve(lua, what, bytes - self.bytes)?;
            self.bytes += extra.bytes;
            self.guard = self.guard.take().or(extra.guard.clone());
            std::mem::forget(extra);
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
    match guard.reserve(lua, bytes, || script_location(lua)) {
        Ok(()) => Ok(Reservation {
            guard: Some(guard),
            bytes,
        }),
        Err(stop) => Err(located(lua, stop_message(what, stop, 0, guard.remaining()))),
    }
}
