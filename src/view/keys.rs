//! The player's keys in the window, by the completion proof's rules
//! (docs/guide/src/completion.md, "The model"): a key is picked up by
//! walking onto its marker; a kept key opens every lock of its kind while
//! held; a consumed key is spent on the first lock of its kind the player
//! walks into, and that lock (the group of touching cells of its kind)
//! stays open. Without this the window either walked through a locked door
//! whose kind is walkable (keys.lua's `locked_door`) or never through one
//! that is not, so the way the proof found could not be walked.

use std::collections::{BTreeMap, HashSet};

use crate::map::Map;
use crate::proof::{LockRule, Puzzle};

/// What the player holds and what they opened, over every level of one
/// dungeon (a new dungeon starts with none).
#[derive(Default)]
pub struct Keys {
    /// Key marker name -> how many are held.
    held: BTreeMap<String, u32>,
    /// Key markers already picked up: (level index, x, y, name).
    taken: HashSet<(usize, i32, i32, String)>,
    /// Cells of consumed locks opened: (level index, x, y).
    opened: HashSet<(usize, i32, i32)>,
}

/// The lock rule of the cell's tile kind, if the puzzle names it.
pub fn lock_at<'p>(puzzle: &'p Puzzle, map: &Map, x: i32, y: i32) -> Option<&'p LockRule> {
    let tile = map.get(x as i64, y as i64).ok()?;
    let kind = &map.tiles().kind(tile).name;
    puzzle.locks.iter().find(|l| &l.kind == kind)
}

impl Keys {
    /// Whether the lock `rule` at (x, y) of level `level` lets the player
    /// through now: opened before, or its kept key held.
    pub fn is_open(&self, level: usize, rule: &LockRule, x: i32, y: i32) -> bool {
        self.opened.contains(&(level, x, y)) || (!rule.consumed && self.count(&rule.key) > 0)
    }

    /// Spends a held key on the consumed lock `rule` at (x, y), opening
    /// its whole group of touching cells; false (nothing spent) when it
    /// is not a consumed lock, is open already, or no key is held.
    pub fn open(&mut self, level: usize, map: &Map, rule: &LockRule, x: i32, y: i32) -> bool {
        if !rule.consumed || self.opened.contains(&(level, x, y)) || self.count(&rule.key) == 0 {
            return false;
        }
        *self.held.get_mut(&rule.key).expect("counted above") -= 1;
        let Ok(kind) = map.get(x as i64, y as i64) else {
            return false;
        };
        let mut todo = vec![(x, y)];
        self.opened.insert((level, x, y));
        while let Some((cx, cy)) = todo.pop() {
            for (nx, ny) in [(cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)] {
                if map.get(nx as i64, ny as i64) == Ok(kind) && self.opened.insert((level, nx, ny))
                {
                    todo.push((nx, ny));
                }
            }
        }
        true
    }

    /// Picks up the keys marked at (x, y) of level `level` not picked up
    /// yet; returns their names. A key lying on a lock cell is never
    /// picked up (the proof counts the keys in the regions a player walks,
    /// and a lock cell is in none).
    pub fn pick_up(
        &mut self,
        level: usize,
        puzzle: &Puzzle,
        map: &Map,
        x: i32,
        y: i32,
    ) -> Vec<String> {
        let mut names = Vec::new();
        if lock_at(puzzle, map, x, y).is_some() {
            return names;
        }
        for marker in map.markers().iter().filter(|m| (m.x, m.y) == (x, y)) {
            let is_key = puzzle.locks.iter().any(|l| l.key == marker.name);
            if is_key && self.taken.insert((level, x, y, marker.name.clone())) {
                *self.held.entry(marker.name.clone()).or_default() += 1;
                names.push(marker.name.clone());
            }
        }
        names
    }

    /// How many keys named `key` are held.
    pub fn count(&self, key: &str) -> u32 {
        self.held.get(key).copied().unwrap_or(0)
    }

    /// The keys held, as the status line shows them: `key, small_key x2`;
    /// empty when none.
    pub fn text(&self) -> String {
        let held = self.held.iter().filter(|(_, &n)| n > 0);
        let words: Vec<String> = held
            .map(|(name, &n)| match n {
                1 => name.clone(),
                n => format!("{name} x{n}"),
            })
            .collect();
        words.join(", ")
    }
}
