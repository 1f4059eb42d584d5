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

/// A game's tileset of 24 px tiles in its own order (not dunlua's kinds'),
/// matched by `name` property or by type, with the colour of each tile.
fn game_tileset(dir: &Path) -> Vec<(u32, &'static str, [u8; 3])> {
    let tiles: Vec<(u32, &str, [u8; 3])> = vec![
        (0, "gold", [200, 200, 60]),
        (1, "floor", [30, 30, 30]),
        (2, "door", [90, 60, 20]),
        (3, "water", [40, 80, 200]),
        (4, "wall", [120, 120, 120]),
        (5, "stairs_down", [200, 100, 40]),
        (6, "stairs_up", [60, 160, 60]),
    ];
    std::fs::create_dir_all(dir.join("art")).unwrap();
    let (w, h) = (96usize, 48usize);
    let mut rgb = vec![0u8; w * h * 3];
    for &(id, _, colour) in &tiles {
        let (x0, y0) = ((id as usize % 4) * 24, (id as usize / 4) * 24);
        for y in y0..y0 + 24 {
            for x in x0..x0 + 24 {
                rgb[(y * w + x) * 3..][..3].copy_from_slice(&colour);
            }
        }
    }
    let file = std::fs::File::create(dir.join("art/sheet.png")).unwrap();
    let mut encoder = png::Encoder::new(file, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&rgb)
        .unwrap();
    let mut tsx = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tileset version=\"1.10\" name=\"game\" tilewidth=\"24\" tileheight=\"24\" tilecount=\"8\" columns=\"4\">\n <image source=\"sheet.png\" width=\"96\" height=\"48\"/>\n",
    );
    for &(id, name, _) in &tiles {
        // Half the tiles answer by a "name" property, half by their type.
        if id % 2 == 0 {
            tsx.push_str(&format!(
                " <tile id=\"{id}\" type=\"art{id}\"><properties><property name=\"name\" value=\"{name}\"/></properties></tile>\n"
            ));
        } else {
            tsx.push_str(&format!(" <tile id=\"{id}\" type=\"{name}\"/>\n"));
        }
    }
    tsx.push_str("</tileset>\n");
    std::fs::write(dir.join("art/game.tsx"), tsx).unwrap();
    tiles
}

#[test]
fn a_games_own_tileset_gives_the_map_its_art_and_ids() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    let tiles = game_tileset(dir);
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    let vaults = root().join("scripts/vaults.lua");
    let args = |out: &str| {
        vec![
            vaults.display().to_string(),
            "--seed".into(),
            "7".into(),
            "--tileset".into(),
            "art/game.tsx".into(),
            "--out".into(),
            format!("maps/{out}.tmx"),
            "--out".into(),
            format!("maps/{out}.tmj"),
            "--out".into(),
            format!("maps/{out}.lua"),
        ]
    };
    let list = args("v");
    let made = crate::util::dunlua_in(dir, &list.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert_eq!(
        crate::util::files_in(&dir.join("maps")),
        ["v.lua", "v.tmj", "v.tmx"],
        "no glyph sheet or .tsx of dunlua's: the game's tileset is used where it is"
    );
    let g = generate("scripts/vaults.lua", 7, &[]).unwrap();
    let id_of: BTreeMap<&str, u32> = tiles.iter().map(|&(id, name, _)| (name, id)).collect();
    let want: Vec<u32> = g
        .cells()
        .iter()
        .map(|t| id_of[g.tile_kinds().nth(t.0 as usize).unwrap().1.name.as_str()])
        .collect();
    // The tiled crate follows the map's reference to the game's .tsx.
    let map = tiled::Loader::new()
        .load_tmx_map(dir.join("maps/v.tmx"))
        .unwrap();
    assert_eq!((map.tile_width, map.tile_height), (24, 24));
    assert_eq!(map.tilesets()[0].name, "game");
    let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
    for (i, want) in want.iter().enumerate() {
        let (x, y) = ((i % g.width()) as i32, (i / g.width()) as i32);
        assert_eq!(layer.get_tile(x, y).unwrap().id(), *want, "cell {x},{y}");
    }
    let tmj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("maps/v.tmj")).unwrap()).unwrap();
    assert_eq!(tmj["tilesets"][0]["source"], "../art/game.tsx");
    let gids: Vec<u64> = tmj["layers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(
        gids,
        want.iter().map(|&id| id as u64 + 1).collect::<Vec<_>>()
    );
    // Tiled draws the map with the game's art: each cell the colour of the
    // game's tile for its kind.
    if available("tmxrasterizer", &["--version"]) {
        let picture = dir.join("drawn.png");
        run(
            "tmxrasterizer",
            &[
                Path::new("--hide-layer"),
                Path::new("objects"),
                Path::new("maps/v.tmx"),
                &picture,
            ],
            dir,
        );
        let (w, _, pixels) = pixels(&picture);
        let colour: BTreeMap<u32, [u8; 3]> = tiles.iter().map(|&(id, _, c)| (id, c)).collect();
        for (i, id) in want.iter().enumerate() {
            let (x, y) = (i % g.width() * 24 + 12, i / g.width() * 24 + 12);
            assert_eq!(pixels[y * w + x], colour[id], "cell {i}");
        }
    }
    // A kind the tileset has no tile for is named, and nothing is written.
    let lava = "tiles.define(\"lava\", { glyph = \"%\", color = \"#ff4000\" })\n\
        return { width = 8, height = 5, generate = function(map)\n\
          map:carve_room(Rect.new(0, 0, 7, 4)) map:set(3, 2, \"lava\") map:set_start(1, 1)\n\
        end }\n";
    std::fs::write(dir.join("lava.lua"), lava).unwrap();
    let run = crate::util::dunlua_in(
        dir,
        &[
            "lava.lua",
            "--seed",
            "1",
            "--tileset",
            "art/game.tsx",
            "--out",
            "maps/l.tmx",
        ],
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("--tileset art/game.tsx: no tile for lava (a tile matches a kind by its \"name\" property or its type/class; the tileset names door, floor, gold, stairs_down, stairs_up, wall, water)"),
        "{}",
        run.stderr
    );
    assert_eq!(
        crate::util::files_in(&dir.join("maps")),
        ["v.lua", "v.tmj", "v.tmx"]
    );
}

#[test]
fn an_embedded_tileset_tmx_and_the_lua_export_load_too() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    let run = dunlua(&[
        "scripts/vaults.lua",
        "--seed",
        "7",
        "--embed-tileset",
        "--out",
        &dir.join("e.tmx").display().to_string(),
        "--out",
        &dir.join("e.lua").display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        crate::util::files_in(dir),
        ["e.lua", "e.tiles.png", "e.tmx"],
        "no .tsx: the tileset is inside the map"
    );
    let g = generate("scripts/vaults.lua", 7, &[]).unwrap();
    let map = tiled::Loader::new()
        .load_tmx_map(dir.join("e.tmx"))
        .unwrap();
    let tileset = &map.tilesets()[0];
    assert_eq!(tileset.tilecount as usize, g.tile_kinds().count());
    assert!(
        tileset.get_tile(0).unwrap().collision.is_some(),
        "walls are solid"
    );
    if available("tiled", &["--version"]) {
        let read = tiled_reads(&dir.join("e.tmx"), dir);
        assert_eq!(read["tilesets"][0]["name"], "dunlua");
    }
    // The Lua export is Lua 5.1 (LuaJIT, LÖVE) and Lua 5.4 alike.
    let lua = mlua::Lua::new();
    let text = std::fs::read_to_string(dir.join("e.lua")).unwrap();
    let map: mlua::Table = lua.load(&text).eval().unwrap();
    assert_eq!(map.get::<i64>("width").unwrap(), g.width() as i64);
    let layers: mlua::Table = map.get("layers").unwrap();
    let tiles: mlua::Table = layers.get::<mlua::Table>(1).unwrap().get("data").unwrap();
    assert_eq!(tiles.raw_len(), g.width() * g.height());
    let props: mlua::Table = map.get("properties").unwrap();
    assert_eq!(
        props.get::<String>("hash").unwrap(),
        format!("{:016x}", g.hash())
    );
}

#[test]
fn names_a_script_chooses_survive_every_format() {
    let scratch = Scratch::new();
    let name = "a <b> & \"c\" 'd' \\ ]] ♣\nline";
    let script = format!(
        "return {{ width = 6, height = 4, params = {{ label = {name:?} }}, generate = function(map, rng, p)\n\
           map:carve_room(Rect.new(0, 0, 5, 3)) map:set_start(1, 1) map:mark(2, 2, p.label)\n\
         end }}\n"
    );
    scratch.write("names.lua", &script);
    let run = crate::util::dunlua_in(
        scratch.path(),
        &[
            "names.lua",
            "--seed",
            "1",
            "--out",
            "n.tmx",
            "--out",
            "n.lua",
            "--out",
            "n.tmj",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dir = scratch.path();
    let map = tiled::Loader::new()
        .load_tmx_map(dir.join("n.tmx"))
        .unwrap();
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let marker = objects.objects().find(|o| o.user_type == "marker").unwrap();
    assert_eq!(marker.name, name);
    assert_eq!(
        map.properties.get("param.label"),
        Some(&tiled::PropertyValue::StringValue(name.into()))
    );
    let lua = mlua::Lua::new();
    let table: mlua::Table = lua
        .load(std::fs::read_to_string(dir.join("n.lua")).unwrap())
        .eval()
        .unwrap();
    let props: mlua::Table = table.get("properties").unwrap();
    assert_eq!(props.get::<String>("param.label").unwrap(), name);
    let tmj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("n.tmj")).unwrap()).unwrap();
    assert_eq!(tmj["layers"][1]["objects"][1]["name"], name);
}

/// Text XML 1.0 cannot hold (control characters, the non-characters
/// U+FFFE and U+FFFF) in a marker's name, its data or a parameter is
/// written as U+FFFD: the .tmx stays well-formed for a strict parser
/// (Python's expat, as pytmx and pytiled-parser read it) and for the
/// `tiled` crate.
#[test]
fn text_xml_cannot_hold_is_replaced_in_tmx() {
    let scratch = Scratch::new();
    scratch.write(
        "odd.lua",
        "return { width = 6, height = 4, params = { label = 'p\\u{FFFF}' }, generate = function(map, rng, p)\n\
           map:carve_room(Rect.new(0, 0, 5, 3)) map:set_start(1, 1)\n\
           map:mark(2, 2, 'gem\\u{FFFF}\\1', { note = 'x\\u{FFFE}' .. p.label })\n\
         end }\n",
    );
    let run = crate::util::dunlua_in(
        scratch.path(),
        &["odd.lua", "--seed", "1", "--out", "o.tmx"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tmx = scratch.path().join("o.tmx");
    let map = tiled::Loader::new().load_tmx_map(&tmx).unwrap();
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let marker = objects.objects().find(|o| o.user_type == "marker").unwrap();
    assert_eq!(marker.name, "gem\u{FFFD}\u{FFFD}");
    let strict = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1]); print('ok')",
        ])
        .arg(&tmx)
        .output();
    match strict {
        Ok(out) => assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "ok",
            "{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => assert!(std::env::var_os("CI").is_none(), "python3 is missing: {e}"),
    }
}

/// The three Tiled formats hold the same text: a character XML 1.0 cannot
/// hold is U+FFFD in the `.tmj` and the `.lua` too, as in the `.tmx`
/// (tab and newline are kept in all three).
#[test]
fn the_three_tiled_formats_hold_the_same_marker_name() {
    let scratch = Scratch::new();
    scratch.write(
        "ctl.lua",
        "return { width = 8, height = 5, generate = function(map, rng)\n\
           map:carve_room(Rect.new(0, 0, 7, 4)) map:set_start(1, 1)\n\
           map:mark(6, 3, 'ctl\\n\\t\\x01name\\u{FFFE}', { note = 'a\\x1bb' })\n\
         end }\n",
    );
    let run = crate::util::dunlua_in(
        scratch.path(),
        &[
            "ctl.lua", "--seed", "1", "--out", "o.tmx", "--out", "o.tmj", "--out", "o.lua",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dir = scratch.path();
    let want = ("ctl\n\t\u{FFFD}name\u{FFFD}", "a\u{FFFD}b");
    let map = tiled::Loader::new()
        .load_tmx_map(dir.join("o.tmx"))
        .unwrap();
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let marker = objects.objects().find(|o| o.user_type == "marker").unwrap();
    let note = match marker.properties.get("note") {
        Some(tiled::PropertyValue::StringValue(s)) => s.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!((marker.name.as_str(), note.as_str()), want, ".tmx");
    let tmj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("o.tmj")).unwrap()).unwrap();
    let marker = tmj["layers"][1]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["type"] == "marker")
        .unwrap();
    let note = marker["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "note")
        .unwrap();
    assert_eq!(
        (
            marker["name"].as_str().unwrap(),
            note["value"].as_str().unwrap()
        ),
        want,
        ".tmj"
    );
    let lua = mlua::Lua::new();
    let table: mlua::Table = lua
        .load(std::fs::read_to_string(dir.join("o.lua")).unwrap())
        .eval()
        .unwrap();
    let layers: mlua::Table = table.get("layers").unwrap();
    let objects: mlua::Table = layers
        .get::<mlua::Table>(2)
        .unwrap()
        .get("objects")
        .unwrap();
    let marker = objects
        .sequence_values::<mlua::Table>()
        .map(Result::unwrap)
        .find(|o| o.get::<String>("type").unwrap() == "marker")
        .unwrap();
    let name: String = marker.get("name").unwrap();
    let props: mlua::Table = marker.get("properties").unwrap();
    let note: String = props.get("note").unwrap();
    assert_eq!((name.as_str(), note.as_str()), want, ".lua");
}

/// A marker's props named like what its object already has (its cell,
/// Tiled's attributes, pytmx's) are renamed `NAME_2`, and integers past
/// Tiled's 32-bit `int` are floats (or strings), in every Tiled format:
/// pytmx and the `tiled` crate load the map.
#[test]
fn clashing_marker_props_and_wide_integers_load_everywhere() {
    let scratch = Scratch::new();
    scratch.write(
        "clash.lua",
        "return { width = 6, height = 4, params = { big = 2147483648 }, generate = function(map, rng, p)\n\
           map:carve_room(Rect.new(0, 0, 5, 3)) map:set_start(1, 1)\n\
           map:mark(2, 2, 'monster', { name = 'Grog', type = 'orc', hp = 12, cell_x = 99,\n\
             gold = 3000000000, huge = math.maxinteger, name_2 = 'kept' })\n\
         end }\n",
    );
    let made = crate::util::dunlua_in(
        scratch.path(),
        &[
            "clash.lua",
            "--seed",
            "1",
            "--out",
            "c.tmx",
            "--out",
            "c.tmj",
            "--out",
            "c.lua",
        ],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let dir = scratch.path();
    let want = serde_json::json!({
        "name_3": "Grog", "type_2": "orc", "hp": 12, "cell_x_2": 99,
        "gold": 3e9, "huge": i64::MAX.to_string(), "name_2": "kept",
        "cell_x": 2, "cell_y": 2,
    });
    // The .tmj, as written.
    let tmj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("c.tmj")).unwrap()).unwrap();
    let marker = &tmj["layers"][1]["objects"][1];
    assert_eq!(marker["name"], "monster");
    let props: serde_json::Map<String, serde_json::Value> = marker["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["value"].clone()))
        .collect();
    assert_eq!(serde_json::Value::Object(props), want);
    let types: BTreeMap<&str, &str> = marker["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        (types["hp"], types["gold"], types["huge"], types["cell_x"]),
        ("int", "float", "string", "int")
    );
    let big = tmj["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "param.big")
        .unwrap();
    assert_eq!(
        (&big["type"], &big["value"]),
        (&"float".into(), &2147483648.0.into())
    );
    // The .lua, as STI reads it.
    let lua = mlua::Lua::new();
    let table: mlua::Table = lua
        .load(std::fs::read_to_string(dir.join("c.lua")).unwrap())
        .eval()
        .unwrap();
    let layers: mlua::Table = table.get("layers").unwrap();
    let objects: mlua::Table = layers
        .get::<mlua::Table>(2)
        .unwrap()
        .get("objects")
        .unwrap();
    let props: mlua::Table = objects
        .get::<mlua::Table>(2)
        .unwrap()
        .get("properties")
        .unwrap();
    assert_eq!(props.get::<String>("name_3").unwrap(), "Grog");
    assert_eq!(props.get::<i64>("cell_x").unwrap(), 2);
    assert_eq!(props.get::<i64>("cell_x_2").unwrap(), 99);
    assert_eq!(props.get::<f64>("gold").unwrap(), 3e9);
    assert_eq!(props.get::<String>("huge").unwrap(), i64::MAX.to_string());
    // The .tmx, by the `tiled` crate and by pytmx.
    let map = tiled::Loader::new()
        .load_tmx_map(dir.join("c.tmx"))
        .expect("the tiled crate loads the map");
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let marker = objects.objects().find(|o| o.user_type == "marker").unwrap();
    assert_eq!(
        marker.properties.get("cell_x"),
        Some(&tiled::PropertyValue::IntValue(2))
    );
    assert_eq!(
        marker.properties.get("gold"),
        Some(&tiled::PropertyValue::FloatValue(3e9))
    );
    let probe = ["-c", "import pytmx"];
    if !available("python3", &probe) {
        return;
    }
    let read = run(
        "python3",
        &[
            Path::new("-c"),
            Path::new(
                "import json, sys, warnings; warnings.filterwarnings('ignore'); import pytmx\n\
                 m = pytmx.TiledMap(sys.argv[1])\n\
                 o = [o for o in m.objects if o.type == 'marker'][0]\n\
                 print(json.dumps(dict(o.properties)))",
            ),
            &dir.join("c.tmx"),
        ],
        dir,
    );
    let read: serde_json::Value =
        serde_json::from_str(read.lines().rfind(|l| l.starts_with('{')).unwrap()).unwrap();
    assert_eq!(read, want);
}
