//! Tiled's Lua map format (`.lua`), as Tiled's "Export as Lua" writes it:
//! a chunk returning one table, the tileset embedded (LÖVE's STI reads
//! only this format, and only embedded tilesets), properties as tables,
//! objects with a `shape`. Valid Lua 5.1 to 5.4 and LuaJIT.

use std::fmt::Write as _;

use super::{
    xml_char, Doc, ObjectDoc, Properties, TileDoc, Tileset, Value, TILED_VERSION, VERSION,
};

/// A Lua string literal for `text`: UTF-8 kept as is, quotes, backslashes
/// and control characters escaped (decimal escapes are three digits, so a
/// following digit is never read into them). Characters XML 1.0 cannot
/// hold are U+FFFD, as in the `.tmx` ([`xml_char`]).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars().map(xml_char) {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\{:03}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::Text(s) => quote(s),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_finite() => super::float_text(*f),
        // Lua has no literal for these; a division makes them.
        Value::Float(f) if f.is_nan() => "(0/0)".into(),
        Value::Float(f) if *f > 0.0 => "(1/0)".into(),
        Value::Float(_) => "(-1/0)".into(),
        Value::Bool(b) => b.to_string(),
    }
}

fn properties(props: &Properties) -> String {
    if props.is_empty() {
        return "{}".into();
    }
    let items: Vec<String> = props
        .iter()
        .map(|(name, v)| format!("[{}] = {}", quote(name), value(v)))
        .collect();
    format!("{{ {} }}", items.join(", "))
}

fn object(out: &mut String, o: &ObjectDoc, indent: &str) {
    let class = quote(&o.class);
    let _ = writeln!(
        out,
        "{indent}{{\n{indent}  id = {}, name = {}, type = {class},\n{indent}  shape = {}, x = {}, y = {}, width = {}, height = {}, rotation = 0, visible = true,\n{indent}  properties = {}\n{indent}}},",
        o.id,
        quote(&o.name),
        if o.point { "\"point\"" } else { "\"rectangle\"" },
        super::float_text(o.x),
        super::float_text(o.y),
        super::float_text(o.width),
        super::float_text(o.height),
        properties(&o.properties)
    );
}

fn layer_head(out: &mut String, kind: &str, id: u32, name: &str) {
    let _ = writeln!(
        out,
        "    {{\n      type = {}, id = {id}, name = {}, class = \"\",\n      x = 0, y = 0, visible = true, opacity = 1, offsetx = 0, offsety = 0, parallaxx = 1, parallaxy = 1,\n      properties = {{}},",
        quote(kind),
        quote(name)
    );
}

/// The embedded tileset's fields, from dunlua's sheet or the game's own.
struct Embedded {
    name: String,
    tile_width: usize,
    tile_height: usize,
    spacing: usize,
    margin: usize,
    columns: usize,
    image: String,
    image_width: usize,
    image_height: usize,
    count: usize,
    tiles: Vec<TileDoc>,
}

fn embedded(tileset: &Tileset) -> Embedded {
    match tileset {
        Tileset::Generated(set) => Embedded {
            name: set.name.clone(),
            tile_width: set.tile,
            tile_height: set.tile,
            spacing: 0,
            margin: 0,
            columns: set.count(),
            image: set.image.clone(),
            image_width: set.count() * set.tile,
            image_height: set.tile,
            count: set.count(),
            tiles: set.tiles.clone(),
        },
        Tileset::User { set, image, .. } => {
            let (_, image_width, image_height) = set.image.clone().unwrap_or_default();
            Embedded {
                name: set.name.clone(),
                tile_width: set.tile_width,
                tile_height: set.tile_height,
                spacing: set.spacing,
                margin: set.margin,
                columns: set.columns,
                image: image.clone().unwrap_or_default(),
                image_width,
                image_height,
                count: set.tile_count,
                // The names dunlua matched kinds by, so a reader of this
                // file finds them as a reader of the .tsx would.
                tiles: set
                    .names()
                    .map(|(name, id)| TileDoc {
                        id,
                        class: String::new(),
                        properties: vec![("name".into(), Value::Text(name.to_string()))],
                        solid: false,
                    })
                    .collect(),
            }
        }
    }
}

/// The map as a Lua chunk returning Tiled's map table, its tileset
/// embedded (STI reads no other kind).
pub fn lua(doc: &Doc) -> String {
    let map = doc.map;
    let (w, h) = (map.width(), map.height());
    let (t, th) = (doc.tile_width, doc.tile_height);
    let set = embedded(&doc.tileset);
    let mut out = String::with_capacity(map.cells().len() * 3 + 8192);
    let _ = writeln!(
        out,
        "return {{\n  version = \"{VERSION}\",\n  luaversion = \"5.1\",\n  tiledversion = \"{TILED_VERSION}\",\n  class = \"\",\n  orientation = \"orthogonal\",\n  renderorder = \"right-down\",\n  width = {w},\n  height = {h},\n  tilewidth = {t},\n  tileheight = {th},\n  nextlayerid = 3,\n  nextobjectid = {},\n  properties = {},",
        doc.next_object_id(),
        properties(&doc.properties)
    );
    let (stw, sth) = (set.tile_width, set.tile_height);
    let _ = writeln!(
        out,
        "  tilesets = {{\n    {{\n      name = {}, firstgid = 1, class = \"\",\n      tilewidth = {stw}, tileheight = {sth}, spacing = {}, margin = {}, columns = {},\n      image = {}, imagewidth = {}, imageheight = {},\n      objectalignment = \"unspecified\", tilerendersize = \"tile\", fillmode = \"stretch\",\n      tileoffset = {{ x = 0, y = 0 }},\n      grid = {{ orientation = \"orthogonal\", width = {stw}, height = {sth} }},\n      properties = {{}}, wangsets = {{}}, tilecount = {},\n      tiles = {{",
        quote(&set.name),
        set.spacing,
        set.margin,
        set.columns,
        quote(&set.image),
        set.image_width,
        set.image_height,
        set.count
    );
    for tile in &set.tiles {
        let class = quote(&tile.class);
        let _ = write!(
            out,
            "        {{\n          id = {}, type = {class},\n          properties = {}",
            tile.id,
            properties(&tile.properties)
        );
        if tile.solid {
            let _ = write!(
                out,
                ",\n          objectGroup = {{\n            type = \"objectgroup\", draworder = \"index\", id = 2, name = \"\", class = \"\",\n            visible = true, opacity = 1, offsetx = 0, offsety = 0, parallaxx = 1, parallaxy = 1,\n            properties = {{}},\n            objects = {{\n              {{ id = 1, name = \"\", type = \"\", shape = \"rectangle\", x = 0, y = 0, width = {stw}, height = {sth}, rotation = 0, visible = true, properties = {{}} }}\n            }}\n          }}"
            );
        }
        let _ = writeln!(out, "\n        }},");
    }
    let _ = writeln!(out, "      }}\n    }}\n  }},\n  layers = {{");
    layer_head(&mut out, "tilelayer", 1, "tiles");
    let _ = writeln!(
        out,
        "      width = {w}, height = {h}, encoding = \"lua\",\n      data = {{"
    );
    let mut gids = doc.gids();
    for _ in 0..h {
        out.push_str("        ");
        for _ in 0..w {
            let _ = write!(out, "{},", gids.next().unwrap_or(0));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "      }}\n    }},");
    layer_head(&mut out, "objectgroup", 2, "objects");
    let _ = writeln!(out, "      draworder = \"topdown\",\n      objects = {{");
    for o in &doc.objects {
        object(&mut out, o, "        ");
    }
    let _ = writeln!(out, "      }}\n    }}\n  }}\n}}");
    out
}
