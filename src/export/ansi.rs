//! The text map for a terminal: exactly the `--ascii` text, with every
//! marker's glyph in its colour (ANSI 24-bit escapes), so two names that
//! show the same letter can be told apart. Files and pipes get the plain
//! text ([`crate::map::Map::text_with_markers`]); only the command decides
//! when colour is wanted (`--color`, a terminal, `NO_COLOR`). The colours
//! come from the caller's [`MarkerLooks`]: a dungeon's, so a name has one
//! colour on every level.

use std::collections::BTreeMap;

use crate::map::Map;
use crate::render::{marker_is_tile, MarkerLooks};

/// Resets the colour after a marker.
const RESET: &str = "\x1b[0m";

/// The map's text with each shown marker coloured as the window draws it,
/// in `looks` ([`MarkerLooks::of`] the map, or of its dungeon's levels).
pub fn colored_text(map: &Map, looks: &MarkerLooks) -> String {
    let plain = map.text_with_markers();
    let w = map.width() as usize;
    // The marker each cell shows, as `text_with_markers` picks it (the last
    // one marked there; one that repeats its tile's kind never shows); the
    // start covers any marker. Keyed by cell for a lookup in row order.
    let mut shown: BTreeMap<usize, &str> = BTreeMap::new();
    for m in map.markers() {
        if !marker_is_tile(map, m) {
            shown.insert(m.y as usize * w + m.x as usize, &m.name);
        }
    }
    if let Some((x, y)) = map.start() {
        shown.remove(&(y as usize * w + x as usize));
    }
    if shown.is_empty() {
        return plain;
    }
    let mut out = String::with_capacity(plain.len() + shown.len() * 24);
    let mut cell = 0;
    for c in plain.chars() {
        if c == '\n' {
            out.push(c);
            continue;
        }
        match shown.get(&cell) {
            Some(name) => {
                let (_, rgb) = looks.get(name);
                out.push_str(&format!(
                    "\x1b[38;2;{};{};{}m{c}{RESET}",
                    rgb.0, rgb.1, rgb.2
                ));
            }
            None => out.push(c),
        }
        cell += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sharing_a_letter_get_different_colours() {
        let mut map = Map::from_ascii("#####\n#@..#\n#..>#\n#####\n").unwrap();
        map.mark(2, 1, "key").unwrap();
        map.mark(3, 1, "knife").unwrap();
        map.mark(3, 2, "stairs_down").unwrap(); // shown as the tile: no colour
        map.mark(1, 1, "under_start").unwrap(); // the start covers it
        let text = colored_text(&map, &MarkerLooks::of(&map));
        let magenta = "\x1b[38;2;255;64;255mK\x1b[0m";
        let cyan = "\x1b[38;2;64;224;255mK\x1b[0m";
        assert_eq!(text, format!("#####\n#@{magenta}{cyan}#\n#..>#\n#####\n"),);
        // Without the escapes it is the plain text, cell for cell.
        let stripped = text.replace(magenta, "K").replace(cyan, "K");
        assert_eq!(stripped, map.text_with_markers());
    }

    #[test]
    fn a_map_without_markers_is_the_plain_text() {
        let map = Map::from_ascii("###\n#@#\n###\n").unwrap();
        assert_eq!(
            colored_text(&map, &MarkerLooks::of(&map)),
            map.text_with_markers()
        );
    }
}
