//! What a long primitive tells its caller as it works (the constraint
//! fill, `connect_regions`): units of work done and the bytes it holds, so
//! a script's budget, memory limit and deadline stop it midway.

/// One report to the caller's meter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// Units of work (about one Lua instruction's time each) done since the
    /// last report.
    Work(u64),
    /// The bytes the primitive holds now, in all.
    Memory(usize),
}

/// The caller refused a charge: the primitive stops at once. The caller
/// keeps its own reason (a budget or memory error) to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// A meter that takes every charge (a caller with no limits).
pub fn unmetered(_: Charge) -> Result<(), Stopped> {
    Ok(())
}
