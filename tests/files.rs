//! One reader for every input file: a tileset is read as the script and
//! its modules are (regular files only, never more than a cap).

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{files_in, Run, Scratch};

/// Not a speed limit: only what tells a hang from a slow machine.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Runs `dunlua ARGS` in `dir` with at most 2 GB of address space (a
/// read that never ends dies instead of filling the machine's memory) and
/// fails if it is still running after [`HANG_GUARD`].
fn guarded(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_dunlua"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG_GUARD {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("dunlua {args:?} still ran after {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

const SCRIPT: &str = "return { width = 12, height = 8, generate = function(map)\n\
                      map:fill('floor') map:set_start(1, 1)\n\
                      end }\n";

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[test]
fn a_fifo_tileset_is_refused_at_once() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    mkfifo(&scratch.path().join("art.tsx"));
    let started = Instant::now();
    let run = guarded(
        scratch.path(),
        &[
            "x.lua",
            "--seed",
            "1",
            "--out",
            "m.tmj",
            "--tileset",
            "art.tsx",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "dunlua: --tileset art.tsx: cannot read it: not a regular file (a FIFO)\n"
    );
    assert!(started.elapsed() < Duration::from_secs(20), "not waited on");
    assert_eq!(files_in(scratch.path()), ["art.tsx", "x.lua"]);
}

#[test]
fn a_tileset_that_never_ends_is_refused() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    symlink("/dev/zero", scratch.path().join("zero.tsj")).unwrap();
    let run = guarded(
        scratch.path(),
        &[
            "x.lua",
            "--seed",
            "1",
            "--out",
            "m.tmj",
            "--tileset",
            "zero.tsj",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let first = run.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("dunlua: --tileset zero.tsj: ")
            && (first.contains("not a regular file") || first.contains("too big")),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn a_tileset_too_big_is_refused() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    let big = std::fs::File::create(scratch.path().join("big.tsx")).unwrap();
    big.set_len(64 << 20).unwrap();
    let run = guarded(
        scratch.path(),
        &[
            "x.lua",
            "--seed",
            "1",
            "--out",
            "m.tmj",
            "--tileset",
            "big.tsx",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "dunlua: --tileset big.tsx: cannot read it: too big: 67108864 bytes is more than the 16 MiB a tileset may have\n"
    );
}
