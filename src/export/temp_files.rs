//! The temporary files a write stages beside its targets are removed when
//! the process is ended by Ctrl-C, SIGTERM or SIGHUP, not only when it
//! returns. A temporary file is removed as it drops; a signal ends the
//! process without dropping anything, and left a hidden `.dunlua-*.tmp`
//! as large as the output beside it (the target itself was never touched).
//!
//! Every live temporary file's path is kept here from the moment it is
//! made until it is renamed into place or removed. The command line starts
//! ([`sweep_on_signals`], from `cli::main`) a thread that waits for those
//! signals: it removes the files still listed, then ends the process by
//! the signal as it would have ended without this (a shell still sees
//! "killed by SIGINT"). It keeps the list locked from then on, so no file
//! is made after the sweep. A game or tool using the library keeps its
//! signals its own: nothing here takes them unless it asks.
//!
//! Putting staged files in place (`export::commit`: backups of the old
//! targets, renames, the backups removed) holds [`committing`]; the sweep
//! waits for it, so a signal lands before or after a commit, never inside
//! one, where it left a `.dunlua-backup-*` link beside the target, or some
//! targets new and some old.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held while staged files are put in place (see the module's doc).
static COMMITTING: Mutex<()> = Mutex::new(());

/// Holds off the signal sweep until dropped: what is done meanwhile (a
/// few renames) is done whole.
pub fn committing() -> MutexGuard<'static, ()> {
    COMMITTING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while the list was held leaves it as good as it was.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A temporary file that is removed if a signal ends the process; it is
/// removed as it drops, or renamed into place by [`Tracked::persist`].
pub struct Tracked {
    file: Option<NamedTempFile>,
    path: PathBuf,
}

impl Tracked {
    /// The file `make` creates, listed in the same step, so none made
    /// escapes the sweep.
    pub fn create(make: impl FnOnce() -> std::io::Result<NamedTempFile>) -> std::io::Result<Self> {
        let mut live = live();
        let file = make()?;
        let path = file.path().to_path_buf();
        live.push(path.clone());
        Ok(Tracked {
            file: Some(file),
            path,
        })
    }

    pub fn as_file(&self) -> &std::fs::File {
        self.inner().as_file()
    }

    pub fn as_file_mut(&mut self) -> &mut std::fs::File {
        self.file
            .as_mut()
            .expect("a tracked file is there until it is consumed")
            .as_file_mut()
    }

    fn inner(&self) -> &NamedTempFile {
        self.file
            .as_ref()
            .expect("a tracked file is there until it is consumed")
    }

    /// Renames the file over `target`; on failure it is removed.
    pub fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let file = self.file.take().expect("persisted once");
        let result = file.persist(target).map(drop).map_err(|e| e.error);
        forget(&self.path);
        result
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        // Removed first, then forgotten: never on disk and off the list.
        if let Some(file) = self.file.take() {
            drop(file);
            forget(&self.path);
        }
    }
}

fn forget(path: &Path) {
    let mut live = live();
    if let Some(at) = live.iter().position(|p| p == path) {
        live.swap_remove(at);
    }
}

/// Removes the live temporary files when Ctrl-C, SIGTERM or SIGHUP ends
/// the process (see the module's doc); once per process.
#[cfg(unix)]
pub fn sweep_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        // Without the watcher the files are still removed on every other
        // way out; a signal then ends the process as it always did.
        // A signal the process was started ignoring (`nohup`, a shell's
        // `&` job, which ignores SIGINT) stays ignored: a handler over it
        // would end the process where it went on before.
        let taken: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored(signal))
            .collect();
        if taken.is_empty() {
            return;
        }
        let Ok(mut signals) = signal_hook::iterator::Signals::new(taken) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process is gone: nothing new is made.
                let _held = sweep(|_| true);
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // Not reached unless the signal could not end the process.
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Removes the live temporary files (those `which` takes: all of them but
/// in a test) once no commit is under way, and returns the locks it took:
/// while they are held, no commit starts and no file is made.
fn sweep(
    which: impl Fn(&Path) -> bool,
) -> (MutexGuard<'static, ()>, MutexGuard<'static, Vec<PathBuf>>) {
    let commit = committing();
    let live = live();
    for path in live.iter().filter(|p| which(p)) {
        let _ = std::fs::remove_file(path);
    }
    (commit, live)
}

/// Whether `signal` is ignored (`SIG_IGN`) in this process. (`unsafe`
/// outside `script::raw`, as the window's worker threads' is: reading a
/// signal's disposition has no safe interface.)
#[cfg(unix)]
#[allow(unsafe_code)]
fn ignored(signal: i32) -> bool {
    // SAFETY: with a null new action, sigaction only reads the current one
    // into `old`, which is a plain C struct zeroed first.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(not(unix))]
pub fn sweep_on_signals() {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The sweep waits for a commit under way: what it puts in place is
    /// there whole, and only the files still staged after it are removed.
    #[test]
    fn the_sweep_waits_for_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("map.txt");
        let staged = |name: &str| {
            let mut file = Tracked::create(|| tempfile::NamedTempFile::new_in(dir.path())).unwrap();
            file.as_file_mut().write_all(name.as_bytes()).unwrap();
            file
        };
        let (placed, left) = (staged("placed"), staged("left"));
        let left_path = left.path.clone();
        let commit = committing();
        let (tx, rx) = std::sync::mpsc::channel();
        // Only this test's files: other tests' may be staged meanwhile.
        let ours = dir.path().to_path_buf();
        let sweeper = std::thread::spawn(move || {
            let held = sweep(|p| p.starts_with(&ours));
            tx.send(()).unwrap();
            drop(held);
        });
        // The sweep has not run while the commit is held.
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(rx.try_recv().is_err(), "the sweep ran inside a commit");
        assert!(left_path.exists());
        placed.persist(&target).unwrap();
        drop(commit);
        rx.recv().unwrap();
        sweeper.join().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "placed");
        assert!(!left_path.exists(), "a staged file outlived the sweep");
        drop(left);
    }
}
