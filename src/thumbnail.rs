//! Small pictures of maps for judging many at once: a map as coloured
//! cells (buried rock dark) shrunk into a box, and a contact sheet of them
//! with a label under each. The window's seed grid, `dunlua sheet` and
//! `check --html` draw with these.

use crate::map::{Map, Rgb};
use crate::ops::is_buried;
use crate::render::{
    marker_is_tile, pack, render_rows, Frame, MarkerLooks, Rock, Style, BURIED, GLYPH, START_COLOR,
};

/// The map in at most `max_w` x `max_h` pixels: whole pixels a cell when it
/// fits at 1 px or more, else each pixel the mean colour of the cells it
/// covers, with the start as a yellow dot. (Sampling one cell a pixel, as
/// this did, shows a 2000x2000 cave in 160 px as noise: it picks one cell
/// in 150, and cave walls are thinner than that. The mean shows where the
/// open ground is, for the same one pass over the cells.) Markers are in
/// the looks of this map alone; a level of a dungeon is [`thumbnail_with`]
/// its dungeon's looks.
pub fn thumbnail(map: &Map, max_w: usize, max_h: usize) -> Frame {
    thumbnail_with(map, &MarkerLooks::of(map), max_w, max_h)
}

/// [`thumbnail`] with markers in `looks` (a dungeon's,
/// [`MarkerLooks::of_levels`], so a name looks alike on every level).
pub fn thumbnail_with(map: &Map, looks: &MarkerLooks, max_w: usize, max_h: usize) -> Frame {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let cell = (max_w / w).min(max_h / h);
    if cell >= 1 {
        return render_rows(map, looks, Style::Cells, Rock::Dark, cell, 0..h);
    }
    // Shrink keeping the aspect: the larger side fills its box.
    let scale = (max_w as f64 / w as f64).min(max_h as f64 / h as f64);
    let (tw, th) = (
        ((w as f64 * scale) as usize).clamp(1, w),
        ((h as f64 * scale) as usize).clamp(1, h),
    );
    let mut frame = Frame::new(tw, th, Rgb(0, 0, 0));
    // Red, green, blue and cells summed for each pixel of the row being made.
    let mut sums = vec![[0u64; 4]; tw];
    let to_pixel = |v: usize, from: usize, to: usize| (v as u64 * to as u64 / from as u64) as usize;
    let mut row = 0;
    for y in 0..h {
        let ty = to_pixel(y, h, th);
        if ty != row {
            flush(&mut sums, &mut frame.pixels[row * tw..(row + 1) * tw]);
            row = ty;
        }
        for x in 0..w {
            let (cx, cy) = (x as i32, y as i32);
            let color = match map.get(cx as i64, cy as i64) {
                Ok(_) if is_buried(map, cx, cy) => BURIED,
                Ok(t) => map.tiles().kind(t).color,
                Err(_) => Rgb(0, 0, 0),
            };
            let sum = &mut sums[to_pixel(x, w, tw)];
            sum[0] += color.0 as u64;
            sum[1] += color.1 as u64;
            sum[2] += color.2 as u64;
            sum[3] += 1;
        }
    }
    flush(&mut sums, &mut frame.pixels[row * tw..(row + 1) * tw]);
    // Each marker a pixel in its colour (as the full-size cells show it).
    for m in map.markers() {
        if marker_is_tile(map, m) {
            continue;
        }
        let (x, y) = (m.x as usize * tw / w, m.y as usize * th / h);
        frame.pixels[y * tw + x] = pack(looks.get(&m.name).1);
    }
    if let Some((sx, sy)) = map.start() {
        let (x, y) = (sx as usize * tw / w, sy as usize * th / h);
        frame.fill_rect(x as i64 - 1, y as i64 - 1, 3, 3, START_COLOR);
    }
    frame
}

/// Writes the mean colour of each pixel's cells into `pixels` and clears
/// the sums for the next row.
fn flush(sums: &mut [[u64; 4]], pixels: &mut [u32]) {
    for (sum, pixel) in sums.iter_mut().zip(pixels) {
        let n = sum[3].max(1);
        let mean = |c: u64| ((c + n / 2) / n) as u8;
        *pixel = pack(Rgb(mean(sum[0]), mean(sum[1]), mean(sum[2])));
        *sum = [0; 4];
    }
}

/// One picture of a sheet: a thumbnail, or why there is none.
pub enum Tile {
    Map(Frame),
    Failed,
    /// Still being made (the window's grid fills in as workers finish).
    Pending,
}

/// Colours of the sheet.
const SHEET_BG: Rgb = Rgb(0x18, 0x18, 0x20);
const LABEL: Rgb = Rgb(0xdd, 0xdd, 0xdd);
const FAILED: Rgb = Rgb(0xff, 0x60, 0x60);
/// Pixels around and between pictures.
pub const GAP: usize = 8;

/// `label` in at most `fits` characters, cut at the end while its seed's
/// number shows whole (`seed 2 fai`); else a `seed N ...` label loses
/// `seed `, then the front of its number (`..9551610`), never the end
/// that tells seeds apart: cut at the end, twenty-digit seeds all read
/// "seed 184467440737095".
fn fit_label(label: &str, fits: usize) -> String {
    let count = |s: &str| s.chars().count();
    if count(label) <= fits {
        return label.to_string();
    }
    let cut = || label.chars().take(fits).collect::<String>();
    let Some(rest) = label.strip_prefix("seed ") else {
        return cut();
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if "seed ".len() + digits <= fits {
        // The whole number shows: only the words after it are cut.
        return cut();
    }
    if count(rest) <= fits {
        return rest.to_string();
    }
    let (number, tail) = rest.split_at(digits);
    let room = fits.saturating_sub(count(tail) + 2);
    if digits == 0 || room == 0 {
        return rest.chars().take(fits).collect();
    }
    format!("..{}{tail}", &number[number.len().saturating_sub(room)..])
}

/// The size of one picture's box with its label and gap, for `thumb`.
pub fn cell_size(thumb: (usize, usize)) -> (usize, usize) {
    (thumb.0 + GAP, thumb.1 + GLYPH + 2 * GAP)
}

/// Pictures in a grid of `columns`, each in a `thumb` x `thumb` box with
/// its label (one line of the 8x8 font, cut to the box) under it; a failed
/// one shows its label in red on an empty box.
pub fn sheet(tiles: &[(String, Tile)], columns: usize, thumb: (usize, usize)) -> Frame {
    let columns = columns.clamp(1, tiles.len().max(1));
    let rows = tiles.len().div_ceil(columns).max(1);
    let (bw, bh) = cell_size(thumb);
    let mut frame = Frame::new(columns * bw + GAP, rows * bh + GAP, SHEET_BG);
    for (i, (label, tile)) in tiles.iter().enumerate() {
        let (x0, y0) = (GAP + (i % columns) * bw, GAP + (i / columns) * bh);
        let color = match tile {
            Tile::Map(picture) => {
                // Centred in its box.
                let (ox, oy) = (
                    (thumb.0 - picture.width.min(thumb.0)) / 2,
                    (thumb.1 - picture.height.min(thumb.1)) / 2,
                );
                blit(&mut frame, picture, x0 + ox, y0 + oy);
                LABEL
            }
            Tile::Failed => {
                frame.fill_rect(
                    x0 as i64,
                    y0 as i64,
                    thumb.0,
                    thumb.1,
                    Rgb(0x30, 0x10, 0x10),
                );
                FAILED
            }
            Tile::Pending => {
                frame.fill_rect(
                    x0 as i64,
                    y0 as i64,
                    thumb.0,
                    thumb.1,
                    Rgb(0x24, 0x24, 0x2c),
                );
                LABEL
            }
        };
        let text = fit_label(label, thumb.0 / GLYPH);
        frame.text(
            x0 as i64,
            (y0 + thumb.1 + GAP / 2) as i64,
            GLYPH,
            &text,
            color,
            SHEET_BG,
        );
    }
    frame
}

/// Copies `picture` into `frame` at (x, y), clipped.
fn blit(frame: &mut Frame, picture: &Frame, x: usize, y: usize) {
    for py in 0..picture.height {
        let fy = y + py;
        if fy >= frame.height {
            break;
        }
        let n = picture.width.min(frame.width.saturating_sub(x));
        let src = &picture.pixels[py * picture.width..py * picture.width + n];
        frame.pixels[fy * frame.width + x..fy * frame.width + x + n].copy_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnails_fit_their_box_and_keep_the_shape() {
        let mut map = Map::new(200, 100).unwrap();
        map.fill_rect(
            &crate::geom::Rect::new(10, 10, 50, 20),
            crate::map::Tile::FLOOR,
        )
        .unwrap();
        map.set_start(20, 20).unwrap();
        let big = thumbnail(&map, 400, 400);
        assert_eq!((big.width, big.height), (400, 200), "2 px a cell");
        let small = thumbnail(&map, 100, 100);
        assert_eq!(
            (small.width, small.height),
            (100, 50),
            "sampled, same aspect"
        );
        assert_eq!(small.get(10, 10), START_COLOR, "the start shows");
        assert_eq!(small.get(99, 49), BURIED, "rock no floor touches is dark");
    }

    #[test]
    fn a_shrunk_map_is_the_mean_of_its_cells_not_one_sample() {
        // Floor and wall in alternate columns, shrunk 2:1: every pixel
        // covers one of each, so each is their mean (a sample would be
        // all floor or all wall).
        let mut map = Map::new(200, 100).unwrap();
        map.fill(crate::map::Tile::FLOOR);
        for x in (1..200).step_by(2) {
            for y in 0..100 {
                map.set(x, y, crate::map::Tile::WALL).unwrap();
            }
        }
        let floor = map.tiles().kind(crate::map::Tile::FLOOR).color;
        let wall = map.tiles().kind(crate::map::Tile::WALL).color;
        let mean = |a: u8, b: u8| (a as u32 + b as u32).div_ceil(2) as u8;
        let want = Rgb(
            mean(floor.0, wall.0),
            mean(floor.1, wall.1),
            mean(floor.2, wall.2),
        );
        assert_ne!(want, floor);
        let small = thumbnail(&map, 100, 100);
        assert_eq!((small.width, small.height), (100, 50));
        for (x, y) in [(0, 0), (37, 21), (99, 49)] {
            assert_eq!(small.get(x, y), want, "pixel ({x},{y})");
        }
    }

    #[test]
    fn thumbnails_show_markers_in_their_colours() {
        let mut map = Map::new(200, 100).unwrap();
        map.fill(crate::map::Tile::FLOOR);
        map.set_start(0, 0).unwrap();
        let gold = Rgb(0xff, 0xd7, 0x00);
        map.tiles_mut()
            .define_marker(crate::map::MarkerLook {
                name: "treasure".into(),
                glyph: '$',
                color: gold,
            })
            .unwrap();
        map.mark(100, 60, "treasure").unwrap();
        map.mark(150, 60, "goblin").unwrap();
        // Sampled (half a pixel a cell) and whole cells (2 px a cell).
        let small = thumbnail(&map, 100, 100);
        assert_eq!(small.get(50, 30), gold);
        assert_eq!(small.get(75, 30), crate::render::MARKER_COLOR);
        let big = thumbnail(&map, 400, 400);
        assert_eq!(big.get(200, 120), gold);
    }

    #[test]
    fn long_seed_labels_keep_the_digits_that_tell_seeds_apart() {
        assert_eq!(fit_label("seed 7", 20), "seed 7");
        assert_eq!(
            fit_label("seed 18446744073709551610", 20),
            "18446744073709551610"
        );
        assert_eq!(fit_label("seed 18446744073709551610", 12), "..3709551610");
        assert_eq!(
            fit_label("seed 18446744073709551610 failed", 16),
            "..9551610 failed"
        );
        assert_eq!(fit_label("seed 1844674407 ...", 12), "..674407 ...");
        assert_eq!(fit_label("a long label", 4), "a lo");
        assert_eq!(fit_label("seed 2 failed", 10), "seed 2 fai");
    }

    #[test]
    fn a_sheet_holds_every_picture_and_label() {
        let map = Map::from_ascii("####\n#@.#\n####\n").unwrap();
        let tiles = vec![
            ("seed 1".to_string(), Tile::Map(thumbnail(&map, 40, 40))),
            ("seed 2".to_string(), Tile::Failed),
            ("seed 3".to_string(), Tile::Map(thumbnail(&map, 40, 40))),
        ];
        let s = sheet(&tiles, 2, (64, 48));
        assert_eq!((s.width, s.height), (2 * 72 + 8, 2 * (48 + 8 + 16) + 8));
        // The failed one's box is tinted, and its label drawn in red.
        assert_eq!(s.get(72 + 8 + 1, 8 + 1), Rgb(0x30, 0x10, 0x10));
        let label_row = 8 + 48 + 4;
        let red = (0..64 * 8).any(|i| s.get(80 + i % 64, label_row + i / 64) == FAILED);
        assert!(red, "the failure's label is red");
    }
}
