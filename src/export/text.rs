//! The text export: one line of glyphs per row, `@` at the start.

use std::io::{self, Write};

use crate::map::Map;

pub fn write(map: &Map, out: &mut impl Write) -> io::Result<()> {
    write!(out, "{map}")
}
