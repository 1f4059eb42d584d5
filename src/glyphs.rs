//! The glyphs dunlua can draw: an 8x8 bitmap for every character a tile
//! kind may use. font8x8's public-domain tables come first (ASCII, Latin-1,
//! box drawing, blocks, Greek, and a few more), then the IBM VGA 8x8 font
//! for the rest of code page 437, the roguelike standard (`☺ ♥ ♣ ♠ ☼ ▲ ≈
//! ∞ ⌂ ░ ▒ ▓ ...`). `tiles.define` refuses a glyph with no bitmap here, so
//! the window, PNGs and tilesets never draw a hollow box for a tile.
//!
//! `cp437_8x8.bin` is the IBM code page 437 8x8 font as shipped by the
//! MIT-licensed `codepage437` crate (256 characters x 8 rows, bit 7 the
//! leftmost pixel).

use std::collections::HashMap;
use std::sync::OnceLock;

use font8x8::UnicodeFonts;

/// Code page 437's 8x8 bitmaps, 8 bytes a character, in code order.
static CP437_FONT: &[u8; 2048] = include_bytes!("glyphs/cp437_8x8.bin");

/// The Unicode character of each code page 437 code (0x00 and 0xFF are
/// blanks, 0x01-0x1F and 0x7F the graphic characters DOS drew there).
#[rustfmt::skip]
pub const CP437: [char; 256] = [
    '\u{0000}', '\u{263a}', '\u{263b}', '\u{2665}', '\u{2666}', '\u{2663}', '\u{2660}', '\u{2022}',
    '\u{25d8}', '\u{25cb}', '\u{25d9}', '\u{2642}', '\u{2640}', '\u{266a}', '\u{266b}', '\u{263c}',
    '\u{25ba}', '\u{25c4}', '\u{2195}', '\u{203c}', '\u{00b6}', '\u{00a7}', '\u{25ac}', '\u{21a8}',
    '\u{2191}', '\u{2193}', '\u{2192}', '\u{2190}', '\u{221f}', '\u{2194}', '\u{25b2}', '\u{25bc}',
    '\u{0020}', '\u{0021}', '\u{0022}', '\u{0023}', '\u{0024}', '\u{0025}', '\u{0026}', '\u{0027}',
    '\u{0028}', '\u{0029}', '\u{002a}', '\u{002b}', '\u{002c}', '\u{002d}', '\u{002e}', '\u{002f}',
    '\u{0030}', '\u{0031}', '\u{0032}', '\u{0033}', '\u{0034}', '\u{0035}', '\u{0036}', '\u{0037}',
    '\u{0038}', '\u{0039}', '\u{003a}', '\u{003b}', '\u{003c}', '\u{003d}', '\u{003e}', '\u{003f}',
    '\u{0040}', '\u{0041}', '\u{0042}', '\u{0043}', '\u{0044}', '\u{0045}', '\u{0046}', '\u{0047}',
    '\u{0048}', '\u{0049}', '\u{004a}', '\u{004b}', '\u{004c}', '\u{004d}', '\u{004e}', '\u{004f}',
    '\u{0050}', '\u{0051}', '\u{0052}', '\u{0053}', '\u{0054}', '\u{0055}', '\u{0056}', '\u{0057}',
    '\u{0058}', '\u{0059}', '\u{005a}', '\u{005b}', '\u{005c}', '\u{005d}', '\u{005e}', '\u{005f}',
    '\u{0060}', '\u{0061}', '\u{0062}', '\u{0063}', '\u{0064}', '\u{0065}', '\u{0066}', '\u{0067}',
    '\u{0068}', '\u{0069}', '\u{006a}', '\u{006b}', '\u{006c}', '\u{006d}', '\u{006e}', '\u{006f}',
    '\u{0070}', '\u{0071}', '\u{0072}', '\u{0073}', '\u{0074}', '\u{0075}', '\u{0076}', '\u{0077}',
    '\u{0078}', '\u{0079}', '\u{007a}', '\u{007b}', '\u{007c}', '\u{007d}', '\u{007e}', '\u{2302}',
    '\u{00c7}', '\u{00fc}', '\u{00e9}', '\u{00e2}', '\u{00e4}', '\u{00e0}', '\u{00e5}', '\u{00e7}',
    '\u{00ea}', '\u{00eb}', '\u{00e8}', '\u{00ef}', '\u{00ee}', '\u{00ec}', '\u{00c4}', '\u{00c5}',
    '\u{00c9}', '\u{00e6}', '\u{00c6}', '\u{00f4}', '\u{00f6}', '\u{00f2}', '\u{00fb}', '\u{00f9}',
    '\u{00ff}', '\u{00d6}', '\u{00dc}', '\u{00a2}', '\u{00a3}', '\u{00a5}', '\u{20a7}', '\u{0192}',
    '\u{00e1}', '\u{00ed}', '\u{00f3}', '\u{00fa}', '\u{00f1}', '\u{00d1}', '\u{00aa}', '\u{00ba}',
    '\u{00bf}', '\u{2310}', '\u{00ac}', '\u{00bd}', '\u{00bc}', '\u{00a1}', '\u{00ab}', '\u{00bb}',
    '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}', '\u{2561}', '\u{2562}', '\u{2556}',
    '\u{2555}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255d}', '\u{255c}', '\u{255b}', '\u{2510}',
    '\u{2514}', '\u{2534}', '\u{252c}', '\u{251c}', '\u{2500}', '\u{253c}', '\u{255e}', '\u{255f}',
    '\u{255a}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}', '\u{2550}', '\u{256c}', '\u{2567}',
    '\u{2568}', '\u{2564}', '\u{2565}', '\u{2559}', '\u{2558}', '\u{2552}', '\u{2553}', '\u{256b}',
    '\u{256a}', '\u{2518}', '\u{250c}', '\u{2588}', '\u{2584}', '\u{258c}', '\u{2590}', '\u{2580}',
    '\u{03b1}', '\u{00df}', '\u{0393}', '\u{03c0}', '\u{03a3}', '\u{03c3}', '\u{00b5}', '\u{03c4}',
    '\u{03a6}', '\u{0398}', '\u{03a9}', '\u{03b4}', '\u{221e}', '\u{03c6}', '\u{03b5}', '\u{2229}',
    '\u{2261}', '\u{00b1}', '\u{2265}', '\u{2264}', '\u{2320}', '\u{2321}', '\u{00f7}', '\u{2248}',
    '\u{00b0}', '\u{2219}', '\u{00b7}', '\u{221a}', '\u{207f}', '\u{00b2}', '\u{25a0}', '\u{00a0}',
];

/// The code page 437 code of each of its characters.
fn cp437_codes() -> &'static HashMap<char, u8> {
    static CODES: OnceLock<HashMap<char, u8>> = OnceLock::new();
    CODES.get_or_init(|| {
        CP437
            .iter()
            .enumerate()
            .map(|(code, &c)| (c, code as u8))
            .collect()
    })
}

/// The 8x8 bitmap of `c` (bit 0 of each row byte is the leftmost pixel),
/// or `None` when no font here has it. Whitespace is blank.
pub fn bitmap(c: char) -> Option<[u8; 8]> {
    if c.is_whitespace() {
        return Some([0; 8]);
    }
    let from_font8x8 = font8x8::BASIC_FONTS
        .get(c)
        .or_else(|| font8x8::LATIN_FONTS.get(c))
        .or_else(|| font8x8::BLOCK_FONTS.get(c))
        .or_else(|| font8x8::BOX_FONTS.get(c))
        .or_else(|| font8x8::GREEK_FONTS.get(c))
        .or_else(|| font8x8::MISC_FONTS.get(c));
    // font8x8 has entries for some characters it leaves blank.
    if let Some(bits) = from_font8x8.filter(|b| b.iter().any(|&r| r != 0)) {
        return Some(bits);
    }
    let code = *cp437_codes().get(&c)? as usize;
    let rows = &CP437_FONT[code * 8..code * 8 + 8];
    let mut bits = [0u8; 8];
    for (out, row) in bits.iter_mut().zip(rows) {
        // The VGA font has the leftmost pixel in bit 7.
        *out = row.reverse_bits();
    }
    bits.iter().any(|&r| r != 0).then_some(bits)
}

/// Whether a tile kind may use `c`: a printable character with a bitmap.
pub fn drawable(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && bitmap(c).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A glyph as text, `#` for a lit pixel.
    fn picture(c: char) -> Vec<String> {
        bitmap(c)
            .unwrap()
            .iter()
            .map(|row| {
                (0..8)
                    .map(|b| if row & (1 << b) != 0 { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_printable_cp437_character_is_drawable() {
        for (code, &c) in CP437.iter().enumerate() {
            if code == 0 || c == ' ' || c == '\u{a0}' {
                continue;
            }
            assert!(drawable(c), "CP437 0x{code:02x} {c:?} has no bitmap");
        }
        for c in ['♣', '≈', '♠', '☼', '▲', '♥', '☺', '⌂', '∞', '░', '▓', '·']
        {
            assert!(drawable(c), "{c}");
        }
    }

    #[test]
    fn the_vga_font_is_read_left_to_right() {
        assert_eq!(
            picture('▲'),
            [
                "........", "...##...", "..####..", ".######.", "########", "########", "........",
                "........"
            ]
            .map(String::from)
            .to_vec()
        );
        // font8x8 keeps drawing what it drew before (ASCII unchanged).
        assert_eq!(bitmap('#'), font8x8::BASIC_FONTS.get('#'));
    }

    #[test]
    fn characters_no_font_has_are_not_drawable() {
        for c in ['€', '😀', '\u{e000}', '中', ' ', '\n'] {
            assert!(!drawable(c), "{c:?}");
        }
    }
}
