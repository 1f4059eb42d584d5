//! The wall-clock deadline of a run, held by a timer thread rather than by
//! clock reads between budget ticks: when a run's deadline passes, the
//! watchdog marks its [`Alarm`] and arms a count-1 hook on the VM's main
//! thread (`lua_sethook` may be called asynchronously, as Lua's manual
//! says), so the VM stops at its next instruction wherever that is, and the
//! hook reports the script's file and line. One thread serves every VM of
//! the process (the CLI, `check`'s workers, a game's generators).
//!
//! What it cannot interrupt is one long C call in progress (a full
//! collection, a `memcmp` of two huge strings): those return first. Coroutines
//! run their own hook count; they see the alarm at their next hook tick.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::Instant;

use mlua::ffi::{self, lua_State};

/// Set in [`Alarm::fired`] once the deadline has passed.
const NONE: u8 = 0;
const TIMED_OUT: u8 = 1;

/// One VM's deadline: set by the watchdog, read by the VM's hook and
/// allocator on every check (one relaxed atomic load).
pub(crate) struct Alarm {
    fired: AtomicU8,
    armed: Mutex<Armed>,
    /// The VM's hook, armed at count 1 when the deadline passes.
    hook: unsafe extern "C-unwind" fn(*mut lua_State, *mut ffi::lua_Debug),
}

struct Armed {
    /// The VM's main thread while a deadline is armed, else null.
    main: usize,
    deadline: Option<Instant>,
}

impl Alarm {
    /// A disarmed alarm that arms `hook` when it rings, known to the
    /// watchdog from now on.
    pub(crate) fn new(
        hook: unsafe extern "C-unwind" fn(*mut lua_State, *mut ffi::lua_Debug),
    ) -> Arc<Alarm> {
        let alarm = Arc::new(Alarm {
            fired: AtomicU8::new(NONE),
            hook,
            armed: Mutex::new(Armed {
                main: 0,
                deadline: None,
            }),
        });
        watchdog().register(Arc::downgrade(&alarm));
        alarm
    }

    /// Whether the deadline of the current arming has passed.
    pub(crate) fn fired(&self) -> bool {
        self.fired.load(Ordering::Relaxed) != NONE
    }

    /// Arms the alarm for `main` (a VM's main thread) at `deadline`, or
    /// disarms it when there is none; clears a previous firing.
    ///
    /// # Safety
    /// `main` must stay a live Lua state until [`Alarm::disarm`] (or the
    /// next `arm`) returns.
    pub(crate) unsafe fn arm(&self, main: *mut lua_State, deadline: Option<Instant>) {
        {
            let mut armed = self.lock();
            self.fired.store(NONE, Ordering::Relaxed);
            armed.main = if deadline.is_some() { main as usize } else { 0 };
            armed.deadline = deadline;
        }
        if let Some(deadline) = deadline {
            watchdog().wake_by(deadline);
        }
    }

    /// No deadline any more; the watchdog will not touch the state.
    pub(crate) fn disarm(&self) {
        let mut armed = self.lock();
        armed.main = 0;
        armed.deadline = None;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Armed> {
        self.armed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fires the alarm if its deadline has passed by `now`; else says when
    /// it is due, if armed.
    fn ring_if_due(&self, now: Instant) -> Option<Instant> {
        let mut armed = self.lock();
        let deadline = armed.deadline?;
        if armed.main == 0 {
            return None;
        }
        if deadline > now {
            return Some(deadline);
        }
        armed.deadline = None;
        self.fired.store(TIMED_OUT, Ordering::Relaxed);
        // SAFETY: armed, so the state is alive and its owner cannot close
        // it before taking this lock; lua_sethook only stores fields.
        unsafe {
            ffi::lua_sethook(
                armed.main as *mut lua_State,
                Some(self.hook),
                ffi::LUA_MASKCOUNT,
                1,
            )
        };
        None
    }
}

/// The one timer thread: sleeps until the earliest armed deadline.
struct Watchdog {
    alarms: Mutex<Vec<Weak<Alarm>>>,
    wake: Condvar,
    /// When it will next wake on its own, in nanoseconds after `epoch`
    /// (`u64::MAX`: not before it is woken): an arming due later needs no
    /// wake-up call, so a run pays no system call for its deadline.
    next_wake: AtomicU64,
    epoch: Instant,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<&'static Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            alarms: Mutex::new(Vec::new()),
            wake: Condvar::new(),
            next_wake: AtomicU64::new(u64::MAX),
            epoch: Instant::now(),
        }));
        std::thread::Builder::new()
            .name("dunlua-watchdog".into())
            .spawn(move || dog.run())
            .expect("dunlua: cannot start the deadline thread");
        dog
    })
}

impl Watchdog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Weak<Alarm>>> {
        self.alarms.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn register(&self, alarm: Weak<Alarm>) {
        let mut alarms = self.lock();
        alarms.retain(|a| a.strong_count() > 0);
        alarms.push(alarm);
    }

    fn nanos(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.epoch)
            .as_nanos()
            .min(u64::MAX as u128 - 1) as u64
    }

    /// Makes sure the thread wakes by `deadline`.
    fn wake_by(&self, deadline: Instant) {
        if self.nanos(deadline) < self.next_wake.load(Ordering::Relaxed) {
            let _alarms = self.lock();
            self.next_wake.store(0, Ordering::Relaxed);
            self.wake.notify_one();
        }
    }

    fn run(&self) {
        let mut alarms = self.lock();
        loop {
            let now = Instant::now();
            let mut next: Option<Instant> = None;
            alarms.retain(|weak| match weak.upgrade() {
                Some(alarm) => {
                    if let Some(due) = alarm.ring_if_due(now) {
                        next = Some(next.map_or(due, |n| n.min(due)));
                    }
                    true
                }
                None => false,
            });
            match next {
                Some(at) => {
                    self.next_wake.store(self.nanos(at), Ordering::Relaxed);
                    alarms = self
                        .wake
                        .wait_timeout(alarms, at.saturating_duration_since(now))
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                None => {
                    self.next_wake.store(u64::MAX, Ordering::Relaxed);
                    alarms = self.wake.wait(alarms).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }
}
