//! `dunlua._dunlua`: the Python extension module, a thin layer over the
//! library's [`dunlua::Generator`] (no second implementation: every map is
//! the one `dunlua SCRIPT --seed N` makes). `dunlua/__init__.py` is the
//! package around it, `dunlua/_errors.py` its exception classes.
//!
//! Two things a Python game expects that the library leaves to its caller:
//!
//! - The GIL is released while a script runs, so two Python threads
//!   generating on their own generators run in parallel.
//! - Ctrl-C stops a generation: each generator runs its script on a thread
//!   of its own while the calling thread wakes every 50 ms to let Python
//!   look at its signals (only the main thread can); a `KeyboardInterrupt`
//!   (or any exception a signal handler raises) sets the generator's cancel
//!   flag, which stops the script at its next 1000 instructions whatever
//!   its limits, and is raised once the run is over.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use numpy::ndarray::Array2;
use numpy::PyArray2;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use dunlua::params::ParamValue;
use dunlua::{FailureKind, Generated, GeneratorBuilder, LimitKind, Limits};

/// How often the calling thread looks at Python's signals while a script
/// runs: Ctrl-C is seen within this (plus the script's next budget tick).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The stack of the thread a run goes on: the main thread's usual size, so
/// a script nests as deep as under the command line.
const RUN_STACK: usize = 8 << 20;

/// A compiled script that makes a map per seed.
#[pyclass(module = "dunlua", name = "Generator", frozen)]
struct PyGenerator {
    generator: Arc<Mutex<dunlua::Generator>>,
    /// The thread that runs the generator's jobs (see [`Worker`]).
    worker: Mutex<Worker>,
    runs: Arc<Runs>,
    /// The id of the last job queued.
    last_job: AtomicU64,
    info: Info,
}

/// Which of a generator's jobs is running, and the flag that cancels it:
/// a Ctrl-C stops the run of the thread that got it, never another
/// thread's run on the same generator (a job still queued is dropped).
struct Runs {
    /// The id of the job running, 0 for none.
    current: Mutex<u64>,
    /// The library's cancel flag: set only for the job running, cleared
    /// when it ends.
    cancel: Arc<AtomicBool>,
}

impl Runs {
    /// Stops job `id`: cancels it if it runs, drops it (`skip`) if queued.
    fn interrupt(&self, id: u64, skip: &AtomicBool) {
        let current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if *current == id {
            self.cancel.store(true, Ordering::Relaxed);
        } else {
            skip.store(true, Ordering::Relaxed);
        }
    }
}

/// A generator's own thread, which runs its jobs one after the other
/// until the Python object is gone: a thread per generator rather than per
/// run, because starting one costs more than a small map (a run's
/// hand-over is two channel messages). A process made by `fork`
/// (`multiprocessing`) has none of its parent's threads: the first run
/// there starts the child's own.
struct Worker {
    jobs: mpsc::Sender<Queued>,
    /// The process it runs in.
    pid: u32,
}

/// A job with its id and the flag that drops it before it starts.
struct Queued {
    id: u64,
    skip: Arc<AtomicBool>,
    job: Job,
}

impl Worker {
    fn start(generator: Arc<Mutex<dunlua::Generator>>, runs: Arc<Runs>) -> PyResult<Worker> {
        let (jobs, queue) = mpsc::channel::<Queued>();
        std::thread::Builder::new()
            .name("dunlua-generator".into())
            .stack_size(RUN_STACK)
            .spawn(move || {
                for queued in queue {
                    {
                        let mut current = runs.current.lock().unwrap_or_else(|p| p.into_inner());
                        if queued.skip.load(Ordering::Relaxed)
                            || SHUTTING_DOWN.load(Ordering::Relaxed)
                        {
                            // Dropped: its result channel closes unanswered.
                            continue;
                        }
                        *current = queued.id;
                    }
                    let held = generator.lock().unwrap_or_else(|p| p.into_inner());
                    // A panic is dunlua's bug: that run reports it (its
                    // result channel closes) and the thread goes on.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        (queued.job)(&held)
                    }));
                    drop(held);
                    let mut current = runs.current.lock().unwrap_or_else(|p| p.into_inner());
                    *current = 0;
                    runs.cancel.store(false, Ordering::Relaxed);
                }
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Worker {
            jobs,
            pid: std::process::id(),
        })
    }
}

/// A run for the generator's thread; it sends its own result back.
type Job = Box<dyn FnOnce(&dunlua::Generator) + Send>;

/// Set by `_shutdown` (registered with `atexit` by `dunlua/__init__.py`):
/// Python is about to finalize, and before 3.14 it ends a daemon thread
/// that takes the GIL back then with a forced unwind, which aborts the
/// process when it crosses a Rust frame. So no run starts after it, the
/// runs under way are cancelled and waited for, and a daemon thread that
/// calls `generate` later waits forever without the GIL (as Python 3.14
/// makes such threads do).
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// Threads inside a wait without the GIL (see [`SHUTTING_DOWN`]).
static WAITING: AtomicUsize = AtomicUsize::new(0);

/// Every live generator's runs, for `_shutdown` to cancel.
static LIVE: Mutex<Vec<std::sync::Weak<Runs>>> = Mutex::new(Vec::new());

/// The thread that imported the module: Python's main thread.
static MAIN_THREAD: OnceLock<std::thread::ThreadId> = OnceLock::new();

/// Counts a thread in [`WAITING`] while it lives.
struct Waiting;

impl Waiting {
    fn enter() -> Waiting {
        WAITING.fetch_add(1, Ordering::SeqCst);
        Waiting
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        WAITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A run asked for once Python is finalizing: an error on the main thread
/// (an `atexit` handler's), no return at all on another.
fn refuse_after_shutdown(py: Python<'_>) -> PyErr {
    if MAIN_THREAD.get() != Some(&std::thread::current().id()) {
        py.detach(|| loop {
            std::thread::park();
        })
    }
    PyRuntimeError::new_err("dunlua: Python is shutting down; no more runs")
}

/// Cancels every run under way and waits (up to 5 s) for the threads that
/// wait for them to hold the GIL again; see [`SHUTTING_DOWN`].
#[pyfunction]
fn _shutdown(py: Python<'_>) {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
    for runs in LIVE.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        if let Some(runs) = runs.upgrade() {
            if *runs.current.lock().unwrap_or_else(|p| p.into_inner()) != 0 {
                runs.cancel.store(true, Ordering::Relaxed);
            }
        }
    }
    let until = std::time::Instant::now() + Duration::from_secs(5);
    py.detach(|| {
        while WAITING.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    });
}

/// What a generator tells about itself, read once when it is built.
struct Info {
    levels: u32,
    size: (i64, i64),
    params: dunlua::params::Params,
    name: String,
}

/// The arguments every way of making a generator takes.
struct Options<'py> {
    params: Option<Bound<'py, PyDict>>,
    size: Option<Bound<'py, PyAny>>,
    budget: Option<Bound<'py, PyAny>>,
    memory: Option<Bound<'py, PyAny>>,
    timeout: Option<f64>,
    levels: Option<Bound<'py, PyAny>>,
    max_attempts: Option<Bound<'py, PyAny>>,
}

#[pymethods]
impl PyGenerator {
    /// A generator for the script file at `path`; `require` reads modules
    /// from the script's folder.
    #[new]
    #[pyo3(signature = (path, params=None, size=None, budget=None, memory=None, timeout=None, levels=None, max_attempts=None))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        path: PathBuf,
        params: Option<Bound<'py, PyDict>>,
        size: Option<Bound<'py, PyAny>>,
        budget: Option<Bound<'py, PyAny>>,
        memory: Option<Bound<'py, PyAny>>,
        timeout: Option<f64>,
        levels: Option<Bound<'py, PyAny>>,
        max_attempts: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let options = Options {
            params,
            size,
            budget,
            memory,
            timeout,
            levels,
            max_attempts,
        };
        build(py, dunlua::Generator::file(path), options)
    }

    /// A generator for script text; `modules` maps module names as
    /// `require` takes them (`"lib.walls"`) to their source, and `require`
    /// looks nowhere else. `name` is the path messages call the script.
    #[staticmethod]
    #[pyo3(signature = (text, modules=None, name="script.lua", params=None, size=None, budget=None, memory=None, timeout=None, levels=None, max_attempts=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_source<'py>(
        py: Python<'py>,
        text: String,
        modules: Option<Bound<'py, PyDict>>,
        name: &str,
        params: Option<Bound<'py, PyDict>>,
        size: Option<Bound<'py, PyAny>>,
        budget: Option<Bound<'py, PyAny>>,
        memory: Option<Bound<'py, PyAny>>,
        timeout: Option<f64>,
        levels: Option<Bound<'py, PyAny>>,
        max_attempts: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let mut builder = dunlua::Generator::source(name, text);
        for (module, source) in modules.iter().flat_map(|m| m.iter()) {
            let module: String = module
                .extract()
                .map_err(|_| PyTypeError::new_err("modules: names must be strings"))?;
            let source: String = source.extract().map_err(|_| {
                PyTypeError::new_err(format!("modules: '{module}': the source must be a string"))
            })?;
            builder = builder.module(&module_path(&module), source);
        }
        let options = Options {
            params,
            size,
            budget,
            memory,
            timeout,
            levels,
            max_attempts,
        };
        build(py, builder, options)
    }

    /// The map of one seed (level 1 of a linked dungeon).
    fn generate(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<PyMap> {
        let seed = to_seed(seed)?;
        let generated = self.run(py, move |g| g.generate(seed))?;
        Ok(PyMap::new(generated))
    }

    /// Every level of one seed's dungeon, level 1 first (one map for a
    /// one-level script).
    fn generate_levels(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<Vec<PyMap>> {
        let seed = to_seed(seed)?;
        let levels = self.run(py, move |g| g.generate_levels(seed))?;
        Ok(levels.into_iter().map(PyMap::new).collect())
    }

    /// How many levels each seed makes.
    #[getter]
    fn levels(&self) -> u32 {
        self.info.levels
    }

    /// `(width, height)` of the maps it makes.
    #[getter]
    fn size(&self) -> (i64, i64) {
        self.info.size
    }

    /// Every declared parameter with the value this generator uses.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in self.info.params.iter() {
            dict.set_item(key, value_to_py(py, value)?)?;
        }
        Ok(dict)
    }

    /// The script's `name`.
    #[getter]
    fn name(&self) -> String {
        self.info.name.clone()
    }

    fn __repr__(&self) -> String {
        let (w, h) = self.info.size;
        format!("<dunlua.Generator {:?} {w}x{h}>", self.info.name)
    }
}

impl PyGenerator {
    /// Runs `job` on the generator's thread and waits for it, interruptibly
    /// (see [`wait_interruptibly`]).
    fn run<T: Send + 'static>(
        &self,
        py: Python<'_>,
        job: impl FnOnce(&dunlua::Generator) -> Result<T, dunlua::Error> + Send + 'static,
    ) -> PyResult<T> {
        if SHUTTING_DOWN.load(Ordering::SeqCst) {
            return Err(refuse_after_shutdown(py));
        }
        let jobs = {
            let mut worker = self.worker.lock().unwrap_or_else(|p| p.into_inner());
            if worker.pid != std::process::id() {
                // A forked child: the parent's thread is not here, and a
                // run it had under way left the generator locked and its
                // VM in the middle of that run.
                if let Err(std::sync::TryLockError::WouldBlock) = self.generator.try_lock() {
                    return Err(PyRuntimeError::new_err(
                        "this Generator was generating on another thread when the process forked: \
                         it cannot be used in the child; make a new Generator there",
                    ));
                }
                *worker = Worker::start(self.generator.clone(), self.runs.clone())?;
            }
            worker.jobs.clone()
        };
        let id = self.last_job.fetch_add(1, Ordering::Relaxed) + 1;
        let skip = Arc::new(AtomicBool::new(false));
        let (done, result) = mpsc::channel();
        let queued = Queued {
            id,
            skip: skip.clone(),
            job: Box::new(move |generator| {
                let _ = done.send(job(generator));
            }),
        };
        jobs.send(queued).map_err(|_| {
            PyRuntimeError::new_err("the generator's thread is gone (a bug in dunlua)")
        })?;
        wait_interruptibly(py, || self.runs.interrupt(id, &skip), result)
    }
}

/// Builds the generator on a thread (compiling and reading the script's
/// table runs Lua: without the GIL, and stopped by Ctrl-C as a generation
/// is), then starts its [`Worker`].
fn start(
    py: Python<'_>,
    builder: GeneratorBuilder,
    cancel: Arc<AtomicBool>,
) -> PyResult<PyGenerator> {
    let (ready, built) = mpsc::channel();
    std::thread::Builder::new()
        .name("dunlua-build".into())
        .stack_size(RUN_STACK)
        .spawn(move || {
            let _ = ready.send(builder.build());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let generator = wait_interruptibly(py, || cancel.store(true, Ordering::Relaxed), built)?;
    cancel.store(false, Ordering::Relaxed);
    let info = Info {
        levels: generator.levels(),
        size: generator.size(),
        params: generator.params().clone(),
        name: generator.info().name.clone(),
    };
    let generator = Arc::new(Mutex::new(generator));
    let runs = Arc::new(Runs {
        current: Mutex::new(0),
        cancel,
    });
    let worker = Mutex::new(Worker::start(generator.clone(), runs.clone())?);
    {
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|r| r.strong_count() > 0);
        live.push(Arc::downgrade(&runs));
    }
    Ok(PyGenerator {
        generator,
        worker,
        runs,
        last_job: AtomicU64::new(0),
        info,
    })
}

/// Waits for `result` without the GIL, looking at Python's signals every
/// [`SIGNAL_POLL`]: an exception from a signal handler (Ctrl-C's
/// `KeyboardInterrupt`) calls `interrupt` (which stops the script or drops
/// the job) and is raised once the run has ended.
fn wait_interruptibly<T: Send>(
    py: Python<'_>,
    interrupt: impl Fn(),
    result: mpsc::Receiver<Result<T, dunlua::Error>>,
) -> PyResult<T> {
    if SHUTTING_DOWN.load(Ordering::SeqCst) {
        return Err(refuse_after_shutdown(py));
    }
    let _waiting = Waiting::enter();
    // Waited on without the GIL, which takes a `Sync` value.
    let result = Mutex::new(result);
    let wait = |timeout: Option<Duration>| {
        let result = result.lock().unwrap_or_else(|p| p.into_inner());
        match timeout {
            Some(t) => result.recv_timeout(t),
            None => result.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    // Only the main thread sees signals: another waits in one go.
    let poll = (MAIN_THREAD.get() == Some(&std::thread::current().id())).then_some(SIGNAL_POLL);
    loop {
        match py.detach(|| wait(poll)) {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(failure)) => return Err(script_error(py, failure)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signalled) = py.check_signals() {
                    interrupt();
                    let _ = py.detach(|| wait(None));
                    return Err(signalled);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    if SHUTTING_DOWN.load(Ordering::SeqCst) {
                        "dunlua: Python is shutting down; the run was dropped"
                    } else {
                        "dunlua failed while generating (a bug in dunlua)"
                    },
                ))
            }
        }
    }
}

fn build(py: Python<'_>, mut builder: GeneratorBuilder, o: Options<'_>) -> PyResult<PyGenerator> {
    for (key, value) in o.params.iter().flat_map(|p| p.iter()) {
        let key: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("params: names must be strings"))?;
        builder = builder.param(&key, param_value(&key, &value)?);
    }
    if let Some(size) = &o.size {
        let (w, h) = to_size(size)?;
        builder = builder.size(w, h);
    }
    // Messages name this binding's keyword arguments for the limits.
    builder = builder
        .limits(limits(&o)?)
        .limit_names(dunlua::LimitNames::PYTHON);
    if let Some(levels) = &o.levels {
        builder = builder.levels(small_count(levels, "levels")?);
    }
    if let Some(attempts) = &o.max_attempts {
        let attempts = small_count(attempts, "max_attempts")?;
        builder = builder.max_attempts(attempts);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    builder = builder.cancel(cancel.clone());
    start(py, builder, cancel)
}

/// The limits from `budget` (instructions), `memory` (MiB) and `timeout`
/// (seconds, 0 for none), each `None` for the command line's default, and
/// checked as the command line checks its flags.
fn limits(o: &Options<'_>) -> PyResult<Limits> {
    let mut limits = Limits::default();
    if let Some(budget) = &o.budget {
        limits.max_instructions = integer(budget, "budget", "a number of instructions")?
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "budget {}: expected a number of instructions in 0..=18446744073709551615",
                    shown(budget)
                ))
            })?;
    }
    if let Some(memory) = &o.memory {
        let mb = integer(memory, "memory", "megabytes")?.filter(|mb| (1..=1 << 20).contains(mb));
        let mb = mb.ok_or_else(|| {
            PyValueError::new_err(format!(
                "memory {}: expected megabytes in 1..=1048576",
                shown(memory)
            ))
        })?;
        limits.max_memory = (mb as usize) << 20;
    }
    if let Some(timeout) = o.timeout {
        if !(timeout.is_finite() && (0.0..=86_400.0).contains(&timeout)) {
            return Err(PyValueError::new_err(format!(
                "timeout {timeout}: expected seconds from 0 to 86400 (0: no deadline)"
            )));
        }
        limits.timeout = (timeout > 0.0).then(|| Duration::from_secs_f64(timeout));
    }
    Ok(limits)
}

/// An `int` argument as a `u64` (`None` when it is negative or too big);
/// anything else (a `bool`, a `str`) is a `TypeError`.
fn integer(value: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<Option<u64>> {
    let Some(int) = as_int(value) else {
        return Err(PyTypeError::new_err(format!(
            "{what} {}: expected {expected} (an integer)",
            shown(value)
        )));
    };
    Ok(int.extract::<u64>().ok())
}

/// `value` as a Python `int` when it is an integer: an `int`, or anything
/// with `__index__` (numpy's integers, which `rng.integers` gives); not a
/// `bool` (Python's or numpy's).
fn as_int<'py>(value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if is_bool(value) {
        return None;
    }
    if value.is_instance_of::<pyo3::types::PyInt>() {
        return Some(value.clone());
    }
    value
        .call_method0("__index__")
        .ok()
        .filter(|i| i.is_instance_of::<pyo3::types::PyInt>())
}

/// A Python `bool` or a numpy one (`np.bool_`, which is no `bool`).
fn is_bool(value: &Bound<'_, PyAny>) -> bool {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return true;
    }
    let kind = value.get_type();
    let module = kind.module().map(|m| m.to_string()).unwrap_or_default();
    let name = kind.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

/// A Python value as an error quotes it: its `repr`, cut (see
/// [`cut_text`]).
fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".to_string());
    cut_text(&text)
}

/// `text` as the library's messages quote it: cut to 200 bytes, with its
/// length (a 10 MB string made a 10 MB message).
fn cut_text(text: &str) -> String {
    dunlua::one_line::quoted(text).into_owned()
}

fn small_count(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    integer(value, what, "a count")?
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{what} {}: expected a positive integer",
                shown(value)
            ))
        })
}

fn to_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    integer(seed, "seed", "a seed")?.ok_or_else(|| {
        PyValueError::new_err(format!(
            "seed {}: expected 0..=18446744073709551615",
            shown(seed)
        ))
    })
}

/// `(width, height)` as the library checks it; numbers past `i64` are
/// refused with the same words as a size the library refuses.
fn to_size(size: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let pair = size
        .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "size {}: expected (width, height) such as (80, 50)",
                shown(size)
            ))
        })?;
    let side = |v: &Bound<'_, PyAny>| -> PyResult<i64> {
        let Some(int) = as_int(v) else {
            return Err(PyTypeError::new_err(format!(
                "size {}: expected (width, height) such as (80, 50)",
                shown(size)
            )));
        };
        // Past i64 is past any size; the library's check says the range.
        Ok(int.extract::<i64>().unwrap_or(i64::MAX))
    };
    Ok((side(&pair.0)?, side(&pair.1)?))
}

/// A parameter's value: `bool`, `int`, `float` or `str`, as the script's
/// declared types; the library checks it against the declaration.
fn param_value(key: &str, value: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    // The key as an error quotes it (a 5 MB key made a 5 MB message).
    let key = &cut_text(key);
    if is_bool(value) {
        return Ok(ParamValue::Boolean(value.is_truthy()?));
    }
    if let Some(int) = as_int(value) {
        if let Ok(v) = int.extract::<i64>() {
            return Ok(ParamValue::Integer(v));
        }
        // Past 64 bits: a number (a number parameter takes it; an integer
        // one says it wants an integer).
        return match int.extract::<f64>() {
            Ok(v) if v.is_finite() => Ok(ParamValue::Number(v)),
            _ => Err(PyValueError::new_err(format!(
                "parameter '{key}': {} is too big",
                shown(value)
            ))),
        };
    }
    if value.is_instance_of::<pyo3::types::PyFloat>() {
        return Ok(ParamValue::Number(value.extract::<f64>()?));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(ParamValue::Text(s.to_str()?.to_string()));
    }
    Err(PyTypeError::new_err(format!(
        "parameter '{key}' must be a boolean, integer, number or string, got {}",
        value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )))
}

fn value_to_py<'py>(py: Python<'py>, value: &ParamValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        ParamValue::Integer(v) => v.into_pyobject(py)?.into_any(),
        ParamValue::Number(v) => v.into_pyobject(py)?.into_any(),
        ParamValue::Boolean(v) => pyo3::types::PyBool::new(py, *v).to_owned().into_any(),
        ParamValue::Text(v) => PyString::new(py, v).into_any(),
    })
}

/// `"lib.walls"` (a module name as `require` takes it) is
/// `"lib/walls.lua"`; a path already ending in `.lua` is kept.
fn module_path(name: &str) -> String {
    if name.ends_with(".lua") {
        name.to_string()
    } else {
        format!("{}.lua", name.replace('.', "/"))
    }
}

/// A library failure as the Python exception a user catches: usage errors
/// as `ValueError`/`TypeError`/`OSError` with the command line's text, the
/// script's failures as `dunlua.ScriptError` and its subclasses.
fn script_error(py: Python<'_>, failure: dunlua::Error) -> PyErr {
    let message = failure.message.clone();
    if failure.kind == FailureKind::Usage {
        return if message.starts_with("cannot read script") {
            if message.contains("os error 2)") {
                PyFileNotFoundError::new_err(message)
            } else {
                PyOSError::new_err(message)
            }
        } else if message.starts_with("parameter '")
            && message.contains("' must be a")
            && !message.contains("' must be a finite")
        {
            PyTypeError::new_err(message)
        } else {
            PyValueError::new_err(message)
        };
    }
    let class = match (failure.kind, failure.limit()) {
        (FailureKind::Limit, Some(LimitKind::Instructions)) => "BudgetExceeded",
        (FailureKind::Limit, _) => "MemoryExceeded",
        (FailureKind::TimedOut, _) => "TimedOut",
        (FailureKind::Rejected, _) => "Rejected",
        _ => "ScriptError",
    };
    let kind = match failure.kind {
        FailureKind::Usage => "usage",
        FailureKind::Syntax => "syntax",
        FailureKind::Runtime => "runtime",
        FailureKind::Contract => "contract",
        FailureKind::Limit => "limit",
        FailureKind::TimedOut => "timed_out",
        FailureKind::Cancelled => "cancelled",
        FailureKind::Rejected => "rejected",
        FailureKind::BadStart => "bad_start",
    };
    let (file, line) = match failure.location() {
        Some(at) => match at.rsplit_once(':') {
            Some((file, line)) => (Some(file.to_string()), line.parse::<u32>().ok()),
            None => (Some(at), None),
        },
        None => (None, None),
    };
    let made = (|| -> PyResult<PyErr> {
        let errors = py.import("dunlua._errors")?;
        let exception = errors.getattr(class)?.call1((
            message.clone(),
            kind,
            file,
            line,
            failure.traceback.clone(),
            failure.rejections.clone(),
        ))?;
        Ok(PyErr::from_value(exception))
    })();
    made.unwrap_or_else(|e| e)
}

/// One generated map: numpy views of its tiles, its kinds, rooms, markers
/// and start, as the scripts and the command line name them.
#[pyclass(module = "dunlua", name = "Map", frozen)]
struct PyMap {
    generated: Generated,
    tiles: OnceLock<Py<PyArray2<u8>>>,
    walkable: OnceLock<Py<PyArray2<bool>>>,
    transparent: OnceLock<Py<PyArray2<bool>>>,
}

impl PyMap {
    fn new(generated: Generated) -> PyMap {
        PyMap {
            generated,
            tiles: OnceLock::new(),
            walkable: OnceLock::new(),
            transparent: OnceLock::new(),
        }
    }

    /// A read-only `(height, width)` array of `cell(tile)` for every cell.
    fn grid<'py, T: numpy::Element>(
        &self,
        py: Python<'py>,
        cache: &OnceLock<Py<PyArray2<T>>>,
        cell: impl Fn(dunlua::Tile) -> T,
    ) -> Py<PyArray2<T>> {
        cache
            .get_or_init(|| {
                let g = &self.generated;
                let values: Vec<T> = g.cells().iter().map(|&t| cell(t)).collect();
                let shape = (g.height(), g.width());
                let grid = Array2::from_shape_vec(shape, values).expect("a value per cell");
                let array = PyArray2::from_owned_array(py, grid);
                array
                    .call_method1("setflags", (false,))
                    .expect("an array made here can be made read-only");
                array.unbind()
            })
            .clone_ref(py)
    }

    fn kind_flag(&self, tile: dunlua::Tile, flag: fn(&dunlua::map::TileKind) -> bool) -> bool {
        flag(self.generated.map.tiles().kind(tile))
    }
}

#[pymethods]
impl PyMap {
    /// Tile ids, `uint8` `(height, width)`, read-only; `tiles.T` is the
    /// `[x, y]` view (no copy). An id indexes `kinds`.
    #[getter]
    fn tiles(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        self.grid(py, &self.tiles, |t| t.0)
    }

    /// Whether each cell can be walked on, `bool` `(height, width)`.
    #[getter]
    fn walkable(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.grid(py, &self.walkable, |t| self.kind_flag(t, |k| k.walkable))
    }

    /// Whether each cell lets light through, `bool` `(height, width)`: what
    /// `tcod.map.compute_fov` takes.
    #[getter]
    fn transparent(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.grid(py, &self.transparent, |t| {
            self.kind_flag(t, |k| k.transparent)
        })
    }

    /// The tile kinds, index = tile id: dicts of name, glyph, fg, bg
    /// (`(r, g, b)`), walkable, transparent.
    #[getter]
    fn kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (_, kind) in self.generated.tile_kinds() {
            let dict = PyDict::new(py);
            dict.set_item("name", &kind.name)?;
            dict.set_item("glyph", kind.glyph.to_string())?;
            dict.set_item("fg", rgb(kind.color))?;
            dict.set_item("bg", rgb(kind.background))?;
            dict.set_item("walkable", kind.walkable)?;
            dict.set_item("transparent", kind.transparent)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The kind's name at `(x, y)` (`"wall"`, `"floor"`, ...); `IndexError`
    /// outside the map.
    fn name_at(&self, x: i64, y: i64) -> PyResult<String> {
        let inside = |v: i64| i32::try_from(v).ok();
        inside(x)
            .zip(inside(y))
            .and_then(|(x, y)| self.generated.tile_name(x, y))
            .map(str::to_string)
            .ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err(format!(
                    "({x}, {y}) is outside the {}x{} map",
                    self.generated.width(),
                    self.generated.height()
                ))
            })
    }

    /// Where the player starts, `(x, y)`, 0-based like the scripts.
    #[getter]
    fn start(&self) -> (i32, i32) {
        self.generated.start()
    }

    /// The rooms the script recorded, as `(x, y, w, h)` the way the
    /// scripts' `Rect.new(x, y, w, h)` takes them.
    #[getter]
    fn rooms(&self) -> Vec<(i32, i32, i32, i32)> {
        self.generated
            .rooms()
            .iter()
            .map(|r| (r.x1, r.y1, r.x2 - r.x1, r.y2 - r.y1))
            .collect()
    }

    /// The script's markers: dicts `{x, y, name, props}`.
    #[getter]
    fn markers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for marker in self.generated.markers() {
            let dict = PyDict::new(py);
            dict.set_item("x", marker.x)?;
            dict.set_item("y", marker.y)?;
            dict.set_item("name", &marker.name)?;
            let props = PyDict::new(py);
            for (key, value) in &marker.props {
                props.set_item(key, value_to_py(py, value)?)?;
            }
            dict.set_item("props", props)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The 16-hex-digit hash `dunlua SCRIPT --seed N --hash` prints.
    #[getter]
    fn hash(&self) -> String {
        format!("{:016x}", self.generated.hash())
    }

    #[getter]
    fn width(&self) -> usize {
        self.generated.width()
    }

    #[getter]
    fn height(&self) -> usize {
        self.generated.height()
    }

    /// The seed it was made from.
    #[getter]
    fn seed(&self) -> u64 {
        self.generated.provenance.seed
    }

    /// Which level of its dungeon it is (1-based), and how many there are.
    #[getter]
    fn level(&self) -> u32 {
        self.generated.provenance.level
    }

    #[getter]
    fn level_count(&self) -> u32 {
        self.generated.provenance.levels
    }

    /// Every declared parameter with the value used.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in self.generated.provenance.params.iter() {
            dict.set_item(key, value_to_py(py, value)?)?;
        }
        Ok(dict)
    }

    /// The attempts the script rejected before this map, and why.
    #[getter]
    fn rejections(&self) -> Vec<(u32, String)> {
        self.generated.rejections.clone()
    }

    /// The completion proof of this map alone (see `prove` for a
    /// dungeon's levels together): a dict with `outcome` ("finishable",
    /// "unfinishable", "softlock", "too_many_states"), `sentence` and
    /// `cells` (`(level, x, y)` tuples), or None when the script declares
    /// no puzzle.
    fn prove<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        verdict_dict(
            py,
            dunlua::proof::prove_levels(std::slice::from_ref(&self.generated)),
        )
    }

    /// The JSON the command line's `--out map.json` writes for this map;
    /// ValueError past the exports' 512 MB bound.
    fn to_json(&self) -> PyResult<String> {
        self.generated.try_to_json().map_err(PyValueError::new_err)
    }

    /// The map as text, as `--ascii` prints it.
    fn __str__(&self) -> String {
        self.generated.to_text()
    }

    fn __repr__(&self) -> String {
        let p = &self.generated.provenance;
        format!(
            "<dunlua.Map {:?} seed {} {}x{} hash {:016x}>",
            p.name,
            p.seed,
            self.generated.width(),
            self.generated.height(),
            self.generated.hash()
        )
    }
}

fn rgb(color: dunlua::map::Rgb) -> Py<PyTuple> {
    Python::attach(|py| {
        PyTuple::new(py, [color.0, color.1, color.2])
            .unwrap()
            .unbind()
    })
}

/// A proof's verdict as a dict; a declaration that does not fit the maps
/// is a ValueError.
fn verdict_dict<'py>(
    py: Python<'py>,
    proved: Option<Result<dunlua::proof::Verdict, String>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(proved) = proved else {
        return Ok(None);
    };
    let verdict = proved.map_err(pyo3::exceptions::PyValueError::new_err)?;
    let dict = PyDict::new(py);
    dict.set_item("outcome", verdict.outcome.name())?;
    dict.set_item("sentence", &verdict.sentence)?;
    let cells: Vec<(u32, i32, i32)> = verdict.cells.iter().map(|c| (c.level, c.x, c.y)).collect();
    dict.set_item("cells", cells)?;
    Ok(Some(dict))
}

/// The completion proof of a dungeon: its levels (as `generate_levels`
/// gives them, level 1 first) against the puzzle its script declares.
/// None when it declares none.
#[pyfunction]
fn prove<'py>(
    py: Python<'py>,
    levels: Vec<PyRef<'py, PyMap>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    if levels.is_empty() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "prove needs the dungeon's levels, level 1 first; got none",
        ));
    }
    let generated: Vec<Generated> = levels.iter().map(|m| m.generated.clone()).collect();
    verdict_dict(py, dunlua::proof::prove_levels(&generated))
}

#[pymodule]
fn _dunlua(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let _ = MAIN_THREAD.set(std::thread::current().id());
    module.add_function(wrap_pyfunction!(_shutdown, module)?)?;
    module.add_function(wrap_pyfunction!(prove, module)?)?;
    module.add_class::<PyGenerator>()?;
    module.add_class::<PyMap>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
