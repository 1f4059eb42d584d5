//! What the fill tells its caller as it works: units of work done and the
//! bytes it holds, so a script's budget and memory limit stop it midway.

/// One report to the caller's meter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// Units of work (about one Lua instruction's time each) done since the
    /// last report.
    Work(u64),
    /// The bytes the fill holds now, in all.
    Memory(usize),
}

/// The caller refused a charge: the fill stops at once. The caller keeps
/// its own reason (a budget or memory error) to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Work is passed on in batches, so a charge is not a call per pattern.
const BATCH: u64 = 1 << 14;

pub(super) struct Meter<'a> {
    report: &'a mut dyn FnMut(Charge) -> Result<(), Stopped>,
    pending: u64,
    /// Bytes held for the whole fill (patterns, domains).
    fixed: usize,
    /// Bytes held for the current attempt (trail, queue).
    moving: usize,
}

impl<'a> Meter<'a> {
    pub fn new(report: &'a mut dyn FnMut(Charge) -> Result<(), Stopped>) -> Meter<'a> {
        Meter {
            report,
            pending: 0,
            fixed: 0,
            moving: 0,
        }
    }

    pub fn work(&mut self, units: u64) -> Result<(), Stopped> {
        self.pending = self.pending.saturating_add(units);
        if self.pending >= BATCH {
            self.flush()?;
        }
        Ok(())
    }

    /// Charges `units` now, before work of that size starts.
    pub fn upfront(&mut self, units: u64) -> Result<(), Stopped> {
        self.pending = self.pending.saturating_add(units);
        self.flush()
    }

    pub fn flush(&mut self) -> Result<(), Stopped> {
        let units = std::mem::take(&mut self.pending);
        (self.report)(Charge::Work(units))
    }

    /// Adds `bytes` to what the fill holds for good, before allocating them.
    pub fn keep(&mut self, bytes: usize) -> Result<(), Stopped> {
        self.fixed = self.fixed.saturating_add(bytes);
        (self.report)(Charge::Memory(self.fixed.saturating_add(self.moving)))
    }

    /// The bytes held for good so far, for [`Meter::release_to`].
    pub fn held(&self) -> usize {
        self.fixed
    }

    /// Drops back to `held` bytes for good, once what was kept since is
    /// freed (a fill level that failed). Nothing is reported: memory only
    /// shrinks.
    pub fn release_to(&mut self, held: usize) {
        self.fixed = held.min(self.fixed);
        self.moving = 0;
    }

    /// Sets what the current attempt holds besides.
    pub fn hold(&mut self, bytes: usize) -> Result<(), Stopped> {
        if bytes == self.moving {
            return Ok(());
        }
        self.moving = bytes;
        (self.report)(Charge::Memory(self.fixed.saturating_add(bytes)))
    }
}
