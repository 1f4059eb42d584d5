//! Turns an explored state graph into a [`Verdict`]: which outcome, and
//! one sentence naming the cells that decide it (the lock whose key is out
//! of reach, the move that strands the player), with the way tried.

use std::collections::VecDeque;

use super::graph::{At, Class, MoveKind, SecretDoor, World};
use super::search::{Budget, Explored, State, Step, MAX_WORK};
use super::{Outcome, ProofCell, Puzzle, Stop, Verdict};

/// `(x, y)`, with `on level k` when the dungeon has several.
fn place(world: &World, at: At) -> String {
    let (k, x, y) = at;
    if world.levels.len() > 1 {
        format!("({x}, {y}) on level {}", k + 1)
    } else {
        format!("({x}, {y})")
    }
}

fn cell(at: At) -> ProofCell {
    ProofCell {
        level: at.0 + 1,
        x: at.1,
        y: at.2,
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// The drop cells a chain of drops falls on through, between the first
/// one (`m.from`) and where the player ends (`m.landing`): empty, or
/// `lead` then the cells then `tail` (` and on through (4, 1) on level 2`).
fn on_through(world: &World, m: &super::graph::Move, lead: &str, tail: &str) -> String {
    let (k, x, y) = m.from;
    let between: Vec<At> = (k + 1..m.landing.0).map(|l| (l, x, y)).collect();
    if between.is_empty() {
        String::new()
    } else {
        format!("{lead}{}{tail}", places(world, &between))
    }
}

/// Up to three places, then how many more.
fn places(world: &World, cells: &[At]) -> String {
    let mut shown: Vec<String> = cells.iter().take(3).map(|&c| place(world, c)).collect();
    if cells.len() > 3 {
        shown.push(format!("{} more", cells.len() - 3));
    }
    match shown.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    }
}

/// The name of the tile at a cell.
fn tile_name<'a>(world: &World, maps_kind: &'a [Vec<String>], at: At) -> &'a str {
    let level = &world.levels[at.0 as usize];
    level
        .index(at.1, at.2)
        .and_then(|i| maps_kind[at.0 as usize].get(level.tiles[i].index()))
        .map(String::as_str)
        .unwrap_or("?")
}

pub(super) fn verdict(world: &World, explored: &Explored, puzzle: &Puzzle, stop: &Stop) -> Verdict {
    let names: Vec<Vec<String>> = world.kind_names.clone();
    let goal = puzzle.goal_words();
    let states = explored.states.len();
    let done = |outcome, sentence, cells: Vec<At>, path: Vec<At>| Verdict {
        outcome,
        sentence,
        cells: cells.into_iter().map(cell).collect(),
        path: path.into_iter().map(cell).collect(),
        states,
    };
    if !explored.good[0] {
        let (sentence, cells, path) = unfinishable(world, explored, puzzle, &names, stop);
        return done(Outcome::Unfinishable, sentence, cells, path);
    }
    let bad = explored
        .edges
        .iter()
        .find(|e| explored.good[e.from as usize] && !explored.good[e.to as usize]);
    if let Some(edge) = bad {
        let s = explored.states[edge.from as usize];
        let (what, at) = stranding_move(world, explored, puzzle, &names, &s, edge.step);
        let sentence = format!("{what} leaves the {goal} unreachable (softlock)");
        let path = path_to(world, explored, edge.from, at);
        return done(Outcome::Softlock, sentence, vec![at], path);
    }
    let reached = explored.states.iter().find_map(|s| {
        world.regions[s.region as usize]
            .goal
            .map(|g| (world.regions[s.region as usize].level, g.0, g.1))
    });
    let at = reached.unwrap_or((0, 0, 0));
    done(
        Outcome::Finishable,
        format!(
            "the {goal} at {} can be reached from the start and from every one of the {states} states the player can reach",
            place(world, at)
        ),
        vec![at],
        Vec::new(),
    )
}

/// What the step does, in words, and the cell it happens at.
fn stranding_move(
    world: &World,
    explored: &Explored,
    puzzle: &Puzzle,
    names: &[Vec<String>],
    s: &State,
    step: Step,
) -> (String, At) {
    let region = &world.regions[s.region as usize];
    match step {
        Step::Open(g) => {
            let group = &world.groups[g as usize];
            let rule = &puzzle.locks[group.rule as usize];
            (
                format!(
                    "spending {} {} on the {} at {} first",
                    article(&rule.key),
                    rule.key,
                    rule.kind,
                    place(world, group.at)
                ),
                group.at,
            )
        }
        Step::Move(_) | Step::DoorMove(..) => {
            let m = world.move_of(s, step).expect("a move step");
            let how = match m.kind {
                MoveKind::StairsDown => format!(
                    "taking the stairs_down at {} to level {}'s start",
                    place(world, m.from),
                    m.landing.0 + 1
                ),
                MoveKind::StairsUp => format!(
                    "taking the stairs_up at {} back to {}",
                    place(world, m.from),
                    place(world, m.landing)
                ),
                MoveKind::Drop => format!(
                    "falling through the {} at {}{} onto {}",
                    tile_name(world, names, m.from),
                    place(world, m.from),
                    on_through(world, &m, " and on through ", ""),
                    place(world, m.landing)
                ),
                // A step onto a goal finishes: it never strands anyone.
                MoveKind::Goal => format!("stepping onto {}", place(world, m.from)),
            };
            // Would it be fine with the keys lying here picked up first?
            let left: Vec<u32> = region
                .items
                .iter()
                .copied()
                .filter(|&i| s.picked & (1 << world.items[i as usize].bit) == 0)
                .collect();
            let all = left
                .iter()
                .fold(s.picked, |p, &i| p | 1 << world.items[i as usize].bit);
            let with_keys = State {
                region: m.to,
                picked: all,
                opened: s.opened,
            };
            let fine_with_keys = explored
                .states
                .iter()
                .position(|t| *t == with_keys)
                .is_some_and(|t| explored.good[t]);
            match left.first() {
                Some(&first) if fine_with_keys => {
                    let item = &world.items[first as usize];
                    let name = &world.key_names[item.name as usize];
                    (
                        format!(
                            "{how} before picking up the {name} at {}",
                            place(world, item.at)
                        ),
                        m.from,
                    )
                }
                _ => (how, m.from),
            }
        }
        Step::Through(g) => {
            let group = &world.groups[g as usize];
            (
                format!(
                    "going through the {} at {}",
                    puzzle.locks[group.rule as usize].kind,
                    place(world, group.at)
                ),
                group.at,
            )
        }
        Step::Pickup(i) => {
            let item = &world.items[i as usize];
            (
                format!(
                    "picking up the {} at {}",
                    world.key_names[item.name as usize],
                    place(world, item.at)
                ),
                item.at,
            )
        }
    }
}

/// Why no goal can be reached from the start, and the cells that say so.
fn unfinishable(
    world: &World,
    explored: &Explored,
    puzzle: &Puzzle,
    names: &[Vec<String>],
    stop: &Stop,
) -> (String, Vec<At>, Vec<At>) {
    let goal = puzzle.goal_words();
    let count = world.levels.len();
    let last = count as u32 - 1;
    let on_last = if count > 1 {
        format!(" on the last level (level {count})")
    } else {
        String::new()
    };
    if world.goal_cells.is_empty() {
        let marks = puzzle
            .goals
            .iter()
            .map(|g| format!("'{g}'"))
            .collect::<Vec<_>>()
            .join(" or ");
        return (
            format!("no cell is marked {marks}{on_last}"),
            Vec::new(),
            Vec::new(),
        );
    }
    if !world.regions.iter().any(|r| r.goal.is_some()) {
        let at = world.goal_cells[0];
        return (
            format!(
                "the {goal} at {} is on a {} cell, {}",
                place(world, at),
                tile_name(world, names, at),
                if puzzle
                    .locks
                    .iter()
                    .any(|l| l.kind == tile_name(world, names, at))
                {
                    "a door the player only passes through, where no goal is reached"
                } else {
                    "where the player cannot stand"
                }
            ),
            vec![at],
            Vec::new(),
        );
    }
    // A start on a lock cell stands the player in a shut door: they hold
    // no key yet, so they never step out of it.
    let level = &world.levels[0];
    let (sx, sy) = level.start;
    if let Some(i) = level.index(sx, sy) {
        if let Class::Lock(rule) = level.class[i] {
            let rule = &puzzle.locks[rule as usize];
            return (
                format!(
                    "the {} at {} needs {} {}; the player starts standing in it without one and cannot step out",
                    rule.kind,
                    place(world, (0, sx, sy)),
                    article(&rule.key),
                    rule.key
                ),
                vec![(0, sx, sy)],
                Vec::new(),
            );
        }
    }
    // A start on a cell the puzzle makes a wall (a one-way cell on the
    // last level, a secret door with secrets = false, rock).
    if let Some(i) = level.index(sx, sy) {
        if level.class[i] == Class::Blocked {
            let tile = tile_name(world, names, (0, sx, sy));
            let why = if puzzle.one_way.iter().any(|k| k == tile) {
                ", a one-way cell with no level below"
            } else if !puzzle.secrets && tile == "secret_door" {
                ", a wall with goal.secrets = false"
            } else {
                ""
            };
            return (
                format!(
                    "the player starts at {} on a {tile} cell{why}, where the player cannot stand",
                    place(world, (0, sx, sy))
                ),
                vec![(0, sx, sy)],
                Vec::new(),
            );
        }
    }
    let mut reached = vec![false; world.regions.len()];
    for s in &explored.states {
        reached[s.region as usize] = true;
    }
    // Secret doors are walls here only with `secrets = false`.
    let secrets = if puzzle.secrets {
        Vec::new()
    } else {
        world.secret_doors()
    };
    let (relaxed_group, relaxed_secret) = relaxed_finishers(world, &reached, &secrets);
    let goal_at = world
        .regions
        .iter()
        .find_map(|r| r.goal.map(|g| (last, g.0, g.1)))
        .unwrap_or(world.goal_cells[0]);
    // The first lock on the edge of what can be reached, beyond which a
    // goal could be reached were every lock open, and which no state
    // opens. For a region's own doors one state per region tells.
    // A lock is no blocker if some state that stands at it can pass or
    // open it (a key picked up past a one-way move, where the door is
    // never met again, does not count). Which states stand at each lock:
    // those in a region it touches, and those with it behind open doors.
    let mut usable = vec![false; world.groups.len()];
    // The first state (breadth first) to stand at each lock, in order;
    // and per lock the state standing at it holding the most of its keys.
    let mut touched: Vec<(u32, u32)> = Vec::new();
    let mut first_touch = vec![u32::MAX; world.groups.len()];
    let mut best: Vec<(u32, u32)> = vec![(0, u32::MAX); world.groups.len()];
    // The doors behind open doors are looked for under a budget of their
    // own (as large as the search's): past it, only the regions' own
    // doors are looked at.
    let mut budget = Budget::new(MAX_WORK, stop);
    for (i, s) in explored.states.iter().enumerate() {
        let own: &[u32] = &world.regions[s.region as usize].groups;
        if !budget.charge(1 + own.len() as u64) {
            break;
        }
        // The doors behind open doors depend on the keys held, so every
        // state's (none, unless the region's doors touch other doors).
        let (_, shut_behind) = world.doors_behind(s, &mut budget).unwrap_or_default();
        for &g in own.iter().chain(shut_behind.iter()) {
            let group = &world.groups[g as usize];
            let key = world.rule_key[group.rule as usize];
            let held = world.held(s, key);
            if world.passable(s, g) || (group.bit.is_some() && held > 0) {
                usable[g as usize] = true;
            }
            if first_touch[g as usize] == u32::MAX {
                first_touch[g as usize] = i as u32;
                touched.push((g, i as u32));
            }
            let picked = (s.picked & world.item_mask[key]).count_ones();
            if best[g as usize].1 == u32::MAX || picked > best[g as usize].0 {
                best[g as usize] = (picked, i as u32);
            }
        }
    }
    let blocker = touched
        .iter()
        .find(|&&(g, _)| relaxed_group[g as usize] && !usable[g as usize]);
    if let Some(&(g, i)) = blocker {
        let group = &world.groups[g as usize];
        let sentence = locked_out(
            world,
            explored,
            puzzle,
            &reached,
            g,
            best[g as usize].1,
            names,
        );
        let path = path_to(world, explored, i, group.at);
        let mut cells = vec![group.at];
        cells.extend(
            world
                .items
                .iter()
                .filter(|it| {
                    world.key_names[it.name as usize] == puzzle.locks[group.rule as usize].key
                })
                .map(|it| it.at)
                .take(8),
        );
        cells.push(goal_at);
        return (sentence, cells, path);
    }
    // No lock stands in the way: is a secret door the player stands
    // beside, beyond which a goal could be reached, the way on?
    if let Some((i, at)) = secret_in_the_way(world, explored, &secrets, &relaxed_secret) {
        return (
            format!(
                "the way to the {goal} at {} is through the {} at {}, which the puzzle says the player need not find (goal.secrets = false)",
                place(world, goal_at),
                tile_name(world, names, at),
                place(world, at)
            ),
            vec![at, goal_at],
            path_to(world, explored, i, at),
        );
    }
    // Nor a secret door: the goal is cut off.
    let deepest = explored
        .states
        .iter()
        .map(|s| world.regions[s.region as usize].level)
        .max()
        .unwrap_or(0);
    if deepest < last {
        // The ways on from that level the player does not reach, if any:
        // the sentence names them (it named only the goal, levels below).
        let unreached: Vec<At> = world
            .regions
            .iter()
            .enumerate()
            .filter(|&(r, region)| region.level == deepest && !reached[r])
            .flat_map(|(_, region)| &region.moves)
            // A door's drops and stairs, never taken.
            .chain(
                world
                    .groups
                    .iter()
                    .filter(|g| g.at.0 == deepest)
                    .flat_map(|g| &g.moves)
                    .filter(|m| !reached[m.to as usize]),
            )
            .filter(|m| {
                matches!(m.kind, MoveKind::StairsDown | MoveKind::Drop) && m.landing.0 > deepest
            })
            .map(|m| m.from)
            .collect();
        // A drop between two regions is one way on, not two.
        let mut unreached = unreached;
        let mut seen = std::collections::HashSet::new();
        unreached.retain(|at| seen.insert(*at));
        let why = match unreached.as_slice() {
            [] => "it has no stairs_down or drop that leads on".to_string(),
            [one] => format!(
                "the {} at {} cannot be reached from where the player gets to on that level",
                tile_name(world, names, *one),
                place(world, *one)
            ),
            many => format!(
                "none of its {} ways on ({}) can be reached from where the player gets to on that level",
                many.len(),
                places(world, many)
            ),
        };
        let mut cells = unreached;
        cells.truncate(8);
        cells.push(goal_at);
        return (
            format!(
                "no way down from level {}: {why}, so the {goal} at {} is out of reach",
                deepest + 1,
                place(world, goal_at)
            ),
            cells,
            Vec::new(),
        );
    }
    if count > 1 {
        // How the player first came down to the last level.
        let arrival = explored.edges.iter().find_map(|e| {
            let s = explored.states[e.from as usize];
            let m = world.move_of(&s, e.step)?;
            (m.landing.0 == last).then_some((e.from, m))
        });
        if let Some((from, m)) = arrival {
            let how = match m.kind {
                MoveKind::Drop => format!(
                    "the {} at {} drops the player{} onto {}",
                    tile_name(world, names, m.from),
                    place(world, m.from),
                    on_through(world, &m, ", on through ", ","),
                    place(world, m.landing)
                ),
                _ => format!(
                    "the stairs_down at {} lead to level {}'s start at ({}, {})",
                    place(world, m.from),
                    m.landing.0 + 1,
                    m.landing.1,
                    m.landing.2
                ),
            };
            return (
                format!(
                    "{how}, a pocket sealed off from the {goal} at {}",
                    place(world, goal_at)
                ),
                vec![m.from, m.landing, goal_at],
                path_to(world, explored, from, m.from),
            );
        }
    }
    let (sx, sy) = world.levels[0].start;
    (
        format!(
            "the {goal} at {} is cut off from the start at {}: no door, lock or passage leads there",
            place(world, goal_at),
            place(world, (0, sx, sy))
        ),
        vec![goal_at, (0, sx, sy)],
        Vec::new(),
    )
}

/// The first state (breadth first) in which the player stands beside one
/// of `secrets` beyond which a goal lies (`good`): in a region it touches,
/// or in an open door it touches; with the secret door's cell they stand
/// beside.
fn secret_in_the_way(
    world: &World,
    explored: &Explored,
    secrets: &[SecretDoor],
    good: &[bool],
) -> Option<(u32, At)> {
    if !good.contains(&true) {
        return None;
    }
    // The good secret doors beside each region and each lock group.
    let mut by_region: Vec<Vec<u32>> = vec![Vec::new(); world.regions.len()];
    let mut by_group: Vec<Vec<u32>> = vec![Vec::new(); world.groups.len()];
    for (d, door) in secrets.iter().enumerate().filter(|&(d, _)| good[d]) {
        for &r in &door.regions {
            by_region[r as usize].push(d as u32);
        }
        for &g in &door.groups {
            by_group[g as usize].push(d as u32);
        }
    }
    for (i, s) in explored.states.iter().enumerate() {
        let region = &world.regions[s.region as usize];
        let beside = by_region[s.region as usize].first().map(|&d| (d, None));
        let first = beside.or_else(|| {
            region
                .groups
                .iter()
                .filter(|&&g| world.passable(s, g))
                .find_map(|&g| by_group[g as usize].first().map(|&d| (d, Some(g))))
        });
        if let Some((d, door)) = first {
            // The secret door's cell next to the region (or the open door).
            let touches = |&(k, x, y): &At| {
                let level = &world.levels[k as usize];
                level.index(x, y).is_some_and(|c| {
                    level.neighbours(c).any(|j| match door {
                        None => level.region[j] == s.region,
                        Some(g) => level.group[j] == g,
                    })
                })
            };
            let cells = &secrets[d as usize].cells;
            let at = cells.iter().copied().find(touches).unwrap_or(cells[0]);
            return Some((i as u32, at));
        }
    }
    None
}

/// The sentence for lock group `g`, shut on the only way on.
fn locked_out(
    world: &World,
    explored: &Explored,
    puzzle: &Puzzle,
    reached: &[bool],
    g: u32,
    at: u32,
    names: &[Vec<String>],
) -> String {
    let group = &world.groups[g as usize];
    let rule = &puzzle.locks[group.rule as usize];
    let (kind, key) = (&rule.kind, &rule.key);
    let head = format!(
        "the {kind} at {} needs {} {key}",
        place(world, group.at),
        article(key)
    );
    let keys: Vec<&super::graph::KeyItem> = world
        .items
        .iter()
        .filter(|it| &world.key_names[it.name as usize] == key)
        .collect();
    if keys.is_empty() {
        let anywhere = if world.levels.len() > 1 {
            " on any level"
        } else {
            ""
        };
        return format!("{head}; there is none{anywhere}");
    }
    let picked: Vec<&super::graph::KeyItem> = keys
        .iter()
        .copied()
        .filter(|it| {
            explored
                .states
                .iter()
                .any(|s| s.picked & (1 << it.bit) != 0)
        })
        .collect();
    if picked.is_empty() {
        let behind = behind(world, puzzle, reached, g);
        let ways_in = reachable_with_every_way_open(world, reached);
        let why = |it: &super::graph::KeyItem| match it.region {
            None => "where no one can stand",
            Some(r) if behind[r as usize] => "behind it",
            Some(r) if ways_in[r as usize] => "behind another lock",
            Some(_) => "where no way leads, through any lock or secret door",
        };
        return match keys.as_slice() {
            [one] => format!(
                "{head}; the only {key} is at {}, {}",
                place(world, one.at),
                why(one)
            ),
            many => {
                let cells: Vec<At> = many.iter().map(|it| it.at).collect();
                let all_behind = many.iter().all(|it| why(it) == "behind it");
                format!(
                    "{head}; the {} {key}s, at {}, are all {}",
                    many.len(),
                    places(world, &cells),
                    if all_behind {
                        "behind it"
                    } else {
                        "out of reach"
                    }
                )
            }
        };
    }
    // The state standing at the lock with the most of its keys: one way
    // there, and what that way picked up and spent.
    let s = explored.states[at as usize];
    let held: Vec<At> = keys
        .iter()
        .filter(|it| s.picked & (1 << it.bit) != 0)
        .map(|it| it.at)
        .collect();
    if group.bit.is_some() && !held.is_empty() {
        let spent: Vec<At> = world
            .groups
            .iter()
            .filter(|o| {
                o.bit.is_some_and(|bit| {
                    puzzle.locks[o.rule as usize].key == *key && s.opened & (1 << bit) != 0
                })
            })
            .map(|o| o.at)
            .collect();
        let n = held.len();
        return format!(
            "{head}; only {n} {key}{} can be reached (at {}), spent on the {} at {} on the way",
            if n == 1 { "" } else { "s" },
            places(world, &held),
            match spent.len() {
                1 => "lock".to_string(),
                m => format!("{m} locks"),
            },
            places(world, &spent),
        );
    }
    // Keys picked up only where the lock is never met again: past a
    // one-way move (a drop, stairs with no way back up). Which move: the
    // last on the way to the first state holding one.
    let first = explored
        .states
        .iter()
        .position(|t| picked.iter().any(|it| t.picked & (1 << it.bit) != 0));
    let mut past = None;
    let mut state = first.map(|f| f as u32);
    while let Some(t) = state {
        let Some(e) = explored.parent[t as usize] else {
            break;
        };
        let edge = explored.edges[e as usize];
        if let Some(m) = world.move_of(&explored.states[edge.from as usize], edge.step) {
            past = Some(m);
            break;
        }
        state = Some(edge.from);
    }
    let cells: Vec<At> = picked.iter().map(|it| it.at).collect();
    let lies = match cells.as_slice() {
        [one] => format!("the only {key} is at {},", place(world, *one)),
        many => format!(
            "the {} {key}s, at {}, are all",
            many.len(),
            places(world, many)
        ),
    };
    match past {
        Some(m) => format!(
            "{head}; {lies} past the {} at {}, with no way back to the {kind}",
            tile_name(world, names, m.from),
            place(world, m.from)
        ),
        None => format!("{head}; {lies} where the player never gets back to the {kind} from"),
    }
}

/// Regions the player could reach were every lock and secret door open:
/// a key outside them is not behind another lock but cut off (a sealed
/// pocket, a stair down into it from a place nothing reaches).
fn reachable_with_every_way_open(world: &World, reached: &[bool]) -> Vec<bool> {
    let secrets = world.secret_doors();
    let mut secrets_of: Vec<Vec<u32>> = vec![Vec::new(); world.regions.len()];
    for (d, door) in secrets.iter().enumerate() {
        for &r in &door.regions {
            secrets_of[r as usize].push(d as u32);
        }
    }
    let mut seen = reached.to_vec();
    let mut queue: VecDeque<u32> = (0..world.regions.len() as u32)
        .filter(|&r| reached[r as usize])
        .collect();
    // Each group and secret door once: opening one leads to its regions.
    let mut groups_open = vec![false; world.groups.len()];
    let mut secrets_open = vec![false; secrets.len()];
    while let Some(r) = queue.pop_front() {
        let region = &world.regions[r as usize];
        let mut next: Vec<u32> = region.moves.iter().map(|m| m.to).collect();
        let mut groups: Vec<u32> = region.groups.clone();
        for &d in &secrets_of[r as usize] {
            if !std::mem::replace(&mut secrets_open[d as usize], true) {
                next.extend(&secrets[d as usize].regions);
                groups.extend(&secrets[d as usize].groups);
            }
        }
        while let Some(g) = groups.pop() {
            if std::mem::replace(&mut groups_open[g as usize], true) {
                continue;
            }
            let group = &world.groups[g as usize];
            next.extend(&group.regions);
            next.extend(group.moves.iter().map(|m| m.to));
            groups.extend(&group.links);
        }
        for to in next {
            if !std::mem::replace(&mut seen[to as usize], true) {
                queue.push_back(to);
            }
        }
    }
    seen
}

/// Regions reachable from lock group `g`'s far side with every other lock
/// shut, never entering what the player already reaches: what lies behind `g`.
fn behind(world: &World, puzzle: &Puzzle, reached: &[bool], g: u32) -> Vec<bool> {
    let _ = puzzle;
    let mut seen = vec![false; world.regions.len()];
    let mut queue: VecDeque<u32> = world.groups[g as usize]
        .regions
        .iter()
        .copied()
        .filter(|&r| !reached[r as usize])
        .collect();
    // A drop right behind the door leads on too.
    queue.extend(
        world.groups[g as usize]
            .moves
            .iter()
            .map(|m| m.to)
            .filter(|&r| !reached[r as usize]),
    );
    for &r in &queue {
        seen[r as usize] = true;
    }
    while let Some(r) = queue.pop_front() {
        for m in &world.regions[r as usize].moves {
            if !seen[m.to as usize] && !reached[m.to as usize] {
                seen[m.to as usize] = true;
                queue.push_back(m.to);
            }
        }
    }
    seen
}

/// The lock groups and the shut secret doors from which a goal could be
/// reached were every lock and secret door open and every key at hand,
/// without going back into a region the player reaches (`reached`): the
/// locks and secret doors beyond which the goal lies.
fn relaxed_finishers(
    world: &World,
    reached: &[bool],
    secrets: &[SecretDoor],
) -> (Vec<bool>, Vec<bool>) {
    // Nodes: the regions, then the lock groups, then the secret doors.
    let n = world.regions.len();
    let m = n + world.groups.len();
    let node_count = m + secrets.len();
    let mut into: Vec<Vec<u32>> = vec![Vec::new(); node_count];
    for (r, region) in world.regions.iter().enumerate() {
        for m in &region.moves {
            into[m.to as usize].push(r as u32);
        }
        // A door landed in is left through (not in the group's regions).
        for &g in &region.groups {
            into[n + g as usize].push(r as u32);
        }
    }
    for (g, group) in world.groups.iter().enumerate() {
        let node = (n + g) as u32;
        for &r in &group.regions {
            into[r as usize].push(node);
            into[node as usize].push(r);
        }
        for &h in &group.links {
            into[n + h as usize].push(node);
        }
        for m in &group.moves {
            into[m.to as usize].push(node);
        }
    }
    for (d, door) in secrets.iter().enumerate() {
        let node = (m + d) as u32;
        let groups = door.groups.iter().map(|&g| n as u32 + g);
        for other in door.regions.iter().copied().chain(groups) {
            into[other as usize].push(node);
            into[node as usize].push(other);
        }
    }
    let mut good = vec![false; node_count];
    let mut stack: Vec<u32> = (0..n as u32).filter(|&r| world.is_goal(r)).collect();
    for &r in &stack {
        good[r as usize] = true;
    }
    while let Some(node) = stack.pop() {
        for &f in &into[node as usize] {
            let is_reached = (f as usize) < n && reached[f as usize];
            if !good[f as usize] && !is_reached {
                good[f as usize] = true;
                stack.push(f);
            }
        }
    }
    let secret_good = good.split_off(m);
    (good.split_off(n), secret_good)
}

/// Where the player entered the level they are on in state `s`: the
/// landing of the last stair or drop on the way to it, else the start.
fn entry(world: &World, explored: &Explored, s: u32) -> At {
    let mut at = s;
    while let Some(e) = explored.parent[at as usize] {
        let edge = explored.edges[e as usize];
        let from = explored.states[edge.from as usize];
        if let Some(m) = world.move_of(&from, edge.step) {
            return m.landing;
        }
        at = edge.from;
    }
    let (x, y) = world.levels[0].start;
    (0, x, y)
}

/// The cells from the player's entry to their level (in state `s`) to
/// `target`, walking what is open in `s` (breadth first, so the shortest).
fn path_to(world: &World, explored: &Explored, s: u32, target: At) -> Vec<At> {
    let state = explored.states[s as usize];
    let from = entry(world, explored, s);
    if from.0 != target.0 {
        return Vec::new();
    }
    let level = &world.levels[target.0 as usize];
    let (Some(a), Some(b)) = (level.index(from.1, from.2), level.index(target.1, target.2)) else {
        return Vec::new();
    };
    let open = |i: usize| match level.class[i] {
        Class::Open => true,
        Class::Lock(_) => world.passable(&state, level.group[i]),
        _ => false,
    };
    let mut came = vec![u32::MAX; level.class.len()];
    came[a] = a as u32;
    let mut queue = VecDeque::from([a]);
    while let Some(i) = queue.pop_front() {
        if i == b {
            break;
        }
        for j in level.neighbours(i) {
            if came[j] == u32::MAX && (j == b || open(j)) {
                came[j] = i as u32;
                queue.push_back(j);
            }
        }
    }
    if came[b] == u32::MAX {
        return Vec::new();
    }
    let mut path = vec![b];
    let mut i = b;
    while i != a {
        i = came[i] as usize;
        path.push(i);
    }
    path.reverse();
    path.into_iter()
        .map(|i| (target.0, (i % level.width) as i32, (i / level.width) as i32))
        .collect()
}
