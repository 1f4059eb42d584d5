//! The command line end to end: the map on stdout, seeds, params, sizes,
//! files, and scripts that require their own modules.

use dunlua::json::{read_map, JsonMap};

use crate::util::{dunlua, dunlua_in, Scratch};

#[test]
fn rooms_seed_7_prints_an_80x50_map_with_the_player_in_the_first_room() {
    let run = dunlua(&["scripts/rooms.lua", "--seed", "7"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(rows.len(), 50);
    assert!(rows.iter().all(|r| r.chars().count() == 80));
    assert_eq!(run.stdout.matches('@').count(), 1);

    let scratch = Scratch::new();
    let json_path = scratch.path().join("map.json");
    let with_json = dunlua(&[
        "scripts/rooms.lua",
        "--seed",
        "7",
        "--out",
        json_path.to_str().unwrap(),
        "--ascii",
    ]);
    assert_eq!(with_json.stdout, run.stdout);
    let json: JsonMap =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let first = &json.rooms[0];
    let centre = ((first.x1 + first.x2) / 2, (first.y1 + first.y2) / 2);
    let start = json.start.as_ref().unwrap();
    assert_eq!((start.x, start.y), centre);
    assert_eq!(
        rows[centre.1 as usize].chars().nth(centre.0 as usize),
        Some('@')
    );
}

#[test]
fn the_same_seed_prints_the_same_bytes() {
    let a = dunlua(&["scripts/rooms.lua", "--seed", "7"]);
    let b = dunlua(&["scripts/rooms.lua", "--seed", "7"]);
    assert_eq!(a.stdout, b.stdout);
    let c = dunlua(&["scripts/rooms.lua", "--seed", "8"]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn without_a_seed_one_is_chosen_and_printed() {
    let run = dunlua(&["scripts/rooms.lua"]);
    assert_eq!(run.code, 0);
    let seed = run
        .stderr
        .strip_prefix("dunlua: seed ")
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the seed is on stderr");
    let again = dunlua(&["scripts/rooms.lua", "--seed", seed]);
    assert_eq!(again.stdout, run.stdout);
}

#[test]
fn params_lists_the_declared_parameters() {
    let run = dunlua(&["scripts/rooms_yeti.lua", "--params"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "Rooms by dice (Fat Old Yeti) (80x50)\nbuggy_intersection = false (boolean)\n\
         features = false (boolean)\nmax_rooms = 30 (integer)\nmax_size = 10 (integer)\nmin_size = 6 (integer)\n"
    );
}

#[test]
fn params_and_size_change_the_map() {
    let base = dunlua(&["scripts/rooms.lua", "--seed", "3"]);
    let fewer = dunlua(&["scripts/rooms.lua", "--seed", "3", "-p", "max_rooms=2"]);
    assert_eq!(fewer.code, 0);
    assert_ne!(base.stdout, fewer.stdout);
    let big = dunlua(&["scripts/rooms.lua", "--seed", "3", "--size", "120x40"]);
    assert_eq!(big.code, 0, "{}", big.stderr);
    let rows: Vec<&str> = big.stdout.lines().collect();
    assert_eq!((rows[0].len(), rows.len()), (120, 40));
}

#[test]
fn out_writes_text_and_json_and_stays_quiet_on_stdout() {
    let scratch = Scratch::new();
    let rooms = crate::util::root().join("scripts/rooms.lua");
    let run = dunlua_in(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "42",
            "--out",
            "map.txt",
            "--out",
            "map.json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("dunlua: wrote map.txt")
            && run.stderr.contains("dunlua: wrote map.json")
    );
    let ascii = dunlua(&["scripts/rooms.lua", "--seed", "42", "--ascii"]);
    let text = std::fs::read_to_string(scratch.path().join("map.txt")).unwrap();
    assert_eq!(text, ascii.stdout);

    let json_text = std::fs::read_to_string(scratch.path().join("map.json")).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&json_text).unwrap();
    for key in [
        "format", "width", "height", "seed", "script", "name", "params", "rows", "legend", "rooms",
        "start", "markers",
    ] {
        assert!(raw.get(key).is_some(), "JSON lacks {key}");
    }
    assert_eq!(raw["format"], 2);
    assert_eq!(raw["seed"], 42);
    assert_eq!(raw["params"]["max_rooms"], 30);
    assert_eq!(raw["legend"]["."]["name"], "floor");
    let json: JsonMap = serde_json::from_str(&json_text).unwrap();
    assert_eq!(read_map(&json).unwrap().to_string(), text);
}

#[test]
fn scripts_require_modules_from_their_folder_and_define_tiles() {
    let scratch = Scratch::new();
    scratch.write(
        "lib/shapes.lua",
        "tiles.define(\"lava\", { glyph = \"%\", color = \"#ff4000\" })\n\
         local M = {}\nfunction M.pool(map, x, y) map:set(x, y, \"lava\") end\nreturn M\n",
    );
    scratch.write(
        "cave.lua",
        "local shapes = require(\"lib.shapes\")\nlocal again = require(\"lib.shapes\")\n\
         assert(shapes == again, \"modules load once\")\n\
         return { name = \"Lava\", width = 6, height = 3, generate = function(map, rng)\n\
           tiles.define(\"moss\", { glyph = \"\\\"\", walkable = true })\n\
           map:h_tunnel(1, 3, 1)\n\
           shapes.pool(map, 4, 1)\n map:set(1, 1, \"moss\")\n map:set_start(2, 1)\n\
           print(\"carved\", map:count(\"floor\"))\nend }\n",
    );
    let run = dunlua_in(scratch.path(), &["cave.lua", "--seed", "1", "--ascii"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "######\n#\"@.%#\n######\n");
    assert_eq!(run.stderr, "carved\t2\n", "print goes to stderr");
}

#[test]
fn without_a_display_the_map_is_printed_with_a_hint() {
    let run = dunlua(&["scripts/rooms.lua", "--seed", "7"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        dunlua(&["scripts/rooms.lua", "--seed", "7", "--ascii"]).stdout
    );
    assert_eq!(run.stderr.lines().count(), 1);
    assert!(
        run.stderr.starts_with("dunlua: no display") && run.stderr.contains("--out map.png"),
        "{}",
        run.stderr
    );
    let forced = dunlua(&["scripts/rooms.lua", "--seed", "7", "--window"]);
    assert_eq!(forced.code, 1);
    assert!(forced.stdout.is_empty());
    assert!(
        forced.stderr.starts_with("dunlua: cannot open a window: "),
        "{}",
        forced.stderr
    );
}

#[test]
fn help_and_version_exit_zero() {
    let help = dunlua(&["--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("--seed") && help.stdout.contains("Exit codes"));
    assert_eq!(dunlua(&["--version"]).code, 0);
}

#[test]
fn hash_and_png_outputs() {
    let run = dunlua(&["scripts/rooms.lua", "--seed", "7", "--hash"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout.len(),
        17,
        "16 hex digits and a newline: {:?}",
        run.stdout
    );
    let other = dunlua(&["scripts/rooms.lua", "--seed", "8", "--hash"]);
    assert_ne!(run.stdout, other.stdout);

    let scratch = Scratch::new();
    let png_path = scratch.path().join("map.png");
    let run = dunlua(&[
        "scripts/rooms.lua",
        "--seed",
        "7",
        "--out",
        png_path.to_str().unwrap(),
        "--png-style",
        "cells",
        "--cell-size",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (160, 100));
}

/// A script that lets `pairs()` over string keys decide its map (what the
/// guide tells authors not to do) still makes the same map in every
/// process and in a reused VM: the vendored Lua's string hash seed is fixed
/// (`.cargo/config.toml`), not taken from the clock and addresses.
#[test]
fn pairs_over_string_keys_makes_the_same_map_in_every_run() {
    let scratch = Scratch::new();
    scratch.write(
        "pairs.lua",
        "return { width = 30, height = 20, generate = function(map, rng)\n\
           local rooms = {}\n\
           for _, name in ipairs({'hall', 'crypt', 'vault', 'well', 'forge', 'den', 'nave', 'loft'}) do\n\
             rooms[name .. string.rep('x', rng:int(4))] = true\n\
           end\n\
           for y = 1, 18 do map:set(1, y, 'floor') end\n\
           local y = 1\n\
           for name in pairs(rooms) do\n\
             for x = 2, 2 * #name do map:set(x, y, 'floor') end\n\
             y = y + 2\n\
           end\n\
           map:set_start(1, 1)\n\
         end }\n",
    );
    let hashes: Vec<String> = (0..4)
        .map(|_| {
            let run = dunlua_in(scratch.path(), &["pairs.lua", "--seed", "5", "--hash"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            assert!(!run.stderr.contains("string hash"), "{}", run.stderr);
            run.stdout
        })
        .collect();
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
    let digests: Vec<String> = (0..2)
        .map(|_| {
            let run = dunlua_in(scratch.path(), &["check", "pairs.lua", "--seeds", "0..40"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let digest = run.stdout.lines().find(|l| l.starts_with("maps digest"));
            digest.expect("a digest line").to_string()
        })
        .collect();
    assert_eq!(digests[0], digests[1]);
}

/// `tostring` of a table, function or coroutine and `string.format("%s")`
/// of one name it by its number in the run (`table: #1`), not its address:
/// a script that marks cells with such names makes one map in every
/// process, and a reused VM numbers from 1 again each run (`check` with one
/// worker, whose VM runs every seed, and with two give one digest).
/// `print` writes what `tostring` gives, as Lua's own does: it wrote
/// "a table" for every table (two told apart by nothing) and left a
/// `__tostring` unused; a script's own `tostring = f` does not change it.
#[test]
fn print_writes_what_tostring_gives() {
    let scratch = Scratch::new();
    scratch.write(
        "p.lua",
        "return { width = 20, height = 10, generate = function(map)\n\
           map:fill('floor'); map:set_start(1, 1)\n\
           local a, b = {}, setmetatable({}, { __tostring = function() return 'B!' end })\n\
           print(a, b, a, tostring(a), print, nil, 1.5)\n\
           tostring = function() return 'mine' end\n\
           print({})\n\
           local bad = setmetatable({}, { __tostring = function() error({ code = 7 }) end })\n\
           local ok, e = pcall(print, bad)\n\
           print(ok, e.code)\n\
         end }\n",
    );
    let run = dunlua_in(scratch.path(), &["p.lua", "--seed", "3", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines = run.stderr.lines();
    assert_eq!(
        lines.next(),
        Some("table: #1\tB!\ttable: #1\ttable: #1\tfunction: #2\tnil\t1.5")
    );
    assert_eq!(lines.next(), Some("table: #3"));
    // A `__tostring` that raises: pcall gets the value it raised.
    assert_eq!(lines.next(), Some("false\t7"));
}

#[test]
fn tostring_names_objects_by_number_not_address() {
    let scratch = Scratch::new();
    scratch.write(
        "names.lua",
        "return { width = 20, height = 10, generate = function(map, rng)\n\
           map:fill_rect(Rect.new(1, 1, 18, 8), 'floor'); map:set_start(1, 1)\n\
           local things = { {}, print, coroutine.create(print), {} }\n\
           for i = 1, rng:range(1, 4) do\n\
             local t = things[rng:int(#things) + 1]\n\
             map:mark(i, 2, tostring(t)); map:mark(i, 3, string.format('%s', t))\n\
           end\n\
           print(tostring(things[1]), string.format('%s', things[2]), tostring(things[1]))\n\
         end }\n",
    );
    let runs: Vec<_> = (0..3)
        .map(|_| dunlua_in(scratch.path(), &["names.lua", "--seed", "3", "--hash"]))
        .collect();
    assert_eq!(runs[0].code, 0, "{}", runs[0].stderr);
    assert!(runs.iter().all(|r| r.stdout == runs[0].stdout));
    assert!(runs[0].stderr.starts_with("table: #"), "{}", runs[0].stderr);
    let first = runs[0].stderr.lines().next().unwrap();
    let names: Vec<&str> = first.split('\t').collect();
    assert_eq!(names[0], names[2], "the same table, the same name");
    assert!(names[1].starts_with("function: #"), "{first}");
    let digest = |jobs: &str| {
        let run = dunlua_in(
            scratch.path(),
            &["check", "names.lua", "--seeds", "0..30", "--jobs", jobs],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let line = run.stdout.lines().find(|l| l.starts_with("maps digest"));
        line.expect("a digest line").to_string()
    };
    assert_eq!(digest("1"), digest("2"));
}

/// A script's own `__tostring` text is shown as it returned it, even when
/// it ends like an address (`color: ff`, `id: 0x1f`, behind a protected
/// metatable too); objects with only a `__name` still get a number.
#[test]
fn a_scripts_own_tostring_text_is_never_renamed() {
    let scratch = Scratch::new();
    scratch.write(
        "own.lua",
        "return { width = 10, height = 5, generate = function(map)\n\
           map:fill('floor'); map:set_start(0, 0)\n\
           local a = setmetatable({}, {__tostring = function() return 'color: ff' end})\n\
           local b = setmetatable({}, {__tostring = function() return 'id: 0x1f' end, __metatable = 'no'})\n\
           local c = setmetatable({}, {__name = 'Thing'})\n\
           print(tostring(a), string.format('%s', b), tostring(c), string.format('%s', a))\n\
         end }\n",
    );
    let run = dunlua_in(scratch.path(), &["own.lua", "--seed", "1", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "color: ff\tid: 0x1f\tThing: #1\tcolor: ff",
        "{}",
        run.stderr
    );
}

/// Without `--seed`, the seed picked is said only for a script that was
/// read and compiled: a mistyped file name gets its one-line error alone.
#[test]
fn a_missing_script_without_a_seed_is_one_line() {
    let scratch = crate::util::Scratch::new();
    let run = crate::util::dunlua_in(scratch.path(), &["nope.lua", "--ascii"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("dunlua: cannot read script nope.lua"),
        "{}",
        run.stderr
    );
    scratch.write("ok.lua", "return { width = 8, height = 8, generate = function(map) map:fill('floor') map:set_start(1, 1) end }\n");
    let run = crate::util::dunlua_in(scratch.path(), &["ok.lua", "--ascii"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("(no --seed given; pass --seed"),
        "{}",
        run.stderr
    );
    // A usage error is one line without --seed too: no seed to note, as
    // there is no map to make again (the note came first, a second line).
    for args in [
        &["ok.lua", "-p", "gap=3", "--hash"][..],
        &["ok.lua", "--size", "9000x9000", "--levels", "2", "--hash"],
    ] {
        let run = crate::util::dunlua_in(scratch.path(), args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    }
}
