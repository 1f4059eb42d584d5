//! Linked levels: `levels = N` in a script (or `--levels`) makes N maps per
//! seed, each generated knowing the one above (`ctx.above`); their streams
//! are specified; the exports, `check`, `--hash` and the library carry
//! every level.

use crate::util::{dunlua, dunlua_in, files_in, Scratch};

/// Each level marks its first draw, its ctx and what it sees above.
const PROBE: &str = "return { levels = 3, width = 12, height = 6,\n\
  generate = function(map, rng, p, ctx)\n\
    map:carve_room(Rect.new(0, 0, 11, 5))\n\
    map:set_start(1, 1)\n\
    local above = ctx.above and (ctx.above.level .. ':' .. ctx.above:get(2, 1) .. ':' .. #ctx.above:markers()) or 'none'\n\
    map:set(2, 1, 'stairs_down')\n\
    map:mark(3, 3, 'probe', { draw = rng:float(), level = ctx.level, levels = ctx.levels, seed = ctx.seed, above = above })\n\
  end }\n";

/// FNV-1a 64 over text, written out again here.
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The first `rng:float()` of a stream: PCG-XSH-RR 64/32 as
/// `Pcg32::new(seed, 0xa02bdbf7bb3c0a7)` seeds it, written out again here.
fn first_float(stream_seed: u64) -> f64 {
    const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
    let increment = (0x0a02_bdbf_7bb3_c0a7_u64 << 1) | 1;
    let step = |s: u64| s.wrapping_mul(MULTIPLIER).wrapping_add(increment);
    let state = step(stream_seed.wrapping_add(increment));
    let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
    let first = xorshifted.rotate_right((state >> 59) as u32);
    first as f64 / 4_294_967_296.0
}

fn prop(m: &dunlua::map::Marker, key: &str) -> dunlua::params::ParamValue {
    m.props
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("no {key} in {m:?}"))
}

#[test]
fn each_level_draws_from_its_specified_stream_and_sees_the_one_above() {
    use dunlua::params::ParamValue::{Integer, Number, Text};
    let scratch = Scratch::new();
    let path = scratch.write("probe.lua", PROBE);
    let seed = 123_456_789;
    let levels = dunlua::Generator::file(&path)
        .build()
        .unwrap()
        .generate_levels(seed)
        .unwrap();
    assert_eq!(levels.len(), 3);
    for (k, g) in levels.iter().enumerate() {
        let level = k as u64 + 1;
        let probe = &g.markers()[0];
        // Level 1 draws from the seed as a one-level script would; level k
        // from the seed xor FNV-1a("level-k").
        let stream = if level == 1 {
            seed
        } else {
            seed ^ fnv(&format!("level-{level}"))
        };
        assert_eq!(dunlua::script::level_seed(seed, level as u32), stream);
        assert_eq!(
            prop(probe, "draw"),
            Number(first_float(stream)),
            "level {level}"
        );
        assert_eq!(prop(probe, "level"), Integer(level as i64));
        assert_eq!(prop(probe, "levels"), Integer(3));
        assert_eq!(prop(probe, "seed"), Integer(seed as i64));
        let above = match level {
            1 => "none".to_string(),
            _ => format!("{}:stairs_down:1", level - 1),
        };
        assert_eq!(prop(probe, "above"), Text(above));
        assert_eq!((g.provenance.level, g.provenance.levels), (level as u32, 3));
    }
    // The first level of a dungeon is the map a one-level run makes.
    let one = dunlua::Generator::file(&path).levels(1).build().unwrap();
    assert_eq!(one.levels(), 1);
    let single = one.generate_levels(seed).unwrap();
    assert_eq!(single.len(), 1);
    assert_eq!(
        prop(&single[0].markers()[0], "draw"),
        prop(&levels[0].markers()[0], "draw")
    );
    assert!(dunlua::Generator::file(&path).levels(33).build().is_err());
}

#[test]
fn the_library_and_the_binary_make_the_same_levels() {
    let generator = dunlua::Generator::file(crate::util::root().join("scripts/levels.lua"))
        .build()
        .unwrap();
    assert_eq!(generator.levels(), 5);
    for seed in [1, 7, 99] {
        let levels = generator.generate_levels(seed).unwrap();
        let hashes: Vec<String> = levels
            .iter()
            .map(|g| format!("{:016x}", g.hash()))
            .collect();
        let run = dunlua(&["scripts/levels.lua", "--seed", &seed.to_string(), "--hash"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout.lines().collect::<Vec<_>>(),
            hashes,
            "seed {seed}"
        );
        // `generate` alone is level 1.
        assert_eq!(generator.generate(seed).unwrap().hash(), levels[0].hash());
    }
    // --levels 3: the first two levels as in the five-level run (only the
    // last level differs: no stairs down, the amulet instead).
    let five = dunlua(&["scripts/levels.lua", "--seed", "7", "--hash"]).stdout;
    let three = dunlua(&[
        "scripts/levels.lua",
        "--seed",
        "7",
        "--hash",
        "--levels",
        "3",
    ])
    .stdout;
    let (five, three): (Vec<&str>, Vec<&str>) = (five.lines().collect(), three.lines().collect());
    assert_eq!(three.len(), 3);
    assert_eq!(three[..2], five[..2]);
    assert_ne!(three[2], five[2]);
    // bench makes every level: 3 seeds of 5 levels are 15 maps.
    let bench = dunlua(&["bench", "scripts/levels.lua", "--count", "3"]);
    assert!(
        bench.stdout.starts_with("maps=15 size=80x50 "),
        "{}",
        bench.stdout
    );
}

#[test]
fn every_output_holds_every_level_all_or_nothing() {
    let scratch = Scratch::new();
    std::fs::copy(
        crate::util::root().join("scripts/levels.lua"),
        scratch.path().join("levels.lua"),
    )
    .unwrap();
    std::fs::create_dir_all(scratch.path().join("lib")).unwrap();
    std::fs::copy(
        crate::util::root().join("scripts/lib/spawn.lua"),
        scratch.path().join("lib/spawn.lua"),
    )
    .unwrap();
    let run = dunlua_in(
        scratch.path(),
        &[
            "levels.lua",
            "--seed",
            "4",
            "--levels",
            "2",
            "--out",
            "d.json",
            "--out",
            "d.png",
            "--out",
            "d.tmx",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut want = vec!["d.json", "levels.lua", "lib"];
    want.extend(["d-1.png", "d-1.tmx", "d-1.tsx", "d-1.tiles.png"]);
    want.extend(["d-2.png", "d-2.tmx", "d-2.tsx", "d-2.tiles.png"]);
    want.sort();
    assert_eq!(files_in(scratch.path()), want);
    let dungeon: dunlua::json::JsonDungeon =
        serde_json::from_str(&std::fs::read_to_string(scratch.path().join("d.json")).unwrap())
            .unwrap();
    assert_eq!(dungeon.levels.len(), 2);
    assert_eq!(dungeon.levels[1].level, Some(2));
    let maps: Vec<dunlua::Map> = dungeon
        .levels
        .iter()
        .map(|l| dunlua::json::read_map(l).unwrap())
        .collect();
    let down = maps[0]
        .markers()
        .iter()
        .find(|m| m.name == "stairs_down")
        .unwrap();
    assert_eq!(maps[1].start(), Some((down.x, down.y)));

    // A level that cannot be written leaves nothing new and nothing changed.
    std::fs::create_dir(scratch.path().join("e-2.png")).unwrap();
    let before = files_in(scratch.path());
    let run = dunlua_in(
        scratch.path(),
        &[
            "levels.lua",
            "--seed",
            "4",
            "--levels",
            "2",
            "--out",
            "e.json",
            "--out",
            "e.png",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("e-2.png"), "{}", run.stderr);
    assert_eq!(files_in(scratch.path()), before);
}

#[test]
fn bad_levels_are_clear_errors() {
    let scratch = Scratch::new();
    let mut cases = vec![
        (
            "zero.lua",
            "return { levels = 0, generate = function(map) end }",
            1,
            "zero.lua: levels must be an integer 1..=32, got 0",
        ),
        (
            "text.lua",
            "return { levels = 'two', generate = function(map) end }",
            1,
            "text.lua: levels must be an integer 1..=32, got \"two\"",
        ),
        (
            "stairs.lua",
            "return { levels = 2, stairs = 'yes', generate = function(map) end }",
            1,
            "stairs must be \"aligned\"",
        ),
    ];
    // Writing to the level above, on level 2: refused, located, the level named.
    cases.push((
        "write.lua",
        "return { levels = 2, generate = function(map, rng, p, ctx)\n  map:carve_room(Rect.new(0, 0, 9, 9)); map:set_start(1, 1)\n  if ctx.above then ctx.above:set(1, 1, 'wall') end\nend }",
        1,
        "write.lua:3: ctx.above has no set: the level above is finished and read-only",
    ));
    for (name, text, code, said) in cases {
        scratch.write(name, text);
        let run = dunlua_in(scratch.path(), &[name, "--seed", "1", "--ascii"]);
        assert_eq!(run.code, code, "{name}: {}", run.stderr);
        let first = run.stderr.lines().next().unwrap_or("");
        assert!(first.contains(said), "{name}: {}", run.stderr);
        assert!(
            !run.stderr.contains("mlua"),
            "{name}: no host frames: {}",
            run.stderr
        );
    }
    let run = dunlua_in(scratch.path(), &["write.lua", "--seed", "1"]);
    assert!(run.stderr.contains("(on level 2)"), "{}", run.stderr);
    // A level that rerolls says which level it was.
    scratch.write(
        "reroll.lua",
        "return { levels = 3, width = 20, height = 8, generate = function(map, rng, p, ctx)\n  map:fill('floor'); map:set_start(1, 1)\n  if ctx.level == 3 and rng:coin() then reject('coin said no') end\nend }",
    );
    let run = dunlua_in(scratch.path(), &["reroll.lua", "--seed", "2", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("dunlua: level 3: attempt 1 accepted")
            && run
                .stderr
                .contains("level 3: attempt 0 rejected: reroll.lua:3: coin said no"),
        "{}",
        run.stderr
    );
    // Called with `.`, printed: clear words, no address.
    scratch.write(
        "dot.lua",
        "return { levels = 2, generate = function(map, rng, p, ctx)\n  map:fill('floor'); map:set_start(1, 1)\n  if ctx.above then assert(tostring(ctx.above) == 'ctx.above (level 1, 80x50)'); ctx.above.get(1, 1) end\nend }",
    );
    let run = dunlua_in(scratch.path(), &["dot.lua", "--seed", "1"]);
    assert!(
        run.stderr
            .starts_with("dunlua: dot.lua:3: ctx.above:get: call it on a ctx.above with a colon"),
        "{}",
        run.stderr
    );
    // A level's file may not be the script (`--out d.lua` writes d-2.lua):
    // known only once the script said it makes two levels, or before
    // generating with --levels; bad usage (exit 2) either way.
    let script = "return { levels = 2, generate = function(map) map:fill('floor') map:set_start(1, 1) end }\n";
    scratch.write("d-2.lua", script);
    for (flags, code) in [(&[][..], 2), (&["--levels", "2"][..], 2)] {
        let mut args = vec!["d-2.lua", "--seed", "1", "--out", "d.lua"];
        args.extend_from_slice(flags);
        let run = dunlua_in(scratch.path(), &args);
        assert_eq!(run.code, code, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("--out d.lua (its file d-2.lua): that is the script itself"),
            "{}",
            run.stderr
        );
        assert_eq!(
            std::fs::read_to_string(scratch.path().join("d-2.lua")).unwrap(),
            script
        );
        assert!(!scratch.path().join("d-1.lua").exists(), "nothing written");
    }
    // The level above's reader checks its arguments like the map's.
    scratch.write(
        "outside.lua",
        "return { levels = 2, width = 12, height = 6, generate = function(map, rng, p, ctx)\n  map:fill('floor'); map:set_start(1, 1)\n  if ctx.above then ctx.above:get(99, 0) end\nend }",
    );
    let run = dunlua_in(scratch.path(), &["outside.lua", "--seed", "1"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with(
            "dunlua: outside.lua:3: ctx.above:get: cell (99, 0) is outside the 12x6 map"
        ),
        "{}",
        run.stderr
    );
    // Finished levels count against the next one's memory: 32 levels that
    // each keep 20 MB of markers cannot hold 32 times the limit.
    scratch.write(
        "hoard.lua",
        "return { levels = 32, width = 100, height = 100, generate = function(map, rng, p, ctx)\n\
           map:fill('floor'); map:set_start(0, 0)\n\
           local note = string.rep('x', 1000)\n\
           for i = 1, 20000 do map:mark(i % 100, (i // 100) % 100, 'm' .. i, { note = note }) end\n\
         end }",
    );
    let run = dunlua_in(
        scratch.path(),
        &["hoard.lua", "--seed", "1", "--max-memory", "64", "--hash"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("memory limit") && run.stderr.contains("(on level "),
        "{}",
        run.stderr
    );
    // Too many cells in all, and too many levels.
    scratch.write(
        "big.lua",
        "return { generate = function(map) map:fill('floor') map:set_start(0, 0) end }",
    );
    let run = dunlua_in(
        scratch.path(),
        &["big.lua", "--size", "4000x4000", "--levels", "5", "--ascii"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("5 levels of 4000x4000 are 80000000 cells in all"),
        "{}",
        run.stderr
    );
    let run = dunlua_in(scratch.path(), &["big.lua", "--levels", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn check_reports_each_level_and_fails_stairs_that_do_not_line_up() {
    let run = dunlua(&["check", "scripts/levels.lua", "--seeds", "20", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["ok"], 20);
    assert_eq!(report["levels"].as_array().unwrap().len(), 5);
    assert!(report["levels"][4]["rooms"]["min"].as_f64().unwrap() > 0.0);
    let text = dunlua(&["check", "scripts/levels.lua", "--seeds", "5"]).stdout;
    assert!(text.contains("level 5\n  attempts"), "{text}");

    // The same stairs, shifted one cell on level 3: every seed fails.
    let scratch = Scratch::new();
    scratch.write(
        "shifted.lua",
        "return { levels = 3, stairs = 'aligned', width = 20, height = 8,\n\
           generate = function(map, rng, p, ctx)\n\
             map:carve_room(Rect.new(0, 0, 19, 7))\n\
             local x = ctx.level == 3 and 9 or 8\n\
             if ctx.above then map:set(x, 3, 'stairs_up') end\n\
             if ctx.level < ctx.levels then map:set(ctx.level == 1 and 8 or 5, 3, 'stairs_down') end\n\
             map:set_start(2, 2)\n\
           end }\n",
    );
    let run = dunlua_in(scratch.path(), &["check", "shifted.lua", "--seeds", "3"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("stairs do not line up between levels (3): seeds 0 1 2")
            && run
                .stdout
                .contains("level 2's stairs_down at (5, 3) has no stairs_up under it on level 3"),
        "{}",
        run.stdout
    );
    // Without the promise, the same levels pass.
    let free = std::fs::read_to_string(scratch.path().join("shifted.lua"))
        .unwrap()
        .replace("stairs = 'aligned'", "stairs = 'free'");
    scratch.write("free.lua", &free);
    let run = dunlua_in(scratch.path(), &["check", "free.lua", "--seeds", "3"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
