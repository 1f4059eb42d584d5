//! The seed grid (`G`): thumbnails of consecutive seeds, as many as fit
//! the window, made on worker threads; arrows or the mouse select one and
//! `Enter` opens it. The layout and drawing are pure; the workers are the
//! window loop's.

use crate::map::Rgb;
use crate::render::{Frame, START_COLOR};
use crate::thumbnail::{cell_size, sheet, Tile, GAP};

/// The longer side of a thumbnail's box, in pixels.
pub const THUMB: usize = 160;

pub struct Grid {
    pub first: u64,
    pub columns: usize,
    pub rows: usize,
    /// Each seed's picture once made (`Failed` when it failed).
    pub tiles: Vec<Tile>,
    pub selected: usize,
    /// The box each thumbnail fits, in the maps' shape.
    pub thumb: (usize, usize),
}

impl Grid {
    /// A grid of as many seeds from `first` as fit `view` pixels, for maps
    /// of `map` cells.
    pub fn new(first: u64, view: (usize, usize), map: (i32, i32)) -> Grid {
        let (w, h) = (map.0.max(1) as usize, map.1.max(1) as usize);
        let thumb = if w >= h {
            (THUMB, (THUMB * h / w).max(8))
        } else {
            ((THUMB * w / h).max(8), THUMB)
        };
        let (bw, bh) = cell_size(thumb);
        let columns = (view.0.saturating_sub(GAP) / bw).max(1);
        let rows = (view.1.saturating_sub(GAP) / bh).max(1);
        Grid {
            first,
            columns,
            rows,
            tiles: (0..columns * rows).map(|_| Tile::Pending).collect(),
            selected: 0,
            thumb,
        }
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn seed(&self, index: usize) -> u64 {
        self.first.wrapping_add(index as u64)
    }

    pub fn selected_seed(&self) -> u64 {
        self.seed(self.selected)
    }

    /// Forgets every picture (they are to be made again, of a changed
    /// script), keeping the seeds and the selection.
    pub fn restart(&mut self) {
        self.tiles.fill_with(|| Tile::Pending);
    }

    /// How many pictures are made.
    pub fn done(&self) -> usize {
        self.tiles
            .iter()
            .filter(|t| !matches!(t, Tile::Pending))
            .count()
    }

    /// Moves the selection by whole cells of the grid, staying on it.
    pub fn select_by(&mut self, dx: i32, dy: i32) {
        let (c, r) = (self.columns as i32, self.rows as i32);
        let (x, y) = (self.selected as i32 % c, self.selected as i32 / c);
        let (x, y) = ((x + dx).clamp(0, c - 1), (y + dy).clamp(0, r - 1));
        self.selected = ((y * c + x) as usize).min(self.len() - 1);
    }

    /// The picture under pixel (x, y) of the window, if any.
    pub fn index_at(&self, x: usize, y: usize) -> Option<usize> {
        let (bw, bh) = cell_size(self.thumb);
        let (cx, cy) = (x.checked_sub(GAP)? / bw, y.checked_sub(GAP)? / bh);
        (cx < self.columns && cy < self.rows).then_some(cy * self.columns + cx)
    }

    /// The grid over the whole frame, the selection outlined.
    pub fn draw(&self, frame: &mut Frame) {
        let labelled: Vec<(String, Tile)> = self
            .tiles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let picture = match t {
                    Tile::Map(f) => Tile::Map(f.clone()),
                    Tile::Failed => Tile::Failed,
                    Tile::Pending => Tile::Pending,
                };
                let label = match t {
                    Tile::Failed => format!("seed {} failed", self.seed(i)),
                    Tile::Pending => format!("seed {} ...", self.seed(i)),
                    Tile::Map(_) => format!("seed {}", self.seed(i)),
                };
                (label, picture)
            })
            .collect();
        let picture = sheet(&labelled, self.columns, self.thumb);
        frame.fill_rect(0, 0, frame.width, frame.height, Rgb(0x18, 0x18, 0x20));
        for y in 0..picture.height.min(frame.height) {
            let n = picture.width.min(frame.width);
            frame.pixels[y * frame.width..y * frame.width + n]
                .copy_from_slice(&picture.pixels[y * picture.width..y * picture.width + n]);
        }
        let (bw, bh) = cell_size(self.thumb);
        let (x, y) = (self.selected % self.columns, self.selected / self.columns);
        frame.outline(
            (GAP + x * bw) as i64 - 4,
            (GAP + y * bh) as i64 - 4,
            self.thumb.0 + 8,
            self.thumb.1 + 8,
            2,
            START_COLOR,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_fills_the_view_and_the_selection_stays_on_it() {
        let mut g = Grid::new(100, (1280, 940), (80, 50));
        assert_eq!(g.thumb, (160, 100));
        assert_eq!((g.columns, g.rows), (7, 7));
        assert_eq!(g.len(), 49);
        g.select_by(1, 1);
        assert_eq!((g.selected, g.selected_seed()), (8, 108));
        g.select_by(-5, -5);
        assert_eq!(g.selected, 0);
        g.select_by(100, 100);
        assert_eq!(g.selected, 48);
        assert_eq!(g.index_at(8 + 170, 8 + 5), Some(1));
        assert_eq!(g.index_at(2, 2), None);
        assert_eq!(g.done(), 0);
        let mut frame = Frame::new(1280, 940, Rgb(0, 0, 0));
        g.draw(&mut frame);
        assert_eq!(
            frame.get(8 + 6 * 168 - 4, 8 + 6 * 132 - 4),
            START_COLOR,
            "the selection"
        );
    }
}
