//! File watching for hot reload: the script and every module it required.
//! Folders are watched rather than files, because editors often save by
//! writing a new file and renaming it over the old one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

use anyhow::Context;
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

/// Watches a set of files and says when any of them changed.
pub struct FileWatch {
    watcher: RecommendedWatcher,
    events: Receiver<PathBuf>,
    folders: HashSet<PathBuf>,
    files: HashSet<PathBuf>,
}

/// The absolute form of a path with its folder resolved, as the watcher
/// reports it.
fn key(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(folder.canonicalize().ok()?.join(name))
}

impl FileWatch {
    pub fn new() -> anyhow::Result<FileWatch> {
        let (tx, events) = channel();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event {
                if event.kind.is_access() {
                    return;
                }
                for path in event.paths {
                    let _ = tx.send(path);
                }
            }
        })
        .context("cannot watch files for reload")?;
        Ok(FileWatch {
            watcher,
            events,
            folders: HashSet::new(),
            files: HashSet::new(),
        })
    }

    /// Watches exactly these files from now on (their folders are added).
    pub fn set_files(&mut self, files: &[PathBuf]) -> anyhow::Result<()> {
        self.files = files.iter().filter_map(|f| key(f)).collect();
        for file in &self.files {
            if let Some(folder) = file.parent() {
                if self.folders.insert(folder.to_path_buf()) {
                    self.watcher
                        .watch(folder, RecursiveMode::NonRecursive)
                        .with_context(|| format!("cannot watch {}", folder.display()))?;
                }
            }
        }
        Ok(())
    }

    /// Whether a watched file changed since the last call.
    pub fn changed(&self) -> bool {
        let mut any = false;
        while let Ok(path) = self.events.try_recv() {
            any |=
                self.files.contains(&path) || key(&path).is_some_and(|k| self.files.contains(&k));
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait_for_change(watch: &FileWatch) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if watch.changed() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn sees_writes_and_renames_of_watched_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("a.lua");
        let other = dir.path().join("b.lua");
        std::fs::write(&script, "1").unwrap();
        std::fs::write(&other, "1").unwrap();
        let mut watch = FileWatch::new().unwrap();
        watch.set_files(std::slice::from_ref(&script)).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        std::fs::write(&other, "2").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(!watch.changed(), "another file in the folder");
        std::fs::write(&script, "2").unwrap();
        assert!(wait_for_change(&watch), "a plain write");
        let tmp = dir.path().join(".a.lua.swp");
        std::fs::write(&tmp, "3").unwrap();
        std::fs::rename(&tmp, &script).unwrap();
        assert!(wait_for_change(&watch), "an editor's write-and-rename");
    }
}
