//! The Tiled export (`.tmj`, Tiled's JSON map format): one tile layer over a
//! generated tileset image of the map's tile kinds (written beside the map
//! as `NAME.tiles.png`), an object layer with the rooms as rectangles and
//! the start and markers as points, and the seed, script and parameters as
//! custom properties.

use std::path::Path;

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use crate::generated::Generated;
use crate::map::{Map, Rgb};
use crate::params::ParamValue;
use crate::render::{Frame, GLYPH};

/// The tileset image's file name for a map written to `path`.
pub fn tileset_path(path: &Path) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}.tiles.png"))
}

/// One tile per kind, in kind order, each its glyph in its colours.
pub fn tileset_image(generated: &Generated, cell: usize) -> Frame {
    let tiles = generated.map.tiles();
    let mut frame = Frame::new(tiles.len() * cell, cell, Rgb(0, 0, 0));
    for (tile, kind) in tiles.iter() {
        frame.glyph(
            (tile.index() * cell) as i64,
            0,
            cell,
            kind.glyph,
            kind.color,
            kind.background,
        );
    }
    frame
}

fn property(name: &str, value: &ParamValue) -> Value {
    let (kind, v) = match value {
        ParamValue::Integer(i) => ("int", json!(i)),
        ParamValue::Number(n) => ("float", json!(n)),
        ParamValue::Boolean(b) => ("bool", json!(b)),
        ParamValue::Text(s) => ("string", json!(s)),
    };
    json!({ "name": name, "type": kind, "value": v })
}

/// A Tiled JSON document, ready to serialise. The tile layer's one number
/// per cell is written straight from the map as it is serialised, never
/// gathered into a JSON tree (which would take ~32 bytes a cell).
#[derive(Serialize)]
pub struct Tmj<'a> {
    #[serde(flatten)]
    head: Value,
    layers: (TileLayer<'a>, Value),
}

#[derive(Serialize)]
struct TileLayer<'a> {
    #[serde(flatten)]
    head: Value,
    data: CellIds<'a>,
}

/// The map's cells as Tiled global tile ids (kind index + 1), row by row.
struct CellIds<'a>(&'a Map);

impl Serialize for CellIds<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.cells().iter().map(|t| t.index() as u32 + 1))
    }
}

/// The map as a Tiled JSON document; `image` is the tileset image's file
/// name relative to the map, `cell` the tile size in pixels.
pub fn to_tmj<'a>(generated: &'a Generated, image: &str, cell: usize) -> Tmj<'a> {
    let map = &generated.map;
    let p = &generated.provenance;
    let (w, h) = (map.width(), map.height());
    let px = |v: i32| (v as usize * cell) as f64;
    let mut objects = Vec::new();
    let mut next_id = 1;
    for (i, room) in map.rooms().iter().enumerate() {
        objects.push(json!({
            "id": next_id, "name": format!("room {}", i + 1), "type": "room",
            "x": px(room.x1), "y": px(room.y1),
            "width": px(room.w() + 1), "height": px(room.h() + 1),
            "rotation": 0,
        }));
        next_id += 1;
    }
    // Points sit at the centre of their cell.
    let centre = |v: i32| px(v) + cell as f64 / 2.0;
    if let Some((x, y)) = map.start() {
        objects.push(json!({
            "id": next_id, "name": "start", "type": "start", "point": true,
            "x": centre(x), "y": centre(y), "width": 0, "height": 0, "rotation": 0,
        }));
        next_id += 1;
    }
    for m in map.markers() {
        objects.push(json!({
            "id": next_id, "name": m.name, "type": "marker", "point": true,
            "x": centre(m.x), "y": centre(m.y), "width": 0, "height": 0, "rotation": 0,
        }));
        next_id += 1;
    }
    let tiles: Vec<Value> = map
        .tiles()
        .iter()
        .map(|(tile, kind)| {
            json!({
                "id": tile.index(),
                "type": kind.name,
                "properties": [
                    { "name": "name", "type": "string", "value": kind.name },
                    { "name": "glyph", "type": "string", "value": kind.glyph.to_string() },
                    { "name": "walkable", "type": "bool", "value": kind.walkable },
                    { "name": "transparent", "type": "bool", "value": kind.transparent },
                ],
            })
        })
        .collect();
    let count = map.tiles().len();
    let mut properties = vec![
        json!({ "name": "seed", "type": "string", "value": p.seed.to_string() }),
        json!({ "name": "attempt", "type": "int", "value": p.attempt }),
        json!({ "name": "script", "type": "string", "value": p.script }),
        json!({ "name": "name", "type": "string", "value": p.name }),
        json!({ "name": "hash", "type": "string", "value": format!("{:016x}", map.hash64()) }),
    ];
    properties.extend(
        p.params
            .iter()
            .map(|(k, v)| property(&format!("param.{k}"), v)),
    );
    let head = json!({
        "type": "map", "version": "1.10", "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": false,
        "width": w, "height": h, "tilewidth": cell, "tileheight": cell,
        "nextlayerid": 3, "nextobjectid": next_id, "compressionlevel": -1,
        "properties": properties,
        "tilesets": [{
            "firstgid": 1, "name": "dunlua", "image": image,
            "imagewidth": count * cell, "imageheight": cell,
            "tilewidth": cell, "tileheight": cell, "tilecount": count, "columns": count,
            "margin": 0, "spacing": 0, "tiles": tiles,
        }],
    });
    let tile_layer = TileLayer {
        head: json!({
            "type": "tilelayer", "id": 1, "name": "tiles",
            "width": w, "height": h, "x": 0, "y": 0, "opacity": 1, "visible": true,
        }),
        data: CellIds(map),
    };
    let objects = json!({
        "type": "objectgroup", "id": 2, "name": "objects", "draworder": "topdown",
        "x": 0, "y": 0, "opacity": 1, "visible": true, "objects": objects,
    });
    Tmj {
        head,
        layers: (tile_layer, objects),
    }
}

/// The default tile size of the export: the font's, doubled.
pub const DEFAULT_CELL: usize = 2 * GLYPH;
