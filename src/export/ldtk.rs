//! The LDtk export (`.ldtk`): one LDtk project (JSON format 1.5.3) holding
//! one level per level of the run, laid out as a `LinearVertical` world.
//! Each level has an IntGrid layer `Tiles` whose values are the tile kinds
//! (named and coloured as the kinds) with an auto-layer rule per kind that
//! draws its glyph from the glyph sheet written beside the project (the
//! Tiled exports' `NAME.tiles.png`), so the level looks like the PNG when
//! opened; an Entities layer `Markers` with the start (`Start`) and one
//! entity definition per marker name, its props as typed fields; and an
//! Entities layer `Rooms` with each room as a resizable `Room`. How the map
//! was made is in level fields. Identifiers LDtk does not accept (it wants
//! `[A-Za-z_][A-Za-z0-9_]*`) are spelt with `_` for each other character;
//! the name as given is kept in the entity's `name` field then.
//!
//! Every `iid` is derived from the seed and the element's place, so the
//! same run writes the same bytes. The big arrays (one value and one auto
//! tile per cell) are written straight from the map, never gathered into a
//! JSON tree.

use std::collections::{HashMap, HashSet};

use serde::{Serialize, Serializer};
use serde_json::{json, Value as Json};

use crate::generated::Generated;
use crate::map::{Map, Rgb, TileKind};
use crate::params::ParamValue;
use crate::render::{Frame, MarkerLooks, START_COLOR};

/// The LDtk JSON format the export declares.
pub const JSON_VERSION: &str = "1.5.3";

/// The kinds of every level, by name, in first-seen order: IntGrid value
/// `i + 1` and tile `i` of the tileset are kind `i`. For one map these are
/// the map's kinds in its own order, so the tileset image is the Tiled
/// exports' image.
pub fn kinds(levels: &[Generated]) -> Vec<TileKind> {
    let mut kinds: Vec<TileKind> = Vec::new();
    for g in levels {
        for (_, kind) in g.map.tiles().iter() {
            if !kinds.iter().any(|k| k.name == kind.name) {
                kinds.push(kind.clone());
            }
        }
    }
    kinds
}

/// The glyph sheet: one `cell`-pixel tile per kind, in [`kinds`] order.
pub fn tileset_image(kinds: &[TileKind], cell: usize) -> Frame {
    let mut frame = Frame::new(kinds.len().max(1) * cell, cell, Rgb(0, 0, 0));
    for (i, kind) in kinds.iter().enumerate() {
        frame.glyph(
            (i * cell) as i64,
            0,
            cell,
            kind.glyph,
            kind.color,
            kind.background,
        );
    }
    frame
}

/// `name` as an LDtk identifier: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    id
}

/// About what one field instance of a marker takes in memory while the
/// export is made (measured: 10 million took 18.7 GB, 1.25 million 2.4 GB).
pub const BYTES_PER_FIELD_INSTANCE: u64 = 2_000;

/// About what one marker name's entity definition takes in memory while
/// the export is made (85,000 names took 1.1 GB).
pub const BYTES_PER_ENTITY_DEF: u64 = 8_000;

/// The field instances the markers of `maps` make beyond their own
/// properties (counted as objects already): each marker carries one for
/// every key any marker of its name has, null where it has none.
pub fn field_instances<'a>(maps: impl IntoIterator<Item = &'a Map>) -> u64 {
    // Per name: its markers, their own keys in all, the keys of any.
    let mut by_name: HashMap<&str, (u64, u64, HashSet<&str>)> = HashMap::new();
    for map in maps {
        for m in map.markers() {
            let (count, own, keys) = by_name.entry(m.name.as_str()).or_default();
            *count += 1;
            *own += m.props.len() as u64;
            keys.extend(m.props.iter().map(|(k, _)| k.as_str()));
        }
    }
    by_name
        .values()
        .map(|(count, own, keys)| count.saturating_mul(keys.len() as u64).saturating_sub(*own))
        .sum()
}

/// The distinct marker names of `maps`: an entity definition each.
pub fn marker_names<'a>(maps: impl IntoIterator<Item = &'a Map>) -> u64 {
    let names: HashSet<&str> = maps
        .into_iter()
        .flat_map(|m| m.markers().iter().map(|m| m.name.as_str()))
        .collect();
    names.len() as u64
}

/// Identifiers that stay unique: a taken one gets `_2`, `_3`, ... (the
/// next suffix of each base remembered: identifiers that all spell alike,
/// `-+.` and `.+-`, took time quadratic in their number).
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
    next: HashMap<String, u64>,
}

impl Names {
    /// Identifiers for `names`, in their order: those LDtk can spell as
    /// they are claimed first, so they keep their identifiers and only a
    /// name that had to change gives way (`a-b` beside `a_b` is `a_b_2`).
    fn claim_all(&mut self, names: &[&str]) -> Vec<String> {
        let mut ids: Vec<Option<String>> = vec![None; names.len()];
        for spelled in [true, false] {
            for (i, name) in names.iter().enumerate() {
                if (identifier(name) == *name) == spelled {
                    ids[i] = Some(self.claim(name));
                }
            }
        }
        ids.into_iter().map(|id| id.expect("claimed")).collect()
    }

    fn claim(&mut self, name: &str) -> String {
        let base = identifier(name);
        let mut id = base.clone();
        // Suffixes below `next` are taken already: taken names stay taken.
        let n = self.next.entry(base.clone()).or_insert(2);
        while self.taken.contains(&id) {
            id = format!("{base}_{n}");
            *n += 1;
        }
        self.taken.insert(id.clone());
        id
    }
}

/// A deterministic iid (UUID-shaped) for the element at `place`.
fn iid(seed: u64, place: &str) -> String {
    let hash = |salt: u64| {
        let mut h: u64 = 0xcbf29ce484222325 ^ salt;
        for b in seed.to_le_bytes().iter().chain(place.as_bytes()) {
            h = (h ^ *b as u64).wrapping_mul(0x100000001b3);
        }
        h
    };
    let (a, b) = (hash(1), hash(2));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | (b >> 48) & 0x3fff,
        b & 0xffff_ffff_ffff
    )
}

/// An LDtk field's type, from the values it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldType {
    Int,
    Float,
    Bool,
    String,
}

impl FieldType {
    /// An integer is an `Int` only when it fits one: LDtk's `Int` is 32
    /// bits (Haxe's), and the editor reads JSON numbers as doubles. Wider,
    /// it is a `Float` while a double holds it exactly (up to 2^53), and
    /// text past that, so no value is written that a loader changes.
    fn of(value: &ParamValue) -> FieldType {
        const EXACT_IN_A_DOUBLE: i64 = 1 << 53;
        match value {
            ParamValue::Integer(i) if i32::try_from(*i).is_ok() => FieldType::Int,
            ParamValue::Integer(i) if (-EXACT_IN_A_DOUBLE..=EXACT_IN_A_DOUBLE).contains(i) => {
                FieldType::Float
            }
            ParamValue::Integer(_) => FieldType::String,
            ParamValue::Number(_) => FieldType::Float,
            ParamValue::Boolean(_) => FieldType::Bool,
            ParamValue::Text(_) => FieldType::String,
        }
    }

    /// The type that holds both: integers widen to floats, anything else
    /// mixed is text.
    fn join(self, other: FieldType) -> FieldType {
        use FieldType::*;
        match (self, other) {
            (a, b) if a == b => a,
            (Int, Float) | (Float, Int) => Float,
            _ => String,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FieldType::Int => "Int",
            FieldType::Float => "Float",
            FieldType::Bool => "Bool",
            FieldType::String => "String",
        }
    }

    /// `value` as this type's JSON value.
    fn value(self, value: &ParamValue) -> Json {
        match (self, value) {
            (FieldType::Float, ParamValue::Integer(i)) => json!(*i as f64),
            (FieldType::String, v) => json!(text(v)),
            (_, ParamValue::Integer(i)) => json!(i),
            (_, ParamValue::Number(n)) => json!(n),
            (_, ParamValue::Boolean(b)) => json!(b),
            (_, ParamValue::Text(s)) => json!(s),
        }
    }
}

fn text(value: &ParamValue) -> String {
    match value {
        ParamValue::Integer(i) => i.to_string(),
        ParamValue::Number(n) => crate::export::tiled::float_text(*n),
        ParamValue::Boolean(b) => b.to_string(),
        ParamValue::Text(s) => s.clone(),
    }
}

/// A field definition of an entity or of the levels.
struct FieldDef {
    uid: u32,
    /// The key the values come from ([`GIVEN_NAME`] for a renamed
    /// marker's name as given).
    key: String,
    identifier: String,
    kind: FieldType,
}

/// The key of the field holding the name as given of a marker whose name
/// LDtk cannot spell: no prop has it (a prop key is never empty), and its
/// field claims the identifier `name` before any prop does.
const GIVEN_NAME: &str = "";

impl FieldDef {
    fn json(&self) -> Json {
        // A prop whose name had to change keeps it, as given, in `doc`.
        let doc = (self.key != GIVEN_NAME && self.key != self.identifier).then_some(&self.key);
        json!({
            "identifier": self.identifier, "doc": doc, "__type": self.kind.name(),
            "uid": self.uid, "type": format!("F_{}", self.kind.name()), "isArray": false,
            "canBeNull": true, "arrayMinLength": null, "arrayMaxLength": null,
            "editorDisplayMode": "Hidden", "editorDisplayScale": 1,
            "editorDisplayPos": "Above", "editorLinkStyle": "StraightArrow",
            "editorDisplayColor": null, "editorAlwaysShow": false,
            "editorShowInWorld": true, "editorCutLongValues": true,
            "editorTextSuffix": null, "editorTextPrefix": null,
            "useForSmartColor": false, "exportToToc": false, "searchable": false,
            "min": null, "max": null, "regex": null, "acceptFileTypes": null,
            "defaultOverride": null, "textLanguageMode": null,
            "symmetricalRef": false, "autoChainRef": true,
            "allowOutOfLevelRef": true, "allowedRefs": "OnlySame",
            "allowedRefsEntityUid": null, "allowedRefTags": [], "tilesetUid": null,
        })
    }

    /// The field's instance holding `value` (null when absent).
    fn instance(&self, value: Option<&ParamValue>) -> Json {
        let (value, real) = match value {
            Some(v) => {
                let v = self.kind.value(v);
                let id = format!("V_{}", self.kind.name());
                (v.clone(), json!([{ "id": id, "params": [v] }]))
            }
            None => (Json::Null, json!([])),
        };
        json!({
            "__identifier": self.identifier, "__type": self.kind.name(),
            "__value": value, "__tile": null, "defUid": self.uid,
            "realEditorValues": real,
        })
    }
}

/// Hands out the project's uids.
struct Uids(u32);

impl Uids {
    fn next(&mut self) -> u32 {
        self.0 += 1;
        self.0
    }
}

/// An entity definition: the start, rooms, or the markers of one name.
struct EntityDef {
    uid: u32,
    identifier: String,
    color: Rgb,
    fields: Vec<FieldDef>,
    room: bool,
}

impl EntityDef {
    /// Field definitions for every key `props` hold, typed by the values.
    fn with_fields<'a>(
        uid: u32,
        identifier: String,
        color: Rgb,
        props: impl Iterator<Item = &'a (String, ParamValue)>,
        uids: &mut Uids,
    ) -> EntityDef {
        let mut keys: Vec<(String, FieldType)> = Vec::new();
        for (key, value) in props {
            let kind = FieldType::of(value);
            match keys.iter_mut().find(|(k, _)| k == key) {
                Some((_, t)) => *t = t.join(kind),
                None => keys.push((key.clone(), kind)),
            }
        }
        // The given name's field is `name`; the props claim what is left.
        let mut names = Names::default();
        let given = keys
            .iter()
            .any(|(k, _)| k == GIVEN_NAME)
            .then(|| names.claim("name"));
        let props: Vec<&str> = keys
            .iter()
            .filter(|(k, _)| k != GIVEN_NAME)
            .map(|(k, _)| k.as_str())
            .collect();
        let mut ids = names.claim_all(&props).into_iter();
        let fields = keys
            .into_iter()
            .map(|(key, kind)| FieldDef {
                uid: uids.next(),
                identifier: match &given {
                    Some(name) if key == GIVEN_NAME => name.clone(),
                    _ => ids.next().expect("one per prop"),
                },
                key,
                kind,
            })
            .collect();
        EntityDef {
            uid,
            identifier,
            color,
            fields,
            room: false,
        }
    }

    fn json(&self, grid: usize) -> Json {
        let (pivot, render, resizable) = if self.room {
            (0.0, "Rectangle", true)
        } else {
            (0.5, "Ellipse", false)
        };
        let fields: Vec<Json> = self.fields.iter().map(FieldDef::json).collect();
        json!({
            "identifier": self.identifier, "uid": self.uid, "tags": [],
            "exportToToc": false, "allowOutOfBounds": false, "doc": null,
            "width": grid, "height": grid, "resizableX": resizable, "resizableY": resizable,
            "minWidth": null, "maxWidth": null, "minHeight": null, "maxHeight": null,
            "keepAspectRatio": false, "tileOpacity": 1, "fillOpacity": if self.room { 0.08 } else { 1.0 },
            "lineOpacity": 1, "hollow": self.room, "color": hex(self.color),
            "renderMode": render, "showName": true, "tilesetId": null,
            "tileRenderMode": "FitInside", "tileRect": null, "uiTileRect": null,
            "nineSliceBorders": [], "maxCount": 0, "limitScope": "PerLevel",
            "limitBehavior": "MoveLastOne", "pivotX": pivot, "pivotY": pivot,
            "fieldDefs": fields,
        })
    }

    fn field(&self, key: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// An instance at pixel `(x, y)` (its pivot), `w` x `h` pixels.
    #[allow(clippy::too_many_arguments)]
    fn instance(
        &self,
        iid: String,
        cell: (i32, i32),
        px: (i64, i64),
        size: (usize, usize),
        world: (i64, i64),
        props: &[(String, ParamValue)],
    ) -> Json {
        let fields: Vec<Json> = self
            .fields
            .iter()
            .map(|f| f.instance(props.iter().find(|(k, _)| *k == f.key).map(|(_, v)| v)))
            .collect();
        let pivot = if self.room { 0.0 } else { 0.5 };
        json!({
            "__identifier": self.identifier, "__grid": [cell.0, cell.1],
            "__pivot": [pivot, pivot], "__tags": [], "__tile": null,
            "__smartColor": hex(self.color), "iid": iid,
            "width": size.0, "height": size.1, "defUid": self.uid,
            "px": [px.0, px.1], "fieldInstances": fields,
            "__worldX": world.0 + px.0, "__worldY": world.1 + px.1,
        })
    }
}

fn hex(c: Rgb) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The colour of rooms' outlines.
const ROOM_COLOR: Rgb = Rgb(0x40, 0xc0, 0xff);

/// Layer definition uids.
const TILESET_UID: u32 = 1;
const MARKERS_LAYER: u32 = 2;
const ROOMS_LAYER: u32 = 3;
const TILES_LAYER: u32 = 4;
const RULE_GROUP: u32 = 5;

/// An LDtk project of `levels`, drawn `grid` pixels a cell over the glyph
/// sheet `image` (a file name relative to the project), ready to write.
pub struct Project<'a> {
    head: Json,
    levels: Vec<LevelOut<'a>>,
}

impl Serialize for Project<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let head = self.head.as_object().expect("the head is an object");
        let mut map = serializer.serialize_map(Some(head.len() + 1))?;
        for (k, v) in head {
            map.serialize_entry(k, v)?;
        }
        map.serialize_entry("levels", &self.levels)?;
        map.end()
    }
}

#[derive(Serialize)]
struct LevelOut<'a> {
    #[serde(flatten)]
    head: Json,
    #[serde(rename = "layerInstances")]
    layers: (Json, Json, TilesLayer<'a>),
}

#[derive(Serialize)]
struct TilesLayer<'a> {
    #[serde(flatten)]
    head: Json,
    #[serde(rename = "intGridCsv")]
    csv: Csv<'a>,
    #[serde(rename = "autoLayerTiles")]
    tiles: AutoTiles<'a>,
}

/// Each cell's IntGrid value, row by row.
struct Csv<'a> {
    map: &'a Map,
    values: Vec<u32>,
}

impl Serialize for Csv<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.map.cells().iter().map(|t| self.values[t.index()]))
    }
}

/// The auto-layer's tile on every cell: the glyph of its kind.
struct AutoTiles<'a> {
    map: &'a Map,
    /// Each map tile's index into the project's kinds.
    kinds: Vec<u32>,
    grid: usize,
    rule_uids: Vec<u32>,
}

#[derive(Serialize)]
struct AutoTile {
    px: [usize; 2],
    src: [usize; 2],
    f: u8,
    t: u32,
    d: [usize; 2],
    a: f32,
}

impl Serialize for AutoTiles<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let width = self.map.width().max(1) as usize;
        let g = self.grid;
        serializer.collect_seq(self.map.cells().iter().enumerate().map(|(i, t)| {
            let k = self.kinds[t.index()];
            AutoTile {
                px: [i % width * g, i / width * g],
                src: [k as usize * g, 0],
                f: 0,
                t: k,
                d: [self.rule_uids[k as usize] as usize, i],
                a: 1.0,
            }
        }))
    }
}

/// The project for a run's `levels` (one map, or every level of a
/// dungeon), `grid` pixels a cell, its tileset image `image`, the script
/// stored as `script` (see [`super::script_relative`]).
pub fn project<'a>(levels: &'a [Generated], image: &str, grid: usize, script: &str) -> Project<'a> {
    let kinds = kinds(levels);
    let first = &levels[0].provenance;
    let seed = first.seed;
    let mut uids = Uids(RULE_GROUP);
    let rule_uids: Vec<u32> = kinds.iter().map(|_| uids.next()).collect();

    // Entities: the start, rooms, then one per marker name in first-seen order.
    let mut names = Names::default();
    let start = EntityDef::with_fields(
        uids.next(),
        names.claim("Start"),
        START_COLOR,
        std::iter::empty(),
        &mut uids,
    );
    let room_props: Vec<(String, ParamValue)> = vec![
        ("index".into(), ParamValue::Integer(0)),
        ("name".into(), ParamValue::Text(String::new())),
        ("kind".into(), ParamValue::Text(String::new())),
        ("cells".into(), ParamValue::Text(String::new())),
    ];
    let mut room = EntityDef::with_fields(
        uids.next(),
        names.claim("Room"),
        ROOM_COLOR,
        room_props.iter(),
        &mut uids,
    );
    room.room = true;
    // The names in order of first appearance, each with its markers.
    let mut marker_names: Vec<&str> = Vec::new();
    let mut of_name: HashMap<&str, Vec<&crate::map::Marker>> = HashMap::new();
    for g in levels {
        for m in g.map.markers() {
            of_name
                .entry(m.name.as_str())
                .or_insert_with(|| {
                    marker_names.push(&m.name);
                    Vec::new()
                })
                .push(m);
        }
    }
    // One look per name across the levels, as every level's PNG draws it.
    let looks = MarkerLooks::of_levels(levels.iter().map(|g| &g.map));
    let mut markers: Vec<(&str, EntityDef)> = Vec::new();
    let mut ids = names.claim_all(&marker_names).into_iter();
    for name in marker_names {
        let color = looks.get(name).1;
        let uid = uids.next();
        let id = ids.next().expect("one per name");
        // The name as given, where the identifier had to change it.
        let renamed = (id != name).then(|| (GIVEN_NAME.to_string(), ParamValue::Text(name.into())));
        let props = of_name[name]
            .iter()
            .flat_map(|m| m.props.iter())
            .chain(renamed.iter());
        let def = EntityDef::with_fields(uid, id, color, props, &mut uids);
        markers.push((name, def));
    }
    // Each name's definition, looked up (a search per marker was quadratic).
    let def_of: HashMap<&str, usize> = markers
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (*name, i))
        .collect();

    // Level fields: how each level was made.
    let mut level_keys: Vec<(String, FieldType)> = vec![
        ("seed".into(), FieldType::String),
        ("level_seed".into(), FieldType::String),
        ("script".into(), FieldType::String),
        ("name".into(), FieldType::String),
        ("hash".into(), FieldType::String),
        ("attempt".into(), FieldType::Int),
        ("level".into(), FieldType::Int),
    ];
    for (k, v) in first.params.iter() {
        level_keys.push((format!("param_{k}"), FieldType::of(v)));
    }
    let mut field_names = Names::default();
    let level_fields: Vec<FieldDef> = level_keys
        .into_iter()
        .map(|(key, kind)| FieldDef {
            uid: uids.next(),
            identifier: field_names.claim(&key),
            key,
            kind,
        })
        .collect();

    // Kind names as identifiers too (`1x` is `_1x`), unique.
    let kind_names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
    let kind_ids = Names::default().claim_all(&kind_names);
    let int_grid_values: Vec<Json> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| {
            json!({
                "value": i + 1, "identifier": kind_ids[i], "color": hex(k.color),
                "tile": { "tilesetUid": TILESET_UID, "x": i * grid, "y": 0, "w": grid, "h": grid },
                "groupUid": 0,
            })
        })
        .collect();
    let rules: Vec<Json> = rule_uids
        .iter()
        .enumerate()
        .map(|(i, uid)| {
            json!({
                "uid": uid, "active": true, "size": 1, "tileRectsIds": [[i]],
                "alpha": 1, "chance": 1, "breakOnMatch": true, "pattern": [i + 1],
                "flipX": false, "flipY": false, "xModulo": 1, "yModulo": 1,
                "xOffset": 0, "yOffset": 0, "tileXOffset": 0, "tileYOffset": 0,
                "tileRandomXMin": 0, "tileRandomXMax": 0, "tileRandomYMin": 0,
                "tileRandomYMax": 0, "checker": "None", "tileMode": "Single",
                "pivotX": 0, "pivotY": 0, "outOfBoundsValue": null,
                "invalidated": false, "perlinActive": false, "perlinSeed": 0,
                "perlinScale": 0.2, "perlinOctaves": 2,
            })
        })
        .collect();
    let layer_def = |uid: u32, name: &str, kind: &str| {
        json!({
            "__type": kind, "identifier": name, "type": kind, "uid": uid, "doc": null,
            "uiColor": null, "gridSize": grid, "guideGridWid": 0, "guideGridHei": 0,
            "displayOpacity": 1, "inactiveOpacity": 1, "hideInList": false,
            "hideFieldsWhenInactive": false, "canSelectWhenInactive": true,
            "renderInWorldView": true, "pxOffsetX": 0, "pxOffsetY": 0,
            "parallaxFactorX": 0, "parallaxFactorY": 0, "parallaxScaling": true,
            "requiredTags": [], "excludedTags": [], "autoTilesKilledByOtherLayerUid": null,
            "uiFilterTags": [], "useAsyncRender": false, "intGridValues": [],
            "intGridValuesGroups": [], "autoRuleGroups": [], "autoSourceLayerDefUid": null,
            "tilesetDefUid": null, "tilePivotX": 0, "tilePivotY": 0, "biomeFieldUid": null,
        })
    };
    let mut tiles_def = layer_def(TILES_LAYER, "Tiles", "IntGrid");
    tiles_def["intGridValues"] = json!(int_grid_values);
    tiles_def["tilesetDefUid"] = json!(TILESET_UID);
    tiles_def["autoRuleGroups"] = json!([{
        "uid": RULE_GROUP, "name": "glyphs", "color": null, "icon": null,
        "active": true, "isOptional": false, "rules": rules, "usesWizard": false,
        "requiredBiomeValues": [], "biomeRequirementMode": 0,
    }]);
    let tileset = json!({
        "__cWid": kinds.len().max(1), "__cHei": 1, "identifier": "dunlua_glyphs",
        "uid": TILESET_UID, "relPath": image, "embedAtlas": null,
        "pxWid": kinds.len().max(1) * grid, "pxHei": grid, "tileGridSize": grid,
        "spacing": 0, "padding": 0, "tags": [], "tagsSourceEnumUid": null,
        "enumTags": [], "savedSelections": [],
        "customData": kinds.iter().enumerate()
            .map(|(i, k)| json!({ "tileId": i, "data": k.name }))
            .collect::<Vec<_>>(),
    });
    let mut entity_defs = vec![start.json(grid), room.json(grid)];
    entity_defs.extend(markers.iter().map(|(_, d)| d.json(grid)));

    // The levels, stacked top to bottom with a cell between them.
    let mut out_levels = Vec::new();
    let mut world_y: i64 = 0;
    for (n, g) in levels.iter().enumerate() {
        let map = &g.map;
        let p = &g.provenance;
        let level_uid = uids.next();
        let place = |what: &str| iid(seed, &format!("level {} {what}", p.level));
        let (w, h) = (map.width() as usize * grid, map.height() as usize * grid);
        let world = (0i64, world_y);
        let cell_px = |x: i32, y: i32| {
            (
                x as i64 * grid as i64 + grid as i64 / 2,
                y as i64 * grid as i64 + grid as i64 / 2,
            )
        };
        let mut marker_entities = Vec::new();
        if let Some((x, y)) = map.start() {
            marker_entities.push(start.instance(
                place("start"),
                (x, y),
                cell_px(x, y),
                (grid, grid),
                world,
                &[],
            ));
        }
        for (i, m) in map.markers().iter().enumerate() {
            let def = &markers[def_of[m.name.as_str()]].1;
            let mut props = m.props.clone();
            if def.field(GIVEN_NAME).is_some() {
                props.push((GIVEN_NAME.into(), ParamValue::Text(m.name.clone())));
            }
            marker_entities.push(def.instance(
                place(&format!("marker {i}")),
                (m.x, m.y),
                cell_px(m.x, m.y),
                (grid, grid),
                world,
                &props,
            ));
        }
        let mut room_entities = Vec::new();
        for (i, (r, details)) in map.rooms().iter().zip(map.room_details()).enumerate() {
            let mut props = vec![("index".to_string(), ParamValue::Integer(i as i64 + 1))];
            if let Some(name) = &details.name {
                props.push(("name".into(), ParamValue::Text(name.clone())));
            }
            if let Some(kind) = &details.kind {
                props.push(("kind".into(), ParamValue::Text(kind.clone())));
            }
            if let Some(cells) = &details.cells {
                let text: Vec<String> = cells.points().map(|(x, y)| format!("{x},{y}")).collect();
                props.push(("cells".into(), ParamValue::Text(text.join(";"))));
            }
            let px = (r.x1 as i64 * grid as i64, r.y1 as i64 * grid as i64);
            let size = ((r.w() as usize + 1) * grid, (r.h() as usize + 1) * grid);
            room_entities.push(room.instance(
                place(&format!("room {i}")),
                (r.x1, r.y1),
                px,
                size,
                world,
                &props,
            ));
        }
        let layer = |uid: u32, name: &str, kind: &str, what: &str| {
            json!({
                "__identifier": name, "__type": kind,
                "__cWid": map.width(), "__cHei": map.height(), "__gridSize": grid,
                "__opacity": 1, "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0,
                "__tilesetDefUid": null, "__tilesetRelPath": null,
                "iid": place(what), "levelId": level_uid, "layerDefUid": uid,
                "pxOffsetX": 0, "pxOffsetY": 0, "visible": true, "optionalRules": [],
                "intGridCsv": [], "autoLayerTiles": [], "seed": 0,
                "overrideTilesetUid": null, "gridTiles": [], "entityInstances": [],
            })
        };
        let mut markers_layer = layer(MARKERS_LAYER, "Markers", "Entities", "markers");
        markers_layer["entityInstances"] = json!(marker_entities);
        let mut rooms_layer = layer(ROOMS_LAYER, "Rooms", "Entities", "rooms");
        rooms_layer["entityInstances"] = json!(room_entities);
        let mut tiles_head = layer(TILES_LAYER, "Tiles", "IntGrid", "tiles");
        tiles_head["__tilesetDefUid"] = json!(TILESET_UID);
        tiles_head["__tilesetRelPath"] = json!(image);
        let head = tiles_head.as_object_mut().expect("an object");
        head.remove("intGridCsv");
        head.remove("autoLayerTiles");
        let map_kinds: Vec<u32> = map
            .tiles()
            .iter()
            .map(|(_, k)| kinds.iter().position(|o| o.name == k.name).unwrap_or(0) as u32)
            .collect();
        let tiles_layer = TilesLayer {
            head: tiles_head,
            csv: Csv {
                map,
                values: map_kinds.iter().map(|k| k + 1).collect(),
            },
            tiles: AutoTiles {
                map,
                kinds: map_kinds,
                grid,
                rule_uids: rule_uids.clone(),
            },
        };
        let mut field_values: Vec<(String, ParamValue)> = vec![
            ("seed".into(), ParamValue::Text(p.seed.to_string())),
            (
                "level_seed".into(),
                ParamValue::Text(crate::script::level_seed(p.seed, p.level).to_string()),
            ),
            ("script".into(), ParamValue::Text(script.to_string())),
            ("name".into(), ParamValue::Text(p.name.clone())),
            (
                "hash".into(),
                ParamValue::Text(format!("{:016x}", map.hash64())),
            ),
            ("attempt".into(), ParamValue::Integer(p.attempt.into())),
            ("level".into(), ParamValue::Integer(p.level.into())),
        ];
        field_values.extend(
            p.params
                .iter()
                .map(|(k, v)| (format!("param_{k}"), v.clone())),
        );
        let fields: Vec<Json> = level_fields
            .iter()
            .map(|f| {
                let value = field_values
                    .iter()
                    .find(|(k, _)| *k == f.key)
                    .map(|(_, v)| v);
                // A level's own param of another type stays readable as text.
                match value {
                    Some(v) if f.kind.join(FieldType::of(v)) != f.kind => f.instance(None),
                    v => f.instance(v),
                }
            })
            .collect();
        let head = json!({
            "identifier": format!("Level_{}", p.level), "iid": place("level"), "uid": level_uid,
            "worldX": world.0, "worldY": world.1, "worldDepth": 0, "pxWid": w, "pxHei": h,
            "__bgColor": "#000000", "bgColor": "#000000", "useAutoIdentifier": false,
            "bgRelPath": null, "bgPos": null, "bgPivotX": 0.5, "bgPivotY": 0.5,
            "__smartColor": "#808080", "__bgPos": null, "externalRelPath": null,
            "fieldInstances": fields, "__neighbours": neighbours(levels, n, seed),
        });
        out_levels.push(LevelOut {
            head,
            layers: (markers_layer, rooms_layer, tiles_layer),
        });
        world_y += h as i64 + grid as i64;
    }

    let head = json!({
        "__header__": {
            "fileType": "LDtk Project JSON", "app": "dunlua",
            "doc": "https://ldtk.io/json", "schema": "https://ldtk.io/files/JSON_SCHEMA.json",
            "appAuthor": "dunlua", "appVersion": env!("CARGO_PKG_VERSION"),
            "url": "https://ldtk.io",
        },
        "iid": iid(seed, "project"), "jsonVersion": JSON_VERSION, "appBuildId": 473703,
        "nextUid": uids.0 + 1, "identifierStyle": "Free", "toc": [],
        "worldLayout": "LinearVertical", "worldGridWidth": 256, "worldGridHeight": 256,
        "defaultLevelWidth": levels[0].map.width() as usize * grid,
        "defaultLevelHeight": levels[0].map.height() as usize * grid,
        "defaultPivotX": 0, "defaultPivotY": 0, "defaultGridSize": grid,
        "defaultEntityWidth": grid, "defaultEntityHeight": grid,
        "bgColor": "#202020", "defaultLevelBgColor": "#000000",
        "minifyJson": true, "externalLevels": false, "exportTiled": false,
        "simplifiedExport": false, "imageExportMode": "None", "exportLevelBg": true,
        "pngFilePattern": null, "backupOnSave": false, "backupLimit": 10,
        "backupRelPath": null, "levelNamePattern": "Level_%idx",
        "tutorialDesc": null, "customCommands": [], "flags": [],
        "defs": {
            "layers": [
                layer_def(MARKERS_LAYER, "Markers", "Entities"),
                layer_def(ROOMS_LAYER, "Rooms", "Entities"),
                tiles_def,
            ],
            "entities": entity_defs, "tilesets": [tileset], "enums": [],
            "externalEnums": [],
            "levelFields": level_fields.iter().map(FieldDef::json).collect::<Vec<_>>(),
        },
        "worlds": [], "dummyWorldIid": iid(seed, "world"),
    });
    Project {
        head,
        levels: out_levels,
    }
}

/// The levels above and below level `n` in the stack.
fn neighbours(levels: &[Generated], n: usize, seed: u64) -> Json {
    let level_iid = |g: &Generated| iid(seed, &format!("level {} level", g.provenance.level));
    let mut out = Vec::new();
    if n > 0 {
        out.push(json!({ "levelIid": level_iid(&levels[n - 1]), "dir": "n" }));
    }
    if let Some(next) = levels.get(n + 1) {
        out.push(json!({ "levelIid": level_iid(next), "dir": "s" }));
    }
    Json::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_what_ldtk_accepts() {
        assert_eq!(identifier("key"), "key");
        assert_eq!(identifier("boss lair"), "boss_lair");
        assert_eq!(identifier("3rd"), "_3rd");
        assert_eq!(identifier("épée"), "_p_e");
        let mut names = Names::default();
        assert_eq!(names.claim("a b"), "a_b");
        assert_eq!(names.claim("a_b"), "a_b_2");
        // Claimed together, a name LDtk can spell keeps its identifier.
        let mut names = Names::default();
        assert_eq!(
            names.claim_all(&["a b", "a_b", "a-b", "c"]),
            ["a_b_2", "a_b", "a_b_3", "c"]
        );
    }

    #[test]
    fn iids_are_uuid_shaped_and_stable() {
        let a = iid(7, "level 1 level");
        assert_eq!(a, iid(7, "level 1 level"));
        assert_ne!(a, iid(8, "level 1 level"));
        let parts: Vec<usize> = a.split('-').map(str::len).collect();
        assert_eq!(parts, [8, 4, 4, 4, 12]);
    }
}
