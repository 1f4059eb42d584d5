//! dunlua's C ABI: what a C, C++, Python (`ctypes`), LuaJIT (`ffi`), Godot
//! (GDExtension) or Unity (P/Invoke) game calls to run a dunlua script at
//! run time. `include/dunlua.h` is generated from this file by cbindgen.
//!
//! Design, for callers that cannot be trusted to get pointers right:
//! - **Handles are ids, not addresses.** A `DunluaGenerator *`,
//!   `DunluaMap *` or `DunluaModule *` is a number dunlua looks up in a
//!   table of live objects; it is never dereferenced. A NULL, freed,
//!   made-up or wrong-kind handle gives `DUNLUA_STATUS_BAD_HANDLE` (or
//!   0/NULL from a plain getter), not a crash, and a double free does
//!   nothing.
//! - **Values cross as plain integers.** No parameter is a Rust enum or
//!   `bool` (types with values a C caller could pass that Rust may not
//!   hold): a status or a flag comes in as an integer and is mapped, and an
//!   unknown value is an answer (`"unknown"`) or an error status. The enums
//!   are `int32_t` in the header, whatever the C compiler's enum size.
//! - **Nothing is written before every argument is checked**: a call
//!   refused for a bad handle, a NULL or a wrong capacity leaves the
//!   caller's out-parameters and arrays as they were, and a call that
//!   fills an array writes only the slots it fills.
//! - **No panic crosses the boundary**: every function body runs under
//!   `catch_unwind`; a panic becomes `DUNLUA_STATUS_PANIC` with its message.
//! - **Errors are a status plus a message.** The message of a generator's
//!   last call is `dunlua_generator_error(g)`; errors that have no
//!   generator (a bad map handle, a NULL argument) are also kept per
//!   thread in `dunlua_last_error()`.
//! - **Threads.** Every object sits behind a lock: calls on one generator
//!   from two threads take turns (so use one generator per thread to
//!   generate in parallel); maps are immutable and readable anywhere.
//!
//! All `unsafe` here is reading the caller's C strings and byte ranges and
//! writing the caller's out-parameters, each checked for NULL first.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use dunlua::{FailureKind, Generated, Generator, GeneratorBuilder, LimitNames, Limits};

/// What a call did. Every function that can fail returns one (an
/// `int32_t`; `dunlua_status_name` names it).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DunluaStatus {
    /// It worked.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// A handle that is not a live object of the right kind (freed, made up,
    /// a map where a generator was expected).
    BadHandle = 2,
    /// A string argument is not UTF-8.
    InvalidText = 3,
    /// Something the caller asked is impossible: an unknown parameter or a
    /// value of the wrong type, a bad size, an unreadable script.
    Usage = 4,
    /// The script does not compile.
    Syntax = 5,
    /// A Lua error while loading or generating.
    Runtime = 6,
    /// The script broke the contract (no table, no `generate`).
    Contract = 7,
    /// The instruction budget or the memory limit ran out.
    Limit = 8,
    /// The run's wall-clock deadline passed.
    TimedOut = 9,
    /// The run was cancelled.
    Cancelled = 10,
    /// Every attempt was rejected by the script.
    Rejected = 11,
    /// The script set no start, or left it on a cell that is not walkable.
    BadStart = 12,
    /// An index past the end of a list.
    OutOfRange = 13,
    /// dunlua itself failed (a bug): the message says where.
    Panic = 14,
}

/// A compiled script that generates maps seed after seed. Opaque.
pub struct DunluaGenerator(());

/// One generated map. Opaque; read it with the `dunlua_map_*` functions.
pub struct DunluaMap(());

/// Where a module loader puts a module's source. Opaque; a handle like the
/// others, live only during the loader call it is given to: after it, or
/// given anywhere else, it is `DUNLUA_STATUS_BAD_HANDLE`.
pub struct DunluaModule(());

/// A module loader: called with `relative_path` such as `"lib/doors.lua"`
/// (for `require("lib.doors")`, relative to the script's folder) when the
/// script first requires it. To supply the module, call
/// `dunlua_module_set_source(module, text, length)` before returning; not
/// calling it means there is no such module. It may be called from any
/// thread that calls a function on the generator, during that call, and
/// is called with that thread's numbers in the C locale (dunlua holds them
/// there while Lua runs, so maps do not depend on the game's locale; the
/// thread's own locale is back when the call returns).
pub type DunluaModuleLoader = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        relative_path: *const c_char,
        module: *mut DunluaModule,
    ),
>;

/// A tile kind. The strings are owned by the map and live as long as it.
#[repr(C)]
pub struct DunluaTileKind {
    /// `"wall"`, `"floor"`, ... or a kind the script defined.
    pub name: *const c_char,
    /// The glyph as UTF-8 text (one character).
    pub glyph: *const c_char,
    /// The glyph as a Unicode code point.
    pub codepoint: u32,
    /// Foreground colour, 0xRRGGBB.
    pub color: u32,
    /// Background colour, 0xRRGGBB.
    pub background: u32,
    pub walkable: bool,
    pub transparent: bool,
}

/// A room: corners `(x1, y1)` and `(x2, y2)`, both inclusive.
#[repr(C)]
pub struct DunluaRoom {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

/// A named point. The name is owned by the map and lives as long as it.
#[repr(C)]
pub struct DunluaMarker {
    pub x: i32,
    pub y: i32,
    pub name: *const c_char,
}

/// What kind of value a marker property holds (an `int32_t`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DunluaValueKind {
    /// An integer: in `integer` (and, as a double, in `number`).
    Integer = 0,
    /// A number with a fraction: in `number`.
    Number = 1,
    /// `true` or `false`: in `boolean`.
    Boolean = 2,
    /// Text: in `text`, UTF-8 and NUL-terminated.
    Text = 3,
}

/// One property of a marker, as the script gave it in
/// `map:mark(x, y, name, props)`; a marker's properties come sorted by key.
/// The strings are owned by the map and live as long as it.
#[repr(C)]
pub struct DunluaProperty {
    pub key: *const c_char,
    pub kind: DunluaValueKind,
    pub integer: i64,
    pub number: f64,
    pub boolean: bool,
    /// The text of a `DUNLUA_VALUE_KIND_TEXT` value, else NULL.
    pub text: *const c_char,
}

// ---------------------------------------------------------------- objects

/// A generator handle: its state behind a lock (calls on it take turns)
/// and, outside the lock, what another thread may do to the call under way:
/// cancel it, or free the generator.
struct GeneratorHandle {
    state: Mutex<GeneratorState>,
    /// The library's cancel flag (every build and run of this generator
    /// watches it): set by `dunlua_generator_cancel` or `_free` while a
    /// call runs, cleared when the next call starts.
    cancel: Arc<AtomicBool>,
    /// Whether a call that runs the script is under way.
    busy: AtomicBool,
    /// Set by `dunlua_generator_free`: the module loader is not called
    /// again (its user data may be gone).
    freed: Arc<AtomicBool>,
}

impl GeneratorHandle {
    /// Cancels the call under way, if any.
    fn cancel(&self) {
        if self.busy.load(Ordering::SeqCst) {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }
}

/// A generator handle's state: what it is built from, the generator (when
/// the last build worked) and the last call's outcome.
struct GeneratorState {
    builder: GeneratorBuilder,
    generator: Option<Generator>,
    /// Not built yet: made by `from_file`/`from_source` and given no setter
    /// since, so its first build runs with the limits a setter gives first
    /// (`dunlua_generator_set_limits` before anything else), not the
    /// defaults.
    pending: bool,
    status: DunluaStatus,
    error: CString,
    traceback: CString,
}

/// A map handle's state: the map and the C views of it, made once.
struct MapState {
    generated: Generated,
    tile_ids: Vec<u8>,
    kind_texts: Vec<(CString, CString)>,
    marker_names: Vec<CString>,
    /// Each marker's property keys and text values.
    marker_props: Vec<Vec<(CString, Option<CString>)>>,
    /// Each room's name and kind, where the script gave them.
    room_texts: Vec<(Option<CString>, Option<CString>)>,
    json: OnceLock<CString>,
}

/// What a module loader supplied through its `DunluaModule *`: the
/// module's text, or why the text it gave was refused.
type ModuleSlot = Mutex<Option<Result<String, String>>>;

#[derive(Clone)]
enum Object {
    Generator(Arc<GeneratorHandle>),
    Map(Arc<MapState>),
    Module(Arc<ModuleSlot>),
    Proof(Arc<ProofState>),
}

impl Object {
    fn kind(&self) -> &'static str {
        match self {
            Object::Generator(_) => "generator",
            Object::Map(_) => "map",
            Object::Module(_) => "module",
            Object::Proof(_) => "proof",
        }
    }
}

/// The live objects by handle id. Ids count up and are never reused, so a
/// stale handle can never reach a newer object.
struct Registry {
    next: usize,
    live: HashMap<usize, Object>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            Mutex::new(Registry {
                next: 1,
                live: HashMap::new(),
            })
        })
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Handle ids are spaced by 16 so a handle looks like an aligned pointer to
/// tools that print it; it is never dereferenced.
const HANDLE_STEP: usize = 16;

/// A handle for `object`. Ids are never reused, so there is a last one (a
/// 32-bit process has 2^28 - 1): past it, an error instead of a handle
/// that wraps round to NULL or to a live object's.
fn register(object: Object) -> Result<usize, Failure> {
    let mut registry = registry();
    let id = registry.next;
    let handle = id.checked_mul(HANDLE_STEP).ok_or_else(|| {
        Failure::new(
            DunluaStatus::Limit,
            format!(
                "dunlua has made {} handles, the most this process can tell apart",
                id - 1
            ),
        )
    })?;
    registry.next = id + 1;
    registry.live.insert(id, object);
    Ok(handle)
}

/// The registry key of a handle, if it could be one.
fn key(handle: usize) -> Option<usize> {
    (handle != 0 && handle.is_multiple_of(HANDLE_STEP)).then_some(handle / HANDLE_STEP)
}

fn lookup(handle: usize) -> Option<Object> {
    registry().live.get(&key(handle)?).cloned()
}

/// Removes the object of `handle` if it is a `kind` (a handle of another
/// kind stays live: looked at and removed under one lock, so no reader of
/// it ever sees it missing).
fn unregister(handle: usize, kind: &str) -> Option<Object> {
    let key = key(handle)?;
    let mut registry = registry();
    if registry.live.get(&key)?.kind() != kind {
        return None;
    }
    registry.live.remove(&key)
}

/// The object of a handle that must be of kind `what`.
fn object_of(handle: usize, what: &str) -> Result<Object, Failure> {
    match lookup(handle) {
        Some(object) if object.kind() == what => Ok(object),
        Some(object) => Err(Failure::new(
            DunluaStatus::BadHandle,
            format!(
                "a {} handle was given where a {what} was expected",
                object.kind()
            ),
        )),
        None => Err(bad_handle(what, handle)),
    }
}

fn generator_of(g: *const DunluaGenerator) -> Result<Arc<GeneratorHandle>, Failure> {
    match object_of(g as usize, "generator")? {
        Object::Generator(state) => Ok(state),
        _ => unreachable!("object_of checked the kind"),
    }
}

fn map_of(m: *const DunluaMap) -> Result<Arc<MapState>, Failure> {
    match object_of(m as usize, "map")? {
        Object::Map(state) => Ok(state),
        _ => unreachable!("object_of checked the kind"),
    }
}

fn module_of(module: *mut DunluaModule) -> Result<Arc<ModuleSlot>, Failure> {
    match object_of(module as usize, "module")? {
        Object::Module(slot) => Ok(slot),
        _ => unreachable!("object_of checked the kind"),
    }
}

fn bad_handle(what: &str, handle: usize) -> Failure {
    if handle == 0 {
        Failure::new(
            DunluaStatus::BadHandle,
            format!("the {what} handle is NULL"),
        )
    } else {
        Failure::new(
            DunluaStatus::BadHandle,
            if what == "module" {
                format!(
                    "{handle:#x} is not a live module handle (its loader call is over, \
                     or it never was one)"
                )
            } else {
                format!("{handle:#x} is not a live {what} handle (freed, or never made by dunlua)")
            },
        )
    }
}

thread_local! {
    /// The generators this thread is inside (their lock held), so a module
    /// loader calling back into its own generator gets an error instead of
    /// waiting forever for a lock its own thread holds.
    static INSIDE: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Runs `body` on the state of generator `g`, holding its lock.
fn with_state<R>(
    g: *const DunluaGenerator,
    body: impl FnOnce(&mut GeneratorState) -> R,
) -> Result<R, Failure> {
    let generator = generator_of(g)?;
    let handle = g as usize;
    if INSIDE.with(|inside| inside.borrow().contains(&handle)) {
        return Err(Failure::new(
            DunluaStatus::Usage,
            "a generator was called from inside its own module loader; \
             a loader may only call dunlua_module_set_source",
        ));
    }
    let mut guard = generator
        .state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // A cancel meant for an earlier call does not reach this one; but a
    // call that waited for the lock while the generator was freed does not
    // run at all (`freed` is set before the cancel, so a cancel this store
    // wiped is seen here). Busy before `freed` is read: a free that sets
    // `freed` after the read then sees the call busy and cancels it.
    generator.cancel.store(false, Ordering::SeqCst);
    generator.busy.store(true, Ordering::SeqCst);
    if generator.freed.load(Ordering::SeqCst) {
        generator.busy.store(false, Ordering::SeqCst);
        return Err(Failure::new(
            DunluaStatus::Cancelled,
            "the generator was freed while this call waited for it",
        ));
    }
    INSIDE.with(|inside| inside.borrow_mut().push(handle));
    let result = catch_unwind(AssertUnwindSafe(|| body(&mut guard)));
    generator.busy.store(false, Ordering::SeqCst);
    INSIDE.with(|inside| inside.borrow_mut().retain(|&h| h != handle));
    drop(guard);
    result.map_err(|panic| panicked(&panic))
}

// ----------------------------------------------------------------- errors

/// A failed call: its status and message.
struct Failure {
    status: DunluaStatus,
    message: String,
    /// The script's Lua frames, innermost first, one per line.
    traceback: String,
}

impl Failure {
    fn new(status: DunluaStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            traceback: String::new(),
        }
    }
}

impl From<dunlua::Error> for Failure {
    fn from(err: dunlua::Error) -> Failure {
        let status = match err.kind {
            FailureKind::Usage => DunluaStatus::Usage,
            FailureKind::Syntax => DunluaStatus::Syntax,
            FailureKind::Runtime => DunluaStatus::Runtime,
            FailureKind::Contract => DunluaStatus::Contract,
            FailureKind::Limit => DunluaStatus::Limit,
            FailureKind::TimedOut => DunluaStatus::TimedOut,
            FailureKind::Cancelled => DunluaStatus::Cancelled,
            FailureKind::Rejected => DunluaStatus::Rejected,
            FailureKind::BadStart => DunluaStatus::BadStart,
        };
        // The message is the one line that names the script's line; the
        // Lua frames are kept apart for `dunlua_generator_traceback`.
        Failure {
            status,
            message: err.message,
            traceback: err.traceback.join("\n"),
        }
    }
}

thread_local! {
    /// The last error of a call on this thread, for callers without a
    /// generator to ask.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// A C string of `text`, with any NUL byte (which C cannot hold) shown as `\0`.
fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', "\\0")).unwrap_or_default()
}

fn remember(failure: &Failure) {
    LAST_ERROR.with(|last| *last.borrow_mut() = c_text(&failure.message));
}

/// Runs `body` with panics caught; a failure is remembered per thread.
fn guarded(body: impl FnOnce() -> Result<(), Failure>) -> DunluaStatus {
    let outcome =
        catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| Err(panicked(&panic)));
    match outcome {
        Ok(()) => {
            LAST_ERROR.with(|last| *last.borrow_mut() = CString::default());
            DunluaStatus::Ok
        }
        Err(failure) => {
            remember(&failure);
            failure.status
        }
    }
}

/// A plain getter: its value, or `fallback` on a bad handle or a panic.
fn getter<T>(fallback: T, body: impl FnOnce() -> Result<T, Failure>) -> T {
    match catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| Err(panicked(&panic))) {
        Ok(value) => {
            LAST_ERROR.with(|last| *last.borrow_mut() = CString::default());
            value
        }
        Err(failure) => {
            remember(&failure);
            fallback
        }
    }
}

fn panicked(panic: &Box<dyn std::any::Any + Send>) -> Failure {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    Failure::new(
        DunluaStatus::Panic,
        format!("dunlua failed inside (a bug, please report it): {what}"),
    )
}

/// Runs `body` on a generator's state, recording its outcome there as the
/// last call's status and message.
fn with_generator(
    g: *mut DunluaGenerator,
    body: impl FnOnce(&mut GeneratorState) -> Result<(), Failure>,
) -> DunluaStatus {
    guarded(|| {
        with_state(g, |state| {
            let outcome = body(state);
            record(state, &outcome);
            outcome
        })?
    })
}

/// Keeps a call's outcome in the generator as its last status and message.
fn record(state: &mut GeneratorState, outcome: &Result<(), Failure>) {
    match outcome {
        Ok(()) => {
            state.status = DunluaStatus::Ok;
            state.error = CString::default();
            state.traceback = CString::default();
        }
        Err(failure) => {
            state.status = failure.status;
            state.error = c_text(&failure.message);
            state.traceback = c_text(&failure.traceback);
        }
    }
}

/// The caller's C string, checked: NULL and non-UTF-8 are errors naming `what`.
///
/// # Safety
/// `text` is NULL or points to a NUL-terminated string.
unsafe fn text_arg<'a>(text: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if text.is_null() {
        return Err(Failure::new(
            DunluaStatus::NullArgument,
            format!("{what} is NULL"),
        ));
    }
    // SAFETY: not NULL, and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(text) }
        .to_str()
        .map_err(|_| Failure::new(DunluaStatus::InvalidText, format!("{what} is not UTF-8")))
}

/// Writes `value` through the caller's out-parameter.
///
/// # Safety
/// `out` is NULL or valid for writing a `T`.
unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::new(
            DunluaStatus::NullArgument,
            format!("{what} is NULL"),
        ));
    }
    // SAFETY: not NULL, and writable by the caller's contract.
    unsafe { out.write(value) };
    Ok(())
}

// ------------------------------------------------------------- generators

/// dunlua's version, e.g. `"0.1.0"`. Static.
#[no_mangle]
pub extern "C" fn dunlua_version() -> *const c_char {
    static VERSION: OnceLock<CString> = OnceLock::new();
    VERSION
        .get_or_init(|| c_text(env!("CARGO_PKG_VERSION")))
        .as_ptr()
}

impl DunluaStatus {
    /// Every status, in value order.
    const ALL: [DunluaStatus; 15] = [
        DunluaStatus::Ok,
        DunluaStatus::NullArgument,
        DunluaStatus::BadHandle,
        DunluaStatus::InvalidText,
        DunluaStatus::Usage,
        DunluaStatus::Syntax,
        DunluaStatus::Runtime,
        DunluaStatus::Contract,
        DunluaStatus::Limit,
        DunluaStatus::TimedOut,
        DunluaStatus::Cancelled,
        DunluaStatus::Rejected,
        DunluaStatus::BadStart,
        DunluaStatus::OutOfRange,
        DunluaStatus::Panic,
    ];

    /// The status whose value is `value`, if there is one: how a status
    /// that came in as a plain integer is read.
    pub fn from_i32(value: i32) -> Option<DunluaStatus> {
        let status = *DunluaStatus::ALL.get(usize::try_from(value).ok()?)?;
        (status as i32 == value).then_some(status)
    }
}

/// The name of a status value, e.g. `"DUNLUA_STATUS_SYNTAX"` for 5, and
/// `"unknown"` for a value that is no status (negative, or past the last).
/// Static.
#[no_mangle]
pub extern "C" fn dunlua_status_name(status: i32) -> *const c_char {
    let Some(status) = DunluaStatus::from_i32(status) else {
        return c"unknown".as_ptr();
    };
    let name: &'static CStr = match status {
        DunluaStatus::Ok => c"DUNLUA_STATUS_OK",
        DunluaStatus::NullArgument => c"DUNLUA_STATUS_NULL_ARGUMENT",
        DunluaStatus::BadHandle => c"DUNLUA_STATUS_BAD_HANDLE",
        DunluaStatus::InvalidText => c"DUNLUA_STATUS_INVALID_TEXT",
        DunluaStatus::Usage => c"DUNLUA_STATUS_USAGE",
        DunluaStatus::Syntax => c"DUNLUA_STATUS_SYNTAX",
        DunluaStatus::Runtime => c"DUNLUA_STATUS_RUNTIME",
        DunluaStatus::Contract => c"DUNLUA_STATUS_CONTRACT",
        DunluaStatus::Limit => c"DUNLUA_STATUS_LIMIT",
        DunluaStatus::TimedOut => c"DUNLUA_STATUS_TIMED_OUT",
        DunluaStatus::Cancelled => c"DUNLUA_STATUS_CANCELLED",
        DunluaStatus::Rejected => c"DUNLUA_STATUS_REJECTED",
        DunluaStatus::BadStart => c"DUNLUA_STATUS_BAD_START",
        DunluaStatus::OutOfRange => c"DUNLUA_STATUS_OUT_OF_RANGE",
        DunluaStatus::Panic => c"DUNLUA_STATUS_PANIC",
    };
    name.as_ptr()
}

/// The message of the last failed call on this thread ("" after a call
/// that worked). Valid until the next dunlua call on this thread.
#[no_mangle]
pub extern "C" fn dunlua_last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// Makes a generator handle for `builder` (given the handle's cancel flag).
/// It is built on first need (a setter, `status`, `error`, `generate`),
/// so a game's `dunlua_generator_set_limits` made first holds for the
/// script's first run too: its top level runs when it is built. A builder
/// that could not be made (a NULL or non-UTF-8 argument) still gives a
/// handle, holding the error. NULL only when no handle can be made (see
/// `register`).
fn new_generator(
    builder: Result<GeneratorBuilder, Failure>,
    freed: Arc<AtomicBool>,
) -> *mut DunluaGenerator {
    let cancel = Arc::new(AtomicBool::new(false));
    let state = match builder {
        Ok(builder) => GeneratorState {
            // Messages name this ABI's calls for the limits.
            builder: builder.cancel(cancel.clone()).limit_names(LimitNames::C),
            generator: None,
            pending: true,
            status: DunluaStatus::Ok,
            error: CString::default(),
            traceback: CString::default(),
        },
        Err(failure) => failed_state(Generator::source("", ""), failure),
    };
    let failed = (state.status != DunluaStatus::Ok)
        .then(|| Failure::new(state.status, state.error.to_string_lossy()));
    let handle = GeneratorHandle {
        state: Mutex::new(state),
        cancel,
        busy: AtomicBool::new(false),
        freed,
    };
    match register(Object::Generator(Arc::new(handle))) {
        Ok(handle) => {
            if let Some(failure) = failed {
                remember(&failure);
            }
            handle as *mut DunluaGenerator
        }
        Err(failure) => {
            remember(&failure);
            std::ptr::null_mut()
        }
    }
}

/// Builds a generator made by `from_file`/`from_source` and not built
/// since, keeping the outcome as its last call's.
fn settle(state: &mut GeneratorState) {
    if !state.pending {
        return;
    }
    // A setter that failed, its change refused, left the generator unbuilt:
    // its status is the answer until a generate builds it.
    if state.status != DunluaStatus::Ok {
        return;
    }
    state.pending = false;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        state.builder.clone().build().map_err(Failure::from)
    }))
    .unwrap_or_else(|panic| Err(panicked(&panic)));
    match outcome {
        Ok(generator) => {
            state.generator = Some(generator);
            record(state, &Ok(()));
        }
        Err(failure) => record(state, &Err(failure)),
    }
}

fn failed_state(builder: GeneratorBuilder, failure: Failure) -> GeneratorState {
    GeneratorState {
        builder,
        generator: None,
        pending: false,
        status: failure.status,
        error: c_text(&failure.message),
        traceback: c_text(&failure.traceback),
    }
}

/// A generator for the script file at `path` (its modules are read from its
/// folder). Returns a handle, to be freed with `dunlua_generator_free`,
/// even when the script cannot be read or compiled:
/// `dunlua_generator_status` says why and `dunlua_generate` repeats it.
/// (NULL only in a process that has used up its handles, 2^28 in a 32-bit
/// one: then `dunlua_last_error` says so.)
///
/// # Safety
/// `path` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_from_file(path: *const c_char) -> *mut DunluaGenerator {
    // SAFETY: the caller's contract on `path`.
    let builder = unsafe { text_arg(path, "path") }.map(Generator::file);
    new_generator(builder, Arc::new(AtomicBool::new(false)))
}

/// A generator for the script file at `path`, read as
/// `dunlua_generator_from_file` reads it (a regular file, size-capped),
/// whose modules come only through `loader`, as for
/// `dunlua_generator_from_source`: once a game supplies modules, `require`
/// looks only among them, never on disk. For a game that holds a script's
/// path and supplies some of its modules itself (the LuaJIT binding's
/// `modules` and `loader` options) without reading the script around
/// dunlua's reader. A NULL `loader` is `dunlua_generator_from_file`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `loader` as for
/// `dunlua_generator_from_source`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_from_file_with_loader(
    path: *const c_char,
    loader: DunluaModuleLoader,
    user_data: *mut c_void,
) -> *mut DunluaGenerator {
    let freed = Arc::new(AtomicBool::new(false));
    // SAFETY: the caller's contract on `path`.
    let builder = unsafe { text_arg(path, "path") }
        .map(|path| with_loader(Generator::file(path), loader, user_data, &freed));
    new_generator(builder, freed)
}

/// `builder` with its modules from the C `loader` (none: as it was).
fn with_loader(
    builder: GeneratorBuilder,
    loader: DunluaModuleLoader,
    user_data: *mut c_void,
    freed: &Arc<AtomicBool>,
) -> GeneratorBuilder {
    match loader {
        Some(load) => {
            let c_loader = CLoader {
                load,
                user_data,
                freed: freed.clone(),
            };
            builder.loader(move |path| c_loader.call(path))
        }
        None => builder,
    }
}

/// Calls a C module loader, collecting what it supplies.
struct CLoader {
    load: unsafe extern "C" fn(*mut c_void, *const c_char, *mut DunluaModule),
    user_data: *mut c_void,
    /// The generator's: once it is freed, the loader is not called (a run
    /// under way on another thread could still require a module).
    freed: Arc<AtomicBool>,
}

// SAFETY: the loader and its user data are the caller's; dunlua.h documents
// that the loader is called on whichever thread calls into the generator,
// one call at a time per generator (the generator's lock).
unsafe impl Send for CLoader {}
unsafe impl Sync for CLoader {}

impl CLoader {
    /// Calls the loader with a module handle that is live for that call
    /// only, and takes what it supplied.
    fn call(&self, relative_path: &str) -> Result<Option<String>, String> {
        if self.freed.load(Ordering::SeqCst) {
            return Err("refused: the generator was freed".to_string());
        }
        let path = c_text(relative_path);
        let slot = Arc::new(ModuleSlot::default());
        let handle = register(Object::Module(slot.clone())).map_err(|f| f.message)?;
        // SAFETY: the function and user data are the caller's; the path
        // outlives the call. The module handle is an id, never an address.
        unsafe { (self.load)(self.user_data, path.as_ptr(), handle as *mut DunluaModule) };
        unregister(handle, "module");
        let supplied = slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        supplied.transpose()
    }
}

/// A generator for script text the game holds. `name` is the path the
/// script would have as a file (`"mods/cave.lua"`): messages name it and
/// its modules are found relative to its folder, through `loader` (NULL:
/// the script has no modules; `user_data` is passed to it as is). Returns
/// a handle even when the script does not compile, like
/// `dunlua_generator_from_file`. `source` ends at its first NUL byte: a
/// script that holds one (Lua allows it in a long string) comes through
/// `dunlua_generator_from_text`.
///
/// # Safety
/// `name` and `source` are NULL or NUL-terminated strings; `loader` is NULL
/// or a function that may be called with `user_data` until the generator
/// is freed (never after `dunlua_generator_free` returns).
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_from_source(
    name: *const c_char,
    source: *const c_char,
    loader: DunluaModuleLoader,
    user_data: *mut c_void,
) -> *mut DunluaGenerator {
    // SAFETY: the caller's contract on `source`.
    let source = unsafe { text_arg(source, "source") }.map(str::to_string);
    // SAFETY: the caller's contract on `name`.
    unsafe { source_generator(name, source, loader, user_data) }
}

/// `dunlua_generator_from_source` for a script of `length` bytes of UTF-8
/// at `text` (`length` may be `(size_t)-1` for a NUL-terminated string),
/// which may hold NUL bytes, as a file may: the same map as the file would
/// give. The text is copied before it returns; a text that is not UTF-8
/// gives a handle holding `DUNLUA_STATUS_INVALID_TEXT`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `text` is NULL or points to
/// `length` readable bytes (or, with `length` `(size_t)-1`, to a
/// NUL-terminated string); `loader` as for `dunlua_generator_from_source`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_from_text(
    name: *const c_char,
    text: *const c_char,
    length: usize,
    loader: DunluaModuleLoader,
    user_data: *mut c_void,
) -> *mut DunluaGenerator {
    // SAFETY: the caller's contract on `text` and `length`.
    let source = unsafe { text_range(text, length, "the script text") };
    // SAFETY: the caller's contract on `name`.
    unsafe { source_generator(name, source, loader, user_data) }
}

/// A generator for the script `source` named `name`, its modules from
/// `loader`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `loader` is NULL or a
/// function that may be called with `user_data` until the generator is
/// freed.
unsafe fn source_generator(
    name: *const c_char,
    source: Result<String, Failure>,
    loader: DunluaModuleLoader,
    user_data: *mut c_void,
) -> *mut DunluaGenerator {
    let freed = Arc::new(AtomicBool::new(false));
    // SAFETY: the caller's contract on `name`.
    let builder = unsafe { text_arg(name, "name") }.and_then(|name| {
        Ok(with_loader(
            Generator::source(name, source?),
            loader,
            user_data,
            &freed,
        ))
    });
    new_generator(builder, freed)
}

/// `length` bytes of UTF-8 at `text` (`length` `(size_t)-1`: up to a NUL),
/// copied; NULL, a `length` above `PTRDIFF_MAX` other than `(size_t)-1`,
/// or bytes that are not UTF-8 are errors naming `what`.
///
/// # Safety
/// `text` is NULL or points to `length` readable bytes (or, with `length`
/// `(size_t)-1`, to a NUL-terminated string).
unsafe fn text_range(text: *const c_char, length: usize, what: &str) -> Result<String, Failure> {
    if length == usize::MAX {
        // SAFETY: the caller's contract on `text`.
        return unsafe { text_arg(text, what) }.map(str::to_string);
    }
    if text.is_null() {
        return Err(Failure::new(
            DunluaStatus::NullArgument,
            format!("{what} is NULL"),
        ));
    }
    if isize::try_from(length).is_err() {
        // No buffer is that long: a slice of it would be undefined.
        return Err(Failure::new(
            DunluaStatus::Usage,
            format!("length {length} is longer than any buffer"),
        ));
    }
    // SAFETY: not NULL, `length` readable bytes by the caller's contract,
    // and at most isize::MAX.
    let bytes = unsafe { std::slice::from_raw_parts(text as *const u8, length) };
    std::str::from_utf8(bytes).map(str::to_string).map_err(|e| {
        Failure::new(
            DunluaStatus::InvalidText,
            format!("{what} is not UTF-8 (byte {})", e.valid_up_to()),
        )
    })
}

/// Supplies a module's source from inside a module loader: `length` bytes
/// of UTF-8 at `text` (`length` may be `(size_t)-1` for a NUL-terminated
/// string). The text is copied before it returns. A text that is not UTF-8
/// (or NULL, or a `length` above `PTRDIFF_MAX` other than `(size_t)-1`)
/// is refused: this returns the error, and the script's `require` fails
/// with it rather than reporting a missing module. A second call replaces
/// the first. A `module` that is not the live handle of a loader call
/// (NULL, one whose call is over, a generator or map) is
/// `DUNLUA_STATUS_BAD_HANDLE`, and `text` is not read.
///
/// # Safety
/// `text` is NULL or points to `length` readable bytes (or, with `length`
/// `(size_t)-1`, to a NUL-terminated string).
#[no_mangle]
pub unsafe extern "C" fn dunlua_module_set_source(
    module: *mut DunluaModule,
    text: *const c_char,
    length: usize,
) -> DunluaStatus {
    guarded(|| {
        let slot = module_of(module)?;
        // SAFETY: the caller's contract on `text` and `length`.
        let source = unsafe { text_range(text, length, "the module text") };
        // The script's require reports a refused text too, not "not found".
        let kept = match &source {
            Ok(text) => Ok(text.clone()),
            Err(failure) => Err(format!("dunlua_module_set_source: {}", failure.message)),
        };
        *slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(kept);
        source.map(drop)
    })
}

/// Applies `change` to a generator's settings and rebuilds it; a change
/// that does not build (an unknown parameter, a wrong type, a bad size, or
/// the script failing under it) is not kept, and the call fails saying
/// why. See [`reconfigure_limits`] for the limits.
fn reconfigure(
    g: *mut DunluaGenerator,
    change: impl FnOnce(GeneratorBuilder) -> Result<GeneratorBuilder, Failure>,
) -> DunluaStatus {
    rebuild(g, change, false)
}

/// [`reconfigure`] for the limits: limits the script's top level fails
/// under (it runs past the new budget, memory or deadline) are kept, and
/// the generator is left unbuilt: generating repeats why, as a generator
/// that never built does, until a setter builds it. Dropped, the next
/// setter ran the mod's top level again under the settings the game had
/// replaced (the defaults: 400,000,000 instructions, 512 MiB). Only the
/// limits are kept so: a parameter or a size set while the script fails
/// under the limits is not (its own error would be hidden by the limit's,
/// and it could never be taken back).
fn reconfigure_limits(
    g: *mut DunluaGenerator,
    change: impl FnOnce(GeneratorBuilder) -> Result<GeneratorBuilder, Failure>,
) -> DunluaStatus {
    rebuild(g, change, true)
}

fn rebuild(
    g: *mut DunluaGenerator,
    change: impl FnOnce(GeneratorBuilder) -> Result<GeneratorBuilder, Failure>,
    keep_when_the_script_fails: bool,
) -> DunluaStatus {
    with_generator(g, |state| {
        let builder = change(state.builder.clone())?;
        match builder.clone().build() {
            Ok(generator) => {
                state.builder = builder;
                state.generator = Some(generator);
                state.pending = false;
                Ok(())
            }
            Err(e) => {
                let failure = Failure::from(e);
                // A cancelled build says nothing about the change.
                let refused = matches!(
                    failure.status,
                    DunluaStatus::Usage | DunluaStatus::InvalidText | DunluaStatus::Cancelled
                );
                if keep_when_the_script_fails && !refused {
                    state.builder = builder;
                    state.generator = None;
                    state.pending = false;
                }
                Err(failure)
            }
        }
    })
}

/// Sets an integer parameter (also accepted for a number parameter).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_set_int(
    g: *mut DunluaGenerator,
    name: *const c_char,
    value: i64,
) -> DunluaStatus {
    // SAFETY: the caller's contract on `name`.
    reconfigure(
        g,
        |b| Ok(b.param(unsafe { text_arg(name, "name") }?, value)),
    )
}

/// Sets a number parameter.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_set_number(
    g: *mut DunluaGenerator,
    name: *const c_char,
    value: f64,
) -> DunluaStatus {
    // SAFETY: the caller's contract on `name`.
    reconfigure(
        g,
        |b| Ok(b.param(unsafe { text_arg(name, "name") }?, value)),
    )
}

/// Sets a boolean parameter: `value` 0 is false, any other value true.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_set_bool(
    g: *mut DunluaGenerator,
    name: *const c_char,
    value: c_int,
) -> DunluaStatus {
    // SAFETY: the caller's contract on `name`.
    reconfigure(g, |b| {
        Ok(b.param(unsafe { text_arg(name, "name") }?, value != 0))
    })
}

/// Sets a string parameter.
///
/// # Safety
/// `name` and `value` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generator_set_string(
    g: *mut DunluaGenerator,
    name: *const c_char,
    value: *const c_char,
) -> DunluaStatus {
    reconfigure(g, |b| {
        // SAFETY: the caller's contract on `name` and `value`.
        let (name, value) = unsafe { (text_arg(name, "name")?, text_arg(value, "value")?) };
        Ok(b.param(name, value))
    })
}

/// Sets the map size, instead of the script's own `width` and `height`.
#[no_mangle]
pub extern "C" fn dunlua_generator_set_size(
    g: *mut DunluaGenerator,
    width: i64,
    height: i64,
) -> DunluaStatus {
    reconfigure(g, |b| Ok(b.size(width, height)))
}

/// Sets the limits of each generate: the budget (Lua instructions plus
/// native work; 0 keeps the default 400,000,000), memory in MiB (0: default
/// 512) and the wall-clock deadline in seconds (0: none).
#[no_mangle]
pub extern "C" fn dunlua_generator_set_limits(
    g: *mut DunluaGenerator,
    max_instructions: u64,
    max_memory_mb: u64,
    timeout_seconds: f64,
) -> DunluaStatus {
    reconfigure_limits(g, |b| {
        if !(timeout_seconds.is_finite() && (0.0..=86_400.0).contains(&timeout_seconds)) {
            return Err(Failure::new(
                DunluaStatus::Usage,
                format!("timeout_seconds must be from 0 to 86400, got {timeout_seconds}"),
            ));
        }
        // The bytes must fit a size_t too (a 32-bit process holds 4095 MiB).
        let max_memory = usize::try_from(max_memory_mb)
            .ok()
            .and_then(|mb| mb.checked_mul(1 << 20))
            .filter(|_| max_memory_mb <= 1 << 20)
            .ok_or_else(|| {
                Failure::new(
                    DunluaStatus::Usage,
                    format!(
                        "max_memory_mb must be at most {}, got {max_memory_mb}",
                        (1u64 << 20).min(usize::MAX as u64 >> 20)
                    ),
                )
            })?;
        let defaults = Limits::default();
        Ok(b.limits(Limits {
            max_instructions: if max_instructions == 0 {
                defaults.max_instructions
            } else {
                max_instructions
            },
            max_memory: if max_memory_mb == 0 {
                defaults.max_memory
            } else {
                max_memory
            },
            timeout: (timeout_seconds > 0.0).then(|| Duration::from_secs_f64(timeout_seconds)),
        }))
    })
}

/// Sets how many attempts a script that rejects its maps gets (default 20;
/// 1..=10000 as the CLI's `--max-attempts`, others refused with
/// `DUNLUA_STATUS_USAGE`).
#[no_mangle]
pub extern "C" fn dunlua_generator_set_max_attempts(
    g: *mut DunluaGenerator,
    attempts: u32,
) -> DunluaStatus {
    reconfigure(g, |b| Ok(b.max_attempts(attempts)))
}

/// The status of the generator's last call (its creation, a setter or a
/// generate); `DUNLUA_STATUS_BAD_HANDLE` for a bad handle (and
/// `DUNLUA_STATUS_USAGE` from inside its own module loader), with the
/// message in `dunlua_last_error()`.
#[no_mangle]
pub extern "C" fn dunlua_generator_status(g: *const DunluaGenerator) -> DunluaStatus {
    // A failure to read the status is itself the answer (and its message
    // stays in `dunlua_last_error`).
    let read = catch_unwind(|| {
        with_state(g, |state| {
            settle(state);
            state.status
        })
    });
    match read.unwrap_or_else(|panic| Err(panicked(&panic))) {
        Ok(status) => status,
        Err(failure) => {
            remember(&failure);
            failure.status
        }
    }
}

/// The message of the generator's last call: one line naming what was
/// wrong and where (`"mods/cave.lua:12: map:set: ..."`), or "" when it
/// worked. For a bad handle, the same as `dunlua_last_error()`. Valid until
/// the next call on this generator.
#[no_mangle]
pub extern "C" fn dunlua_generator_error(g: *const DunluaGenerator) -> *const c_char {
    // The pointer stays valid after the lock is released: the registry
    // keeps the state, and only the next call on this generator replaces it.
    let read = catch_unwind(|| {
        with_state(g, |state| {
            settle(state);
            state.error.as_ptr()
        })
    });
    match read {
        Ok(Ok(message)) => message,
        Ok(Err(failure)) => {
            remember(&failure);
            dunlua_last_error()
        }
        Err(_) => dunlua_last_error(),
    }
}

/// The Lua traceback of the generator's last failed call: the script's
/// frames, innermost first, one per line (`"mods/cave.lua:12: in function
/// 'carve'"`); "" when there is none. Valid until the next call on this
/// generator; "" for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_generator_traceback(g: *const DunluaGenerator) -> *const c_char {
    let read = catch_unwind(|| {
        with_state(g, |state| {
            settle(state);
            state.traceback.as_ptr()
        })
    });
    match read {
        Ok(Ok(frames)) => frames,
        _ => c"".as_ptr(),
    }
}

/// The generator to generate with (built now if it was not yet): a
/// generator that never built fails the same way again.
fn built(state: &mut GeneratorState) -> Result<&Generator, Failure> {
    if state.pending {
        state.status = DunluaStatus::Ok;
        settle(state);
    }
    state.generator.as_ref().ok_or_else(|| Failure {
        status: state.status,
        message: state.error.to_string_lossy().into_owned(),
        traceback: state.traceback.to_string_lossy().into_owned(),
    })
}

/// Gives each map a handle; if one cannot be made, none is kept.
fn register_maps(maps: Vec<Generated>) -> Result<Vec<usize>, Failure> {
    let mut handles = Vec::with_capacity(maps.len());
    for generated in maps {
        match register(Object::Map(Arc::new(map_state(generated)))) {
            Ok(handle) => handles.push(handle),
            Err(failure) => {
                for handle in handles {
                    unregister(handle, "map");
                }
                return Err(failure);
            }
        }
    }
    Ok(handles)
}

/// Generates the map of `seed` into `*out` (a new map handle, to be freed
/// with `dunlua_map_free`); on failure `*out` is NULL and the status and
/// `dunlua_generator_error` say why. A bad handle or a NULL `out` writes
/// nothing. The same seed and settings give the same map as
/// `dunlua SCRIPT --seed N`, forever. The generator can be used again after
/// a failure.
///
/// # Safety
/// `out` is NULL or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generate(
    g: *mut DunluaGenerator,
    seed: u64,
    out: *mut *mut DunluaMap,
) -> DunluaStatus {
    with_generator(g, |state| {
        if out.is_null() {
            return Err(Failure::new(DunluaStatus::NullArgument, "out is NULL"));
        }
        // Every argument is checked: from here `*out` is written whatever
        // happens, a panic included.
        let made = catch_unwind(AssertUnwindSafe(|| {
            let generated = built(state)?.generate(seed)?;
            register(Object::Map(Arc::new(map_state(generated))))
        }))
        .unwrap_or_else(|panic| Err(panicked(&panic)));
        let map = made.as_ref().map_or(std::ptr::null_mut(), |&h| h as *mut _);
        // SAFETY: checked not NULL above; writable by the caller's contract.
        unsafe { out.write(map) };
        made.map(drop)
    })
}

/// How many levels each seed makes: the script's `levels` (1 for most
/// scripts) or `dunlua_generator_set_levels`'s; 0 for a bad handle or a
/// generator that never built.
#[no_mangle]
pub extern "C" fn dunlua_generator_levels(g: *const DunluaGenerator) -> u32 {
    getter(0, || {
        with_state(g, |state| {
            settle(state);
            state
                .generator
                .as_ref()
                .map_or(0, |generator| generator.levels())
        })
    })
}

/// Sets how many levels each seed makes (1..32), instead of the script's
/// `levels`.
#[no_mangle]
pub extern "C" fn dunlua_generator_set_levels(
    g: *mut DunluaGenerator,
    levels: u32,
) -> DunluaStatus {
    reconfigure(g, |b| Ok(b.levels(levels)))
}

/// Generates every level of `seed`'s dungeon (level 1 first, each made
/// knowing the one above, as `dunlua SCRIPT --seed N` makes them) into
/// `out`: a map handle per level, each to be freed with `dunlua_map_free`,
/// and their number into `*count`.
///
/// Every argument is checked before anything is written, and only the
/// slots of levels made are written:
/// - a bad handle, or a NULL `out` or `count`: nothing is written;
/// - `capacity` below `dunlua_generator_levels`: nothing is generated, no
///   slot is written, the status is `DUNLUA_STATUS_USAGE` and `*count` is
///   the number of slots needed;
/// - otherwise `*count` is the number of levels made (0 on failure) and
///   `out[0..*count]` their handles; `out[*count..capacity]` keep what they
///   held.
///
/// # Safety
/// `out` is NULL or valid for writing `capacity` pointers (dunlua writes at
/// most `dunlua_generator_levels(g)` of them, 32 at most); `count` is NULL
/// or valid for writing a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_generate_levels(
    g: *mut DunluaGenerator,
    seed: u64,
    out: *mut *mut DunluaMap,
    capacity: usize,
    count: *mut usize,
) -> DunluaStatus {
    with_generator(g, |state| {
        if out.is_null() || count.is_null() {
            return Err(Failure::new(
                DunluaStatus::NullArgument,
                "out or count is NULL",
            ));
        }
        let mut needed = 0;
        let made = catch_unwind(AssertUnwindSafe(|| {
            let generator = built(state)?;
            let wanted = generator.levels() as usize;
            if capacity < wanted {
                needed = wanted;
                return Err(Failure::new(
                    DunluaStatus::Usage,
                    format!("this script makes {wanted} levels; out has room for {capacity}"),
                ));
            }
            let levels = generator.generate_levels(seed)?;
            if levels.len() > wanted {
                return Err(Failure::new(
                    DunluaStatus::Panic,
                    format!(
                        "dunlua failed inside (a bug, please report it): {} levels made, {wanted} announced",
                        levels.len()
                    ),
                ));
            }
            register_maps(levels)
        }))
        .unwrap_or_else(|panic| Err(panicked(&panic)));
        match made {
            Ok(handles) => {
                for (i, &handle) in handles.iter().enumerate() {
                    // SAFETY: not NULL; i < handles.len() <= wanted <= capacity.
                    unsafe { out.add(i).write(handle as *mut DunluaMap) };
                }
                // SAFETY: checked not NULL above.
                unsafe { count.write(handles.len()) };
                Ok(())
            }
            Err(failure) => {
                // SAFETY: checked not NULL above.
                unsafe { count.write(needed) };
                Err(failure)
            }
        }
    })
}

/// Which level of its dungeon a map is (1-based; 1 for a one-level script),
/// 0 for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_map_level(m: *const DunluaMap) -> u32 {
    getter(0, || Ok(map_of(m)?.generated.provenance.level))
}

/// Frees a generator. NULL, a handle already freed, or a handle that is no
/// generator, does nothing. A call under way on it on another thread is
/// cancelled (it returns `DUNLUA_STATUS_CANCELLED`) and waited for, so
/// when this returns the module loader will not be called again and its
/// user data may be freed. (Called from inside the generator's own module
/// loader, it cannot wait for the call it is in: that call is cancelled
/// and requires nothing more.)
#[no_mangle]
pub extern "C" fn dunlua_generator_free(g: *mut DunluaGenerator) {
    // The object drops after the registry's lock is released, inside
    // catch_unwind.
    let _ = catch_unwind(|| {
        let Some(Object::Generator(generator)) = unregister(g as usize, "generator") else {
            return;
        };
        generator.freed.store(true, Ordering::SeqCst);
        generator.cancel();
        let inside = INSIDE.with(|inside| inside.borrow().contains(&(g as usize)));
        if !inside {
            // Waits for the call under way, if any.
            drop(generator.state.lock());
        }
    });
}

/// Cancels the call under way on generator `g` on another thread (a
/// generate, or a setter's build), which then returns
/// `DUNLUA_STATUS_CANCELLED` within about a second; the generator stays
/// usable and the next call runs as usual. With no call under way it does
/// nothing. Unlike every other call, it does not wait for the generator's
/// lock (that is the point).
#[no_mangle]
pub extern "C" fn dunlua_generator_cancel(g: *mut DunluaGenerator) -> DunluaStatus {
    guarded(|| {
        generator_of(g)?.cancel();
        Ok(())
    })
}

// ------------------------------------------------------------------- maps

fn map_state(generated: Generated) -> MapState {
    let kind_texts = generated
        .tile_kinds()
        .map(|(_, kind)| (c_text(&kind.name), c_text(&kind.glyph.to_string())))
        .collect();
    let marker_names = generated
        .markers()
        .iter()
        .map(|m| c_text(&m.name))
        .collect();
    let marker_props = generated
        .markers()
        .iter()
        .map(|m| {
            m.props
                .iter()
                .map(|(key, value)| {
                    let text = match value {
                        dunlua::params::ParamValue::Text(t) => Some(c_text(t)),
                        _ => None,
                    };
                    (c_text(key), text)
                })
                .collect()
        })
        .collect();
    let room_texts = generated
        .map
        .room_details()
        .iter()
        .map(|d| (d.name.as_deref().map(c_text), d.kind.as_deref().map(c_text)))
        .collect();
    MapState {
        tile_ids: generated.tile_ids(),
        kind_texts,
        marker_names,
        marker_props,
        room_texts,
        json: OnceLock::new(),
        generated,
    }
}

/// The map's width in cells (0 for a bad handle).
#[no_mangle]
pub extern "C" fn dunlua_map_width(m: *const DunluaMap) -> i32 {
    getter(0, || Ok(map_of(m)?.generated.width() as i32))
}

/// The map's height in cells (0 for a bad handle).
#[no_mangle]
pub extern "C" fn dunlua_map_height(m: *const DunluaMap) -> i32 {
    getter(0, || Ok(map_of(m)?.generated.height() as i32))
}

/// The tile id of every cell, row by row: cell (x, y) is at
/// `[y * width + x]`, and an id indexes the tile kinds
/// (`dunlua_map_tile_kind`). `width * height` bytes, valid until the map is
/// freed; NULL for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_map_tiles(m: *const DunluaMap) -> *const u8 {
    getter(std::ptr::null(), || Ok(map_of(m)?.tile_ids.as_ptr()))
}

/// How many tile kinds the map has: the six built-ins (wall, floor, door,
/// stairs_down, stairs_up, water, ids 0 to 5), then the script's own.
#[no_mangle]
pub extern "C" fn dunlua_map_tile_kind_count(m: *const DunluaMap) -> usize {
    getter(0, || Ok(map_of(m)?.kind_texts.len()))
}

/// Writes tile kind `id` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for writing a `DunluaTileKind`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_map_tile_kind(
    m: *const DunluaMap,
    id: usize,
    out: *mut DunluaTileKind,
) -> DunluaStatus {
    guarded(|| {
        let map = map_of(m)?;
        let (_, kind) = map
            .generated
            .tile_kinds()
            .nth(id)
            .ok_or_else(|| out_of_range("tile kind", id, map.kind_texts.len()))?;
        let (name, glyph) = &map.kind_texts[id];
        let rgb = |c: dunlua::map::Rgb| (c.0 as u32) << 16 | (c.1 as u32) << 8 | c.2 as u32;
        let value = DunluaTileKind {
            name: name.as_ptr(),
            glyph: glyph.as_ptr(),
            codepoint: kind.glyph as u32,
            color: rgb(kind.color),
            background: rgb(kind.background),
            walkable: kind.walkable,
            transparent: kind.transparent,
        };
        // SAFETY: the caller's contract on `out`; the strings live in the
        // map, which the registry keeps until `dunlua_map_free`.
        unsafe { put(out, value, "out") }
    })
}

fn out_of_range(what: &str, index: usize, count: usize) -> Failure {
    Failure::new(
        DunluaStatus::OutOfRange,
        format!("{what} {index} does not exist (there are {count})"),
    )
}

/// How many rooms the script recorded.
#[no_mangle]
pub extern "C" fn dunlua_map_room_count(m: *const DunluaMap) -> usize {
    getter(0, || Ok(map_of(m)?.generated.rooms().len()))
}

/// Writes room `index` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for writing a `DunluaRoom`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_map_room(
    m: *const DunluaMap,
    index: usize,
    out: *mut DunluaRoom,
) -> DunluaStatus {
    guarded(|| {
        let map = map_of(m)?;
        let rooms = map.generated.rooms();
        let r = rooms
            .get(index)
            .ok_or_else(|| out_of_range("room", index, rooms.len()))?;
        let room = DunluaRoom {
            x1: r.x1,
            y1: r.y1,
            x2: r.x2,
            y2: r.y2,
        };
        // SAFETY: the caller's contract on `out`.
        unsafe { put(out, room, "out") }
    })
}

/// Writes where the player starts into `*x` and `*y`; with a bad handle or
/// either of them NULL, writes neither.
///
/// # Safety
/// `x` and `y` are NULL or valid for writing an `int32_t`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_map_start(
    m: *const DunluaMap,
    x: *mut i32,
    y: *mut i32,
) -> DunluaStatus {
    guarded(|| {
        let (sx, sy) = map_of(m)?.generated.start();
        for (p, what) in [(x, "x"), (y, "y")] {
            if p.is_null() {
                return Err(Failure::new(
                    DunluaStatus::NullArgument,
                    format!("{what} is NULL"),
                ));
            }
        }
        // SAFETY: both checked not NULL; the caller's contract on them.
        unsafe {
            x.write(sx);
            y.write(sy);
        }
        Ok(())
    })
}

/// How many markers the script placed.
#[no_mangle]
pub extern "C" fn dunlua_map_marker_count(m: *const DunluaMap) -> usize {
    getter(0, || Ok(map_of(m)?.generated.markers().len()))
}

/// Writes marker `index` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for writing a `DunluaMarker`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_map_marker(
    m: *const DunluaMap,
    index: usize,
    out: *mut DunluaMarker,
) -> DunluaStatus {
    guarded(|| {
        let map = map_of(m)?;
        let markers = map.generated.markers();
        let marker = markers
            .get(index)
            .ok_or_else(|| out_of_range("marker", index, markers.len()))?;
        let value = DunluaMarker {
            x: marker.x,
            y: marker.y,
            name: map.marker_names[index].as_ptr(),
        };
        // SAFETY: the caller's contract on `out`; the name lives in the map.
        unsafe { put(out, value, "out") }
    })
}

/// How many properties marker `marker` has (0 for a bad handle or index).
#[no_mangle]
pub extern "C" fn dunlua_map_marker_property_count(m: *const DunluaMap, marker: usize) -> usize {
    getter(0, || {
        let map = map_of(m)?;
        let markers = map.generated.markers();
        let found = markers
            .get(marker)
            .ok_or_else(|| out_of_range("marker", marker, markers.len()))?;
        Ok(found.props.len())
    })
}

/// Writes property `index` of marker `marker` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for writing a `DunluaProperty`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_map_marker_property(
    m: *const DunluaMap,
    marker: usize,
    index: usize,
    out: *mut DunluaProperty,
) -> DunluaStatus {
    guarded(|| {
        use dunlua::params::ParamValue;
        let map = map_of(m)?;
        let markers = map.generated.markers();
        let found = markers
            .get(marker)
            .ok_or_else(|| out_of_range("marker", marker, markers.len()))?;
        let (_, value) = found
            .props
            .get(index)
            .ok_or_else(|| out_of_range("property", index, found.props.len()))?;
        let (key, text) = &map.marker_props[marker][index];
        let mut property = DunluaProperty {
            key: key.as_ptr(),
            kind: DunluaValueKind::Integer,
            integer: 0,
            number: 0.0,
            boolean: false,
            text: text.as_ref().map_or(std::ptr::null(), |t| t.as_ptr()),
        };
        match value {
            ParamValue::Integer(i) => {
                property.integer = *i;
                property.number = *i as f64;
            }
            ParamValue::Number(n) => {
                property.kind = DunluaValueKind::Number;
                property.number = *n;
            }
            ParamValue::Boolean(b) => {
                property.kind = DunluaValueKind::Boolean;
                property.boolean = *b;
            }
            ParamValue::Text(_) => property.kind = DunluaValueKind::Text,
        }
        // SAFETY: the caller's contract on `out`; the strings live in the map.
        unsafe { put(out, property, "out") }
    })
}

/// Room `index`'s name (`map:add_room(r, {name = ...})`), or NULL when it
/// has none (or for a bad handle or index: see `dunlua_last_error`). Owned
/// by the map.
#[no_mangle]
pub extern "C" fn dunlua_map_room_name(m: *const DunluaMap, index: usize) -> *const c_char {
    room_text(m, index, |texts| &texts.0)
}

/// Room `index`'s kind (`map:add_room(r, {kind = ...})`), or NULL when it
/// has none (or for a bad handle or index). Owned by the map.
#[no_mangle]
pub extern "C" fn dunlua_map_room_kind(m: *const DunluaMap, index: usize) -> *const c_char {
    room_text(m, index, |texts| &texts.1)
}

type RoomTexts = (Option<CString>, Option<CString>);

fn room_text(
    m: *const DunluaMap,
    index: usize,
    which: fn(&RoomTexts) -> &Option<CString>,
) -> *const c_char {
    getter(std::ptr::null(), || {
        let map = map_of(m)?;
        let texts = map
            .room_texts
            .get(index)
            .ok_or_else(|| out_of_range("room", index, map.room_texts.len()))?;
        Ok(which(texts)
            .as_ref()
            .map_or(std::ptr::null(), |t| t.as_ptr()))
    })
}

/// The map's 64-bit hash, the same on every machine: what
/// `dunlua SCRIPT --hash` prints (as 16 hex digits). 0 for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_map_hash(m: *const DunluaMap) -> u64 {
    getter(0, || Ok(map_of(m)?.generated.hash()))
}

/// The seed the map was made from.
#[no_mangle]
pub extern "C" fn dunlua_map_seed(m: *const DunluaMap) -> u64 {
    getter(0, || Ok(map_of(m)?.generated.provenance.seed))
}

/// The map as the `.json` export writes it (rows, legend, rooms, start,
/// markers, params, seed, hash). Made on first use; valid until the map is
/// freed. NULL for a bad handle, or for a map whose markers, rooms and
/// properties would take more than 512 MB as JSON (the exports' bound;
/// `dunlua_last_error` says so).
#[no_mangle]
pub extern "C" fn dunlua_map_json(m: *const DunluaMap) -> *const c_char {
    getter(std::ptr::null(), || {
        let map = map_of(m)?;
        if map.json.get().is_none() {
            dunlua::json::check_size(&map.generated)
                .map_err(|why| Failure::new(DunluaStatus::Limit, why))?;
        }
        // The pointer stays valid after `map` (an Arc clone) drops: the
        // registry holds the state until `dunlua_map_free`.
        Ok(map
            .json
            .get_or_init(|| c_text(&map.generated.to_json()))
            .as_ptr())
    })
}

/// Frees a map (its tiles, strings and JSON with it). NULL, a handle
/// already freed, or a handle that is no map, does nothing.
#[no_mangle]
pub extern "C" fn dunlua_map_free(m: *mut DunluaMap) {
    // The object drops after the registry's lock is released, inside
    // catch_unwind.
    let _ = catch_unwind(|| drop(unregister(m as usize, "map")));
}

// ----------------------------------------------------------------- proofs

/// The completion proof of a dungeon. Opaque; read it with the
/// `dunlua_proof_*` functions.
pub struct DunluaProof(());

/// How a completion proof ended (an `int32_t`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DunluaProofOutcome {
    /// A goal can be reached from the start and from every state the
    /// player can reach.
    Finishable = 0,
    /// No goal can be reached from the start.
    Unfinishable = 1,
    /// A goal can be reached, but some move strands the player (a
    /// consumed key spent on the wrong lock, a drop into a dead end).
    Softlock = 2,
    /// Too many states to decide.
    TooManyStates = 3,
}

/// A cell a proof names: level (1-based), x, y.
#[repr(C)]
pub struct DunluaCell {
    pub level: u32,
    pub x: i32,
    pub y: i32,
}

/// A proof handle's state: the verdict and its sentence as C text.
struct ProofState {
    verdict: dunlua::proof::Verdict,
    sentence: CString,
}

fn proof_of(p: *const DunluaProof) -> Result<Arc<ProofState>, Failure> {
    match object_of(p as usize, "proof")? {
        Object::Proof(state) => Ok(state),
        _ => unreachable!("object_of checked the kind"),
    }
}

/// Proves that the dungeon made of `levels` (`count` map handles, level 1
/// first, as `dunlua_generate_levels` gives them; one handle for a
/// one-level script) can be finished, against the puzzle its script
/// declares (`goal`, `locks`, `one_way`), and writes a new proof handle
/// into `*out` (free it with `dunlua_proof_free`).
///
/// A game calls it on a level it generated at run time, to regenerate
/// (another seed) instead of shipping a level that cannot be finished.
/// `DUNLUA_STATUS_USAGE` when the script declares no puzzle, when `count`
/// is 0 or above 32, or when the maps are not one dungeon's levels in
/// order; `DUNLUA_STATUS_CONTRACT` when the declaration does not fit the
/// maps (a `locks` kind they never define). Nothing is written to `*out`
/// unless the status is `DUNLUA_STATUS_OK`.
///
/// # Safety
/// `levels` is NULL or valid for reading `count` handles; `out` is NULL or
/// valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn dunlua_prove(
    levels: *const *const DunluaMap,
    count: usize,
    out: *mut *mut DunluaProof,
) -> DunluaStatus {
    guarded(|| {
        if levels.is_null() || out.is_null() {
            return Err(Failure::new(
                DunluaStatus::NullArgument,
                "levels or out is NULL",
            ));
        }
        if count == 0 || count > 32 {
            return Err(Failure::new(
                DunluaStatus::Usage,
                format!("count must be 1..32 levels, got {count}"),
            ));
        }
        // SAFETY: not NULL, and `count` handles long by the caller's contract.
        let handles = unsafe { std::slice::from_raw_parts(levels, count) };
        let states = handles
            .iter()
            .map(|&m| map_of(m))
            .collect::<Result<Vec<_>, _>>()?;
        for (k, state) in states.iter().enumerate() {
            let p = &state.generated.provenance;
            let first = &states[0].generated.provenance;
            if p.level != k as u32 + 1 || p.seed != first.seed || p.script != first.script {
                return Err(Failure::new(
                    DunluaStatus::Usage,
                    format!(
                        "levels[{k}] is level {} of seed {} of {}; expected level {} of the first map's dungeon",
                        p.level,
                        p.seed,
                        p.script,
                        k + 1
                    ),
                ));
            }
        }
        let generated: Vec<Generated> = states.iter().map(|s| s.generated.clone()).collect();
        let verdict = dunlua::proof::prove_levels(&generated)
            .ok_or_else(|| {
                Failure::new(
                    DunluaStatus::Usage,
                    "the script declares no puzzle: add goal = { goals = {\"exit\"} } (and locks, one_way) to its table",
                )
            })?
            .map_err(|why| Failure::new(DunluaStatus::Contract, why))?;
        let state = ProofState {
            sentence: c_text(&verdict.sentence),
            verdict,
        };
        let handle = register(Object::Proof(Arc::new(state)))?;
        // SAFETY: checked not NULL above.
        unsafe { out.write(handle as *mut DunluaProof) };
        Ok(())
    })
}

/// The proof's outcome (a `DunluaProofOutcome`), or -1 for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_proof_outcome(p: *const DunluaProof) -> i32 {
    getter(-1, || {
        Ok(match proof_of(p)?.verdict.outcome {
            dunlua::proof::Outcome::Finishable => DunluaProofOutcome::Finishable,
            dunlua::proof::Outcome::Unfinishable => DunluaProofOutcome::Unfinishable,
            dunlua::proof::Outcome::Softlock => DunluaProofOutcome::Softlock,
            dunlua::proof::Outcome::TooManyStates => DunluaProofOutcome::TooManyStates,
        } as i32)
    })
}

/// The outcome's name: `"finishable"`, `"unfinishable"`, `"softlock"`,
/// `"too_many_states"`, or `"unknown"` for any other value. Static.
#[no_mangle]
pub extern "C" fn dunlua_proof_outcome_name(outcome: i32) -> *const c_char {
    let name: &'static CStr = match outcome {
        0 => c"finishable",
        1 => c"unfinishable",
        2 => c"softlock",
        3 => c"too_many_states",
        _ => c"unknown",
    };
    name.as_ptr()
}

/// The proof's one sentence, naming cells: why the dungeon cannot be
/// finished, which move strands the player, or what was proved. UTF-8,
/// valid until the proof is freed; NULL for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_proof_sentence(p: *const DunluaProof) -> *const c_char {
    getter(std::ptr::null(), || {
        // The registry holds the state until dunlua_proof_free.
        Ok(proof_of(p)?.sentence.as_ptr())
    })
}

/// How many cells the sentence names (the blocking lock or move first);
/// 0 for a bad handle.
#[no_mangle]
pub extern "C" fn dunlua_proof_cell_count(p: *const DunluaProof) -> usize {
    getter(0, || Ok(proof_of(p)?.verdict.cells.len()))
}

/// Writes cell `index` of the sentence's cells into `*out`.
///
/// # Safety
/// `out` is NULL or valid for writing a `DunluaCell`.
#[no_mangle]
pub unsafe extern "C" fn dunlua_proof_cell(
    p: *const DunluaProof,
    index: usize,
    out: *mut DunluaCell,
) -> DunluaStatus {
    guarded(|| {
        let proof = proof_of(p)?;
        let cells = &proof.verdict.cells;
        let cell = cells
            .get(index)
            .ok_or_else(|| out_of_range("cell", index, cells.len()))?;
        let value = DunluaCell {
            level: cell.level,
            x: cell.x,
            y: cell.y,
        };
        // SAFETY: the caller's contract on `out`.
        unsafe { put(out, value, "out") }
    })
}

/// Frees a proof. NULL, a handle already freed, or a handle that is no
/// proof, does nothing.
#[no_mangle]
pub extern "C" fn dunlua_proof_free(p: *mut DunluaProof) {
    let _ = catch_unwind(|| drop(unregister(p as usize, "proof")));
}
