//! The run's guard: one budget for all the work a script causes, a memory
//! limit over Lua's heap and the host's allocations made for the script,
//! and a wall-clock deadline, all enforced so that nothing a script does
//! can keep a run alive once one of them is spent.
//!
//! How each kind of work is counted:
//! - **Lua code** on any thread: a raw count hook on the main thread, which
//!   Lua copies into every coroutine the script creates (`lua_newthread`),
//!   adds [`HOOK_EVERY`] to the budget each time it fires. mlua's own hook
//!   machinery is not used: it removes hooks it does not know from
//!   coroutines.
//! - **C library functions**: dunlua's patched `lstrlib`/`ltablib`/
//!   `lutf8lib` call [`dunlua_charge`] as they work and [`dunlua_reserve`]
//!   before a large result.
//! - **Native primitives**: the bindings call [`Guard::charge`] with the
//!   work a call will do before doing it, and [`Guard::reserve`] for memory
//!   they keep on the script's behalf.
//! - **Memory**: the Lua allocator is wrapped; Lua's bytes plus the host's
//!   reserved bytes must stay under the limit.
//! - **Time**: a watchdog thread (`watchdog.rs`) marks the run's alarm at
//!   its deadline and arms a count-1 hook, so the VM stops at its next
//!   instruction. Lua's own C code (the parser, the string table, a table's
//!   rehash, a `__call` chain) runs no instruction and calls no charge: the
//!   allocator refuses every growing block once the alarm has fired, so that
//!   code raises at its next allocation.
//!
//! Charges depend only on what the run itself does, never on what earlier
//! runs of a reused VM left behind: allocations are charged when Lua creates
//! an object (a table, closure, thread, prototype or long string), not a
//! userdata (the host's calls that make them are charged; mlua keeps a pool
//! of error boxes whose refills depend on earlier runs), not when it interns
//! a short string (which costs nothing if an earlier
//! run's copy is still in the string table) or grows a block it already has
//! (a stack or the string table, whose size is history).
//!
//! Once a stop is set (budget spent, memory over the limit, deadline passed,
//! run cancelled) it is *sticky*: the thread that sees it switches its hook
//! to fire on every instruction and raises, and so does the main thread, so
//! every `pcall` return, coroutine resume, `__close` handler or metamethod
//! raises again at its first instruction. Finalizers run without hooks in
//! Lua 5.4, which is why scripts may not set `__gc` (see `host.rs`).

use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_void, CStr};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use mlua::ffi::{self, lua_Debug, lua_State};
use mlua::Lua;

use super::watchdog::Alarm;

/// How often the count hook fires, in Lua instructions; the budget is
/// counted in these steps.
pub(crate) const HOOK_EVERY: c_int = 1000;

/// What an allocation by Lua costs in the budget: a base (malloc, and the
/// collector tracing and freeing the object later, up to a few hundred ns
/// here once the heap outgrows the caches) and its bytes.
const UNITS_PER_ALLOCATION: usize = 64;
const BYTES_PER_UNIT: usize = 8;

/// Lua's bytes past which a run's collector goes incremental (see [`hook`]).
const INCREMENTAL_FROM: usize = 32 << 20;

/// Lua 5.4's default incremental settings (`lgc.h`).
pub(crate) const GC_PAUSE: c_int = 200;
pub(crate) const GC_STEP_MULTIPLIER: c_int = 100;
pub(crate) const GC_STEP_SIZE: c_int = 13;

/// Blocks this big are refused once the run is stopped (see [`allocate`]).
const BIG_BLOCK: usize = 64 << 10;

/// The largest block Lua allocates for a short string (40 bytes, interned):
/// `offsetof(TString, contents)` (24) plus the bytes and a terminating zero.
const SHORT_STRING_BLOCK: usize = 24 + 40 + 1;

/// The object kinds Lua names when it creates an object (`lua_Alloc`'s
/// `osize` with a NULL block): string, table, function, userdata, thread,
/// upvalue, prototype.
const OBJECT_TAGS: std::ops::RangeInclusive<usize> = 4..=10;

/// Why a run was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Budget,
    Memory,
    Timeout,
    Cancelled,
    /// The C stack of the thread running the script reached the floor the
    /// host set (`raw::cstack`): no pcall may catch it, so no map depends
    /// on how big that thread's stack is.
    Stack,
}

/// The limits and counters of the VM's current run. Shared (by raw
/// pointer) with the allocator and the hook, which live as long as the Lua
/// state; kept alive by the state's app data.
pub(crate) struct Guard {
    used: Cell<u64>,
    /// The part of `used` charged for native work (not Lua instructions).
    native: Cell<u64>,
    limit: Cell<u64>,
    stop: Cell<Option<Stop>>,
    /// `file:line` where the stop was first seen, if a script line was on
    /// the stack.
    at: RefCell<Option<String>>,
    detail: RefCell<Option<String>>,
    /// How the caller raises the budget, as a message names it (the
    /// command line's flag, or a game's call).
    budget_name: Cell<&'static str>,
    /// The deadline, held by the watchdog thread.
    alarm: Arc<Alarm>,
    /// The same deadline, for work done in another state on the run's
    /// behalf (compiling a module).
    deadline: Cell<Option<Instant>>,
    /// Lua's bytes when the run started (after the reset's collection):
    /// what `collectgarbage("count")` reports is the run's own.
    run_base: Cell<usize>,
    /// The most Lua's heap held since the last reset, and whether the
    /// script called `collectgarbage` (see `Vm::collect_history`).
    peak: Cell<usize>,
    gc_touched: Cell<bool>,
    /// Set from another thread to stop the run (the window's reloads).
    cancel: RefCell<Option<Arc<AtomicBool>>>,
    lua_bytes: Cell<usize>,
    native_bytes: Cell<usize>,
    memory_limit: Cell<usize>,
    /// The request the allocator refused so that Lua would run an emergency
    /// collection and ask again (its block and new size), while it waits
    /// for that retry; the run is stopped meanwhile (see [`allocate`]).
    refused: Cell<Option<(usize, usize)>>,
    /// The size of the last block the system itself refused this run (0:
    /// none): the process ran out of memory before the run's limit.
    system_refused: Cell<usize>,
    /// Memory held back for the host while the system has none left: freed
    /// when the system refuses a block to Lua, so the error that follows
    /// can be made and reported (Rust aborts on a failed allocation of its
    /// own); held again at the next run's start.
    spare: Cell<*mut u8>,
    inner_alloc: Cell<ffi::lua_Alloc>,
    inner_ud: Cell<*mut c_void>,
    main: Cell<*mut lua_State>,
    /// Small blocks Lua freed, kept for its next request of the same size.
    recycled: Recycled,
    /// The addresses of the raw userdata types' metatables, by
    /// [`RawType`]: found from any thread of the state through the guard,
    /// so a raw function tells its own userdata from any other value with
    /// one comparison (see `rect.rs`).
    raw_metatables: [Cell<*const c_void>; 2],
}

/// The userdata types whose functions are raw C (`rect.rs`).
#[derive(Clone, Copy)]
pub(crate) enum RawType {
    Rect = 0,
    RectIndex = 1,
}

/// Small blocks Lua freed, by exact size, handed back when Lua asks for a
/// block of that size again (most of what a run makes and frees are
/// objects of a few fixed sizes: tables, closures, rects, call frames).
/// A block taken from here skips the system allocator and mlua's layer
/// over it; about two thirds of what an allocation cost (`benches/`: see
/// the performance guide). Every block is one the inner allocator made
/// with exactly that size, so any later path (a realloc, `lua_close` after
/// [`Guard::uninstall`]) may hand it back to the inner allocator as usual.
/// The accounting is unchanged: a kept block counts as freed, a reused one
/// as allocated, exactly as if the system allocator had done it; what is
/// kept is capped at [`Recycled::MAX_KEPT`] bytes, so a run that frees a
/// big heap gives most of it back.
struct Recycled {
    /// `heads[n]`: a list of free blocks of `n` bytes, each holding the
    /// next one's address in its first word.
    heads: [Cell<*mut c_void>; Recycled::LARGEST + 1],
    kept: Cell<usize>,
}

impl Recycled {
    /// The largest block kept, and the smallest (a block holds a pointer).
    const LARGEST: usize = 256;
    const SMALLEST: usize = 16;
    /// The most bytes kept at once.
    const MAX_KEPT: usize = 4 << 20;

    fn new() -> Recycled {
        Recycled {
            heads: std::array::from_fn(|_| Cell::new(std::ptr::null_mut())),
            kept: Cell::new(0),
        }
    }

    /// A kept block of exactly `size` bytes, if there is one.
    ///
    /// SAFETY: every block in the lists is a live allocation of its list's
    /// size that nothing else points to (see [`Recycled::keep`]).
    unsafe fn take(&self, size: usize) -> Option<*mut c_void> {
        let head = self.heads.get(size)?;
        let block = head.get();
        if block.is_null() {
            return None;
        }
        head.set(*(block as *mut *mut c_void));
        self.kept.set(self.kept.get() - size);
        Some(block)
    }

    /// Keeps `block` (of `size` bytes, which Lua just freed) for reuse;
    /// false when it is not kept (too big, too small, or the cap reached).
    ///
    /// SAFETY: `block` is a live allocation of `size` bytes from the inner
    /// allocator that Lua no longer uses.
    unsafe fn keep(&self, block: *mut c_void, size: usize) -> bool {
        if !(Self::SMALLEST..=Self::LARGEST).contains(&size)
            || self.kept.get() + size > Self::MAX_KEPT
        {
            return false;
        }
        let head = &self.heads[size];
        *(block as *mut *mut c_void) = head.get();
        head.set(block);
        self.kept.set(self.kept.get() + size);
        true
    }

    /// Hands every kept block back to `inner`.
    ///
    /// SAFETY: `inner` and `ud` are the allocator the blocks came from.
    unsafe fn release(&self, inner: ffi::lua_Alloc, ud: *mut c_void) {
        for size in Self::SMALLEST..=Self::LARGEST {
            while let Some(block) = self.take(size) {
                inner(ud, block, size, 0);
            }
        }
    }
}

/// See [`Guard::take_gc_history`].
pub(crate) struct GcHistory {
    pub peak: usize,
    pub touched: bool,
}

/// Keeps the guard alive until the Lua state is closed (mlua drops app data
/// after `lua_close`, whose frees go through the allocator), and lets the
/// bindings find it.
struct KeepAlive(Rc<Guard>);

impl Drop for Guard {
    fn drop(&mut self) {
        self.free_spare();
    }
}

impl Guard {
    /// Wraps `lua`'s allocator and sets the budget hook on its main thread.
    pub(crate) fn install(lua: &Lua, memory_limit: usize) -> mlua::Result<Rc<Guard>> {
        // mlua keeps protecting its own allocations only while it believes a
        // memory limit is set; ours is the one that counts.
        lua.set_memory_limit(usize::MAX >> 2)?;
        let guard = Rc::new(Guard {
            used: Cell::new(0),
            native: Cell::new(0),
            limit: Cell::new(u64::MAX),
            stop: Cell::new(None),
            at: RefCell::new(None),
            detail: RefCell::new(None),
            budget_name: Cell::new("--max-instructions"),
            alarm: Alarm::new(hook),
            deadline: Cell::new(None),
            run_base: Cell::new(0),
            peak: Cell::new(0),
            gc_touched: Cell::new(false),
            cancel: RefCell::new(None),
            lua_bytes: Cell::new(lua.used_memory()),
            native_bytes: Cell::new(0),
            memory_limit: Cell::new(memory_limit),
            refused: Cell::new(None),
            system_refused: Cell::new(0),
            spare: Cell::new(std::ptr::null_mut()),
            inner_alloc: Cell::new(allocate),
            inner_ud: Cell::new(std::ptr::null_mut()),
            main: Cell::new(std::ptr::null_mut()),
            recycled: Recycled::new(),
            raw_metatables: Default::default(),
        });
        lua.set_app_data(KeepAlive(guard.clone()));
        // Every function the host makes is a C closure of one trampoline
        // (mlua's); Lua charges a call of it as a call into the host
        // (`dunlua_chargecall` in ldo.c).
        let probe = lua.create_function(|_, ()| Ok(()))?;
        let ptr = Rc::as_ptr(&guard);
        // SAFETY: the guard outlives the state (KeepAlive); the closure
        // leaves the stack as it found it.
        unsafe {
            lua.exec_raw::<()>(probe, |state| {
                dunlua_sethostcall(state, ffi::lua_tocfunction(state, -1));
                ffi::lua_pop(state, 1);
                let main = main_thread(state);
                let mut inner_ud = std::ptr::null_mut();
                let inner = ffi::lua_getallocf(main, &mut inner_ud);
                (*ptr).inner_alloc.set(inner);
                (*ptr).inner_ud.set(inner_ud);
                (*ptr).main.set(main);
                *(ffi::lua_getextraspace(main) as *mut *const Guard) = ptr;
                ffi::lua_setallocf(main, allocate, ptr as *mut c_void);
                ffi::lua_sethook(main, Some(hook), ffi::LUA_MASKCOUNT, HOOK_EVERY);
            })?;
        }
        Ok(guard)
    }

    /// The guard installed in `lua`, if any.
    pub(crate) fn of(lua: &Lua) -> Option<Rc<Guard>> {
        lua.app_data_ref::<KeepAlive>().map(|k| k.0.clone())
    }

    /// Gives the allocator back to mlua before the state closes, so mlua
    /// frees its own allocator state; the watchdog lets go of the state.
    pub(crate) fn uninstall(&self) {
        self.alarm.disarm();
        let main = self.main.get();
        if !main.is_null() {
            // SAFETY: the state is alive (the caller still owns the Lua);
            // every block, kept or in use, was allocated by the inner
            // allocator.
            unsafe {
                self.recycled
                    .release(self.inner_alloc.get(), self.inner_ud.get());
                ffi::lua_setallocf(main, self.inner_alloc.get(), self.inner_ud.get());
                // The state may be closed on another thread, whose stack
                // the floor set for the last run says nothing about: its
                // finalizers (which drop the host's values) must run.
                super::cstack::clear_floor(main);
            };
        }
    }

    /// Starts a run: a full budget of `limit`, the deadline (shared by all
    /// the attempts of one run), the
    /// flag that cancels it, no stop; the main thread's hook back to its
    /// normal pace.
    pub(crate) fn start_run(
        &self,
        limit: u64,
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
    ) {
        let main = self.main.get();
        // SAFETY: the main thread is alive while the guard is installed
        // (uninstall disarms before the state closes). Disarmed first, so
        // the watchdog cannot set the hook while it is reset here.
        unsafe {
            self.alarm.disarm();
            ffi::lua_sethook(main, Some(hook), ffi::LUA_MASKCOUNT, HOOK_EVERY);
            // The run may be on another thread than the last one.
            super::cstack::set_floor(main);
        }
        self.used.set(0);
        self.native.set(0);
        self.hold_spare();
        // SAFETY: reads and clears a counter of this thread's (ltable.c)
        // and one of the state's (ldo.c); the main thread is alive.
        unsafe {
            dunlua_take_chain_hops();
            dunlua_take_call_units(main);
        }
        self.limit.set(limit);
        self.clear_stop();
        *self.cancel.borrow_mut() = cancel;
        self.deadline.set(deadline);
        // SAFETY: as above.
        unsafe { self.alarm.arm(main, deadline) };
    }

    /// Holds [`SPARE_BYTES`] back for the host, if not held already and
    /// the system grants them.
    fn hold_spare(&self) {
        if self.spare.get().is_null() {
            // SAFETY: a nonzero size; null (refused) is kept as none.
            self.spare.set(unsafe { std::alloc::alloc(spare_layout()) });
        }
    }

    /// Gives the spare memory back to the system (see [`Guard::hold_spare`]).
    fn free_spare(&self) {
        let block = self.spare.replace(std::ptr::null_mut());
        if !block.is_null() {
            // SAFETY: allocated by hold_spare with this layout.
            unsafe { std::alloc::dealloc(block, spare_layout()) };
        }
    }

    /// Forgets a stop and a refused block left by work outside a run (a
    /// compile stopped by its deadline): the next compile starts clean, as
    /// a run does after [`Guard::start_run`].
    pub(crate) fn clear_stop(&self) {
        self.stop.set(None);
        *self.at.borrow_mut() = None;
        *self.detail.borrow_mut() = None;
        self.system_refused.set(0);
        self.refused.set(None);
    }

    /// The run's deadline, if it has one.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline.get()
    }

    /// The flag that cancels the run, if any.
    pub(crate) fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancel.borrow().clone()
    }

    /// The run is over: the watchdog no longer watches it.
    pub(crate) fn end_run(&self) {
        self.alarm.disarm();
    }

    /// Marks Lua's bytes now as the run's starting point.
    pub(crate) fn mark_run_base(&self) {
        self.run_base.set(self.lua_bytes.get());
    }

    /// Lua's bytes above the run's starting point.
    pub(crate) fn run_bytes(&self) -> usize {
        self.lua_bytes.get().saturating_sub(self.run_base.get())
    }

    /// What the collector went through since the last call: the heap's
    /// peak and whether the script called `collectgarbage`.
    pub(crate) fn take_gc_history(&self) -> GcHistory {
        let history = GcHistory {
            peak: self.peak.get(),
            touched: self.gc_touched.get(),
        };
        self.peak.set(self.lua_bytes.get());
        self.gc_touched.set(false);
        history
    }

    /// The script called `collectgarbage`.
    pub(crate) fn touch_gc(&self) {
        self.gc_touched.set(true);
    }

    /// Lua's bytes now (for charging a collection by the heap it walks).
    pub(crate) fn lua_bytes(&self) -> usize {
        self.lua_bytes.get()
    }

    /// Why the run stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<Stop> {
        self.stop.get()
    }

    /// The size of the last block the system refused this run, if it
    /// refused one (see [`system`]).
    pub(crate) fn system_refused(&self) -> Option<usize> {
        Some(self.system_refused.get()).filter(|&n| n > 0)
    }

    /// What [`mib`] says of `bytes`.
    pub(crate) fn size_text(bytes: usize) -> String {
        mib(bytes)
    }

    /// Where the stop was first seen.
    pub(crate) fn stopped_at(&self) -> Option<String> {
        self.at.borrow().clone()
    }

    /// The units the current run has used.
    pub(crate) fn used(&self) -> u64 {
        self.used.get().min(self.limit.get())
    }

    /// The units of native work the current run was charged.
    pub(crate) fn native(&self) -> u64 {
        self.native.get()
    }

    /// What the stop's message adds, if its cause said more.
    pub(crate) fn detail(&self) -> Option<String> {
        self.detail.borrow().clone()
    }

    /// How the caller raises the budget (see `LimitNames`).
    pub(crate) fn budget_name(&self) -> &'static str {
        self.budget_name.get()
    }

    pub(crate) fn set_budget_name(&self, name: &'static str) {
        self.budget_name.set(name);
    }

    /// Says more about the stop than its kind (a primitive refused at once).
    pub(crate) fn set_detail(&self, detail: String) {
        if self.detail.borrow().is_none() {
            *self.detail.borrow_mut() = Some(detail);
        }
    }

    /// Adds `more` to what the stop's message says (after what a
    /// primitive said of its own refusal, if it said something).
    pub(crate) fn add_detail(&self, more: &str) {
        let mut detail = self.detail.borrow_mut();
        *detail = Some(match detail.take() {
            Some(said) => format!("{said}; {more}"),
            None => more.to_string(),
        });
    }

    pub(crate) fn remaining(&self) -> u64 {
        self.limit.get().saturating_sub(self.used.get())
    }

    /// The bytes the run holds now: Lua's heap and the host's reservations.
    pub(crate) fn memory_used(&self) -> usize {
        self.lua_bytes.get() + self.native_bytes.get()
    }

    /// Adds `units` of work; `Err` (and the stop set) when the budget is
    /// spent, or any stop is already in force. `at` names the script line
    /// for the first stop.
    pub(crate) fn charge(
        &self,
        units: u64,
        at: impl FnOnce() -> Option<String>,
    ) -> Result<(), Stop> {
        self.native.set(self.native.get().saturating_add(units));
        if let Some(stop) = self.check(units) {
            self.set_stop(stop, at);
            return Err(stop);
        }
        Ok(())
    }

    /// Counts `bytes` held by the host for the script, if they fit under the
    /// memory limit (after a full collection of Lua's garbage, if needed);
    /// else the stop's message says what `what` needed.
    pub(crate) fn reserve(
        &self,
        lua: &Lua,
        what: &str,
        bytes: usize,
        at: impl FnOnce() -> Option<String>,
    ) -> Result<(), Stop> {
        if let Some(stop) = self.stop.get() {
            return Err(stop);
        }
        if self.memory_used().saturating_add(bytes) > self.memory_limit.get() {
            let _ = lua.gc_collect();
            if self.memory_used().saturating_add(bytes) > self.memory_limit.get() {
                let left = self.memory_limit.get().saturating_sub(self.memory_used());
                self.set_detail(format!(
                    "{what} needs about {} more and {} remain",
                    mib(bytes),
                    mib(left)
                ));
                self.set_stop(Stop::Memory, at);
                return Err(Stop::Memory);
            }
        }
        self.native_bytes.set(self.native_bytes.get() + bytes);
        Ok(())
    }

    /// Gives back bytes counted by [`Guard::reserve`].
    pub(crate) fn release(&self, bytes: usize) {
        self.native_bytes
            .set(self.native_bytes.get().saturating_sub(bytes));
    }

    /// The stop already due (budget spent, cancelled, deadline passed),
    /// looking at the clock now.
    fn overdue(&self) -> Option<Stop> {
        if self.used.get() > self.limit.get() {
            return Some(Stop::Budget);
        }
        self.out_of_time()
    }

    /// The deadline passed or the run cancelled, looking at the clock now
    /// (not the budget: compiling, which is charged before it starts, can
    /// run before a run's budget is set).
    fn out_of_time(&self) -> Option<Stop> {
        if let Some(cancel) = self.cancel.borrow().as_ref() {
            if cancel.load(Ordering::Relaxed) {
                return Some(Stop::Cancelled);
            }
        }
        self.alarm.fired().then_some(Stop::Timeout)
    }

    /// Sets a deadline (and a cancel flag) for work outside a run: the
    /// script's compilation, before its first run. `None` ends it.
    pub(crate) fn set_deadline(&self, deadline: Option<Instant>, cancel: Option<Arc<AtomicBool>>) {
        // SAFETY: the main thread is alive while the guard is installed.
        unsafe {
            self.alarm.arm(self.main.get(), deadline);
            // Parsing nests C calls too.
            super::cstack::set_floor(self.main.get());
        }
        self.deadline.set(deadline);
        *self.cancel.borrow_mut() = cancel;
    }

    /// The stop `units` more work would cause, counting them if none.
    fn check(&self, units: u64) -> Option<Stop> {
        if let Some(stop) = self.stop.get() {
            return Some(stop);
        }
        let used = self.used.get().saturating_add(units);
        self.used.set(used);
        if used > self.limit.get() {
            return Some(Stop::Budget);
        }
        self.out_of_time()
    }

    /// Sets the stop (the first one wins) and makes the main thread raise it
    /// at its next instruction.
    fn set_stop(&self, stop: Stop, at: impl FnOnce() -> Option<String>) {
        if self.stop.get().is_none() {
            self.stop.set(Some(stop));
        }
        if self.at.borrow().is_none() {
            let found = at();
            *self.at.borrow_mut() = found;
        }
        let main = self.main.get();
        // SAFETY: lua_sethook only stores fields (it is even signal-safe).
        unsafe { ffi::lua_sethook(main, Some(hook), ffi::LUA_MASKCOUNT, 1) };
    }
}

/// The main thread of the state `state` belongs to.
unsafe fn main_thread(state: *mut lua_State) -> *mut lua_State {
    ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
    let main = ffi::lua_tothread(state, -1);
    ffi::lua_pop(state, 1);
    main
}

/// The guard of the state `state` belongs to (every thread created after
/// [`Guard::install`] copies the pointer from the main thread), or `None`
/// for a state with no guard: dunlua's Lua starts every state's extra space
/// zeroed (`src/script/raw/lua/lstate.c`).
unsafe fn guard_of<'a>(state: *mut lua_State) -> Option<&'a Guard> {
    (*(ffi::lua_getextraspace(state) as *const *const Guard)).as_ref()
}

/// The allocator: mlua's, with the combined limit in front. A block that
/// would go over the limit is refused once and the run stopped, so Lua
/// collects its garbage and asks again:
/// - if the retry fits now, the stop is lifted (the garbage was the excess);
/// - if it still does not fit, it is granted (up to twice the limit) and
///   the stop stays, so the hook raises a located error at the script's
///   next instruction rather than Lua's bare "not enough memory";
/// - if no retry comes (Lua raised "not enough memory" at once), the stop
///   stays too: a `pcall` that catches that error cannot go on allocating.
unsafe extern "C" fn allocate(
    ud: *mut c_void,
    ptr: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    let guard = &*(ud as *const Guard);
    // The common cases first, with the same outcome as the checks below: a
    // free (never refused), and a small new block while nothing is stopped
    // or refused, the run is on time and the block fits the limit.
    if nsize == 0 {
        return guard.pass_on(ptr, osize, 0);
    }
    if ptr.is_null()
        && nsize < BIG_BLOCK
        && guard.stop.get().is_none()
        && guard.refused.get().is_none()
        && guard.memory_used() + nsize <= guard.memory_limit.get()
        && guard.out_of_time().is_none()
    {
        guard.charge_object(osize, nsize);
        return guard.pass_on(ptr, osize, nsize);
    }
    // A block Lua resizes without counting it (the string table, the host
    // thread's stack: see `dunlua_unaccounted` in lua/lstate.h): what the
    // script did does not decide its size, nor when it grows.
    if !ptr.is_null() && dunlua_resizing_unaccounted(guard.main.get()) != 0 {
        return guard.resize_unaccounted(ptr, osize, nsize);
    }
    // Without a block, `osize` is a type tag, not a size.
    let old = if ptr.is_null() { 0 } else { osize };
    // Lua's own C loops (a `__call` chain, growing the stack) run no
    // instructions and call no charge; a big block is where they can be
    // stopped: past the deadline or the budget, it is refused and Lua
    // raises, unwinding whatever loop asked for it.
    if nsize >= BIG_BLOCK && nsize > old && guard.stop.get().is_none() {
        if let Some(stop) = guard.overdue() {
            guard.set_stop(stop, || line_from_allocator(guard.main.get()));
        }
    }
    // Not while Lua moves a stack (the hook growing it to run, with the
    // stop already set): refused there, the error would leave unlocated;
    // granted, the hook raises the stop with its line right after.
    if nsize >= BIG_BLOCK
        && nsize > old
        && guard.stop.get().is_some_and(|s| s != Stop::Memory)
        && dunlua_lua_busy(guard.main.get()) == 0
    {
        return std::ptr::null_mut();
    }
    // Lua's parser and its string table run no instructions either, and
    // with the string hash seed fixed (for pairs() order) a script can carry
    // thousands of constants that collide, each interned in time
    // proportional to those before it: minutes in one compile. They
    // allocate as they go, so past the deadline (or once cancelled) every
    // new block is refused: the compile or loop raises at its next string.
    if nsize > old {
        if guard.stop.get().is_none() {
            if let Some(stop) = guard.out_of_time() {
                guard.set_stop(stop, || line_from_allocator(guard.main.get()));
            }
        }
        if matches!(guard.stop.get(), Some(Stop::Timeout | Stop::Cancelled))
            && dunlua_lua_busy(guard.main.get()) == 0
        {
            return std::ptr::null_mut();
        }
    }
    let request = (ptr as usize, nsize);
    // Frees and shrinks (the emergency collection's own) say nothing about
    // the refused request; the next request to grow is its retry or not.
    let retry = if nsize > old {
        guard.refused.take()
    } else {
        None
    };
    if retry.is_some() && retry != Some(request) {
        // The refused request was not asked again: Lua gave up on it.
        guard.set_stop(Stop::Memory, || line_from_allocator(guard.main.get()));
    }
    if nsize > old {
        let total = guard.memory_used() + (nsize - old);
        let limit = guard.memory_limit.get();
        if total > limit {
            if total > limit.saturating_mul(2) {
                guard.set_stop(Stop::Memory, || line_from_allocator(guard.main.get()));
                return std::ptr::null_mut();
            }
            let stopped = guard.stop.get().is_some() && retry.is_none();
            if retry != Some(request) && !stopped {
                // First refusal: let Lua collect and ask again.
                guard.stop.set(Some(Stop::Memory));
                guard.refused.set(Some(request));
                return std::ptr::null_mut();
            }
            // Still over after collecting, or already stopped: granted, so
            // the hook can raise the located stop at the next instruction.
            guard.set_stop(Stop::Memory, || line_from_allocator(guard.main.get()));
        } else if retry == Some(request) && guard.stop.get() == Some(Stop::Memory) {
            // The emergency collection made room: no stop after all.
            guard.stop.set(None);
        }
    }
    if ptr.is_null() && nsize > 0 {
        guard.charge_object(osize, nsize);
    }
    guard.pass_on(ptr, osize, nsize)
}

impl Guard {
    /// Charges the creation of an object of kind `tag` and `size` bytes.
    ///
    /// Creating an object costs more than the instruction that asked for
    /// it (the collector must later trace and free it): a loop that churns
    /// memory pays for that in the budget, noticed at the next hook. Only
    /// what the run's own code decides is charged (see the module doc): not
    /// short strings, not growth of existing blocks.
    fn charge_object(&self, tag: usize, size: usize) {
        let units = match tag {
            tag if tag == ffi::LUA_TSTRING as usize && size <= SHORT_STRING_BLOCK => 0,
            // Userdata are made by the host (whose calls are charged) and
            // by mlua, which keeps a pool of error boxes that an earlier
            // run's errors may have emptied.
            tag if tag == ffi::LUA_TUSERDATA as usize => 0,
            tag if OBJECT_TAGS.contains(&tag) => UNITS_PER_ALLOCATION + size / BYTES_PER_UNIT,
            // Not an object: a table's new hash part (when a table keyed by
            // tables or functions fills up depends on their addresses), a
            // call frame (reused from earlier runs).
            _ => 0,
        } as u64;
        self.used.set(self.used.get().saturating_add(units));
        self.native.set(self.native.get().saturating_add(units));
    }

    /// Resizes a block Lua leaves out of the counts (see [`allocate`]):
    /// by the [`system`] allocator, counting nothing.
    ///
    /// SAFETY: the arguments are a `lua_Alloc` call's, for this guard's
    /// state, resizing a block (`ptr` not null, `nsize` not 0).
    unsafe fn resize_unaccounted(
        &self,
        ptr: *mut c_void,
        osize: usize,
        nsize: usize,
    ) -> *mut c_void {
        system(ptr, osize, nsize)
    }

    /// Does what Lua asked, once the checks let it: a small block from the
    /// recycled ones when there is one, a freed small block kept, anything
    /// else by the [`system`] allocator; and counts Lua's bytes.
    ///
    /// SAFETY: the arguments are a `lua_Alloc` call's, for this guard's state.
    unsafe fn pass_on(&self, ptr: *mut c_void, osize: usize, nsize: usize) -> *mut c_void {
        let block = if ptr.is_null() {
            if nsize == 0 {
                return std::ptr::null_mut();
            }
            match self.recycled.take(nsize) {
                Some(block) => block,
                None => system(ptr, osize, nsize),
            }
        } else if nsize == 0 && self.recycled.keep(ptr, osize) {
            std::ptr::null_mut()
        } else {
            system(ptr, osize, nsize)
        };
        // Without a block, `osize` is a type tag, not a size.
        let old = if ptr.is_null() { 0 } else { osize };
        if nsize == 0 {
            // (Saturating: a block resized unaccounted, freed when the
            // state closes, is larger than what was counted for it.)
            self.lua_bytes.set(self.lua_bytes.get().saturating_sub(old));
        } else if block.is_null() {
            // The process is out of memory: the run stops (Lua raises at
            // once, or the hook at the next instruction if the emergency
            // collection found room), at this line; the spare memory lets
            // the host report it.
            self.system_refused.set(nsize);
            self.free_spare();
            self.set_stop(Stop::Memory, || line_from_allocator(self.main.get()));
        } else {
            let bytes = self.lua_bytes.get() - old + nsize;
            self.lua_bytes.set(bytes);
            if bytes > self.peak.get() {
                self.peak.set(bytes);
            }
        }
        block
    }
}

/// What [`Guard::hold_spare`] holds back: room for an error's message
/// and traceback, and the host's own work to report it.
const SPARE_BYTES: usize = 4 << 20;

fn spare_layout() -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(SPARE_BYTES, 16).expect("a valid layout")
}

/// What mlua's allocator does (the global allocator, blocks aligned to
/// `SYS_MIN_ALIGN`, so either frees the other's blocks) except when the
/// system refuses memory: mlua's aborts the process (`handle_alloc_error`:
/// a game loading a mod died under `ulimit -v` with the run inside its
/// limit); this returns null, which Lua raises as its memory error. mlua's
/// count of its bytes is left as it was when the guard was installed:
/// nothing reads it after that (the guard counts).
///
/// SAFETY: a `lua_Alloc` call's arguments for a block of this allocator's
/// (or mlua's).
unsafe fn system(ptr: *mut c_void, osize: usize, nsize: usize) -> *mut c_void {
    use std::alloc::{alloc, dealloc, realloc, Layout};
    const ALIGN: usize = ffi::SYS_MIN_ALIGN;
    if nsize == 0 {
        if !ptr.is_null() {
            dealloc(
                ptr as *mut u8,
                Layout::from_size_align_unchecked(osize, ALIGN),
            );
        }
        return std::ptr::null_mut();
    }
    if nsize > isize::MAX as usize - ALIGN {
        return std::ptr::null_mut();
    }
    if ptr.is_null() {
        return alloc(Layout::from_size_align_unchecked(nsize, ALIGN)) as *mut c_void;
    }
    realloc(
        ptr as *mut u8,
        Layout::from_size_align_unchecked(osize, ALIGN),
        nsize,
    ) as *mut c_void
}

extern "C-unwind" {
    /// Whether Lua is moving a stack or collecting garbage right now (its
    /// `gcstopem`; `src/script/raw/lua/lstate.c`).
    fn dunlua_lua_busy(state: *mut lua_State) -> c_int;
    /// Whether the block Lua is resizing now is left out of the counts
    /// (`src/script/raw/lua/lstate.c`).
    fn dunlua_resizing_unaccounted(state: *mut lua_State) -> c_int;
    /// Sets the C function of every call into the host, which Lua charges
    /// as such (`src/script/raw/lua/ldo.c`, `dunlua_chargecall`).
    fn dunlua_sethostcall(state: *mut lua_State, f: Option<ffi::lua_CFunction>);
    /// The hops through chains of colliding keys Lua's lookups made on this
    /// thread since the last call (`src/script/raw/lua/ltable.c`).
    fn dunlua_take_chain_hops() -> usize;
    /// The call charges Lua took off the count hook's count since the last
    /// call (`src/script/raw/lua/ldo.c`).
    fn dunlua_take_call_units(state: *mut lua_State) -> usize;
}

/// [`script_line`] for a stop the allocator sets, unless Lua is in the
/// middle of moving a stack (its frames point nowhere until the move ends:
/// reading them crashed the process) or collecting; the hook then finds
/// the line when it raises the stop.
unsafe fn line_from_allocator(state: *mut lua_State) -> Option<String> {
    if dunlua_lua_busy(state) != 0 {
        return None;
    }
    script_line(state, None)
}

/// The first script line on `state`'s stack, as `file:line`, starting at
/// `ar` (the running function) when given.
unsafe fn script_line(state: *mut lua_State, ar: Option<*mut lua_Debug>) -> Option<String> {
    let mut probe: lua_Debug = std::mem::zeroed();
    let read = |ar: *mut lua_Debug| -> Option<String> {
        if ffi::lua_getinfo(state, c"Sl".as_ptr(), ar) == 0 || (*ar).currentline < 0 {
            return None;
        }
        let src = CStr::from_ptr((*ar).short_src.as_ptr()).to_string_lossy();
        let source = CStr::from_ptr((*ar).source).to_bytes();
        // Host chunks ("=sandbox") are not where the script is.
        (source.first() == Some(&b'@')).then(|| format!("{src}:{}", (*ar).currentline))
    };
    if let Some(ar) = ar {
        if let Some(found) = read(ar) {
            return Some(found);
        }
    }
    (0..64).find_map(|level| {
        (ffi::lua_getstack(state, level, &mut probe) != 0)
            .then(|| read(&mut probe))
            .flatten()
    })
}

/// What a stop says where it is raised inside the script (a `pcall` that
/// catches it sees this; the host reports its own full message).
fn stop_text(stop: Stop) -> &'static CStr {
    match stop {
        Stop::Budget => c"instruction budget exceeded",
        Stop::Memory => c"memory limit exceeded",
        Stop::Timeout => c"timed out",
        Stop::Cancelled => c"cancelled",
        Stop::Stack => c"C stack exhausted",
    }
}

/// Raises the guard's stop on `state`: this thread, and the main thread,
/// now raise at every instruction, so the stop cannot be caught for good.
/// (A coroutine's stop ends its `resume` with `false`: the main thread
/// must raise it again at its next instruction, not a thousand later, or a
/// run that returns at once would end as if nothing had stopped it; the
/// host checks the stop after every call into the script for a run that
/// runs no further instruction at all.)
unsafe fn raise_stop(state: *mut lua_State, guard: &Guard, ar: Option<*mut lua_Debug>) -> ! {
    let stop = guard.stop.get().unwrap_or(Stop::Budget);
    if guard.at.borrow().is_none() {
        let at = script_line(state, ar);
        *guard.at.borrow_mut() = at;
    }
    ffi::lua_sethook(state, Some(hook), ffi::LUA_MASKCOUNT, 1);
    let main = guard.main.get();
    if !main.is_null() && main != state {
        ffi::lua_sethook(main, Some(hook), ffi::LUA_MASKCOUNT, 1);
    }
    // The message is built on the Lua stack from the guard's own string (no
    // borrow or other Rust value is alive when a push or lua_error jumps).
    let (at, len) = match guard.at.borrow().as_deref() {
        Some(at) => (at.as_ptr(), at.len()),
        None => (std::ptr::null(), 0),
    };
    if at.is_null() {
        ffi::lua_pushstring(state, stop_text(stop).as_ptr());
    } else {
        ffi::lua_pushlstring(state, at as *const _, len);
        ffi::lua_pushstring(state, c": ".as_ptr());
        ffi::lua_pushstring(state, stop_text(stop).as_ptr());
        ffi::lua_concat(state, 3);
    }
    ffi::lua_error(state)
}

/// The count hook, on every thread of the state (and armed at count 1 by
/// the watchdog when the deadline passes).
pub(crate) unsafe extern "C-unwind" fn hook(state: *mut lua_State, ar: *mut lua_Debug) {
    let Some(guard) = guard_of(state) else {
        return;
    };
    // The instructions since the last hook, and the hops through chains
    // of colliding keys that lookups made meanwhile (ltable.c).
    let hops = dunlua_take_chain_hops() as u64;
    // Calls charged off the hook's count are in its interval already, but
    // are native work, not instructions.
    let calls = dunlua_take_call_units(state) as u64;
    guard.native.set(
        guard
            .native
            .get()
            .saturating_add(hops)
            .saturating_add(calls),
    );
    match guard.check(HOOK_EVERY as u64 + hops) {
        None => {
            if guard.lua_bytes.get() > INCREMENTAL_FROM && !guard.gc_touched.get() {
                // A big heap: its major collections would be one long pause
                // (seconds at hundreds of MB) that no deadline interrupts.
                // From here the run collects incrementally, in steps between
                // instructions; the reset then makes a full collection. At a
                // hook, so at the same instruction in every run.
                guard.gc_touched.set(true);
                ffi::lua_gc(
                    state,
                    ffi::LUA_GCINC,
                    GC_PAUSE,
                    GC_STEP_MULTIPLIER,
                    GC_STEP_SIZE,
                );
            }
        }
        Some(stop) => {
            if guard.stop.get().is_none() {
                guard.stop.set(Some(stop));
            }
            raise_stop(state, guard, Some(ar))
        }
    }
}

/// Bytes as a message says them: `1.5 MiB`, `390 MiB`.
fn mib(bytes: usize) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    // Under a MiB in KiB (a few KiB read "0.0 MiB more and 0.1 MiB remain").
    if bytes < 1 << 10 {
        format!("{bytes} bytes")
    } else if bytes < 1 << 20 {
        format!("{} KiB", (bytes + 512) >> 10)
    } else if mib < 10.0 {
        format!("{mib:.1} MiB")
    } else {
        format!("{mib:.0} MiB")
    }
}

/// [`dunlua_charge`] for the raw function `what` (`rect_index:insert`):
/// when `units` are more than the budget has left, the stop's message says
/// which call needed how much, as a binding's charge does (it said "a
/// runaway loop?" of one insert of a huge rect).
pub(crate) unsafe fn charge_for(state: *mut lua_State, what: &str, units: usize) {
    charge_as(state, Some(what), units)
}

/// Charges `units` of work done by a C library function; raises the stop
/// (and does not return) once the budget is spent or another stop is in
/// force. Called by the patched Lua libraries.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_charge(state: *mut lua_State, units: usize) {
    charge_as(state, None, units)
}

/// [`dunlua_charge`], saying what `what` needed when it is named and
/// stopped: one look-up of the guard a call (the raw Rect.index functions
/// run 60 times a rooms.lua map).
unsafe fn charge_as(state: *mut lua_State, what: Option<&str>, units: usize) {
    let Some(guard) = guard_of(state) else {
        return;
    };
    let remaining = guard.remaining();
    guard
        .native
        .set(guard.native.get().saturating_add(units as u64));
    if let Some(stop) = guard.check(units as u64) {
        if guard.stop.get().is_none() {
            if let Some(what) = what.filter(|_| units as u64 > remaining) {
                guard.set_detail(format!(
                    "{what} needs about {units} units of work and {remaining} remain"
                ));
            }
            guard.stop.set(Some(stop));
        }
        raise_stop(state, guard, None)
    }
}

/// Adds `units` of work done by Lua's own C code where raising is not
/// allowed (after an error was caught, in `ldo.c`, also for the host's
/// protected calls; inside a comparison, in `lvm.c`). Once the budget is
/// spent, the stop is set and this thread's hook armed to raise it at the
/// next instruction (not 1,000 instructions on, each of which may be
/// another such step).
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_note_work(state: *mut lua_State, units: usize) {
    let Some(guard) = guard_of(state) else {
        return;
    };
    guard
        .native
        .set(guard.native.get().saturating_add(units as u64));
    let used = guard.used.get().saturating_add(units as u64);
    guard.used.set(used);
    if used > guard.limit.get() && guard.stop.get().is_none() {
        guard.set_stop(Stop::Budget, || None);
        ffi::lua_sethook(state, Some(hook), ffi::LUA_MASKCOUNT, 1);
    }
}

/// Whether the run of `state` must stop now (a stop is set, the deadline
/// passed, the run was cancelled): what Lua's own long C loops (a table's
/// rehash, `src/script/raw/lua/ltable.c`) look at between steps.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_stop_pending(state: *mut lua_State) -> c_int {
    let Some(guard) = guard_of(state) else {
        return 0;
    };
    if guard.stop.get().is_none() {
        if let Some(stop) = guard.out_of_time() {
            guard.set_stop(stop, || script_line(state, None));
        }
    }
    guard.stop.get().is_some() as c_int
}

/// Whether an emergency collection could make the allocator grant a block
/// it refused: not once the run is out of time, budget or cancelled (those
/// refusals are for good); yes for no stop or the memory stop (the refusal
/// that asks Lua to collect and ask again). Lua's `lmem.c` asks before it
/// collects.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_collect_may_help(state: *mut lua_State) -> c_int {
    match guard_of(state) {
        Some(guard) => matches!(guard.stop.get(), None | Some(Stop::Memory)) as c_int,
        None => 1,
    }
}

/// Raises the run's stop on `state` (located), for Lua's own C code that
/// found [`dunlua_stop_pending`] true and put its structures in order.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_raise_stop(state: *mut lua_State) {
    if let Some(guard) = guard_of(state) {
        if guard.stop.get().is_some() {
            raise_stop(state, guard, None)
        }
    }
}

/// Stops the run for good when a C call goes below the C stack's floor
/// (`dunlua_checkcstack` in lstate.c); returns (for Lua's own catchable
/// "C stack overflow") only in a state no guard watches.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_stack_exhausted(state: *mut lua_State) {
    if let Some(guard) = guard_of(state) {
        guard.set_stop(Stop::Stack, || line_from_allocator(guard.main.get()));
        // Room for the message: the call being made may have used the
        // frame's slots.
        ffi::lua_checkstack(state, 4);
        raise_stop(state, guard, None)
    }
}

/// Refuses, with the located memory stop, a result of `bytes` that would
/// not fit under the memory limit (after a full collection). Called by the
/// patched Lua libraries before they build a large result.
#[no_mangle]
pub unsafe extern "C-unwind" fn dunlua_reserve(state: *mut lua_State, bytes: usize) {
    let Some(guard) = guard_of(state) else {
        return;
    };
    if guard.stop.get().is_none() {
        let fits = |g: &Guard| g.memory_used().saturating_add(bytes) <= g.memory_limit.get();
        if fits(guard) {
            return;
        }
        ffi::lua_gc(state, ffi::LUA_GCCOLLECT, 0);
        if fits(guard) {
            return;
        }
        guard.stop.set(Some(Stop::Memory));
    }
    raise_stop(state, guard, None)
}

/// Records the address of `kind`'s metatable, which the registry keeps alive.
pub(crate) fn set_raw_metatable(lua: &Lua, kind: RawType, metatable: *const c_void) {
    if let Some(guard) = Guard::of(lua) {
        guard.raw_metatables[kind as usize].set(metatable);
    }
}

/// The address of `kind`'s metatable in the state of `state` (null before
/// it is registered, or in a state with no guard).
pub(crate) unsafe fn raw_metatable(state: *mut lua_State, kind: RawType) -> *const c_void {
    match guard_of(state) {
        Some(guard) => guard.raw_metatables[kind as usize].get(),
        None => std::ptr::null(),
    }
}

/// For the fast paths: charges `units` to the run of `state` and says
/// whether the call may go ahead (if not, the ordinary binding raises the
/// located stop).
pub(crate) unsafe fn fast_charge(state: *mut lua_State, units: u64) -> bool {
    match guard_of(state) {
        Some(guard) => {
            guard.native.set(guard.native.get().saturating_add(units));
            guard.check(units).is_none()
        }
        None => true,
    }
}

/// Counts `bytes` more held by a raw userdata against the memory limit,
/// raising the located memory stop (and not returning) when they do not fit.
pub(crate) unsafe fn hold(state: *mut lua_State, bytes: usize) {
    let Some(guard) = guard_of(state) else {
        return;
    };
    dunlua_reserve(state, bytes);
    guard.native_bytes.set(guard.native_bytes.get() + bytes);
}

/// Gives back bytes counted by [`hold`].
pub(crate) unsafe fn release(state: *mut lua_State, bytes: usize) {
    if let Some(guard) = guard_of(state) {
        guard.release(bytes);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_the_unit_they_are_near() {
        assert_eq!(mib(100), "100 bytes");
        assert_eq!(mib(100 << 10), "100 KiB");
        assert_eq!(mib(3 << 19), "1.5 MiB");
        assert_eq!(mib(389 << 20), "389 MiB");
    }

    /// A system allocator that counts its live blocks.
    unsafe extern "C" fn counting(
        ud: *mut c_void,
        ptr: *mut c_void,
        _osize: usize,
        nsize: usize,
    ) -> *mut c_void {
        let live = &*(ud as *const Cell<i64>);
        if nsize == 0 {
            if !ptr.is_null() {
                live.set(live.get() - 1);
                libc::free(ptr);
            }
            return std::ptr::null_mut();
        }
        if ptr.is_null() {
            live.set(live.get() + 1);
        }
        libc::realloc(ptr, nsize)
    }

    #[test]
    fn a_freed_small_block_serves_the_next_request_of_its_size_only() {
        let live = Cell::new(0i64);
        let ud = &live as *const Cell<i64> as *mut c_void;
        let kept = Recycled::new();
        // SAFETY: every block comes from `counting` with the size given.
        unsafe {
            let a = counting(ud, std::ptr::null_mut(), 0, 40);
            let b = counting(ud, std::ptr::null_mut(), 0, 1000);
            assert!(kept.keep(a, 40), "a small block is kept");
            assert!(!kept.keep(b, 1000), "a big one goes back");
            counting(ud, b, 1000, 0);
            assert_eq!(kept.take(48), None, "not for another size");
            assert_eq!(kept.take(40), Some(a), "the same block, for its size");
            assert_eq!(kept.take(40), None);
            assert!(kept.keep(a, 40));
            kept.release(counting, ud);
            assert_eq!(live.get(), 0, "every kept block handed back");
        }
    }

    #[test]
    fn what_is_kept_stays_under_its_cap() {
        let live = Cell::new(0i64);
        let ud = &live as *const Cell<i64> as *mut c_void;
        let kept = Recycled::new();
        let size = Recycled::LARGEST;
        let fits = Recycled::MAX_KEPT / size;
        // SAFETY: as above.
        unsafe {
            for i in 0..fits + 10 {
                let block = counting(ud, std::ptr::null_mut(), 0, size);
                if !kept.keep(block, size) {
                    assert!(i >= fits, "refused at {i} of {fits}");
                    counting(ud, block, size, 0);
                }
            }
            assert_eq!(live.get(), fits as i64);
            assert!(kept.kept.get() <= Recycled::MAX_KEPT);
            kept.release(counting, ud);
            assert_eq!(live.get(), 0);
        }
    }
}
