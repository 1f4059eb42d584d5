//! Exports end to end: Tiled maps that a Tiled parser loads, files that
//! are written whole or not at all.

use std::collections::HashMap;

use tiled_json_rs as tiled;

use crate::util::{dunlua, dunlua_in, root, Scratch};

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
    let ours: dunlua::export::json::JsonMap =
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
    assert_eq!(start.object_type, tiled::ObjectType::Point);
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
    assert_eq!(
        map.properties["script"],
        tiled::TiledValue::String("scripts/vaults.lua".into())
    );
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
        dunlua::export::json::write(&generated, &mut bytes).unwrap();
        let parsed: dunlua::export::json::JsonMap = serde_json::from_slice(&bytes).unwrap();
        let back = dunlua::export::json::read_map(&parsed).unwrap();
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
