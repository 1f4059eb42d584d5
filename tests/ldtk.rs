//! The LDtk export (`--out map.ldtk`) read by LDtk's own tools: every
//! reference script's project validates against LDtk's JSON schema and
//! reads back through LDtk's quicktype parser with the tiles, start,
//! markers and rooms of dunlua's JSON export (`tests/clients/ldtk`, Python
//! with jsonschema; under `CI` it must run); the auto-layer's tiles drawn
//! from the tileset image are the PNG export's cells; a dungeon is one
//! project with a level per level; writes are all or nothing.

use std::process::Command;

use dunlua::map::Rgb;
use dunlua::render::Frame;

use crate::util::{dunlua_in, files_in, reference_scripts, root, Scratch};

/// Whether Python with jsonschema runs; under CI it must.
fn python_ready() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 with jsonschema is missing, and CI must run it (see .ci/run)"
        );
        eprintln!("SKIPPED: python3 with jsonschema is not installed");
    }
    ok
}

/// Runs LDtk's schema and parser over `(project, dunlua json)` pairs.
fn check_with_ldtk(dir: &std::path::Path, pairs: &[(String, String)]) {
    let mut args = vec![root()
        .join("tests/clients/ldtk/check_ldtk.py")
        .display()
        .to_string()];
    for (a, b) in pairs {
        args.push(a.clone());
        args.push(b.clone());
    }
    let out = Command::new("python3")
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.trim(), format!("ok {}", pairs.len()));
}

fn run_ok(dir: &std::path::Path, args: &[&str]) {
    let run = dunlua_in(dir, args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
}

#[test]
fn every_reference_script_validates_and_reads_back_through_ldtk_s_parser() {
    if !python_ready() {
        return;
    }
    let scratch = Scratch::new();
    let mut pairs = Vec::new();
    for script in reference_scripts() {
        let stem = script.trim_end_matches(".lua");
        let path = root().join("scripts").join(&script);
        let (ldtk, json) = (format!("{stem}.ldtk"), format!("{stem}.json"));
        run_ok(
            scratch.path(),
            &[
                path.to_str().unwrap(),
                "--seed",
                "5",
                "--out",
                &ldtk,
                "--out",
                &json,
                "--timeout",
                crate::util::SLOW_BUILD_TIMEOUT,
            ],
        );
        pairs.push((ldtk, json));
    }
    assert!(pairs.len() >= 15, "{pairs:?}");
    check_with_ldtk(scratch.path(), &pairs);
}

#[test]
fn the_schema_check_catches_a_broken_project() {
    if !python_ready() {
        return;
    }
    let scratch = Scratch::new();
    let rooms = root().join("scripts/rooms.lua");
    run_ok(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "1",
            "--out",
            "r.ldtk",
            "--out",
            "r.json",
        ],
    );
    let path = scratch.path().join("r.ldtk");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["levels"][0]["layerInstances"][0]["entityInstances"][0]["px"] = "here".into();
    std::fs::write(&path, doc.to_string()).unwrap();
    let out = Command::new("python3")
        .arg(root().join("tests/clients/ldtk/check_ldtk.py"))
        .args(["r.ldtk", "r.json"])
        .current_dir(scratch.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("is not of type 'array'"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn read_png(path: &std::path::Path) -> Frame {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let mut frame = Frame::new(info.width as usize, info.height as usize, Rgb(0, 0, 0));
    for (i, p) in buf.chunks(3).take(frame.pixels.len()).enumerate() {
        frame.pixels[i] = dunlua::render::pack(Rgb(p[0], p[1], p[2]));
    }
    frame
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_auto_layer_draws_the_level_as_the_png_does() {
    let scratch = Scratch::new();
    let vaults = root().join("scripts/vaults.lua");
    run_ok(
        scratch.path(),
        &[
            vaults.to_str().unwrap(),
            "--seed",
            "7",
            "--cell-size",
            "16",
            "--out",
            "v.ldtk",
            "--out",
            "v.png",
            "--out",
            "v.json",
        ],
    );
    let doc = read_json(&scratch.path().join("v.ldtk"));
    let map = read_json(&scratch.path().join("v.json"));
    let tileset = read_png(&scratch.path().join("v.tiles.png"));
    let png = read_png(&scratch.path().join("v.png"));
    let layer = &doc["levels"][0]["layerInstances"][2];
    assert_eq!(layer["__identifier"], "Tiles");
    assert_eq!(layer["__tilesetRelPath"], "v.tiles.png");
    let g = layer["__gridSize"].as_u64().unwrap() as usize;
    assert_eq!(g, 16);
    let mut drawn = Frame::new(png.width, png.height, Rgb(1, 2, 3));
    for t in layer["autoLayerTiles"].as_array().unwrap() {
        let at = |k: &str, i: usize| t[k][i].as_u64().unwrap() as usize;
        for dy in 0..g {
            for dx in 0..g {
                let p = tileset.get(at("src", 0) + dx, at("src", 1) + dy);
                drawn.pixels[(at("px", 1) + dy) * drawn.width + at("px", 0) + dx] =
                    dunlua::render::pack(p);
            }
        }
    }
    // Every cell but those the PNG draws a marker or the start on.
    let mut covered: Vec<(usize, usize)> = map["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["x"].as_u64().unwrap() as usize,
                m["y"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    covered.push((
        map["start"]["x"].as_u64().unwrap() as usize,
        map["start"]["y"].as_u64().unwrap() as usize,
    ));
    let (w, h) = (png.width / g, png.height / g);
    let mut compared = 0;
    for cy in 0..h {
        for cx in 0..w {
            if covered.contains(&(cx, cy)) {
                continue;
            }
            for dy in 0..g {
                for dx in 0..g {
                    let (x, y) = (cx * g + dx, cy * g + dy);
                    assert_eq!(drawn.get(x, y), png.get(x, y), "cell {cx},{cy}");
                }
            }
            compared += 1;
        }
    }
    assert!(compared > w * h - covered.len() - 1, "{compared}");
}

#[test]
fn a_dungeon_is_one_project_with_a_level_per_level() {
    let scratch = Scratch::new();
    let levels = root().join("scripts/levels.lua");
    let args = [
        levels.to_str().unwrap(),
        "--seed",
        "3",
        "--out",
        "d.ldtk",
        "--out",
        "d.json",
    ];
    run_ok(scratch.path(), &args);
    assert_eq!(
        files_in(scratch.path()),
        ["d.json", "d.ldtk", "d.tiles.png"]
    );
    let first = std::fs::read(scratch.path().join("d.ldtk")).unwrap();
    let doc = read_json(&scratch.path().join("d.ldtk"));
    let json = read_json(&scratch.path().join("d.json"));
    let count = json["levels"].as_array().unwrap().len();
    assert!(count > 1);
    assert_eq!(doc["worldLayout"], "LinearVertical");
    let ldtk_levels = doc["levels"].as_array().unwrap();
    assert_eq!(ldtk_levels.len(), count);
    let mut bottom = 0;
    for (k, level) in ldtk_levels.iter().enumerate() {
        assert_eq!(level["identifier"], format!("Level_{}", k + 1));
        let y = level["worldY"].as_i64().unwrap();
        assert!(y >= bottom, "levels stack without overlapping");
        bottom = y + level["pxHei"].as_i64().unwrap();
    }
    if python_ready() {
        check_with_ldtk(scratch.path(), &[("d.ldtk".into(), "d.json".into())]);
    }
    // The same run writes the same bytes.
    run_ok(scratch.path(), &args);
    assert_eq!(std::fs::read(scratch.path().join("d.ldtk")).unwrap(), first);
}

#[test]
fn ldtk_and_tiled_share_one_tileset_image() {
    let scratch = Scratch::new();
    let rooms = root().join("scripts/rooms.lua");
    run_ok(
        scratch.path(),
        &[
            rooms.to_str().unwrap(),
            "--seed",
            "2",
            "--out",
            "m.tmj",
            "--out",
            "m.ldtk",
        ],
    );
    assert_eq!(files_in(scratch.path()), ["m.ldtk", "m.tiles.png", "m.tmj"]);
}

#[test]
fn a_project_whose_tileset_cannot_be_written_is_not_touched() {
    let scratch = Scratch::new();
    scratch.write("m.ldtk", "OLD\n");
    std::fs::create_dir(scratch.path().join("m.tiles.png")).unwrap();
    std::fs::write(scratch.path().join("m.tiles.png/keep"), "x").unwrap();
    let rooms = root().join("scripts/rooms.lua");
    let run = dunlua_in(
        scratch.path(),
        &[rooms.to_str().unwrap(), "--seed", "7", "--out", "m.ldtk"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("dunlua: cannot write m.tiles.png"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("m.ldtk")).unwrap(),
        "OLD\n"
    );
    assert_eq!(files_in(scratch.path()), ["m.ldtk", "m.tiles.png"]);
}

#[test]
fn marker_names_and_props_ldtk_cannot_spell_are_kept() {
    let scratch = Scratch::new();
    scratch.write(
        "odd.lua",
        "return { width = 10, height = 6, generate = function(map)\n\
           tiles.define(\"1x\", { glyph = \"x\", walkable = true })\n\
           map:carve_room(Rect.new(0, 0, 9, 5)) map:set_start(1, 1)\n\
           map:set(5, 3, \"1x\")\n\
           map:mark(2, 2, \"boss lair\", { [\"hit points\"] = 30, tough = true })\n\
           map:mark(3, 2, \"boss lair\", { [\"hit points\"] = 2.5 })\n\
           map:mark(4, 2, \"Start\", { note = \"a marker named like the start\" })\n\
           map:add_room(Rect.new(0, 0, 9, 5), { name = \"hall\", kind = \"big\" })\n\
         end }\n",
    );
    run_ok(
        scratch.path(),
        &[
            "odd.lua", "--seed", "1", "--out", "o.ldtk", "--out", "o.json",
        ],
    );
    let doc = read_json(&scratch.path().join("o.ldtk"));
    let defs: Vec<String> = doc["defs"]["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["identifier"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(defs, ["Start", "Room", "boss_lair", "Start_2"]);
    // Kind names are IntGrid value identifiers, spelled as LDtk's.
    let tiles = doc["defs"]["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["identifier"] == "Tiles")
        .unwrap();
    let kinds: Vec<&str> = tiles["intGridValues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["identifier"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"_1x"), "{kinds:?}");
    assert!(
        kinds.contains(&"floor") && !kinds.contains(&"1x"),
        "{kinds:?}"
    );
    let lair = &doc["defs"]["entities"][2]["fieldDefs"];
    let fields: Vec<(&str, &str)> = lair
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["identifier"].as_str().unwrap(),
                f["__type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("hit_points", "Float"),
            ("tough", "Bool"),
            ("name", "String")
        ]
    );
    if python_ready() {
        check_with_ldtk(scratch.path(), &[("o.ldtk".into(), "o.json".into())]);
    }
}

/// The identifier of each field of the entity definition called `entity`,
/// with its `doc`.
fn fields_of<'a>(doc: &'a serde_json::Value, entity: &str) -> Vec<(&'a str, Option<&'a str>)> {
    doc["defs"]["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["identifier"] == entity)
        .unwrap_or_else(|| panic!("no entity {entity}"))["fieldDefs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["identifier"].as_str().unwrap(), f["doc"].as_str()))
        .collect()
}

/// The fields of the first instance of `entity` in level 1, identifier to
/// value.
fn instance_of(doc: &serde_json::Value, entity: &str) -> Vec<(String, serde_json::Value)> {
    doc["levels"][0]["layerInstances"][0]["entityInstances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["__identifier"] == entity)
        .unwrap_or_else(|| panic!("no instance of {entity}"))["fieldInstances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["__identifier"].as_str().unwrap().to_string(),
                f["__value"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_renamed_marker_keeps_its_name_beside_a_prop_called_name() {
    // A marker LDtk cannot spell keeps its name as given in `name`, even
    // when it has a prop `name` of its own (that prop used to take the
    // field, and the marker's name was lost); names LDtk can spell keep
    // their identifiers, and only the changed ones give way (`_2`), the
    // prop's name as given in the field's `doc`.
    let scratch = Scratch::new();
    scratch.write(
        "named.lua",
        "return { width = 10, height = 6, generate = function(map)\n\
           map:carve_room(Rect.new(0, 0, 9, 5)) map:set_start(1, 1)\n\
           map:mark(2, 2, \"boss-lair\", { name = \"Azog\", hp = 30 })\n\
           map:mark(3, 2, \"chest\", { [\"gold coins\"] = 1, gold_coins = 2 })\n\
           map:mark(4, 2, \"a-b\") map:mark(5, 2, \"a_b\")\n\
         end }\n",
    );
    run_ok(
        scratch.path(),
        &[
            "named.lua",
            "--seed",
            "1",
            "--out",
            "n.ldtk",
            "--out",
            "n.json",
        ],
    );
    let doc = read_json(&scratch.path().join("n.ldtk"));
    let lair = instance_of(&doc, "boss_lair");
    assert!(
        lair.contains(&("name".into(), "boss-lair".into())),
        "{lair:?}"
    );
    assert!(lair.contains(&("name_2".into(), "Azog".into())), "{lair:?}");
    let fields = fields_of(&doc, "boss_lair");
    assert!(fields.contains(&("name_2", Some("name"))), "{fields:?}");
    let chest = instance_of(&doc, "chest");
    assert!(
        chest.contains(&("gold_coins".into(), 2.into())),
        "{chest:?}"
    );
    assert!(
        chest.contains(&("gold_coins_2".into(), 1.into())),
        "{chest:?}"
    );
    let fields = fields_of(&doc, "chest");
    assert!(fields.contains(&("gold_coins", None)), "{fields:?}");
    assert!(
        fields.contains(&("gold_coins_2", Some("gold coins"))),
        "{fields:?}"
    );
    // The marker named `a_b` is the entity `a_b`; `a-b` gives way.
    assert!(fields_of(&doc, "a_b").is_empty());
    let ab = instance_of(&doc, "a_b_2");
    assert_eq!(ab, [("name".to_string(), "a-b".into())]);
    if python_ready() {
        check_with_ldtk(scratch.path(), &[("n.ldtk".into(), "n.json".into())]);
    }
}

#[test]
fn help_lists_every_output_format_the_writer_takes() {
    let run = crate::util::dunlua(&["--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let help = run.stdout.replace('\n', " ");
    let listed = help
        .split("the format follows the extension (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("--out's help names the extensions");
    let exts: Vec<&str> = listed.split(", ").collect();
    assert!(exts.contains(&".ldtk"), "{listed}");
    for ext in &exts {
        let path = std::path::PathBuf::from(format!("m{ext}"));
        assert!(dunlua::export::Format::for_path(&path).is_ok(), "{ext}");
    }
    // The writer's own list, as its error gives it, is the same one.
    let err = dunlua::export::Format::for_path(std::path::Path::new("m.bmp"))
        .unwrap_err()
        .to_string();
    assert!(err.ends_with(&format!("use one of {listed}")), "{err}");
}

/// Integer props wider than LDtk's 32-bit `Int` are a `Float` while a
/// double holds them exactly and text past that: they were `Int` fields
/// holding 2^40 or 9223372036854775807, which LDtk's editor rounds.
#[test]
fn integers_wider_than_an_int_keep_their_value() {
    let scratch = Scratch::new();
    scratch.write(
        "wide.lua",
        "return { width = 10, height = 6, generate = function(map)\n\
           map:carve_room(Rect.new(0, 0, 9, 5)) map:set_start(1, 1)\n\
           map:mark(2, 2, \"m\", { small = 7, big = 1 << 40, huge = math.maxinteger, least = math.mininteger })\n\
         end }\n",
    );
    run_ok(
        scratch.path(),
        &[
            "wide.lua", "--seed", "1", "--out", "w.ldtk", "--out", "w.json",
        ],
    );
    let doc = read_json(&scratch.path().join("w.ldtk"));
    let entity = doc["defs"]["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["identifier"] == "m")
        .unwrap();
    let types: Vec<(&str, &str)> = entity["fieldDefs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["identifier"].as_str().unwrap(),
                f["__type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        types,
        [
            ("big", "Float"),
            ("huge", "String"),
            ("least", "String"),
            ("small", "Int")
        ]
    );
    let values: Vec<(String, serde_json::Value)> = instance_of(&doc, "m");
    let value = |name: &str| values.iter().find(|(k, _)| k == name).unwrap().1.clone();
    assert_eq!(value("small"), serde_json::json!(7));
    assert_eq!(value("big"), serde_json::json!(1099511627776.0));
    assert_eq!(value("huge"), serde_json::json!("9223372036854775807"));
    assert_eq!(value("least"), serde_json::json!("-9223372036854775808"));
    if python_ready() {
        check_with_ldtk(scratch.path(), &[("w.ldtk".into(), "w.json".into())]);
    }
}
