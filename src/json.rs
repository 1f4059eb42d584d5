//! The JSON form of a map (schema in the guide's JSON chapter, `format` 1): glyph rows
//! with a legend, plus rooms, start, markers and how it was made. What the
//! `.json` export writes and [`Generated::to_json`] returns; it reads back
//! into the same [`Map`] with [`read_map`].

use std::collections::BTreeMap;
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::generated::Generated;
use crate::geom::Rect;
use crate::map::{Map, Rgb, Tile, TileKind, TileSet};
use crate::params::ParamValue;

/// The most bytes a map's JSON may take, as the exports' bound (the
/// command line's `--out` checks the same).
pub const MAX_JSON_BYTES: u64 = 512 << 20;

/// The most bytes a marker, a room or a marker property takes in the JSON
/// (measured at 100k and 1M of them), what the size bound counts.
pub const BYTES_PER_OBJECT: u64 = 700;

/// An error when `generated`'s markers, rooms and marker properties would
/// make its JSON take more than [`MAX_JSON_BYTES`], said before any of it
/// is made: a script within its memory limit can mark a million cells,
/// whose JSON took 0.66 GB.
pub fn check_size(generated: &Generated) -> Result<(), String> {
    let load = ExportLoad::of(&generated.map);
    let need = load.bytes(BYTES_PER_OBJECT);
    if need > MAX_JSON_BYTES {
        return Err(format!(
            "the map's {} markers, rooms and marker properties{} would take about {} MB as JSON, more than the {} MB it may take",
            load.objects,
            load.text_note(),
            need >> 20,
            MAX_JSON_BYTES >> 20
        ));
    }
    Ok(())
}

/// Bytes an export may take for each byte of a script's text it writes
/// (names, property keys and values): a control character is six bytes
/// escaped (`\u0001`), held besides in the tree or the text being built.
pub const BYTES_PER_TEXT_BYTE: u64 = 8;

/// Bytes a shaped room's cell takes written out (`[x, y],` or `x,y;`).
const BYTES_PER_ROOM_CELL: u64 = 16;

/// What a map gives an export to write besides its cells: the markers,
/// rooms and marker properties (objects), the bytes of the script's text
/// among them, and the cells of shaped rooms. An export's memory is about
/// a fixed size an object plus [`BYTES_PER_TEXT_BYTE`] a text byte: a
/// script within its limits can give a hundred markers a 60 KB property
/// each, which counted as objects alone made a 2.5 GB JSON file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportLoad {
    pub objects: u64,
    pub text_bytes: u64,
    pub room_cells: u64,
}

impl ExportLoad {
    pub fn of(map: &Map) -> ExportLoad {
        let mut load = ExportLoad {
            objects: (map.markers().len() + map.rooms().len()) as u64,
            ..ExportLoad::default()
        };
        for m in map.markers() {
            load.objects += m.props.len() as u64;
            load.text_bytes += m.name.len() as u64;
            for (key, value) in &m.props {
                load.text_bytes += key.len() as u64;
                if let ParamValue::Text(t) = value {
                    load.text_bytes += t.len() as u64;
                }
            }
        }
        for d in map.room_details() {
            load.text_bytes += d.name.as_ref().map_or(0, |n| n.len()) as u64;
            load.text_bytes += d.kind.as_ref().map_or(0, |k| k.len()) as u64;
            load.room_cells += d.cells.as_ref().map_or(0, |c| c.count()) as u64;
        }
        load
    }

    /// The sum of two maps' loads (the levels of one export).
    pub fn plus(self, other: ExportLoad) -> ExportLoad {
        ExportLoad {
            objects: self.objects + other.objects,
            text_bytes: self.text_bytes + other.text_bytes,
            room_cells: self.room_cells + other.room_cells,
        }
    }

    /// About the bytes writing it takes, at `per_object` bytes an object.
    pub fn bytes(&self, per_object: u64) -> u64 {
        self.objects
            .saturating_mul(per_object)
            .saturating_add(self.text_bytes.saturating_mul(BYTES_PER_TEXT_BYTE))
            .saturating_add(self.room_cells.saturating_mul(BYTES_PER_ROOM_CELL))
    }

    /// What a refusal adds after the objects: their text, when it is big.
    pub fn text_note(&self) -> String {
        if self.text_bytes >= 1 << 20 {
            format!(" (with {} MB of text)", self.text_bytes >> 20)
        } else {
            String::new()
        }
    }
}

/// The schema version written in `format`; bumped on any incompatible change.
/// Format 2 added the id form (`tiles`, `cells`) and `seed_string`, since
/// kinds may share a glyph; format 1 files (glyph rows only) still read.
pub const FORMAT_VERSION: u32 = 2;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonMap {
    pub format: u32,
    pub width: i32,
    pub height: i32,
    pub seed: u64,
    /// The seed as text: JSON readers that hold numbers as doubles
    /// (JavaScript) lose the low bits of seeds over 2^53.
    #[serde(default)]
    pub seed_string: String,
    /// Which attempt the script accepted (0 unless it rejected maps).
    pub attempt: u32,
    pub script: String,
    pub name: String,
    /// [`Map::hash64`] as 16 hex digits (a string: JSON numbers lose bits).
    pub hash: String,
    pub params: BTreeMap<String, serde_json::Value>,
    /// Every kind by id: what `cells` holds.
    #[serde(default)]
    pub tiles: Vec<JsonKind>,
    /// Each cell's kind id, row by row: cell (x, y) is `cells[y * width + x]`.
    #[serde(default)]
    pub cells: Vec<u8>,
    /// The map as text, one string per row, each cell its kind's glyph (the
    /// first kind's where kinds share a glyph), for people to read.
    pub rows: Vec<String>,
    /// Each glyph of `rows` and its kind (the first, where kinds share it).
    pub legend: BTreeMap<String, JsonTile>,
    pub rooms: Vec<JsonRect>,
    pub start: Option<JsonPoint>,
    pub markers: Vec<JsonMarker>,
    /// Which level of a dungeon this map is (1-based); only in a
    /// dungeon's `levels`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
}

/// A multi-level script's output: every level, in order, each a whole
/// [`JsonMap`] with its `level`. Told apart from a map by `levels`.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonDungeon {
    pub format: u32,
    pub seed: u64,
    #[serde(default)]
    pub seed_string: String,
    pub script: String,
    pub name: String,
    /// [`crate::generated::dungeon_hash`] as 16 hex digits.
    pub hash: String,
    pub levels: Vec<JsonMap>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonTile {
    pub name: String,
    pub walkable: bool,
    pub transparent: bool,
    pub color: String,
    pub bg: String,
}

/// A kind in the id form.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonKind {
    pub id: u8,
    pub name: String,
    pub glyph: String,
    pub walkable: bool,
    pub transparent: bool,
    pub color: String,
    pub bg: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonRect {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
    /// The room's name and kind, when the script gave them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A room that is not its whole rect (a cross, a cave): its cells as
    /// `[x, y]` pairs, row-major.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<[i32; 2]>>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonPoint {
    pub x: i32,
    pub y: i32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonMarker {
    pub x: i32,
    pub y: i32,
    pub name: String,
    /// The data the script gave the marker (`map:mark(x, y, name, props)`).
    #[serde(default)]
    pub props: BTreeMap<String, serde_json::Value>,
}

fn param_json(value: &ParamValue) -> serde_json::Value {
    match value {
        ParamValue::Integer(v) => (*v).into(),
        ParamValue::Number(v) => (*v).into(),
        ParamValue::Boolean(v) => (*v).into(),
        ParamValue::Text(v) => v.clone().into(),
    }
}

/// The serialisable form of a generated map.
pub fn to_json(generated: &Generated) -> JsonMap {
    let map = &generated.map;
    let p = &generated.provenance;
    JsonMap {
        format: FORMAT_VERSION,
        width: map.width(),
        height: map.height(),
        seed: p.seed,
        seed_string: p.seed.to_string(),
        attempt: p.attempt,
        script: p.script.clone(),
        name: p.name.clone(),
        hash: format!("{:016x}", map.hash64()),
        params: p
            .params
            .iter()
            .map(|(k, v)| (k.to_string(), param_json(v)))
            .collect(),
        tiles: map
            .tiles()
            .iter()
            .map(|(t, k)| JsonKind {
                id: t.0,
                name: k.name.clone(),
                glyph: k.glyph.to_string(),
                walkable: k.walkable,
                transparent: k.transparent,
                color: k.color.to_string(),
                bg: k.background.to_string(),
            })
            .collect(),
        cells: map.cells().iter().map(|t| t.0).collect(),
        rows: map.glyph_rows(),
        legend: map
            .tiles()
            .iter()
            .collect::<Vec<_>>()
            .into_iter()
            // Reversed, so where kinds share a glyph the first one stays.
            .rev()
            .map(|(_, k)| {
                let entry = JsonTile {
                    name: k.name.clone(),
                    walkable: k.walkable,
                    transparent: k.transparent,
                    color: k.color.to_string(),
                    bg: k.background.to_string(),
                };
                (k.glyph.to_string(), entry)
            })
            .collect(),
        rooms: map
            .rooms()
            .iter()
            .zip(map.room_details())
            .map(|(r, d)| JsonRect {
                x1: r.x1,
                y1: r.y1,
                x2: r.x2,
                y2: r.y2,
                name: d.name.clone(),
                kind: d.kind.clone(),
                cells: d
                    .cells
                    .as_ref()
                    .map(|sel| sel.points().map(|(x, y)| [x, y]).collect()),
            })
            .collect(),
        start: map.start().map(|(x, y)| JsonPoint { x, y }),
        markers: map
            .markers()
            .iter()
            .map(|m| JsonMarker {
                x: m.x,
                y: m.y,
                name: m.name.clone(),
                props: m
                    .props
                    .iter()
                    .map(|(k, v)| (k.clone(), param_json(v)))
                    .collect(),
            })
            .collect(),
        level: generated.is_level().then_some(p.level),
    }
}

/// The serialisable form of a dungeon's levels (at least one).
pub fn dungeon_json(levels: &[Generated]) -> JsonDungeon {
    let p = &levels[0].provenance;
    JsonDungeon {
        format: FORMAT_VERSION,
        seed: p.seed,
        seed_string: p.seed.to_string(),
        script: p.script.clone(),
        name: p.name.clone(),
        hash: format!("{:016x}", crate::generated::dungeon_hash(levels)),
        levels: levels.iter().map(to_json).collect(),
    }
}

/// Pretty JSON text ending in a newline.
pub fn pretty(value: &impl Serialize) -> String {
    // Serialising plain strings, numbers and maps with string keys cannot fail.
    let mut text = serde_json::to_string_pretty(value)
        .unwrap_or_else(|e| unreachable!("the JSON form always serialises: {e}"));
    text.push('\n');
    text
}

/// The JSON text of a generated map, pretty-printed, ending in a newline.
pub fn to_string(generated: &Generated) -> String {
    pretty(&to_json(generated))
}

pub fn write(generated: &Generated, out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(to_string(generated).as_bytes())
}

/// What a `.json` output holds for a run's levels: the map itself for a
/// one-level script (unchanged), a [`JsonDungeon`] for several.
pub fn levels_to_string(levels: &[Generated]) -> String {
    match levels {
        [one] => to_string(one),
        _ => pretty(&dungeon_json(levels)),
    }
}

/// Rebuilds the map a JSON export describes: tiles (built-ins first, then
/// the legend's other kinds in glyph order), rooms, start and markers.
pub fn read_map(json: &JsonMap) -> Result<Map, String> {
    let mut map = if json.tiles.is_empty() {
        map_from_rows(json)?
    } else {
        map_from_ids(json)?
    };
    let text_error = |e: crate::map::MapError| e.to_string();
    for r in &json.rooms {
        let rect = Rect {
            x1: r.x1,
            y1: r.y1,
            x2: r.x2,
            y2: r.y2,
        };
        let cells = r.cells.as_ref().map(|cells| {
            let (w, h) = (map.width(), map.height());
            let inside: Vec<u32> = cells
                .iter()
                .filter(|[x, y]| (0..w).contains(x) && (0..h).contains(y))
                .map(|[x, y]| (y * w + x) as u32)
                .collect();
            crate::ops::Selection::from_indices(w, h, inside)
        });
        if cells.is_none() && r.name.is_none() && r.kind.is_none() {
            map.add_room(rect).map_err(text_error)?;
        } else {
            map.add_shaped_room(Some(rect), cells, r.name.clone(), r.kind.clone())
                .map_err(text_error)?;
        }
    }
    if let Some(s) = &json.start {
        map.set_start(s.x as i64, s.y as i64).map_err(text_error)?;
    }
    for m in &json.markers {
        let props = m
            .props
            .iter()
            .map(|(k, v)| Ok((k.clone(), json_param(k, v)?)))
            .collect::<Result<Vec<_>, String>>()?;
        map.mark_with(m.x as i64, m.y as i64, &m.name, props)
            .map_err(text_error)?;
    }
    Ok(map)
}

/// A marker property read back from JSON.
fn json_param(key: &str, value: &serde_json::Value) -> Result<ParamValue, String> {
    Ok(match value {
        serde_json::Value::Bool(b) => ParamValue::Boolean(*b),
        serde_json::Value::String(s) => ParamValue::Text(s.clone()),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => ParamValue::Integer(i),
            None => ParamValue::Number(
                n.as_f64()
                    .ok_or_else(|| format!("props.{key}: bad number"))?,
            ),
        },
        other => {
            return Err(format!(
                "props.{key} must be a string, number or boolean, got {other}"
            ))
        }
    })
}

fn colour(text: &str) -> Result<Rgb, String> {
    Rgb::parse_hex(text).ok_or_else(|| format!("bad colour {text:?}"))
}

/// The cells from the id form (format 2): kinds in id order, the built-ins
/// first as always.
fn map_from_ids(json: &JsonMap) -> Result<Map, String> {
    let mut tiles = TileSet::builtin();
    for (i, kind) in json.tiles.iter().enumerate() {
        if kind.id as usize != i {
            return Err(format!("tiles[{i}] has id {}, expected {i}", kind.id));
        }
        let glyph = kind.glyph.chars().next().ok_or("empty glyph in tiles")?;
        if i < tiles.len() {
            let builtin = tiles.kind(Tile(i as u8));
            if builtin.name != kind.name {
                return Err(format!(
                    "tiles[{i}] is {:?}, but kind {i} is always {:?}",
                    kind.name, builtin.name
                ));
            }
            continue;
        }
        tiles
            .define(TileKind {
                name: kind.name.clone(),
                glyph,
                color: colour(&kind.color)?,
                background: colour(&kind.bg)?,
                walkable: kind.walkable,
                transparent: kind.transparent,
            })
            .map_err(|e| e.to_string())?;
    }
    let mut map =
        Map::with_tiles(json.width.into(), json.height.into(), tiles).map_err(|e| e.to_string())?;
    if json.cells.len() != map.cells().len() {
        return Err(format!(
            "cells holds {} ids, a {}x{} map has {}",
            json.cells.len(),
            json.width,
            json.height,
            map.cells().len()
        ));
    }
    let width = json.width.max(1) as usize;
    for (i, &id) in json.cells.iter().enumerate() {
        if id as usize >= map.tiles().len() {
            return Err(format!(
                "cells[{i}] is {id}, but there are {} kinds",
                map.tiles().len()
            ));
        }
        map.set((i % width) as i64, (i / width) as i64, Tile(id))
            .map_err(|e| e.to_string())?;
    }
    Ok(map)
}

/// The cells from the glyph rows and legend (format 1).
fn map_from_rows(json: &JsonMap) -> Result<Map, String> {
    let mut tiles = TileSet::builtin();
    for (glyph, entry) in &json.legend {
        if tiles.by_name(&entry.name).is_some() {
            continue;
        }
        let glyph = glyph
            .chars()
            .next()
            .ok_or_else(|| "empty glyph in legend".to_string())?;
        tiles
            .define(TileKind {
                name: entry.name.clone(),
                glyph,
                color: colour(&entry.color)?,
                background: colour(&entry.bg)?,
                walkable: entry.walkable,
                transparent: entry.transparent,
            })
            .map_err(|e| e.to_string())?;
    }
    let mut text = json.rows.join("\n");
    text.push('\n');
    Map::from_ascii_with(&text, tiles).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::Provenance;
    use crate::params::Params;

    #[test]
    fn round_trips_through_json() {
        let mut map = Map::from_ascii("#####\n#@.+#\n#~<>#\n#####\n").unwrap();
        map.add_room(Rect::new(0, 0, 4, 3)).unwrap();
        map.mark(3, 2, "stairs").unwrap();
        let generated = Generated {
            map: map.clone(),
            provenance: Provenance {
                script: "scripts/x.lua".into(),
                name: "X".into(),
                seed: 9,
                attempt: 0,
                params: Params::new(vec![("n".into(), ParamValue::Integer(3))]),
                level: 1,
                levels: 1,
            },
            modules: vec![],
            replay: None,
            rejections: vec![],
            work: 0,
            native_work: 0,
            puzzle: None,
        };
        let mut bytes = Vec::new();
        write(&generated, &mut bytes).unwrap();
        let parsed: JsonMap = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(parsed.format, 2);
        assert_eq!(parsed.seed_string, "9");
        assert_eq!(parsed.cells.len(), 20);
        assert_eq!(parsed.tiles[5].name, "water");
        assert_eq!(
            parsed.rows[1], "#..+#",
            "rows hold tiles, the start is separate"
        );
        assert_eq!(parsed.start, Some(JsonPoint { x: 1, y: 1 }));
        assert_eq!(parsed.params["n"], serde_json::json!(3));
        assert_eq!(parsed.legend["#"].name, "wall");
        assert_eq!(read_map(&parsed).unwrap(), map);
        assert_eq!(parsed.hash, format!("{:016x}", map.hash64()));
    }
}
