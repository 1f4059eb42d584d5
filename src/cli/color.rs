//! Whether the text map printed on stdout gets colour (`--color`), by the
//! usual convention: `always` and `never` say so; `auto` colours only a
//! terminal, and not when `NO_COLOR` is set to anything non-empty
//! (no-color.org). Files never get colour, whatever the flag.

use std::io::IsTerminal;

use super::flags::ColorChoice;
use crate::generated::{levels_text, levels_text_by, Generated};

/// Whether stdout's text map is coloured.
pub fn wanted(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            !no_color && std::io::stdout().is_terminal()
        }
    }
}

/// The text of a run's levels for stdout: coloured markers (a name in one
/// colour on every level) or plain.
pub fn map_text(levels: &[Generated], color: bool) -> String {
    if color {
        let looks = crate::render::MarkerLooks::of_levels(levels.iter().map(|g| &g.map));
        levels_text_by(levels, |g| {
            crate::export::ansi::colored_text(&g.map, &looks)
        })
    } else {
        levels_text(levels)
    }
}
