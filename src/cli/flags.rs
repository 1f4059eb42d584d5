//! What clap parses: the commands, their flags and the parsers that check
//! a flag's value as it is read. Nothing here runs anything.
//!
//! A flag whose value is a number takes a value that starts with `-`
//! (`allow_hyphen_values`): `--size -5x10` reaches the size's own check
//! and its message, not clap's "unexpected argument '-5'".

use std::path::PathBuf;

use clap::Parser;

use crate::map;
use crate::script::{self, Limits};

#[derive(Parser, Debug)]
#[command(
    name = "dunlua",
    version,
    about = "Scriptable roguelike dungeon generator: a Lua script decides the layout, Rust does the per-tile work.",
    after_help = "Commands: dunlua check SCRIPT --seeds 0..1000 runs a script over many seeds (see dunlua check --help).\nExit codes: 0 ok, 1 the script failed, 2 bad usage.\nExample: dunlua scripts/rooms.lua --seed 7 --out map.json",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Run a script over many seeds in parallel and report failures and map statistics.
    Check(CheckArgs),
    /// Generate seeds 0..N-1 in one process and print one line of throughput and checksums.
    Bench(BenchArgs),
    /// Write a contact sheet: a thumbnail of each seed's map, labelled, in one PNG.
    Sheet(SheetArgs),
    /// Print the Lua API reference (or, with --luals, the editor annotations of types/dunlua.lua).
    Api(ApiArgs),
    /// Write NAME.lua, a commented starting script (from a template or a reference script).
    New(NewArgs),
}

/// `dunlua api [--luals]`.
#[derive(clap::Args, Debug)]
pub struct ApiArgs {
    /// Print LuaLS annotations (what types/dunlua.lua holds) instead of the reference.
    #[arg(long)]
    pub luals: bool,
}

/// `dunlua new NAME [--from SCRIPT]`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The script to write: NAME.lua (a path may come first).
    pub name: PathBuf,

    /// Start from a reference script instead of the template: any script of
    /// scripts/ by name (rooms, caves, keys, levels, ...); a wrong name
    /// lists them all.
    #[arg(long, value_name = "SCRIPT")]
    pub from: Option<String>,
}

/// `dunlua bench SCRIPT --count N ...`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The generation script to time.
    pub script: PathBuf,

    /// How many maps: seeds 0..N-1.
    #[arg(long, allow_hyphen_values = true, value_name = "N", default_value_t = 1000,
          value_parser = parse_count)]
    pub count: u64,

    #[command(flatten)]
    pub script_args: ScriptArgs,
}

/// Generating one map: `dunlua SCRIPT ...`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The generation script: a Lua file returning {name, width, height, params, generate}.
    #[arg(required = true)]
    pub script: Option<PathBuf>,

    /// The seed; the same seed gives the same map. Random (and printed) when absent.
    #[arg(long, value_name = "SEED", allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,

    #[arg(long = "out", value_name = "FILE", help = concat!(
        "Write the map to FILE; the format follows the extension (",
        crate::output_formats!(),
        "). Repeatable."
    ))]
    pub outs: Vec<PathBuf>,

    /// Print the map as text on stdout instead of opening the window.
    #[arg(long, conflicts_with = "window")]
    pub ascii: bool,

    /// Colour the markers of the text map (--ascii, or the text printed
    /// when there is no window): auto (on a terminal, unless NO_COLOR is
    /// set), always or never. Files are never coloured.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Open the window even with --out or --hash; fail if no window can be opened.
    #[arg(long)]
    pub window: bool,

    /// The folder the window's Ctrl+S saves into (default: the working folder).
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,

    /// Print the map's 64-bit hash (16 hex digits) on stdout.
    #[arg(long)]
    pub hash: bool,

    /// List the script's parameters with their defaults and exit.
    #[arg(long = "params")]
    pub list_params: bool,

    #[command(flatten)]
    pub script_args: ScriptArgs,

    #[command(flatten)]
    pub export: ExportArgs,
}

/// `dunlua check SCRIPT --seeds A..B ...`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The generation script to check (not with --merge: the shards name it).
    #[arg(required_unless_present = "merge", conflicts_with = "merge")]
    pub script: Option<PathBuf>,

    /// The seeds: A..B (B excluded), A..=B (B included) or N (0..N).
    #[arg(long, allow_hyphen_values = true, value_name = "RANGE", default_value = "0..100", value_parser = crate::check::parse_seeds)]
    pub seeds: std::ops::Range<u64>,

    /// Worker threads, each running its own Lua VMs (default: one per core).
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// Write the PNG and JSON of each failing seed (or its error as .txt) into DIR.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,

    /// Also write the report as one self-contained HTML page with pictures:
    /// failures with thumbnails, a histogram per metric, the seeds at each
    /// metric's minimum, median and maximum.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,

    /// Run only shard I of N (contiguous slices of --seeds, I from 1) and
    /// write its results to --shard-out, for --merge to put together.
    #[arg(long, value_name = "I/N", value_parser = crate::check::shard::Shard::parse,
          requires = "shard_out", conflicts_with = "html")]
    pub shard: Option<crate::check::shard::Shard>,

    /// Where --shard writes its results (JSON).
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub shard_out: Option<PathBuf>,

    /// Put together the files of every shard of a range and print the
    /// report (and digest, and --html) one run over all the seeds gives;
    /// the script, seeds, parameters, size and limits come from the shards.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,

    /// Maps whose tiles differ in fewer than this share of their cells are
    /// reported as near-duplicates (0.05 is 5%).
    #[arg(long, allow_hyphen_values = true, value_name = "SHARE", default_value_t = crate::check::variety::DEFAULT_NEAR,
          value_parser = crate::check::variety::parse_near)]
    pub near: f64,

    /// Skip the variety pass (identical and near-duplicate maps, spread,
    /// heat map).
    #[arg(long)]
    pub no_variety: bool,

    /// Write one line per seed (hash, rooms, markers, floor ratio, path
    /// length, verdict) to FILE, a text catalog to diff or pass to --against.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "merge"])]
    pub catalog: Option<PathBuf>,

    /// Compare this run with a catalog written by --catalog: list the seeds
    /// whose maps changed, were added or are missing; exit 1 if any.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "merge"])]
    pub against: Option<PathBuf>,

    #[command(flatten)]
    pub script_args: ScriptArgs,

    #[command(flatten)]
    pub picture: PictureArgs,
}

/// `dunlua sheet SCRIPT --seeds A..B --out sheet.png`.
#[derive(clap::Args, Debug)]
pub struct SheetArgs {
    /// The generation script.
    pub script: PathBuf,

    /// The seeds: A..B (B excluded), A..=B (B included) or N (0..N).
    #[arg(long, allow_hyphen_values = true, value_name = "RANGE", default_value = "0..16", value_parser = crate::check::parse_seeds)]
    pub seeds: std::ops::Range<u64>,

    /// The PNG to write.
    #[arg(long, value_name = "FILE.png")]
    pub out: PathBuf,

    /// Pictures a row (default: as many as make a square).
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub columns: Option<u16>,

    /// The box each thumbnail fits in, in pixels.
    #[arg(long, allow_hyphen_values = true, value_name = "PX", default_value_t = 200, value_parser = clap::value_parser!(u16).range(16..=2000))]
    pub thumb: u16,

    /// Worker threads (default: one per core).
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,

    /// Which level of a multi-level script to picture (1 is the first).
    #[arg(long, allow_hyphen_values = true, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub level: u32,

    #[command(flatten)]
    pub script_args: ScriptArgs,
}

/// How a script runs: size, parameters, limits.
#[derive(clap::Args, Debug)]
pub struct ScriptArgs {
    /// Map size, overriding the script's width and height.
    #[arg(long, allow_hyphen_values = true, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(i64, i64)>,

    /// Override a declared parameter (repeatable); `dunlua SCRIPT --params` lists them.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// Lua instructions a run may execute before it is stopped.
    #[arg(long, allow_hyphen_values = true, value_name = "N", default_value_t = Limits::DEFAULT_INSTRUCTIONS)]
    pub max_instructions: u64,

    /// Attempts a script that rejects its map (reject() or validate) gets.
    #[arg(long, allow_hyphen_values = true, value_name = "N", default_value_t = script::DEFAULT_MAX_ATTEMPTS,
          value_parser = clap::value_parser!(u32).range(1..=script::MAX_ATTEMPTS as i64))]
    pub max_attempts: u32,

    /// How many linked levels to make, overriding the script's `levels`.
    #[arg(long, allow_hyphen_values = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=script::MAX_LEVELS))]
    pub levels: Option<u32>,

    /// Megabytes a run may use (the Lua heap plus what the host keeps for the script) before it is stopped.
    #[arg(long, allow_hyphen_values = true, value_name = "MB", default_value_t = Limits::DEFAULT_MEMORY_MB,
          value_parser = parse_megabytes)]
    pub max_memory: usize,

    /// Seconds of wall-clock time a run may take before it is stopped (0: no
    /// deadline); the last safety net behind the instruction budget.
    #[arg(long, allow_hyphen_values = true, value_name = "SECONDS", default_value_t = Limits::DEFAULT_TIMEOUT_SECS as f64,
          value_parser = parse_timeout)]
    pub timeout: f64,
}

/// How pictures look: the `.png` outputs, and the tiles of the Tiled and
/// LDtk outputs (`run`), or the failures' pictures (`check`).
#[derive(clap::Args, Debug)]
pub struct PictureArgs {
    /// How a .png output draws tiles: glyph (the tile's character) or cells (solid colour).
    #[arg(long, value_enum, default_value_t = PngStyle::Glyph)]
    pub png_style: PngStyle,

    /// How a .png output draws rock: all (every wall as its tile) or dark
    /// (walls nothing walkable or transparent touches drawn dark, so rooms
    /// and corridors stand out).
    #[arg(long, value_enum, default_value_t = PngRock::All)]
    pub png_rock: PngRock,

    /// Pixels per tile in a .png output (default 16 for glyph, 8 for cells).
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub cell_size: Option<u16>,
}

/// How the exports of one map look: the pictures, and the Tiled tileset
/// (`check` takes only [`PictureArgs`]: it writes no Tiled file).
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub picture: PictureArgs,

    /// A Tiled tileset (.tsx or .tsj) whose tiles the .tmx/.tmj/.lua outputs
    /// use: each tile kind maps to the tile whose "name" property (or
    /// type/class) is the kind's name.
    #[arg(long, value_name = "FILE")]
    pub tileset: Option<PathBuf>,

    /// Put dunlua's tileset inside a .tmx output instead of in a .tsx beside it.
    #[arg(long)]
    pub embed_tileset: bool,
}

/// When the text map is coloured (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PngRock {
    All,
    Dark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PngStyle {
    Glyph,
    Cells,
}

/// Parses `WxH` and checks it against the map limits.
/// A seed: a whole number from 0 to 2^64-1, written in decimal (a
/// negative, a fraction or hex is said to be one, not that a digit is
/// wrong or that `-1` is an unknown flag).
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to {}, got '{text}'",
            u64::MAX
        )
    })
}

/// The most maps `dunlua bench` makes in one run.
const MAX_BENCH_COUNT: u64 = 100_000_000;

/// `bench --count`: a whole number of maps, 1..=MAX_BENCH_COUNT, with the
/// range in the message (clap's u64 parser said "invalid digit found in
/// string" of `-1`).
fn parse_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if (1..=MAX_BENCH_COUNT as i128).contains(&n) => Ok(n as u64),
        Ok(n) => Err(format!("{n} is not in 1..={MAX_BENCH_COUNT}")),
        Err(_) => Err(format!(
            "expected a whole number of maps in 1..={MAX_BENCH_COUNT}, got '{text}'"
        )),
    }
}

fn parse_size(text: &str) -> Result<(i64, i64), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WxH such as 80x50, got '{text}'"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("expected WxH such as 80x50, got '{text}'"))
    };
    let (w, h) = (number(w)?, number(h)?);
    // clap names the value already: the reason alone.
    map::check_size(w, h).map_err(|e| match e {
        map::MapError::TooManyCells { .. } => {
            format!("a map holds at most {} cells, got {w}x{h}", map::MAX_CELLS)
        }
        _ => format!(
            "width and height must be 1..={}, got {w}x{h}",
            map::MAX_SIDE
        ),
    })?;
    Ok((w, h))
}

/// Parses a memory limit in MiB; zero would mean "no limit" to Lua, so it
/// is refused.
fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=86_400.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds from 0 to 86400")),
    }
}

fn parse_megabytes(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(mb) if (1..=1 << 20).contains(&mb) => Ok(mb),
        _ => Err(format!("expected megabytes in 1..=1048576, got '{text}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_are_checked() {
        assert_eq!(parse_size("80x50"), Ok((80, 50)));
        assert_eq!(parse_size("120X40"), Ok((120, 40)));
        assert!(parse_size("80").unwrap_err().contains("expected WxH"));
        assert_eq!(
            parse_size("0x5").unwrap_err(),
            "width and height must be 1..=10000, got 0x5"
        );
        assert_eq!(
            parse_size("9000x9000").unwrap_err(),
            "a map holds at most 25000000 cells, got 9000x9000"
        );
        assert_eq!(parse_seed("7"), Ok(7));
        assert!(parse_seed("-1")
            .unwrap_err()
            .starts_with("a seed is a whole number"));
        assert!(parse_size("100000x100000").is_err());
        assert!(parse_size("-3x5").is_err());
    }

    #[test]
    fn memory_limits_are_positive() {
        assert_eq!(parse_megabytes("64"), Ok(64));
        assert!(parse_megabytes("0").is_err());
        assert!(parse_megabytes("lots").is_err());
    }
}
