//! Field of view by symmetric shadowcasting (Albert Ford's algorithm):
//! between transparent cells, A sees B exactly when B sees A. Slopes are
//! exact fractions, so no rounding can break the symmetry.

use crate::map::Map;

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i64,
    den: i64,
}

/// One row of a quadrant scan: `depth` cells from the origin, between two slopes.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// The first column: `depth * start` rounded with ties going up.
    fn min_col(&self) -> i64 {
        (2 * self.depth * self.start.num + self.start.den).div_euclid(2 * self.start.den)
    }

    /// The last column: `depth * end` rounded with ties going down.
    fn max_col(&self) -> i64 {
        -(self.end.den - 2 * self.depth * self.end.num).div_euclid(2 * self.end.den)
    }

    /// Whether a cell's centre lies inside the row's sector, which is what
    /// makes floor-to-floor visibility symmetric.
    fn is_symmetric(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }

    fn next(&self) -> Row {
        Row {
            depth: self.depth + 1,
            ..*self
        }
    }
}

/// Maps a quadrant's (depth, column) to a (dx, dy) offset from the origin.
type Transform = fn(i64, i64) -> (i64, i64);

/// The slope through the near-left corner of a cell.
fn slope(depth: i64, col: i64) -> Slope {
    Slope {
        num: 2 * col - 1,
        den: 2 * depth,
    }
}

/// Calls `reveal(x, y)` for every cell visible from `(ox, oy)` within
/// `radius` (Euclidean), the origin included. Opaque cells are revealed
/// (you see the wall) but block what lies behind; off-map cells block.
pub fn field_of_view(map: &Map, ox: i32, oy: i32, radius: i32, mut reveal: impl FnMut(i32, i32)) {
    if !map.in_bounds(ox as i64, oy as i64) {
        return;
    }
    reveal(ox, oy);
    let r2 = radius as i64 * radius as i64;
    let opaque = |x: i64, y: i64| -> bool {
        match map.index(x, y) {
            Ok(i) => !map.tiles().kind(map.cells()[i]).transparent,
            Err(_) => true,
        }
    };
    // The four quadrants as (depth, col) -> (dx, dy).
    let quadrants: [Transform; 4] = [|d, c| (c, -d), |d, c| (c, d), |d, c| (d, c), |d, c| (-d, c)];
    for transform in quadrants {
        let at = |depth: i64, col: i64| {
            let (dx, dy) = transform(depth, col);
            (ox as i64 + dx, oy as i64 + dy, dx * dx + dy * dy)
        };
        let mut rows = vec![Row {
            depth: 1,
            start: Slope { num: -1, den: 1 },
            end: Slope { num: 1, den: 1 },
        }];
        while let Some(mut row) = rows.pop() {
            if row.depth > radius as i64 {
                continue;
            }
            // None before the first cell; Some(opaque) after.
            let mut previous: Option<bool> = None;
            for col in row.min_col()..=row.max_col() {
                let (x, y, dist2) = at(row.depth, col);
                let wall = opaque(x, y);
                let in_range = dist2 <= r2 && map.in_bounds(x, y);
                if in_range && (wall || row.is_symmetric(col)) {
                    reveal(x as i32, y as i32);
                }
                if previous == Some(true) && !wall {
                    row.start = slope(row.depth, col);
                }
                if previous == Some(false) && wall {
                    let mut next = row.next();
                    next.end = slope(row.depth, col);
                    rows.push(next);
                }
                previous = Some(wall);
            }
            if previous == Some(false) {
                rows.push(row.next());
            }
        }
    }
}

/// The visible cells as a row-major mask.
pub fn visible_mask(map: &Map, ox: i32, oy: i32, radius: i32) -> Vec<bool> {
    let mut mask = vec![false; map.cells().len()];
    let w = map.width() as usize;
    field_of_view(map, ox, oy, radius, |x, y| {
        mask[y as usize * w + x as usize] = true
    });
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Tile;
    use crate::rng::Rng;

    fn seen(text: &str, radius: i32) -> String {
        let map = Map::from_ascii(text).unwrap();
        let (x, y) = map.start().unwrap();
        let mask = visible_mask(&map, x, y, radius);
        let w = map.width() as usize;
        let glyphs = map.to_string().replace('\n', "");
        let mut out = String::new();
        for (i, g) in glyphs.chars().enumerate() {
            out.push(if mask[i] { g } else { ' ' });
            if (i + 1) % w == 0 {
                out.push('\n');
            }
        }
        out
    }

    #[test]
    fn an_open_room_is_seen_whole() {
        let room = "#####\n#...#\n#.@.#\n#...#\n#####\n";
        assert_eq!(seen(room, 8), room);
    }

    #[test]
    fn walls_hide_what_is_behind_them() {
        let map = "#########\n#@..#...#\n#########\n";
        assert_eq!(seen(map, 8), "#####    \n#@..#    \n#####    \n");
    }

    #[test]
    fn the_radius_limits_sight() {
        let corridor = "############\n#@.........#\n############\n";
        let got = seen(corridor, 3);
        assert_eq!(
            got.lines().nth(1),
            Some("#@...       "),
            "three cells away, no more"
        );
    }

    #[test]
    fn pillars_cast_shadows() {
        let map = "#######\n#.....#\n#.....#\n#..#..#\n#.....#\n#..@..#\n#######\n";
        let got = seen(map, 8);
        assert_eq!(got.lines().nth(3), Some("#..#..#"), "the pillar is seen");
        assert_eq!(
            &got.lines().nth(2).unwrap()[3..4],
            " ",
            "right behind it is not"
        );
    }

    #[test]
    fn sight_is_symmetric_between_floor_cells_on_random_maps() {
        let mut rng = Rng::new(11);
        for _ in 0..30 {
            let (w, h) = (16, 12);
            let mut map = Map::new(w, h).unwrap();
            for y in 1..h - 1 {
                for x in 1..w - 1 {
                    if !rng.chance(0.25) {
                        map.set(x, y, Tile::FLOOR).unwrap();
                    }
                }
            }
            let floors: Vec<(i32, i32)> = (0..h as i32)
                .flat_map(|y| (0..w as i32).map(move |x| (x, y)))
                .filter(|&(x, y)| map.is_walkable(x as i64, y as i64))
                .collect();
            let masks: Vec<Vec<bool>> = floors
                .iter()
                .map(|&(x, y)| visible_mask(&map, x, y, 8))
                .collect();
            let idx = |(x, y): (i32, i32)| (y * w as i32 + x) as usize;
            for (i, &a) in floors.iter().enumerate() {
                for (j, &b) in floors.iter().enumerate() {
                    assert_eq!(
                        masks[i][idx(b)],
                        masks[j][idx(a)],
                        "{a:?} and {b:?} disagree on\n{map}"
                    );
                }
            }
        }
    }
}
