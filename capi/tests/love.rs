//! `lua/dunlua.lua`, the LÖVE/LuaJIT module over the C ABI, from real
//! clients: plain `luajit` running `love/driver.lua` (every reference
//! script's hashes, rooms, markers, kinds, cells, modules, levels and the
//! errors of hostile scripts and wrong calls) and Debian's `love` running
//! the headless game `love/game/` from a folder and from a `.love` archive
//! (scripts and modules read through `love.filesystem`, the library found
//! beside the game). What they print must equal what the Rust library (and
//! the `dunlua` command, when built) says. With `CI` set, a missing
//! `luajit`, `love` or `python3` (which zips the archive) fails the test
//! instead of skipping it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use dunlua::params::ParamValue;
use dunlua::{Generated, Generator, Limits};

mod support;
use support::{available, built_dir, shared_library};

fn capi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn repo() -> PathBuf {
    capi_dir().parent().unwrap().to_path_buf()
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Compares line by line, so a mismatch names its line.
fn assert_lines(printed: &str, want: &str) {
    for (i, (got, expected)) in printed.lines().zip(want.lines()).enumerate() {
        assert_eq!(got, expected, "line {}", i + 1);
    }
    assert_eq!(
        printed.lines().count(),
        want.lines().count(),
        "printed:\n{printed}"
    );
}

/// `scripts/*.lua`, by name.
fn reference_scripts() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("scripts"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".lua"))
        .map(|name| format!("scripts/{name}"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    names
}

const SEEDS: u64 = 10;

fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// What `dunlua SCRIPT --seed N --hash` prints (a line per level), from the
/// built command when it is there (CI builds it with the workspace's tests).
fn command_hashes(script: &Path, seed: u64) -> Option<String> {
    let binary = built_dir().join("dunlua");
    assert!(
        binary.exists() || std::env::var_os("CI").is_none(),
        "{} was not built: run `cargo test` on the whole workspace",
        binary.display()
    );
    binary.exists().then(|| {
        run(Command::new(&binary)
            .arg(script)
            .args(["--seed", &seed.to_string(), "--hash"]))
    })
}

/// The hash lines of every reference script and seed, as both clients
/// print them, checked against the command's `--hash` for seed 0.
fn hash_lines(scripts: &[String], with_seed_and_level: bool) -> String {
    let mut text = String::new();
    for script in scripts {
        let path = repo().join(script);
        let generator = Generator::file(&path).build().unwrap();
        for seed in 0..SEEDS {
            let map = generator.generate(seed).unwrap();
            let extra = if with_seed_and_level {
                format!(" {seed} 1")
            } else {
                String::new()
            };
            writeln!(text, "hash {script} {seed} {}{extra}", hex(map.hash())).unwrap();
            let levels: Vec<String> = generator
                .generate_levels(seed)
                .unwrap()
                .iter()
                .map(|g| hex(g.hash()))
                .collect();
            if seed == 0 {
                if let Some(printed) = command_hashes(&path, seed) {
                    assert_eq!(printed, levels.join("\n") + "\n", "{script} --hash");
                }
            }
            if generator.levels() > 1 {
                writeln!(text, "levels {script} {seed} {}", levels.join(" ")).unwrap();
            }
        }
        if with_seed_and_level {
            text += &describe(script, &generator.generate(1).unwrap());
        }
    }
    text
}

fn shortest(n: f64) -> String {
    format!("{n}")
}

/// What the driver's `describe` prints about a map.
fn describe(label: &str, map: &Generated) -> String {
    let rooms: Vec<String> = map
        .rooms()
        .iter()
        .map(|r| format!("{},{},{},{}", r.x1, r.y1, r.x2 - r.x1, r.y2 - r.y1))
        .collect();
    let markers: Vec<String> = map
        .markers()
        .iter()
        .map(|m| {
            let mut words = vec![format!("{}@{},{}", m.name, m.x, m.y)];
            for (key, value) in &m.props {
                words.push(match value {
                    ParamValue::Integer(i) => format!("{key}=number:{i}"),
                    ParamValue::Number(n) => format!("{key}=number:{}", shortest(*n)),
                    ParamValue::Boolean(b) => format!("{key}=boolean:{b}"),
                    ParamValue::Text(t) => format!("{key}=string:{t}"),
                });
            }
            words.join(",")
        })
        .collect();
    let rgb = |c: dunlua::map::Rgb| format!("{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    let kinds: Vec<String> = map
        .tile_kinds()
        .map(|(_, k)| {
            format!(
                "{},{},{},{},{},{}",
                k.name,
                k.glyph,
                rgb(k.color),
                rgb(k.background),
                k.walkable,
                k.transparent
            )
        })
        .collect();
    let (sx, sy) = map.start();
    let ids = map.tile_ids();
    let rows: Vec<String> = ids
        .chunks(map.width())
        .map(|row| row.iter().map(|&id| char::from(b'A' + id)).collect())
        .collect();
    let mut text = String::new();
    writeln!(text, "rooms {label} {} {}", rooms.len(), rooms.join(";")).unwrap();
    writeln!(
        text,
        "markers {label} {} {}",
        markers.len(),
        markers.join(";")
    )
    .unwrap();
    writeln!(text, "kinds {label} {}", kinds.join(";")).unwrap();
    writeln!(
        text,
        "start {label} {sx} {sy} {} true",
        map.tile_name(sx, sy).unwrap()
    )
    .unwrap();
    writeln!(
        text,
        "grid {label} {} {} {}",
        map.width(),
        map.height(),
        rows.join("/")
    )
    .unwrap();
    writeln!(text, "outside {label} nil nil nil false").unwrap();
    text
}

const ROOM_MODULE: &str = "return { carve = function(map)\n  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 10, 6))\nend }\n";
const MAIN_SCRIPT: &str = "local room = require('lib.room')\nreturn { width = 20, height = 10, generate = function(map)\n  room.carve(map)\n  map:set_start(2, 2)\nend }\n";
const MARKED_SCRIPT: &str = "return { width = 12, height = 8, generate = function(map)\n  map:carve_room(Rect.new(1, 1, 10, 6))\n  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })\n  map:add_room(Rect.new(6, 1, 5, 6))\n  map:set_start(2, 2)\n  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })\n  map:mark(9, 5, 'chest')\nend }\n";
const LEVELS_SCRIPT: &str = "return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)\n  map:carve_room(Rect.new(1, 1, 17, 7))\n  map:set_start(2 + ctx.level, 3)\nend }\n";
const FLAKY_SCRIPT: &str = "return { width = 10, height = 8, params = { size = 3 }, generate = function(map, rng, p)\n  map:carve_room(Rect.new(1, 1, 6, 5))\n  if rng.seed == 2 then\n    local t = nil\n    return t.field\n  end\n  map:set_start(p.size, 2)\nend }\n";
const ONE_LINE: &str = "return { width = 10, height = 8, generate = function(map) map:carve_room(Rect.new(1, 1, 6, 5)) map:set_start(2, 2) end }";
/// A top level that spins: the game's budget stops it while the generator
/// is built.
const TOP_SPIN_SCRIPT: &str =
    "local n = 0 while true do n = n + 1 end\nreturn { generate = function() end }\n";
/// A script holding a NUL byte, in a long string.
const NUL_SCRIPT: &str = "local s = [[a\0b]]\nreturn { width = 8, height = 8, generate = function(map)\n  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 4 + #s, 5))\n  map:set_start(2, 2)\nend }\n";
const SPIN_SCRIPT: &str = "return { generate = function(map) while true do end end }\n";
const SEED_ERROR: &str =
    "a seed is an integer from 0 to 2^64-1 (a number, uint64 cdata or decimal string), got";

fn cave() -> dunlua::GeneratorBuilder {
    Generator::source("mods/cave.lua", MAIN_SCRIPT).module("lib/room.lua", ROOM_MODULE)
}

fn flaky() -> dunlua::GeneratorBuilder {
    Generator::source("flaky.lua", FLAKY_SCRIPT)
}

fn build_error(builder: dunlua::GeneratorBuilder) -> String {
    format!("dunlua: {}", builder.build().err().unwrap().message)
}

/// Every line `love/driver.lua` must print, from the Rust library.
fn driver_expected(scripts: &[String]) -> String {
    let mut text = "load_error false dunlua: cannot load the dunlua C library (libdunlua_capi.so; \
        build it with `cargo build --release -p dunlua-capi` and put it beside the game, or call \
        dunlua.load(path)). Tried:|  /nonexistent/libdunlua_capi.so: cannot open shared object \
        file: No such file or directory\ndefault_load_error false dunlua: cannot load the dunlua C library\n\
        loaded true 0.1.0\n"
        .to_string();
    text += &hash_lines(scripts, true);
    let mut line = |s: String| {
        text += &s;
        text.push('\n');
    };
    let rooms_path = format!("{}/scripts/rooms.lua", repo().display());
    let cave_gen = cave().build().unwrap();
    let cave1 = hex(cave_gen.generate(1).unwrap().hash());
    let cave2 = hex(cave_gen.generate(2).unwrap().hash());
    line(format!("module_table {cave1}"));
    line(format!("module_path {cave1}"));
    line(format!("module_loader {cave1} {cave2} lib/room.lua"));
    line(format!(
        "error missing_module {}",
        build_error(Generator::source("mods/cave.lua", MAIN_SCRIPT).loader(|_| Ok(None)))
    ));
    line(
        "error loader_error dunlua: mods/lib/room.lua:1: loading module: the pack is locked".into(),
    );
    let spawn = std::fs::read_to_string(repo().join("scripts/lib/spawn.lua")).unwrap();
    let levels_path = format!("{}/scripts/levels.lua", repo().display());
    let with_modules = Generator::file(&levels_path)
        .module("lib/spawn.lua", spawn)
        .build()
        .unwrap();
    line(format!(
        "file_with_modules {}",
        hex(with_modules.generate(4).unwrap().hash())
    ));
    let one_line = Generator::source("script.lua", ONE_LINE)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    line(format!(
        "one_line {} {}",
        hex(one_line.hash()),
        hex(one_line.hash())
    ));
    let rooms7 = Generator::file(&rooms_path)
        .build()
        .unwrap()
        .generate(7)
        .unwrap();
    line(format!("explicit_path {}", hex(rooms7.hash())));
    let params = Generator::file(&rooms_path)
        .param("max_rooms", 12)
        .build()
        .unwrap();
    line(format!(
        "params {}",
        hex(params.generate(7).unwrap().hash())
    ));
    let sized = Generator::file(repo().join("scripts/caves.lua"))
        .size(40, 30)
        .param("fill", 0.5)
        .build()
        .unwrap()
        .generate(3)
        .unwrap();
    line(format!("size 40 30 {}", hex(sized.hash())));
    line(format!("size_named {}", hex(sized.hash())));
    let deep: Vec<String> = Generator::source("deep.lua", LEVELS_SCRIPT)
        .build()
        .unwrap()
        .generate_levels(5)
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, g)| format!("{}@{}", hex(g.hash()), i + 1))
        .collect();
    line(format!("levels_script 3 {}", deep.join(" ")));
    line("levels_option 2 2".into());

    let marked = Generator::source("marked.lua", MARKED_SCRIPT)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    text_push(&mut line, describe("marked", &marked));
    line("room_names hall throne nil nil".into());
    line("types number boolean string".into());
    line(format!("json {}", marked.to_json().replace('\n', "\\n")));
    let rooms1 = Generator::file(&rooms_path)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    line(format!(
        "json_rooms {}",
        rooms1.to_json().replace('\n', "\\n")
    ));

    line(format!(
        "error syntax {}",
        build_error(Generator::source(
            "broken.lua",
            "return { generate = function(map)\n  map:fill(\nend }\n"
        ))
    ));
    let flaky_gen = flaky().build().unwrap();
    let ok1 = hex(flaky_gen.generate(1).unwrap().hash());
    let failure = flaky_gen.generate(2).err().unwrap();
    line(format!("before {ok1}"));
    line(format!("error runtime dunlua: {}", failure.message));
    line(format!("traceback {}", failure.traceback.join("|")));
    line(format!(
        "after {}",
        hex(flaky_gen.generate(3).unwrap().hash())
    ));
    line(format!("try nil {} DUNLUA_STATUS_RUNTIME", failure.message));
    line(format!("try_ok {ok1}"));
    line(format!(
        "error unknown_param {}",
        build_error(flaky().param("sise", 3))
    ));
    line(format!(
        "error wrong_type {}",
        build_error(flaky().param("size", "big"))
    ));
    line(format!(
        "error wrong_type_number {}",
        build_error(flaky().param("size", 2.5))
    ));
    line("error table_param dunlua: param 'size': a table is no parameter value (integer, number, boolean or string)".into());
    line("error unknown_option dunlua: unknown option 'budjet'; options: attempts, budget, levels, loader, memory, modules, name, params, path, size, source, timeout".into());
    line(format!(
        "error bad_size {}",
        build_error(flaky().size(0, 5))
    ));
    line(format!(
        "error missing_file {}",
        build_error(Generator::file("no/such/script.lua"))
    ));
    line(format!("error bad_seed dunlua: {SEED_ERROR} -1"));
    line(format!("error fraction_seed dunlua: {SEED_ERROR} 1.5"));
    line(format!("string_seed {ok1} {ok1}"));
    let big = Generator::file(&rooms_path)
        .build()
        .unwrap()
        .generate(u64::MAX)
        .unwrap();
    line(format!("big_seed {}", hex(big.hash())));
    let spin = Generator::source("spin.lua", SPIN_SCRIPT)
        .limit_names(dunlua::LimitNames::C)
        .limits(Limits {
            max_instructions: 1_000_000,
            timeout: None,
            ..Limits::default()
        })
        .build()
        .unwrap();
    line(format!(
        "error budget dunlua: {}",
        spin.generate(1).err().unwrap().message
    ));
    line(format!(
        "error budget_again dunlua: {}",
        spin.generate(2).err().unwrap().message
    ));
    let timed = Generator::source("spin.lua", SPIN_SCRIPT)
        .limit_names(dunlua::LimitNames::C)
        .limits(Limits {
            max_instructions: 1_000_000_000_000_000,
            timeout: Some(Duration::from_millis(200)),
            ..Limits::default()
        })
        .build()
        .unwrap()
        .generate(1)
        .err()
        .unwrap();
    line(format!(
        "timeout DUNLUA_STATUS_TIMED_OUT {} true",
        timed.message
    ));
    line("memory DUNLUA_STATUS_LIMIT".into());
    line("default_deadline DUNLUA_STATUS_TIMED_OUT true".into());
    line(format!(
        "error top_level_budget {}",
        build_error(
            Generator::source("top.lua", TOP_SPIN_SCRIPT)
                .limit_names(dunlua::LimitNames::C)
                .limits(Limits {
                    max_instructions: 1_000_000,
                    ..Limits::default()
                })
        )
    ));
    let nul = Generator::source("nul.lua", NUL_SCRIPT).build().unwrap();
    line(format!("nul_text {}", hex(nul.generate(3).unwrap().hash())));
    line("error freed dunlua: this generator was freed".into());
    line("error freed_map map: this map was freed".into());
    line("each_freed false map: this map was freed during map:each".into());
    line("loop 1".into());
    assert!(failure
        .message
        .starts_with("flaky.lua:5: attempt to index a nil value"));
    assert!(timed
        .message
        .starts_with("spin.lua:1: timed out after 0.2 s"));
    text
}

fn text_push(line: &mut impl FnMut(String), text: String) {
    for l in text.lines() {
        line(l.to_string());
    }
}

#[test]
fn luajit_games_get_the_libraries_maps_and_errors_through_the_module() {
    if !available("luajit", "the LÖVE module's tests") {
        return;
    }
    let library = shared_library();
    let scripts = reference_scripts();
    let printed = run(Command::new("luajit")
        .arg(capi_dir().join("tests/love/driver.lua"))
        .arg(&library)
        .arg(repo())
        .arg(SEEDS.to_string())
        .args(&scripts)
        // The default places must not find the library (cargo's search
        // path for tests holds it): the driver loads it by its path.
        .env_remove("DUNLUA_LIBRARY")
        .env_remove("LD_LIBRARY_PATH")
        .current_dir(repo()));
    assert_lines(&printed, &driver_expected(&scripts));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A script needing a module that is nowhere: an error at `new`.
const NEEDS_MISSING: &str =
    "local x = require('lib.nope')\nreturn { generate = function(map) end }\n";
/// A script needing it only on seed 1: an error for that seed only.
const SOMETIMES: &str = "return { width = 12, height = 8, generate = function(map, rng)\n  map:carve_room(Rect.new(1, 1, 10, 6))\n  if rng.seed == 1 then require('lib.nope') end\n  map:set_start(2, 2)\nend }\n";
const BROKEN: &str = "return { generate = function(map)\n  map:fill(\nend }\n";

/// What `love/game/main.lua` must print.
fn game_expected(beside: &Path, scripts: &[String]) -> String {
    let mut text = format!("library {}\n", beside.display());
    let hashes = hash_lines(scripts, false);
    for script in scripts {
        writeln!(text, "in_love {script} true false").unwrap();
        for l in hashes.lines() {
            if l.split(' ').nth(1) == Some(script) {
                text += l;
                text.push('\n');
            }
        }
    }
    let cave1 = hex(cave().build().unwrap().generate(1).unwrap().hash());
    writeln!(text, "mod {cave1}").unwrap();
    writeln!(text, "mod_text {cave1}").unwrap();
    let sources = |name: &str, source: &str| {
        Generator::source(name, source).module("lib/room.lua", ROOM_MODULE)
    };
    writeln!(
        text,
        "broken false {}",
        build_error(sources("mods/broken.lua", BROKEN))
    )
    .unwrap();
    writeln!(
        text,
        "missing false {}",
        build_error(sources("mods/needs_missing.lua", NEEDS_MISSING))
    )
    .unwrap();
    let sometimes = sources("mods/sometimes.lua", SOMETIMES).build().unwrap();
    writeln!(
        text,
        "sometimes nil DUNLUA_STATUS_RUNTIME {}",
        sometimes.generate(1).err().unwrap().message
    )
    .unwrap();
    writeln!(
        text,
        "sometimes_next {}",
        hex(sometimes.generate(2).unwrap().hash())
    )
    .unwrap();
    text
}

/// Runs `love` on a game (folder or `.love`) without a display: the game's
/// conf.lua turns the window, graphics and sound off, and SDL's dummy
/// drivers cover the rest. The library is found beside the game, not
/// through the environment.
fn run_love(scratch: &Path, game: &str, scripts: &[String]) -> String {
    run(Command::new("love")
        .arg(game)
        .arg(SEEDS.to_string())
        .args(scripts)
        .current_dir(scratch)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("DUNLUA_LIBRARY")
        .env_remove("DISPLAY")
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy"))
}

#[test]
fn a_love_game_reads_scripts_and_modules_through_love_filesystem_from_a_folder_and_a_love_archive()
{
    if !available("love", "the LÖVE module's tests")
        || !available("python3", "the LÖVE module's tests")
    {
        return;
    }
    let library = shared_library();
    let scratch = std::env::temp_dir().join(format!("dunlua-love-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let game = scratch.join("game");
    copy_dir(&capi_dir().join("tests/love/game"), &game);
    std::fs::copy(repo().join("lua/dunlua.lua"), game.join("dunlua.lua")).unwrap();
    copy_dir(&repo().join("scripts"), &game.join("scripts"));
    let mods = game.join("mods");
    std::fs::create_dir_all(mods.join("lib")).unwrap();
    for (name, text) in [
        ("cave.lua", MAIN_SCRIPT),
        ("lib/room.lua", ROOM_MODULE),
        ("broken.lua", BROKEN),
        ("needs_missing.lua", NEEDS_MISSING),
        ("sometimes.lua", SOMETIMES),
    ] {
        std::fs::write(mods.join(name), text).unwrap();
    }
    let beside = scratch.join(library.file_name().unwrap());
    std::fs::copy(&library, &beside).unwrap();
    let scripts = reference_scripts();
    let want = game_expected(&beside, &scripts);

    // From the folder: `scripts/...` is only in the game, not in the
    // folder love runs in.
    assert_lines(&run_love(&scratch, "game", &scripts), &want);

    // From a .love archive, with the folder gone: only love.filesystem can
    // read the scripts and their modules.
    let entries: Vec<String> = std::fs::read_dir(&game)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    run(Command::new("python3")
        .args(["-m", "zipfile", "-c", "../game.love"])
        .args(&entries)
        .current_dir(&game));
    std::fs::remove_dir_all(&game).unwrap();
    assert_lines(&run_love(&scratch, "game.love", &scripts), &want);
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// `examples/love` (a window, so under `xvfb-run`) in its `--smoke` mode:
/// it draws a few frames, walks, prints the seed and hash and quits; the
/// hash must be the library's for its own `dungeon.lua` (read through
/// love.filesystem) and for a script on disk given on its command line.
#[test]
fn the_love_example_game_runs_and_shows_the_librarys_maps() {
    if !available("love", "the LÖVE module's tests")
        || !available("xvfb-run", "the LÖVE module's tests")
    {
        return;
    }
    let library = shared_library();
    for (args, script, seed) in [
        (vec![], "examples/love/dungeon.lua", 1),
        (vec!["scripts/caves.lua", "3"], "scripts/caves.lua", 3),
    ] {
        let printed = run(Command::new("xvfb-run")
            .args(["-a", "love", "examples/love"])
            .args(&args)
            .arg("--smoke")
            .current_dir(repo())
            .env("DUNLUA_LIBRARY", &library)
            .env("SDL_AUDIODRIVER", "dummy"));
        let hash = Generator::file(repo().join(script))
            .build()
            .unwrap()
            .generate(seed)
            .unwrap()
            .hash();
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(lines.len(), 2, "{printed}");
        assert!(lines[0].starts_with("walked from "), "{printed}");
        assert_eq!(
            lines[1],
            format!("seed {seed} hash {} message nil", hex(hash)),
            "{args:?}"
        );
    }
}

/// A script that requires `module` and takes its width from it (10 when
/// it gives none): what `love/files.lua` makes of a text script too.
fn requiring(module: &str) -> String {
    format!(
        "local m = require({module:?})\n\
         return {{ width = type(m) == 'table' and m.width or 10, height = 6,\n  \
         generate = function(map) map:fill('floor') map:set_start(0, 0) end }}\n"
    )
}

/// Runs `command`, killed if it takes more than `limit` (a module read
/// from a FIFO waits for a writer forever): what it printed.
fn run_within(command: &mut Command, limit: Duration) -> String {
    use std::process::Stdio;
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            let output = child.wait_with_output().unwrap();
            panic!(
                "{command:?} still ran after {limit:?} (a read that waits forever?); it printed:\n{}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// `folder/lib`: `given.lua` (width 7), `outside.lua` a symlink to
/// `secret` (a module that would print its secret in the message),
/// `fifo.lua` a FIFO, `dir.lua` a folder; and `folder/uses_NAME.lua`
/// requiring each.
#[cfg(unix)]
fn hostile_modules(folder: &Path, secret: &Path) {
    std::fs::create_dir_all(folder.join("lib/dir.lua")).unwrap();
    std::fs::write(folder.join("lib/given.lua"), "return { width = 7 }\n").unwrap();
    std::os::unix::fs::symlink(secret, folder.join("lib/outside.lua")).unwrap();
    run(Command::new("mkfifo").arg(folder.join("lib/fifo.lua")));
    for name in ["given", "outside", "fifo", "dir"] {
        std::fs::write(
            folder.join(format!("uses_{name}.lua")),
            requiring(&format!("lib.{name}")),
        )
        .unwrap();
    }
}

/// What `love/files.lua` printed, by "LABEL OPTION".
fn results(printed: &str) -> std::collections::HashMap<String, String> {
    assert!(
        !printed.contains("SECRET"),
        "a module was read from outside the script's folder:\n{printed}"
    );
    printed
        .lines()
        .map(|line| {
            let mut words = line.splitn(3, ' ');
            let (label, option) = (words.next().unwrap(), words.next().unwrap());
            (
                format!("{label} {option}"),
                words.next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn expect(results: &std::collections::HashMap<String, String>, case: &str, want: &str) {
    let got = results
        .get(case)
        .unwrap_or_else(|| panic!("no case {case}"));
    assert!(got.contains(want), "{case}: {got:?} does not say {want:?}");
}

/// A game giving `modules` or a `loader` still has every other module of
/// a script on disk read by the library alone, never by the LuaJIT module
/// itself: a symlink out of the script's folder, a FIFO (its reader
/// waited forever, past the generator's timeout), a folder named like a
/// module and the script itself as a FIFO are never read; without options
/// the library refuses them saying why. The module given is used.
#[cfg(unix)]
#[test]
fn luajit_modules_not_supplied_are_read_by_the_library_alone() {
    if !available("luajit", "the LÖVE module's tests") {
        return;
    }
    let library = shared_library();
    let scratch = std::env::temp_dir().join(format!("dunlua-luajit-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let secret = scratch.join("secret.lua");
    std::fs::write(&secret, "error('SECRET-OUTSIDE-FOLDER', 0)\n").unwrap();
    hostile_modules(&scratch.join("mod"), &secret);
    run(Command::new("mkfifo").arg(scratch.join("mod/fifo_script.lua")));

    let mut cases = String::new();
    for name in ["given", "outside", "fifo", "dir"] {
        for option in ["none", "modules", "loader", "text"] {
            writeln!(
                cases,
                "{{ {name:?}, \"mod/uses_{name}.lua\", {option:?} }},"
            )
            .unwrap();
        }
    }
    cases += "{ \"script_fifo\", \"mod/fifo_script.lua\", \"modules\" },\n";
    cases += "{ \"given\", \"mod/uses_given.lua\", \"empty\" },\n";
    let chunk = format!(
        "package.path = [[{lua}/?.lua;{tests}/?.lua;]] .. package.path\n\
         local dunlua = require('dunlua')\n\
         dunlua.load([[{library}]])\n\
         require('files')(dunlua, print, {{\n{cases}}})\n",
        lua = repo().join("lua").display(),
        tests = capi_dir().join("tests/love").display(),
        library = library.display(),
    );
    let printed = run_within(
        Command::new("luajit")
            .arg("-e")
            .arg(chunk)
            .current_dir(&scratch),
        Duration::from_secs(60),
    );
    let got = results(&printed);
    expect(&got, "given none", "ok 7");
    expect(&got, "outside none", "outside the script's folder");
    expect(&got, "fifo none", "not a regular file (a FIFO)");
    expect(&got, "dir none", "not a regular file (a folder)");
    for option in ["modules", "loader"] {
        expect(&got, &format!("given {option}"), "ok 9");
        for name in ["outside", "fifo", "dir"] {
            expect(
                &got,
                &format!("{name} {option}"),
                &format!("not found: no lib/{name}.lua among the modules the game supplied"),
            );
        }
    }
    for name in ["given", "outside", "fifo", "dir"] {
        expect(
            &got,
            &format!("{name} text"),
            &format!("not found: no lib/{name}.lua among the modules the game supplied"),
        );
    }
    expect(&got, "script_fifo modules", "not a regular file (a FIFO)");
    // `modules = {}` is modules given: none of them, and no folder.
    expect(
        &got,
        "given empty",
        "not found: no lib/given.lua among the modules the game supplied",
    );
    assert_eq!(got.len(), 18, "{printed}");
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// The same in LÖVE, for a script from love.filesystem: its modules are
/// read from love.filesystem beside it, as regular files of at most the
/// library's 16 MiB (a FIFO or a folder refused, a symlink never followed,
/// even with LÖVE's symlinks on), never from the disk: a module the game
/// does not have was read relative to the folder LÖVE ran in. A script on
/// disk is the library's, as in plain LuaJIT.
#[cfg(unix)]
#[test]
fn love_modules_not_supplied_come_from_love_filesystem_alone() {
    if !available("love", "the LÖVE module's tests") {
        return;
    }
    let library = shared_library();
    let scratch = std::env::temp_dir().join(format!("dunlua-love-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let game = scratch.join("game");
    let mods = game.join("mods");
    std::fs::create_dir_all(&mods).unwrap();
    let secret = scratch.join("secret.lua");
    std::fs::write(&secret, "error('SECRET-OUTSIDE-FOLDER', 0)\n").unwrap();
    hostile_modules(&mods, &secret);
    hostile_modules(&scratch.join("disk"), &secret);
    // Where the game is run: a module the game does not have was read here.
    std::fs::create_dir_all(scratch.join("mods/lib")).unwrap();
    std::fs::write(scratch.join("mods/lib/cwd.lua"), "error('SECRET-CWD', 0)\n").unwrap();
    std::fs::write(mods.join("uses_cwd.lua"), requiring("lib.cwd")).unwrap();
    // A folder of modules that is a symlink out of the game.
    std::fs::create_dir_all(scratch.join("elsewhere")).unwrap();
    std::fs::write(
        scratch.join("elsewhere/m.lua"),
        "error('SECRET-LINKED', 0)\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(scratch.join("elsewhere"), mods.join("lib/linked")).unwrap();
    std::fs::write(mods.join("uses_linked.lua"), requiring("lib.linked.m")).unwrap();

    std::fs::copy(
        capi_dir().join("tests/love/game/conf.lua"),
        game.join("conf.lua"),
    )
    .unwrap();
    std::fs::copy(repo().join("lua/dunlua.lua"), game.join("dunlua.lua")).unwrap();
    std::fs::copy(
        capi_dir().join("tests/love/files.lua"),
        game.join("files.lua"),
    )
    .unwrap();
    std::fs::copy(&library, scratch.join(library.file_name().unwrap())).unwrap();
    let mut cases = String::new();
    for name in ["given", "outside", "fifo", "dir", "cwd", "linked"] {
        for option in ["none", "modules", "loader"] {
            writeln!(
                cases,
                "{{ {name:?}, \"mods/uses_{name}.lua\", {option:?} }},"
            )
            .unwrap();
        }
    }
    cases += "{ \"given\", \"mods/uses_given.lua\", \"text\" },\n";
    cases += "{ \"cwd\", \"mods/uses_cwd.lua\", \"text\" },\n";
    for option in ["none", "modules"] {
        writeln!(
            cases,
            "{{ \"outside\", [[{}]], {option:?}, \"disk_outside\" }},",
            scratch.join("disk/uses_outside.lua").display()
        )
        .unwrap();
    }
    let mut linked = String::new();
    for name in ["outside", "linked", "fifo"] {
        writeln!(
            linked,
            "{{ {name:?}, \"mods/uses_{name}.lua\", \"none\", \"symlinks_{name}\" }},"
        )
        .unwrap();
    }
    std::fs::write(
        game.join("main.lua"),
        format!(
            "local dunlua = require('dunlua')\n\
             local function out(line) io.write(line, '\\n') end\n\
             function love.load()\n  \
               local ok, err = pcall(function()\n    \
                 dunlua.load()\n    \
                 require('files')(dunlua, out, {{\n{cases}}})\n    \
                 love.filesystem.setSymlinksEnabled(true)\n    \
                 require('files')(dunlua, out, {{\n{linked}}})\n  \
               end)\n  \
               io.stdout:flush()\n  \
               if not ok then io.stderr:write('error ', tostring(err), '\\n') end\n  \
               love.event.quit(ok and 0 or 1)\n\
             end\n"
        ),
    )
    .unwrap();
    let printed = run_within(
        Command::new("love")
            .arg("game")
            .current_dir(&scratch)
            .env_remove("LD_LIBRARY_PATH")
            .env_remove("DUNLUA_LIBRARY")
            .env_remove("DISPLAY")
            .env("SDL_VIDEODRIVER", "dummy")
            .env("SDL_AUDIODRIVER", "dummy"),
        Duration::from_secs(60),
    );
    let got = results(&printed);
    expect(&got, "given none", "ok 7");
    expect(&got, "given modules", "ok 9");
    expect(&got, "given loader", "ok 9");
    expect(&got, "given text", "ok 7");
    let refused = |name: &str, why: &str| {
        format!("loading module: refused: cannot read mods/lib/{name}.lua: {why}")
    };
    let not_found = |name: &str| format!("not found: no lib/{name}.lua among the modules");
    // Modules the game does not give come from love.filesystem; with a
    // loader, from it alone.
    for option in ["none", "modules"] {
        let case = |name: &str| format!("{name} {option}");
        expect(
            &got,
            &case("dir"),
            &refused("dir", "not a regular file (a folder)"),
        );
        expect(
            &got,
            &case("fifo"),
            &refused("fifo", "not a regular file (neither a file nor a folder)"),
        );
        expect(
            &got,
            &case("outside"),
            &refused("outside", "not a regular file (a symlink)"),
        );
        expect(
            &got,
            &case("linked"),
            &refused("linked/m", "mods/lib/linked is a symlink"),
        );
        expect(&got, &case("cwd"), &not_found("cwd"));
    }
    for name in ["outside", "fifo", "dir", "cwd"] {
        expect(&got, &format!("{name} loader"), &not_found(name));
    }
    expect(&got, "linked loader", &not_found("linked/m"));
    expect(&got, "cwd text", &not_found("cwd"));
    // A script on disk: the library's own reader.
    expect(&got, "disk_outside none", "outside the script's folder");
    expect(&got, "disk_outside modules", &not_found("outside"));
    // LÖVE's symlinks on change nothing.
    expect(
        &got,
        "symlinks_outside none",
        &refused("outside", "not a regular file (a symlink)"),
    );
    expect(
        &got,
        "symlinks_linked none",
        &refused("linked/m", "mods/lib/linked is a symlink"),
    );
    expect(
        &got,
        "symlinks_fifo none",
        &refused("fifo", "not a regular file (neither a file nor a folder)"),
    );
    assert_eq!(got.len(), 25, "{printed}");
    std::fs::remove_dir_all(&scratch).unwrap();
}
