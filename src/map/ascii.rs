//! Maps as text, in and out: `Display` is the text export (and what tests
//! compare), `from_ascii` builds a map from the same glyphs.

use std::fmt;

use super::{Map, MapError, Tile, TileSet, START_GLYPH};

impl Map {
    /// Builds a map from glyph rows with the built-in tiles; `@` is a floor
    /// cell that is also the start.
    pub fn from_ascii(text: &str) -> Result<Map, MapError> {
        Map::from_ascii_with(text, TileSet::builtin())
    }

    /// Like [`Map::from_ascii`], with a tile set that may hold script kinds.
    pub fn from_ascii_with(text: &str, tiles: TileSet) -> Result<Map, MapError> {
        let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut map = Map::with_tiles(width as i64, rows.len() as i64, tiles)?;
        for (y, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width {
                return Err(MapError::Ascii {
                    line: y + 1,
                    message: format!("{len} glyphs where the first line has {width}"),
                });
            }
            for (x, glyph) in row.chars().enumerate() {
                let tile = if glyph == START_GLYPH {
                    map.start = Some((x as i32, y as i32));
                    Tile::FLOOR
                } else {
                    map.tiles.by_glyph(glyph).ok_or_else(|| MapError::Ascii {
                        line: y + 1,
                        message: format!("no tile has the glyph '{glyph}'"),
                    })?
                };
                map.set(x as i64, y as i64, tile)?;
            }
        }
        Ok(map)
    }
}

/// The map as glyph rows, each ended by a newline, with `@` at the start.
impl Map {
    /// The text map with its markers: each marked cell shows its marker's
    /// glyph (`markers.define`) or the first letter of its name,
    /// upper-cased, unless the tile there already shows it (stairs marked
    /// on stairs; the later of two markers on a cell wins), and the start
    /// its `@` over everything. What `--ascii` prints and `.txt` holds;
    /// [`Map`]'s `Display` is the tiles alone, as [`Map::from_ascii`] reads.
    pub fn text_with_markers(&self) -> String {
        let w = self.width as usize;
        let mut grid: Vec<char> = self
            .cells
            .iter()
            .map(|&t| self.tiles.kind(t).glyph)
            .collect();
        for m in self.markers() {
            let i = m.y as usize * w + m.x as usize;
            if self.tiles.kind(self.cells[i]).name == m.name {
                continue;
            }
            grid[i] = match self.tiles.marker_look(&m.name) {
                Some(look) => look.glyph,
                None => Map::marker_letter(&m.name),
            };
        }
        if let Some((x, y)) = self.start {
            grid[y as usize * w + x as usize] = START_GLYPH;
        }
        let mut out = String::with_capacity(grid.len() * 2);
        for row in grid.chunks(w.max(1)) {
            out.extend(row);
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.start.map(|(x, y)| (x as usize, y as usize));
        let mut line = String::with_capacity(self.width as usize + 1);
        for (y, row) in self.cells.chunks(self.width as usize).enumerate() {
            line.clear();
            for (x, &tile) in row.iter().enumerate() {
                if start == Some((x, y)) {
                    line.push(START_GLYPH);
                } else {
                    line.push(self.tiles.kind(tile).glyph);
                }
            }
            line.push('\n');
            f.write_str(&line)?;
        }
        Ok(())
    }
}

impl Map {
    /// The letter a marker without a look shows: its name's first, upper-cased,
    /// when the font draws it and it is not the start's `@`; else the name's
    /// first character that is so, else `*`. (A name's first character was
    /// used whatever it was: `€` and `日` drew hollow boxes, `@home` a second
    /// start, and a tab or an escape went raw into the text map and the
    /// terminal.)
    pub fn marker_letter(name: &str) -> char {
        name.chars()
            .map(|c| c.to_ascii_uppercase())
            .find(|&c| c != START_GLYPH && crate::glyphs::drawable(c))
            .unwrap_or('*')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text map draws a marker's letter as the PNG does: no raw tab
    /// or escape, no second `@`, no character the font lacks.
    #[test]
    fn the_text_map_draws_marker_letters_the_font_has() {
        let mut map = Map::from_ascii("......\n").unwrap();
        for (x, name) in [(1, "\u{1b}y"), (2, "@home"), (3, "\tx"), (4, "日本")] {
            map.mark(x, 0, name).unwrap();
        }
        assert_eq!(map.text_with_markers(), ".YHX*.\n");
    }

    #[test]
    fn text_with_markers_shows_them_over_the_tiles() {
        let mut map = Map::from_ascii("#####\n#@..#\n#..>#\n#####\n").unwrap();
        map.mark(2, 1, "key").unwrap();
        map.mark(3, 2, "stairs_down").unwrap();
        map.mark(1, 1, "under_start").unwrap();
        map.tiles_mut()
            .define_marker(crate::map::MarkerLook {
                name: "gold".into(),
                glyph: '$',
                color: crate::map::Rgb(1, 2, 3),
            })
            .unwrap();
        map.mark(1, 2, "gold").unwrap();
        assert_eq!(
            map.text_with_markers(),
            "#####\n#@K.#\n#$.>#\n#####\n",
            "a letter, a look, stairs as the tile shows them, the start over all"
        );
        assert_eq!(
            map.to_string(),
            "#####\n#@..#\n#..>#\n#####\n",
            "Display is the tiles"
        );
    }

    #[test]
    fn round_trips() {
        let text = "#####\n#@.+#\n#~<>#\n#####\n";
        let map = Map::from_ascii(text).unwrap();
        assert_eq!(map.start(), Some((1, 1)));
        assert_eq!(map.get(3, 1).unwrap(), Tile::DOOR);
        assert_eq!(map.get(1, 2).unwrap(), Tile::WATER);
        assert_eq!(map.to_string(), text);
    }

    #[test]
    fn rejects_ragged_rows_and_unknown_glyphs() {
        assert_eq!(
            Map::from_ascii("###\n##\n").unwrap_err().to_string(),
            "line 2 of the ASCII map: 2 glyphs where the first line has 3"
        );
        assert_eq!(
            Map::from_ascii("#?#\n").unwrap_err().to_string(),
            "line 1 of the ASCII map: no tile has the glyph '?'"
        );
    }
}
