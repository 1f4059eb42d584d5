//! The cheapest path between two cells (A*), with a cost per tile kind,
//! and carving one. Specified so any implementation finds the same path:
//! entering a cell costs its kind's cost (1 for walkable kinds unless
//! given, impassable for the others), a diagonal step costs that times
//! √2; the open set is ordered by f = g + h, then h, then cell index
//! (`y * width + x`), smallest first; neighbours are tried N, E, S, W (then
//! NE, SE, SW, NW); a cell's cost is only replaced by a strictly smaller
//! one. The heuristic is the Manhattan (or octile) distance times the
//! cheapest cost, so the path found is a cheapest one. With per-cell extra
//! costs (a noise field times a weight), entering a passable cell costs
//! its kind's cost plus its extra; extras are never negative, so the same
//! heuristic stays a lower bound.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::map::{Map, MapError, Tile};

/// What entering each kind costs, by kind index: `None` is impassable.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCosts {
    pub per_kind: Vec<Option<f64>>,
    pub diagonal: bool,
    /// What entering each cell costs on top of its kind's cost, row by row
    /// (`y * width + x`): finite and not negative.
    pub extra: Option<Vec<f64>>,
}

impl PathCosts {
    /// Walkable kinds cost 1, the others are impassable.
    pub fn walkable(map: &Map) -> PathCosts {
        PathCosts {
            per_kind: map
                .tiles()
                .iter()
                .map(|(_, k)| k.walkable.then_some(1.0))
                .collect(),
            diagonal: false,
            extra: None,
        }
    }

    /// Adds `weight * values[cell]` to entering each cell (a noise field's
    /// values, row by row, for a map of `cells` cells).
    pub fn add_field(&mut self, values: &[f64], weight: f64, cells: usize) -> Result<(), MapError> {
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(MapError::Invalid(format!(
                "a field's weight must be a finite number 0 or more, got {weight}"
            )));
        }
        if values.len() != cells {
            return Err(MapError::Invalid(format!(
                "the field has {} cells and the map {cells}: make it with this map's noise",
                values.len()
            )));
        }
        let extra: Vec<f64> = values.iter().map(|v| (v * weight).max(0.0)).collect();
        if extra.iter().any(|e| !e.is_finite()) {
            return Err(MapError::Invalid(
                "a field's weighted values must be finite".into(),
            ));
        }
        self.extra = Some(extra);
        Ok(())
    }

    /// Sets what entering `tile` costs (`None`: impassable). A cost must be
    /// finite and positive.
    pub fn set(&mut self, tile: Tile, cost: Option<f64>) -> Result<(), MapError> {
        if let Some(c) = cost {
            if !(c.is_finite() && c > 0.0) {
                return Err(MapError::Invalid(format!(
                    "a path cost must be a positive finite number or false, got {c}"
                )));
            }
        }
        self.per_kind[tile.index()] = cost;
        Ok(())
    }
}

/// An open-set entry: ordered so the heap pops the smallest f, then h,
/// then cell index.
#[derive(PartialEq)]
struct Open {
    f: f64,
    h: f64,
    cell: usize,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(other.h.total_cmp(&self.h))
            .then(other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The cheapest path from `a` to `b` (both included), or `None` when `b`
/// cannot be reached. The start may be on an impassable cell; the goal may
/// not.
pub fn path(
    map: &Map,
    a: (i64, i64),
    b: (i64, i64),
    costs: &PathCosts,
) -> Result<Option<Vec<(i32, i32)>>, MapError> {
    let start = map.index(a.0, a.1)?;
    let goal = map.index(b.0, b.1)?;
    let (w, h) = (map.width(), map.height());
    let cost_of = |cell: usize| {
        let kind = costs.per_kind[map.cells()[cell].index()];
        match &costs.extra {
            Some(extra) => kind.map(|c| c + extra[cell]),
            None => kind,
        }
    };
    if cost_of(goal).is_none() && start != goal {
        return Ok(None);
    }
    let cheapest = costs
        .per_kind
        .iter()
        .flatten()
        .fold(f64::INFINITY, |m, &c| m.min(c));
    let (gx, gy) = (b.0 as i32, b.1 as i32);
    let heuristic = |cell: usize| {
        let (x, y) = ((cell as i32 % w), (cell as i32 / w));
        let (dx, dy) = ((x - gx).abs() as f64, (y - gy).abs() as f64);
        let steps = if costs.diagonal {
            dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
        } else {
            dx + dy
        };
        steps * cheapest
    };
    let mut g = vec![f64::INFINITY; map.cells().len()];
    let mut came_from = vec![u32::MAX; map.cells().len()];
    let mut open = BinaryHeap::new();
    g[start] = 0.0;
    open.push(Open {
        f: heuristic(start),
        h: heuristic(start),
        cell: start,
    });
    while let Some(Open { f, h: h_cell, cell }) = open.pop() {
        if cell == goal {
            let mut cells = vec![cell];
            let mut at = cell;
            while at != start {
                at = came_from[at] as usize;
                cells.push(at);
            }
            cells.reverse();
            let steps = cells
                .into_iter()
                .map(|c| (c as i32 % w, c as i32 / w))
                .collect();
            return Ok(Some(steps));
        }
        // A stale entry: the cell was reached more cheaply since (its h,
        // stored with it, is heuristic(cell)).
        if f > g[cell] + h_cell {
            continue;
        }
        let (x, y) = (cell as i32 % w, cell as i32 / w);
        let diagonals: &[(i32, i32)] = if costs.diagonal { &DIAGONAL } else { &[] };
        for (i, &(dx, dy)) in ORTHOGONAL.iter().chain(diagonals).enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                continue;
            }
            let next = (ny * w + nx) as usize;
            let Some(enter) = cost_of(next) else {
                continue;
            };
            let step = if i >= 4 {
                enter * std::f64::consts::SQRT_2
            } else {
                enter
            };
            let tentative = g[cell] + step;
            if tentative < g[next] {
                g[next] = tentative;
                came_from[next] = cell as u32;
                let hn = heuristic(next);
                open.push(Open {
                    f: tentative + hn,
                    h: hn,
                    cell: next,
                });
            }
        }
    }
    Ok(None)
}

impl Map {
    /// Sets every cell of `cells` to `tile`; returns how many changed.
    pub fn carve_path(&mut self, cells: &[(i64, i64)], tile: Tile) -> Result<usize, MapError> {
        for &(x, y) in cells {
            self.index(x, y)?;
        }
        let mut changed = 0;
        for &(x, y) in cells {
            if self.get(x, y)? != tile {
                self.set(x, y, tile)?;
                changed += 1;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(map: &Map, cells: &[(i32, i32)]) -> String {
        let mut rows: Vec<Vec<char>> = map
            .glyph_rows()
            .iter()
            .map(|r| r.chars().collect())
            .collect();
        for &(x, y) in cells {
            rows[y as usize][x as usize] = '*';
        }
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn finds_the_shortest_way_round_walls() {
        let map = Map::from_ascii(
            "#######\n\
             #..#..#\n\
             #..#..#\n\
             #.....#\n\
             #######\n",
        )
        .unwrap();
        let costs = PathCosts::walkable(&map);
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 9, "4 down and round: {p:?}");
        assert_eq!(p[0], (1, 1));
        assert_eq!(*p.last().unwrap(), (5, 1));
        assert_eq!(
            draw(&map, &p),
            "#######\n#**#**#\n#.*#*.#\n#.***.#\n#######\n",
            "among equal paths, the one the specified order finds (smaller h first)"
        );
        assert_eq!(
            path(&map, (1, 1), (3, 1), &costs).unwrap(),
            None,
            "into a wall"
        );
        assert!(path(&map, (1, 1), (9, 1), &costs).is_err());
    }

    #[test]
    fn costs_steer_the_path_and_false_blocks_it() {
        // Water is cheap to cross here, floor dear: the path goes by water.
        let map = Map::from_ascii(
            "#######\n\
             #.....#\n\
             #~~~~~#\n\
             #######\n",
        )
        .unwrap();
        let mut costs = PathCosts::walkable(&map);
        costs.set(Tile::WATER, Some(0.5)).unwrap();
        costs.set(Tile::FLOOR, Some(3.0)).unwrap();
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(draw(&map, &p), "#######\n#*...*#\n#*****#\n#######\n");
        costs.set(Tile::WATER, None).unwrap();
        let p = path(&map, (1, 1), (5, 1), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 5, "floor only now");
        assert!(costs.set(Tile::FLOOR, Some(0.0)).is_err());
        assert!(costs.set(Tile::FLOOR, Some(f64::NAN)).is_err());
    }

    #[test]
    fn diagonal_steps_cut_corners() {
        let map = Map::from_ascii("######\n#....#\n#....#\n#....#\n######\n").unwrap();
        let mut costs = PathCosts::walkable(&map);
        costs.diagonal = true;
        let p = path(&map, (1, 1), (4, 3), &costs).unwrap().unwrap();
        assert_eq!(p.len(), 4, "two diagonal steps and one straight: {p:?}");
        let mut map = map;
        assert!(map
            .carve_path(&[(1, 1), (2, 1), (9, 9)], Tile::WATER)
            .is_err());
        assert_eq!(
            map.get(1, 1),
            Ok(Tile::FLOOR),
            "all checked before any is set"
        );
        assert_eq!(
            map.carve_path(&[(1, 1), (2, 1), (2, 1)], Tile::WATER),
            Ok(2)
        );
        assert_eq!(map.get(2, 1), Ok(Tile::WATER));
    }

    #[test]
    fn a_field_makes_cells_dearer() {
        let map = Map::from_ascii("#####\n#...#\n#...#\n#...#\n#####\n").unwrap();
        let mut costs = PathCosts::walkable(&map);
        // The middle column costs 10 more to enter: the path goes round it
        // by the bottom row, which is as long and cheaper than crossing.
        let mut field = vec![0.0; 25];
        for y in 1..3 {
            field[y * 5 + 2] = 1.0;
        }
        costs.add_field(&field, 10.0, 25).unwrap();
        let p = path(&map, (1, 1), (3, 1), &costs).unwrap().unwrap();
        assert_eq!(draw(&map, &p), "#####\n#*.*#\n#*.*#\n#***#\n#####\n");
        assert!(costs.add_field(&field, -1.0, 25).is_err());
        assert!(costs.add_field(&field, f64::NAN, 25).is_err());
        assert!(costs.add_field(&field, 1.0, 24).is_err());
        let mut plain = PathCosts::walkable(&map);
        plain.add_field(&field, 0.0, 25).unwrap();
        assert_eq!(
            path(&map, (1, 1), (3, 1), &plain).unwrap().unwrap().len(),
            3,
            "weight 0: straight across"
        );
    }
}
