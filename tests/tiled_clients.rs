//! The Tiled exports opened by the programs users open them with: the real
//! Tiled (`tiled --export-map`, headless) reads the `.tmx` and `.tmj`, and
//! its own Lua export of the map matches ours field for field;
//! `tmxrasterizer` draws the `.tmx` and `.tmj` as dunlua's PNG does;
//! pytiled-parser (Python arcade) and pytmx (pygame) load them with the
//! tile layer, tileset properties, collision and objects; the `tiled` crate
//! (Bevy's importers build on it) loads the `.tmx`; and the `.lua` has the
//! fields LÖVE's STI reads. A missing program skips its part with a note,
//! except under `CI`, where it fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use dunlua::Generated;

use crate::util::{dunlua, generate, root, Scratch};

/// Whether `program` runs; under CI it must.
fn available(program: &str, probe: &[&str]) -> bool {
    let found = Command::new(program)
        .args(probe)
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is missing, and CI must run every client (see .ci/run)"
        );
        eprintln!("SKIPPED: {program} is not installed");
    }
    found
}

/// vaults.lua seed 7 (rooms, doors, water, markers) exported to every Tiled
/// format and to PNG at the same tile size, and the map itself.
fn exported() -> (Scratch, Generated) {
    let scratch = Scratch::new();
    let out = |name: &str| scratch.path().join(name).display().to_string();
    let run = dunlua(&[
        "scripts/vaults.lua",
        "--seed",
        "7",
        "--cell-size",
        "16",
        "--out",
        &out("v.tmx"),
        "--out",
        &out("v.tmj"),
        "--out",
        &out("v.lua"),
        "--out",
        &out("v.png"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let generated = generate("scripts/vaults.lua", 7, &[]).unwrap();
    (scratch, generated)
}

fn gids(g: &Generated) -> Vec<u64> {
    g.tile_ids().iter().map(|&id| id as u64 + 1).collect()
}

fn run(program: &str, args: &[&Path], dir: &Path) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{program} {args:?}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What a reader must find in a tile layer, the tileset and the objects.
fn check_read(reader: &str, read: &serde_json::Value, g: &Generated) {
    let at = |what: &str| format!("{reader}: {what}");
    assert_eq!(
        read["size"],
        serde_json::json!([g.width(), g.height()]),
        "{}",
        at("size")
    );
    assert_eq!(read["tile"], 16, "{}", at("tile size"));
    let read_gids: Vec<u64> = read["gids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(read_gids, gids(g), "{}", at("the tile layer"));
    for (tile, kind) in g.tile_kinds() {
        let props = &read["tiles"][tile.0.to_string()];
        assert_eq!(props["name"], kind.name.as_str(), "{}", at("tile name"));
        assert_eq!(props["glyph"], kind.glyph.to_string(), "{}", at("glyph"));
        assert_eq!(props["walkable"], kind.walkable, "{}", at("walkable"));
        assert_eq!(
            props["transparent"],
            kind.transparent,
            "{}",
            at("transparent")
        );
    }
    let solid: Vec<u64> = g
        .tile_kinds()
        .filter(|(_, k)| !k.walkable)
        .map(|(t, _)| t.0 as u64)
        .collect();
    assert_eq!(
        read["solid"],
        serde_json::json!(solid),
        "{}",
        at("collision")
    );
    let objects = read["objects"].as_array().unwrap();
    assert_eq!(objects.len(), g.rooms().len() + 1 + g.markers().len());
    for (i, room) in g.rooms().iter().enumerate() {
        let o = &objects[i];
        assert_eq!(o["class"], "room", "{}", at("room class"));
        assert_eq!(o["x"], (room.x1 * 16) as f64, "{}", at("room x"));
        assert_eq!(
            o["properties"]["godot_node_type"],
            "area",
            "{}",
            at("YATI area")
        );
    }
    let start = &objects[g.rooms().len()];
    assert_eq!(
        (start["name"].as_str(), start["class"].as_str()),
        (Some("start"), Some("start"))
    );
    for (o, m) in objects[g.rooms().len() + 1..].iter().zip(g.markers()) {
        assert_eq!(o["name"], m.name.as_str(), "{}", at("marker"));
        assert_eq!(o["properties"]["cell_x"], m.x, "{}", at("marker cell"));
    }
    assert_eq!(read["properties"]["seed"], "7", "{}", at("seed"));
    assert_eq!(
        read["properties"]["hash"],
        format!("{:016x}", g.hash()),
        "{}",
        at("hash")
    );
    assert_eq!(
        read["properties"]["param.max_rooms"],
        30,
        "{}",
        at("params")
    );
}

#[test]
fn python_importers_load_the_tmj_and_the_tmx() {
    let probe = ["-c", "import pytiled_parser, pytmx"];
    if !available("python3", &probe) {
        return;
    }
    let (scratch, g) = exported();
    let script = root().join("tests/clients/tiled_parsers.py");
    let dir = scratch.path();
    let printed = run(
        "python3",
        &[&script, &dir.join("v.tmj"), &dir.join("v.tmx")],
        dir,
    );
    let reads: Vec<serde_json::Value> = printed
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reads.len(), 2, "{printed}");
    for read in &reads {
        check_read(read["reader"].as_str().unwrap(), read, &g);
    }
}

#[test]
fn the_tiled_crate_loads_the_tmx() {
    let (scratch, g) = exported();
    let map = tiled::Loader::new()
        .load_tmx_map(scratch.path().join("v.tmx"))
        .expect("the tiled crate reads the map and its .tsx");
    assert_eq!(
        (map.width as usize, map.height as usize),
        (g.width(), g.height())
    );
    let tileset = &map.tilesets()[0];
    for (tile, kind) in g.tile_kinds() {
        let t = tileset.get_tile(tile.0 as u32).unwrap();
        assert_eq!(
            t.properties.get("name"),
            Some(&tiled::PropertyValue::StringValue(kind.name.clone()))
        );
        assert_eq!(t.user_type, kind.name);
        assert_eq!(t.collision.is_some(), !kind.walkable, "{}", kind.name);
    }
    let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
    for (i, id) in g.tile_ids().iter().enumerate() {
        let (x, y) = ((i % g.width()) as i32, (i / g.width()) as i32);
        assert_eq!(layer.get_tile(x, y).unwrap().id(), *id as u32);
    }
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let names: Vec<String> = objects.objects().map(|o| o.name.clone()).collect();
    assert_eq!(names.len(), g.rooms().len() + 1 + g.markers().len());
    assert_eq!(names[g.rooms().len()], "start");
    let room = objects.get_object(0).unwrap();
    assert_eq!(room.user_type, "room");
    assert_eq!(
        room.properties.get("godot_node_type"),
        Some(&tiled::PropertyValue::StringValue("area".into()))
    );
    assert_eq!(
        map.properties.get("hash"),
        Some(&tiled::PropertyValue::StringValue(format!(
            "{:016x}",
            g.hash()
        )))
    );
}

/// The JSON Tiled writes when it opens `map`.
fn tiled_reads(map: &Path, dir: &Path) -> serde_json::Value {
    let out = dir.join(format!(
        "tiled-{}.json",
        map.extension().unwrap().to_string_lossy()
    ));
    run(
        "tiled",
        &[Path::new("--export-map"), Path::new("json"), map, &out],
        dir,
    );
    // Tiled exits 0 even when it cannot read a map; only the file tells.
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|_| panic!("Tiled could not read {}", map.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn tiled_opens_the_tmx_and_tmj_and_writes_our_lua() {
    if !available("tiled", &["--version"]) {
        return;
    }
    let (scratch, g) = exported();
    let dir = scratch.path();
    for name in ["v.tmx", "v.tmj"] {
        let read = tiled_reads(&dir.join(name), dir);
        assert_eq!(
            (read["width"].as_u64(), read["height"].as_u64()),
            (Some(80), Some(50))
        );
        let data: Vec<u64> = read["layers"][0]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(data, gids(&g), "{name}: the tile layer");
        let objects = read["layers"][1]["objects"].as_array().unwrap();
        assert_eq!(
            objects.len(),
            g.rooms().len() + 1 + g.markers().len(),
            "{name}"
        );
        assert_eq!(objects[0]["type"], "room", "{name}");
        let props: BTreeMap<String, serde_json::Value> = read["properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].as_str().unwrap().to_string(), p["value"].clone()))
            .collect();
        assert_eq!(props["hash"], format!("{:016x}", g.hash()), "{name}");
    }
    // Tiled's own Lua export of our map, against ours: every field it
    // writes, with the same value, and what STI reads.
    if !available("luajit", &["-v"]) {
        return;
    }
    let theirs = dir.join("tiled.lua");
    run(
        "tiled",
        &[
            Path::new("--export-map"),
            Path::new("lua"),
            &dir.join("v.tmj"),
            &theirs,
        ],
        dir,
    );
    assert!(theirs.exists(), "Tiled wrote no Lua export");
    let check = root().join("tests/clients/tiled_lua.lua");
    let said = run("luajit", &[&check, &dir.join("v.lua"), &theirs], dir);
    assert_eq!(said.trim(), "ok");
}

/// A PNG's size and RGB pixels.
fn pixels(path: &Path) -> (usize, usize, Vec<[u8; 3]>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width as usize, info.height as usize, rgb)
}

#[test]
fn tmxrasterizer_draws_the_map_as_dunlua_does() {
    if !available("tmxrasterizer", &["--version"]) {
        return;
    }
    let (scratch, g) = exported();
    let dir = scratch.path();
    let (w, h, ours) = pixels(&dir.join("v.png"));
    // dunlua's PNG also draws the start and the markers over their cells.
    let mut drawn_over: BTreeSet<(usize, usize)> = g
        .markers()
        .iter()
        .map(|m| (m.x as usize, m.y as usize))
        .collect();
    let (sx, sy) = g.start();
    drawn_over.insert((sx as usize, sy as usize));
    for name in ["v.tmx", "v.tmj"] {
        let picture: PathBuf = dir.join(format!("{name}.png"));
        run(
            "tmxrasterizer",
            &[
                Path::new("--hide-layer"),
                Path::new("objects"),
                &dir.join(name),
                &picture,
            ],
            dir,
        );
        let (tw, th, theirs) = pixels(&picture);
        assert_eq!((tw, th), (w, h), "{name}");
        let differing: BTreeSet<(usize, usize)> = (0..w * h)
            .filter(|&i| ours[i] != theirs[i])
            .map(|i| ((i % w) / 16, (i / w) / 16))
            .collect();
        assert!(
            differing.is_subset(&drawn_over),
            "{name}: cells drawn differently: {:?}",
            differing
                .difference(&drawn_over)
                .take(10)
                .collect::<Vec<_>>()
        );
    }
}
