//! One reader for every input file, one rule for every output: a tileset
//! is read as the script and its modules are (regular files only, never
//! more than a cap), and no output replaces a file the run read, whatever
//! name reaches it (symlink, hard link, a level's `-K` file, a Tiled
//! map's `.tsx` beside it). An output is written as a new file, even
//! where a symlink stood.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{dunlua_in, files_in, Run, Scratch};

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

const MODULE: &str = "return { size = 4 }\n";

/// A script that requires `lib.helper`, in a scratch folder.
fn with_module(levels: u32) -> Scratch {
    let scratch = Scratch::new();
    scratch.write(
        "x.lua",
        &format!("local helper = require('lib.helper')\nreturn {{ levels = {levels}, width = 12, height = 8, generate = function(map)\n  map:fill('floor') map:set_start(1, 1)\nend }}\n"),
    );
    scratch.write("lib/helper.lua", MODULE);
    scratch
}

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

/// Runs `x.lua` with `args`, expecting a refusal with `code` that says
/// `says`, with the module and the folder as they were.
fn refused(scratch: &Scratch, args: &[&str], code: i32, says: &str) {
    let before = files_in(scratch.path());
    let mut all = vec!["x.lua", "--seed", "1"];
    all.extend_from_slice(args);
    let run = dunlua_in(scratch.path(), &all);
    assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
    assert_eq!(
        run.stderr.lines().next().unwrap_or(""),
        format!("dunlua: {says}"),
        "{args:?}"
    );
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("lib/helper.lua")).unwrap(),
        MODULE,
        "{args:?}: the module is untouched"
    );
    assert_eq!(
        files_in(scratch.path()),
        before,
        "{args:?}: nothing written"
    );
    assert_eq!(
        files_in(&scratch.path().join("lib")),
        ["helper.lua"],
        "{args:?}: nothing written"
    );
}

/// A module is known only once the script ran, but naming it as an output
/// is the same mistake as naming the script: bad usage (exit 2).
#[test]
fn an_output_never_replaces_a_module_the_script_required() {
    let scratch = with_module(1);
    refused(
        &scratch,
        &["--out", "lib/helper.lua"],
        2,
        "--out lib/helper.lua: that is the module lib/helper.lua the script requires; choose another file name",
    );
    // Another output beside it changes nothing: all or none.
    refused(
        &scratch,
        &["--out", "m.txt", "--out", "./lib/helper.lua"],
        2,
        "--out ./lib/helper.lua: that is the module lib/helper.lua the script requires; choose another file name",
    );
    // The same file by another name: a hard link, a symlink.
    std::fs::hard_link(
        scratch.path().join("lib/helper.lua"),
        scratch.path().join("hard.lua"),
    )
    .unwrap();
    refused(
        &scratch,
        &["--out", "hard.lua"],
        2,
        "--out hard.lua: that is the module lib/helper.lua the script requires; choose another file name",
    );
    symlink("lib/helper.lua", scratch.path().join("soft.lua")).unwrap();
    refused(
        &scratch,
        &["--out", "soft.lua"],
        2,
        "--out soft.lua: that is the module lib/helper.lua the script requires; choose another file name",
    );
    // A Tiled map's .tsx beside it.
    symlink("lib/helper.lua", scratch.path().join("m.tsx")).unwrap();
    refused(
        &scratch,
        &["--out", "m.tmx"],
        2,
        "--out m.tmx (its file m.tsx): that is the module lib/helper.lua the script requires; choose another file name",
    );
}

#[test]
fn a_module_reached_through_a_symlink_is_protected_too() {
    let scratch = Scratch::new();
    scratch.write(
        "x.lua",
        "local helper = require('lib.helper')\nreturn { width = 12, height = 8, generate = function(map)\n  map:fill('floor') map:set_start(1, 1)\nend }\n",
    );
    scratch.write("real.lua", MODULE);
    std::fs::create_dir(scratch.path().join("lib")).unwrap();
    symlink("../real.lua", scratch.path().join("lib/helper.lua")).unwrap();
    let run = dunlua_in(
        scratch.path(),
        &["x.lua", "--seed", "1", "--out", "real.lua"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "dunlua: --out real.lua: that is the module lib/helper.lua the script requires; choose another file name\n"
    );
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("real.lua")).unwrap(),
        MODULE
    );
}

#[test]
fn a_level_file_never_replaces_a_module() {
    let scratch = with_module(2);
    std::fs::hard_link(
        scratch.path().join("lib/helper.lua"),
        scratch.path().join("h-2.lua"),
    )
    .unwrap();
    let says = "--out h.lua (its file h-2.lua): that is the module lib/helper.lua the script requires; choose another file name";
    refused(&scratch, &["--out", "h.lua"], 2, says);
    // Without the module in the way, the levels are written.
    std::fs::remove_file(scratch.path().join("h-2.lua")).unwrap();
    let run = dunlua_in(scratch.path(), &["x.lua", "--seed", "1", "--out", "h.lua"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        files_in(scratch.path()),
        [
            "h-1.lua",
            "h-1.tiles.png",
            "h-2.lua",
            "h-2.tiles.png",
            "lib",
            "x.lua"
        ]
    );
}

#[test]
fn an_output_never_replaces_the_tileset_or_its_image() {
    let scratch = with_module(1);
    scratch.write(
        "art.json",
        r#"{"name":"art","tilewidth":16,"tileheight":16,"tilecount":2,"columns":2,
            "image":"art.png","imagewidth":32,"imageheight":16,
            "tiles":[{"id":0,"type":"wall"},{"id":1,"type":"floor"}]}"#,
    );
    scratch.write("art.png", "not really a picture");
    refused(
        &scratch,
        &["--tileset", "art.json", "--out", "art.json"],
        2,
        "--out art.json: that is the tileset art.json (--tileset); choose another file name",
    );
    refused(
        &scratch,
        &[
            "--tileset",
            "art.json",
            "--out",
            "m.tmj",
            "--out",
            "art.png",
        ],
        2,
        &format!(
            "--out art.png: that is the tileset's image {}; choose another file name",
            scratch
                .path()
                .canonicalize()
                .unwrap()
                .join("art.png")
                .display()
        ),
    );
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("art.png")).unwrap(),
        "not really a picture"
    );
}

/// The mode a new file gets here (0666 less the umask).
fn fresh_mode(dir: &Path) -> u32 {
    let probe = dir.join("probe");
    std::fs::write(&probe, "").unwrap();
    let mode = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o7777;
    std::fs::remove_file(probe).unwrap();
    mode
}

#[test]
fn an_output_that_is_a_symlink_is_replaced_not_written_through() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    let fresh = fresh_mode(scratch.path());
    for (i, mode) in [0o600, 0o777].into_iter().enumerate() {
        let target = scratch.write(&format!("target{i}.txt"), "someone else's file\n");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode)).unwrap();
        let out = scratch.path().join(format!("out{i}.txt"));
        symlink(&target, &out).unwrap();
        let name = format!("out{i}.txt");
        let run = dunlua_in(scratch.path(), &["x.lua", "--seed", "1", "--out", &name]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let meta = std::fs::symlink_metadata(&out).unwrap();
        assert!(meta.file_type().is_file(), "the link is replaced by a file");
        assert_eq!(
            meta.permissions().mode() & 0o7777,
            fresh,
            "a new file's mode, not the link target's {mode:o}"
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().lines().count(),
            8,
            "the map"
        );
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "someone else's file\n",
            "the target is untouched"
        );
        let target_mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o7777;
        assert_eq!(target_mode, mode);
    }
}

#[test]
fn a_replaced_output_gets_a_new_files_mode() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    let fresh = fresh_mode(scratch.path());
    let old = scratch.write("map.txt", "old\n");
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = dunlua_in(
        scratch.path(),
        &["x.lua", "--seed", "1", "--out", "map.txt"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mode = std::fs::metadata(&old).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, fresh);
}

/// A tileset whose XML cannot be read says why once (quick-xml's error
/// repeated its cause in its own text).
#[test]
fn a_broken_tileset_says_why_once() {
    let scratch = Scratch::new();
    scratch.write("x.lua", SCRIPT);
    scratch.write(
        "bad.tsx",
        "<?xml version=\"1.0\"?><tileset name=\"x\" tilewidth=\"8\" tileheight=\"8\">\
         <tile id=\"0\"><properties><property name=\"a\" value=\"&bad;\"/></properties></tile></tileset>",
    );
    let run = guarded(
        scratch.path(),
        &[
            "x.lua",
            "--seed",
            "1",
            "--out",
            "m.tmx",
            "--tileset",
            "bad.tsx",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("dunlua: --tileset bad.tsx: "),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.matches("Unrecognized escape symbol").count(),
        1,
        "{}",
        run.stderr
    );
}
