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
}
