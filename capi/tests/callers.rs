//! The C ABI from three real callers, as games use it: a C program compiled
//! with `cc` against `include/dunlua.h` (linked to the shared and to the
//! static library), a Python program through `ctypes` and a LuaJIT program
//! through `ffi` (as a LÖVE game would). Each prints the same lines
//! (`callers/generate.*`); they must equal what the Rust library and the
//! command line say about the same script, seeds and parameters, error
//! paths included. With `CI` set, a missing `cc`, `python3` or `luajit`
//! fails the test instead of skipping that caller.

use std::path::{Path, PathBuf};
use std::process::Command;

use dunlua::params::ParamValue;
use dunlua::script::{self, Request};
use dunlua::{Generator, Limits};

mod support;
use support::{available, build_libraries, built_dir, shared_library};

fn capi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rooms() -> PathBuf {
    capi_dir().join("../scripts/rooms.lua")
}

const MAIN_SCRIPT: &str = "local room = require('lib.room')\n\
return { width = 20, height = 10, generate = function(map)\n  room.carve(map)\n  map:set_start(2, 2)\nend }\n";
/// Three linked levels, as the callers write it.
const LEVELS_SCRIPT: &str = "return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)\n  map:carve_room(Rect.new(1, 1, 17, 7))\n  map:set_start(2 + ctx.level, 3)\nend }\n";
/// A spawn with data and named rooms, as the callers write it.
const MARKED_SCRIPT: &str = "return { width = 12, height = 8, generate = function(map)\n  map:carve_room(Rect.new(1, 1, 10, 6))\n  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })\n  map:add_room(Rect.new(6, 1, 5, 6))\n  map:set_start(2, 2)\n  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })\nend }\n";
const ROOM_MODULE: &str = "return { carve = function(map)\n  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 10, 6))\nend }\n";

/// The hash the command line's run gives (`dunlua SCRIPT --seed N -p ...
/// --hash`), from the same code path, checked against the built `dunlua`
/// binary too when it is there.
fn command_hash(seed: u64, params: &[&str]) -> String {
    let mut request = Request::new(rooms(), seed);
    request.params = params.iter().map(|p| p.to_string()).collect();
    let ours = format!("{:016x}", script::run(&request).unwrap().map.hash64());
    let binary = built_dir().join("dunlua");
    // `cargo test` on the workspace builds the command for the main crate's
    // tests; CI runs that, so there it must be here.
    assert!(
        binary.exists() || std::env::var_os("CI").is_none(),
        "{} was not built: run `cargo test` on the whole workspace",
        binary.display()
    );
    if binary.exists() {
        let mut args = vec![rooms().display().to_string(), "--hash".into()];
        args.extend(["--seed".into(), seed.to_string()]);
        for p in params {
            args.extend(["-p".to_string(), p.to_string()]);
        }
        let output = Command::new(&binary).args(&args).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            ours,
            "{args:?}"
        );
    }
    ours
}

/// Every line a caller must print, from the Rust library.
fn expected() -> String {
    let level = Generator::file(rooms())
        .build()
        .unwrap()
        .generate(7)
        .unwrap();
    let (sx, sy) = level.start();
    let floors = level.tile_ids().iter().filter(|&&t| t == 1).count();
    let first = level.rooms()[0];
    let unknown = Generator::file(rooms())
        .param("max_room", 12)
        .build()
        .err()
        .unwrap();
    let wrong = Generator::file(rooms())
        .param("max_rooms", "many")
        .build()
        .err()
        .unwrap();
    let loader = Generator::source("mods/cave.lua", MAIN_SCRIPT)
        .module("lib/room.lua", ROOM_MODULE)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    let spin = Generator::source(
        "spin.lua",
        "return { generate = function(map) while true do end end }\n",
    )
    .limit_names(dunlua::LimitNames::C)
    .limits(Limits {
        max_instructions: 1_000_000,
        timeout: None,
        ..Limits::default()
    })
    .build()
    .unwrap()
    .generate(1)
    .err()
    .unwrap();
    let deep: Vec<String> = Generator::source("deep.lua", LEVELS_SCRIPT)
        .build()
        .unwrap()
        .generate_levels(5)
        .unwrap()
        .iter()
        .map(|g| format!("{:016x}", g.hash()))
        .collect();
    let marked = Generator::source("marked.lua", MARKED_SCRIPT)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    let props: Vec<String> = marked.markers()[0]
        .props
        .iter()
        .map(|(key, value)| match value {
            ParamValue::Integer(i) => format!("{key}=i:{i}"),
            ParamValue::Number(n) => format!("{key}=n:{n}"),
            ParamValue::Boolean(b) => format!("{key}=b:{}", u8::from(*b)),
            ParamValue::Text(t) => format!("{key}=t:{t}"),
        })
        .collect();
    assert_eq!(
        props,
        ["boss=b:1", "hp=i:7", "loot=t:gold", "speed=n:1.5"],
        "sorted by key, typed"
    );
    let lines = [
        "version 0.1.0".to_string(),
        "status_names DUNLUA_STATUS_LIMIT unknown unknown".into(),
        format!("hash {}", command_hash(7, &[])),
        "size 80 50".into(),
        format!("start_walkable 1 {}", level.tile_name(sx, sy).unwrap()),
        "kinds 6 wall # 888888".into(),
        format!("floors {floors}"),
        format!(
            "rooms {} first {} {} {} {}",
            level.rooms().len(),
            first.x1,
            first.y1,
            first.x2,
            first.y2
        ),
        "json_has_hash 1".into(),
        "out_of_range 13".into(),
        format!("hash_param {}", command_hash(7, &["max_rooms=12"])),
        format!("unknown_param 4 {}", unknown.message),
        format!("wrong_type 4 {}", wrong.message),
        format!("loader {:016x}", loader.hash()),
        "syntax 5 broken.lua:3: unexpected symbol near 'end'".into(),
        "syntax_generate 5 1".into(),
        format!("limit 8 {}", spin.message),
        format!("levels 3 0 3 {} last 3", deep.join(" ")),
        "levels_room 4 3 this script makes 3 levels; out has room for 2".into(),
        "set_levels 0 2".into(),
        format!("props goblin 4 {} past_end 13", props.join(" ")),
        "room_names hall throne (none)".into(),
        "bad_handle 2 2 2 2".into(),
        "bad_handle_message the generator handle is NULL".into(),
    ];
    assert!(unknown
        .message
        .starts_with("unknown parameter 'max_room'; did you mean 'max_rooms'? declared: "));
    assert!(spin.message.starts_with("spin.lua:1: instruction budget"));
    lines.join("\n") + "\n"
}

/// Whether `program` can be run; with `CI` set it must be.
fn run(program: &Path, args: &[&Path], env: &[(&str, &Path)]) -> String {
    let mut command = Command::new(program);
    command.args(args).current_dir(capi_dir().join("callers"));
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{} failed ({}):\n{}\n{}",
        program.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_c_program_gets_the_command_lines_maps_and_errors() {
    if !available("cc", "every caller") {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("dunlua-capi-c-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    build_libraries();
    let source = capi_dir().join("callers/generate.c");
    let include = capi_dir().join("include");
    let dir = built_dir();
    let shared = scratch.join("generate-shared");
    let statically = scratch.join("generate-static");
    let compile = |args: Vec<String>| {
        let output = Command::new("cc").args(&args).output().unwrap();
        assert!(
            output.status.success(),
            "cc {args:?}:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.stderr.is_empty(),
            "warnings: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let common = |out: &Path| {
        vec![
            "-std=c99".into(),
            "-Wall".into(),
            "-Wextra".into(),
            "-Werror".into(),
            source.display().to_string(),
            format!("-I{}", include.display()),
            "-o".into(),
            out.display().to_string(),
        ]
    };
    let mut args = common(&shared);
    args.extend([
        format!("-L{}", dir.display()),
        "-ldunlua_capi".into(),
        format!("-Wl,-rpath,{}", dir.display()),
    ]);
    compile(args);
    let mut args = common(&statically);
    args.extend([
        dir.join("libdunlua_capi.a").display().to_string(),
        "-lpthread".into(),
        "-ldl".into(),
        "-lm".into(),
    ]);
    compile(args);
    let want = expected();
    for program in [&shared, &statically] {
        assert_eq!(
            run(program, &[&rooms()], &[]),
            want,
            "{}",
            program.display()
        );
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn a_python_program_gets_them_through_ctypes() {
    if !available("python3", "every caller") {
        return;
    }
    let script = capi_dir().join("callers/generate.py");
    let printed = run(
        Path::new("python3"),
        &[&script, &shared_library(), &rooms()],
        &[],
    );
    assert_eq!(printed, expected());
}

#[test]
fn a_luajit_program_gets_them_through_ffi() {
    if !available("luajit", "every caller") {
        return;
    }
    let script = capi_dir().join("callers/generate.lua");
    let printed = run(
        Path::new("luajit"),
        &[&script, &shared_library(), &rooms()],
        &[],
    );
    assert_eq!(printed, expected());
}

/// `callers/fuzz.c` calls every function of `dunlua.h` with wrong values
/// (stale, made-up and wrong-kind handles, statuses that are none,
/// capacities and lengths that are not the buffer's, NULLs) and checks that
/// dunlua answers with known statuses and writes nothing it should not
/// (canaries around every out-parameter and array): natively over a few
/// seeds, then under valgrind memcheck, where any memory error or definite
/// leak fails. `DUNLUA_FUZZ_CALLS` sets the calls under valgrind (10,000 by
/// default, under a minute).
#[test]
fn a_fuzzing_c_program_breaks_no_promise_under_valgrind() {
    if !available("cc", "every caller") || !available("valgrind", "every caller") {
        return;
    }
    let source = capi_dir().join("callers/fuzz.c");
    let fuzz_text = std::fs::read_to_string(&source).unwrap();
    let header = std::fs::read_to_string(capi_dir().join("include/dunlua.h")).unwrap();
    // The declarations: `dunlua_name(` outside comments.
    let functions: Vec<&str> = header
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .filter_map(|line| {
            let start = line.find("dunlua_")?;
            let name = &line[start..line[start..].find('(')? + start];
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
                .then_some(name)
        })
        .collect();
    assert!(functions.len() > 30, "{functions:?}");
    for function in &functions {
        assert!(
            fuzz_text.contains(&format!("{function}(")),
            "callers/fuzz.c never calls {function}"
        );
    }
    let scratch = std::env::temp_dir().join(format!("dunlua-capi-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    build_libraries();
    let program = scratch.join("fuzz");
    let dir = built_dir();
    let output = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg(&source)
        .arg(format!("-I{}", capi_dir().join("include").display()))
        .arg(format!("-L{}", dir.display()))
        .args(["-ldunlua_capi", "-lm"])
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .arg("-o")
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "cc fuzz.c:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let script = Path::new("../../scripts/rooms.lua");
    for seed in ["1", "2", "3"] {
        let printed = run(
            &program,
            &[Path::new("20000"), Path::new(seed), script],
            &[],
        );
        assert!(printed.ends_with(", 0 promises broken\n"), "{printed}");
    }
    let calls = std::env::var("DUNLUA_FUZZ_CALLS").unwrap_or_else(|_| "10000".into());
    let valgrind = [
        "--tool=memcheck",
        "--error-exitcode=99",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite",
        "--show-possibly-lost=no",
        "-q",
    ];
    let mut args: Vec<&Path> = valgrind.iter().map(Path::new).collect();
    args.extend([
        program.as_path(),
        Path::new(&calls),
        Path::new("0x5eed"),
        script,
    ]);
    let printed = run(Path::new("valgrind"), &args, &[]);
    assert!(printed.ends_with(", 0 promises broken\n"), "{printed}");
    eprintln!("under valgrind: {printed}");
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// What a script nesting C calls as deep as Lua allows must get on a small
/// thread: each way of nesting (a `gsub` callback, an `__index` function, a
/// coroutine in a coroutine, a chain of 300 `require`s through the host)
/// ends in "C stack overflow", which the script catches.
const DEEP_SCRIPT: &str = r#"
local function deep_gsub(n) return (("x"):gsub("x", function() return deep_gsub(n + 1) end)) end
local function deep_index(n)
  return setmetatable({}, { __index = function(_, k) return deep_index(n + 1)[k] end })
end
local function deep_coroutine(n)
  return coroutine.wrap(function() return deep_coroutine(n + 1) end)()
end
local caught = {
  select(2, pcall(deep_gsub, 1)),
  select(2, pcall(function() return deep_index(1).x end)),
  select(2, pcall(deep_coroutine, 1)),
  select(2, pcall(require, "m1")),
}
for i, err in ipairs(caught) do
  assert(tostring(err):find("stack overflow"), "nesting " .. i .. ": " .. tostring(err))
end
assert(#caught == 4)
return { width = 20, height = 10, generate = function(map)
  map:fill("floor")
  map:set_start(1, 1)
end }
"#;

/// Compiles `callers/SOURCE` into `program`, linked to the shared library
/// (and pthreads), warnings as errors.
fn compile_caller(source: &str, program: &Path) {
    let dir = built_dir();
    let output = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg(capi_dir().join("callers").join(source))
        .arg(format!("-I{}", capi_dir().join("include").display()))
        .arg(format!("-L{}", dir.display()))
        .args(["-ldunlua_capi", "-lpthread"])
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .arg("-o")
        .arg(program)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{source}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A game's worker thread with a small stack: 200 nested C calls took more
/// than 512 KiB (a thread's default on macOS) and crashed the game. Lua
/// now stops them at a floor the host sets on the thread that runs
/// (`src/script/raw/cstack.rs`): the run fails, saying the thread's stack
/// is too small.
#[test]
fn deep_c_calls_on_a_small_thread_are_an_error_not_a_crash() {
    if !available("cc", "every caller") {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("dunlua-capi-stack-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join("deep.lua"), DEEP_SCRIPT).unwrap();
    for i in 1..=300 {
        let next = format!("return require('m{}')\n", i + 1);
        std::fs::write(scratch.join(format!("m{i}.lua")), next).unwrap();
    }
    std::fs::write(scratch.join("m301.lua"), "return 1\n").unwrap();
    build_libraries();
    let program = scratch.join("small_stack");
    compile_caller("small_stack.c", &program);
    let script = scratch.join("deep.lua");
    let run = |kib: &str| {
        let output = Command::new(&program)
            .arg(&script)
            .arg(kib)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "{kib} KiB: the caller died ({}):\n{printed}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        let lines: Vec<String> = printed.lines().map(|l| l.trim_end().to_string()).collect();
        assert_eq!(lines.len(), 3, "{kib} KiB:\n{printed}");
        lines
    };
    // Stack enough for Lua's 200 nested C calls: every overflow is caught
    // at that count, and the map is the same whatever the stack.
    let mut hashes = Vec::new();
    for kib in ["1024", "8192"] {
        let lines = run(kib);
        assert_eq!(lines[0], "build 0", "{kib} KiB: {lines:?}");
        assert_eq!(lines[1], "generate 0", "{kib} KiB: {lines:?}");
        assert_ne!(lines[2], "hash 0000000000000000", "{kib} KiB: {lines:?}");
        hashes.push(lines[2].clone());
    }
    assert_eq!(hashes[0], hashes[1]);
    // Less: the run ends with an error no pcall catches (the depth a script
    // could catch an overflow at would depend on the stack), never a crash;
    // under 320 KiB, before the script starts (on 64 KiB, the raising of
    // that error recursed past the stack's end).
    for kib in ["32", "64", "80", "128", "256", "384", "512"] {
        let lines = run(kib);
        assert!(
            lines[0].starts_with("build 8 ") && lines[0].contains("C stack exhausted"),
            "{kib} KiB: {lines:?}"
        );
        assert_eq!(lines[2], "hash 0000000000000000", "{kib} KiB: {lines:?}");
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// A script whose map turns on how Lua writes and reads numbers: a room 10
/// wide only when `tostring(0.5)` is "0.5", `string.format("%.2f")` is
/// "1.50" and `tonumber("0,5")` is nil, as in the C locale.
const LOCALE_SCRIPT: &str = r#"return { width = 30, height = 20, params = { f = 0.5 },
  generate = function(map, rng, p)
    map:fill("wall")
    local c = tostring(p.f) == "0.5" and string.format("%.2f", 1.5) == "1.50"
      and tonumber("0,5") == nil and tonumber("0.5") == 0.5 and ("%g"):format(0.25) == "0.25"
    map:carve_room(Rect.new(1, 1, c and 10 or 20, 8))
    map:set_start(3, 3)
    map:mark(4, 4, "x", { t = tostring(p.f) })
  end }
"#;

/// A game in a German locale (a comma for the decimal point), set with
/// `setlocale(LC_ALL, "")`, gets the command line's map: it got another
/// (`tostring(0.5)` was "0,5"). The locale is made with `localedef` into
/// a folder of the test's own (`LOCPATH`).
#[test]
fn a_game_in_another_locale_gets_the_same_maps() {
    if !available("cc", "every caller") || !available("localedef", "the locale test") {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("dunlua-capi-locale-{}", std::process::id()));
    let locales = scratch.join("locales");
    std::fs::create_dir_all(&locales).unwrap();
    let made = Command::new("localedef")
        .args(["-i", "de_DE", "-f", "UTF-8"])
        .arg(locales.join("de_DE.UTF-8"))
        .output()
        .unwrap();
    // localedef warns (exit 1) over a few of the locale's entries, and
    // writes it all the same.
    assert!(
        locales.join("de_DE.UTF-8").exists(),
        "localedef could not make de_DE.UTF-8 (package `locales`): {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let script = scratch.join("numbers.lua");
    std::fs::write(&script, LOCALE_SCRIPT).unwrap();
    build_libraries();
    let program = scratch.join("locale");
    compile_caller("locale.c", &program);
    for seed in [1u64, 2] {
        let want = Generator::file(&script)
            .build()
            .unwrap()
            .generate(seed)
            .unwrap();
        // In the C locale, the 10-wide room.
        let c_locale = Generator::source("c.lua", LOCALE_SCRIPT.replace("c and 10 or 20", "10"))
            .build()
            .unwrap()
            .generate(seed)
            .unwrap();
        assert_eq!(want.map.hash64(), c_locale.map.hash64());
        let printed = run(
            &program,
            &[&script, Path::new(&seed.to_string())],
            &[("LC_ALL", Path::new("de_DE.UTF-8")), ("LOCPATH", &locales)],
        );
        assert_eq!(
            printed,
            format!("hash {:016x}\ngame 0,5\n", want.map.hash64()),
            "seed {seed}"
        );
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}
