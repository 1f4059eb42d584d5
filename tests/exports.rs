//! Exports end to end: Tiled maps that a Tiled parser loads, files that
//! are written whole or not at all.

use std::collections::HashMap;

use tiled_json_rs as tiled;

use crate::util::{dunlua, dunlua_in, files_in, root, Scratch};

#[test]
fn tiled_maps_load_and_match_the_map() {
    let scratch = Scratch::new();
    let tmj = scratch.path().join("vaults.tmj");
    let json = scratch.path().join("vaults.json");
    let run = dunlua(&[
        "scripts/vaults.lua",
        "--seed",
        "7",
        "--out",
        tmj.to_str().unwrap(),
        "--out",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("vaults.tiles.png"),
        "the tileset image is reported: {}",
        run.stderr
    );
    let map: tiled::Map =
        serde_json::from_str(&std::fs::read_to_string(&tmj).unwrap()).expect("a Tiled JSON map");
    let ours: dunlua::json::JsonMap =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!((map.width, map.height), (80, 50));
    assert_eq!(map.tile_sets.len(), 1);
    let set = &map.tile_sets[0];
    assert!(
        scratch.path().join(&set.image).exists(),
        "the tileset image is beside the map"
    );
    // Tile id -> its name property.
    let names: HashMap<u32, String> = set
        .tiles
        .as_ref()
        .unwrap()
        .iter()
        .map(|t| match &t.properties["name"] {
            tiled::TiledValue::String(s) => (t.id, s.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let layer = match &map.layers[0].layer_type {
        tiled::LayerType::TileLayer(l) => l,
        other => panic!("{other:?}"),
    };
    let glyph_names: HashMap<char, &str> = ours
        .legend
        .iter()
        .map(|(g, t)| (g.chars().next().unwrap(), t.name.as_str()))
        .collect();
    for (y, row) in ours.rows.iter().enumerate() {
        for (x, glyph) in row.chars().enumerate() {
            let gid = layer.data[y * 80 + x];
            assert_eq!(
                names[&(gid - set.first_gid)],
                glyph_names[&glyph],
                "cell {x},{y}"
            );
        }
    }
    let objects = match &map.layers[1].layer_type {
        tiled::LayerType::ObjectGroup(g) => &g.objects,
        other => panic!("{other:?}"),
    };
    let rooms: Vec<_> = objects.iter().filter(|o| o.custom_type == "room").collect();
    assert_eq!(rooms.len(), ours.rooms.len());
    let r = &ours.rooms[0];
    assert_eq!(
        (rooms[0].x, rooms[0].y),
        (r.x1 as f32 * 16.0, r.y1 as f32 * 16.0)
    );
    assert_eq!(rooms[0].width, (r.x2 - r.x1 + 1) as f32 * 16.0);
    let start = objects.iter().find(|o| o.custom_type == "start").unwrap();
    // tiled-json-rs tells a point only when no other field it does not know
    // is present, and every object Tiled writes has `visible`; so the flag
    // is read from the JSON itself (pytiled-parser, pytmx and the `tiled`
    // crate read points properly: tests/tiled_clients.rs).
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tmj).unwrap()).unwrap();
    let raw_start = raw["layers"][1]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["type"] == "start")
        .unwrap();
    assert_eq!(raw_start["point"], true);
    assert_eq!(raw_start["visible"], true);
    let s = ours.start.unwrap();
    assert_eq!(
        (start.x, start.y),
        (s.x as f32 * 16.0 + 8.0, s.y as f32 * 16.0 + 8.0)
    );
    let markers = objects.iter().filter(|o| o.custom_type == "marker").count();
    assert_eq!(markers, ours.markers.len());
    assert_eq!(
        map.properties["seed"],
        tiled::TiledValue::String("7".into())
    );
    // Never an absolute path of the author's machine: relative to the
    // written file's folder when they share one (a clone under /tmp), else
    // the script's name alone (written under /tmp from /work/...).
    let tiled::TiledValue::String(stored) = &map.properties["script"] else {
        panic!("script is a string property");
    };
    assert!(
        !stored.starts_with('/') && stored.ends_with("vaults.lua"),
        "{stored}"
    );
    if stored != "vaults.lua" {
        let resolved = std::fs::canonicalize(scratch.path().join(stored)).unwrap();
        assert_eq!(
            resolved,
            std::fs::canonicalize(crate::util::root().join("scripts/vaults.lua")).unwrap()
        );
    }
    assert_eq!(
        map.properties["param.max_rooms"],
        tiled::TiledValue::Int(30)
    );
}

#[test]
fn json_exports_read_back_into_the_same_map() {
    for script in [
        "scripts/caves.lua",
        "scripts/vaults.lua",
        "scripts/rooms.lua",
    ] {
        let generated = crate::util::generate(script, 5, &[]).unwrap();
        let mut bytes = Vec::new();
        dunlua::json::write(&generated, &mut bytes).unwrap();
        let parsed: dunlua::json::JsonMap = serde_json::from_slice(&bytes).unwrap();
        let back = dunlua::json::read_map(&parsed).unwrap();
        assert_eq!(back, generated.map, "{script}");
        assert_eq!(back.hash64(), generated.map.hash64());
    }
}

#[test]
fn writes_are_atomic_in_a_folder_that_cannot_be_written() {
    let scratch = Scratch::new();
    let rooms = root().join("scripts/rooms.lua");
    // As root, permissions do not stop a write; /proc refuses new files to anyone.
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let target = if is_root {
        std::path::PathBuf::from("/proc/dunlua-map.png")
    } else {
        let locked = scratch.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        locked.join("map.png")
    };
    let run = dunlua_in(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "1",
            "--out",
            target.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with(&format!("dunlua: cannot write {}", target.display())),
        "{}",
        run.stderr
    );
    // The user named the target, not the temporary file beside it.
    assert!(
        !run.stderr.contains(".dunlua-") && !run.stderr.contains(" at path "),
        "{}",
        run.stderr
    );
    assert!(!target.exists());
    if let Some(folder) = target.parent().filter(|_| !is_root) {
        assert_eq!(
            std::fs::read_dir(folder).unwrap().count(),
            0,
            "no temporary file is left"
        );
    }
}

#[test]
fn an_existing_file_is_replaced_whole() {
    let scratch = Scratch::new();
    let rooms = root().join("scripts/rooms.lua");
    let old = scratch.write("map.txt", "old\n");
    let run = dunlua_in(
        scratch.path(),
        &[rooms.to_str().unwrap(), "--seed", "1", "--out", "map.txt"],
    );
    assert_eq!(run.code, 0);
    let text = std::fs::read_to_string(old).unwrap();
    assert_eq!(text.lines().count(), 50);
    assert_eq!(
        std::fs::read_dir(scratch.path()).unwrap().count(),
        1,
        "no temporary file is left"
    );
}

#[test]
fn several_outputs_are_written_all_or_none() {
    let scratch = Scratch::new();
    scratch.write("a.txt", "OLD A\n");
    // The second output's tileset image cannot be replaced by a file (a
    // folder named `--out` itself is refused up front): its rename fails
    // after the first output is already in place, which must then be put
    // back.
    std::fs::create_dir(scratch.path().join("b.tiles.png")).unwrap();
    std::fs::write(scratch.path().join("b.tiles.png/keep"), "x").unwrap();
    let rooms = root().join("scripts/rooms.lua");
    let run = dunlua_in(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "7",
            "--out",
            "a.txt",
            "--out",
            "b.tmj",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("dunlua: cannot write b.tiles.png"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("a.txt")).unwrap(),
        "OLD A\n"
    );
    assert_eq!(
        files_in(scratch.path()),
        ["a.txt", "b.tiles.png"],
        "no temporaries or backups left"
    );

    // Without the obstacle both are written.
    std::fs::remove_dir_all(scratch.path().join("b.tiles.png")).unwrap();
    let run = dunlua_in(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "7",
            "--out",
            "a.txt",
            "--out",
            "b.tmj",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_ne!(
        std::fs::read_to_string(scratch.path().join("a.txt")).unwrap(),
        "OLD A\n"
    );
    assert!(scratch.path().join("b.tmj").is_file());
    assert_eq!(files_in(scratch.path()), ["a.txt", "b.tiles.png", "b.tmj"]);
}

#[test]
fn a_tiled_map_whose_tileset_cannot_be_written_is_not_touched() {
    let scratch = Scratch::new();
    scratch.write("m.tmj", "OLD\n");
    std::fs::create_dir(scratch.path().join("m.tiles.png")).unwrap();
    std::fs::write(scratch.path().join("m.tiles.png/keep"), "x").unwrap();
    let rooms = root().join("scripts/rooms.lua");
    let run = dunlua_in(
        scratch.path(),
        &[rooms.to_str().unwrap(), "--seed", "7", "--out", "m.tmj"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("m.tmj")).unwrap(),
        "OLD\n"
    );
    assert_eq!(files_in(scratch.path()), ["m.tiles.png", "m.tmj"]);
}

/// A PNG's size from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn a_huge_map_makes_a_bounded_png() {
    let scratch = Scratch::new();
    scratch.write(
        "big.lua",
        "return { width = 10000, height = 2500, generate = function(map)\n  map:fill(\"floor\")\n  map:set_start(1, 1)\nend }\n",
    );
    // The default cell size shrinks to fit, and says so.
    let run = dunlua_in(
        scratch.path(),
        &["big.lua", "--seed", "1", "--out", "big.png"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("big.png: cell size 1 instead of 16"),
        "{}",
        run.stderr
    );
    let png = std::fs::read(scratch.path().join("big.png")).unwrap();
    assert_eq!(png_size(&png), (10000, 2500));
    // A chosen size that does not fit is an error naming one that does.
    let run = dunlua_in(
        scratch.path(),
        &[
            "big.lua",
            "--seed",
            "1",
            "--out",
            "chosen.png",
            "--cell-size",
            "16",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("dunlua: --out chosen.png: a 10000x2500 map at --cell-size 16 would be a 6400-million-pixel image")
            && run.stderr.contains("use --cell-size 1 or less"),
        "{}",
        run.stderr
    );
    assert!(!scratch.path().join("chosen.png").exists());
}

#[test]
fn closed_pipes_end_the_run_quietly_with_the_outputs_written() {
    use std::process::{Command, Stdio};
    let scratch = Scratch::new();
    let rooms = root().join("scripts/rooms.lua");
    // stdout and stderr are pipes whose readers are gone before dunlua writes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_dunlua"))
        .args([
            rooms.to_str().unwrap(),
            "--seed",
            "7",
            "--ascii",
            "--out",
            "m.txt",
        ])
        .current_dir(scratch.path())
        .env_remove("DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "no panic (101), no signal");
    assert!(scratch.path().join("m.txt").is_file());
}

#[test]
fn a_lua_export_never_overwrites_the_script() {
    let scratch = Scratch::new();
    let script = scratch.write(
        "mine.lua",
        "return { width = 12, height = 8, generate = function(map)\n\
           map:carve_room(Rect.new(1, 1, 6, 4)) map:set_start(2, 2)\n\
         end }\n",
    );
    let before = std::fs::read(&script).unwrap();
    let run = dunlua_in(
        scratch.path(),
        &["mine.lua", "--seed", "1", "--out", "./mine.lua"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--out ./mine.lua: that is the script itself"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&script).unwrap(), before);
    assert_eq!(files_in(scratch.path()), ["mine.lua"]);
    // Several Tiled formats share one tileset image, written once.
    let run = dunlua_in(
        scratch.path(),
        &[
            "mine.lua", "--seed", "1", "--out", "m.tmx", "--out", "m.tmj", "--out", "m.lua",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("wrote m.tiles.png").count(),
        1,
        "{}",
        run.stderr
    );
    assert_eq!(
        files_in(scratch.path()),
        [
            "m.lua",
            "m.tiles.png",
            "m.tmj",
            "m.tmx",
            "m.tsx",
            "mine.lua"
        ]
    );
}

#[test]
fn exports_store_the_script_relative_to_the_output() {
    let scratch = Scratch::new();
    let script = scratch.write(
        "scripts/s.lua",
        "return { width = 10, height = 6, generate = function(map)\n\
           map:fill('wall') map:carve_room(Rect.new(0, 0, 9, 5)) map:set_start(1, 1)\n\
         end }\n",
    );
    std::fs::create_dir(scratch.path().join("out")).unwrap();
    let absolute = script.canonicalize().unwrap();
    let outs = [
        "out/m.json",
        "out/m.tmj",
        "out/m.tmx",
        "out/m.lua",
        "out/m.ldtk",
    ];
    let mut args = vec![absolute.to_str().unwrap(), "--seed", "1"];
    for out in &outs {
        args.extend(["--out", out]);
    }
    let run = dunlua_in(scratch.path(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let home = scratch.path().canonicalize().unwrap();
    for out in outs {
        let text = std::fs::read_to_string(scratch.path().join(out)).unwrap();
        assert!(text.contains("../scripts/s.lua"), "{out}: {text:.400}");
        assert!(
            !text.contains(home.to_str().unwrap()),
            "{out} holds an absolute path"
        );
    }
    // Beside the script: its file name.
    let run = dunlua_in(
        scratch.path(),
        &[
            absolute.to_str().unwrap(),
            "--seed",
            "1",
            "--out",
            "scripts/m.json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.path().join("scripts/m.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["script"], "s.lua");
}

/// An export's memory is bounded: 100,000 markers (within the script's
/// memory limit) would take about 570 MB as an LDtk project, which builds
/// every entity in memory, so that output is refused before anything is
/// written, naming the format and what fits; the same map as .json (about
/// 700 bytes a marker) is written. A million markers took 5.8 GB as .ldtk.
#[test]
fn an_export_too_big_to_make_in_memory_is_refused_before_writing() {
    let scratch = Scratch::new();
    scratch.write(
        "many.lua",
        "return { width = 1000, height = 100, generate = function(map)\n\
           map:fill('floor')\n\
           local rows = {}\n\
           for i = 1, 100 do rows[i] = string.rep('M', 1000) end\n\
           map:stamp(0, 0, rows, { M = { tile = 'floor', mark = 'm' } })\n\
           map:set_start(0, 0)\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "many.lua", "--seed", "1", "--out", "m.json", "--out", "m.ldtk",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "dunlua: --out m.ldtk: 100000 markers, rooms and marker properties would take about 572 MB to write as .ldtk, more than the 512 MB an export may take; write .json (about 700 bytes each) or make fewer"
    );
    assert_eq!(files_in(scratch.path()), ["many.lua"], "all or nothing");
    let run = dunlua_in(
        scratch.path(),
        &["many.lua", "--seed", "1", "--out", "m.json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scratch.path().join("m.json")).unwrap())
            .unwrap();
    assert_eq!(json["markers"].as_array().unwrap().len(), 100_000);
}

/// The bound counts what the objects hold too: 7,000 markers with a 60 KB
/// property each (420 MB of text, within the memory limit) made a 2.5 GB
/// JSON file (a control character is six bytes escaped), and 400
/// markers of one name with 64 keys of their own each 10 million LDtk
/// fields (every instance carries every key of its name): 18.7 GB. Both
/// are refused before anything is written; the C ABI's and Python's JSON
/// use the same bound (`json::check_size`).
#[test]
fn an_export_of_much_text_or_many_fields_is_refused_before_writing() {
    let scratch = Scratch::new();
    scratch.write(
        "text.lua",
        "return { width = 100, height = 100, generate = function(map)\n\
           map:fill('floor') map:set_start(0, 0)\n\
           local s = string.rep('\\1', 60000)\n\
           for i = 0, 1199 do map:mark(i % 100, i // 100, 'm', { t = s }) end\n\
         end }\n",
    );
    scratch.write(
        "fields.lua",
        "return { width = 400, height = 10, generate = function(map)\n\
           map:fill('floor') map:set_start(0, 0)\n\
           for i = 0, 399 do\n\
             local props = {}\n\
             for k = 1, 64 do props['k' .. i .. '_' .. k] = k end\n\
             map:mark(i, 1, 'm', props)\n\
           end\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &["text.lua", "--seed", "1", "--out", "t.json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "2400 markers, rooms and marker properties (with 68 MB of text) would take about 550 MB to write as .json"
        ),
        "{}",
        run.stderr
    );
    let run = dunlua_in(
        scratch.path(),
        &["fields.lua", "--seed", "1", "--out", "f.ldtk"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("would take about 19"), "{}", run.stderr);
    assert_eq!(
        files_in(scratch.path()),
        ["fields.lua", "text.lua"],
        "nothing written"
    );
    // Markers sharing their keys carry no extra fields: 20,000 of one name
    // with the same three properties fit (counted twice, they were refused).
    scratch.write(
        "shared.lua",
        "return { width = 500, height = 500, generate = function(map)\n\
           map:fill('floor') map:set_start(0, 0)\n\
           for i = 0, 19999 do\n\
             map:mark(i % 500, 1 + i // 500, 'monster', { a = 1, b = 2, c = 3 })\n\
           end\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &["shared.lua", "--seed", "1", "--out", "s.ldtk"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The same map is fine as Tiled JSON, whose objects carry their own keys.
    let run = dunlua_in(
        scratch.path(),
        &["fields.lua", "--seed", "1", "--out", "f.tmj"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Ctrl-C, SIGTERM or SIGHUP while an output is being written ends the
/// process by that signal, as before, and takes the hidden temporary file
/// with it (it was left behind, as large as the output); the target is
/// untouched.
#[cfg(unix)]
#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    use std::time::{Duration, Instant};
    let scratch = Scratch::new();
    scratch.write(
        "big.lua",
        "return { width = 8, height = 8, generate = function(map)\n  map:fill('floor') map:set_start(1, 1)\nend }\n",
    );
    let staging = |dir: &std::path::Path| {
        files_in(dir)
            .iter()
            .any(|n| n.starts_with(".dunlua-") && n.ends_with(".tmp"))
    };
    for (signal, name) in [
        (libc::SIGINT, "INT"),
        (libc::SIGTERM, "TERM"),
        (libc::SIGHUP, "HUP"),
    ] {
        scratch.write("b.png", "OLD\n");
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_dunlua"));
        // The signals at their defaults in the child, whatever the test
        // runner's are: a background job of a non-interactive shell (how
        // CI may start the suite) ignores SIGINT, and an ignored signal
        // stays ignored (`a_signal_ignored_at_start_stays_ignored`).
        // SAFETY: signal() is async-signal-safe, and only it runs between
        // fork and exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child = command
            .args([
                "big.lua",
                "--seed",
                "1",
                "--size",
                "5000x5000",
                "--out",
                "b.png",
            ])
            .current_dir(scratch.path())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Only what tells a hang from a slow machine.
        let started = Instant::now();
        while !staging(scratch.path()) {
            assert!(
                child.try_wait().unwrap().is_none(),
                "SIG{name}: the run ended before its temporary file was seen"
            );
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "SIG{name}: no temporary file"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let sent = std::process::Command::new("kill")
            .arg(format!("-{name}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "SIG{name}: {status:?}");
        assert_eq!(files_in(scratch.path()), ["b.png", "big.lua"], "SIG{name}");
        assert_eq!(
            std::fs::read_to_string(scratch.path().join("b.png")).unwrap(),
            "OLD\n",
            "SIG{name}"
        );
    }
}

/// A signal the process was started ignoring (`nohup`, a shell script's
/// `&` job, which ignores SIGINT) stays ignored: the sweep's handler took
/// SIGINT and SIGHUP over and ended such a run.
#[cfg(unix)]
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    use std::time::Duration;
    let scratch = Scratch::new();
    scratch.write(
        "spin.lua",
        "return { generate = function(map) while true do end end }\n",
    );
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' INT HUP; exec \"$0\" spin.lua --seed 1 --hash --max-instructions 1000000000000 --timeout 0")
        .arg(env!("CARGO_BIN_EXE_dunlua"))
        .current_dir(scratch.path())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Started (its handlers, if any, in place) before the signals come.
    std::thread::sleep(Duration::from_millis(500));
    for name in ["INT", "HUP"] {
        let sent = std::process::Command::new("kill")
            .arg(format!("-{name}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
    }
    std::thread::sleep(Duration::from_millis(500));
    let still = child.try_wait().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        still.is_none(),
        "an ignored signal ended the run: {still:?}"
    );
}

/// Two hard links of one file given as two outputs are two outputs: each
/// name gets the new map (taken as one file, the second name was not
/// written and kept the last run's).
#[cfg(unix)]
#[test]
fn hard_linked_outputs_are_both_written() {
    let scratch = Scratch::new();
    let run = |seed: &str, outs: &[&str]| {
        let mut args = vec![
            "scripts/rooms.lua".to_string(),
            "--seed".into(),
            seed.into(),
        ];
        for out in outs {
            args.push("--out".into());
            args.push(scratch.path().join(out).display().to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = crate::util::dunlua(&args);
        assert_eq!(done.code, 0, "{}", done.stderr);
    };
    run("1", &["a.json"]);
    std::fs::hard_link(scratch.path().join("a.json"), scratch.path().join("h.json")).unwrap();
    run("2", &["a.json", "h.json"]);
    let seed = |name: &str| {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(scratch.path().join(name)).unwrap())
                .unwrap();
        json["seed"].clone()
    };
    assert_eq!(seed("a.json"), serde_json::json!(2));
    assert_eq!(seed("h.json"), serde_json::json!(2));
}
