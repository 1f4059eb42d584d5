//! Sinks for a finished map, chosen by the output file's extension. Every
//! write is atomic: a temporary file in the same folder, renamed into place,
//! so a failure never leaves a half-written or clobbered file.

pub mod json;
pub mod png;
pub mod text;
pub mod tiled;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::generated::Generated;
use crate::render::Style;

/// The formats `--out` understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Png,
    Tiled,
}

const KNOWN: &str = ".txt, .json, .png, .tmj";

/// How image exports draw the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub png_style: Style,
    /// Pixels per tile in a PNG.
    pub cell_size: usize,
}

impl Options {
    /// The default cell size for a style: glyphs need room to be read.
    pub fn default_cell_size(style: Style) -> usize {
        match style {
            Style::Glyph => 16,
            Style::Cells => 8,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            png_style: Style::Glyph,
            cell_size: Options::default_cell_size(Style::Glyph),
        }
    }
}

impl Format {
    /// The format for a path's extension.
    pub fn for_path(path: &Path) -> anyhow::Result<Format> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("txt") => Ok(Format::Text),
            Some("json") => Ok(Format::Json),
            Some("png") => Ok(Format::Png),
            Some("tmj") => Ok(Format::Tiled),
            _ => bail!(
                "--out {}: unknown output format; use one of {KNOWN}",
                path.display()
            ),
        }
    }
}

/// Checks, before anything is generated, that a path can be written: a known
/// extension and an existing folder.
pub fn check_target(path: &Path) -> anyhow::Result<Format> {
    let format = Format::for_path(path)?;
    let folder = folder_of(path);
    if !folder.is_dir() {
        bail!(
            "--out {}: folder {} does not exist",
            path.display(),
            folder.display()
        );
    }
    Ok(format)
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes the map to `path` in the format its extension names, atomically;
/// returns every file written (a Tiled map brings its tileset image).
pub fn write(
    path: &Path,
    generated: &Generated,
    options: &Options,
) -> anyhow::Result<Vec<PathBuf>> {
    let format = Format::for_path(path)?;
    let mut written = Vec::new();
    let mut bytes = Vec::new();
    match format {
        Format::Text => text::write(&generated.map, &mut bytes)?,
        Format::Json => json::write(generated, &mut bytes)?,
        Format::Png => png::write(
            &generated.map,
            options.png_style,
            options.cell_size,
            &mut bytes,
        )?,
        Format::Tiled => {
            // The tileset image first, so the map never points at nothing.
            let image_path = tiled::tileset_path(path);
            let cell = options.cell_size.max(super::render::GLYPH);
            let mut image = Vec::new();
            png::write_frame(&tiled::tileset_image(generated, cell), &mut image)?;
            write_atomically(&image_path, &image)?;
            written.push(image_path.clone());
            let name = image_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // Compact: the tile layer holds one number per cell.
            serde_json::to_writer(&mut bytes, &tiled::to_tmj(generated, &name, cell))?;
            bytes.push(b'\n');
        }
    }
    write_atomically(path, &bytes)?;
    written.push(path.to_path_buf());
    Ok(written)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`; on any error the temporary file is removed and `path` untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let folder = folder_of(path);
    let mut file = tempfile::Builder::new()
        .prefix(".dunlua-")
        .suffix(".tmp")
        .tempfile_in(folder)
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.as_file().sync_all())
        .and_then(|()| keep_permissions(file.path(), path))
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Temporary files are private (0600); give the new file the old file's
/// permissions, or the usual 0644 for a new one.
fn keep_permissions(temp: &Path, target: &Path) -> std::io::Result<()> {
    let permissions = match std::fs::metadata(target) {
        Ok(meta) => meta.permissions(),
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::Permissions::from_mode(0o644)
            }
            #[cfg(not(unix))]
            {
                return Ok(());
            }
        }
    };
    std::fs::set_permissions(temp, permissions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_the_extension() {
        assert_eq!(Format::for_path(Path::new("a.txt")).unwrap(), Format::Text);
        assert_eq!(
            Format::for_path(Path::new("a/b.JSON")).unwrap(),
            Format::Json
        );
        let err = Format::for_path(Path::new("a.bmp"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "--out a.bmp: unknown output format; use one of .txt, .json, .png, .tmj"
        );
        assert_eq!(Format::for_path(Path::new("a.png")).unwrap(), Format::Png);
        assert_eq!(Format::for_path(Path::new("a.tmj")).unwrap(), Format::Tiled);
    }

    #[test]
    fn missing_folders_are_refused_up_front() {
        let err = check_target(Path::new("no/such/folder/map.txt"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "--out no/such/folder/map.txt: folder no/such/folder does not exist"
        );
    }

    #[test]
    fn atomic_write_replaces_or_leaves_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("map.txt");
        write_atomically(&target, b"first").unwrap();
        write_atomically(&target, b"second").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"second");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&target).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644, "readable like any new file");
        }
        let bad = dir.path().join("missing").join("map.txt");
        assert!(write_atomically(&bad, b"x").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left behind");
    }
}
