//! The lean library as a game uses it (`default-features = false`): one
//! [`Generator`] built from a file or from text with its modules, typed
//! parameters checked at build time, seed after seed on a worker thread,
//! what a `Generated` exposes, and errors that say what was wrong. These
//! run in every build, including `cargo test --no-default-features`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use dunlua::script::{self, Request};
use dunlua::{FailureKind, Generator, Limits};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rooms() -> PathBuf {
    root().join("scripts/rooms.lua")
}

/// The map hash the command line's run (`script::run`, a fresh VM per
/// map) gives for this request.
fn command_hash(seed: u64, params: &[&str], size: Option<(i64, i64)>) -> u64 {
    let mut request = Request::new(rooms(), seed);
    request.params = params.iter().map(|p| p.to_string()).collect();
    request.size = size;
    script::run(&request).unwrap().map.hash64()
}

#[test]
fn a_generator_makes_the_command_lines_maps_seed_after_seed() {
    let generator = Generator::file(rooms()).build().unwrap();
    for seed in 0..40 {
        let level = generator.generate(seed).unwrap();
        assert_eq!(level.hash(), command_hash(seed, &[], None), "seed {seed}");
        assert_eq!(level.provenance.seed, seed);
    }
    assert_eq!(generator.size(), (80, 50));
    assert_eq!(generator.info().name, "Rooms and corridors (Grogue)");
}

#[test]
fn typed_params_and_size_are_the_command_lines_p_and_size() {
    let generator = Generator::file(rooms())
        .param("max_rooms", 5)
        .size(50, 30)
        .build()
        .unwrap();
    let level = generator.generate(3).unwrap();
    assert_eq!(
        level.hash(),
        command_hash(3, &["max_rooms=5"], Some((50, 30)))
    );
    assert_ne!(level.hash(), command_hash(3, &[], Some((50, 30))));
    assert_eq!((level.width(), level.height()), (50, 30));
    let from_text = Generator::file(rooms())
        .param_text("max_rooms", "5")
        .size(50, 30)
        .build()
        .unwrap();
    assert_eq!(from_text.generate(3).unwrap().hash(), level.hash());
}

#[test]
fn bad_params_and_sizes_fail_at_build_time_listing_the_declared_ones() {
    let err = Generator::file(rooms())
        .param("max_room", 5)
        .build()
        .err()
        .unwrap();
    assert_eq!(err.kind, FailureKind::Usage);
    assert!(
        err.message
            .starts_with("unknown parameter 'max_room'; did you mean 'max_rooms'? declared: ")
            && err.message.contains("max_rooms (integer, default 30)"),
        "{}",
        err.message
    );
    let err = Generator::file(rooms())
        .param("max_rooms", "lots")
        .build()
        .err()
        .unwrap();
    assert!(
        err.message
            .starts_with("parameter 'max_rooms' must be an integer, got a string (\"lots\")"),
        "{}",
        err.message
    );
    let err = Generator::file(rooms()).size(0, 10).build().err().unwrap();
    assert!(
        err.message.starts_with("size 0x10 is invalid: "),
        "{}",
        err.message
    );
    let err = Generator::file(root().join("scripts/no_such.lua"))
        .build()
        .err()
        .unwrap();
    assert!(
        err.message.starts_with("cannot read script ") && err.message.contains("no_such.lua"),
        "{}",
        err.message
    );
}

const CAVE: &str = r#"
local walls = require("lib.walls")
return {
  width = 24, height = 12,
  params = { inner = 2 },
  generate = function(map, rng, params)
    walls.outline(map, params.inner)
    map:mark(5, 5, "chest")
    map:set_start(3, 3)
  end,
}
"#;

const WALLS: &str = r#"
return { outline = function(map, inner)
  map:fill("wall")
  map:carve_room(Rect.new(inner - 1, inner - 1, map.width - 2 * inner + 1, map.height - 2 * inner + 1))
end }
"#;

#[test]
fn a_script_and_its_modules_can_come_from_the_game_not_the_disk() {
    let level = Generator::source("mods/cave.lua", CAVE)
        .module("lib/walls.lua", WALLS)
        .build()
        .unwrap()
        .generate(1)
        .unwrap();
    assert_eq!(level.tile_name(0, 0), Some("wall"));
    assert_eq!(level.tile_name(3, 3), Some("floor"));
    assert_eq!(level.start(), (3, 3));
    assert_eq!(level.markers()[0].name, "chest");
    assert_eq!(level.provenance.script, "mods/cave.lua");

    // The same through a loader callback, which sees the relative path.
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    let loaded = Generator::source("mods/cave.lua", CAVE)
        .loader(move |path| {
            seen.lock().unwrap().push(path.to_string());
            Ok((path == "lib/walls.lua").then(|| WALLS.to_string()))
        })
        .param("inner", 3)
        .build()
        .unwrap();
    let a = loaded.generate(1).unwrap();
    assert_eq!(a.tile_name(1, 1), Some("wall"), "inner = 3 keeps more rock");
    assert_eq!(a.tile_name(3, 3), Some("floor"));
    assert_eq!(asked.lock().unwrap().as_slice(), ["lib/walls.lua"]);
    // Parsed once per generator; every seed still runs the module afresh.
    loaded.generate(2).unwrap();
    assert_eq!(asked.lock().unwrap().len(), 1);
}

#[test]
fn errors_in_supplied_scripts_and_modules_name_their_line() {
    let err = Generator::source("mods/cave.lua", CAVE)
        .build()
        .err()
        .unwrap();
    assert!(
        err.message
            .starts_with("mods/cave.lua:2: module 'lib.walls' not found"),
        "{}",
        err.message
    );
    let err = Generator::source("mods/cave.lua", CAVE)
        .module(
            "lib/walls.lua",
            "return { outline = function(map) map:fill(\"lava\") end }",
        )
        .build()
        .unwrap()
        .generate(1)
        .err()
        .unwrap();
    assert!(
        err.message
            .starts_with("mods/lib/walls.lua:1: map:fill: unknown tile 'lava'"),
        "{}",
        err.message
    );
    let err = Generator::source(
        "broken.lua",
        "return { generate = function(map)\n  map:fill(\n end }",
    )
    .build()
    .err()
    .unwrap();
    assert_eq!(err.kind, FailureKind::Syntax);
    assert!(err.message.starts_with("broken.lua:3:"), "{}", err.message);
    let err = Generator::source("mods/cave.lua", CAVE)
        .loader(|path| Err(format!("{path}: the pack file is damaged")))
        .build()
        .err()
        .unwrap();
    assert_eq!(
        err.message,
        "mods/cave.lua:2: require: module 'lib.walls' refused: the game's loader: \
         lib/walls.lua: lib/walls.lua: the pack file is damaged"
    );
    let err = Generator::source("mods/cave.lua", "return require('..x')")
        .build()
        .err()
        .unwrap();
    assert!(err.message.contains("bad module name"), "{}", err.message);
}

#[test]
fn a_generator_moves_to_a_worker_thread_and_keeps_working() {
    let generator = Generator::file(rooms())
        .param("max_rooms", 12)
        .build()
        .unwrap();
    let worker = std::thread::spawn(move || {
        let hashes: Vec<u64> = (0..30)
            .map(|s| generator.generate(s).unwrap().hash())
            .collect();
        (generator, hashes)
    });
    let (generator, hashes) = worker.join().unwrap();
    for (seed, hash) in hashes.iter().enumerate() {
        assert_eq!(*hash, command_hash(seed as u64, &["max_rooms=12"], None));
    }
    // Back on this thread, the same generator still agrees.
    assert_eq!(generator.generate(5).unwrap().hash(), hashes[5]);
}

#[test]
fn a_failed_seed_does_not_spoil_the_next() {
    let script = r#"
    return { width = 10, height = 6, generate = function(map, rng)
      leaked = (leaked or 0) + 1
      if rng:int(2) == 0 then while true do end end
      map:fill("floor")
      map:set_start(1, leaked)
    end }"#;
    let generator = Generator::source("spin.lua", script)
        .limits(Limits {
            max_instructions: 2_000_000,
            ..Limits::default()
        })
        .build()
        .unwrap();
    let (mut failed, mut made) = (0, 0);
    for seed in 0..20 {
        match generator.generate(seed) {
            Ok(level) => {
                made += 1;
                assert_eq!(level.start(), (1, 1), "no global survives a run");
            }
            Err(e) => {
                failed += 1;
                assert_eq!(e.kind, FailureKind::Limit);
                assert!(e.message.starts_with("spin.lua:4: "), "{}", e.message);
            }
        }
    }
    assert!(failed > 0 && made > 0, "{failed} failed, {made} made");
}

#[test]
fn a_generated_map_is_read_without_parsing_text() {
    let level = Generator::file(rooms())
        .build()
        .unwrap()
        .generate(7)
        .unwrap();
    let ids = level.tile_ids();
    assert_eq!(ids.len(), level.width() * level.height());
    let kinds: Vec<_> = level.tile_kinds().collect();
    assert_eq!(kinds[0].1.name, "wall");
    assert_eq!(kinds[1].1.name, "floor");
    for (i, id) in ids.iter().enumerate() {
        let (x, y) = ((i % level.width()) as i32, (i / level.width()) as i32);
        assert_eq!(level.tile_at(x, y).unwrap().0, *id);
        assert!((*id as usize) < kinds.len());
    }
    let (sx, sy) = level.start();
    assert!(level.kind_at(sx, sy).unwrap().walkable);
    assert!(!level.rooms().is_empty());
    assert_eq!(level.tile_at(-1, 0), None);
    let json: serde_json::Value = serde_json::from_str(&level.to_json()).unwrap();
    assert_eq!(json["hash"], format!("{:016x}", level.hash()));
    assert_eq!(json["seed"], 7);
    assert_eq!(
        json["rows"].as_array().unwrap().len(),
        level.height(),
        "the JSON form has one row per line"
    );
}
