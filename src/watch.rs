//! File watching for hot reload: the script and every module it required,
//! and the modules a run looked for and did not find. Folders are watched
//! rather than files, because editors often save by writing a new file
//! and renaming it over the old one.

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
    /// Files that do not exist yet (a module a run looked for), by the
    /// absolute path they would have under their nearest existing
    /// folder's real path: their appearing is a change.
    missing: HashSet<PathBuf>,
    /// One of them existed already when it was given.
    appeared: bool,
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

/// The keys a file is watched by: its own and, when it is a symlink, its
/// target's (an edit of the target is seen only in the target's folder).
fn keys(path: &Path) -> Vec<PathBuf> {
    let mut keys: Vec<PathBuf> = key(path).into_iter().collect();
    if let Ok(real) = path.canonicalize() {
        if !keys.contains(&real) {
            keys.push(real);
        }
    }
    keys
}

/// Where a file that does not exist would be: the real path of its
/// nearest existing folder joined with the rest of the path, as the
/// watcher will report it once the folders on the way are made.
fn would_be(path: &Path) -> Option<PathBuf> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let mut folder = absolute.parent()?;
    loop {
        if let Ok(real) = folder.canonicalize() {
            return Some(real.join(absolute.strip_prefix(folder).ok()?));
        }
        folder = folder.parent()?;
    }
}

/// The files of the modules a failed run's error says were not found
/// (`module 'lib.doors' not found`, Lua's own words, which `require`
/// keeps): where `require` would have read them beside `script` (its
/// folder, the name's dots as folders).
pub fn modules_not_found(script: &Path, message: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut rest = message;
    while let Some(at) = rest.find("module '") {
        rest = &rest[at + "module '".len()..];
        let Some(end) = rest.find("' not found") else {
            break;
        };
        if let Some(path) = crate::script::module_file(script, &rest[..end]) {
            if !found.contains(&path) {
                found.push(path);
            }
        }
    }
    found
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
            missing: HashSet::new(),
            appeared: false,
        })
    }

    fn watch_folder(&mut self, folder: &Path) -> anyhow::Result<()> {
        if self.folders.insert(folder.to_path_buf()) {
            if let Err(e) = self.watcher.watch(folder, RecursiveMode::NonRecursive) {
                self.folders.remove(folder);
                return Err(e).with_context(|| format!("cannot watch {}", folder.display()));
            }
        }
        Ok(())
    }

    /// Watches exactly these files from now on (their folders are added,
    /// and a symlink's target's folder too). Files that did not exist are
    /// no longer watched for (see [`FileWatch::set_missing`]).
    pub fn set_files(&mut self, files: &[PathBuf]) -> anyhow::Result<()> {
        self.files = files.iter().flat_map(|f| keys(f)).collect();
        self.missing.clear();
        self.appeared = false;
        let folders: Vec<PathBuf> = self
            .files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        for folder in folders {
            self.watch_folder(&folder)?;
        }
        Ok(())
    }

    /// Also watches for these files, which do not exist (the modules a
    /// failed run looked for): their nearest existing folder is watched,
    /// and each folder made on the way to them, so one made in a new
    /// subfolder is seen too. Replaces the last call's files.
    pub fn set_missing(&mut self, paths: &[PathBuf]) -> anyhow::Result<()> {
        self.missing = paths.iter().filter_map(|p| would_be(p)).collect();
        // Made between the run's look and now: no event will say so.
        self.appeared = self.missing.iter().any(|m| m.exists());
        let missing: Vec<PathBuf> = self.missing.iter().cloned().collect();
        for path in missing {
            self.watch_way_to(&path)?;
        }
        Ok(())
    }

    /// Watches the nearest existing folder on the way to `path` (the
    /// deepest: each folder made on the way is watched as it appears, see
    /// [`FileWatch::changed`]), and no folder above it.
    fn watch_way_to(&mut self, path: &Path) -> anyhow::Result<()> {
        let mut folder = path.parent();
        while let Some(f) = folder {
            if f.is_dir() {
                return self.watch_folder(f);
            }
            folder = f.parent();
        }
        Ok(())
    }

    /// Whether a watched file changed, or a file watched for appeared,
    /// since the last call.
    pub fn changed(&mut self) -> bool {
        let mut any = std::mem::take(&mut self.appeared);
        let mut new_folders = false;
        while let Ok(path) = self.events.try_recv() {
            let known = |set: &HashSet<PathBuf>| {
                set.contains(&path) || key(&path).is_some_and(|k| set.contains(&k))
            };
            any |= known(&self.files) || known(&self.missing);
            new_folders |= self
                .missing
                .iter()
                .any(|m| m != &path && m.starts_with(&path));
        }
        if new_folders {
            // A folder on the way to a missing file was made: watch it,
            // and the file may already be in it.
            let missing: Vec<PathBuf> = self.missing.iter().cloned().collect();
            for path in missing {
                let _ = self.watch_way_to(&path);
                any |= path.exists();
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait_for_change(watch: &mut FileWatch) -> bool {
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
        assert!(wait_for_change(&mut watch), "a plain write");
        let tmp = dir.path().join(".a.lua.swp");
        std::fs::write(&tmp, "3").unwrap();
        std::fs::rename(&tmp, &script).unwrap();
        assert!(wait_for_change(&mut watch), "an editor's write-and-rename");
    }

    #[test]
    fn sees_a_missing_module_made_in_its_folder_or_a_new_subfolder() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("t.lua");
        std::fs::write(&script, "require('lib.newmod')").unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        let mut watch = FileWatch::new().unwrap();
        watch.set_files(std::slice::from_ref(&script)).unwrap();
        let newmod = dir.path().join("lib/newmod.lua");
        let deep = dir.path().join("lib/n2/m.lua");
        let deeper = dir.path().join("more/n3/m.lua");
        watch
            .set_missing(&[newmod.clone(), deep.clone(), deeper.clone()])
            .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        std::fs::write(dir.path().join("lib/other.lua"), "1").unwrap();
        std::fs::create_dir(dir.path().join("lib/n4")).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(!watch.changed(), "another file or folder");
        std::fs::write(&newmod, "return 1").unwrap();
        assert!(wait_for_change(&mut watch), "the module made in lib/");
        std::thread::sleep(Duration::from_millis(200));
        let _ = watch.changed();
        // A new subfolder, the module written into it at once.
        std::fs::create_dir(dir.path().join("lib/n2")).unwrap();
        std::fs::write(&deep, "return 1").unwrap();
        assert!(wait_for_change(&mut watch), "the module made in lib/n2/");
        std::thread::sleep(Duration::from_millis(200));
        let _ = watch.changed();
        // Two new folders, then the module a moment later.
        std::fs::create_dir_all(dir.path().join("more/n3")).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let _ = watch.changed();
        std::fs::write(&deeper, "return 1").unwrap();
        assert!(wait_for_change(&mut watch), "the module made in more/n3/");
        std::thread::sleep(Duration::from_millis(200));
        let _ = watch.changed();
        // Once the run found them, set_files replaces them.
        watch.set_files(std::slice::from_ref(&script)).unwrap();
        std::fs::remove_file(&newmod).unwrap();
        std::fs::write(&newmod, "return 2").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(!watch.changed(), "no longer watched for");
    }

    #[test]
    fn the_modules_an_error_says_were_not_found() {
        let message = "t.lua:1: module 'lib.n2.m' not found: cannot read lib/n2/m.lua";
        assert_eq!(
            modules_not_found(Path::new("t.lua"), message),
            [PathBuf::from("./lib/n2/m.lua")]
        );
        assert_eq!(
            modules_not_found(Path::new("/w/s/t.lua"), "x:1: module 'a' not found"),
            [PathBuf::from("/w/s/a.lua")]
        );
        assert!(
            modules_not_found(Path::new("t.lua"), "require: module 'a b' not found").is_empty()
        );
        assert!(modules_not_found(Path::new("t.lua"), "map:set: bad cell").is_empty());
    }

    #[test]
    fn a_module_made_before_it_is_watched_for_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let module = dir.path().join("m.lua");
        std::fs::write(&module, "return 1").unwrap();
        let mut watch = FileWatch::new().unwrap();
        watch.set_missing(std::slice::from_ref(&module)).unwrap();
        assert!(watch.changed());
        assert!(!watch.changed());
    }

    #[test]
    fn sees_edits_of_a_symlinked_scripts_target() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::create_dir_all(dir.path().join("elsewhere/real")).unwrap();
        let target = dir.path().join("elsewhere/real/s.lua");
        std::fs::write(&target, "1").unwrap();
        let link = dir.path().join("work/s.lua");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut watch = FileWatch::new().unwrap();
        watch.set_files(std::slice::from_ref(&link)).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        std::fs::write(dir.path().join("elsewhere/real/other.lua"), "1").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(!watch.changed(), "another file beside the target");
        std::fs::write(&target, "2").unwrap();
        assert!(wait_for_change(&mut watch), "a write to the target");
        let tmp = dir.path().join("elsewhere/real/.s.lua.swp");
        std::fs::write(&tmp, "3").unwrap();
        std::fs::rename(&tmp, &target).unwrap();
        assert!(
            wait_for_change(&mut watch),
            "a write-and-rename of the target"
        );
    }
}
