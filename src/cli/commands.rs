//! `dunlua check`, `dunlua bench` and `dunlua new`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::flags::{BenchArgs, CheckArgs, NewArgs};
use super::{print_stdout, Failure, EXIT_SCRIPT, EXIT_USAGE};
use crate::check::{self, shard, CheckOptions};
use crate::files::{output_path, same_output};
use crate::map;
use crate::script;

/// `dunlua check`: exit 1 when any seed failed. With `--shard`, one slice
/// written to a file (exit 0 once written); with `--merge`, the shards'
/// files put together into the whole report.
pub(super) fn check(args: &CheckArgs) -> Result<(), Failure> {
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let Some(path) = &args.html {
        if path.extension().is_none_or(|e| e != "html" && e != "htm") {
            return Err(Failure::usage(format!(
                "--html {}: the report is an .html file",
                path.display()
            )));
        }
        writable_target("--html", path)?;
        if let Some(script) = &args.script {
            not_the_script("--html", path, script)?;
        }
    }
    if let Some(dir) = &args.save_failures {
        if dir.exists() && !dir.is_dir() {
            return Err(Failure::usage(format!(
                "--save-failures {}: is a file, not a folder",
                dir.display()
            )));
        }
    }
    if !args.merge.is_empty() {
        return merge(args, jobs);
    }
    let Some(script_path) = &args.script else {
        return Err(Failure::usage("check needs a SCRIPT (or --merge FILES)"));
    };
    let options = CheckOptions {
        request: args.script_args.request(script_path, 0),
        seeds: args.seeds.clone(),
        jobs,
        save_failures: args.save_failures.clone(),
        export: args.picture.options(),
        progress: std::io::stderr().is_terminal(),
        html: args.html.clone(),
        variety: variety_settings(args),
        catalog: args.catalog.is_some() || args.against.is_some(),
    };
    // A bad script, parameter or size is a usage error, not 1000 failures.
    // (Loading it is no seed's run: a --timeout shorter than the load
    // times the seeds out, not the check; see check::load_request.)
    let info = script::inspect(&check::load_request(&options.request))?;
    info.params
        .with_overrides(&options.request.params)
        .map_err(Failure::usage)?;
    if let Some((w, h)) = options.request.size {
        map::check_size(w, h).map_err(|e| Failure::usage(e.to_string()))?;
    }
    // The catalogs are checked before any seed runs.
    if let Some(path) = &args.catalog {
        check_catalog_target(path, script_path)?;
    }
    check_outputs_apart(args, script_path)?;
    let against = match &args.against {
        Some(path) => Some(check::catalog::Catalog::read(path).map_err(Failure::usage)?),
        None => None,
    };
    let started = std::time::Instant::now();
    if let (Some(shard), Some(out)) = (args.shard, &args.shard_out) {
        shard::check_target(out).map_err(|e| Failure::usage(e.to_string()))?;
        not_the_script("--shard-out", out, script_path)?;
        let report = shard::run(&options, shard, out).map_err(Failure::run_or_usage)?;
        print_stdout(&if args.json {
            report.json()
        } else {
            report.text()
        })?;
        note!(
            "dunlua: shard {shard}: seeds {}..{} ({} ok, {} failed) in {:.2} s; wrote {} (put the shards together with dunlua check --merge)",
            report.seeds[0],
            report.seeds[1],
            report.ok,
            report.failed,
            started.elapsed().as_secs_f64(),
            out.display()
        );
        return Ok(());
    }
    let report = check::check(&options).map_err(Failure::run)?;
    let run = report.catalog.clone().unwrap_or_default();
    let lines = &run.lines;
    if let Some(path) = &args.catalog {
        if let Some(read) = run.read.iter().find(|r| crate::files::same_file(path, r)) {
            return Err(Failure::usage(format!(
                "--catalog {}: is {}, which the script reads",
                path.display(),
                read.display()
            )));
        }
        let text = check::catalog::text(&report.script, report.seeds, lines);
        crate::export::write_atomically(path, text.as_bytes()).map_err(Failure::run)?;
        note!("dunlua: wrote {}", path.display());
    }
    let changes = match (&against, &args.against) {
        (Some(old), Some(path)) => {
            let now = check::catalog::Catalog::parse(&check::catalog::text(
                &report.script,
                report.seeds,
                lines,
            ))
            .map_err(|(line, why)| Failure::run(anyhow::anyhow!("catalog line {line}: {why}")))?;
            Some((old.changes(&now), path))
        }
        _ => None,
    };
    let threads = check::workers(jobs, report.total as usize);
    let printed = print_report(args, &report, started, Some(threads));
    if let Some((changes, path)) = changes {
        let text = changes.text(path);
        if args.json {
            // Standard output holds the JSON report alone.
            let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        } else {
            print_stdout(&text)?;
        }
        if !changes.is_empty() && printed.is_ok() {
            return Err(Failure::new(
                EXIT_SCRIPT,
                format!(
                    "{} seeds changed, {} added, {} missing against {}",
                    changes.changed,
                    changes.added,
                    changes.missing,
                    path.display()
                ),
            ));
        }
    }
    printed
}

/// The variety pass `check` runs, from `--near` and `--no-variety`.
fn variety_settings(args: &CheckArgs) -> Option<check::variety::Settings> {
    (!args.no_variety).then_some(check::variety::Settings { near: args.near })
}

/// An output `flag PATH` can be written: its folder exists and it is not
/// itself a folder (see [`crate::export::target_problem`]).
fn writable_target(flag: &str, path: &Path) -> Result<(), Failure> {
    match crate::export::target_problem(path) {
        Some(problem) => Err(Failure::usage(format!(
            "{flag} {}: {problem}",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// No two of check's outputs are one file, and none is a file
/// `--save-failures` writes (`SCRIPT-SEED.png`, ...): either would be
/// replaced by the other. Paths are compared as the files they name
/// (`./`, `..` and symlinks resolved, hard links found), before anything
/// is written.
fn check_outputs_apart(args: &CheckArgs, script: &Path) -> Result<(), Failure> {
    let files: Vec<(&str, &Path)> = [
        ("--html", &args.html),
        ("--catalog", &args.catalog),
        ("--shard-out", &args.shard_out),
    ]
    .into_iter()
    .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
    .collect();
    // The catalog --against reads is an input: only --catalog may replace
    // it (a check that refreshes the catalog it compares with).
    if let Some(against) = &args.against {
        if let Some((flag, path)) = files
            .iter()
            .find(|(flag, path)| *flag != "--catalog" && same_output(path, against))
        {
            return Err(Failure::usage(format!(
                "{flag} {}: is the catalog --against {} reads",
                path.display(),
                against.display()
            )));
        }
    }
    for (i, (first, a)) in files.iter().enumerate() {
        for (flag, b) in &files[i + 1..] {
            if same_output(a, b) {
                return Err(Failure::usage(format!(
                    "{flag} {}: is the same file as {first} {}",
                    b.display(),
                    a.display()
                )));
            }
        }
    }
    let Some(folder) = &args.save_failures else {
        return Ok(());
    };
    let stem = script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    let folder_is = output_path(folder);
    for (flag, path) in &files {
        if same_output(path, folder) {
            return Err(Failure::usage(format!(
                "{flag} {}: is the --save-failures folder {}",
                path.display(),
                folder.display()
            )));
        }
        let real = output_path(path);
        let inside = real.parent() == Some(folder_is.as_path());
        let name = real.file_name().map(|n| n.to_string_lossy().into_owned());
        if inside && name.is_some_and(|n| failure_file(&stem, &n)) {
            return Err(Failure::usage(format!(
                "{flag} {}: is a file --save-failures {} writes ({stem}-SEED.png, .json, .txt)",
                path.display(),
                folder.display()
            )));
        }
    }
    Ok(())
}

/// Whether `name` is one `--save-failures` gives a failing seed of the
/// script `stem`: `STEM-SEED.EXT` or `STEM-SEED-LEVEL.EXT`, EXT `png`,
/// `json` or `txt`.
fn failure_file(stem: &str, name: &str) -> bool {
    let Some(rest) = name.strip_prefix(stem).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let Some((numbers, ext)) = rest.rsplit_once('.') else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    ["png", "json", "txt"].contains(&ext)
        && numbers.split('-').count() <= 2
        && numbers.split('-').all(digits)
}

/// `--catalog FILE` can be written and is not the script.
fn check_catalog_target(path: &std::path::Path, script: &std::path::Path) -> Result<(), Failure> {
    writable_target("--catalog", path)?;
    not_the_script("--catalog", path, script)
}

/// An error when the output `flag PATH` is the script, by any name (`./`,
/// `..`, a symlink, a hard link): writing it would replace the script.
pub(super) fn not_the_script(flag: &str, path: &Path, script: &Path) -> Result<(), Failure> {
    if crate::files::same_file(path, script) {
        return Err(Failure::usage(format!(
            "{flag} {}: is the script itself",
            path.display()
        )));
    }
    Ok(())
}

/// The range `check` runs when `--seeds` is not given (clap's default for
/// it), so `--merge` can tell a range it would ignore.
fn default_seeds() -> std::ops::Range<u64> {
    use clap::Args;
    let command = CheckArgs::augment_args(clap::Command::new("check"));
    let range = command
        .get_arguments()
        .find(|a| a.get_id() == "seeds")
        .and_then(|a| a.get_default_values().first())
        .and_then(|v| check::parse_seeds(&v.to_string_lossy()).ok());
    range.unwrap_or_else(|| unreachable!("--seeds has a default range"))
}

/// `dunlua check --merge FILES...`.
fn merge(args: &CheckArgs, jobs: usize) -> Result<(), Failure> {
    let given = &args.script_args;
    let defaults = [
        (args.seeds != default_seeds(), "--seeds"),
        (given.size.is_some(), "--size"),
        (!given.params.is_empty(), "-p"),
        (given.levels.is_some(), "--levels"),
        (
            given.max_instructions != script::Limits::DEFAULT_INSTRUCTIONS,
            "--max-instructions",
        ),
        (
            given.max_attempts != script::DEFAULT_MAX_ATTEMPTS,
            "--max-attempts",
        ),
        (
            given.max_memory != script::Limits::DEFAULT_MEMORY_MB,
            "--max-memory",
        ),
        (
            given.timeout != script::Limits::DEFAULT_TIMEOUT_SECS as f64,
            "--timeout",
        ),
    ];
    if let Some((_, flag)) = defaults.iter().find(|(set, _)| *set) {
        return Err(Failure::usage(format!(
            "--merge takes the script, seeds, parameters, size and limits from the shards; {flag} cannot change them"
        )));
    }
    if let Some(html) = &args.html {
        if let Some(shard) = args.merge.iter().find(|m| crate::files::same_file(m, html)) {
            return Err(Failure::usage(format!(
                "--html {}: is the shard {} that --merge reads",
                html.display(),
                shard.display()
            )));
        }
    }
    let options = shard::MergeOptions {
        jobs,
        save_failures: args.save_failures.clone(),
        html: args.html.clone(),
        export: args.picture.options(),
        progress: std::io::stderr().is_terminal(),
        variety: variety_settings(args),
    };
    let started = std::time::Instant::now();
    let report = shard::merge(&args.merge, &options).map_err(Failure::run_or_usage)?;
    print_report(args, &report, started, None)
}

/// Prints the report, says where `--html` wrote its page, prints a line
/// of throughput, and fails when a seed did.
fn print_report(
    args: &CheckArgs,
    report: &check::Report,
    started: std::time::Instant,
    jobs: Option<usize>,
) -> Result<(), Failure> {
    let elapsed = started.elapsed().as_secs_f64();
    let printed = print_stdout(&if args.json {
        report.json()
    } else {
        report.text()
    });
    // The page was written whole before the report came back.
    if let Some(path) = &args.html {
        note!("dunlua: wrote {}", path.display());
    }
    printed?;
    match jobs {
        Some(jobs) => note!(
            "dunlua: {} seeds in {elapsed:.2} s on {jobs} thread{} ({:.0} maps/s)",
            report.total,
            if jobs == 1 { "" } else { "s" },
            report.total as f64 / elapsed.max(1e-9)
        ),
        None => note!(
            "dunlua: {} seeds merged from {} shards in {elapsed:.2} s",
            report.total,
            args.merge.len()
        ),
    }
    if report.failed > 0 {
        return Err(Failure::new(
            EXIT_SCRIPT,
            format!("{} of {} seeds failed", report.failed, report.total),
        ));
    }
    Ok(())
}

/// `dunlua new`: a starting script that runs at once; never overwrites.
pub(super) fn new(args: &NewArgs) -> Result<(), Failure> {
    let path = new_script_path(&args.name)?;
    let written = crate::templates::write_new(&path, args.from.as_deref()).map_err(|e| {
        let text = e.to_string();
        // A name, a folder or a neighbour the user chose: usage, as a
        // missing `--out` folder is; anything else (a write failed) is not.
        let code = if text.contains("already exists")
            || text.contains("unknown starting script")
            || text.starts_with("folder ")
        {
            EXIT_USAGE
        } else {
            EXIT_SCRIPT
        };
        Failure::new(code, format!("{e:#}"))
    })?;
    for file in written {
        note!("dunlua: wrote {}", file.display());
    }
    note!(
        "dunlua: try it: dunlua {} --seed 1",
        crate::one_line::shell_word(&path.display().to_string())
    );
    Ok(())
}

/// The file `dunlua new NAME` writes: NAME.lua, or NAME itself when it
/// ends in `.lua` in any case (`my.dungeon` is `my.dungeon.lua`, not
/// `my.lua`; `Cave.LUA` stays `Cave.LUA`, not `Cave.LUA.lua`). A name
/// that starts with `-` is refused (`dunlua -p.lua` reads as a flag), and
/// so is one with a control character (it goes into the script's first
/// comment line, where a newline would break the script).
fn new_script_path(name: &Path) -> Result<PathBuf, Failure> {
    let text = name.to_string_lossy();
    if text.starts_with('-') {
        return Err(Failure::usage(format!(
            "new {text}: a script name cannot start with '-' (it would read as a flag)"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(Failure::usage(format!(
            "new {}: a script name cannot hold a control character",
            text.escape_debug()
        )));
    }
    if name
        .file_name()
        .is_some_and(|f| f.eq_ignore_ascii_case(".lua"))
    {
        return Err(Failure::usage(format!(
            "new {text}: the script needs a name before .lua"
        )));
    }
    if name
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"))
    {
        return Ok(name.to_path_buf());
    }
    let mut path = name.as_os_str().to_owned();
    path.push(".lua");
    Ok(PathBuf::from(path))
}

/// `dunlua bench`: seeds 0..N-1 through one reused VM, on one thread (see
/// [`script::Session::bench`]), and one line of throughput and checksums.
pub(super) fn bench(args: &BenchArgs) -> Result<(), Failure> {
    let request = args.script_args.request(&args.script, 0);
    let session = script::Session::new(&request)?;
    let info = session.inspect()?;
    info.params
        .with_overrides(&request.params)
        .map_err(Failure::usage)?;
    let (w, h) = request.size.unwrap_or((info.width, info.height));
    let started = std::time::Instant::now();
    let totals = session.bench(args.count).map_err(|(seed, e)| Failure {
        code: EXIT_SCRIPT,
        message: format!("seed {seed}: {}", e.message),
        traceback: e.traceback,
    })?;
    let elapsed = started.elapsed().as_secs_f64();
    print_stdout(&format!(
        "maps={} size={w}x{h} floors={} rooms={} elapsed_ms={:.1} maps_per_s={:.1} us_per_map={:.2} work_max={}\n",
        totals.maps,
        totals.floors,
        totals.rooms,
        elapsed * 1000.0,
        totals.maps as f64 / elapsed.max(1e-9),
        elapsed * 1e6 / totals.maps.max(1) as f64,
        totals.work_max
    ))
}
