//! The picture of a seed whose completion proof failed: the level of the
//! first cell the sentence names, with the way the player was tried drawn
//! in cyan and the blocking cells (the lock, the move, the key, the goal)
//! boxed in red, for `check --html`.

use crate::generated::Generated;
use crate::map::Rgb;
use crate::proof::Verdict;
use crate::render::{Frame, MarkerLooks};
use crate::thumbnail::thumbnail_with;

/// At most this many pixels a side.
const SIDE: usize = 440;
const PATH: Rgb = Rgb(0x30, 0xe0, 0xff);
const BLOCK: Rgb = Rgb(0xff, 0x30, 0x30);

/// The failing level with the verdict's path and cells drawn on it, and
/// that level (the caption names it).
pub(crate) fn picture<'a>(
    levels: &'a [Generated],
    verdict: &Verdict,
) -> Option<(Frame, &'a Generated)> {
    let level = verdict.cells.first().map_or(1, |c| c.level);
    let shown = levels.get(level.checked_sub(1)? as usize)?;
    let map = &shown.map;
    // Markers as every level of the dungeon shows them.
    let looks = MarkerLooks::of_levels(levels.iter().map(|g| &g.map));
    let mut frame = thumbnail_with(map, &looks, SIDE, SIDE);
    let (w, h) = (map.width() as f64, map.height() as f64);
    let sx = frame.width as f64 / w;
    let sy = frame.height as f64 / h;
    let at = |x: i32, y: i32| ((x as f64 * sx) as i64, (y as f64 * sy) as i64);
    let size = (sx.ceil().max(1.0) as usize, sy.ceil().max(1.0) as usize);
    for c in verdict.path.iter().filter(|c| c.level == level) {
        let (px, py) = at(c.x, c.y);
        frame.blend_rect(px, py, size.0, size.1, PATH, 70);
    }
    for c in verdict.cells.iter().filter(|c| c.level == level) {
        let (px, py) = at(c.x, c.y);
        // A box well outside the cell, so a cell of a few pixels shows.
        let t = (size.0 / 3).max(2);
        let pad = 2 * t;
        frame.outline(
            px - pad as i64,
            py - pad as i64,
            size.0 + 2 * pad,
            size.1 + 2 * pad,
            t,
            BLOCK,
        );
    }
    Some((frame, shown))
}
