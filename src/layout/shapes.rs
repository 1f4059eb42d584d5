//! Room templates and their shapes: a template is an ASCII prefab whose
//! legend says, per character, whether the cell is open (walkable) and
//! whether a door may go there; a [`Shape`] is one allowed turn or mirror
//! of it ([`crate::ops::orient`]: mirrored first, then turned clockwise),
//! with its door places and the direction each one faces.

use crate::ops::{orient, Mirror};

/// What one legend character of a template is, for the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellKind {
    /// The tile it puts down is walkable.
    pub open: bool,
    /// A door may go here; the socket (0 unless named) says which doors it
    /// may meet: only doors of the same socket join.
    pub door: Option<u32>,
}

/// A room template as the script gave it (rows already checked equally
/// long, every character but a space in `kinds`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateSpec {
    pub name: String,
    pub rows: Vec<String>,
    /// Sorted by character.
    pub kinds: Vec<(char, CellKind)>,
    pub rotate: bool,
    pub mirror: bool,
    pub unique: bool,
}

impl TemplateSpec {
    fn kind(&self, c: char) -> Option<CellKind> {
        self.kinds
            .binary_search_by_key(&c, |(k, _)| *k)
            .ok()
            .map(|i| self.kinds[i].1)
    }

    /// How many door places it has.
    pub fn door_count(&self) -> usize {
        self.rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| self.kind(c).is_some_and(|k| k.door.is_some()))
            .count()
    }
}

/// A door place of a shape: its cell (from the shape's top-left corner),
/// the direction out of the room, and its socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoorPlace {
    pub x: i32,
    pub y: i32,
    pub dir: (i32, i32),
    pub socket: u32,
}

/// One orientation of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub template: usize,
    pub rotate: u32,
    pub mirror: bool,
    pub w: i32,
    pub h: i32,
    /// The turned rows, as `map:stamp` puts them down.
    pub rows: Vec<String>,
    /// Every cell it covers (not a space) and whether it is open.
    pub cells: Vec<(i32, i32, bool)>,
    pub doors: Vec<DoorPlace>,
}

/// Up, right, down, left: the order directions are tried in.
const DIRS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The grid of a template's kinds (None: a space, outside the room).
fn grid(spec: &TemplateSpec, rows: &[String]) -> Vec<Vec<Option<CellKind>>> {
    rows.iter()
        .map(|r| r.chars().map(|c| spec.kind(c)).collect())
        .collect()
}

/// The direction a door place at `(x, y)` faces: the first whose cell in
/// front is outside the room and whose cell behind is open.
fn facing(g: &[Vec<Option<CellKind>>], x: i32, y: i32) -> Option<(i32, i32)> {
    let at = |x: i32, y: i32| -> Option<CellKind> {
        if x < 0 || y < 0 {
            return None;
        }
        g.get(y as usize)
            .and_then(|row| row.get(x as usize))
            .copied()
            .flatten()
    };
    DIRS.into_iter().find(|&(dx, dy)| {
        at(x + dx, y + dy).is_none() && at(x - dx, y - dy).is_some_and(|k| k.open)
    })
}

/// Checks every door place of a template faces out of it: a plain reason
/// naming the first that does not.
pub fn check_doors(spec: &TemplateSpec) -> Result<(), String> {
    let g = grid(spec, &spec.rows);
    for (y, row) in g.iter().enumerate() {
        for (x, kind) in row.iter().enumerate() {
            if kind.is_some_and(|k| k.door.is_some()) && facing(&g, x as i32, y as i32).is_none() {
                return Err(format!(
                    "template \"{}\": the door place at row {}, column {} is not on the room's edge with an open cell behind it",
                    spec.name,
                    y + 1,
                    x + 1
                ));
            }
        }
    }
    Ok(())
}

/// Every allowed orientation of template `index`, identical ones once
/// (the first in the order: turns 0, 90, 180, 270, then the same mirrored).
pub fn shapes_of(spec: &TemplateSpec, index: usize) -> Vec<Shape> {
    let turns: &[u32] = if spec.rotate {
        &[0, 90, 180, 270]
    } else {
        &[0]
    };
    let mirrors: &[bool] = if spec.mirror {
        &[false, true]
    } else {
        &[false]
    };
    let mut out: Vec<Shape> = Vec::new();
    for &mirror in mirrors {
        for &rotate in turns {
            let Ok(rows) = orient(&spec.rows, rotate, mirror.then_some(Mirror::X)) else {
                continue;
            };
            if out.iter().any(|s| s.rows == rows) {
                continue;
            }
            let g = grid(spec, &rows);
            let mut cells = Vec::new();
            let mut doors = Vec::new();
            for (y, row) in g.iter().enumerate() {
                for (x, kind) in row.iter().enumerate() {
                    let Some(kind) = kind else { continue };
                    let (x, y) = (x as i32, y as i32);
                    cells.push((x, y, kind.open));
                    if let (Some(socket), Some(dir)) = (kind.door, facing(&g, x, y)) {
                        doors.push(DoorPlace { x, y, dir, socket });
                    }
                }
            }
            out.push(Shape {
                template: index,
                rotate,
                mirror,
                w: rows.first().map_or(0, |r| r.chars().count()) as i32,
                h: rows.len() as i32,
                rows,
                cells,
                doors,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(rows: &[&str]) -> TemplateSpec {
        let k = |open, door| CellKind { open, door };
        TemplateSpec {
            name: "t".into(),
            rows: rows.iter().map(|r| r.to_string()).collect(),
            kinds: vec![
                ('#', k(false, None)),
                ('.', k(true, None)),
                ('D', k(false, Some(0))),
            ],
            rotate: true,
            mirror: true,
            unique: false,
        }
    }

    #[test]
    fn doors_face_out_of_the_room_in_every_turn() {
        let t = spec(&["###", "#.D", "###"]);
        let shapes = shapes_of(&t, 0);
        assert_eq!(
            shapes.len(),
            4,
            "mirrors repeat the turns of a symmetric room"
        );
        let dirs: Vec<(i32, i32)> = shapes.iter().map(|s| s.doors[0].dir).collect();
        assert_eq!(dirs, vec![(1, 0), (0, 1), (-1, 0), (0, -1)]);
        assert_eq!((shapes[1].doors[0].x, shapes[1].doors[0].y), (1, 2));
    }

    #[test]
    fn a_door_inside_the_room_is_refused() {
        let t = spec(&["#####", "#.D.#", "#####"]);
        let err = check_doors(&t).unwrap_err();
        assert!(err.contains("row 2, column 3"), "{err}");
        assert_eq!(spec(&["#D#", "#.#"]).door_count(), 1);
        assert!(check_doors(&spec(&["#D#", "#.#"])).is_ok());
    }
}
