//! The JSON export against its published schema (`docs/map.schema.json`):
//! every reference script's map validates (with Python's jsonschema, the
//! reference validator; under `CI` it must be installed), the schema names
//! exactly the keys dunlua writes, and kinds that share a glyph export,
//! validate and read back into the same map through the id form.

use std::collections::BTreeSet;
use std::process::Command;

use crate::util::{generate, generate_levels, reference_scripts, root, Scratch};

const SHARED_GLYPH: &str = "tiles.define(\"lava\", { glyph = \"~\", color = \"#ff4000\", walkable = false, transparent = true })\n\
return { width = 12, height = 6, generate = function(map)\n\
  map:carve_room(Rect.new(0, 0, 11, 5))\n\
  map:set(3, 2, \"water\") map:set(4, 2, \"lava\")\n\
  map:set_start(1, 1) map:mark(8, 3, \"key\", { opens = \"vault\", uses = 1 })\n\
  map:add_room(map:select(\"water\"), { name = \"pools\", kind = \"wet\" })\n\
end }\n";

fn schema() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(root().join("docs/map.schema.json")).unwrap())
        .unwrap()
}

fn keys(value: &serde_json::Value) -> BTreeSet<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn the_schema_names_exactly_the_keys_dunlua_writes() {
    let root_schema = schema();
    let schema = &root_schema["$defs"]["map"];
    let written: serde_json::Value =
        serde_json::from_str(&generate("scripts/vaults.lua", 3, &[]).unwrap().to_json()).unwrap();
    let mut with_level = keys(&written);
    with_level.insert("level".into());
    assert_eq!(
        with_level,
        keys(&schema["properties"]),
        "level only in a dungeon"
    );
    let required = |schema: &serde_json::Value| -> BTreeSet<String> {
        schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(required(schema), keys(&written));
    let levels = generate_levels("scripts/levels.lua", 3, &[]).unwrap();
    let dungeon: serde_json::Value =
        serde_json::from_str(&dunlua::json::levels_to_string(&levels)).unwrap();
    let dungeon_schema = &root_schema["$defs"]["dungeon"];
    assert_eq!(keys(&dungeon), keys(&dungeon_schema["properties"]));
    assert_eq!(required(dungeon_schema), keys(&dungeon));
    assert_eq!(keys(&dungeon["levels"][0]), with_level);
    assert_eq!(dungeon["levels"][4]["level"], 5);
    assert_eq!(
        keys(&written["tiles"][0]),
        keys(&schema["properties"]["tiles"]["items"]["properties"])
    );
    assert_eq!(
        keys(&written["markers"][0]),
        keys(&schema["properties"]["markers"]["items"]["properties"])
    );
    assert_eq!(written["format"], schema["properties"]["format"]["const"]);
}

#[test]
fn kinds_that_share_a_glyph_export_and_read_back() {
    let scratch = Scratch::new();
    let g = scratch.run("shared.lua", SHARED_GLYPH).unwrap();
    let json: dunlua::json::JsonMap = serde_json::from_str(&g.to_json()).unwrap();
    // The text shows both as `~`; only the ids tell them apart.
    assert_eq!(json.rows[2], "#..~~......#");
    let (water, lava) = (json.cells[2 * 12 + 3], json.cells[2 * 12 + 4]);
    assert_eq!(json.tiles[water as usize].name, "water");
    assert_eq!(json.tiles[lava as usize].name, "lava");
    assert_eq!(
        json.legend["~"].name, "water",
        "the legend keeps the first kind of a glyph"
    );
    let back = dunlua::json::read_map(&json).unwrap();
    assert_eq!(back, g.map, "the id form tells lava from water");
    assert_eq!(json.seed_string, "1");
}

#[test]
fn every_reference_scripts_json_validates_against_the_schema() {
    let found = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 with jsonschema is missing, and CI must validate (see .ci/run)"
        );
        eprintln!("SKIPPED: python3 with jsonschema is not installed");
        return;
    }
    let scratch = Scratch::new();
    let mut files = Vec::new();
    for script in reference_scripts() {
        // A multi-level script's file is a dungeon of every level.
        let levels = generate_levels(&format!("scripts/{script}"), 1, &[]).unwrap();
        let text = dunlua::json::levels_to_string(&levels);
        files.push(scratch.write(&format!("{script}.json"), &text));
    }
    let g = scratch.run("shared.lua", SHARED_GLYPH).unwrap();
    files.push(scratch.write("shared.json", &g.to_json()));
    // A seed JavaScript cannot hold exactly, as text too.
    let big = generate("scripts/rooms.lua", u64::MAX, &[]).unwrap();
    files.push(scratch.write("big-seed.json", &big.to_json()));
    let output = Command::new("python3")
        .arg(root().join("tests/clients/validate_json.py"))
        .arg(root().join("docs/map.schema.json"))
        .args(&files)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(said.trim(), format!("ok {}", files.len()));
}
