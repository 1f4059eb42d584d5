//! The window's worker threads: one makes the next map (a reload, another
//! seed), others make the seed grid's pictures. Each has its own Lua VM, so
//! a slow or runaway script never freezes the window; the window's thread
//! only picks up what they finish. The grid's workers run at a lower
//! priority than the window, so on a machine whose cores they fill the
//! window still draws and reads keys every frame.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::grid::Grid;
use super::inspect::Inspection;
use super::state;
use crate::generated::Generated;
use crate::render::MarkerLooks;
use crate::script::{self, FailureKind, Request, ScriptError};
use crate::thumbnail::Tile;

/// Why a map is being generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Reload,
    Seed,
}

/// A finished generation: the map and how long it took, or the error.
pub type Generation = Result<(Vec<Generated>, Vec<Inspection>, Duration), ScriptError>;
/// A job's number, why it ran, what it made and when its worker finished.
type Outcome = (u64, Why, Generation, Instant);

/// Generates maps on worker threads (each with its own Lua VM), so a slow
/// or runaway script never freezes the window; only the newest job counts,
/// and starting one cancels the one before (it stops at its next budget
/// check), so saving a runaway script ten times leaves no pile of workers.
pub struct Generator {
    tx: Sender<Outcome>,
    rx: Receiver<Outcome>,
    latest: u64,
    /// The newest job's cancel flag.
    cancel: Option<Arc<AtomicBool>>,
    /// Workers still running (cancelled ones included, until they stop).
    live: Arc<AtomicUsize>,
    /// Runs that ended cancelled by a newer one.
    pub cancelled: usize,
}

impl Generator {
    pub fn new() -> Generator {
        let (tx, rx) = channel();
        Generator {
            tx,
            rx,
            latest: 0,
            cancel: None,
            live: Arc::default(),
            cancelled: 0,
        }
    }

    pub fn start(&mut self, mut request: Request, why: Why) {
        if let Some(previous) = self.cancel.take() {
            previous.store(true, Ordering::Relaxed);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        request.cancel = Some(cancel.clone());
        self.cancel = Some(cancel);
        self.latest += 1;
        let (id, tx, live) = (self.latest, self.tx.clone(), self.live.clone());
        live.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || {
            let started = Instant::now();
            // The window's analysis of the levels too, off the window's thread.
            let result = script::run_levels(&request).map(|levels| {
                let inspections = state::inspect_all(&levels);
                (levels, inspections, started.elapsed())
            });
            live.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.send((id, why, result, Instant::now()));
        });
    }

    /// How many workers are still running.
    pub fn running(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    pub fn poll(&mut self) -> Option<(Why, Generation, Instant)> {
        let mut newest = None;
        while let Ok((id, why, result, done_at)) = self.rx.try_recv() {
            if matches!(&result, Err(e) if e.kind == FailureKind::Cancelled) {
                self.cancelled += 1;
            }
            if id == self.latest {
                newest = Some((why, result, done_at));
            }
        }
        newest
    }
}

/// The workers that make the seed grid's pictures: each takes the next
/// seed not taken, in its own Lua VM; dropping this cancels them (a run in
/// progress stops at its next budget check).
pub struct GridWork {
    first: u64,
    rx: Receiver<(usize, Tile)>,
    cancel: Arc<AtomicBool>,
}

impl GridWork {
    /// Pictures level `level` (1-based) of each seed: the level on screen
    /// when the grid opened, made with the levels above it.
    pub fn start(request: &Request, grid: &Grid, level: usize) -> GridWork {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicUsize::new(0));
        let mut request = request.clone();
        request.record = false;
        request.cancel = Some(cancel.clone());
        let (first, count, thumb) = (grid.first, grid.len(), grid.thumb);
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        for _ in 0..workers.min(count) {
            let (tx, next, cancel, request) =
                (tx.clone(), next.clone(), cancel.clone(), request.clone());
            std::thread::spawn(move || {
                lower_priority();
                let session = script::Session::new(&request);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= count || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let seed = first.wrapping_add(i as u64);
                    // Markers in the looks of the levels down to this
                    // one, as the dungeon's other levels show them.
                    let made = session.as_ref().map(|s| {
                        match level {
                            1 => s.run(seed).map(|g| vec![g]),
                            _ => s.run_levels(seed),
                        }
                        .map(|levels| MarkerLooks::level_of(levels, level))
                    });
                    let tile = match made {
                        Ok(Ok((g, looks))) => Tile::Map(crate::thumbnail::thumbnail_with(
                            &g.map, &looks, thumb.0, thumb.1,
                        )),
                        _ => Tile::Failed,
                    };
                    if tx.send((i, tile)).is_err() {
                        break;
                    }
                }
            });
        }
        GridWork { first, rx, cancel }
    }

    /// Puts the finished pictures into the grid they were made for.
    pub fn collect(&self, grid: &mut Grid) {
        while let Ok((i, tile)) = self.rx.try_recv() {
            if grid.first == self.first && i < grid.len() {
                grid.tiles[i] = tile;
            }
        }
    }
}

impl Drop for GridWork {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// How much nicer than the window a grid worker is: enough that the
/// window's few milliseconds a frame always come first, while the workers
/// still get every cycle the window leaves.
#[cfg(target_os = "linux")]
const NICER: libc::c_int = 10;

/// Lowers the calling thread's priority below the window's. On Linux
/// `setpriority` on a thread id changes that thread only; elsewhere the
/// workers keep the window's priority. A failure changes nothing but
/// speed, so it is ignored. (The crate's one `unsafe` outside the Lua
/// host: std has no safe way to set a thread's priority.)
#[allow(unsafe_code)]
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's own id.
    unsafe {
        let tid = libc::gettid();
        let now = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, (now + NICER).min(19));
    }
}
