//! `dunlua SCRIPT ...`: one map, to the window, stdout or files, with a
//! watchdog behind the run's own deadline.

use std::time::Duration;

use super::flags::RunArgs;
use super::{print_stdout, Failure, EXIT_SCRIPT};
use crate::export;
use crate::script::{self, Request};
#[cfg(feature = "window")]
use crate::view::{self, ViewConfig, ViewError};

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
            note!(
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
pub(super) fn run(cli: &RunArgs) -> Result<(), Failure> {
    let script_path = cli
        .script
        .as_deref()
        .ok_or_else(|| Failure::usage("no SCRIPT given"))?;
    if cli.list_params {
        let info = script::inspect(&cli.script_args.request(script_path, 0))?;
        print_stdout(&format!(
            "{} ({}x{})\n{}",
            crate::one_line::one_line(&info.name),
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
    // Read before generating: a bad --tileset is a usage error up front.
    let options = cli.export.options()?;
    // No output may replace a file the run reads: what is known now (the
    // script, the tileset) is a usage error before generating; the
    // modules, and the level files of a script that makes several levels,
    // are known after, and the export refuses them then.
    let level_count = cli.script_args.levels.unwrap_or(1);
    let inputs = export::Inputs::before_run(script_path, &options);
    let files = export::files_for_levels(&cli.outs, level_count, &options)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let outs = cli.outs.iter().map(|out| (out.clone(), out.clone()));
    for (out, file) in files.into_iter().chain(outs) {
        inputs
            .refuse(&out, &file)
            .map_err(|e| Failure::usage(e.to_string()))?;
    }
    if let Some(dir) = &cli.save_dir {
        if !dir.is_dir() {
            let problem = if dir.exists() {
                "is a file, not a folder"
            } else {
                "no such folder"
            };
            return Err(Failure::usage(format!(
                "--save-dir {}: {problem}",
                dir.display()
            )));
        }
    }
    let seed = cli.seed.unwrap_or_else(|| rand::random::<u32>() as u64);
    // The window is the default when nothing else was asked for.
    let wants_window = cli.window || (!cli.ascii && !cli.hash && cli.outs.is_empty());
    let windowed = wants_window && (cli.window || display_available());
    let mut request = cli.script_args.request(script_path, seed);
    request.record = windowed;
    let started = std::time::Instant::now();
    let levels = with_watchdog(&request, || {
        let session = script::Session::new(&request)?;
        // Said before the run (a run that hangs, is interrupted or crashes
        // is the one to make again), once the script is read and compiled
        // and the command line is known to be right (a bad -p or size is
        // a usage error of one line, with no map to make again).
        if cli.seed.is_none() {
            if let Some(usage) = session.usage_error() {
                return Err(usage);
            }
            note!(
                "dunlua: seed {seed} (no --seed given; pass --seed {seed} to get this map again)"
            );
        }
        let result = session.run_levels(request.seed);
        if result.is_err() {
            // The command ends with this error: freeing the run's heap
            // first (millions of objects) would only delay the message,
            // by 1.5 s for a script stopped at 400 MB.
            std::mem::forget(session);
        }
        result
    })?;
    let took = started.elapsed();
    for generated in &levels {
        report_rejections(generated);
    }
    if !cli.outs.is_empty() {
        let (written, notes) =
            export::write_levels(&cli.outs, &levels, &options).map_err(Failure::run_or_usage)?;
        for note in notes {
            note!("dunlua: {note}");
        }
        for path in written {
            note!("dunlua: wrote {}", path.display());
        }
    }
    if cli.hash {
        // One line per level, in order.
        let lines: String = levels
            .iter()
            .map(|g| format!("{:016x}\n", g.hash()))
            .collect();
        print_stdout(&lines)?;
    }
    if windowed {
        return show(cli, levels, took, request, options);
    }
    let color = super::color::wanted(cli.color);
    if wants_window {
        print_stdout(&super::color::map_text(&levels, color))?;
        note!("dunlua: {}; printed the map as text. Use --out map.png for a picture, --ascii to skip the window", NO_WINDOW);
    } else if cli.ascii {
        print_stdout(&super::color::map_text(&levels, color))?;
    }
    Ok(())
}

/// Why there is no window when one would be the default.
#[cfg(feature = "window")]
const NO_WINDOW: &str = "no display (DISPLAY is not set)";
#[cfg(not(feature = "window"))]
const NO_WINDOW: &str = "no window (this dunlua was built without the `window` feature)";

#[cfg(feature = "window")]
fn display_available() -> bool {
    view::display_available()
}

#[cfg(not(feature = "window"))]
fn display_available() -> bool {
    false
}

/// Opens the window on the map (falling back to text when it cannot open
/// and the user did not insist with `--window`).
#[cfg(feature = "window")]
fn show(
    cli: &RunArgs,
    levels: Vec<crate::Generated>,
    took: Duration,
    request: Request,
    options: export::Options,
) -> Result<(), Failure> {
    let text = super::color::map_text(&levels, super::color::wanted(cli.color));
    let config = ViewConfig {
        request,
        export: options,
        save_dir: cli.save_dir.clone().unwrap_or_else(|| ".".into()),
        state_file: std::env::var_os("DUNLUA_STATE_FILE").map(Into::into),
        timings: view::timing::Timings::wanted(),
    };
    match view::run(levels, took, config) {
        Ok(()) => Ok(()),
        Err(ViewError::NoWindow(why)) if !cli.window => {
            print_stdout(&text)?;
            note!("dunlua: no window ({why}); printed the map as text. Use --out map.png for a picture, --ascii to skip the window");
            Ok(())
        }
        Err(ViewError::NoWindow(why)) => Err(Failure::new(
            EXIT_SCRIPT,
            format!("cannot open a window: {why}"),
        )),
        Err(ViewError::Other(e)) => Err(Failure::run(e)),
    }
}

/// `--window` in a build without the window.
#[cfg(not(feature = "window"))]
fn show(
    _cli: &RunArgs,
    _levels: Vec<crate::Generated>,
    _took: Duration,
    _request: Request,
    _options: export::Options,
) -> Result<(), Failure> {
    Err(Failure::new(
        EXIT_SCRIPT,
        "cannot open a window: this dunlua was built without the `window` feature",
    ))
}

/// Says on stderr which attempt was accepted and why earlier ones were not.
pub fn report_rejections(generated: &crate::Generated) {
    if generated.rejections.is_empty() {
        return;
    }
    let p = &generated.provenance;
    // A level's attempts fork that level's stream, not the seed's.
    let level = if generated.is_level() {
        format!("level {}: ", p.level)
    } else {
        String::new()
    };
    note!(
        "dunlua: {level}attempt {} accepted (seed {} with the attempt-{} stream)",
        p.attempt,
        p.seed,
        p.attempt
    );
    for (k, why) in &generated.rejections {
        note!("dunlua:   {level}attempt {k} rejected: {why}");
    }
}
