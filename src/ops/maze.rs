//! Perfect mazes by the recursive backtracker, native so a maze of a
//! million cells costs no Lua loop.

use crate::geom::Rect;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

impl Map {
    /// Carves a perfect maze (exactly one path between any two cells) into
    /// `area` (corners inclusive): maze cells sit at odd offsets from the
    /// area's corner, walls between them. The walk starts at a cell drawn
    /// with `rng:int(cells)` and at each step moves to one of the `n`
    /// unvisited neighbours (north, east, south, west order) drawn with
    /// `rng:int(n)` when `n > 1`. Then each wall still standing between two
    /// cells is opened with probability `loops` (one `rng:float()` per wall,
    /// row by row), which adds cycles. Returns the number of maze cells.
    pub fn maze(
        &mut self,
        area: &Rect,
        rng: &mut Rng,
        loops: f64,
        tile: Tile,
    ) -> Result<usize, MapError> {
        self.check_rect(area)?;
        let (cw, ch) = ((area.w() / 2) as usize, (area.h() / 2) as usize);
        if cw == 0 || ch == 0 {
            return Err(MapError::Invalid(format!(
                "{area} is too small for a maze: it needs at least 3x3 cells"
            )));
        }
        let at = |cx: usize, cy: usize| {
            (
                (area.x1 + 1 + 2 * cx as i32) as i64,
                (area.y1 + 1 + 2 * cy as i32) as i64,
            )
        };
        let mut visited = vec![false; cw * ch];
        let first = rng.int((cw * ch) as u64) as usize;
        let mut stack = vec![first];
        visited[first] = true;
        let (x, y) = at(first % cw, first / cw);
        self.set(x, y, tile)?;
        while let Some(&cell) = stack.last() {
            let (cx, cy) = (cell % cw, cell / cw);
            let mut next = Vec::with_capacity(4);
            if cy > 0 && !visited[cell - cw] {
                next.push(cell - cw);
            }
            if cx + 1 < cw && !visited[cell + 1] {
                next.push(cell + 1);
            }
            if cy + 1 < ch && !visited[cell + cw] {
                next.push(cell + cw);
            }
            if cx > 0 && !visited[cell - 1] {
                next.push(cell - 1);
            }
            if next.is_empty() {
                stack.pop();
                continue;
            }
            let pick = if next.len() > 1 {
                next[rng.int(next.len() as u64) as usize]
            } else {
                next[0]
            };
            visited[pick] = true;
            let (ax, ay) = at(cx, cy);
            let (bx, by) = at(pick % cw, pick / cw);
            self.set((ax + bx) / 2, (ay + by) / 2, tile)?;
            self.set(bx, by, tile)?;
            stack.push(pick);
        }
        if loops > 0.0 {
            for cy in 0..ch {
                for cx in 0..cw {
                    let (ax, ay) = at(cx, cy);
                    for (nx, ny) in [(cx + 1, cy), (cx, cy + 1)] {
                        if nx >= cw || ny >= ch {
                            continue;
                        }
                        let (bx, by) = at(nx, ny);
                        let (wx, wy) = ((ax + bx) / 2, (ay + by) / 2);
                        if self.get(wx, wy)? != tile && rng.float() < loops {
                            self.set(wx, wy, tile)?;
                        }
                    }
                }
            }
        }
        Ok(cw * ch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{regions, unreachable_walkable};

    #[test]
    fn a_perfect_maze_is_a_tree() {
        let mut map = Map::new(21, 15).unwrap();
        let area = Rect {
            x1: 0,
            y1: 0,
            x2: 20,
            y2: 14,
        };
        let cells = map.maze(&area, &mut Rng::new(3), 0.0, Tile::FLOOR).unwrap();
        assert_eq!(cells, 10 * 7);
        assert_eq!(regions(&map).len(), 1);
        // A tree of 70 cells has 69 passages: 139 floor cells in all.
        assert_eq!(map.count(Tile::FLOOR), 70 + 69);
        for x in 0..21 {
            assert_eq!(map.get(x, 0).unwrap(), Tile::WALL);
            assert_eq!(map.get(x, 14).unwrap(), Tile::WALL);
        }
        map.set_start(1, 1).unwrap();
        assert!(unreachable_walkable(&map).is_empty());
    }

    #[test]
    fn loops_open_extra_walls_and_the_stream_decides() {
        let area = Rect {
            x1: 0,
            y1: 0,
            x2: 20,
            y2: 14,
        };
        let mut a = Map::new(21, 15).unwrap();
        a.maze(&area, &mut Rng::new(3), 0.3, Tile::FLOOR).unwrap();
        assert!(a.count(Tile::FLOOR) > 139);
        let mut b = Map::new(21, 15).unwrap();
        b.maze(&area, &mut Rng::new(3), 0.3, Tile::FLOOR).unwrap();
        assert_eq!(a, b);
        assert!(Map::new(5, 5)
            .unwrap()
            .maze(
                &Rect {
                    x1: 0,
                    y1: 0,
                    x2: 1,
                    y2: 1
                },
                &mut Rng::new(1),
                0.0,
                Tile::FLOOR
            )
            .is_err());
    }
}
