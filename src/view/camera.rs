//! Zoom and camera: which part of the map the window shows. Pure
//! arithmetic on cells and pixels.

use crate::render::GLYPH;

/// The most pixels the window may take; minifb cannot ask the screen, so
/// this is a size that fits common displays (and Xvfb's 1280x1024).
pub const MAX_WINDOW: (usize, usize) = (1280, 960);

pub const MAX_ZOOM: usize = 6;

/// The pixels a cell gets when the window opens: the largest of the
/// window's cell sizes (`sizes`, ascending) at which the whole map fits in
/// `max` pixels beside `reserved_h` pixels of status line, at least 8 (a
/// readable glyph; bigger maps scroll) and at most 8 x [`MAX_ZOOM`]. Not
/// only multiples of 8: an 81-column map gets 14 px cells (1134 px), not
/// 8 (648 px).
pub fn fit_cell(
    map_w: usize,
    map_h: usize,
    max: (usize, usize),
    reserved_h: usize,
    sizes: &[usize],
) -> usize {
    let per_cell = (max.0 / map_w.max(1)).min(max.1.saturating_sub(reserved_h) / map_h.max(1));
    sizes
        .iter()
        .rev()
        .copied()
        .find(|&c| c <= per_cell && c <= GLYPH * MAX_ZOOM)
        .unwrap_or(GLYPH)
        .max(GLYPH)
}

/// The window's pixel size for a map at `cell` pixels a cell: the map,
/// clamped to `max`.
pub fn window_size(
    map_w: usize,
    map_h: usize,
    cell: usize,
    max: (usize, usize),
    reserved_h: usize,
) -> (usize, usize) {
    let w = (map_w * cell).min(max.0).max(40 * GLYPH);
    let h = (map_h * cell + reserved_h).min(max.1);
    (w, h)
}

/// The top-left map cell shown on one axis. A map smaller than the view is
/// centred (a negative offset); a bigger one follows the player, keeping
/// the view on the map.
pub fn follow(player: i32, map_len: i32, view_len: i32) -> i32 {
    if map_len <= view_len {
        -(view_len - map_len) / 2
    } else {
        (player - view_len / 2).clamp(0, map_len - view_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: [usize; 15] = [1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 40, 48];

    #[test]
    fn cells_fit_the_map_on_screen() {
        // 80x50 at 16 px is 1280x800, leaving room for a 20 px status line.
        assert_eq!(fit_cell(80, 50, (1280, 960), 20, &SIZES), 16);
        assert_eq!(fit_cell(80, 50, (1280, 800), 20, &SIZES), 14);
        assert_eq!(fit_cell(20, 10, (1280, 960), 20, &SIZES), 48);
        assert_eq!(fit_cell(2000, 2000, (1280, 960), 20, &SIZES), 8, "scrolls");
        // A little over 80 columns uses the screen, not 8 px cells.
        let cell = fit_cell(81, 51, (1280, 960), 20, &SIZES);
        assert_eq!(cell, 14);
        let (w, h) = window_size(81, 51, cell, (1280, 960), 20);
        assert!(w > 648 && h > 428 && w <= 1280 && h <= 960, "{w}x{h}");
    }

    #[test]
    fn window_size_clamps_to_the_screen() {
        assert_eq!(window_size(80, 50, 16, (1280, 960), 20), (1280, 820));
        assert_eq!(window_size(2000, 2000, 8, (1280, 960), 20), (1280, 960));
        assert_eq!(
            window_size(10, 5, 8, (1280, 960), 20),
            (320, 60),
            "never too narrow for the status line"
        );
    }

    #[test]
    fn the_camera_centres_small_maps_and_follows_on_big_ones() {
        assert_eq!(follow(5, 80, 100), -10);
        assert_eq!(follow(10, 1000, 160), 0, "clamped at the left edge");
        assert_eq!(follow(500, 1000, 160), 420, "player in the middle");
        assert_eq!(follow(990, 1000, 160), 840, "clamped at the right edge");
    }
}
