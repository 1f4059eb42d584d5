//! Shapes a designer reaches for: filled circles, straight lines, and the
//! drunkard's walk.

use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

impl Map {
    /// A filled disc: every cell within `r` of the centre (dx² + dy² ≤ r²).
    /// The whole disc must lie on the map.
    pub fn circle(&mut self, cx: i64, cy: i64, r: i64, tile: Tile) -> Result<(), MapError> {
        if r < 0 {
            return Err(MapError::Invalid(format!("radius must be >= 0, got {r}")));
        }
        self.index(cx - r, cy)?;
        self.index(cx + r, cy)?;
        self.index(cx, cy - r)?;
        self.index(cx, cy + r)?;
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
                    self.set(x, y, tile)?;
                }
            }
        }
        Ok(())
    }

    /// A straight line by Bresenham's algorithm, both ends included.
    pub fn line(
        &mut self,
        (x1, y1): (i64, i64),
        (x2, y2): (i64, i64),
        tile: Tile,
    ) -> Result<(), MapError> {
        self.index(x1, y1)?;
        self.index(x2, y2)?;
        let (dx, dy) = ((x2 - x1).abs(), -(y2 - y1).abs());
        let (sx, sy) = ((x2 - x1).signum(), (y2 - y1).signum());
        let (mut x, mut y, mut err) = (x1, y1, dx + dy);
        loop {
            self.set(x, y, tile)?;
            if (x, y) == (x2, y2) {
                return Ok(());
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// The drunkard's walk: from `(x, y)`, `steps` times, set the cell to
    /// `tile` and stagger one cell in a direction drawn by `rng:int(4)`
    /// (north, east, south, west); a step that would reach the map's outer
    /// ring is not taken; then the cell it ended on is set too (with 0
    /// steps, only the first). Returns where the walk ended and how many
    /// cells it changed.
    pub fn walk(
        &mut self,
        x: i64,
        y: i64,
        steps: i64,
        rng: &mut Rng,
        tile: Tile,
    ) -> Result<(i32, i32, usize), MapError> {
        self.index(x, y)?;
        if steps < 0 {
            return Err(MapError::Invalid(format!(
                "steps must be >= 0, got {steps}"
            )));
        }
        let (w, h) = (self.width() as i64, self.height() as i64);
        let (mut x, mut y, mut changed) = (x, y, 0);
        for _ in 0..steps {
            if self.get(x, y)? != tile {
                self.set(x, y, tile)?;
                changed += 1;
            }
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][rng.int(4) as usize];
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 1 && ny >= 1 && nx < w - 1 && ny < h - 1 {
                (x, y) = (nx, ny);
            }
        }
        if self.get(x, y)? != tile {
            self.set(x, y, tile)?;
            changed += 1;
        }
        Ok((x as i32, y as i32, changed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circles_are_round_and_checked() {
        let mut map = Map::new(7, 7).unwrap();
        map.circle(3, 3, 2, Tile::FLOOR).unwrap();
        assert_eq!(
            map.to_string(),
            "#######\n###.###\n##...##\n#.....#\n##...##\n###.###\n#######\n"
        );
        assert!(map.circle(1, 1, 2, Tile::FLOOR).is_err());
        assert!(map.circle(3, 3, -1, Tile::FLOOR).is_err());
    }

    #[test]
    fn lines_include_both_ends() {
        let mut map = Map::new(6, 4).unwrap();
        map.line((0, 0), (5, 2), Tile::FLOOR).unwrap();
        assert_eq!(map.to_string(), "..####\n##..##\n####..\n######\n");
        let mut back = Map::new(6, 4).unwrap();
        back.line((5, 3), (5, 0), Tile::FLOOR).unwrap();
        assert_eq!(back.count(Tile::FLOOR), 4);
        assert!(map.line((0, 0), (6, 0), Tile::FLOOR).is_err());
    }

    #[test]
    fn walks_stay_off_the_edge_and_follow_the_stream() {
        let mut map = Map::new(10, 8).unwrap();
        let mut rng = Rng::new(4);
        let (x, y, changed) = map.walk(5, 4, 200, &mut rng, Tile::FLOOR).unwrap();
        assert!(changed > 5 && changed == map.count(Tile::FLOOR));
        assert!((1..9).contains(&x) && (1..7).contains(&y));
        for i in 0..10 {
            assert_eq!(map.get(i, 0).unwrap(), Tile::WALL, "the outer ring stays");
            assert_eq!(map.get(i, 7).unwrap(), Tile::WALL);
        }
        let mut again = Map::new(10, 8).unwrap();
        again
            .walk(5, 4, 200, &mut Rng::new(4), Tile::FLOOR)
            .unwrap();
        assert_eq!(again, map);
    }
}
