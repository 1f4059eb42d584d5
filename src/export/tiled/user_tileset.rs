//! A game's own Tiled tileset (`--tileset FILE.tsx` or `.tsj`): read once,
//! then each of the map's tile kinds is matched to one of its tiles by the
//! tile's `name` custom property, or else by its type/class, so the exports
//! use the game's art and tile ids instead of dunlua's glyph sheet.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};
use quick_xml::events::{BytesStart, Event};

use crate::map::TileSet;

/// What the exports need of a game's tileset.
#[derive(Clone, Debug, PartialEq)]
pub struct UserTileset {
    /// The file as given, and its real path (to reference it from a map
    /// written anywhere).
    pub path: PathBuf,
    real: PathBuf,
    pub name: String,
    pub tile_width: usize,
    pub tile_height: usize,
    pub tile_count: usize,
    pub columns: usize,
    pub margin: usize,
    pub spacing: usize,
    /// The tileset's image, relative to the tileset file (None for an
    /// image-collection tileset).
    pub image: Option<(String, usize, usize)>,
    /// Tile id by the name it answers to (`name` property, else its class).
    by_name: BTreeMap<String, u32>,
}

/// How a tile answers to a kind name: its `name` property wins over its
/// type/class.
#[derive(Default)]
struct TileNames {
    property: Option<String>,
    class: Option<String>,
}

impl UserTileset {
    /// Reads a `.tsx` (XML) or `.tsj`/`.json` (JSON) tileset.
    pub fn read(path: &Path) -> anyhow::Result<UserTileset> {
        let shown = path.display();
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let xml = match ext.as_deref() {
            Some("tsx") | Some("xml") => true,
            Some("tsj") | Some("json") => false,
            _ => bail!("--tileset {shown}: expected a Tiled tileset, .tsx or .tsj"),
        };
        let text = crate::files::read_text(path, crate::files::TILESET)
            .with_context(|| format!("--tileset {shown}: cannot read it"))?;
        let real = path
            .canonicalize()
            .with_context(|| format!("--tileset {shown}: cannot resolve its path"))?;
        let mut set = if xml {
            from_xml(&text)
        } else {
            from_json(&text)
        }
        .with_context(|| format!("--tileset {shown}"))?;
        set.path = path.to_path_buf();
        set.real = real;
        if set.tile_width == 0 || set.tile_height == 0 {
            bail!("--tileset {shown}: no tilewidth/tileheight");
        }
        if set.by_name.is_empty() {
            bail!("--tileset {shown}: no tile has a \"name\" property or a type/class to match dunlua's tile kinds by");
        }
        Ok(set)
    }

    /// The tile id of each of the map's kinds, in kind order; an error
    /// listing every kind the tileset has no tile for.
    pub fn ids_for(&self, kinds: &TileSet) -> anyhow::Result<Vec<u32>> {
        let mut missing = Vec::new();
        let ids: Vec<u32> = kinds
            .iter()
            .map(|(_, kind)| match self.by_name.get(&kind.name) {
                Some(&id) => id,
                None => {
                    missing.push(kind.name.clone());
                    0
                }
            })
            .collect();
        if !missing.is_empty() {
            bail!(
                "--tileset {}: no tile for {} (a tile matches a kind by its \"name\" property or its type/class; the tileset names {})",
                self.path.display(),
                missing.join(", "),
                self.by_name.keys().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        Ok(ids)
    }

    /// The tileset's path as a map in `map_folder` refers to it.
    pub fn source_from(&self, map_folder: &Path) -> String {
        let folder = map_folder
            .canonicalize()
            .unwrap_or_else(|_| map_folder.to_path_buf());
        relative(&self.real, &folder)
    }

    /// The image's path as a map in `map_folder` refers to it.
    pub fn image_from(&self, map_folder: &Path) -> Option<String> {
        let beside = self.image_path()?;
        let folder = map_folder
            .canonicalize()
            .unwrap_or_else(|_| map_folder.to_path_buf());
        Some(relative(&beside, &folder))
    }

    /// Where the image the tileset names is (beside the tileset's real
    /// file): not read, but no output may replace it.
    pub fn image_path(&self) -> Option<PathBuf> {
        let (image, _, _) = self.image.as_ref()?;
        Some(self.real.parent().unwrap_or(Path::new("/")).join(image))
    }

    /// The names tiles answer to, with their ids.
    pub fn names(&self) -> impl Iterator<Item = (&str, u32)> {
        self.by_name.iter().map(|(k, &v)| (k.as_str(), v))
    }
}

/// `target` relative to the folder `base` (both absolute), with `/`.
fn relative(target: &Path, base: &Path) -> String {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); b.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

fn number(value: Option<&String>) -> usize {
    value.and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

fn attributes(e: &BytesStart) -> anyhow::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    // quick-xml's errors repeat their cause in their own text: kept as
    // text, so the message says it once.
    for attr in e.attributes() {
        let attr = attr.map_err(|e| anyhow::anyhow!("{e}"))?;
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        let value = attr
            .unescape_value()
            .map_err(|e| anyhow::anyhow!("attribute {key}: {e}"))?;
        out.insert(key, value.into_owned());
    }
    Ok(out)
}

/// The largest tile id a map can use: its gid (firstgid 1 + id) must stay
/// below Tiled's flip and rotation flags (bits 28 to 31).
const MAX_TILE_ID: u32 = (1 << 28) - 2;

fn finish(
    head: &BTreeMap<String, String>,
    image: Option<(String, usize, usize)>,
    tiles: BTreeMap<u32, TileNames>,
) -> anyhow::Result<UserTileset> {
    let count = number(head.get("tilecount"));
    // Ids past the tiles an image holds name no tile of it (and a huge one
    // turned into a flipped tile, or into no tile, in the map's gids). An
    // image collection may leave gaps, so only the flag bits bound it.
    for &id in tiles.keys() {
        if image.is_some() && count > 0 && id as usize >= count {
            bail!("tile id {id} is past the tileset's tilecount {count} (ids are 0..{count})");
        }
        if id > MAX_TILE_ID {
            bail!("tile id {id} is too large: a Tiled map can use ids up to {MAX_TILE_ID}");
        }
    }
    let mut by_name = BTreeMap::new();
    for (id, names) in tiles {
        if let Some(name) = names.property.or(names.class).filter(|n| !n.is_empty()) {
            // The first tile that answers to a name keeps it.
            by_name.entry(name).or_insert(id);
        }
    }
    Ok(UserTileset {
        path: PathBuf::new(),
        real: PathBuf::new(),
        name: head.get("name").cloned().unwrap_or_default(),
        tile_width: number(head.get("tilewidth")),
        tile_height: number(head.get("tileheight")),
        tile_count: number(head.get("tilecount")),
        columns: number(head.get("columns")),
        margin: number(head.get("margin")),
        spacing: number(head.get("spacing")),
        image,
        by_name,
    })
}

fn from_xml(text: &str) -> anyhow::Result<UserTileset> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut head = BTreeMap::new();
    let mut image = None;
    let mut tiles: BTreeMap<u32, TileNames> = BTreeMap::new();
    let mut tile: Option<u32> = None;
    let mut saw_tileset = false;
    loop {
        let event = reader.read_event().map_err(|e| {
            anyhow::anyhow!("not valid XML at byte {}: {e}", reader.buffer_position())
        })?;
        let (e, empty) = match event {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) if e.name().as_ref() == b"tile" => {
                tile = None;
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let attrs = attributes(&e)?;
        match e.name().as_ref() {
            b"tileset" => {
                saw_tileset = true;
                head = attrs;
            }
            b"image" if tile.is_none() => {
                image = attrs.get("source").map(|s| {
                    (
                        s.clone(),
                        number(attrs.get("width")),
                        number(attrs.get("height")),
                    )
                });
            }
            b"tile" => {
                let id: u32 = attrs
                    .get("id")
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| anyhow::anyhow!("a <tile> without a numeric id"))?;
                let entry = tiles.entry(id).or_default();
                entry.class = attrs.get("type").or(attrs.get("class")).cloned();
                // An empty <tile/> has no end event to close it.
                if !empty {
                    tile = Some(id);
                }
            }
            b"property" => {
                if let (Some(id), Some("name")) = (tile, attrs.get("name").map(String::as_str)) {
                    tiles.entry(id).or_default().property = attrs.get("value").cloned();
                }
            }
            _ => {}
        }
    }
    if !saw_tileset {
        bail!("no <tileset> element");
    }
    finish(&head, image, tiles)
}

fn from_json(text: &str) -> anyhow::Result<UserTileset> {
    let json: serde_json::Value = serde_json::from_str(text).context("not valid JSON")?;
    if !json.is_object() {
        bail!("not a Tiled tileset object");
    }
    let mut head = BTreeMap::new();
    for key in [
        "name",
        "tilewidth",
        "tileheight",
        "tilecount",
        "columns",
        "margin",
        "spacing",
    ] {
        if let Some(v) = json.get(key) {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            head.insert(key.to_string(), text);
        }
    }
    let image = json.get("image").and_then(|v| v.as_str()).map(|s| {
        let size = |k: &str| json.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as usize;
        (s.to_string(), size("imagewidth"), size("imageheight"))
    });
    let mut tiles: BTreeMap<u32, TileNames> = BTreeMap::new();
    for t in json
        .get("tiles")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
    {
        let Some(id) = t.get("id").and_then(|v| v.as_u64()) else {
            bail!("a tile without a numeric id");
        };
        let Ok(id) = u32::try_from(id) else {
            bail!("tile id {id} is too large: a Tiled map can use ids up to {MAX_TILE_ID}");
        };
        let entry = tiles.entry(id).or_default();
        entry.class = t
            .get("type")
            .or_else(|| t.get("class"))
            .and_then(|v| v.as_str())
            .map(str::to_string);
        for p in t
            .get("properties")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            if p.get("name").and_then(|v| v.as_str()) == Some("name") {
                entry.property = p.get("value").and_then(|v| v.as_str()).map(str::to_string);
            }
        }
    }
    finish(&head, image, tiles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_relative() {
        assert_eq!(
            relative(Path::new("/a/b/art.tsx"), Path::new("/a/b")),
            "art.tsx"
        );
        assert_eq!(
            relative(Path::new("/a/art/t.tsx"), Path::new("/a/maps")),
            "../art/t.tsx"
        );
        assert_eq!(
            relative(Path::new("/x/t.tsx"), Path::new("/a/b")),
            "../../x/t.tsx"
        );
    }

    #[test]
    fn tiles_answer_to_their_name_property_then_their_class() {
        let set = from_xml(
            r#"<?xml version="1.0"?>
            <tileset name="art" tilewidth="32" tileheight="32" tilecount="4" columns="2">
             <image source="art.png" width="64" height="64"/>
             <tile id="3" type="floor"/>
             <tile id="0" type="stone"><properties><property name="name" value="wall"/></properties></tile>
             <tile id="2"><properties><property name="name" value="door"/></properties></tile>
            </tileset>"#,
        )
        .unwrap();
        let names: Vec<(&str, u32)> = set.names().collect();
        assert_eq!(names, [("door", 2), ("floor", 3), ("wall", 0)]);
        assert_eq!(set.image, Some(("art.png".into(), 64, 64)));
        assert_eq!((set.tile_width, set.columns), (32, 2));
        let json = from_json(
            r#"{"name":"art","tilewidth":32,"tileheight":32,"tilecount":4,"columns":2,
                "image":"art.png","imagewidth":64,"imageheight":64,
                "tiles":[{"id":3,"type":"floor"},
                         {"id":0,"properties":[{"name":"name","type":"string","value":"wall"}]}]}"#,
        )
        .unwrap();
        let names: Vec<(&str, u32)> = json.names().collect();
        assert_eq!(names, [("floor", 3), ("wall", 0)]);
    }

    /// A tile id past what the image holds, or past what a gid can carry
    /// under Tiled's flip flags, is refused: id 536870912 was written as a
    /// flipped tile 0, and 4294967296 (read as a u32) as no tile at all.
    #[test]
    fn tile_ids_past_the_tiles_or_the_flag_bits_are_refused() {
        let xml = |id: &str, image: bool| {
            let image = if image {
                r#"<image source="art.png" width="64" height="64"/>"#
            } else {
                ""
            };
            format!(
                r#"<tileset name="art" tilewidth="32" tileheight="32" tilecount="8" columns="2">{image}<tile id="{id}" type="wall"/></tileset>"#
            )
        };
        let err = from_xml(&xml("8", true)).unwrap_err().to_string();
        assert_eq!(
            err,
            "tile id 8 is past the tileset's tilecount 8 (ids are 0..8)"
        );
        assert!(from_xml(&xml("7", true)).is_ok());
        // An image collection may have gaps, but no id past the flags.
        assert!(from_xml(&xml("300", false)).is_ok());
        let err = from_xml(&xml("536870912", false)).unwrap_err().to_string();
        assert!(err.contains("too large"), "{err}");
        let json = r#"{"name":"a","tilewidth":32,"tileheight":32,"tilecount":8,
            "tiles":[{"id":4294967296,"type":"wall"}]}"#;
        let err = from_json(json).unwrap_err().to_string();
        assert!(err.contains("tile id 4294967296 is too large"), "{err}");
    }
}
