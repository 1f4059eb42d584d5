//! Draws a [`ViewState`] into a framebuffer: the visible part of the map as
//! glyphs, the player, the status line and the help and error overlays.

use super::camera::follow;
use super::input::help_lines;
use super::state::{Sight, ViewState};
use crate::map::Rgb;
use crate::render::{dim, marker_is_tile, Frame, BURIED, GLYPH, START_COLOR};

pub const STATUS_BG: Rgb = Rgb(0x20, 0x20, 0x30);
pub const STATUS_FG: Rgb = Rgb(0xdd, 0xdd, 0xdd);
pub const ERROR_BG: Rgb = Rgb(0x90, 0x10, 0x10);
pub const ERROR_FG: Rgb = Rgb(0xff, 0xff, 0xff);
pub const PLAYER_GLYPH: char = '@';
/// What the cells a replay step changed are tinted with.
pub const CHANGED: Rgb = Rgb(0xff, 0xd0, 0x20);

/// Pixels per character of the status line and overlays.
pub fn ui_size(frame_width: usize) -> usize {
    if frame_width >= 960 {
        16
    } else {
        GLYPH
    }
}

/// Height of the status line.
pub fn status_height(frame_width: usize) -> usize {
    ui_size(frame_width) + 4
}

/// The top-left map cell shown, and the view's size in whole cells.
pub fn camera(state: &ViewState, frame: &Frame) -> ((i32, i32), (i32, i32)) {
    let cell = state.cell.max(1) as i32;
    let area_h = frame.height.saturating_sub(status_height(frame.width)) as i32;
    let view = (frame.width as i32 / cell, area_h / cell);
    let map = state.map();
    let cam = (
        follow(state.player.0, map.width(), view.0),
        follow(state.player.1, map.height(), view.1),
    );
    (cam, view)
}

/// The map cell under a pixel of the frame, if the pixel is over the map.
pub fn cell_at(state: &ViewState, frame: &Frame, px: usize, py: usize) -> Option<(i32, i32)> {
    if py >= frame.height.saturating_sub(status_height(frame.width)) || px >= frame.width {
        return None;
    }
    let ((cx, cy), _) = camera(state, frame);
    let cell = state.cell.max(1) as i32;
    let (x, y) = (cx + px as i32 / cell, cy + py as i32 / cell);
    state.map().in_bounds(x as i64, y as i64).then_some((x, y))
}

pub fn draw(state: &ViewState, frame: &mut Frame) {
    frame.pixels.fill(0);
    if let Some(grid) = &state.grid {
        grid.draw(frame);
        draw_status(state, frame);
        if state.help {
            draw_box(frame, help_lines(), HELP_HANG, (STATUS_BG, STATUS_FG), true);
        }
        return;
    }
    let cell = state.cell.max(1);
    let ((cx, cy), (vw, vh)) = camera(state, frame);
    let map = state.map();
    // Marker letters by cell, once per frame (not a scan per cell); while
    // replaying, only the markers placed so far.
    let (placed, start) = state.placed();
    let looks = state.marker_looks();
    let markers: std::collections::HashMap<(i32, i32), (char, crate::map::Rgb)> = map.markers()
        [..placed]
        .iter()
        .filter(|m| !marker_is_tile(map, m))
        .map(|m| ((m.x, m.y), looks.get(&m.name)))
        .collect();
    let at = |v: i32| (v as usize * cell) as i64;
    // One cell more than fits, so partial cells at the edges are drawn too.
    for vy in 0..=vh {
        for vx in 0..=vw {
            let (mx, my) = (cx + vx, cy + vy);
            if !map.in_bounds(mx as i64, my as i64) {
                continue;
            }
            let sight = state.sight(mx, my);
            if sight == Sight::Unknown {
                continue;
            }
            if state.is_dark(mx, my) {
                frame.fill_rect(at(vx), at(vy), cell, cell, BURIED);
                continue;
            }
            let kind = map.tiles().kind(state.shown(mx, my));
            let (mut glyph, mut fg, mut bg) = (kind.glyph, kind.color, kind.background);
            let marked = markers.get(&(mx, my)).copied();
            if let Some(look) = marked {
                (glyph, fg) = look;
            }
            if sight == Sight::Remembered {
                (fg, bg) = (dim(fg, 40), dim(bg, 40));
            }
            if cell >= GLYPH {
                frame.glyph(at(vx), at(vy), cell, glyph, fg, bg);
            } else {
                // Too small for glyphs: a block of the tile's colour.
                frame.fill_rect(at(vx), at(vy), cell, cell, fg);
            }
        }
    }
    // The cells the last replay step changed, lit up.
    let w = map.width();
    for i in state.changed_cells() {
        let (x, y) = (i as i32 % w - cx, i as i32 / w - cy);
        if (0..=vw).contains(&x) && (0..=vh).contains(&y) {
            frame.blend_rect(at(x), at(y), cell, cell, CHANGED, 45);
        }
    }
    super::overlay::draw(state, frame, (cx, cy));
    // The player, on top, once the replay has placed the start.
    if start.is_some() {
        let (px, py) = (state.player.0 - cx, state.player.1 - cy);
        let player_bg = map
            .tiles()
            .kind(state.shown(state.player.0, state.player.1))
            .background;
        if cell >= GLYPH {
            frame.glyph(at(px), at(py), cell, PLAYER_GLYPH, START_COLOR, player_bg);
        } else {
            // At least 3 px, so the player is seen on a 1-px map.
            let size = cell.max(3);
            let off = (size - cell) as i64 / 2;
            frame.fill_rect(at(px) - off, at(py) - off, size, size, START_COLOR);
        }
    }

    draw_status(state, frame);
    if state.help {
        draw_box(frame, help_lines(), HELP_HANG, (STATUS_BG, STATUS_FG), true);
    }
    if let Some(error) = &state.error {
        let mut lines = vec!["script error - the last good map is shown:".to_string()];
        lines.extend(error.lines().map(|l| l.replace('\t', "  ")));
        draw_box(frame, lines, 2, (ERROR_BG, ERROR_FG), false);
    }
}

fn draw_status(state: &ViewState, frame: &mut Frame) {
    let (ui, lines) = status_lines(&state.status(), frame.width);
    // The bar keeps its height; lines beyond the first grow it upward over
    // the map's bottom rows, so nothing moves and nothing is cut.
    let line_h = ui + 2;
    let h = status_height(frame.width).max(lines.len() * line_h + 2);
    let top = frame.height.saturating_sub(h) as i64;
    frame.fill_rect(0, top, frame.width, h, STATUS_BG);
    for (i, line) in lines.iter().enumerate() {
        let y = top + 2 + (i * line_h) as i64;
        frame.text(0, y, ui, line, STATUS_FG, STATUS_BG);
    }
}

/// The status text laid out for a `width`-pixel window, whole: the UI font
/// if it fits on one line, else the 8 px font, wrapped (at ` | ` where it
/// can) onto as many lines as it takes. Returns the font size and lines.
pub fn status_lines(text: &str, width: usize) -> (usize, Vec<String>) {
    let ui = ui_size(width);
    let len = text.chars().count();
    if len * ui <= width {
        return (ui, vec![text.to_string()]);
    }
    let max = (width / GLYPH).max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, part) in text.split(" | ").enumerate() {
        let sep = if i == 0 || line.is_empty() { "" } else { " | " };
        if line.chars().count() + sep.len() + part.chars().count() <= max {
            line.push_str(sep);
            line.push_str(part);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            if i > 0 {
                line.push_str("| ");
            }
        } else if i > 0 {
            line.push_str(sep);
        }
        // A part longer than a line is split wherever it must be.
        for c in part.chars() {
            if line.chars().count() == max {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    (GLYPH, lines)
}

/// Where the key list's descriptions start (`help_lines`' key column and
/// a space): a wrapped description goes on there.
const HELP_HANG: usize = 25;

/// A box of text lines, wrapped to the frame, at the top or centred: in
/// the UI font when every line fits the frame's width and height in it,
/// else in the 8 px font. A line too long is broken between words, its
/// continuations indented by `hang` (the key list's: past its key column,
/// so a continuation never reads as a key); lines past the frame's height
/// end in `...`.
fn draw_box(
    frame: &mut Frame,
    lines: Vec<String>,
    hang: usize,
    (bg, fg): (Rgb, Rgb),
    centred: bool,
) {
    let room_for = |ui: usize| frame.height.saturating_sub(status_height(frame.width)) / ui;
    let layout = |ui: usize| {
        let max_chars = (frame.width / ui).saturating_sub(2).max(1);
        let wrapped: Vec<String> = lines
            .iter()
            .flat_map(|l| wrap(l, max_chars, hang))
            .collect();
        wrapped
    };
    let mut ui = ui_size(frame.width);
    let mut wrapped = layout(ui);
    if ui != GLYPH && (wrapped.len() > lines.len() || wrapped.len() + 1 > room_for(ui)) {
        ui = GLYPH;
        wrapped = layout(ui);
    }
    let room = room_for(ui).saturating_sub(1).max(1);
    if wrapped.len() > room {
        wrapped.truncate(room);
        if let Some(last) = wrapped.last_mut() {
            *last = "...".to_string();
        }
    }
    let widest = wrapped.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let (w, h) = ((widest + 2) * ui, (wrapped.len() + 1) * ui);
    let x = if centred {
        frame.width.saturating_sub(w) / 2
    } else {
        0
    };
    let y = if centred {
        frame.height.saturating_sub(h) / 2
    } else {
        0
    };
    frame.fill_rect(x as i64, y as i64, w, h, bg);
    for (i, line) in wrapped.iter().enumerate() {
        frame.text(
            (x + ui) as i64,
            (y + ui / 2 + i * ui) as i64,
            ui,
            line,
            fg,
            bg,
        );
    }
}

/// `line` broken into lines of at most `max` characters, between words
/// where it can; each continuation indented by `hang` when that leaves 20
/// characters, else by 2.
fn wrap(line: &str, max: usize, hang: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= max {
        return vec![line.to_string()];
    }
    let column = if hang + 20 <= max {
        hang
    } else {
        2.min(max.saturating_sub(1))
    };
    let mut out = Vec::new();
    let mut rest: &[char] = &chars;
    let mut indent = 0;
    while !rest.is_empty() {
        let width = max - indent;
        let take = if rest.len() <= width {
            rest.len()
        } else {
            match rest[..=width].iter().rposition(|&c| c == ' ') {
                Some(space) if space > 0 => space,
                _ => width,
            }
        };
        let text: String = rest[..take].iter().collect();
        out.push(format!("{}{}", " ".repeat(indent), text.trim_end()));
        rest = &rest[take..];
        while rest.first() == Some(&' ') {
            rest = &rest[1..];
        }
        indent = column;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_between_words_under_their_text() {
        let line = format!(
            "{:<24} {}",
            "mouse", "hover: what a cell is; click: walk there"
        );
        assert_eq!(
            wrap(&line, 50, HELP_HANG),
            [
                "mouse                    hover: what a cell is;",
                "                         click: walk there"
            ]
        );
        assert_eq!(wrap("short", 50, 2), ["short"]);
        assert_eq!(wrap("abcdefghij", 4, 2), ["abcd", "  ef", "  gh", "  ij"]);
        let keys = format!(
            "{:<24} {}",
            "[ ]  Home End", "replay step back / forward, first / last"
        );
        assert_eq!(
            wrap(&keys, 60, HELP_HANG)[1],
            format!("{}last", " ".repeat(25))
        );
        for l in wrap(&line, 30, HELP_HANG) {
            assert!(l.chars().count() <= 30, "{l:?}");
        }
    }
    use crate::generated::{Generated, Provenance};
    use crate::map::Map;
    use crate::params::Params;
    use crate::render::glyph_bits;
    use std::time::Duration;

    fn state(text: &str, zoom: usize) -> ViewState {
        state_of(Map::from_ascii(text).unwrap(), zoom)
    }

    fn state_of(map: Map, zoom: usize) -> ViewState {
        let cell = GLYPH * zoom;
        let g = Generated {
            map,
            provenance: Provenance {
                script: "x.lua".into(),
                name: "X".into(),
                seed: 1,
                attempt: 0,
                params: Params::default(),
                level: 1,
                levels: 1,
            },
            modules: vec![],
            replay: None,
            rejections: vec![],
            work: 0,
            native_work: 0,
            puzzle: None,
        };
        ViewState::new(vec![g], Duration::ZERO, cell)
    }

    /// Checks the cell at pixel (x, y) holds `c` in `fg` on `bg`.
    fn assert_glyph(frame: &Frame, x: usize, y: usize, c: char, fg: Rgb, bg: Rgb) {
        let bits = glyph_bits(c);
        for (py, row) in bits.iter().enumerate() {
            for px in 0..GLYPH {
                let want = if row >> px & 1 == 1 { fg } else { bg };
                assert_eq!(frame.get(x + px, y + py), want, "{c:?} pixel {px},{py}");
            }
        }
    }

    #[test]
    fn draws_walls_floors_and_the_player() {
        // 40 cells wide so the 8-px status line fits: a 320x(3*8+12) frame.
        let row = "#".repeat(40);
        let text = format!("{row}\n#@.{}\n{row}\n", "#".repeat(37));
        let s = state(&text, 1);
        let mut frame = Frame::new(320, 3 * 8 + status_height(320), Rgb(1, 1, 1));
        draw(&s, &mut frame);
        let wall = s.map().tiles().kind(crate::map::Tile::WALL).clone();
        let floor = s.map().tiles().kind(crate::map::Tile::FLOOR).clone();
        assert_glyph(&frame, 0, 0, '#', wall.color, wall.background);
        assert_glyph(&frame, 16, 8, '.', floor.color, floor.background);
        assert_glyph(&frame, 8, 8, '@', START_COLOR, floor.background);
        let status_top = frame.height - status_height(320);
        assert_eq!(frame.get(319, status_top), STATUS_BG);
    }

    #[test]
    fn markers_show_their_looks() {
        let row = "#".repeat(40);
        let text = format!("{row}\n#@....{}\n{row}\n", "#".repeat(34));
        let mut map = Map::from_ascii(&text).unwrap();
        map.tiles_mut()
            .define_marker(crate::map::MarkerLook {
                name: "treasure".into(),
                glyph: '$',
                color: Rgb(0xff, 0xd7, 0x00),
            })
            .unwrap();
        map.mark(2, 1, "treasure").unwrap();
        map.mark(3, 1, "goblin").unwrap();
        map.mark(4, 1, "gold").unwrap();
        let s = state_of(map, 1);
        let mut frame = Frame::new(320, 3 * 8 + status_height(320), Rgb(1, 1, 1));
        draw(&s, &mut frame);
        let floor = s.map().tiles().kind(crate::map::Tile::FLOOR).clone();
        assert_glyph(&frame, 16, 8, '$', Rgb(0xff, 0xd7, 0x00), floor.background);
        let looks = s.marker_looks();
        let (goblin, gold) = (looks.get("goblin"), looks.get("gold"));
        assert_eq!(
            (goblin.0, gold.0),
            ('G', 'G'),
            "undefined: the first letter"
        );
        assert_ne!(
            goblin.1, gold.1,
            "two names sharing a letter differ in colour"
        );
        assert_glyph(&frame, 24, 8, 'G', goblin.1, floor.background);
        assert_glyph(&frame, 32, 8, 'G', gold.1, floor.background);
    }

    #[test]
    fn the_status_line_is_never_cut() {
        let long = "(3,4) floor | seed 1234567890 | step 12/27 carve_room | level 2/3 | fov | param max_rooms=30 (, .) | overlay markers | 14px | saved caves-7.png | ? keys";
        for width in [320, 648, 1134, 1280] {
            let (ui, lines) = status_lines(long, width);
            assert!(
                lines.iter().all(|l| l.chars().count() * ui <= width),
                "{width}: {lines:?}"
            );
            let joined: String = lines.concat();
            let plain: String = long.chars().filter(|c| !c.is_whitespace()).collect();
            let got: String = joined.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(got, plain, "every character shows at {width} px");
        }
        assert_eq!(
            status_lines("seed 1 | ? keys", 1280),
            (16, vec!["seed 1 | ? keys".to_string()])
        );
    }

    #[test]
    fn zoom_scales_cells() {
        let s = state("####\n#@.#\n####\n", 2);
        let mut frame = Frame::new(320, 6 * 16 + status_height(320), Rgb(0, 0, 0));
        draw(&s, &mut frame);
        // The map is centred: 4 cells of 16 px in a 20-cell-wide view.
        let ((cx, _), (vw, _)) = camera(&s, &frame);
        assert_eq!((cx, vw), (-8, 20));
        let lit = |x0: usize, y0: usize| {
            (0..16)
                .flat_map(|y| (0..16).map(move |x| (x, y)))
                .filter(|&(x, y)| frame.get(x0 + x, y0 + y) == START_COLOR)
                .count()
        };
        let ((_, cy), _) = camera(&s, &frame);
        let y0 = ((1 - cy) * 16) as usize;
        let x0 = ((1 - cx) * 16) as usize;
        let bits: u32 = glyph_bits('@').iter().map(|b| b.count_ones()).sum();
        assert_eq!(lit(x0, y0) as u32, bits * 4, "each font pixel is 2x2");
    }

    #[test]
    fn errors_show_in_an_overlay() {
        let mut s = state("####\n#@.#\n####\n", 1);
        s.error = Some("x.lua:3: boom".into());
        let mut frame = Frame::new(320, 200, Rgb(0, 0, 0));
        draw(&s, &mut frame);
        assert_eq!(frame.get(0, 0), ERROR_BG);
    }
}
