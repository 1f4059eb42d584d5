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

use super::selection::Selection;
use crate::map::MapError;
use crate::rng::Rng;

/// A noise field over a map's cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Noise {
    width: i32,
    height: i32,
    values: Vec<f64>,
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
            let at = |i: usize, j: usize| lattice[j * nx + i];
            for y in 0..height {
                let v = y as f64 / s;
                let j = v.floor();
                let ty = v - j;
                let sy = ty * ty * (3.0 - 2.0 * ty);
                let j = j as usize;
                for x in 0..width {
                    let u = x as f64 / s;
                    let i = u.floor();
                    let tx = u - i;
                    let sx = tx * tx * (3.0 - 2.0 * tx);
                    let i = i as usize;
                    let top = at(i, j) + (at(i + 1, j) - at(i, j)) * sx;
                    let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * sx;
                    total[(y * width + x) as usize] += a * (top + (bottom - top) * sy);
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
            values: total,
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
}
