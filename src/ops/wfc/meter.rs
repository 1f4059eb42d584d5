//! What the fill tells its caller as it works: units of work done and the
//! bytes it holds, so a script's budget and memory limit stop it midway.

pub use crate::ops::meter::{Charge, Stopped};

/// Work is passed on in batches, so a charge is not a call per pattern.
const BATCH: u64 = 1 << 14;

pub(super) struct Meter<'a> {
    report: &'a mut dyn FnMut(Charge) -> Result<(), Stopped>,
    pending: u64,
    /// Bytes held for the whole fill (patterns, domains).
    fixed: usize,
    /// Bytes held for the current attempt (trail, queue).
    moving: usize,
    /// The caller refused a charge: nothing more is reported (its error,
    /// with its reason, is the one the fill ends with).
    refused: bool,
}

impl<'a> Meter<'a> {
    pub fn new(report: &'a mut dyn FnMut(Charge) -> Result<(), Stopped>) -> Meter<'a> {
        Meter {
            report,
            pending: 0,
            fixed: 0,
            moving: 0,
            refused: false,
        }
    }

    /// Reports `charge`, remembering a refusal.
    fn send(&mut self, charge: Charge) -> Result<(), Stopped> {
        let sent = (self.report)(charge);
        self.refused |= sent.is_err();
        sent
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
        self.send(Charge::Work(units))
    }

    /// Adds `bytes` to what the fill holds for good, before allocating them.
    pub fn keep(&mut self, bytes: usize) -> Result<(), Stopped> {
        self.fixed = self.fixed.saturating_add(bytes);
        self.send(Charge::Memory(self.fixed.saturating_add(self.moving)))
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
        self.send(Charge::Memory(self.fixed.saturating_add(bytes)))
    }
}

/// Work not yet passed on when the fill returns (a fill that gave up, or
/// found no room, before a batch filled) is passed on then: each call could
/// otherwise do up to a batch of work uncharged, and a loop of calls run
/// that many times past its budget. A refusal here stops the run at the
/// script's next instruction. After a refusal nothing is reported.
impl Drop for Meter<'_> {
    fn drop(&mut self) {
        if self.pending > 0 && !self.refused {
            let _ = self.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_left_in_a_batch_is_passed_on_when_the_meter_goes() {
        let mut charged = 0;
        let mut count = |c: Charge| {
            if let Charge::Work(u) = c {
                charged += u;
            }
            Ok(())
        };
        {
            let mut meter = Meter::new(&mut count);
            meter.work(BATCH - 1).unwrap();
            meter.work(7).unwrap();
            meter.work(100).unwrap();
        }
        assert_eq!(charged, BATCH - 1 + 7 + 100);
    }

    #[test]
    fn nothing_is_reported_after_a_refusal() {
        let mut reports = 0;
        let mut refuse = |_| {
            reports += 1;
            Err(Stopped)
        };
        {
            let mut meter = Meter::new(&mut refuse);
            assert_eq!(meter.work(BATCH), Err(Stopped));
            meter.pending = 5;
        }
        assert_eq!(reports, 1);
    }
}
