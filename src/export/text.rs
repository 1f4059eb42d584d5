//! The text export: one line of glyphs per row, markers shown as
//! `--ascii` shows them, `@` at the start (see [`Map::text_with_markers`]).

use std::io::{self, Write};

use crate::map::Map;

pub fn write(map: &Map, out: &mut impl Write) -> io::Result<()> {
    out.write_all(map.text_with_markers().as_bytes())
}
