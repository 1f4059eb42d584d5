//! Tiled's XML formats: the map (`.tmx`, tile layer as CSV) and its
//! tileset (`.tsx`), written beside it and referenced by file name, or
//! embedded in the map. What Bevy's bevy_ecs_tiled, Unity's
//! SuperTiled2Unity, pytmx and the `tiled` crate read.

use std::fmt::Write as _;

use super::{xml_char, Doc, ObjectDoc, Properties, Tileset, TilesetDoc, TILED_VERSION, VERSION};

/// Text escaped for an XML attribute or element; characters XML 1.0
/// cannot hold are U+FFFD ([`xml_char`]).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().map(xml_char) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

fn properties(out: &mut String, props: &Properties, indent: &str) {
    if props.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}<properties>");
    for (name, v) in props {
        let kind = match v.type_name() {
            "string" => String::new(),
            other => format!(" type=\"{other}\""),
        };
        let _ = writeln!(
            out,
            "{indent} <property name=\"{}\"{kind} value=\"{}\"/>",
            escape(name),
            escape(&v.text())
        );
    }
    let _ = writeln!(out, "{indent}</properties>");
}

/// The tileset element: a whole `.tsx` document's root (`firstgid` None)
/// or embedded in a map.
fn tileset_element(out: &mut String, set: &TilesetDoc, firstgid: Option<u32>, indent: &str) {
    let tile = set.tile;
    let gid = firstgid.map_or(String::new(), |g| format!(" firstgid=\"{g}\""));
    let version = if firstgid.is_none() {
        format!(" version=\"{VERSION}\" tiledversion=\"{TILED_VERSION}\"")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{indent}<tileset{version}{gid} name=\"{}\" tilewidth=\"{tile}\" tileheight=\"{tile}\" tilecount=\"{n}\" columns=\"{n}\">",
        escape(&set.name),
        n = set.count()
    );
    let _ = writeln!(
        out,
        "{indent} <image source=\"{}\" width=\"{}\" height=\"{tile}\"/>",
        escape(&set.image),
        set.count() * tile
    );
    for t in &set.tiles {
        let class = escape(&t.class);
        let _ = writeln!(out, "{indent} <tile id=\"{}\" type=\"{class}\">", t.id);
        properties(out, &t.properties, &format!("{indent}  "));
        if t.solid {
            let _ = writeln!(out, "{indent}  <objectgroup draworder=\"index\" id=\"2\">");
            let _ = writeln!(
                out,
                "{indent}   <object id=\"1\" x=\"0\" y=\"0\" width=\"{tile}\" height=\"{tile}\"/>"
            );
            let _ = writeln!(out, "{indent}  </objectgroup>");
        }
        let _ = writeln!(out, "{indent} </tile>");
    }
    let _ = writeln!(out, "{indent}</tileset>");
}

/// The tileset as a `.tsx` document.
pub fn tsx(set: &TilesetDoc) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    tileset_element(&mut out, set, None, "");
    out
}

fn object(out: &mut String, o: &ObjectDoc) {
    let class = escape(&o.class);
    let head = format!(
        "  <object id=\"{}\" name=\"{}\" type=\"{class}\" x=\"{}\" y=\"{}\"",
        o.id,
        escape(&o.name),
        super::float_text(o.x),
        super::float_text(o.y)
    );
    if o.point {
        let _ = writeln!(out, "{head}>");
        properties(out, &o.properties, "   ");
        let _ = writeln!(out, "   <point/>");
    } else {
        let _ = writeln!(
            out,
            "{head} width=\"{}\" height=\"{}\">",
            super::float_text(o.width),
            super::float_text(o.height)
        );
        properties(out, &o.properties, "   ");
    }
    let _ = writeln!(out, "  </object>");
}

/// The map as a `.tmx` document. dunlua's generated tileset goes in the
/// `.tsx` named `tsx` (relative to the map) or, when that is None, inside
/// the map; a game's own tileset is referenced where it is.
pub fn tmx(doc: &Doc, tsx: Option<&str>) -> String {
    let map = doc.map;
    let (w, h) = (map.width(), map.height());
    let mut out = String::with_capacity(map.cells().len() * 3 + 4096);
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<map version=\"{VERSION}\" tiledversion=\"{TILED_VERSION}\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{w}\" height=\"{h}\" tilewidth=\"{t}\" tileheight=\"{th}\" infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"{}\">",
        doc.next_object_id(),
        t = doc.tile_width,
        th = doc.tile_height
    );
    properties(&mut out, &doc.properties, " ");
    let external = match (&doc.tileset, tsx) {
        (Tileset::User { source, .. }, _) => Some(source.as_str()),
        (Tileset::Generated(_), Some(tsx)) => Some(tsx),
        (Tileset::Generated(set), None) => {
            tileset_element(&mut out, set, Some(1), " ");
            None
        }
    };
    if let Some(source) = external {
        let _ = writeln!(
            out,
            " <tileset firstgid=\"1\" source=\"{}\"/>",
            escape(source)
        );
    }
    let _ = writeln!(
        out,
        " <layer id=\"1\" name=\"tiles\" width=\"{w}\" height=\"{h}\">"
    );
    let _ = writeln!(out, "  <data encoding=\"csv\">");
    let mut gids = doc.gids().peekable();
    for _ in 0..h {
        for x in 0..w {
            let gid = gids.next().unwrap_or(0);
            let _ = write!(out, "{gid}");
            if x + 1 < w || gids.peek().is_some() {
                out.push(',');
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "</data>");
    let _ = writeln!(out, " </layer>");
    let _ = writeln!(out, " <objectgroup id=\"2\" name=\"objects\">");
    for o in &doc.objects {
        object(&mut out, o);
    }
    let _ = writeln!(out, " </objectgroup>");
    let _ = writeln!(out, "</map>");
    out
}
