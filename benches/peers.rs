//! `cargo bench --bench peers`: the 80x50 rooms map made by every peer in
//! one run, side by side, with per-map µs and the ratios the README's
//! performance table states: plain Rust (`tests/reference.rs`), LuaJIT
//! with a flat table (`benches/rooms_luajit.lua`, run as a subprocess when
//! `luajit` is on the PATH or `$LUAJIT` names it), `scripts/rooms.lua`
//! through dunlua as `dunlua bench` runs it, a script that only fills the
//! map and carves one room (`benches/empty.lua`), and plain Lua 5.4 with a
//! flat table (`benches/rooms_pure.lua`). All make seeds 0..N-1; their
//! floor and room checksums are checked to agree before anything is timed.
//!
//! The machine is shared, so each peer runs in several rounds, taken in
//! turn (one round of every peer, then the next), and the best round is
//! reported beside the median: the least disturbed one is the closest to
//! what the code costs. `PEERS_MAPS` (default 5000) and `PEERS_ROUNDS`
//! (default 5) set the sizes.
//!
//! Then, in the same run, every reference script at 2000x2000 (issue #27:
//! each in at most half a second and 300 MB): the `dunlua` binary as a
//! user runs it, `dunlua scripts/X.lua --size 2000x2000 --seed 1 --ascii`
//! with the limits raised, in `PEERS_BIG_ROUNDS` rounds (default 3; 0
//! skips it) taken in turn; the fastest round's wall time, its CPU time
//! and its peak memory (the child's own `ru_maxrss`) are printed as the
//! README's table, with the range of the wall times beside them.

#[allow(dead_code)]
#[path = "../tests/reference.rs"]
mod reference;

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use dunlua::script::{Request, Session};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Floor tiles and rooms over seeds 0..n: the checksums `dunlua bench` prints.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct Totals {
    floors: u64,
    rooms: u64,
}

fn session(script: &str) -> Session {
    Session::new(&Request::new(root().join(script), 0)).expect("the script loads")
}

fn luajit() -> Option<String> {
    let exe = std::env::var("LUAJIT").unwrap_or_else(|_| "luajit".into());
    let found = Command::new(&exe).arg("-v").output();
    found.ok().filter(|o| o.status.success()).map(|_| exe)
}

/// Runs the LuaJIT peer over seeds 0..n: its own µs a map (timed inside
/// LuaJIT, so process start and compilation of the file are not counted;
/// its traces warm up in the first maps, as a VM's caches do in dunlua's).
fn run_luajit(exe: &str, n: u64) -> (f64, Totals) {
    let out = Command::new(exe)
        .arg(root().join("benches/rooms_luajit.lua"))
        .arg(n.to_string())
        .output()
        .expect("luajit runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let field = |name: &str| -> f64 {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name}= in {text}"))
    };
    let totals = Totals {
        floors: field("floors") as u64,
        rooms: field("rooms") as u64,
    };
    (field("us_per_map"), totals)
}

fn main() {
    small_maps();
    big_maps();
}

/// The 80x50 rooms map by every peer.
fn small_maps() {
    // `cargo bench` passes --bench; a plain run of the binary works too.
    let n = env_or("PEERS_MAPS", 5000);
    let rounds = env_or("PEERS_ROUNDS", 5) as usize;
    let rooms = session("scripts/rooms.lua");
    let empty = session("benches/empty.lua");
    let lua = mlua::Lua::new();
    let source = std::fs::read_to_string(root().join("benches/rooms_pure.lua")).unwrap();
    let pure: mlua::Function = lua.load(source).eval().unwrap();
    let jit = luajit();

    // The same maps first: checksums over 1000 seeds.
    let check = 1000;
    let dunlua = rooms.bench(check).expect("rooms.lua runs");
    let want = Totals {
        floors: dunlua.floors,
        rooms: dunlua.rooms,
    };
    let mut rust = Totals {
        floors: 0,
        rooms: 0,
    };
    let mut plain_lua = Totals {
        floors: 0,
        rooms: 0,
    };
    for seed in 0..check {
        let level = reference::grogue(seed, 80, 50, 30, 6, 10);
        rust.floors += level.floor.iter().filter(|&&f| f).count() as u64;
        rust.rooms += level.rooms.len() as u64;
        let (tiles, rooms_table): (Vec<u8>, mlua::Table) =
            pure.call((seed as i64, 80, 50, 30, 6, 10)).unwrap();
        plain_lua.floors += tiles.iter().filter(|&&t| t == 1).count() as u64;
        plain_lua.rooms += rooms_table.raw_len() as u64;
    }
    assert_eq!(rust, want, "plain Rust makes rooms.lua's maps");
    assert_eq!(plain_lua, want, "plain Lua makes rooms.lua's maps");
    if let Some(exe) = &jit {
        assert_eq!(
            run_luajit(exe, check).1,
            want,
            "LuaJIT makes rooms.lua's maps"
        );
    }
    println!(
        "peers: 80x50 rooms, seeds 0..{n}, {rounds} rounds; checksums over 1000 maps agree: floors={} rooms={}",
        want.floors, want.rooms
    );

    let names = [
        "plain Rust",
        "LuaJIT, flat table",
        "dunlua rooms.lua",
        "dunlua empty script",
        "Lua 5.4, flat table",
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let per_map = |started: Instant| started.elapsed().as_secs_f64() * 1e6 / n as f64;
    for _ in 0..rounds {
        let started = Instant::now();
        for seed in 0..n {
            std::hint::black_box(reference::grogue(seed, 80, 50, 30, 6, 10));
        }
        times[0].push(per_map(started));
        if let Some(exe) = &jit {
            times[1].push(run_luajit(exe, n).0);
        }
        let started = Instant::now();
        rooms.bench(n).expect("rooms.lua runs");
        times[2].push(per_map(started));
        let started = Instant::now();
        empty.bench(n).expect("empty.lua runs");
        times[3].push(per_map(started));
        // Plain Lua is the slowest by far: a fifth of the maps is enough.
        let started = Instant::now();
        for seed in 0..n / 5 {
            let _: mlua::MultiValue = pure.call((seed as i64, 80, 50, 30, 6, 10)).unwrap();
        }
        times[4].push(started.elapsed().as_secs_f64() * 1e6 / (n / 5) as f64);
    }
    let best: Vec<Option<f64>> = times
        .iter()
        .map(|t| t.iter().copied().min_by(f64::total_cmp))
        .collect();
    let median = |t: &[f64]| {
        let mut t = t.to_vec();
        t.sort_by(f64::total_cmp);
        t.get(t.len().saturating_sub(1) / 2).copied()
    };
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a / b),
        _ => "-".into(),
    };
    println!(
        "{:<22}{:>12}{:>12}{:>14}{:>14}",
        "per map", "best µs", "median µs", "vs Rust", "vs LuaJIT"
    );
    for (i, name) in names.iter().enumerate() {
        let Some(b) = best[i] else {
            println!(
                "{name:<22}{:>12}   (no luajit: set LUAJIT or put it on the PATH)",
                "-"
            );
            continue;
        };
        println!(
            "{name:<22}{b:>12.2}{:>12.2}{:>14}{:>14}",
            median(&times[i]).unwrap_or(b),
            ratio(best[i], best[0]),
            ratio(best[i], best[1]),
        );
    }
    let target = |i: usize| match i {
        2 => ("≤ 4x Rust, ≤ 1x LuaJIT", {
            let (b, rust, jit) = (best[2], best[0], best[1]);
            match (b, rust, jit) {
                (Some(b), Some(r), Some(j)) => met(b <= 4.0 * r && b <= j),
                _ => "-",
            }
        }),
        3 => ("≤ 2 µs", best[3].map_or("-", |b| met(b <= 2.0))),
        _ => ("", ""),
    };
    println!();
    println!("| 80x50 rooms, per map | best µs | vs plain Rust | vs LuaJIT | target | met |");
    println!("| --- | ---: | ---: | ---: | --- | --- |");
    for (i, name) in TABLE_NAMES.iter().enumerate() {
        let Some(b) = best[i] else { continue };
        let (goal, verdict) = target(i);
        println!(
            "| {name} | {b:.2} | {} | {} | {goal} | {verdict} |",
            ratio(best[i], best[0]),
            ratio(best[i], best[1]),
        );
    }
}

/// The peers as the README's table names them.
const TABLE_NAMES: [&str; 5] = [
    "plain Rust (`tests/reference.rs`)",
    "LuaJIT, flat table (`benches/rooms_luajit.lua`)",
    "dunlua `scripts/rooms.lua`",
    "dunlua `benches/empty.lua` (a run's fixed cost)",
    "plain Lua 5.4, flat table",
];

fn met(yes: bool) -> &'static str {
    if yes {
        "yes"
    } else {
        "**no**"
    }
}

/// Issue #27's bounds for one reference script at 2000x2000.
const BIG_SECONDS: f64 = 0.5;
const BIG_MEGABYTES: f64 = 300.0;

/// One run of a child to its end: wall seconds, CPU seconds (user and
/// system) and peak resident megabytes, all of that child alone.
#[cfg(unix)]
fn measure(mut command: Command) -> (f64, f64, f64) {
    let started = Instant::now();
    // Reaped by wait4 below, which also reports the child's own usage.
    #[allow(clippy::zombie_processes)]
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the dunlua binary starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `usage` is a plain C struct that wait4 fills in; the child
    // is ours and waited for only here.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &mut status, 0, &mut usage), pid, "wait4");
        usage
    };
    let wall = started.elapsed().as_secs_f64();
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        // Once more to show why.
        let again = command.stderr(std::process::Stdio::piped()).output();
        let why = again.map(|o| String::from_utf8_lossy(&o.stderr).into_owned());
        panic!("{command:?} failed ({status}): {why:?}");
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    // ru_maxrss is in bytes on macOS, kilobytes elsewhere.
    let unit = if cfg!(target_os = "macos") {
        1 << 20
    } else {
        1 << 10
    };
    (wall, cpu, usage.ru_maxrss as f64 / unit as f64)
}

/// Every reference script at 2000x2000, seed 1, as the README's table.
#[cfg(unix)]
fn big_maps() {
    let rounds = env_or("PEERS_BIG_ROUNDS", 3) as usize;
    if rounds == 0 {
        return;
    }
    let mut scripts: Vec<String> = std::fs::read_dir(root().join("scripts"))
        .expect("scripts/ lists")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".lua").then_some(name)
        })
        .collect();
    scripts.sort();
    let exe = env!("CARGO_BIN_EXE_dunlua");
    let mut runs: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); scripts.len()];
    for _ in 0..rounds {
        for (i, script) in scripts.iter().enumerate() {
            let mut command = Command::new(exe);
            command.current_dir(root()).args([
                &format!("scripts/{script}"),
                "--size",
                "2000x2000",
                "--seed",
                "1",
                "--ascii",
                "--max-instructions",
                "100000000000",
                "--max-memory",
                "4096",
                "--timeout",
                "600",
            ]);
            runs[i].push(measure(command));
        }
    }
    println!();
    println!(
        "every reference script at 2000x2000, seed 1, {rounds} rounds in turn: the fastest round"
    );
    println!("| script | wall | CPU | peak RSS | wall, all rounds | ≤ 0.5 s | ≤ 300 MB |");
    println!("| --- | ---: | ---: | ---: | --- | --- | --- |");
    for (script, runs) in scripts.iter().zip(&runs) {
        let &(wall, cpu, rss) = runs
            .iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a round");
        let slowest = runs.iter().map(|r| r.0).fold(0.0, f64::max);
        println!(
            "| `{script}` | {wall:.2} s | {cpu:.2} s | {rss:.0} MB | {wall:.2}-{slowest:.2} s | {} | {} |",
            met(wall <= BIG_SECONDS),
            met(rss <= BIG_MEGABYTES),
        );
    }
}

#[cfg(not(unix))]
fn big_maps() {
    println!("(the 2000x2000 table measures children with wait4: Unix only)");
}
