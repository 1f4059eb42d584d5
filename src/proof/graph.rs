//! The dungeon as the proof sees it: each level's passable cells cut into
//! regions (4-connected, as the player walks), with the declared locks as
//! separators between them; the lock groups, keys, goals, stairs and drops
//! attached to the regions they touch. Built once per dungeon in time
//! linear in its cells, so the search works on a graph of a few hundred
//! regions instead of thousands of cells.

use super::puzzle::Puzzle;
use crate::map::{Map, Tile, SECRET_DOOR};

/// What a cell is to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// Rock, deep water, a secret door with `secrets = false`, a drop on
    /// the last level.
    Blocked,
    /// Walked on freely.
    Open,
    /// Shut until opened: the index of its rule in `Puzzle::locks`.
    Lock(u16),
    /// Stepping on it drops the player one level down.
    Drop,
    /// A goal cell (a goal marker on a cell of the last level the player
    /// can stand on): stepping on it finishes. Each is a region of its
    /// own, a separator between the cells around it, as the player who
    /// steps on it stops.
    Goal,
}

/// A cell of the dungeon: level (0-based), x, y.
pub(super) type At = (u32, i32, i32);

/// How the player leaves a region other than through a lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum MoveKind {
    StairsDown,
    StairsUp,
    Drop,
    /// A step onto a goal cell next to the region (or the door).
    Goal,
}

/// A way out of a region: from the cell `from` to region `to`, landing at
/// `landing`: the cell the player ends on (below a chain of drops, the
/// last one's).
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    pub kind: MoveKind,
    pub from: At,
    pub to: u32,
    pub landing: At,
}

/// Connected passable cells of one level (or the one cell a drop or a
/// stair lands the player on where they cannot move, with nothing in it).
#[derive(Clone, Debug, Default)]
pub(super) struct Region {
    pub level: u32,
    /// The goal cell it is, for a goal cell's region (only on the last
    /// level): the player who gets there has finished.
    pub goal: Option<(i32, i32)>,
    /// Keys lying in it (indices into `World::items`).
    pub items: Vec<u32>,
    /// Lock groups touching it.
    pub groups: Vec<u32>,
    pub moves: Vec<Move>,
}

/// Lock cells of one kind that touch each other: one door, opened once.
#[derive(Clone, Debug)]
pub(super) struct LockGroup {
    pub rule: u16,
    pub at: At,
    /// The regions on its sides, sorted.
    pub regions: Vec<u32>,
    /// Lock groups of other kinds touching it, sorted: a double door is
    /// passed by opening one, standing in it, and opening the next.
    pub links: Vec<u32>,
    /// Drops touching it (a chasm right behind a door is stepped on from
    /// the opened door) and stairs_down in it (taken from the opened door).
    pub moves: Vec<Move>,
    /// Its bit among the consumed locks, when its key is consumed.
    pub bit: Option<u8>,
}

/// A key marker.
#[derive(Clone, Debug)]
pub(super) struct KeyItem {
    pub at: At,
    /// Index into `World::key_names`.
    pub name: u16,
    /// The region it lies in; `None` on a cell nobody stands on.
    pub region: Option<u32>,
    /// The bit it sets in `picked`: its own for a consumed key, its
    /// name's for a kept one (holding two of a kept key is holding one).
    pub bit: u8,
}

/// Everything the search needs.
pub(super) struct World {
    pub levels: Vec<Level>,
    pub regions: Vec<Region>,
    pub groups: Vec<LockGroup>,
    pub items: Vec<KeyItem>,
    /// The distinct key names, sorted; `consumed[i]` for each.
    pub key_names: Vec<String>,
    pub consumed: Vec<bool>,
    /// Per key name: the `picked` bits of its keys, the `opened` bits of
    /// the locks it opens.
    pub item_mask: Vec<u128>,
    pub group_mask: Vec<u128>,
    pub start: u32,
    /// Goal-marked cells of the last level (on any cell), for sentences.
    pub goal_cells: Vec<At>,
    /// Each lock rule's key name (index into `key_names`).
    pub rule_key: Vec<usize>,
    /// Each level's tile kind names, by tile id.
    pub kind_names: Vec<Vec<String>>,
    /// The stuck regions by cell (looked up, never iterated).
    stuck_at: std::collections::HashMap<At, u32>,
}

/// One level's cells.
pub(super) struct Level {
    pub width: usize,
    pub height: usize,
    pub class: Vec<Class>,
    /// Region of every `Open` cell, `u32::MAX` elsewhere.
    pub region: Vec<u32>,
    /// Lock group of every `Lock` cell, `u32::MAX` elsewhere.
    pub group: Vec<u32>,
    pub tiles: Vec<Tile>,
    pub start: (i32, i32),
}

/// Why a world could not be built: a declaration that does not fit the
/// maps (an error in the script), or a dungeon too large to prove.
pub(super) enum BuildError {
    Declaration(String),
    TooLarge(String),
}

/// The most keys and consumed locks a proof tracks (bits of a `u128`).
pub(super) const MAX_BITS: usize = 128;

/// The most cells (over all levels) a proof looks at: it holds about 13
/// bytes a cell, so this bounds it near 200 MB whatever the dungeon.
pub const MAX_CELLS: usize = 16 << 20;

const NONE: u32 = u32::MAX;

impl Level {
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    fn cell(&self, i: usize) -> (i32, i32) {
        ((i % self.width) as i32, (i / self.width) as i32)
    }

    /// The 4-neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i % w, i / w);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then(|| i + w),
        ]
        .into_iter()
        .flatten()
    }
}

/// Each tile id's class on a level (`last`: no level below to drop to).
fn classes(map: &Map, puzzle: &Puzzle, last: bool) -> Vec<Class> {
    map.tiles()
        .iter()
        .map(|(_, kind)| {
            if let Some(rule) = puzzle.locks.iter().position(|l| l.kind == kind.name) {
                Class::Lock(rule as u16)
            } else if puzzle.one_way.contains(&kind.name) {
                if last {
                    Class::Blocked
                } else {
                    Class::Drop
                }
            } else if kind.name == SECRET_DOOR {
                if puzzle.secrets {
                    Class::Open
                } else {
                    Class::Blocked
                }
            } else if kind.walkable {
                Class::Open
            } else {
                Class::Blocked
            }
        })
        .collect()
}

/// Every declared kind must be one the maps define.
fn check_kinds(maps: &[&Map], puzzle: &Puzzle) -> Result<(), String> {
    let defined = |name: &str| maps.iter().any(|m| m.tiles().by_name(name).is_some());
    let known = || {
        let map = maps[0];
        map.tiles()
            .iter()
            .map(|(_, k)| k.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for rule in &puzzle.locks {
        if !defined(&rule.kind) {
            return Err(format!(
                "locks.{}: the map has no tile kind '{}' (it has {})",
                rule.kind,
                rule.kind,
                known()
            ));
        }
    }
    for kind in &puzzle.one_way {
        if !defined(kind) {
            return Err(format!(
                "one_way.{kind}: the map has no tile kind '{kind}' (it has {})",
                known()
            ));
        }
    }
    Ok(())
}

/// Labels the 4-connected components of cells for which `same(i, j)`
/// holds between neighbours, among cells with `member(i)`; each new label
/// from `next()`.
fn label(
    level: &Level,
    member: impl Fn(usize) -> bool,
    same: impl Fn(usize, usize) -> bool,
    out: &mut [u32],
    mut next: impl FnMut(usize) -> u32,
) {
    let mut stack = Vec::new();
    for first in 0..out.len() {
        if !member(first) || out[first] != NONE {
            continue;
        }
        let id = next(first);
        out[first] = id;
        stack.push(first);
        while let Some(i) = stack.pop() {
            for j in level.neighbours(i) {
                if out[j] == NONE && member(j) && same(i, j) {
                    out[j] = id;
                    stack.push(j);
                }
            }
        }
    }
}

/// Builds the world from the dungeon's levels (level 1 first).
pub(super) fn build(maps: &[&Map], puzzle: &Puzzle) -> Result<World, BuildError> {
    check_kinds(maps, puzzle).map_err(BuildError::Declaration)?;
    puzzle.check().map_err(BuildError::Declaration)?;
    let cells: usize = maps.iter().map(|m| m.cells().len()).sum();
    if cells > MAX_CELLS {
        return Err(BuildError::TooLarge(format!(
            "{cells} cells; the proof looks at most at {MAX_CELLS}"
        )));
    }
    let count = maps.len();
    let mut regions: Vec<Region> = Vec::new();
    let mut groups: Vec<LockGroup> = Vec::new();
    let mut levels: Vec<Level> = Vec::with_capacity(count);
    for (k, map) in maps.iter().enumerate() {
        let by_tile = classes(map, puzzle, k + 1 == count);
        let tiles = map.cells().to_vec();
        let class: Vec<Class> = tiles
            .iter()
            .map(|t| by_tile.get(t.index()).copied().unwrap_or(Class::Blocked))
            .collect();
        let mut class = class;
        if k + 1 == count {
            // Goal cells the player can stand on: each its own region.
            let w = map.width() as usize;
            for marker in map.markers() {
                let inside = marker.x >= 0
                    && marker.y >= 0
                    && (marker.x as usize) < w
                    && (marker.y as usize) < map.height() as usize;
                if inside && puzzle.goals.contains(&marker.name) {
                    let i = marker.y as usize * w + marker.x as usize;
                    if class[i] == Class::Open {
                        class[i] = Class::Goal;
                    }
                }
            }
        }
        let (sx, sy) = map.start().unwrap_or((0, 0));
        let mut level = Level {
            width: map.width() as usize,
            height: map.height() as usize,
            region: vec![NONE; class.len()],
            group: vec![NONE; class.len()],
            class,
            tiles,
            start: (sx, sy),
        };
        let mut region = std::mem::take(&mut level.region);
        label(
            &level,
            |i| level.class[i] == Class::Open,
            |_, _| true,
            &mut region,
            |_| {
                regions.push(Region {
                    level: k as u32,
                    ..Region::default()
                });
                regions.len() as u32 - 1
            },
        );
        label(
            &level,
            |i| level.class[i] == Class::Goal,
            |_, _| false,
            &mut region,
            |i| {
                regions.push(Region {
                    level: k as u32,
                    goal: Some(level.cell(i)),
                    ..Region::default()
                });
                regions.len() as u32 - 1
            },
        );
        level.region = region;
        let mut group = std::mem::take(&mut level.group);
        label(
            &level,
            |i| matches!(level.class[i], Class::Lock(_)),
            |i, j| level.class[i] == level.class[j],
            &mut group,
            |i| {
                let Class::Lock(rule) = level.class[i] else {
                    unreachable!("only lock cells are labelled")
                };
                let (x, y) = level.cell(i);
                groups.push(LockGroup {
                    rule,
                    at: (k as u32, x, y),
                    regions: Vec::new(),
                    links: Vec::new(),
                    moves: Vec::new(),
                    bit: None,
                });
                groups.len() as u32 - 1
            },
        );
        level.group = group;
        // Which regions and other lock groups each group touches.
        for i in 0..level.group.len() {
            let g = level.group[i];
            if g == NONE {
                continue;
            }
            for j in level.neighbours(i) {
                let r = level.region[j];
                if r != NONE {
                    groups[g as usize].regions.push(r);
                }
                let h = level.group[j];
                if h != NONE && h != g {
                    groups[g as usize].links.push(h);
                }
            }
        }
        levels.push(level);
    }
    for (g, group) in groups.iter_mut().enumerate() {
        group.regions.sort_unstable();
        group.regions.dedup();
        group.links.sort_unstable();
        group.links.dedup();
        for &r in &group.regions {
            regions[r as usize].groups.push(g as u32);
        }
    }
    // Consumed locks get a bit each.
    let consumed_groups = groups
        .iter()
        .filter(|g| puzzle.locks[g.rule as usize].consumed)
        .count();
    if consumed_groups > MAX_BITS {
        return Err(BuildError::TooLarge(format!(
            "{consumed_groups} consumed locks; the proof tracks at most {MAX_BITS}"
        )));
    }
    let mut key_names: Vec<String> = puzzle.locks.iter().map(|l| l.key.clone()).collect();
    key_names.sort();
    key_names.dedup();
    let consumed: Vec<bool> = key_names
        .iter()
        .map(|n| puzzle.locks.iter().any(|l| &l.key == n && l.consumed))
        .collect();
    let mut group_mask = vec![0u128; key_names.len()];
    let mut next_bit = 0u8;
    for group in groups.iter_mut() {
        let rule = &puzzle.locks[group.rule as usize];
        if rule.consumed {
            group.bit = Some(next_bit);
            let name = key_names.binary_search(&rule.key).unwrap_or(0);
            group_mask[name] |= 1 << next_bit;
            next_bit = next_bit.wrapping_add(1);
        }
    }
    // Keys and goals, from the markers.
    let mut items: Vec<KeyItem> = Vec::new();
    let mut item_mask = vec![0u128; key_names.len()];
    let mut kept_bit: Vec<Option<u8>> = vec![None; key_names.len()];
    let mut bits = 0usize;
    let mut goal_cells = Vec::new();
    for (k, map) in maps.iter().enumerate() {
        let level = &levels[k];
        for marker in map.markers() {
            let Some(i) = level.index(marker.x, marker.y) else {
                continue;
            };
            let r = level.region[i];
            let at = (k as u32, marker.x, marker.y);
            if k + 1 == count && puzzle.goals.contains(&marker.name) {
                goal_cells.push(at);
                if r != NONE && regions[r as usize].goal.is_none() {
                    regions[r as usize].goal = Some((marker.x, marker.y));
                }
            }
            let Ok(name) = key_names.binary_search(&marker.name) else {
                continue;
            };
            let bit = match (consumed[name], kept_bit[name]) {
                (false, Some(bit)) => bit,
                _ => {
                    if bits == MAX_BITS {
                        return Err(BuildError::TooLarge(format!(
                            "more than {MAX_BITS} keys; the proof tracks at most {MAX_BITS}"
                        )));
                    }
                    bits += 1;
                    let bit = (bits - 1) as u8;
                    if !consumed[name] {
                        kept_bit[name] = Some(bit);
                    }
                    bit
                }
            };
            item_mask[name] |= 1 << bit;
            let region = (r != NONE).then_some(r);
            if let Some(r) = region {
                regions[r as usize].items.push(items.len() as u32);
            }
            items.push(KeyItem {
                at,
                name: name as u16,
                region,
                bit,
            });
        }
    }
    let world_key = |key: &str| key_names.binary_search(&key.to_string()).unwrap_or(0);
    let rule_key: Vec<usize> = puzzle.locks.iter().map(|l| world_key(&l.key)).collect();
    let mut world = World {
        levels,
        regions,
        groups,
        items,
        key_names,
        consumed,
        item_mask,
        group_mask,
        start: 0,
        goal_cells,
        rule_key,
        kind_names: maps
            .iter()
            .map(|m| m.tiles().iter().map(|(_, k)| k.name.clone()).collect())
            .collect(),
        stuck_at: Default::default(),
    };
    world.start = world.land((0, world.levels[0].start.0, world.levels[0].start.1));
    add_moves(&mut world);
    Ok(world)
}

impl World {
    /// The region a player put at `at` stands in: its region, the region
    /// below for a drop cell, or a new stuck region of its own.
    /// A player landing on a lock cell stands in that door: they walk
    /// out of it when it is passable (or opened from inside), else stay.
    fn land(&mut self, at: At) -> u32 {
        self.land_at(at).0
    }

    /// [`land`](Self::land), and the cell the player ends on: below `at`
    /// when it is a drop cell (a chain of drops falls on).
    fn land_at(&mut self, at: At) -> (u32, At) {
        let (mut k, x, y) = at;
        let mut door = None;
        loop {
            let level = &self.levels[k as usize];
            let Some(i) = level.index(x, y) else {
                break;
            };
            match level.class[i] {
                Class::Open | Class::Goal => return (level.region[i], (k, x, y)),
                Class::Drop if (k as usize) + 1 < self.levels.len() => k += 1,
                Class::Lock(_) => {
                    door = Some(level.group[i]);
                    break;
                }
                _ => break,
            }
        }
        if let Some(&r) = self.stuck_at.get(&(k, x, y)) {
            return (r, (k, x, y));
        }
        self.stuck_at.insert((k, x, y), self.regions.len() as u32);
        self.regions.push(Region {
            level: k,
            groups: door.into_iter().collect(),
            ..Region::default()
        });
        (self.regions.len() as u32 - 1, (k, x, y))
    }

    pub fn is_goal(&self, region: u32) -> bool {
        self.regions[region as usize].goal.is_some()
    }
}

/// Touching `secret_door` cells the player does not pass (with
/// `secrets = false`): walls to the search, named by the sentences when
/// the way on is through one.
pub(super) struct SecretDoor {
    /// Its cells, in row order.
    pub cells: Vec<At>,
    /// The regions on its sides, sorted.
    pub regions: Vec<u32>,
    /// The lock groups touching it, sorted.
    pub groups: Vec<u32>,
}

impl World {
    /// Every shut secret door of the dungeon (none when secret doors are
    /// passable: their cells are then `Open`), level by level.
    pub fn secret_doors(&self) -> Vec<SecretDoor> {
        let mut doors: Vec<SecretDoor> = Vec::new();
        for (k, level) in self.levels.iter().enumerate() {
            let Some(secret) = self.kind_names[k].iter().position(|n| n == SECRET_DOOR) else {
                continue;
            };
            let shut =
                |i: usize| level.class[i] == Class::Blocked && level.tiles[i].index() == secret;
            let first = doors.len();
            let mut door = vec![NONE; level.class.len()];
            label(
                level,
                shut,
                |_, _| true,
                &mut door,
                |_| {
                    doors.push(SecretDoor {
                        cells: Vec::new(),
                        regions: Vec::new(),
                        groups: Vec::new(),
                    });
                    doors.len() as u32 - 1
                },
            );
            for (i, &d) in door.iter().enumerate() {
                if d == NONE {
                    continue;
                }
                let (x, y) = level.cell(i);
                let found = &mut doors[d as usize];
                found.cells.push((k as u32, x, y));
                for j in level.neighbours(i) {
                    if level.region[j] != NONE {
                        found.regions.push(level.region[j]);
                    }
                    if level.group[j] != NONE {
                        found.groups.push(level.group[j]);
                    }
                }
            }
            for found in &mut doors[first..] {
                found.regions.sort_unstable();
                found.regions.dedup();
                found.groups.sort_unstable();
                found.groups.dedup();
            }
        }
        doors
    }
}

/// Stairs and drops out of every region, the first cell of each kind and
/// destination kept (row order).
fn add_moves(world: &mut World) {
    let count = world.levels.len();
    let mut found: Vec<(u32, MoveKind, At, At)> = Vec::new();
    // Drops touching a lock group, and stairs in one (a lock cell is no
    // region's: the player takes them from the opened door): (group,
    // kind, cell, landing).
    let mut from_doors: Vec<(u32, MoveKind, At, At)> = Vec::new();
    for k in 0..count {
        let level = &world.levels[k];
        let last = k + 1 == count;
        let first_down_above = (k > 0).then(|| {
            let above = &world.levels[k - 1];
            (0..above.tiles.len())
                .find(|&i| above.tiles[i] == Tile::STAIRS_DOWN && above.class[i] == Class::Open)
                .map(|i| above.cell(i))
        });
        for i in 0..level.class.len() {
            let (x, y) = level.cell(i);
            match level.class[i] {
                // Stairs in a lock are taken from the opened door.
                class @ (Class::Open | Class::Lock(_))
                    if level.tiles[i] == Tile::STAIRS_DOWN && !last =>
                {
                    let (sx, sy) = world.levels[k + 1].start;
                    let from = (k as u32, x, y);
                    let landing = (k as u32 + 1, sx, sy);
                    if class == Class::Open {
                        found.push((level.region[i], MoveKind::StairsDown, from, landing));
                    } else {
                        from_doors.push((level.group[i], MoveKind::StairsDown, from, landing));
                    }
                }
                Class::Open if level.tiles[i] == Tile::STAIRS_UP && k > 0 => {
                    let above = &world.levels[k - 1];
                    let over = above.index(x, y).filter(|&j| {
                        above.tiles[j] == Tile::STAIRS_DOWN && above.class[j] == Class::Open
                    });
                    let target = match over {
                        Some(_) => Some((x, y)),
                        None => first_down_above.flatten(),
                    };
                    if let Some((tx, ty)) = target {
                        found.push((
                            level.region[i],
                            MoveKind::StairsUp,
                            (k as u32, x, y),
                            (k as u32 - 1, tx, ty),
                        ));
                    }
                }
                Class::Goal => {
                    // Stepping onto it from the region or the door beside.
                    for j in level.neighbours(i) {
                        if level.class[j] == Class::Open {
                            found.push((
                                level.region[j],
                                MoveKind::Goal,
                                (k as u32, x, y),
                                (k as u32, x, y),
                            ));
                        }
                    }
                }
                Class::Drop => {
                    for j in level.neighbours(i) {
                        if level.region[j] != NONE {
                            found.push((
                                level.region[j],
                                MoveKind::Drop,
                                (k as u32, x, y),
                                (k as u32 + 1, x, y),
                            ));
                        }
                        if level.group[j] != NONE {
                            from_doors.push((
                                level.group[j],
                                MoveKind::Drop,
                                (k as u32, x, y),
                                (k as u32 + 1, x, y),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Which (region, kind, destination) and (group, destination) have a
    // move already: looked up, never iterated.
    let mut seen: rustc_hash::FxHashSet<(u32, MoveKind, u32)> = Default::default();
    for (from_region, kind, from, landing) in found {
        let (to, landing) = world.land_at(landing);
        if seen.insert((from_region, kind, to)) {
            world.regions[from_region as usize].moves.push(Move {
                kind,
                from,
                to,
                landing,
            });
        }
    }
    let mut seen: rustc_hash::FxHashSet<(u32, MoveKind, u32)> = Default::default();
    for (group, kind, from, landing) in from_doors {
        let (to, landing) = world.land_at(landing);
        let moves = &mut world.groups[group as usize].moves;
        if seen.insert((group, kind, to)) {
            moves.push(Move {
                kind,
                from,
                to,
                landing,
            });
        }
    }
}
