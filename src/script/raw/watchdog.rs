//! The wall-clock deadline of a run, held by a timer thread rather than by
//! clock reads between budget ticks: when a run's deadline passes, the
//! watchdog marks its [`Alarm`] and arms a count-1 hook on the VM's main
//! thread (`lua_sethook` may be called asynchronously, as Lua's manual
//! says), so the VM stops at its next instruction wherever that is, and the
//! hook reports the script's file and line. One thread serves every VM of
//! the process (the CLI, `check`'s workers, a game's generators).
//!
//! A process made by `fork` (Python's `multiprocessing`) has no such
//! thread, only its parent's memory: a child handler (`pthread_atfork`)
//! counts the fork, and the child's first arming starts the child's own
//! watchdog and registers the alarm with it.
//!
//! What it cannot interrupt is one long C call in progress (a full
//! collection, a `memcmp` of two huge strings): those return first. Coroutines
//! run their own hook count; they see the alarm at their next hook tick.

use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
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
    /// Itself, to register with the watchdog of a forked child.
    me: Weak<Alarm>,
    /// The fork generation of the watchdog it is registered with.
    registered: AtomicU32,
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
        let dog = watchdog();
        let alarm = Arc::new_cyclic(|me| Alarm {
            fired: AtomicU8::new(NONE),
            hook,
            armed: Mutex::new(Armed {
                main: 0,
                deadline: None,
            }),
            me: me.clone(),
            registered: AtomicU32::new(dog.generation),
        });
        dog.register(Arc::downgrade(&alarm));
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
            let dog = watchdog();
            if self.registered.load(Ordering::Relaxed) != dog.generation {
                // Made before this process was forked: the parent's
                // watchdog knew it, the child's does not yet.
                dog.register(self.me.clone());
                self.registered.store(dog.generation, Ordering::Relaxed);
            }
            dog.wake_by(deadline);
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
    /// How many forks this process is from the one that started it.
    generation: u32,
}

/// Forks since the process started, counted in each child (see the
/// module's docs); a relaxed load per arming, no system call.
static FORKS: AtomicU32 = AtomicU32::new(0);

/// The watchdog of this process, once started.
static CURRENT: AtomicPtr<Watchdog> = AtomicPtr::new(std::ptr::null_mut());

#[cfg(unix)]
extern "C" fn forked_child() {
    FORKS.fetch_add(1, Ordering::Relaxed);
}

fn watchdog() -> &'static Watchdog {
    let generation = FORKS.load(Ordering::Relaxed);
    let current = CURRENT.load(Ordering::Acquire);
    // SAFETY: CURRENT only ever holds leaked, never freed watchdogs.
    match unsafe { current.as_ref() } {
        Some(dog) if dog.generation == generation => dog,
        _ => start_watchdog(current, generation),
    }
}

/// Starts this process's watchdog in place of `stale` (none yet, or the
/// parent's in a forked child); without a lock, which a fork could leave
/// held: the thread that installs its watchdog starts its thread.
#[cold]
fn start_watchdog(stale: *mut Watchdog, generation: u32) -> &'static Watchdog {
    #[cfg(unix)]
    {
        static AT_FORK: std::sync::Once = std::sync::Once::new();
        // SAFETY: the handler only bumps an atomic, which is async-signal-safe.
        AT_FORK.call_once(|| unsafe {
            libc::pthread_atfork(None, None, Some(forked_child));
        });
    }
    let dog: &'static mut Watchdog = Box::leak(Box::new(Watchdog {
        alarms: Mutex::new(Vec::new()),
        wake: Condvar::new(),
        next_wake: AtomicU64::new(u64::MAX),
        epoch: Instant::now(),
        generation,
    }));
    let dog_ptr: *mut Watchdog = dog;
    match CURRENT.compare_exchange(stale, dog_ptr, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => {
            // SAFETY: just leaked; never freed.
            let dog: &'static Watchdog = unsafe { &*dog_ptr };
            std::thread::Builder::new()
                .name("dunlua-watchdog".into())
                .spawn(move || dog.run())
                .expect("dunlua: cannot start the deadline thread");
            dog
        }
        // Another thread installed one first (its thread runs); this one
        // stays unused.
        Err(_) => watchdog(),
    }
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
