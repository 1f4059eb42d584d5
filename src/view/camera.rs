//! Zoom and camera: which part of the map the window shows. Pure
//! arithmetic on cells and pixels.

use crate::render::GLYPH;

/// The most pixels the window may take; minifb cannot ask the screen, so
/// this is a size that fits common displays (and Xvfb's 1280x1024).
pub const MAX_WINDOW: (usize, usize) = (1280, 960);

pub const MAX_ZOOM: usize = 6;

/// The largest integer zoom (pixels per tile = 8 x zoom) at which the whole
/// map fits in `max` pixels beside `reserved_h` pixels of status line;
/// at least 1 (bigger maps scroll).
pub fn fit_zoom(map_w: usize, map_h: usize, max: (usize, usize), reserved_h: usize) -> usize {
    let zx = max.0 / (map_w * GLYPH).max(1);
    let zy = max.1.saturating_sub(reserved_h) / (map_h * GLYPH).max(1);
    zx.min(zy).clamp(1, MAX_ZOOM)
}

/// The window's pixel size for a map at a zoom: the map, clamped to `max`.
pub fn window_size(
    map_w: usize,
    map_h: usize,
    zoom: usize,
    max: (usize, usize),
    reserved_h: usize,
) -> (usize, usize) {
    let cell = GLYPH * zoom;
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

    #[test]
    fn zoom_fits_the_map_on_screen() {
        // 80x50 at zoom 2 is 1280x800, leaving room for a 20 px status line.
        assert_eq!(fit_zoom(80, 50, (1280, 960), 20), 2);
        assert_eq!(fit_zoom(80, 50, (1280, 800), 20), 1);
        assert_eq!(fit_zoom(20, 10, (1280, 960), 20), MAX_ZOOM);
        assert_eq!(fit_zoom(2000, 2000, (1280, 960), 20), 1);
    }

    #[test]
    fn window_size_clamps_to_the_screen() {
        assert_eq!(window_size(80, 50, 2, (1280, 960), 20), (1280, 820));
        assert_eq!(window_size(2000, 2000, 1, (1280, 960), 20), (1280, 960));
        assert_eq!(
            window_size(10, 5, 1, (1280, 960), 20),
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
