//! Step-by-step replay of generation: a [`Journal`] records, after each
//! primitive call (or `map:snapshot`), the cells that changed, as changes
//! rather than copies, so a big map with thousands of steps stays small.
//! A [`Replay`] plays them backwards and forwards.

use crate::map::{Map, Tile};

/// One changed cell: row-major index, tile before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub index: u32,
    pub old: Tile,
    pub new: Tile,
}

/// One step of generation with the changes it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub label: String,
    pub changes: Vec<Change>,
    /// How many markers the map held after the step, and its start: so a
    /// viewer shows markers and the start only from the step that placed
    /// them.
    pub markers: usize,
    pub start: Option<(i32, i32)>,
}

/// Records steps while a script runs.
#[derive(Clone, Debug)]
pub struct Journal {
    initial: Vec<Tile>,
    /// The cells as of the last step.
    shadow: Vec<Tile>,
    steps: Vec<Step>,
    /// What the steps hold on the heap, kept as they are added.
    bytes: usize,
}

impl Journal {
    /// Starts recording from the map as it is now.
    pub fn new(map: &mut Map) -> Journal {
        map.take_dirty();
        Journal {
            initial: map.cells().to_vec(),
            shadow: map.cells().to_vec(),
            steps: Vec::new(),
            bytes: 0,
        }
    }

    /// The bytes the journal holds on the heap: two copies of the map's
    /// cells and every step's changes.
    pub fn heap_bytes(&self) -> usize {
        self.initial.len() + self.shadow.len() + self.bytes
    }

    /// Closes a step: the cells that differ from the last step, looked for
    /// only in the box written since. A step without changes is kept only
    /// when `keep_empty` (a script's own labelled snapshot).
    pub fn capture(&mut self, map: &mut Map, label: &str, keep_empty: bool) {
        let mut changes = Vec::new();
        for dirty in map.take_dirty() {
            let width = map.width() as usize;
            let cells = map.cells();
            for y in dirty.y1 as usize..=dirty.y2 as usize {
                let row = y * width + dirty.x1 as usize..=y * width + dirty.x2 as usize;
                let start = *row.start();
                for (offset, (&new, old)) in cells[row.clone()]
                    .iter()
                    .zip(self.shadow[row].iter_mut())
                    .enumerate()
                {
                    if *old != new {
                        let i = start + offset;
                        changes.push(Change {
                            index: i as u32,
                            old: *old,
                            new,
                        });
                        *old = new;
                    }
                }
            }
        }
        if !changes.is_empty() || keep_empty {
            self.bytes += std::mem::size_of::<Step>()
                + label.len()
                + changes.capacity() * std::mem::size_of::<Change>();
            self.steps.push(Step {
                label: label.to_string(),
                changes,
                markers: map.markers().len(),
                start: map.start(),
            });
        }
    }

    pub fn finish(self) -> Replay {
        Replay {
            initial: self.initial,
            steps: self.steps,
        }
    }
}

/// The recorded generation of one map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    initial: Vec<Tile>,
    steps: Vec<Step>,
}

impl Replay {
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The cells before the first step.
    pub fn initial(&self) -> &[Tile] {
        &self.initial
    }

    /// Moves `cells`, showing the map after `from` steps, to the map after
    /// `to` steps (both clamped to `0..=len`), and returns the new position.
    pub fn seek(&self, cells: &mut [Tile], from: usize, to: usize) -> usize {
        let (from, to) = (from.min(self.len()), to.min(self.len()));
        if to > from {
            for step in &self.steps[from..to] {
                for c in &step.changes {
                    cells[c.index as usize] = c.new;
                }
            }
        } else {
            for step in self.steps[to..from].iter().rev() {
                for c in step.changes.iter().rev() {
                    cells[c.index as usize] = c.old;
                }
            }
        }
        to
    }

    /// How many cell changes are recorded over all steps.
    pub fn change_count(&self) -> usize {
        self.steps.iter().map(|s| s.changes.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Rect;

    fn recorded() -> (Map, Replay) {
        let mut map = Map::new(6, 4).unwrap();
        let mut journal = Journal::new(&mut map);
        map.carve_room(&Rect::new(0, 0, 3, 3), Tile::FLOOR).unwrap();
        journal.capture(&mut map, "room", false);
        map.h_tunnel(2, 4, 1, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "tunnel", false);
        map.set(1, 1, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "no change", false);
        journal.capture(&mut map, "marker", true);
        map.set(4, 1, Tile::DOOR).unwrap();
        journal.capture(&mut map, "door", false);
        (map, journal.finish())
    }

    fn text(cells: &[Tile], like: &Map) -> String {
        let mut m = Map::new(like.width() as i64, like.height() as i64).unwrap();
        for (i, &t) in cells.iter().enumerate() {
            let w = like.width() as usize;
            m.set((i % w) as i64, (i / w) as i64, t).unwrap();
        }
        m.to_string()
    }

    #[test]
    fn records_only_steps_that_change_or_are_labelled() {
        let (_, replay) = recorded();
        let labels: Vec<&str> = replay.steps().iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["room", "tunnel", "marker", "door"]);
        assert_eq!(replay.steps()[0].changes.len(), 4);
        assert_eq!(
            replay.steps()[1].changes.len(),
            2,
            "only the new tunnel cells"
        );
        assert_eq!(replay.change_count(), 7);
    }

    #[test]
    fn an_l_tunnel_dirties_its_two_legs_not_its_bounding_box() {
        let mut map = Map::new(100, 100).unwrap();
        map.l_tunnel((1, 1), (98, 98), true, Tile::FLOOR).unwrap();
        let boxes = map.take_dirty();
        assert_eq!(boxes.len(), 2);
        let cells: i32 = boxes.iter().map(|b| (b.w() + 1) * (b.h() + 1)).sum();
        assert_eq!(cells, 98 + 98, "two thin legs, not 98x98 cells");
        assert!(map.take_dirty().is_empty());
    }

    #[test]
    fn seeks_back_and_forth() {
        let (map, replay) = recorded();
        let mut cells = replay.initial().to_vec();
        assert_eq!(text(&cells, &map), "######\n######\n######\n######\n");
        let at = replay.seek(&mut cells, 0, 1);
        assert_eq!(text(&cells, &map), "######\n#..###\n#..###\n######\n");
        let at = replay.seek(&mut cells, at, 2);
        assert_eq!(text(&cells, &map), "######\n#....#\n#..###\n######\n");
        let end = replay.seek(&mut cells, at, 99);
        assert_eq!(end, 4);
        assert_eq!(cells, map.cells());
        let back = replay.seek(&mut cells, end, 1);
        assert_eq!(back, 1);
        assert_eq!(text(&cells, &map), "######\n#..###\n#..###\n######\n");
        replay.seek(&mut cells, back, 0);
        assert_eq!(cells, replay.initial());
    }
}
