//! Cellular automata and noise, whole-map and native: the caves family.

use crate::geom::Rect;
use crate::map::{Map, MapError, Tile};
use crate::rng::Rng;

/// One birth/survival rule, e.g. the classic cave 4-5 rule: a wall with at
/// least 4 wall neighbours stays, a floor with at least 5 becomes wall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellularRule {
    /// The tile that counts as alive.
    pub alive: Tile,
    /// What an alive cell that does not survive becomes.
    pub dead: Tile,
    /// `birth[n]`: a non-alive cell with n alive neighbours becomes alive.
    pub birth: [bool; 9],
    /// `survive[n]`: an alive cell with n alive neighbours stays alive.
    pub survive: [bool; 9],
    /// Whether off-map neighbours count as alive (keeps cave borders solid).
    pub edge_alive: bool,
}

impl CellularRule {
    /// Builds the count tables from lists of neighbour counts (0..=8).
    pub fn new(
        alive: Tile,
        dead: Tile,
        birth: &[i64],
        survive: &[i64],
    ) -> Result<CellularRule, MapError> {
        let table = |counts: &[i64], what: &str| -> Result<[bool; 9], MapError> {
            let mut t = [false; 9];
            for &n in counts {
                if !(0..=8).contains(&n) {
                    return Err(MapError::Invalid(format!(
                        "{what} counts must be 0..=8, got {n}"
                    )));
                }
                t[n as usize] = true;
            }
            Ok(t)
        };
        Ok(CellularRule {
            alive,
            dead,
            birth: table(birth, "birth")?,
            survive: table(survive, "survive")?,
            edge_alive: true,
        })
    }
}

impl Map {
    /// Runs `steps` synchronous steps of the rule over the whole map. Cells
    /// of other kinds than `alive` and `dead` only change by being born.
    pub fn cellular(&mut self, rule: &CellularRule, steps: usize) {
        let (w, h) = (self.width() as usize, self.height() as usize);
        // The alive cells with a one-cell border of the edge's value, so
        // every cell has eight neighbours to add up without a bounds check.
        let (pw, ph) = (w + 2, h + 2);
        let edge = rule.edge_alive as u8;
        let mut alive = vec![edge; pw * ph];
        // Each column's sum of three rows (the cell's row and the two
        // beside it), for the row being stepped.
        let mut column = vec![0u8; pw];
        // By (alive, alive neighbours), at `alive * 9 + neighbours`: whether
        // the cell changes (all ones) or not (0), and to what (a dying alive
        // cell to `dead`, a born one to `alive`).
        let mask = |change: bool| if change { 0xff } else { 0 };
        let mut changes = [0u8; 18];
        let mut becomes = [0u8; 18];
        for n in 0..9 {
            changes[n] = mask(rule.birth[n]);
            becomes[n] = rule.alive.0;
            changes[9 + n] = mask(!rule.survive[n]);
            becomes[9 + n] = rule.dead.0;
        }
        for _ in 0..steps {
            for (y, row) in self.cells().chunks(w).enumerate() {
                let padded = &mut alive[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
                for (a, &t) in padded.iter_mut().zip(row) {
                    *a = (t == rule.alive) as u8;
                }
            }
            let mut next = self.cells().to_vec();
            for y in 0..h {
                let (up, mid, down) = (
                    &alive[y * pw..(y + 1) * pw],
                    &alive[(y + 1) * pw..(y + 2) * pw],
                    &alive[(y + 2) * pw..(y + 3) * pw],
                );
                for x in 0..pw {
                    column[x] = up[x] + mid[x] + down[x];
                }
                let out = &mut next[y * w..(y + 1) * w];
                for x in 0..w {
                    let me = mid[x + 1];
                    let n = column[x] + column[x + 1] + column[x + 2] - me;
                    // A table lookup and a select, no branch: early steps
                    // of noise are a coin toss a cell.
                    let at = (me as usize * 9 + n as usize) % 18;
                    let keep = out[x].0;
                    out[x] = Tile(keep & !changes[at] | becomes[at] & changes[at]);
                }
            }
            let (mw, mh) = (self.width(), self.height());
            self.cells_to_write(0, 0, mw - 1, mh - 1)
                .copy_from_slice(&next);
        }
    }

    /// Sets each cell of `area` (row by row) to `tile` when `rng:float() < p`:
    /// one draw per cell, the noise caves start from.
    pub fn scatter(
        &mut self,
        tile: Tile,
        p: f64,
        area: &Rect,
        rng: &mut Rng,
    ) -> Result<(), MapError> {
        self.check_rect(area)?;
        let w = self.width() as usize;
        let cells = self.cells_to_write(area.x1, area.y1, area.x2, area.y2);
        for y in area.y1 as usize..=area.y2 as usize {
            for cell in &mut cells[y * w + area.x1 as usize..=y * w + area.x2 as usize] {
                if rng.float() < p {
                    *cell = tile;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four_five() -> CellularRule {
        CellularRule::new(Tile::WALL, Tile::FLOOR, &[5, 6, 7, 8], &[4, 5, 6, 7, 8]).unwrap()
    }

    #[test]
    fn one_step_by_hand() {
        // Centre floor: 8 wall neighbours -> born. Lone wall in a floor
        // field: 0 wall neighbours -> dies. Edges count as walls.
        let mut map = Map::from_ascii("#####\n#...#\n#.#.#\n#...#\n#####\n").unwrap();
        map.cellular(&four_five(), 1);
        // (1,1): neighbours walls = 5 (top row 3 + left 2) -> born.
        // (2,1): walls = 3 above + the centre = 4 -> stays floor.
        // (2,2): the centre wall has 0 wall neighbours -> dies.
        assert_eq!(map.to_string(), "#####\n##.##\n#...#\n##.##\n#####\n");
    }

    /// The step by its definition, cell by cell, to hold the fast one to.
    fn step_by_definition(map: &Map, rule: &CellularRule) -> Map {
        let mut next = map.clone();
        for y in 0..map.height() as i64 {
            for x in 0..map.width() as i64 {
                let mut n = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if (dx, dy) == (0, 0) {
                            continue;
                        }
                        n += match map.get(x + dx, y + dy) {
                            Ok(t) => (t == rule.alive) as usize,
                            Err(_) => rule.edge_alive as usize,
                        };
                    }
                }
                let t = map.get(x, y).unwrap();
                if t == rule.alive {
                    if !rule.survive[n] {
                        next.set(x, y, rule.dead).unwrap();
                    }
                } else if rule.birth[n] {
                    next.set(x, y, rule.alive).unwrap();
                }
            }
        }
        next
    }

    #[test]
    fn steps_match_the_definition() {
        let mut rng = Rng::new(4);
        for round in 0..30 {
            let (w, h) = (1 + rng.int(12) as usize, 1 + rng.int(9) as usize);
            let text: String = (0..h)
                .map(|_| {
                    let row: String = (0..w)
                        .map(|_| ['#', '.', '~'][rng.int(3) as usize])
                        .collect();
                    row + "\n"
                })
                .collect();
            let map = Map::from_ascii(&text).unwrap();
            let mut rule = if round % 2 == 0 {
                four_five()
            } else {
                CellularRule::new(Tile::FLOOR, Tile::WATER, &[3], &[2, 3]).unwrap()
            };
            rule.edge_alive = round % 3 != 0;
            let mut fast = map.clone();
            fast.cellular(&rule, 2);
            let slow = step_by_definition(&step_by_definition(&map, &rule), &rule);
            assert_eq!(fast.to_string(), slow.to_string(), "round {round}\n{text}");
        }
    }

    #[test]
    fn rules_are_checked() {
        assert!(CellularRule::new(Tile::WALL, Tile::FLOOR, &[9], &[]).is_err());
    }

    #[test]
    fn scatter_draws_once_per_cell_in_row_order() {
        let mut map = Map::new(4, 3).unwrap();
        map.fill(Tile::FLOOR);
        let area = Rect {
            x1: 1,
            y1: 1,
            x2: 2,
            y2: 1,
        };
        let mut rng = Rng::new(9);
        map.scatter(Tile::WALL, 0.5, &area, &mut rng).unwrap();
        let mut check = Rng::new(9);
        let want: Vec<bool> = (0..2).map(|_| check.float() < 0.5).collect();
        assert_eq!(map.get(1, 1).unwrap() == Tile::WALL, want[0]);
        assert_eq!(map.get(2, 1).unwrap() == Tile::WALL, want[1]);
        assert_eq!(map.count(Tile::WALL), want.iter().filter(|&&b| b).count());
        assert!(map
            .scatter(Tile::WALL, 0.5, &Rect::new(0, 0, 9, 9), &mut rng)
            .is_err());
    }
}
