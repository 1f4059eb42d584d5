//! Sinks for a finished map, chosen by the output file's extension. Writes
//! are all-or-nothing: every file of a run (several `--out`, a `.tmj`'s
//! tileset image) is rendered straight into a temporary file beside its
//! target first (one at a time, so outputs never pile up in memory), then
//! all are renamed into place, and a rename that fails puts back what the
//! others replaced; so a failure never leaves a half-written, clobbered or
//! half-updated set of files.

pub mod ansi;
pub mod ldtk;
pub mod png;
pub(crate) mod temp_files;
pub mod text;
pub mod tiled;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};

use crate::generated::Generated;
use crate::json;
use crate::render::{MarkerLooks, Style};
use temp_files::Tracked;

/// An output that cannot be written as the user asked (it is a file the
/// run read, two outputs would write one file differently): bad usage,
/// which the command reports as such (exit 2), not a failed run. Its text
/// is the whole one-line message.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// The formats `--out` understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Png,
    /// Tiled JSON (`.tmj`), its tileset embedded.
    Tiled,
    /// Tiled XML (`.tmx`) with its tileset in a `.tsx` beside it.
    TiledXml,
    /// Tiled's Lua format (`.lua`), its tileset embedded.
    TiledLua,
    /// An LDtk project (`.ldtk`): every level of the run in one file, its
    /// glyph sheet beside it.
    Ldtk,
}

/// The extensions `--out` understands, as `--help` and errors list them.
#[macro_export]
macro_rules! output_formats {
    () => {
        ".txt, .json, .png, .tmj, .tmx, .lua, .ldtk"
    };
}

const KNOWN: &str = output_formats!();

/// How image exports draw the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub png_style: Style,
    /// `--png-rock`: whether buried rock is drawn dark.
    pub png_rock: crate::render::Rock,
    /// Pixels per tile in a PNG.
    pub cell_size: usize,
    /// Whether the user chose `cell_size` (`--cell-size`): a chosen size that
    /// makes too big an image is an error; the default shrinks to fit.
    pub cell_size_chosen: bool,
    /// The game's own tileset for the Tiled exports (`--tileset`), instead
    /// of dunlua's glyph sheet.
    pub tileset: Option<Arc<tiled::UserTileset>>,
    /// Put dunlua's tileset inside a `.tmx` instead of a `.tsx` beside it.
    pub embed_tileset: bool,
}

/// The most pixels a PNG export may have (64 million: 192 MiB of RGB while
/// it is encoded), so no map size can make an export exhaust memory.
pub const MAX_PNG_PIXELS: u64 = 64_000_000;

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
            png_rock: crate::render::Rock::All,
            cell_size: Options::default_cell_size(Style::Glyph),
            cell_size_chosen: false,
            tileset: None,
            embed_tileset: false,
        }
    }
}

impl Format {
    /// Whether one file holds every level of a dungeon.
    pub fn holds_levels(self) -> bool {
        matches!(self, Format::Json | Format::Ldtk)
    }

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
            Some("tmx") => Ok(Format::TiledXml),
            Some("lua") => Ok(Format::TiledLua),
            Some("ldtk") => Ok(Format::Ldtk),
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
    if let Some(problem) = target_problem(path) {
        bail!("--out {}: {problem}", path.display());
    }
    // Such a map names the files beside it (`NAME.tiles.png`, `NAME.tsx`)
    // in its text, which cannot spell a name that is not UTF-8.
    let names_its_files = matches!(
        format,
        Format::Tiled | Format::TiledXml | Format::TiledLua | Format::Ldtk
    );
    if names_its_files && path.file_name().is_some_and(|n| n.to_str().is_none()) {
        bail!(
            "--out {}: a {} file names its tileset files in its text, so its own name must be UTF-8",
            path.display(),
            if format == Format::Ldtk { "LDtk" } else { "Tiled" }
        );
    }
    Ok(format)
}

/// What stops a file being written at `path`, as a message says it after
/// the flag and path: its folder is missing or is a file, or the path is
/// itself a folder (or names one, ending in `/`). `None` when it can be.
pub fn target_problem(path: &Path) -> Option<String> {
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Some(if folder.exists() {
            format!("{} is a file, not a folder", folder.display())
        } else {
            format!("folder {} does not exist", folder.display())
        });
    }
    if path.is_dir() {
        return Some("is a folder".to_string());
    }
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
    {
        return Some("names a folder (it ends in a separator), not a file".to_string());
    }
    None
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Every file an output at `path` writes for one map: itself and, for a
/// Tiled map drawn with dunlua's own tileset, the tileset image
/// (`NAME.tiles.png`) and a `.tmx`'s `.tsx`. What [`render`] writes.
pub fn files_of(path: &Path, options: &Options) -> anyhow::Result<Vec<PathBuf>> {
    let format = Format::for_path(path)?;
    let mut files = Vec::new();
    if matches!(format, Format::Tiled | Format::TiledXml | Format::TiledLua)
        && options.tileset.is_none()
    {
        files.push(tiled::tileset_path(path));
        if format == Format::TiledXml && !options.embed_tileset {
            files.push(tiled::beside(path, "tsx"));
        }
    }
    if format == Format::Ldtk {
        files.push(tiled::tileset_path(path));
    }
    files.push(path.to_path_buf());
    Ok(files)
}

/// Every file the outputs at `paths` write for a run of `levels` levels:
/// a one-level run writes each as itself ([`files_of`]); several levels
/// write one `.json` and one `.ldtk` (with its tileset image) holding
/// them all, and a file per level of every other format (`NAME-K.ext`,
/// see [`level_path`]).
pub fn files_for_levels(
    paths: &[PathBuf],
    levels: u32,
    options: &Options,
) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut files = Vec::new();
    for out in paths {
        if levels <= 1 || Format::for_path(out)?.holds_levels() {
            files.extend(
                files_of(out, options)?
                    .into_iter()
                    .map(|f| (out.clone(), f)),
            );
            continue;
        }
        for k in 1..=levels {
            let level = level_path(out, k);
            files.extend(
                files_of(&level, options)?
                    .into_iter()
                    .map(|f| (out.clone(), f)),
            );
        }
    }
    Ok(files)
}

/// The files a run read, which no output may replace: the script, every
/// module it required, a `--tileset` and the image it names. Compared as
/// files, not names: through symlinks and hard links (see
/// [`crate::files::same_file`]).
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Each file and what it is, as a message says it.
    files: Vec<(PathBuf, String)>,
}

impl Inputs {
    /// What is known before the script runs: the script and the tileset.
    pub fn before_run(script: &Path, options: &Options) -> Inputs {
        let mut inputs = Inputs::default();
        inputs.add(script, "the script itself".to_string());
        if let Some(set) = &options.tileset {
            inputs.add(
                &set.path,
                format!("the tileset {} (--tileset)", set.path.display()),
            );
            if let Some(image) = set.image_path() {
                inputs.add(&image, format!("the tileset's image {}", image.display()));
            }
        }
        inputs
    }

    /// Everything a run of `levels` read: its script, the tileset and
    /// every module any level required.
    pub fn of_run(levels: &[Generated], options: &Options) -> Inputs {
        let script = levels
            .first()
            .map(|g| PathBuf::from(&g.provenance.script))
            .unwrap_or_default();
        let mut inputs = Inputs::before_run(&script, options);
        for module in levels.iter().flat_map(|g| &g.modules) {
            inputs.add(
                module,
                format!("the module {} the script requires", module.display()),
            );
        }
        inputs
    }

    fn add(&mut self, path: &Path, what: String) {
        if !path.as_os_str().is_empty() && !self.files.iter().any(|(p, _)| p == path) {
            self.files.push((path.to_path_buf(), what));
        }
    }

    /// An error when `file`, written for the output `out`, is one of the
    /// files the run read.
    pub fn refuse(&self, out: &Path, file: &Path) -> anyhow::Result<()> {
        let Some((_, what)) = self
            .files
            .iter()
            .find(|(input, _)| crate::files::same_file(file, input))
        else {
            return Ok(());
        };
        let its = if file == out {
            String::new()
        } else {
            format!(" (its file {})", file.display())
        };
        Err(Refused(format!(
            "--out {}{its}: that is {what}; choose another file name",
            out.display()
        ))
        .into())
    }
}

/// The most memory writing one output may take, about: a script may make a
/// million markers within its memory limit, and an export that makes an
/// object of each in memory would take gigabytes (the design contract: "exports
/// have size bounds").
pub const MAX_EXPORT_BYTES: u64 = 512 << 20;

/// About what writing one marker, room or property takes in memory at
/// its peak in each format (measured with 100,000 and 1,000,000 markers,
/// the larger share kept: the LDtk and Tiled JSON exports build a JSON
/// tree of every object before writing it, the others a text that grows
/// by doubling).
fn bytes_per_object(format: Format) -> u64 {
    match format {
        Format::Text | Format::Png => 0,
        Format::Json => json::BYTES_PER_OBJECT,
        Format::TiledXml | Format::TiledLua => 2_700,
        Format::Tiled => 4_000,
        Format::Ldtk => 6_000,
    }
}

/// An error when the markers, rooms and marker properties of `levels`
/// would make the output `out` take more than [`MAX_EXPORT_BYTES`] to
/// write, checked before anything is written.
pub fn check_export_size<'a>(
    out: &Path,
    levels: impl IntoIterator<Item = &'a Generated>,
) -> anyhow::Result<()> {
    let format = Format::for_path(out)?;
    let per = bytes_per_object(format);
    if per == 0 {
        return Ok(());
    }
    let levels: Vec<&Generated> = levels.into_iter().collect();
    let load = levels
        .iter()
        .map(|g| crate::json::ExportLoad::of(&g.map))
        .fold(
            crate::json::ExportLoad::default(),
            crate::json::ExportLoad::plus,
        );
    let objects = load.objects;
    let mut need = load.bytes(per);
    if format == Format::Ldtk {
        // Every instance of a marker name carries a field for each key any
        // marker of that name has (null where it has none): 400 markers of
        // one name with 64 keys of their own each were 10 million fields,
        // 18.7 GB, counted as 26,000 properties.
        // And every name is an entity definition of its own.
        let maps = || levels.iter().map(|g| &g.map);
        need = need
            .saturating_add(
                ldtk::field_instances(maps()).saturating_mul(ldtk::BYTES_PER_FIELD_INSTANCE),
            )
            .saturating_add(ldtk::marker_names(maps()).saturating_mul(ldtk::BYTES_PER_ENTITY_DEF));
    }
    if need > MAX_EXPORT_BYTES {
        let instead = match format {
            Format::Json => String::new(),
            _ => format!(
                "write .json (about {} bytes each) or ",
                bytes_per_object(Format::Json)
            ),
        };
        bail!(
            "--out {}: {objects} markers, rooms and marker properties{} would take about {} MB to write as {}, more than the {} MB an export may take; {instead}make fewer",
            out.display(),
            load.text_note(),
            need >> 20,
            out.extension().map_or(String::new(), |e| format!(".{}", e.to_string_lossy())),
            MAX_EXPORT_BYTES >> 20,
        );
    }
    Ok(())
}

/// The cell size a PNG of `map` gets: the chosen one if the image stays
/// under [`MAX_PNG_PIXELS`] (an error naming the largest that fits if not),
/// or the default shrunk until it does (with a note saying so).
pub fn png_cell_size(
    path: &Path,
    map: &crate::map::Map,
    options: &Options,
) -> anyhow::Result<(usize, Option<String>)> {
    let cells = map.width() as u64 * map.height() as u64;
    let fits = |cell: usize| cells * (cell as u64 * cell as u64) <= MAX_PNG_PIXELS;
    let largest = (1..=options.cell_size.max(1))
        .rev()
        .find(|&c| fits(c))
        .unwrap_or(1);
    if fits(options.cell_size) {
        return Ok((options.cell_size, None));
    }
    if options.cell_size_chosen {
        bail!(
            "--out {}: a {}x{} map at --cell-size {} would be a {}-million-pixel image, more than the {} million a PNG may have; use --cell-size {largest} or less",
            path.display(),
            map.width(),
            map.height(),
            options.cell_size,
            cells * (options.cell_size as u64).pow(2) / 1_000_000,
            MAX_PNG_PIXELS / 1_000_000
        );
    }
    let note = format!(
        "{}: cell size {} instead of {} so the {}x{} map stays under {} million pixels",
        path.display(),
        largest,
        options.cell_size,
        map.width(),
        map.height(),
        MAX_PNG_PIXELS / 1_000_000
    );
    Ok((largest, Some(note)))
}

/// The files of a run's outputs, each written to a synced temporary file
/// beside its target as soon as it is rendered (straight from the writer
/// where the format streams), so at most one output's bytes are held in
/// memory at a time, however many outputs or levels a run writes. Files
/// two outputs share (maps in several Tiled formats share one tileset
/// image) must agree; none may be a file the run read.
pub struct Staging<'a> {
    inputs: &'a Inputs,
    staged: Vec<Staged>,
}

struct Staged {
    path: PathBuf,
    temp: Tracked,
    /// Length and a hash of the bytes, to compare a shared file's copies.
    digest: (u64, u64),
}

/// A writer that counts and hashes what passes through it.
struct Digesting<W: Write> {
    inner: W,
    len: u64,
    hash: u64,
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        for &b in &buf[..n] {
            // FNV-1a: the same bytes give the same digest in every run.
            self.hash = (self.hash ^ b as u64).wrapping_mul(0x100000001b3);
        }
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<'a> Staging<'a> {
    pub fn new(inputs: &'a Inputs) -> Staging<'a> {
        Staging {
            inputs,
            staged: Vec::new(),
        }
    }

    /// Stages `file` (of the output `out`) with what `write` writes.
    pub fn file(
        &mut self,
        out: &Path,
        file: PathBuf,
        write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        self.inputs.refuse(out, &file)?;
        let mut temp = new_temp(&file)?;
        let digest = {
            let mut sink = Digesting {
                inner: std::io::BufWriter::new(temp.as_file_mut()),
                len: 0,
                hash: 0xcbf29ce484222325,
            };
            write(&mut sink)
                .and_then(|()| sink.flush().map_err(anyhow::Error::from))
                .with_context(|| format!("cannot write {}", file.display()))?;
            (sink.len, sink.hash)
        };
        temp.as_file()
            .sync_all()
            .with_context(|| format!("cannot write {}", file.display()))?;
        // `./m.png` and `m.png` are one file, though neither exists yet.
        let same = self
            .staged
            .iter()
            .find(|s| crate::files::same_output(&s.path, &file));
        match same {
            // The temporary copy is removed as it drops.
            Some(same) if same.digest == digest => Ok(()),
            Some(_) => Err(Refused(format!(
                "--out {}: two outputs would write {} differently",
                out.display(),
                file.display()
            ))
            .into()),
            None => {
                self.staged.push(Staged {
                    path: file,
                    temp,
                    digest,
                });
                Ok(())
            }
        }
    }

    /// Stages `file` holding `bytes`.
    fn bytes(&mut self, out: &Path, file: PathBuf, bytes: &[u8]) -> anyhow::Result<()> {
        self.file(out, file, |w| w.write_all(bytes).map_err(Into::into))
    }

    /// Puts every staged file in place, or none (see [`commit`]).
    pub fn commit(self) -> anyhow::Result<Vec<PathBuf>> {
        commit(self.staged.into_iter().map(|s| (s.path, s.temp)).collect())
    }
}

/// Renders one output (every file it needs: a Tiled map brings its
/// tileset image) into `staging`; returns notes for the user.
pub fn render(
    path: &Path,
    generated: &Generated,
    options: &Options,
    staging: &mut Staging,
) -> anyhow::Result<Vec<String>> {
    let looks = MarkerLooks::of(&generated.map);
    render_to(path, path, generated, &looks, options, staging)
}

/// [`render`] of `generated` to `path`, one of the files of the output
/// `out` (a level's file of a multi-level output), its markers drawn in
/// `looks` (its dungeon's, so a name looks alike on every level).
fn render_to(
    out: &Path,
    path: &Path,
    generated: &Generated,
    looks: &MarkerLooks,
    options: &Options,
    staging: &mut Staging,
) -> anyhow::Result<Vec<String>> {
    let format = Format::for_path(path)?;
    check_export_size(out, [generated])?;
    let mut notes = Vec::new();
    let target = path.to_path_buf();
    match format {
        Format::Text => staging.file(out, target, |w| {
            text::write(&generated.map, &mut &mut *w).map_err(Into::into)
        })?,
        Format::Json => staging.bytes(out, target, json_text(path, generated).as_bytes())?,
        Format::Png => {
            let (cell, note) = png_cell_size(path, &generated.map, options)?;
            notes.extend(note);
            staging.file(out, target, |mut w| {
                png::write(
                    &generated.map,
                    looks,
                    options.png_style,
                    options.png_rock,
                    cell,
                    &mut w,
                )
            })?
        }
        Format::Ldtk => render_ldtk(out, std::slice::from_ref(generated), options, staging)?,
        Format::Tiled | Format::TiledXml | Format::TiledLua => {
            let mut doc = match &options.tileset {
                Some(user) => tiled::doc_over(generated, user, folder_of(path))?,
                None => {
                    let image_path = tiled::tileset_path(path);
                    let cell = options.cell_size.max(super::render::GLYPH);
                    let frame = tiled::tileset_image(generated, cell);
                    staging.file(out, image_path.clone(), |mut w| {
                        png::write_frame(&frame, &mut w)
                    })?;
                    tiled::doc(generated, &file_name(&image_path), cell)
                }
            };
            for (key, value) in &mut doc.properties {
                if key == "script" {
                    *value =
                        tiled::Value::Text(script_relative(path, &generated.provenance.script));
                }
            }
            match format {
                Format::TiledXml if options.embed_tileset => {
                    staging.bytes(out, target, tiled::tmx::tmx(&doc, None).as_bytes())?;
                }
                Format::TiledXml => {
                    let tsx_path = tiled::beside(path, "tsx");
                    if let tiled::Tileset::Generated(set) = &doc.tileset {
                        staging.bytes(out, tsx_path.clone(), tiled::tmx::tsx(set).as_bytes())?;
                    }
                    let tmx = tiled::tmx::tmx(&doc, Some(&file_name(&tsx_path)));
                    staging.bytes(out, target, tmx.as_bytes())?;
                }
                Format::TiledLua => staging.bytes(out, target, tiled::lua::lua(&doc).as_bytes())?,
                _ => staging.file(out, target, |w| {
                    // Compact: the tile layer holds one number per cell.
                    serde_json::to_writer(&mut *w, &tiled::tmj::to_tmj(&doc))?;
                    w.write_all(b"\n").map_err(Into::into)
                })?,
            }
        }
    }
    Ok(notes)
}

/// Stages the LDtk project of `levels` at `out` and its glyph sheet.
fn render_ldtk(
    out: &Path,
    levels: &[Generated],
    options: &Options,
    staging: &mut Staging,
) -> anyhow::Result<()> {
    let image_path = tiled::tileset_path(out);
    let cell = options.cell_size.max(super::render::GLYPH);
    let frame = ldtk::tileset_image(&ldtk::kinds(levels), cell);
    staging.file(out, image_path.clone(), |mut w| {
        png::write_frame(&frame, &mut w)
    })?;
    let script = script_relative(out, &levels[0].provenance.script);
    let project = ldtk::project(levels, &file_name(&image_path), cell, &script);
    staging.file(out, out.to_path_buf(), |w| {
        serde_json::to_writer(&mut *w, &project)?;
        w.write_all(b"\n").map_err(Into::into)
    })
}

/// The script's path as an export stores it: relative to the folder of
/// the file written (`out`), with `/` between parts, so no export carries
/// a path of the author's machine (`/home/me/...`). When the two share no
/// folder (only the root, or another drive), only the script's file name.
pub fn script_relative(out: &Path, script: &str) -> String {
    let given = Path::new(script);
    let name = || file_name(given);
    let absolute = |p: &Path| -> Option<PathBuf> { std::fs::canonicalize(p).ok() };
    let (Some(script), Some(folder)) = (absolute(given), absolute(folder_of(out))) else {
        return name();
    };
    let (s, f): (Vec<_>, Vec<_>) = (script.components().collect(), folder.components().collect());
    let common = s.iter().zip(&f).take_while(|(a, b)| a == b).count();
    // Sharing only the root (`/tmp/out` and `/work/x.lua`): a path up to
    // the root would spell the author's folders out.
    let shared_folders = s[..common]
        .iter()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .count();
    if shared_folders == 0 {
        return name();
    }
    let mut parts: Vec<String> = vec!["..".to_string(); f.len() - common];
    parts.extend(
        s[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// `generated` as its JSON export at `out` holds it.
fn json_text(out: &Path, generated: &Generated) -> String {
    let mut doc = json::to_json(generated);
    doc.script = script_relative(out, &doc.script);
    json::pretty(&doc)
}

/// A run's levels as a `.json` at `out` holds them (see [`json::levels_to_string`]).
fn levels_json_text(out: &Path, levels: &[Generated]) -> String {
    match levels {
        [one] => json_text(out, one),
        _ => {
            let mut doc = json::dungeon_json(levels);
            doc.script = script_relative(out, &doc.script);
            for level in &mut doc.levels {
                level.script = doc.script.clone();
            }
            json::pretty(&doc)
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Writes the map to every path, each in the format its extension names,
/// all or nothing, and none over a file the run read (see [`Inputs`]);
/// returns every file written and the notes to show.
pub fn write_all(
    paths: &[PathBuf],
    generated: &Generated,
    options: &Options,
) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    let inputs = Inputs::of_run(std::slice::from_ref(generated), options);
    let mut staging = Staging::new(&inputs);
    let mut notes = Vec::new();
    for path in paths {
        notes.extend(render(path, generated, options, &mut staging)?);
    }
    let written = staging.commit()?;
    Ok((written, notes))
}

/// Where level `level` of an output goes: `dungeon.tmj` → `dungeon-2.tmj`.
pub fn level_path(path: &Path, level: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match path.extension() {
        Some(ext) => path.with_file_name(format!("{stem}-{level}.{}", ext.to_string_lossy())),
        None => path.with_file_name(format!("{stem}-{level}")),
    }
}

/// Writes a run's levels to every path, all or nothing: a one-level map as
/// [`write_all`] does; several levels (or one level below the first) as
/// one `.json` holding them all and, for every other format, a file per
/// level (`name-1.png`, `name-2.png`, ...).
pub fn write_levels(
    paths: &[PathBuf],
    levels: &[Generated],
    options: &Options,
) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    // One map alone is written as itself, unless it is a level below the
    // first (a rejected level that `check --save-failures` keeps): then
    // its files carry its number, as they would in the whole dungeon.
    if let [one] = levels {
        if !one.is_level() {
            return write_all(paths, one, options);
        }
    }
    let inputs = Inputs::of_run(levels, options);
    let mut staging = Staging::new(&inputs);
    let mut notes = Vec::new();
    // One look per marker name on every level's picture.
    let looks = MarkerLooks::of_levels(levels.iter().map(|g| &g.map));
    for path in paths {
        match Format::for_path(path)? {
            Format::Json => {
                check_export_size(path, levels)?;
                let text = levels_json_text(path, levels);
                staging.bytes(path, path.clone(), text.as_bytes())?;
                continue;
            }
            Format::Ldtk => {
                check_export_size(path, levels)?;
                render_ldtk(path, levels, options, &mut staging)?;
                continue;
            }
            _ => {}
        }
        for g in levels {
            let file = level_path(path, g.provenance.level);
            notes.extend(render_to(path, &file, g, &looks, options, &mut staging)?);
        }
    }
    let written = staging.commit()?;
    Ok((written, notes))
}

/// Writes the map to `path` (and a Tiled map's tileset image), all or
/// nothing; returns every file written.
pub fn write(
    path: &Path,
    generated: &Generated,
    options: &Options,
) -> anyhow::Result<Vec<PathBuf>> {
    write_all(&[path.to_path_buf()], generated, options).map(|(written, _)| written)
}

/// Puts every staged file in place or none: each was written and synced to
/// a temporary file beside its target; each existing target is kept as a
/// backup (a hard link, or a copy) and the temporaries are renamed over
/// the targets. If a rename fails, the targets already replaced get their
/// backups back (or are removed if they were new), so the folder is as it
/// was. The backups are removed once all are in place. A signal's sweep
/// waits for all of it (`temp_files::committing`).
fn commit(staged: Vec<(PathBuf, Tracked)>) -> anyhow::Result<Vec<PathBuf>> {
    let _whole = temp_files::committing();
    let paths: Vec<PathBuf> = staged.iter().map(|(p, _)| p.clone()).collect();
    let mut backups: Vec<(PathBuf, Option<tempfile::TempPath>)> = Vec::new();
    for (path, _) in &staged {
        backups.push((path.clone(), back_up(path)?));
    }
    let mut placed: Vec<usize> = Vec::new();
    for (i, (path, temp)) in staged.into_iter().enumerate() {
        if let Err(e) = temp.persist(&path) {
            for &j in placed.iter().rev() {
                let (target, backup) = &mut backups[j];
                match backup.take() {
                    Some(backup) => {
                        let _ = backup.persist(target.as_path());
                    }
                    None => {
                        let _ = std::fs::remove_file(target.as_path());
                    }
                }
            }
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        placed.push(i);
    }
    // Dropping the backups' temporary paths removes them.
    drop(backups);
    Ok(paths)
}

/// A temporary file beside `path`, made as any new file is (mode 0666 less
/// the umask, not a temporary file's private 0600): renamed over `path`,
/// it replaces the name, and a file there or a symlink's target lends it
/// nothing, neither bytes nor permissions.
fn new_temp(path: &Path) -> anyhow::Result<Tracked> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".dunlua-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    Tracked::create(|| builder.tempfile_in(folder_of(path)))
        .map_err(without_temp_path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `bytes` in a synced temporary file beside `path` (see [`new_temp`]).
fn stage(path: &Path, bytes: &[u8]) -> anyhow::Result<Tracked> {
    let mut file = new_temp(path)?;
    file.as_file_mut()
        .write_all(bytes)
        .and_then(|()| file.as_file().sync_all())
        .map_err(without_temp_path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(file)
}

/// `err` without the temporary file's name tempfile appends to its errors
/// (`... at path "/dir/.dunlua-Xb3k.tmp"`): the user named the target,
/// which the message names, and never saw that file. tempfile keeps the
/// original error private, so its text is cut.
fn without_temp_path(err: std::io::Error) -> std::io::Error {
    let text = err.to_string();
    match text.rsplit_once(" at path \"") {
        Some((reason, _)) => std::io::Error::new(err.kind(), reason.to_string()),
        None => err,
    }
}

/// A temporary path holding what is at `path` now (removed when dropped),
/// or `None` if there is nothing to put back. A symlink is kept as the
/// link itself, not its target.
fn back_up(path: &Path) -> anyhow::Result<Option<tempfile::TempPath>> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    let kind = meta.file_type();
    if !kind.is_file() && !kind.is_symlink() {
        return Ok(None);
    }
    let backup = tempfile::Builder::new()
        .prefix(".dunlua-backup-")
        .tempfile_in(folder_of(path))
        .with_context(|| format!("cannot write {}", path.display()))?
        .into_temp_path();
    // A hard link costs nothing (of the link itself, for a symlink); a
    // copy where links are not supported.
    std::fs::remove_file(&backup).ok();
    if std::fs::hard_link(path, &backup).is_err() {
        let copied = if kind.is_symlink() {
            copy_link(path, &backup)
        } else {
            std::fs::copy(path, &backup).map(drop)
        };
        copied.with_context(|| format!("cannot keep a copy of {}", path.display()))?;
    }
    Ok(Some(backup))
}

#[cfg(unix)]
fn copy_link(link: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(std::fs::read_link(link)?, to)
}

#[cfg(not(unix))]
fn copy_link(link: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::copy(link, to).map(drop)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`; on any error the temporary file is removed and `path` untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    stage(path, bytes)?
        .persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
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
            "--out a.bmp: unknown output format; use one of .txt, .json, .png, .tmj, .tmx, .lua, .ldtk"
        );
        assert_eq!(Format::for_path(Path::new("a.LDtk")).unwrap(), Format::Ldtk);
        assert_eq!(
            Format::for_path(Path::new("m.tmx")).unwrap(),
            Format::TiledXml
        );
        assert_eq!(
            Format::for_path(Path::new("m.lua")).unwrap(),
            Format::TiledLua
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
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
            let fresh = dir.path().join("fresh");
            std::fs::write(&fresh, "").unwrap();
            assert_eq!(mode(&target), mode(&fresh), "made like any new file");
            std::fs::remove_file(&fresh).unwrap();
        }
        let bad = dir.path().join("missing").join("map.txt");
        assert!(write_atomically(&bad, b"x").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left behind");
    }
}
