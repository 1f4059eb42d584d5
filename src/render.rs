//! Drawing into a plain framebuffer: tile glyphs from the font8x8 bitmap
//! font, text, and whole maps for the PNG export. Pure Rust, no window, so
//! the viewer's drawing and the PNG export share it and tests read pixels.

use std::ops::Range;

use crate::generated::Generated;
use crate::map::{Map, Rgb, START_GLYPH};
use crate::ops::is_buried;

/// Width and height of a glyph in the font, in pixels.
pub const GLYPH: usize = 8;

/// Colours the sinks agree on.
pub const START_COLOR: Rgb = Rgb(0xff, 0xff, 0x40);
pub const MARKER_COLOR: Rgb = Rgb(0xff, 0x40, 0xff);

/// A framebuffer of `0x00RRGGBB` pixels, row-major (minifb's layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u32>,
}

pub fn pack(c: Rgb) -> u32 {
    (c.0 as u32) << 16 | (c.1 as u32) << 8 | c.2 as u32
}

pub fn unpack(p: u32) -> Rgb {
    Rgb((p >> 16) as u8, (p >> 8) as u8, p as u8)
}

/// The colour scaled towards black by `percent` of its brightness kept.
pub fn dim(c: Rgb, percent: u32) -> Rgb {
    let f = |v: u8| (v as u32 * percent / 100) as u8;
    Rgb(f(c.0), f(c.1), f(c.2))
}

/// The 8x8 bitmap of a character (bit 0 of each row byte is the leftmost
/// pixel; see [`crate::glyphs`]). Tile glyphs always have one; other text
/// (a path in the status line) draws an unknown character as a box, so it
/// is never invisible.
pub fn glyph_bits(c: char) -> [u8; 8] {
    crate::glyphs::bitmap(c).unwrap_or([0xff, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xff])
}

impl Frame {
    pub fn new(width: usize, height: usize, fill: Rgb) -> Frame {
        Frame {
            width,
            height,
            pixels: vec![pack(fill); width * height],
        }
    }

    pub fn get(&self, x: usize, y: usize) -> Rgb {
        unpack(self.pixels[y * self.width + x])
    }

    /// Fills a box, clipped to the frame.
    pub fn fill_rect(&mut self, x: i64, y: i64, w: usize, h: usize, color: Rgb) {
        let p = pack(color);
        let x0 = x.clamp(0, self.width as i64) as usize;
        let x1 = (x + w as i64).clamp(0, self.width as i64) as usize;
        let y0 = y.clamp(0, self.height as i64) as usize;
        let y1 = (y + h as i64).clamp(0, self.height as i64) as usize;
        for row in y0..y1 {
            self.pixels[row * self.width + x0..row * self.width + x1].fill(p);
        }
    }

    /// Mixes `color` into a rectangle, `percent` of it over what is there.
    pub fn blend_rect(&mut self, x: i64, y: i64, w: usize, h: usize, color: Rgb, percent: u32) {
        let mix = |a: u8, b: u8| ((a as u32 * (100 - percent) + b as u32 * percent) / 100) as u8;
        let x0 = x.clamp(0, self.width as i64) as usize;
        let x1 = (x + w as i64).clamp(0, self.width as i64) as usize;
        let y0 = y.clamp(0, self.height as i64) as usize;
        let y1 = (y + h as i64).clamp(0, self.height as i64) as usize;
        for row in y0..y1 {
            for p in &mut self.pixels[row * self.width + x0..row * self.width + x1] {
                let Rgb(r, g, b) = unpack(*p);
                *p = pack(Rgb(mix(r, color.0), mix(g, color.1), mix(b, color.2)));
            }
        }
    }

    /// A rectangle's outline, `t` pixels thick, clipped to the frame.
    pub fn outline(&mut self, x: i64, y: i64, w: usize, h: usize, t: usize, color: Rgb) {
        self.fill_rect(x, y, w, t, color);
        self.fill_rect(x, y + h as i64 - t as i64, w, t, color);
        self.fill_rect(x, y, t, h, color);
        self.fill_rect(x + w as i64 - t as i64, y, t, h, color);
    }

    /// Draws `c` in a `size` x `size` cell at `(x, y)` (the 8x8 glyph scaled
    /// by nearest neighbour), clipped to the frame.
    pub fn glyph(&mut self, x: i64, y: i64, size: usize, c: char, fg: Rgb, bg: Rgb) {
        let bits = glyph_bits(c);
        let (fg, bg) = (pack(fg), pack(bg));
        for py in 0..size {
            let sy = y + py as i64;
            if sy < 0 || sy >= self.height as i64 {
                continue;
            }
            let row = bits[py * GLYPH / size];
            for px in 0..size {
                let sx = x + px as i64;
                if sx < 0 || sx >= self.width as i64 {
                    continue;
                }
                let on = row >> (px * GLYPH / size) & 1 == 1;
                self.pixels[sy as usize * self.width + sx as usize] = if on { fg } else { bg };
            }
        }
    }

    /// Draws a line of text with `size`-pixel cells; returns the width used.
    pub fn text(&mut self, x: i64, y: i64, size: usize, text: &str, fg: Rgb, bg: Rgb) -> usize {
        for (i, c) in text.chars().enumerate() {
            self.glyph(x + (i * size) as i64, y, size, c, fg, bg);
        }
        text.chars().count() * size
    }

    /// RGB bytes, three per pixel, for image encoders.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.rgb_into(&mut bytes);
        bytes
    }

    /// The same bytes into a buffer the caller reuses (cleared first).
    pub fn rgb_into(&self, bytes: &mut Vec<u8>) {
        bytes.clear();
        bytes.reserve(self.pixels.len() * 3);
        for &p in &self.pixels {
            bytes.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
        }
    }
}

/// The colours of markers a script gave no look: the first name showing a
/// letter gets the first (today's magenta), another name showing the same
/// letter the next, and so on.
pub const MARKER_PALETTE: [Rgb; 8] = [
    MARKER_COLOR,
    Rgb(0x40, 0xe0, 0xff),
    Rgb(0xff, 0x99, 0x33),
    Rgb(0x99, 0xff, 0x44),
    Rgb(0xff, 0x88, 0xbb),
    Rgb(0xaa, 0x88, 0xff),
    Rgb(0x44, 0xff, 0xcc),
    Rgb(0xff, 0x55, 0x55),
];

/// How every marker name of a map, or of a dungeon's levels, is drawn: its
/// look (`markers.define`), or its first letter, upper-cased, in a colour
/// no other name showing that letter has. One name has one look across all
/// the levels of a dungeon; names are taken level by level, each level's
/// defined ones first, then its others in the order it first marks them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MarkerLooks {
    looks: Vec<(String, char, Rgb)>,
    /// Where each name is in `looks`.
    index: std::collections::HashMap<String, usize>,
}

impl MarkerLooks {
    /// The looks of one map's markers.
    pub fn of(map: &Map) -> MarkerLooks {
        MarkerLooks::of_levels([map])
    }

    /// Level `level` of a dungeon's `levels` (1 is the first; past the
    /// last, the last), taken out, with the looks of the levels down to it
    /// ([`MarkerLooks::of_levels`]): what a picture of one level of a seed
    /// shows (`sheet --level`, the window's seed grid).
    pub fn level_of(mut levels: Vec<Generated>, level: usize) -> (Generated, MarkerLooks) {
        let at = level.clamp(1, levels.len().max(1)) - 1;
        let looks = MarkerLooks::of_levels(levels[..=at].iter().map(|g| &g.map));
        (levels.swap_remove(at), looks)
    }

    /// The looks of a dungeon's markers, its levels' maps in level order.
    /// Each level adds the names no level above marks: a name keeps the
    /// look of the first level marking it, so the levels down to k alone
    /// give their names the looks the whole dungeon gives them (level 1
    /// alone is [`MarkerLooks::of`] it: a one-level dungeon looks as its
    /// map does). A name a later level defines may share a letter and
    /// colour with one an earlier level left undefined: a defined look is
    /// drawn as given.
    pub fn of_levels<'a>(maps: impl IntoIterator<Item = &'a Map>) -> MarkerLooks {
        let mut out = MarkerLooks::default();
        // Letters and colours already shown, with how many names show each
        // letter.
        let mut shown: std::collections::HashSet<(char, Rgb)> = Default::default();
        let mut per_letter: std::collections::HashMap<char, usize> = Default::default();
        for map in maps {
            let mut undefined: Vec<&str> = Vec::new();
            let mut seen: std::collections::HashSet<&str> = Default::default();
            for m in map.markers() {
                if out.index.contains_key(&m.name) || !seen.insert(&m.name) {
                    continue;
                }
                match map.tiles().marker_look(&m.name) {
                    Some(l) => {
                        shown.insert((l.glyph, l.color));
                        *per_letter.entry(l.glyph).or_default() += 1;
                        out.push(&l.name, l.glyph, l.color);
                    }
                    None => undefined.push(&m.name),
                }
            }
            for name in undefined {
                let letter = marker_letter(name);
                let count = per_letter.entry(letter).or_default();
                let color = MARKER_PALETTE
                    .iter()
                    .copied()
                    .find(|&c| !shown.contains(&(letter, c)))
                    .unwrap_or(MARKER_PALETTE[*count % MARKER_PALETTE.len()]);
                *count += 1;
                shown.insert((letter, color));
                out.push(name, letter, color);
            }
        }
        out
    }

    fn push(&mut self, name: &str, glyph: char, color: Rgb) {
        self.index.insert(name.to_string(), self.looks.len());
        self.looks.push((name.to_string(), glyph, color));
    }

    /// The glyph and colour of markers named `name`.
    pub fn get(&self, name: &str) -> (char, Rgb) {
        match self.index.get(name) {
            Some(&i) => (self.looks[i].1, self.looks[i].2),
            None => (marker_letter(name), MARKER_COLOR),
        }
    }

    /// Every name with its glyph and colour: level by level, the defined
    /// ones, then the others, each in the order the level first marks them.
    pub fn iter(&self) -> impl Iterator<Item = (&str, char, Rgb)> {
        self.looks.iter().map(|(n, g, c)| (n.as_str(), *g, *c))
    }
}

/// The letter a marker without a look shows (see [`Map::marker_letter`]).
pub fn marker_letter(name: &str) -> char {
    Map::marker_letter(name)
}

/// Whether a marker only repeats what its cell's tile shows (stairs marked
/// on stairs), so the tile's own glyph is the better picture.
pub fn marker_is_tile(map: &Map, marker: &crate::map::Marker) -> bool {
    map.get(marker.x as i64, marker.y as i64)
        .is_ok_and(|t| map.tiles().kind(t).name == marker.name)
}

/// How the PNG export draws a tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// The tile's glyph in its colour on its background.
    #[default]
    Glyph,
    /// A solid cell in the tile's colour.
    Cells,
}

/// How rock is drawn: every wall as its tile (`all`), or rock nobody can
/// see from anywhere dark (`dark`, see [`crate::ops::buried_mask`]), so
/// rooms and corridors stand out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rock {
    #[default]
    All,
    Dark,
}

/// The colour of buried rock when it is drawn dark.
pub const BURIED: Rgb = Rgb(0x0c, 0x0c, 0x10);

/// The whole map, `cell` pixels per tile, with the start and markers shown
/// (markers in the looks of this map alone, [`MarkerLooks::of`]).
pub fn render_map(map: &Map, style: Style, cell: usize) -> Frame {
    let looks = MarkerLooks::of(map);
    render_rows(
        map,
        &looks,
        style,
        Rock::All,
        cell,
        0..map.height() as usize,
    )
}

/// A band of whole tile rows of the map (`rows`, top first), drawn exactly
/// as [`render_map`] draws them, markers in `looks` (the map's own, or its
/// dungeon's, [`MarkerLooks::of_levels`]): the image is these bands
/// stacked, so an export can encode a big map band by band instead of
/// holding it whole.
pub fn render_rows(
    map: &Map,
    marker_looks: &MarkerLooks,
    style: Style,
    rock: Rock,
    cell: usize,
    rows: Range<usize>,
) -> Frame {
    let w = map.width() as usize;
    let rows = rows.start.min(map.height() as usize)..rows.end.min(map.height() as usize);
    let mut frame = Frame::new(w * cell, rows.len() * cell, Rgb(0, 0, 0));
    // The top-left pixel of a cell in the band, if the cell is in it.
    let at = |x: usize, y: usize| {
        rows.contains(&y)
            .then(|| ((x * cell) as i64, ((y - rows.start) * cell) as i64))
    };
    // Each kind's cell is drawn once; a row of pixels is then copies of
    // one row of those cells.
    let looks: Vec<Vec<u32>> = map
        .tiles()
        .iter()
        .map(|(_, kind)| {
            let mut look = Frame::new(cell, cell, Rgb(0, 0, 0));
            match style {
                Style::Glyph => look.glyph(0, 0, cell, kind.glyph, kind.color, kind.background),
                Style::Cells => look.fill_rect(0, 0, cell, cell, kind.color),
            }
            look.pixels
        })
        .collect();
    let buried_look = vec![pack(BURIED); cell * cell];
    let cells = &map.cells()[rows.start * w..rows.end * w];
    if cell > 0 && w > 0 {
        let mut lines = frame.pixels.chunks_exact_mut(w * cell);
        for (dy, tiles) in cells.chunks_exact(w).enumerate() {
            let y = (rows.start + dy) as i32;
            // This row's buried cells, worked out once for its pixel rows.
            let buried: Vec<bool> = match rock {
                Rock::All => vec![false; w],
                Rock::Dark => (0..w as i32).map(|x| is_buried(map, x, y)).collect(),
            };
            for py in 0..cell {
                let Some(line) = lines.next() else { break };
                for (x, (out, &tile)) in line.chunks_exact_mut(cell).zip(tiles).enumerate() {
                    let look = if buried[x] {
                        &buried_look
                    } else {
                        &looks[tile.index()]
                    };
                    out.copy_from_slice(&look[py * cell..(py + 1) * cell]);
                }
            }
        }
    }
    for m in map.markers() {
        if marker_is_tile(map, m) {
            continue;
        }
        let Some((x, y)) = at(m.x as usize, m.y as usize) else {
            continue;
        };
        let (glyph, color) = marker_looks.get(&m.name);
        match style {
            Style::Glyph => frame.glyph(x, y, cell, glyph, color, Rgb(0, 0, 0)),
            Style::Cells => frame.fill_rect(
                x + cell as i64 / 4,
                y + cell as i64 / 4,
                cell.div_ceil(2),
                cell.div_ceil(2),
                color,
            ),
        }
    }
    if let Some((x, y)) = map
        .start()
        .and_then(|(sx, sy)| at(sx as usize, sy as usize))
    {
        match style {
            Style::Glyph => frame.glyph(x, y, cell, START_GLYPH, START_COLOR, Rgb(0, 0, 0)),
            Style::Cells => frame.fill_rect(x, y, cell, cell, START_COLOR),
        }
    }
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_letter_is_one_the_font_draws_and_not_the_start() {
        assert_eq!(marker_letter("chest"), 'C');
        assert_eq!(marker_letter("@home"), 'H');
        assert_eq!(marker_letter("\u{1b}]0;x\u{7}"), ']');
        assert_eq!(marker_letter("\tkey"), 'K');
        assert_eq!(marker_letter("€1"), '1');
        assert_eq!(marker_letter("日本"), '*');
        assert_eq!(marker_letter(""), '*');
    }

    #[test]
    fn dark_rock_draws_only_buried_walls_dark() {
        let map = Map::from_ascii("#####\n#####\n##.##\n#####\n#####\n").unwrap();
        let looks = MarkerLooks::of(&map);
        let all = render_rows(&map, &looks, Style::Cells, Rock::All, 1, 0..5);
        let dark = render_rows(&map, &looks, Style::Cells, Rock::Dark, 1, 0..5);
        let wall = map.tiles().kind(crate::map::Tile::WALL).color;
        assert_eq!(all.get(0, 0), wall);
        assert_eq!(dark.get(0, 0), BURIED, "a corner no floor touches");
        assert_eq!(dark.get(1, 1), wall, "a wall next to the floor stays");
        assert_eq!(dark.get(2, 2), all.get(2, 2), "floor is floor");
    }

    #[test]
    fn glyphs_come_from_the_font() {
        // '#' in font8x8 has its first row empty and lit pixels below.
        let hash = glyph_bits('#');
        assert_eq!(
            hash,
            font8x8::UnicodeFonts::get(&font8x8::BASIC_FONTS, '#').unwrap()
        );
        assert_ne!(hash, [0; 8]);
        // Code page 437's symbols come from the VGA font, never as the box.
        let club = glyph_bits('♣');
        assert_eq!(Some(club), crate::glyphs::bitmap('♣'));
        assert_ne!(club, glyph_bits('€'), "'€' has no bitmap: the box");
        assert_eq!(glyph_bits(' '), [0; 8]);
        assert_eq!(
            glyph_bits('\u{e000}')[0],
            0xff,
            "unknown characters draw a box"
        );
    }

    #[test]
    fn glyph_draws_foreground_and_background() {
        let mut f = Frame::new(8, 8, Rgb(9, 9, 9));
        f.glyph(0, 0, 8, '#', Rgb(255, 0, 0), Rgb(0, 0, 255));
        let bits = glyph_bits('#');
        for (y, row) in bits.iter().enumerate() {
            for x in 0..8 {
                let on = row >> x & 1 == 1;
                let want = if on { Rgb(255, 0, 0) } else { Rgb(0, 0, 255) };
                assert_eq!(f.get(x, y), want, "pixel {x},{y}");
            }
        }
    }

    #[test]
    fn glyphs_scale_and_clip() {
        let mut f = Frame::new(10, 10, Rgb(0, 0, 0));
        f.glyph(6, 6, 16, '@', Rgb(1, 2, 3), Rgb(4, 5, 6));
        assert_eq!(f.get(5, 5), Rgb(0, 0, 0));
        let bits = glyph_bits('@');
        let on = bits[0] & 1 == 1;
        assert_eq!(f.get(6, 6), if on { Rgb(1, 2, 3) } else { Rgb(4, 5, 6) });
    }

    #[test]
    fn maps_render_tiles_start_and_markers() {
        let mut map = Map::from_ascii("####\n#@.#\n####\n").unwrap();
        map.mark(2, 1, "gold").unwrap();
        let cells = render_map(&map, Style::Cells, 4);
        assert_eq!((cells.width, cells.height), (16, 12));
        assert_eq!(cells.get(1, 1), Rgb(0x88, 0x88, 0x88), "wall");
        assert_eq!(cells.get(5, 5), START_COLOR, "start");
        assert_eq!(cells.get(10, 6), MARKER_COLOR, "marker");
        assert_eq!(
            cells.get(8, 4),
            Rgb(0x55, 0x55, 0x55),
            "floor around the marker"
        );
        let glyphs = render_map(&map, Style::Glyph, 8);
        assert_eq!((glyphs.width, glyphs.height), (32, 24));
        let lit: usize = (0..8)
            .flat_map(|y| (8..16).map(move |x| (x, y + 8)))
            .filter(|&(x, y)| glyphs.get(x, y) == START_COLOR)
            .count();
        let bits: u32 = glyph_bits('@').iter().map(|b| b.count_ones()).sum();
        assert_eq!(lit as u32, bits, "the start cell shows the @ glyph");
    }

    #[test]
    fn bands_stack_into_the_whole_map() {
        let mut map = Map::from_ascii("#####\n#@..#\n#.~.#\n#...#\n#####\n").unwrap();
        map.mark(3, 3, "gold").unwrap();
        for style in [Style::Glyph, Style::Cells] {
            let whole = render_map(&map, style, 5);
            let mut stacked = Vec::new();
            for rows in [0..2, 2..3, 3..5] {
                let looks = MarkerLooks::of(&map);
                let band = render_rows(&map, &looks, style, Rock::All, 5, rows.clone());
                assert_eq!((band.width, band.height), (25, rows.len() * 5));
                stacked.extend(band.pixels);
            }
            assert_eq!(stacked, whole.pixels, "{style:?}");
        }
    }
}
