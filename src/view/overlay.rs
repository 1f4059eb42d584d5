//! The overlays `M` cycles through, drawn over the map at any zoom: room
//! outlines with their indices, regions in distinct colours, the distance
//! from the start as heat (the farthest cell boxed), markers' names.

use super::state::{Overlay, ViewState};
use crate::map::Rgb;
use crate::render::{Frame, GLYPH};

const ROOM: Rgb = Rgb(0x40, 0xe0, 0xff);
const LABEL_BG: Rgb = Rgb(0, 0, 0);
const FARTHEST: Rgb = Rgb(0xff, 0xff, 0xff);

/// Distinct colours for regions 1, 2, 3, ... (then round again).
const PALETTE: [Rgb; 8] = [
    Rgb(0x30, 0xc0, 0x50),
    Rgb(0xe0, 0x40, 0x40),
    Rgb(0x40, 0x70, 0xf0),
    Rgb(0xf0, 0xc0, 0x20),
    Rgb(0xc0, 0x50, 0xe0),
    Rgb(0x20, 0xd0, 0xd0),
    Rgb(0xf0, 0x80, 0x30),
    Rgb(0x90, 0xf0, 0x90),
];

/// Blue (near the start) through green and yellow to red (farthest).
pub fn heat(t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    let ramp = |a: f64| (a.clamp(0.0, 1.0) * 255.0) as u8;
    Rgb(
        ramp(2.0 * t - 0.5),
        ramp(1.5 - (2.0 * t - 1.0).abs() * 1.5),
        ramp(1.0 - 2.0 * t),
    )
}

/// The most marker labels drawn at once.
pub const MAX_LABELS: usize = 600;

/// A rectangle on screen: x, y, width, height.
type Box = (i64, i64, i64, i64);

fn overlaps(a: &Box, b: &Box) -> bool {
    a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
}

/// Where each marker's label goes (`sizes[i]` beside `cells[i]`): right
/// of its cell, else left, above or below, the first spot inside `area`
/// (width, height) that overlaps no label placed before it and no marker's
/// cell; `None` (not drawn) when no spot is free, so labels never run into
/// each other or hide a marker. Only the first [`MAX_LABELS`] get one (the
/// search is quadratic; that many labels fill any window anyway).
pub fn place_labels(
    cells: &[Box],
    sizes: &[(i64, i64)],
    area: (i64, i64),
) -> Vec<Option<(i64, i64)>> {
    let mut placed: Vec<Box> = Vec::new();
    cells
        .iter()
        .zip(sizes)
        .enumerate()
        .map(|(i, (c, &(w, h)))| {
            if i >= MAX_LABELS {
                return None;
            }
            let spots = [
                (c.0 + c.2 + 1, c.1),
                (c.0 - w - 1, c.1),
                (c.0, c.1 - h - 1),
                (c.0, c.1 + c.3 + 1),
            ];
            let free = spots.into_iter().map(|(x, y)| (x, y, w, h)).find(|b| {
                b.0 >= 0
                    && b.1 >= 0
                    && b.0 + b.2 <= area.0
                    && b.1 + b.3 <= area.1
                    && !placed.iter().any(|p| overlaps(p, b))
                    && !cells.iter().any(|m| overlaps(m, b))
            })?;
            placed.push(free);
            Some((free.0, free.1))
        })
        .collect()
}

/// Draws the state's overlay; `cam` is the top-left map cell shown.
pub fn draw(state: &ViewState, frame: &mut Frame, cam: (i32, i32)) {
    let cell = state.cell.max(1) as i64;
    let map = state.map();
    let px = |x: i32| (x - cam.0) as i64 * cell;
    let py = |y: i32| (y - cam.1) as i64 * cell;
    let map_h = frame
        .height
        .saturating_sub(super::draw::status_height(frame.width)) as i64;
    let frame_w = frame.width as i64;
    let visible =
        |x: i32, y: i32| px(x) + cell > 0 && px(x) < frame_w && py(y) + cell > 0 && py(y) < map_h;
    let label_size = if cell >= 16 { 16 } else { GLYPH };
    match state.overlay {
        Overlay::None => {}
        Overlay::Rooms => {
            for (i, r) in map.rooms().iter().enumerate() {
                let (w, h) = (
                    (r.x2 - r.x1 + 1) as i64 * cell,
                    (r.y2 - r.y1 + 1) as i64 * cell,
                );
                let thick = if cell >= 8 { 2 } else { 1 };
                frame.outline(px(r.x1), py(r.y1), w as usize, h as usize, thick, ROOM);
                let label = (i + 1).to_string();
                frame.text(
                    px(r.x1) + thick as i64,
                    py(r.y1) + thick as i64,
                    label_size,
                    &label,
                    ROOM,
                    LABEL_BG,
                );
            }
        }
        Overlay::Regions | Overlay::Distance => {
            let look = state.inspection();
            let max = look.farthest.map_or(1, |(_, _, d)| d.max(1)) as f64;
            let ((x0, y0), (vw, vh)) = super::draw::camera(state, frame);
            for y in y0.max(0)..(y0 + vh + 1).min(map.height()) {
                for x in x0.max(0)..(x0 + vw + 1).min(map.width()) {
                    let color = match state.overlay {
                        Overlay::Regions => match look.region_at(x, y) {
                            0 => continue,
                            r => PALETTE[(r as usize - 1) % PALETTE.len()],
                        },
                        _ => match look.distance_at(x, y) {
                            Some(d) => heat(d as f64 / max),
                            None => continue,
                        },
                    };
                    frame.blend_rect(px(x), py(y), cell as usize, cell as usize, color, 55);
                }
            }
            if let (Overlay::Distance, Some((fx, fy, d))) = (state.overlay, look.farthest) {
                let size = (cell as usize).max(4);
                let off = (size as i64 - cell) / 2;
                frame.outline(
                    px(fx) - off - 1,
                    py(fy) - off - 1,
                    size + 2,
                    size + 2,
                    1,
                    FARTHEST,
                );
                if visible(fx, fy) {
                    let label = format!("{d}");
                    frame.text(
                        px(fx) + cell + 2,
                        py(fy),
                        label_size,
                        &label,
                        FARTHEST,
                        LABEL_BG,
                    );
                }
            }
        }
        Overlay::Markers => {
            let looks = state.marker_looks();
            let size = (cell as usize).max(3);
            let shown: Vec<&crate::map::Marker> =
                map.markers().iter().filter(|m| visible(m.x, m.y)).collect();
            let boxes: Vec<Box> = shown
                .iter()
                .map(|m| (px(m.x), py(m.y), size as i64, size as i64))
                .collect();
            let labels: Vec<(i64, i64)> = shown
                .iter()
                .map(|m| {
                    (
                        (m.name.chars().count() * label_size) as i64,
                        label_size as i64,
                    )
                })
                .collect();
            let spots = place_labels(&boxes, &labels, (frame_w, map_h));
            for ((m, b), spot) in shown.iter().zip(&boxes).zip(spots) {
                let (_, color) = looks.get(&m.name);
                frame.outline(b.0, b.1, size, size, 1, color);
                if let Some((x, y)) = spot {
                    frame.text(x, y, label_size, &m.name, color, LABEL_BG);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_labels_never_overlap_each_other_or_a_marker() {
        // Three markers side by side, each a long label: the first goes
        // right of its cell only if that is free of the others' cells.
        let cells: Vec<Box> = (0..3).map(|i| (40 + i * 10, 40, 8, 8)).collect();
        let sizes = vec![(48, 8); 3];
        let spots = place_labels(&cells, &sizes, (400, 300));
        let mut boxes: Vec<Box> = Vec::new();
        for (spot, size) in spots.iter().zip(&sizes) {
            let (x, y) = spot.expect("room enough for each");
            let b = (x, y, size.0, size.1);
            assert!(
                boxes.iter().all(|o| !overlaps(o, &b)),
                "{b:?} runs into {boxes:?}"
            );
            assert!(
                cells.iter().all(|c| !overlaps(c, &b)),
                "{b:?} hides a marker"
            );
            assert!(x >= 0 && y >= 0 && x + b.2 <= 400 && y + b.3 <= 300);
            boxes.push(b);
        }
        // No room at all: no label rather than one over another.
        let crowded: Vec<Box> = (0..4).map(|i| (i * 9, 0, 8, 8)).collect();
        let spots = place_labels(&crowded, &[(40, 8); 4], (36, 8));
        assert!(spots.iter().all(Option::is_none), "{spots:?}");
    }

    #[test]
    fn heat_runs_from_blue_to_red() {
        let (near, far) = (heat(0.0), heat(1.0));
        assert!(near.2 > 200 && near.0 < 50, "{near:?}");
        assert!(far.0 > 200 && far.2 < 50, "{far:?}");
        let mid = heat(0.5);
        assert!(mid.1 > 200, "{mid:?}");
    }
}
