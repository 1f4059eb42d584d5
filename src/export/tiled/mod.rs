//! The Tiled exports: one document model ([`Doc`]) made from a generated
//! map, written as Tiled's JSON (`.tmj`, [`tmj`]), XML (`.tmx` with an
//! external `.tsx` tileset, [`tmx`]) and Lua (`.lua`, [`lua`]) formats, so
//! every engine's Tiled importer reads the same content: one tile layer over
//! a tileset with each kind's name, glyph, walkable and transparent (and a
//! collision rectangle on every kind that is not walkable), an object layer
//! with the rooms as rectangles (areas, not solid bodies, for Godot's YATI)
//! and the start and markers as points, and how the map was made as map
//! properties.

pub mod lua;
pub mod tmj;
pub mod tmx;
pub mod user_tileset;

pub use user_tileset::UserTileset;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::generated::Generated;
use crate::map::{Map, Rgb};
use crate::params::ParamValue;
use crate::render::{Frame, GLYPH};

/// The Tiled format version the exports declare. Objects and tiles carry
/// their class as `type`, as format 1.10 writes it and Tiled 1.8 and every
/// importer read it (only 1.9 wrote `class` there).
pub const VERSION: &str = "1.10";
pub const TILED_VERSION: &str = "1.10.2";

/// The default tile size of the exports: the font's, doubled.
pub const DEFAULT_CELL: usize = 2 * GLYPH;

/// A custom property's value, typed as Tiled types them.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    /// Tiled's `int` is 32 bits (the `tiled` crate refuses a wider one):
    /// make integers with [`Value::integer`].
    Int(i32),
    Float(f64),
    Bool(bool),
}

impl Value {
    /// An integer as Tiled can hold it: an `int` when it fits in 32 bits,
    /// else a `float` when a double holds it exactly, else a `string` of
    /// its decimal digits.
    pub fn integer(i: i64) -> Value {
        if let Ok(small) = i32::try_from(i) {
            Value::Int(small)
        } else if (i as f64) as i128 == i as i128 {
            Value::Float(i as f64)
        } else {
            Value::Text(i.to_string())
        }
    }

    /// Tiled's name for the type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Text(_) => "string",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Bool(_) => "bool",
        }
    }

    /// The value as Tiled writes it in XML attributes.
    pub fn text(&self) -> String {
        match self {
            Value::Text(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => float_text(*f),
            Value::Bool(b) => b.to_string(),
        }
    }
}

/// A character of a text (a name, a class, a property's name or value) as
/// all three Tiled formats write it: XML 1.0 cannot hold a control
/// character other than tab, newline and carriage return, nor the
/// non-characters U+FFFE and U+FFFF, so the `.tmx` has U+FFFD in their
/// place, and the `.tmj` and the `.lua` write the same, so the three hold
/// the same map.
pub fn xml_char(c: char) -> char {
    match c {
        '\t' | '\n' | '\r' => c,
        c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => '\u{fffd}',
        c => c,
    }
}

/// `text` with each character as [`xml_char`] has it.
pub fn xml_text(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(|c| xml_char(c) == c) {
        text.into()
    } else {
        text.chars().map(xml_char).collect::<String>().into()
    }
}

/// A float as Tiled writes one: no trailing `.0` on whole numbers.
pub fn float_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

pub type Properties = Vec<(String, Value)>;

/// A tile of the tileset: a kind of the map.
#[derive(Clone, Debug, PartialEq)]
pub struct TileDoc {
    pub id: u32,
    /// The kind's name, as the tile's class.
    pub class: String,
    pub properties: Properties,
    /// Not walkable: a collision rectangle covering the tile.
    pub solid: bool,
}

/// The tileset: the generated glyph sheet, one tile per kind in kind order.
#[derive(Clone, Debug, PartialEq)]
pub struct TilesetDoc {
    pub name: String,
    /// The image's file name, relative to the map (and to the `.tsx`).
    pub image: String,
    pub tile: usize,
    pub tiles: Vec<TileDoc>,
}

impl TilesetDoc {
    pub fn count(&self) -> usize {
        self.tiles.len()
    }
}

/// An object of the object layer.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectDoc {
    pub id: u32,
    pub name: String,
    pub class: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub point: bool,
    pub properties: Properties,
}

/// Which tileset the map's tiles come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Tileset {
    /// dunlua's glyph sheet, one tile per kind (written beside the map).
    Generated(TilesetDoc),
    /// The game's own (`--tileset`), referenced where it is: `source` and
    /// `image` are its file and its image relative to the map's folder.
    User {
        set: Arc<UserTileset>,
        source: String,
        image: Option<String>,
    },
}

/// Everything a Tiled export holds, whatever its format.
pub struct Doc<'a> {
    pub map: &'a Map,
    pub tile_width: usize,
    pub tile_height: usize,
    pub properties: Properties,
    pub tileset: Tileset,
    pub objects: Vec<ObjectDoc>,
    /// The global tile id of each kind, in kind order (first gid 1).
    pub kind_gids: Vec<u32>,
}

impl Doc<'_> {
    pub fn next_object_id(&self) -> u32 {
        self.objects.len() as u32 + 1
    }

    /// The tile layer's global tile id for every cell, row by row.
    pub fn gids(&self) -> impl Iterator<Item = u32> + '_ {
        self.map.cells().iter().map(|t| self.kind_gids[t.index()])
    }
}

fn param_value(value: &ParamValue) -> Value {
    match value {
        ParamValue::Integer(i) => Value::integer(*i),
        ParamValue::Number(n) => Value::Float(*n),
        ParamValue::Boolean(b) => Value::Bool(*b),
        ParamValue::Text(s) => Value::Text(s.clone()),
    }
}

/// The document for a generated map drawn at `tile` pixels a cell over
/// dunlua's glyph sheet, whose image is `image` (a file name relative to
/// the map).
pub fn doc<'a>(generated: &'a Generated, image: &str, tile: usize) -> Doc<'a> {
    let mut doc = doc_with(generated, tile, tile);
    doc.tileset = Tileset::Generated(TilesetDoc {
        name: "dunlua".into(),
        image: image.to_string(),
        tile,
        tiles: generated_tiles(&generated.map),
    });
    doc
}

/// The document for a generated map over a game's own tileset, for a map
/// written in `map_folder`; an error names every kind the tileset has no
/// tile for.
pub fn doc_over<'a>(
    generated: &'a Generated,
    user: &Arc<UserTileset>,
    map_folder: &Path,
) -> anyhow::Result<Doc<'a>> {
    let ids = user.ids_for(generated.map.tiles())?;
    let mut doc = doc_with(generated, user.tile_width, user.tile_height);
    doc.kind_gids = ids.iter().map(|id| id + 1).collect();
    doc.tileset = Tileset::User {
        set: user.clone(),
        source: user.source_from(map_folder),
        image: user.image_from(map_folder),
    };
    Ok(doc)
}

fn generated_tiles(map: &Map) -> Vec<TileDoc> {
    map.tiles()
        .iter()
        .map(|(t, kind)| TileDoc {
            id: t.index() as u32,
            class: kind.name.clone(),
            properties: vec![
                ("name".into(), Value::Text(kind.name.clone())),
                ("glyph".into(), Value::Text(kind.glyph.to_string())),
                ("walkable".into(), Value::Bool(kind.walkable)),
                ("transparent".into(), Value::Bool(kind.transparent)),
                ("color".into(), Value::Text(kind.color.to_string())),
            ],
            solid: !kind.walkable,
        })
        .collect()
}

/// Names a marker's own prop cannot keep: the cell dunlua adds, an
/// object's attributes in Tiled, and the attributes and methods of pytmx's
/// objects (pytmx refuses to load a map with a property named like one).
const RESERVED_MARKER_PROPS: &[&str] = &[
    "cell_x",
    "cell_y",
    "id",
    "name",
    "type",
    "class",
    "x",
    "y",
    "width",
    "height",
    "rotation",
    "gid",
    "visible",
    "template",
    "parent",
    "closed",
    "custom_types",
    "properties",
    "points",
    "image",
    "allow_duplicate_names",
    "apply_transformations",
    "as_points",
    "from_xml_string",
    "parse_xml",
    "_cast_and_set_attributes_from_node_items",
    "_contains_invalid_property_name",
    "_log_property_error_message",
    "_set_properties",
];

fn reserved_marker_prop(name: &str) -> bool {
    // Python's own `__dict__`, `__init__`, ... are attributes too.
    RESERVED_MARKER_PROPS.contains(&name) || (name.starts_with("__") && name.ends_with("__"))
}

/// The property names of a marker's props, in their order: a name that is
/// reserved (see [`RESERVED_MARKER_PROPS`]) becomes `NAME_2` (or `_3`,
/// ...: the first neither reserved nor another prop's), as the LDtk export
/// renames a prop that clashes; every other name is kept.
pub fn marker_prop_names(names: &[&str]) -> Vec<String> {
    let mut taken: Vec<String> = names
        .iter()
        .filter(|n| !reserved_marker_prop(n))
        .map(|n| n.to_string())
        .collect();
    names
        .iter()
        .map(|name| {
            if !reserved_marker_prop(name) {
                return name.to_string();
            }
            let mut n = 2;
            let mut renamed = format!("{name}_{n}");
            while reserved_marker_prop(&renamed) || taken.contains(&renamed) {
                n += 1;
                renamed = format!("{name}_{n}");
            }
            taken.push(renamed.clone());
            renamed
        })
        .collect()
}

fn doc_with(generated: &Generated, tile_w: usize, tile_h: usize) -> Doc<'_> {
    let map = &generated.map;
    let p = &generated.provenance;
    let px = |v: i32| (v as usize * tile_w) as f64;
    let py = |v: i32| (v as usize * tile_h) as f64;
    let mut objects = Vec::new();
    let mut add = |name: String, class: &str, rect: (f64, f64, f64, f64), point, properties| {
        objects.push(ObjectDoc {
            id: objects.len() as u32 + 1,
            name,
            class: class.to_string(),
            x: rect.0,
            y: rect.1,
            width: rect.2,
            height: rect.3,
            point,
            properties,
        })
    };
    for (i, (room, details)) in map.rooms().iter().zip(map.room_details()).enumerate() {
        let rect = (px(room.x1), py(room.y1), px(room.w() + 1), py(room.h() + 1));
        // YATI (Godot) makes an object of unknown class a solid
        // StaticBody2D; a room is a place to be in, so an Area2D.
        let mut properties = vec![
            ("godot_node_type".to_string(), Value::Text("area".into())),
            ("index".to_string(), Value::integer(i as i64 + 1)),
        ];
        if let Some(kind) = &details.kind {
            properties.push(("kind".into(), Value::Text(kind.clone())));
        }
        // A room of any shape: its cells as "x,y;x,y;..." (its rect is the
        // bounding box).
        if let Some(cells) = &details.cells {
            let text: Vec<String> = cells.points().map(|(x, y)| format!("{x},{y}")).collect();
            properties.push(("cells".into(), Value::Text(text.join(";"))));
        }
        let name = details
            .name
            .clone()
            .unwrap_or_else(|| format!("room {}", i + 1));
        add(name, "room", rect, false, properties);
    }
    // Points sit at the centre of their cell.
    let centre_x = |v: i32| px(v) + tile_w as f64 / 2.0;
    let centre_y = |v: i32| py(v) + tile_h as f64 / 2.0;
    let cell_of = |x: i32, y: i32| {
        vec![
            ("cell_x".to_string(), Value::Int(x)),
            ("cell_y".to_string(), Value::Int(y)),
        ]
    };
    if let Some((x, y)) = map.start() {
        add(
            "start".into(),
            "start",
            (centre_x(x), centre_y(y), 0.0, 0.0),
            true,
            cell_of(x, y),
        );
    }
    for m in map.markers() {
        let rect = (centre_x(m.x), centre_y(m.y), 0.0, 0.0);
        // The script's own data first (renamed where it clashes), then
        // the cell.
        let names: Vec<&str> = m.props.iter().map(|(k, _)| k.as_str()).collect();
        let mut properties: Properties = marker_prop_names(&names)
            .into_iter()
            .zip(&m.props)
            .map(|(k, (_, v))| (k, param_value(v)))
            .collect();
        properties.extend(cell_of(m.x, m.y));
        add(m.name.clone(), "marker", rect, true, properties);
    }
    let mut properties: Properties = vec![
        ("seed".into(), Value::Text(p.seed.to_string())),
        ("attempt".into(), Value::integer(p.attempt.into())),
        ("script".into(), Value::Text(p.script.clone())),
        ("name".into(), Value::Text(p.name.clone())),
        ("hash".into(), Value::Text(format!("{:016x}", map.hash64()))),
    ];
    properties.extend(
        p.params
            .iter()
            .map(|(k, v)| (format!("param.{k}"), param_value(v))),
    );
    Doc {
        map,
        tile_width: tile_w,
        tile_height: tile_h,
        properties,
        tileset: Tileset::Generated(TilesetDoc {
            name: "dunlua".into(),
            image: String::new(),
            tile: tile_w,
            tiles: Vec::new(),
        }),
        objects,
        kind_gids: (1..=map.tiles().len() as u32).collect(),
    }
}

/// A file beside the map, named after it: `NAME.<suffix>`.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}.{suffix}"))
}

/// The tileset image's file name for a map written to `path`.
pub fn tileset_path(path: &Path) -> PathBuf {
    beside(path, "tiles.png")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wider_than_tiled_int_become_floats_or_text() {
        assert_eq!(Value::integer(-(1 << 31)), Value::Int(i32::MIN));
        assert_eq!(Value::integer(3_000_000_000), Value::Float(3e9));
        assert_eq!(Value::integer(1 << 62), Value::Float(2f64.powi(62)));
        assert_eq!(
            Value::integer(i64::MAX),
            Value::Text("9223372036854775807".into())
        );
        assert_eq!(
            Value::integer((1 << 53) + 1),
            Value::Text("9007199254740993".into())
        );
    }

    #[test]
    fn marker_props_that_clash_are_renamed() {
        assert_eq!(
            marker_prop_names(&["name", "hp", "name_2", "cell_x", "__init__", "type"]),
            ["name_3", "hp", "name_2", "cell_x_2", "__init___2", "type_2"]
        );
    }
}
