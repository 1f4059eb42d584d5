//! The command line: clap flags resolved once into a [`script::Request`],
//! then the run and its sinks. Errors come back as one `dunlua: ...` line
//! (plus a Lua traceback for script failures) and an exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;

use crate::check::{self, CheckOptions};
use crate::export::{self, Options};
use crate::map;
use crate::render::Style;
use crate::script::{self, Limits, Request, ScriptError};
use crate::view::{self, ViewConfig, ViewError};

/// Exit codes: 0 ok, 1 the script failed, 2 bad usage.
pub const EXIT_OK: i32 = 0;
pub const EXIT_SCRIPT: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

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

    /// Start from a reference script instead of the template.
    #[arg(long, value_name = "SCRIPT", value_parser = clap::builder::PossibleValuesParser::new(crate::templates::NAMES))]
    pub from: Option<String>,
}

/// `dunlua bench SCRIPT --count N ...`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The generation script to time.
    pub script: PathBuf,

    /// How many maps: seeds 0..N-1.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
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
    #[arg(long)]
    pub seed: Option<u64>,

    /// Write the map to FILE; the format follows the extension (.txt, .json, .png, .tmj). Repeatable.
    #[arg(long = "out", value_name = "FILE")]
    pub outs: Vec<PathBuf>,

    /// Print the map as text on stdout instead of opening the window.
    #[arg(long, conflicts_with = "window")]
    pub ascii: bool,

    /// Open the window even with --out or --hash; fail if no window can be opened.
    #[arg(long)]
    pub window: bool,

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
    /// The generation script to check.
    pub script: PathBuf,

    /// The seeds: A..B (B excluded), A..=B (B included) or N (0..N).
    #[arg(long, value_name = "RANGE", default_value = "0..100", value_parser = crate::check::parse_seeds)]
    pub seeds: std::ops::Range<u64>,

    /// Worker threads, each running its own Lua VMs (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// Write the PNG and JSON of each failing seed (or its error as .txt) into DIR.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,

    #[command(flatten)]
    pub script_args: ScriptArgs,

    #[command(flatten)]
    pub export: ExportArgs,
}

/// How a script runs: size, parameters, limits.
#[derive(clap::Args, Debug)]
pub struct ScriptArgs {
    /// Map size, overriding the script's width and height.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(i64, i64)>,

    /// Override a declared parameter (repeatable); see --params.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// Lua instructions a run may execute before it is stopped.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT_INSTRUCTIONS)]
    pub max_instructions: u64,

    /// Attempts a script that rejects its map (reject() or validate) gets.
    #[arg(long, value_name = "N", default_value_t = script::DEFAULT_MAX_ATTEMPTS,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_attempts: u32,

    /// Megabytes the Lua heap may use before the run is stopped.
    #[arg(long, value_name = "MB", default_value_t = Limits::DEFAULT_MEMORY_MB,
          value_parser = parse_megabytes)]
    pub max_memory: usize,

    /// Seconds of wall-clock time a run may take before it is stopped (0: no
    /// deadline); the last safety net behind the instruction budget.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::DEFAULT_TIMEOUT_SECS as f64,
          value_parser = parse_timeout)]
    pub timeout: f64,
}

/// How image exports look.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// How a .png output draws tiles: glyph (the tile's character) or cells (solid colour).
    #[arg(long, value_enum, default_value_t = PngStyle::Glyph)]
    pub png_style: PngStyle,

    /// Pixels per tile in a .png output (default 16 for glyph, 8 for cells).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub cell_size: Option<u16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PngStyle {
    Glyph,
    Cells,
}

/// Parses `WxH` and checks it against the map limits.
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
    map::check_size(w, h).map_err(|e| e.to_string())?;
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

/// A failure to report: the text after `dunlua: ` and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// A failure of the run itself (exit 1), with the whole error chain.
    fn run(err: impl Into<anyhow::Error>) -> Failure {
        Failure {
            code: EXIT_SCRIPT,
            message: format!("{:#}", err.into()),
        }
    }
}

impl From<ScriptError> for Failure {
    fn from(err: ScriptError) -> Failure {
        Failure {
            code: err.exit_code(),
            message: err.to_string(),
        }
    }
}

impl ScriptArgs {
    fn request(&self, script: &Path, seed: u64) -> Request {
        Request {
            script: script.to_path_buf(),
            seed,
            size: self.size,
            params: self.params.clone(),
            limits: Limits {
                max_instructions: self.max_instructions,
                max_memory: self.max_memory.saturating_mul(1 << 20),
                timeout: (self.timeout > 0.0).then(|| Duration::from_secs_f64(self.timeout)),
            },
            record: false,
            max_attempts: self.max_attempts,
            fast_paths: true,
            cancel: None,
        }
    }
}

impl ExportArgs {
    fn options(&self) -> Options {
        let png_style = match self.png_style {
            PngStyle::Glyph => Style::Glyph,
            PngStyle::Cells => Style::Cells,
        };
        Options {
            png_style,
            cell_size: self
                .cell_size
                .map_or(Options::default_cell_size(png_style), usize::from),
            cell_size_chosen: self.cell_size.is_some(),
        }
    }
}

/// Runs the parsed command line.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    match &cli.command {
        Some(Command::Check(args)) => run_check(args),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Api(args)) => print_stdout(&if args.luals {
            script::api_doc::luals()
        } else {
            script::api_doc::reference()
        }),
        Some(Command::New(args)) => run_new(args),
        None => run_one(&cli.run),
    }
}

/// `dunlua check`: exit 1 when any seed failed.
fn run_check(args: &CheckArgs) -> Result<(), Failure> {
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = CheckOptions {
        request: args.script_args.request(&args.script, 0),
        seeds: args.seeds.clone(),
        jobs,
        save_failures: args.save_failures.clone(),
        export: args.export.options(),
        progress: std::io::stderr().is_terminal(),
    };
    // A bad script, parameter or size is a usage error, not 1000 failures.
    let info = script::inspect(&options.request)?;
    info.params
        .with_overrides(&options.request.params)
        .map_err(Failure::usage)?;
    if let Some((w, h)) = options.request.size {
        map::check_size(w, h).map_err(|e| Failure::usage(e.to_string()))?;
    }
    let started = std::time::Instant::now();
    let report = check::check(&options).map_err(Failure::run)?;
    let elapsed = started.elapsed().as_secs_f64();
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(Failure::run)?;
        print_stdout(&format!("{text}\n"))?;
    } else {
        print_stdout(&report.text())?;
    }
    note!(
        "dunlua: {} seeds in {elapsed:.2} s on {jobs} thread{} ({:.0} maps/s)",
        report.total,
        if jobs == 1 { "" } else { "s" },
        report.total as f64 / elapsed.max(1e-9)
    );
    if report.failed > 0 {
        return Err(Failure {
            code: EXIT_SCRIPT,
            message: format!("{} of {} seeds failed", report.failed, report.total),
        });
    }
    Ok(())
}

/// `dunlua new`: a starting script that runs at once; never overwrites.
fn run_new(args: &NewArgs) -> Result<(), Failure> {
    let mut path = args.name.clone();
    if path.extension().is_none_or(|e| e != "lua") {
        path.set_extension("lua");
    }
    let written =
        crate::templates::write_new(&path, args.from.as_deref()).map_err(|e| Failure {
            code: if e.to_string().contains("already exists") {
                EXIT_USAGE
            } else {
                EXIT_SCRIPT
            },
            message: format!("{e:#}"),
        })?;
    for file in written {
        note!("dunlua: wrote {}", file.display());
    }
    note!("dunlua: try it: dunlua {} --seed 1", path.display());
    Ok(())
}

/// `dunlua bench`: seeds 0..N-1 through one reused VM, on one thread; the
/// floor and room totals are checksums any other implementation of the
/// specified RNG and algorithm can compare with.
fn run_bench(args: &BenchArgs) -> Result<(), Failure> {
    let request = args.script_args.request(&args.script, 0);
    let session = script::Session::new(&request)?;
    let info = session.inspect()?;
    info.params
        .with_overrides(&request.params)
        .map_err(Failure::usage)?;
    let (w, h) = request.size.unwrap_or((info.width, info.height));
    let (mut floors, mut rooms, mut work_max) = (0u64, 0u64, 0u64);
    let started = std::time::Instant::now();
    for seed in 0..args.count {
        let generated = session.run(seed).map_err(|e| Failure {
            code: EXIT_SCRIPT,
            message: format!("seed {seed}: {e}"),
        })?;
        floors += generated.map.count(crate::map::Tile::FLOOR) as u64;
        rooms += generated.map.rooms().len() as u64;
        work_max = work_max.max(generated.work);
    }
    let elapsed = started.elapsed().as_secs_f64();
    print_stdout(&format!(
        "maps={} size={w}x{h} floors={floors} rooms={rooms} elapsed_ms={:.1} maps_per_s={:.1} us_per_map={:.2} work_max={work_max}\n",
        args.count,
        elapsed * 1000.0,
        args.count as f64 / elapsed.max(1e-9),
        elapsed * 1e6 / args.count as f64
    ))
}

/// How long past `--timeout` a run may stay stuck (in code no budget check
/// reaches) before the process gives up on it.
const WATCHDOG_GRACE: Duration = Duration::from_secs(2);

/// Runs `generate` with a last-resort watchdog: the run's own deadline
/// stops it at its next budget check; should it be stuck where none comes,
/// the process reports the timeout and exits 1 a little later. Nothing has
/// been written yet then (outputs are written after generating).
fn with_watchdog<T>(request: &Request, generate: impl FnOnce() -> T) -> T {
    let Some(timeout) = request.limits.timeout else {
        return generate();
    };
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let script = request.script.display().to_string();
    std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            wait.recv_timeout(timeout + WATCHDOG_GRACE)
        {
            let _ = writeln!(
                std::io::stderr(),
                "dunlua: {script}: timed out after {} s (--timeout), stuck where the budget could not stop it",
                timeout.as_secs_f64()
            );
            std::process::exit(EXIT_SCRIPT);
        }
    });
    let result = generate();
    drop(done);
    result
}

/// `dunlua SCRIPT ...`: one map, to the window, stdout or files.
fn run_one(cli: &RunArgs) -> Result<(), Failure> {
    let script_path = cli
        .script
        .as_deref()
        .ok_or_else(|| Failure::usage("no SCRIPT given"))?;
    if cli.list_params {
        let info = script::inspect(&cli.script_args.request(script_path, 0))?;
        print_stdout(&format!(
            "{} ({}x{})\n{}",
            info.name,
            info.width,
            info.height,
            if info.params.is_empty() {
                "no parameters\n".to_string()
            } else {
                info.params.listing()
            }
        ))?;
        return Ok(());
    }
    for out in &cli.outs {
        export::check_target(out).map_err(|e| Failure::usage(e.to_string()))?;
    }
    let seed = match cli.seed {
        Some(seed) => seed,
        None => {
            let seed = rand::random::<u32>() as u64;
            note!(
                "dunlua: seed {seed} (no --seed given; pass --seed {seed} to get this map again)"
            );
            seed
        }
    };
    // The window is the default when nothing else was asked for.
    let wants_window = cli.window || (!cli.ascii && !cli.hash && cli.outs.is_empty());
    let windowed = wants_window && (cli.window || view::display_available());
    let mut request = cli.script_args.request(script_path, seed);
    request.record = windowed;
    let started = std::time::Instant::now();
    let generated = with_watchdog(&request, || script::run(&request))?;
    let took = started.elapsed();
    report_rejections(&generated);
    let options = cli.export.options();
    if !cli.outs.is_empty() {
        let (written, notes) =
            export::write_all(&cli.outs, &generated, &options).map_err(Failure::run)?;
        for note in notes {
            note!("dunlua: {note}");
        }
        for path in written {
            note!("dunlua: wrote {}", path.display());
        }
    }
    if cli.hash {
        print_stdout(&format!("{:016x}\n", generated.map.hash64()))?;
    }
    if windowed {
        let text = generated.map.to_string();
        let config = ViewConfig {
            request,
            export: options,
            state_file: std::env::var_os("DUNLUA_STATE_FILE").map(Into::into),
        };
        return match view::run(generated, took, config) {
            Ok(()) => Ok(()),
            Err(ViewError::NoWindow(why)) if !cli.window => {
                print_stdout(&text)?;
                note!("dunlua: no window ({why}); printed the map as text. Use --out map.png for a picture, --ascii to skip the window");
                Ok(())
            }
            Err(ViewError::NoWindow(why)) => Err(Failure {
                code: EXIT_SCRIPT,
                message: format!("cannot open a window: {why}"),
            }),
            Err(ViewError::Other(e)) => Err(Failure::run(e)),
        };
    }
    if wants_window {
        print_stdout(&generated.map.to_string())?;
        note!("dunlua: no display (DISPLAY is not set); printed the map as text. Use --out map.png for a picture, --ascii to skip the window");
    } else if cli.ascii {
        print_stdout(&generated.map.to_string())?;
    }
    Ok(())
}

/// Says on stderr which attempt was accepted and why earlier ones were not.
pub fn report_rejections(generated: &crate::Generated) {
    if generated.rejections.is_empty() {
        return;
    }
    note!(
        "dunlua: attempt {} accepted (seed {} with the attempt-{} stream)",
        generated.provenance.attempt,
        generated.provenance.seed,
        generated.provenance.attempt
    );
    for (k, why) in &generated.rejections {
        note!("dunlua:   attempt {k} rejected: {why}");
    }
}

fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`dunlua ... | head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure {
            code: EXIT_SCRIPT,
            message: format!("cannot write to stdout: {e}"),
        }),
    }
}

/// Parses the process arguments, runs, reports; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                let _ = err.print();
                return EXIT_OK;
            }
            // clap's first line is the error (continued on the next line
            // when it ends with a colon); the rest is a usage reminder.
            let text = err.render().to_string();
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let first = lines.next().unwrap_or("bad usage");
            let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
            if message.ends_with(':') {
                if let Some(next) = lines.next() {
                    message = format!("{message} {}", next.trim());
                }
            }
            note!("dunlua: {message} (see dunlua --help)");
            return EXIT_USAGE;
        }
    };
    match run(&cli) {
        Ok(()) => EXIT_OK,
        Err(failure) => {
            note!("dunlua: {}", failure.message);
            failure.code
        }
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
        assert!(parse_size("0x5")
            .unwrap_err()
            .contains("size 0x5 is invalid"));
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
