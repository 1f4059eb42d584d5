//! Value noise from the run's stream, specified so any language computes
//! the same field (f64 arithmetic, basic operations only, in this order):
//!
//! For octave `o` in `0..octaves`: spacing `s = max(scale / 2^o, 1)`,
//! weight `a = 0.5^o`; a lattice of `ny = floor((H - 1) / s) + 2` rows by
//! `nx = floor((W - 1) / s) + 2` columns of `rng:float()` draws, row by
//! row, the octaves one after the other. A cell's value is
//! `Σ a·L(x / s, y / s) / Σ a` (sums in octave order), where `L(u, v)`
//! interpolates the lattice at `i = floor(u)`, `j = floor(v)` with
//! smoothstep weights `sx = t·t·(3 - 2t)` for `t = u - i` (and `sy`
//! likewise): `top = l[j][i] + (l[j][i+1] - l[j][i])·sx`, `bottom` the same
//! on row `j + 1`, `L = top + (bottom - top)·sy`. Every value is in [0, 1).

use std::sync::Arc;

use super::selection::Selection;
use crate::map::MapError;
use crate::rng::Rng;

/// A noise field over a map's cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Noise {
    width: i32,
    height: i32,
    /// Shared, never changed once made: a path priced by the field reads
    /// them where they are instead of copying them.
    values: Arc<Vec<f64>>,
}

/// The largest `scale` and most `octaves` a field may have.
pub const MAX_SCALE: f64 = 4096.0;
pub const MAX_OCTAVES: u32 = 8;

/// How many `rng:float()` draws a field takes (its lattices' points).
pub fn draws(width: i32, height: i32, scale: f64, octaves: u32) -> u64 {
    (0..octaves)
        .map(|o| {
            let s = spacing(scale, o);
            let nx = ((width - 1) as f64 / s).floor() as u64 + 2;
            let ny = ((height - 1) as f64 / s).floor() as u64 + 2;
            nx * ny
        })
        .sum()
}

fn spacing(scale: f64, octave: u32) -> f64 {
    (scale / (1u64 << octave) as f64).max(1.0)
}

impl Noise {
    /// The field for a `width` x `height` map, drawn from `rng`.
    pub fn new(
        width: i32,
        height: i32,
        rng: &mut Rng,
        scale: f64,
        octaves: u32,
    ) -> Result<Noise, MapError> {
        if !(scale.is_finite() && (1.0..=MAX_SCALE).contains(&scale)) {
            return Err(MapError::Invalid(format!(
                "scale must be a number from 1 to {MAX_SCALE}, got {scale}"
            )));
        }
        if !(1..=MAX_OCTAVES).contains(&octaves) {
            return Err(MapError::Invalid(format!(
                "octaves must be 1..={MAX_OCTAVES}, got {octaves}"
            )));
        }
        let cells = width as usize * height as usize;
        let mut total = vec![0.0f64; cells];
        let mut weights = 0.0f64;
        for o in 0..octaves {
            let s = spacing(scale, o);
            let a = 0.5f64.powi(o as i32);
            let nx = ((width - 1) as f64 / s).floor() as usize + 2;
            let ny = ((height - 1) as f64 / s).floor() as usize + 2;
            let lattice: Vec<f64> = (0..nx * ny).map(|_| rng.float()).collect();
            // Each column's lattice cell and weight, computed once.
            let columns: Vec<(usize, f64)> = (0..width)
                .map(|x| {
                    let u = x as f64 / s;
                    let i = u.floor();
                    let tx = u - i;
                    (i as usize, tx * tx * (3.0 - 2.0 * tx))
                })
                .collect();
            // `top` and `bottom` depend on the row only through its lattice
            // row j, so they are made once per lattice row (the same
            // operations, so the same values) and shared by its rows.
            let across = |j: usize, out: &mut Vec<f64>| {
                let row = &lattice[j * nx..(j + 1) * nx];
                out.clear();
                out.extend(
                    columns
                        .iter()
                        .map(|&(i, sx)| row[i] + (row[i + 1] - row[i]) * sx),
                );
            };
            let (mut top, mut bottom) = (Vec::new(), Vec::new());
            let mut made: Option<usize> = None;
            for y in 0..height {
                let v = y as f64 / s;
                let j = v.floor();
                let ty = v - j;
                let sy = ty * ty * (3.0 - 2.0 * ty);
                let j = j as usize;
                if made != Some(j) {
                    if made.map(|m| m + 1) == Some(j) {
                        std::mem::swap(&mut top, &mut bottom);
                    } else {
                        across(j, &mut top);
                    }
                    across(j + 1, &mut bottom);
                    made = Some(j);
                }
                let out = &mut total[(y * width) as usize..((y + 1) * width) as usize];
                let cells = out.iter_mut().zip(&top).zip(&bottom);
                if o == 0 {
                    // The first octave writes without reading: `0.0 + v`
                    // is the sum the others make (the same bits, -0.0
                    // included), and a page of a big field that is only
                    // written faults once, where reading its zeroes first
                    // and then writing faulted twice (16,000 of river.lua's
                    // 95,000 page faults at 2000x2000).
                    for ((t, &top), &bottom) in cells {
                        *t = 0.0 + a * (top + (bottom - top) * sy);
                    }
                } else {
                    for ((t, &top), &bottom) in cells {
                        *t += a * (top + (bottom - top) * sy);
                    }
                }
            }
            weights += a;
        }
        for v in &mut total {
            *v /= weights;
        }
        Ok(Noise {
            width,
            height,
            values: Arc::new(total),
        })
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// Every value, row by row (`y * width + x`).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The values, shared (see [`crate::ops::PathCosts::add_field`]).
    pub fn shared_values(&self) -> Arc<Vec<f64>> {
        Arc::clone(&self.values)
    }

    /// The value at (x, y), or `None` off the field.
    pub fn get(&self, x: i64, y: i64) -> Option<f64> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        Some(self.values[(y * self.width as i64 + x) as usize])
    }

    /// The cells whose value is in `lo..hi` (`lo` included, `hi` not).
    pub fn select(&self, lo: f64, hi: f64) -> Selection {
        let mask: Vec<bool> = self.values.iter().map(|&v| lo <= v && v < hi).collect();
        Selection::from_mask(self.width, self.height, &mask)
    }

    pub fn heap_bytes(&self) -> usize {
        self.values.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_pinned_and_in_range() {
        // Computed with a separate Python transcription of the specification
        // above on the PCG32 reference stream.
        let field = Noise::new(12, 7, &mut Rng::new(7), 4.0, 3).unwrap();
        let pinned = [
            ((0, 0), 0.2998975257256201),
            ((5, 3), 0.5340100118811668),
            ((11, 6), 0.35632057115019833),
        ];
        for ((x, y), want) in pinned {
            let got = field.get(x, y).unwrap();
            assert_eq!(got, want, "({x}, {y}): bit for bit");
        }
        for y in 0..7 {
            for x in 0..12 {
                let v = field.get(x, y).unwrap();
                assert!((0.0..1.0).contains(&v), "{v}");
            }
        }
        assert_eq!(draws(12, 7, 4.0, 3), 151);
        assert_eq!(field.get(12, 0), None);
    }

    #[test]
    fn select_takes_half_open_bands_and_bad_settings_are_named() {
        let field = Noise::new(30, 20, &mut Rng::new(1), 6.0, 2).unwrap();
        let low = field.select(0.0, 0.5);
        let high = field.select(0.5, 1.0);
        assert_eq!(low.count() + high.count(), 600);
        assert!(low.count() > 0 && high.count() > 0);
        let err = Noise::new(5, 5, &mut Rng::new(1), 0.5, 2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "scale must be a number from 1 to 4096, got 0.5"
        );
        assert!(Noise::new(5, 5, &mut Rng::new(1), 4.0, 9).is_err());
    }

    /// The field made row by row from shared lattice rows is, bit for bit,
    /// the specification computed cell by cell.
    #[test]
    fn shared_rows_give_the_specified_values() {
        fn by_cell(width: i32, height: i32, rng: &mut Rng, scale: f64, octaves: u32) -> Vec<f64> {
            let mut total = vec![0.0f64; (width * height) as usize];
            let mut weights = 0.0f64;
            for o in 0..octaves {
                let s = spacing(scale, o);
                let a = 0.5f64.powi(o as i32);
                let nx = ((width - 1) as f64 / s).floor() as usize + 2;
                let ny = ((height - 1) as f64 / s).floor() as usize + 2;
                let lattice: Vec<f64> = (0..nx * ny).map(|_| rng.float()).collect();
                let at = |i: usize, j: usize| lattice[j * nx + i];
                for y in 0..height {
                    for x in 0..width {
                        let (u, v) = (x as f64 / s, y as f64 / s);
                        let (i, j) = (u.floor(), v.floor());
                        let (tx, ty) = (u - i, v - j);
                        let sx = tx * tx * (3.0 - 2.0 * tx);
                        let sy = ty * ty * (3.0 - 2.0 * ty);
                        let (i, j) = (i as usize, j as usize);
                        let top = at(i, j) + (at(i + 1, j) - at(i, j)) * sx;
                        let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * sx;
                        total[(y * width + x) as usize] += a * (top + (bottom - top) * sy);
                    }
                }
                weights += a;
            }
            total.iter().map(|v| v / weights).collect()
        }
        let mut pick = Rng::new(3);
        for _ in 0..60 {
            let (w, h) = (
                pick.range(1, 70).unwrap() as i32,
                pick.range(1, 50).unwrap() as i32,
            );
            let scale = [1.0, 1.5, 2.0, 3.7, 6.0, 12.0, 100.0][pick.int(7) as usize];
            let octaves = pick.range(1, 5).unwrap() as u32;
            let seed = pick.int(1000);
            let field = Noise::new(w, h, &mut Rng::new(seed), scale, octaves).unwrap();
            let want = by_cell(w, h, &mut Rng::new(seed), scale, octaves);
            let same = field
                .values()
                .iter()
                .zip(&want)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{w}x{h}, scale {scale}, {octaves} octaves");
        }
    }
}
