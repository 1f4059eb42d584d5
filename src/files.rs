//! The one way dunlua reads a file it was given: the script, the modules it
//! `require`s, a `--tileset`. Only a regular file is read (symlinks are
//! followed, then a FIFO, a device, a socket or a folder is refused before
//! anything blocks or reads forever), and never more than its kind's cap
//! bytes, even if the file grows while it is read. Errors are one line and
//! say why; the caller names the file.
//!
//! [`same_file`] is the other half of the rule: an output never replaces a
//! file the run read (see [`crate::export`]); [`same_output`] tells two
//! outputs that are one file however they are spelled, before either exists.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A kind of input file: what it is called in messages and how big it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// What one of these is, as a message says it: "a script or module".
    pub what: &'static str,
    /// The most bytes read.
    pub max_bytes: u64,
}

/// A script or a module it `require`s: 16 MiB, far beyond any hand-written
/// Lua (the reference scripts are a few KiB).
pub const SOURCE: Kind = Kind {
    what: "a script or module",
    max_bytes: 16 << 20,
};

/// A Tiled tileset (`.tsx`/`.tsj`): 16 MiB, room for tens of thousands of
/// tiles with properties.
pub const TILESET: Kind = Kind {
    what: "a tileset",
    max_bytes: 16 << 20,
};

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// It could not be opened or read.
    Io(std::io::Error),
    /// It is not a regular file (after following symlinks): what it is.
    NotRegular(&'static str),
    /// It holds more than its kind may: `bytes` bytes, if known (a file
    /// that grew while it was read is cut off at one byte past the cap).
    TooBig { bytes: Option<u64>, kind: Kind },
    /// A text file that is not UTF-8.
    NotText,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular(what) => write!(f, "not a regular file ({what})"),
            ReadError::TooBig { bytes, kind } => {
                f.write_str("too big: ")?;
                if let Some(bytes) = bytes {
                    write!(f, "{bytes} bytes is ")?;
                }
                write!(
                    f,
                    "more than the {} {} may have",
                    size(kind.max_bytes),
                    kind.what
                )
            }
            ReadError::NotText => f.write_str("not UTF-8 text"),
        }
    }
}

impl std::error::Error for ReadError {}

/// `bytes` as a message says it: `16 MiB`, `100 bytes`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

impl Kind {
    /// An error when `bytes` is more than this kind may have.
    pub fn check_size(self, bytes: u64) -> Result<(), ReadError> {
        if bytes > self.max_bytes {
            return Err(ReadError::TooBig {
                bytes: Some(bytes),
                kind: self,
            });
        }
        Ok(())
    }
}

/// The bytes of `path`, a regular file of at most `kind.max_bytes`.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    // Refused before it is opened: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    regular(&meta)?;
    kind.check_size(meta.len())?;
    let file = open(path)?;
    // What was opened, not what the path named a moment before.
    let meta = file.metadata().map_err(ReadError::Io)?;
    regular(&meta)?;
    kind.check_size(meta.len())?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte past the cap tells a file that grew from one that did not.
    file.take(kind.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > kind.max_bytes {
        return Err(ReadError::TooBig { bytes: None, kind });
    }
    Ok(bytes)
}

/// The text of `path`, as [`read`] reads it, which must be UTF-8.
pub fn read_text(path: &Path, kind: Kind) -> Result<String, ReadError> {
    String::from_utf8(read(path, kind)?).map_err(|_| ReadError::NotText)
}

/// Opens for reading without waiting: a FIFO swapped in after the check
/// opens at once (and is then refused) instead of blocking.
#[cfg(unix)]
fn open(path: &Path) -> Result<File, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(ReadError::Io)
}

#[cfg(not(unix))]
fn open(path: &Path) -> Result<File, ReadError> {
    File::open(path).map_err(ReadError::Io)
}

fn regular(meta: &std::fs::Metadata) -> Result<(), ReadError> {
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    if kind.is_dir() {
        return Err(ReadError::NotRegular("a folder"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Err(ReadError::NotRegular("a FIFO"));
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Err(ReadError::NotRegular("a device"));
        }
        if kind.is_socket() {
            return Err(ReadError::NotRegular("a socket"));
        }
    }
    Err(ReadError::NotRegular("not a file"))
}

/// Whether `a` and `b` are one file: the same inode once symlinks are
/// followed (so also two hard links of it), or the same real path where
/// there are no inodes. False when either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

/// The file an output path names, whether it exists or not: its real path
/// (symlinks, `./` and `..` resolved), or its folder's real path and its
/// name, or (its folder missing too) the path made absolute from the
/// working folder with `.` and `..` folded by their text.
pub fn output_path(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let (Some(name), Ok(folder)) = (
        path.file_name(),
        folder.unwrap_or(Path::new(".")).canonicalize(),
    ) {
        return folder.join(name);
    }
    folded(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `path` with `.` dropped and each `..` taking away the part before it.
fn folded(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether two outputs are one file, whether they exist yet or not: the
/// same [`output_path`]. Two hard links of one file are two outputs: an
/// output is written by renaming a new file over its name, which leaves
/// the other name with the old bytes (taken as one, the second name was
/// not written and kept the last run's map).
pub fn same_output(a: &Path, b: &Path) -> bool {
    output_path(a) == output_path(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Kind = Kind {
        what: "a test file",
        max_bytes: 8,
    };

    #[test]
    fn regular_files_are_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "12345678").unwrap();
        assert_eq!(read_text(&path, SMALL).unwrap(), "12345678");
        std::fs::write(&path, "123456789").unwrap();
        let err = read(&path, SMALL).unwrap_err().to_string();
        assert_eq!(
            err,
            "too big: 9 bytes is more than the 8 bytes a test file may have"
        );
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_text(&path, SMALL).unwrap_err().to_string(),
            "not UTF-8 text"
        );
    }

    #[test]
    fn folders_are_not_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path(), SMALL).unwrap_err().to_string();
        assert_eq!(err, "not a regular file (a folder)");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_even_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.tsx");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read(&link, TILESET).unwrap_err().to_string();
        assert_eq!(err, "not a regular file (a device)");
    }

    #[cfg(unix)]
    #[test]
    fn one_file_by_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.lua");
        std::fs::write(&file, "x").unwrap();
        let hard = dir.path().join("hard.lua");
        std::fs::hard_link(&file, &hard).unwrap();
        let soft = dir.path().join("soft.lua");
        std::os::unix::fs::symlink("a.lua", &soft).unwrap();
        let other = dir.path().join("b.lua");
        std::fs::write(&other, "x").unwrap();
        assert!(same_file(&file, &hard));
        assert!(same_file(&soft, &file));
        assert!(same_file(&file, &dir.path().join("./a.lua")));
        assert!(!same_file(&file, &other));
        assert!(!same_file(&file, &dir.path().join("missing.lua")));
    }

    #[test]
    fn one_output_by_any_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        assert!(same_output(&at("m.png"), &at("./m.png")));
        assert!(same_output(&at("m.png"), &at("sub/../m.png")));
        assert!(same_output(&at("no/such/m.png"), &at("no/./such/m.png")));
        assert!(same_output(&at("no/x/../m.png"), &at("no/m.png")));
        assert!(!same_output(&at("m.png"), &at("n.png")));
    }
}
