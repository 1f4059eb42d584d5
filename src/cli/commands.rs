//! `dunlua check`, `dunlua bench` and `dunlua new`.

use std::io::IsTerminal;

use super::flags::{BenchArgs, CheckArgs, NewArgs};
use super::{print_stdout, Failure, EXIT_SCRIPT, EXIT_USAGE};
use crate::check::{self, CheckOptions};
use crate::map;
use crate::script;

/// `dunlua check`: exit 1 when any seed failed.
pub(super) fn check(args: &CheckArgs) -> Result<(), Failure> {
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = CheckOptions {
        request: args.script_args.request(&args.script, 0),
        seeds: args.seeds.clone(),
        jobs,
        save_failures: args.save_failures.clone(),
        export: args.export.options()?,
        progress: std::io::stderr().is_terminal(),
        html: args.html.clone(),
    };
    if let Some(path) = &options.html {
        if path.extension().is_none_or(|e| e != "html" && e != "htm") {
            return Err(Failure::usage(format!(
                "--html {}: the report is an .html file",
                path.display()
            )));
        }
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if folder.is_some_and(|f| !f.is_dir()) {
            return Err(Failure::usage(format!(
                "--html {}: folder {} does not exist",
                path.display(),
                folder.unwrap_or(std::path::Path::new(".")).display()
            )));
        }
    }
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
    print_stdout(&if args.json {
        report.json()
    } else {
        report.text()
    })?;
    note!(
        "dunlua: {} seeds in {elapsed:.2} s on {jobs} thread{} ({:.0} maps/s)",
        report.total,
        if jobs == 1 { "" } else { "s" },
        report.total as f64 / elapsed.max(1e-9)
    );
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
    let mut path = args.name.clone();
    if path.extension().is_none_or(|e| e != "lua") {
        path.set_extension("lua");
    }
    let written = crate::templates::write_new(&path, args.from.as_deref()).map_err(|e| {
        let text = e.to_string();
        let code = if text.contains("already exists") || text.contains("unknown starting script") {
            EXIT_USAGE
        } else {
            EXIT_SCRIPT
        };
        Failure::new(code, format!("{e:#}"))
    })?;
    for file in written {
        note!("dunlua: wrote {}", file.display());
    }
    note!("dunlua: try it: dunlua {} --seed 1", path.display());
    Ok(())
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
