//! The variety part of `check --html`: the heat map of how often each
//! cell is walkable over all seeds, the identical groups, and the
//! near-duplicate pairs side by side with the cells that differ marked.

use std::fmt::Write as _;

use super::html::{frame_uri, png_uri};
use super::variety::{Heat, Variety};
use crate::map::Map;
use crate::render::Frame;

/// The widest the heat map is drawn, in pixels.
const HEAT_PX: usize = 480;
/// How many identical groups and near pairs are pictured.
const SHOWN: usize = 6;

/// The section; `level_one` makes a seed's first level again.
pub(super) fn section(variety: &Variety, level_one: &dyn Fn(u64) -> Option<Map>) -> String {
    let mut out = String::from("<h2>Variety</h2>\n");
    let _ = writeln!(
        out,
        "<p>{} maps. Near-duplicates: maps whose tiles differ in under {:.1}% of cells. <code>identical</code> groups share a map hash; a near-duplicate group joins seeds by verified pairs (one seed stands for each identical group).</p>",
        variety.maps,
        variety.near * 100.0
    );
    if let Some(heat) = &variety.heat {
        out.push_str(&heat_section(heat));
    }
    if !variety.identical.is_empty() {
        let _ = writeln!(
            out,
            "<h3>Identical maps ({} groups)</h3>\n<div class=\"row\">",
            variety.identical.len()
        );
        for group in variety.identical.iter().take(SHOWN) {
            let img = level_one(group[0])
                .map(|m| {
                    format!(
                        "<img class=\"variety\" src=\"{}\" alt=\"seed {}\">",
                        png_uri(&m),
                        group[0]
                    )
                })
                .unwrap_or_default();
            let seeds: Vec<String> = group.iter().take(12).map(u64::to_string).collect();
            let more = match group.len() > 12 {
                true => format!(" and {} more", group.len() - 12),
                false => String::new(),
            };
            let _ = writeln!(
                out,
                "<figure>{img}<figcaption>seeds {}{more}</figcaption></figure>",
                seeds.join(" ")
            );
        }
        out.push_str("</div>\n");
    }
    if !variety.pairs.is_empty() {
        let _ = writeln!(
            out,
            "<h3>Near-duplicates ({} pairs, {} groups)</h3>\n<p>The closest pairs; the third picture marks the cells that differ in red.</p>",
            variety.near_pairs,
            variety.near_groups.len()
        );
        for pair in variety.pairs.iter().take(SHOWN) {
            let [a, b] = pair.seeds;
            let (Some(x), Some(y)) = (level_one(a), level_one(b)) else {
                continue;
            };
            let _ = writeln!(
                out,
                "<div class=\"row pair\"><figure><img class=\"variety\" src=\"{}\" alt=\"seed {a}\"><figcaption>seed {a}</figcaption></figure><figure><img class=\"variety\" src=\"{}\" alt=\"seed {b}\"><figcaption>seed {b}</figcaption></figure><figure><img class=\"variety\" src=\"{}\" alt=\"cells that differ\"><figcaption>{}</figcaption></figure></div>",
                png_uri(&x),
                png_uri(&y),
                frame_uri(&difference(&x, &y)),
                super::variety::pair_difference(pair.distance)
            );
        }
    }
    out
}

/// The heat map, its legend and the share of cells always and never
/// walkable.
fn heat_section(heat: &Heat) -> String {
    let always = heat
        .walkable
        .iter()
        .filter(|&&c| c as u64 == heat.maps)
        .count();
    let never = heat.walkable.iter().filter(|&&c| c == 0).count();
    let cells = heat.walkable.len().max(1) as f64;
    let mut legend = Frame {
        width: 200,
        height: 12,
        pixels: Vec::with_capacity(2400),
    };
    for _ in 0..12 {
        for x in 0..200 {
            legend.pixels.push(heat_colour(x as f64 / 199.0));
        }
    }
    format!(
        "<h3>Where the floor goes</h3>\n<figure><img class=\"variety heat\" src=\"{}\" alt=\"walkable heat map\"><figcaption>how often each cell is walkable over {} maps of {}x{} (level 1): {:.1}% of cells always, {:.1}% never<br><img class=\"variety\" src=\"{}\" alt=\"legend\"> never → always</figcaption></figure>\n",
        frame_uri(&heat_frame(heat)),
        heat.maps,
        heat.width,
        heat.height,
        always as f64 * 100.0 / cells,
        never as f64 * 100.0 / cells,
        frame_uri(&legend),
    )
}

/// Dark for never, through blue and orange, to white for always.
fn heat_colour(share: f64) -> u32 {
    if share <= 0.0 {
        return 0x10_10_18;
    }
    let stops: [(f64, [f64; 3]); 4] = [
        (0.0, [30.0, 40.0, 110.0]),
        (0.5, [70.0, 140.0, 220.0]),
        (0.9, [240.0, 170.0, 60.0]),
        (1.0, [255.0, 255.0, 255.0]),
    ];
    let i = stops
        .iter()
        .rposition(|(at, _)| *at <= share)
        .unwrap_or(0)
        .min(2);
    let (a, ca) = stops[i];
    let (b, cb) = stops[i + 1];
    let t = ((share - a) / (b - a)).clamp(0.0, 1.0);
    let c: Vec<u32> = (0..3)
        .map(|k| (ca[k] + (cb[k] - ca[k]) * t).round() as u32)
        .collect();
    c[0] << 16 | c[1] << 8 | c[2]
}

/// The heat map as a picture at most [`HEAT_PX`] wide: whole pixels a
/// cell, or every cell sampled when the map is wider.
fn heat_frame(heat: &Heat) -> Frame {
    let (w, h) = (heat.width.max(1) as usize, heat.height.max(1) as usize);
    let (fw, fh) = if w <= HEAT_PX {
        let cell = (HEAT_PX / w).max(1);
        (w * cell, h * cell)
    } else {
        (HEAT_PX, (h * HEAT_PX / w).max(1))
    };
    let maps = heat.maps.max(1) as f64;
    let mut pixels = Vec::with_capacity(fw * fh);
    for py in 0..fh {
        let y = (py * h / fh).min(h - 1);
        for px in 0..fw {
            let x = (px * w / fw).min(w - 1);
            let count = heat.walkable.get(y * w + x).copied().unwrap_or(0);
            pixels.push(heat_colour(count as f64 / maps));
        }
    }
    Frame {
        width: fw,
        height: fh,
        pixels,
    }
}

/// Two maps of one size, the cells that differ in red over a dim copy of
/// the first.
fn difference(a: &Map, b: &Map) -> Frame {
    let base = crate::thumbnail::thumbnail(a, super::html::THUMB, super::html::THUMB);
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return base;
    }
    let (w, h) = (a.width() as usize, a.height() as usize);
    let mut frame = base;
    for (py, row) in frame.pixels.chunks_mut(frame.width.max(1)).enumerate() {
        let y = (py * h / frame.height.max(1)).min(h - 1);
        let width = row.len();
        for (px, pixel) in row.iter_mut().enumerate() {
            let x = (px * w / width).min(w - 1);
            let i = y * w + x;
            *pixel = if a.cells()[i] != b.cells()[i] {
                0xff_30_30
            } else {
                (*pixel >> 1) & 0x7f_7f_7f
            };
        }
    }
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_colours_run_from_never_to_always() {
        assert_eq!(heat_colour(0.0), 0x10_10_18);
        assert_eq!(heat_colour(1.0), 0xff_ff_ff);
        assert_ne!(heat_colour(0.3), heat_colour(0.7));
        let heat = Heat {
            width: 2,
            height: 1,
            maps: 4,
            walkable: vec![0, 4],
        };
        let f = heat_frame(&heat);
        assert_eq!((f.width, f.height), (480, 240));
        assert_eq!((f.pixels[0], f.pixels[479]), (0x10_10_18, 0xff_ff_ff));
    }

    #[test]
    fn differences_are_red() {
        let a = Map::from_ascii("####\n#@.#\n####\n").unwrap();
        let b = Map::from_ascii("####\n#@##\n####\n").unwrap();
        let f = difference(&a, &b);
        assert!(f.pixels.contains(&0xff_30_30));
        assert!(!difference(&a, &a).pixels.contains(&0xff_30_30));
    }
}
