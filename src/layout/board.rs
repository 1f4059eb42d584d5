//! The board a layout is built on: for every cell of the map, who holds it
//! (nobody, a room, a corridor, or walkable ground that was there before)
//! and, for walkable cells, which *piece* of the level it belongs to — a
//! room's floor, or one edge's doors and corridor. Two walkable cells that
//! touch (4-connected) must be the same piece or a room and one of its own
//! edges, so the finished level has no connection the graph lacks. Every
//! write is logged, so a placement is undone exactly.

use super::shapes::Shape;
use super::Edge;

/// Who holds a cell.
const FREE: u32 = 0;
const CORRIDOR: u32 = u32::MAX - 1;
/// Walkable before the layout started: never covered, never touched.
const FOREIGN: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    owner: u32,
    open: bool,
    piece: u32,
}

/// The board, with its undo log.
pub struct Board {
    w: i32,
    h: i32,
    cells: Vec<Cell>,
    log: Vec<(usize, Cell)>,
    rooms: u32,
    edges: Vec<Edge>,
}

impl Board {
    /// A board of `w x h` cells where `walkable(i)` says which cells (row
    /// major) are walkable already.
    pub fn new(
        w: i32,
        h: i32,
        rooms: usize,
        edges: &[Edge],
        walkable: impl Fn(usize) -> bool,
    ) -> Board {
        let cells = (0..w as usize * h as usize)
            .map(|i| {
                if walkable(i) {
                    Cell {
                        owner: FOREIGN,
                        open: true,
                        piece: FOREIGN,
                    }
                } else {
                    Cell {
                        owner: FREE,
                        open: false,
                        piece: FREE,
                    }
                }
            })
            .collect();
        Board {
            w,
            h,
            cells,
            log: Vec::new(),
            rooms: rooms as u32,
            edges: edges.to_vec(),
        }
    }

    /// Its width and height.
    pub fn size(&self) -> (i32, i32) {
        (self.w, self.h)
    }

    /// The bytes one write in the undo log holds.
    pub const LOG_ENTRY_BYTES: usize = std::mem::size_of::<(usize, Cell)>();

    /// The bytes a board of `cells` cells holds (before its log).
    pub fn bytes_for(cells: usize) -> usize {
        cells * std::mem::size_of::<Cell>()
    }

    /// The piece of edge `e`'s doors and corridor.
    fn edge_piece(&self, e: usize) -> u32 {
        self.rooms + e as u32
    }

    /// Whether walkable cells of pieces `p` and `q` may touch.
    fn may_touch(&self, p: u32, q: u32) -> bool {
        if p == q {
            return true;
        }
        let (room, edge) = match (p < self.rooms, q < self.rooms) {
            (true, false) => (p, q),
            (false, true) => (q, p),
            _ => return false,
        };
        let Some(e) = edge
            .checked_sub(self.rooms)
            .and_then(|e| self.edges.get(e as usize))
        else {
            return false;
        };
        e.a as u32 == room || e.b as u32 == room
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h).then(|| (y * self.w + x) as usize)
    }

    fn write(&mut self, i: usize, cell: Cell) {
        self.log.push((i, self.cells[i]));
        self.cells[i] = cell;
    }

    /// Where the log stands, for [`Board::undo_to`].
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes every write since `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some((i, old)) = self.log.pop() {
                self.cells[i] = old;
            }
        }
    }

    /// Whether the walkable cell at `(x, y)` touches only walkable cells
    /// it may touch.
    fn neighbours_fit(&self, x: i32, y: i32) -> bool {
        let Some(i) = self.index(x, y) else {
            return false;
        };
        let piece = self.cells[i].piece;
        [(0, -1), (1, 0), (0, 1), (-1, 0)]
            .into_iter()
            .filter_map(|(dx, dy)| self.index(x + dx, y + dy))
            .all(|j| !self.cells[j].open || self.may_touch(piece, self.cells[j].piece))
    }

    /// Puts room `room` down as `shape` with its corner at `(x, y)`: every
    /// cell on the board, covering only free cells or (solid on solid)
    /// another room's walls, its floor touching nothing foreign. Nothing
    /// changes when it does not fit.
    pub fn place_room(&mut self, room: usize, shape: &Shape, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x + shape.w > self.w || y + shape.h > self.h {
            return false;
        }
        let mark = self.mark();
        let owner = room as u32 + 1;
        for &(dx, dy, open) in &shape.cells {
            let Some(i) = self.index(x + dx, y + dy) else {
                self.undo_to(mark);
                return false;
            };
            let here = self.cells[i];
            if here.owner == FREE {
                let piece = if open { room as u32 } else { FREE };
                self.write(i, Cell { owner, open, piece });
            } else if open || here.open || here.owner == CORRIDOR || here.owner == FOREIGN {
                self.undo_to(mark);
                return false;
            }
            // Solid on another room's solid: shared wall, left as it is.
        }
        let fits = shape
            .cells
            .iter()
            .filter(|c| c.2)
            .all(|&(dx, dy, _)| self.neighbours_fit(x + dx, y + dy));
        if !fits {
            self.undo_to(mark);
        }
        fits
    }

    /// Opens the door place at `(x, y)` for edge `e`: it becomes walkable
    /// and part of the edge. False (nothing changed) when it would touch
    /// walkable cells of anything but the edge's own rooms.
    pub fn open_door(&mut self, x: i32, y: i32, e: usize) -> bool {
        let Some(i) = self.index(x, y) else {
            return false;
        };
        let here = self.cells[i];
        if here.owner == FREE || here.owner == CORRIDOR || here.owner == FOREIGN {
            return false;
        }
        let mark = self.mark();
        let piece = self.edge_piece(e);
        self.write(
            i,
            Cell {
                owner: here.owner,
                open: true,
                piece,
            },
        );
        if self.neighbours_fit(x, y) {
            true
        } else {
            self.undo_to(mark);
            false
        }
    }

    /// Lays edge `e`'s corridor over `path`: every cell free, touching
    /// only its own edge and rooms. Nothing changes when it does not fit.
    pub fn lay_corridor(&mut self, path: &[(i32, i32)], e: usize) -> bool {
        let mark = self.mark();
        let piece = self.edge_piece(e);
        for &(x, y) in path {
            let Some(i) = self.index(x, y) else {
                self.undo_to(mark);
                return false;
            };
            if self.cells[i].owner != FREE {
                self.undo_to(mark);
                return false;
            }
            self.write(
                i,
                Cell {
                    owner: CORRIDOR,
                    open: true,
                    piece,
                },
            );
        }
        if path.iter().all(|&(x, y)| self.neighbours_fit(x, y)) {
            true
        } else {
            self.undo_to(mark);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::shapes::{shapes_of, CellKind, TemplateSpec};

    fn room() -> Shape {
        let k = |open, door| CellKind { open, door };
        let spec = TemplateSpec {
            name: "t".into(),
            rows: ["#D#", "#.#", "###"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            kinds: vec![
                ('#', k(false, None)),
                ('.', k(true, None)),
                ('D', k(false, Some(0))),
            ],
            rotate: false,
            mirror: false,
            unique: false,
        };
        shapes_of(&spec, 0).remove(0)
    }

    #[test]
    fn rooms_share_walls_but_not_floors_and_undo_exactly() {
        let edges = [Edge { a: 0, b: 1 }];
        let mut b = Board::new(10, 10, 3, &edges, |_| false);
        assert!(b.place_room(0, &room(), 0, 0));
        // Side by side, sharing the wall column x = 2.
        assert!(b.place_room(1, &room(), 2, 0));
        // On top of room 0's floor: refused.
        assert!(!b.place_room(2, &room(), 0, 1));
        let mark = b.mark();
        assert!(b.lay_corridor(&[(4, 4), (5, 4)], 0));
        assert!(
            !b.lay_corridor(&[(5, 4)], 0),
            "a corridor never crosses another"
        );
        b.undo_to(mark);
        assert!(b.lay_corridor(&[(5, 4)], 0));
    }

    #[test]
    fn floors_of_unconnected_pieces_never_touch() {
        let edges = [Edge { a: 0, b: 1 }];
        let mut b = Board::new(10, 10, 2, &edges, |i| i == 55);
        assert!(b.place_room(0, &room(), 0, 0));
        // Room 0's door opened for edge 0, a corridor of edge 0 out of it.
        assert!(b.open_door(1, 0, 0));
        // A corridor beside walkable ground that was there before: refused.
        assert!(!b.lay_corridor(&[(5, 4)], 0));
        assert!(b.lay_corridor(&[(7, 7)], 0));
    }
}
