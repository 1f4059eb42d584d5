//! Tiled's JSON map format (`.tmj`), with the tileset embedded. Every field
//! Tiled itself writes is present (`visible`, `rotation`, `opacity`, ...),
//! so strict parsers such as pytiled-parser accept it.

use serde::{Serialize, Serializer};
use serde_json::{json, Value as Json};

use super::{
    xml_text, Doc, ObjectDoc, Properties, Tileset, TilesetDoc, Value, TILED_VERSION, VERSION,
};
use crate::map::Map;

/// A Tiled JSON document, ready to serialise. The tile layer's one number
/// per cell is written straight from the map as it is serialised, never
/// gathered into a JSON tree (which would take ~32 bytes a cell).
#[derive(Serialize)]
pub struct Tmj<'a> {
    #[serde(flatten)]
    head: Json,
    layers: (TileLayer<'a>, Json),
}

#[derive(Serialize)]
struct TileLayer<'a> {
    #[serde(flatten)]
    head: Json,
    data: CellIds<'a>,
}

/// The map's cells as Tiled global tile ids, row by row (each kind's gid).
struct CellIds<'a>(&'a Map, Vec<u32>);

impl Serialize for CellIds<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.cells().iter().map(|t| self.1[t.index()]))
    }
}

/// Every string in `json` (every value: names are values in Tiled's JSON)
/// as the `.tmx` holds it ([`xml_text`]).
fn as_in_tmx(json: &mut Json) {
    match json {
        Json::String(s) => {
            if let std::borrow::Cow::Owned(safe) = xml_text(s) {
                *s = safe;
            }
        }
        Json::Array(items) => items.iter_mut().for_each(as_in_tmx),
        Json::Object(fields) => fields.values_mut().for_each(as_in_tmx),
        _ => {}
    }
}

fn value(v: &Value) -> Json {
    match v {
        Value::Text(s) => json!(s),
        Value::Int(i) => json!(i),
        Value::Float(f) => json!(f),
        Value::Bool(b) => json!(b),
    }
}

pub(super) fn properties(props: &Properties) -> Json {
    Json::Array(
        props
            .iter()
            .map(|(name, v)| json!({ "name": name, "type": v.type_name(), "value": value(v) }))
            .collect(),
    )
}

fn object(o: &ObjectDoc) -> Json {
    let mut object = json!({
        "id": o.id, "name": o.name, "type": o.class,
        "x": o.x, "y": o.y, "width": o.width, "height": o.height,
        "rotation": 0, "visible": true, "properties": properties(&o.properties),
    });
    if o.point {
        object["point"] = json!(true);
    }
    object
}

/// The tileset as a JSON object (embedded in a map, with `firstgid`).
pub fn tileset(set: &TilesetDoc, firstgid: Option<u32>) -> Json {
    let tile = set.tile;
    let tiles: Vec<Json> = set
        .tiles
        .iter()
        .map(|t| {
            let mut entry = json!({
                "id": t.id, "type": t.class,
                "properties": properties(&t.properties),
            });
            if t.solid {
                entry["objectgroup"] = json!({
                    "type": "objectgroup", "id": 2, "name": "", "draworder": "index",
                    "x": 0, "y": 0, "opacity": 1, "visible": true,
                    "objects": [{
                        "id": 1, "name": "", "type": "",
                        "x": 0, "y": 0, "width": tile, "height": tile,
                        "rotation": 0, "visible": true,
                    }],
                });
            }
            entry
        })
        .collect();
    let mut json = json!({
        "name": set.name, "class": "", "image": set.image,
        "imagewidth": set.count() * tile, "imageheight": tile,
        "tilewidth": tile, "tileheight": tile,
        "tilecount": set.count(), "columns": set.count(),
        "margin": 0, "spacing": 0, "objectalignment": "unspecified",
        "tilerendersize": "tile", "fillmode": "stretch",
        "tileoffset": { "x": 0, "y": 0 },
        "grid": { "orientation": "orthogonal", "width": tile, "height": tile },
        "tiles": tiles,
    });
    if let Some(firstgid) = firstgid {
        json["firstgid"] = json!(firstgid);
    }
    json
}

/// The map as a Tiled JSON document.
pub fn to_tmj<'a>(doc: &Doc<'a>) -> Tmj<'a> {
    let map = doc.map;
    let (w, h) = (map.width(), map.height());
    let mut head = json!({
        "type": "map", "version": VERSION, "tiledversion": TILED_VERSION, "class": "",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": false,
        "width": w, "height": h, "tilewidth": doc.tile_width, "tileheight": doc.tile_height,
        "parallaxoriginx": 0, "parallaxoriginy": 0,
        "nextlayerid": 3, "nextobjectid": doc.next_object_id(), "compressionlevel": -1,
        "properties": properties(&doc.properties),
        "tilesets": [match &doc.tileset {
            Tileset::Generated(set) => tileset(set, Some(1)),
            Tileset::User { source, .. } => json!({ "firstgid": 1, "source": source }),
        }],
    });
    let layer_head = |id: u32, kind: &str, name: &str| {
        json!({
            "type": kind, "id": id, "name": name, "class": "",
            "x": 0, "y": 0, "offsetx": 0, "offsety": 0, "parallaxx": 1, "parallaxy": 1,
            "opacity": 1, "visible": true, "properties": [],
        })
    };
    let mut tile_head = layer_head(1, "tilelayer", "tiles");
    tile_head["width"] = json!(w);
    tile_head["height"] = json!(h);
    let mut objects = layer_head(2, "objectgroup", "objects");
    objects["draworder"] = json!("topdown");
    objects["objects"] = Json::Array(doc.objects.iter().map(object).collect());
    for json in [&mut head, &mut tile_head, &mut objects] {
        as_in_tmx(json);
    }
    Tmj {
        head,
        layers: (
            TileLayer {
                head: tile_head,
                data: CellIds(map, doc.kind_gids.clone()),
            },
            objects,
        ),
    }
}
