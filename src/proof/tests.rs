//! The proof on small drawn dungeons: each failure kind caught with the
//! right cells named, good ones proved.

use super::*;
use crate::map::{Map, Rgb, Tile, TileKind};

/// A level drawn with: `#` wall, `.` floor, `@` start, `L` locked_door
/// (kept key), `S` small_lock (consumed), `C` chasm (one way down), `>`
/// `<` stairs, `%` secret_door, and markers on floor: `k` key, `s`
/// small_key, `E` exit.
fn level(text: &str) -> Map {
    let rows: Vec<&str> = text.lines().collect();
    let (w, h) = (rows[0].len() as i64, rows.len() as i64);
    let mut map = Map::new(w, h).unwrap();
    let kind = |name: &str, walkable| TileKind {
        name: name.into(),
        glyph: '+',
        color: Rgb(255, 0, 0),
        background: Rgb(0, 0, 0),
        walkable,
        transparent: false,
    };
    let locked = map.tiles_mut().define(kind("locked_door", true)).unwrap();
    let small = map.tiles_mut().define(kind("small_lock", true)).unwrap();
    let chasm = map.tiles_mut().define(kind("chasm", false)).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let (x, y) = (x as i64, y as i64);
            let tile = match c {
                '#' => Tile::WALL,
                'L' => locked,
                'S' => small,
                'C' => chasm,
                '>' => Tile::STAIRS_DOWN,
                '<' => Tile::STAIRS_UP,
                '%' => map.tiles_mut().resolve_mut("secret_door").unwrap(),
                _ => Tile::FLOOR,
            };
            map.set(x, y, tile).unwrap();
            match c {
                '@' => map.set_start(x, y).unwrap(),
                'k' => map.mark(x, y, "key").unwrap(),
                's' => map.mark(x, y, "small_key").unwrap(),
                'E' => map.mark(x, y, "exit").unwrap(),
                _ => {}
            }
        }
    }
    map
}

fn puzzle() -> Puzzle {
    Puzzle {
        goals: vec!["exit".into()],
        secrets: true,
        locks: vec![
            LockRule {
                kind: "locked_door".into(),
                key: "key".into(),
                consumed: false,
            },
            LockRule {
                kind: "small_lock".into(),
                key: "small_key".into(),
                consumed: true,
            },
        ],
        one_way: vec!["chasm".into()],
    }
}

fn prove_text(levels: &[&str]) -> Verdict {
    let maps: Vec<Map> = levels.iter().map(|t| level(t)).collect();
    let refs: Vec<&Map> = maps.iter().collect();
    prove(&refs, &puzzle()).unwrap()
}

#[test]
fn a_key_before_its_door_is_finishable() {
    let v = prove_text(&["#########\n#@.k.L.E#\n#########"]);
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
}

#[test]
fn a_key_behind_its_own_door_is_named() {
    let v = prove_text(&["#########\n#@...LkE#\n#########"]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the locked_door at (5, 1) needs a key; the only key is at (6, 1), behind it"
    );
    assert_eq!(
        v.cells[0],
        ProofCell {
            level: 1,
            x: 5,
            y: 1
        }
    );
    assert_eq!(
        v.path.first(),
        Some(&ProofCell {
            level: 1,
            x: 1,
            y: 1
        })
    );
    assert_eq!(
        v.path.last(),
        Some(&ProofCell {
            level: 1,
            x: 5,
            y: 1
        })
    );
}

#[test]
fn fewer_consumed_keys_than_locks_on_the_only_route() {
    let v = prove_text(&["##########\n#@s.S.S.E#\n##########"]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the small_lock at (6, 1) needs a small_key; only 1 small_key can be reached (at (2, 1)), spent on the lock at (4, 1) on the way"
    );
}

#[test]
fn a_consumed_key_spent_on_the_wrong_door_is_a_softlock() {
    // One small_key; the lock up the side corridor leads nowhere.
    let v = prove_text(&["#########\n\
         ####.####\n\
         ####S####\n\
         #@s...S.E\n\
         #########"]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "spending a small_key on the small_lock at (4, 2) first leaves the exit unreachable (softlock)"
    );
    assert_eq!(
        v.cells,
        vec![ProofCell {
            level: 1,
            x: 4,
            y: 2
        }]
    );
}

#[test]
fn a_drop_into_a_dead_end_is_a_softlock() {
    let one = "#######\n#.C@.>#\n#######";
    let two = "#######\n#...#@#\n#####E#";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "falling through the chasm at (2, 1) on level 1 onto (2, 1) on level 2 leaves the exit unreachable (softlock)"
    );
}

#[test]
fn stairs_into_a_sealed_pocket_are_unfinishable() {
    let one = "#######\n#@..>.#\n#######";
    let two = "#######\n#@.#.E#\n#######";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the stairs_down at (4, 1) on level 1 lead to level 2's start at (1, 1), a pocket sealed off from the exit at (5, 1) on level 2"
    );
}

#[test]
fn a_drop_past_a_key_left_behind_names_the_key() {
    // The key lies beside the chasm; the lock is below.
    let one = "########\n#@k.C..#\n########";
    let two = "########\n#...@LE#\n########";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "falling through the chasm at (4, 1) on level 1 onto (4, 1) on level 2 before picking up the key at (2, 1) on level 1 leaves the exit unreachable (softlock)"
    );
}

#[test]
fn no_goal_marker_is_said_plainly() {
    let v = prove_text(&["#####\n#@..#\n#####"]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(v.sentence, "no cell is marked 'exit'");
}

#[test]
fn secret_doors_pass_unless_declared_walls() {
    let map = level("#######\n#@.%.E#\n#######");
    let mut p = puzzle();
    assert_eq!(prove(&[&map], &p).unwrap().outcome, Outcome::Finishable);
    p.secrets = false;
    let v = prove(&[&map], &p).unwrap();
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the way to the exit at (5, 1) is through the secret_door at (3, 1), which the puzzle says the player need not find (goal.secrets = false)"
    );
    assert_eq!(
        v.cells,
        vec![
            ProofCell {
                level: 1,
                x: 3,
                y: 1
            },
            ProofCell {
                level: 1,
                x: 5,
                y: 1
            }
        ]
    );
    assert_eq!(v.path.last(), Some(&v.cells[0]));
}

/// `prove_text` with `goal.secrets = false`.
fn prove_without_secrets(levels: &[&str]) -> Verdict {
    let maps: Vec<Map> = levels.iter().map(|t| level(t)).collect();
    let refs: Vec<&Map> = maps.iter().collect();
    let mut p = puzzle();
    p.secrets = false;
    prove(&refs, &p).unwrap()
}

#[test]
fn a_secret_door_beyond_an_opened_lock_is_named() {
    // Behind the locked_door a room, then the secret door.
    let v = prove_without_secrets(&["##########\n#@k.L.%.E#\n##########"]);
    assert_eq!(
        v.sentence,
        "the way to the exit at (8, 1) is through the secret_door at (6, 1), which the puzzle says the player need not find (goal.secrets = false)"
    );
    // Right behind the door: stepped on from the opened door.
    let v = prove_without_secrets(&["#########\n#@k.L%.E#\n#########"]);
    assert_eq!(
        v.sentence,
        "the way to the exit at (7, 1) is through the secret_door at (5, 1), which the puzzle says the player need not find (goal.secrets = false)"
    );
    // Two cells thick: the one the player stands beside is named.
    let v = prove_without_secrets(&["#########\n#@.%%.E.#\n#########"]);
    assert_eq!(
        v.sentence,
        "the way to the exit at (6, 1) is through the secret_door at (3, 1), which the puzzle says the player need not find (goal.secrets = false)"
    );
}

#[test]
fn a_secret_door_before_the_stairs_is_named_with_its_level() {
    let one = "#######\n#@.%.>#\n#######";
    let two = "#######\n#@...E#\n#######";
    let v = prove_without_secrets(&[one, two]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the way to the exit at (5, 1) on level 2 is through the secret_door at (3, 1) on level 1, which the puzzle says the player need not find (goal.secrets = false)"
    );
}

#[test]
fn a_secret_door_does_not_hide_a_missing_key() {
    // The secret door leads to a locked_door whose key does not exist:
    // the secret door is still the first thing in the way.
    let v = prove_without_secrets(&["##########\n#@.%.L.E.#\n##########"]);
    assert!(
        v.sentence.contains("secret_door at (3, 1)"),
        "{}",
        v.sentence
    );
    // With secrets found, the lock is what is in the way.
    let v = prove_text(&["##########\n#@.%.L.E.#\n##########"]);
    assert_eq!(
        v.sentence,
        "the locked_door at (5, 1) needs a key; there is none"
    );
}

#[test]
fn a_start_on_a_lock_cell_says_the_player_cannot_step_out() {
    // `locks` may name a walkable kind; a start on such a cell stands the
    // player in a shut door with no key yet, wherever the keys lie.
    for (text, kind, key) in [
        ("#######\n#L.k.E#\n#######", "locked_door", "a key"),
        ("#######\n#L...E#\n#######", "locked_door", "a key"),
        ("#######\n#S.s.E#\n#######", "small_lock", "a small_key"),
    ] {
        let mut map = level(text);
        map.set_start(1, 1).unwrap();
        let v = prove(&[&map], &puzzle()).unwrap();
        assert_eq!(v.outcome, Outcome::Unfinishable, "{text}");
        assert_eq!(
            v.sentence,
            format!("the {kind} at (1, 1) needs {key}; the player starts standing in it without one and cannot step out"),
        );
        assert_eq!(
            v.cells,
            vec![ProofCell {
                level: 1,
                x: 1,
                y: 1
            }]
        );
    }
}

#[test]
fn an_undefined_lock_kind_is_a_declaration_error() {
    let map = level("####\n#@E#\n####");
    let mut p = puzzle();
    p.locks[0].kind = "locked_dor".into();
    p.locks.sort_by(|a, b| a.kind.cmp(&b.kind));
    let err = prove(&[&map], &p).unwrap_err();
    assert!(
        err.starts_with("locks.locked_dor: the map has no tile kind 'locked_dor'"),
        "{err}"
    );
}

#[test]
fn keys_of_one_name_in_one_room_are_alike() {
    // 40 consumed keys in one room before 40 doors in a row: taken as
    // any subset they were 2^40 states (13 were too many); alike, they
    // are a count, and the doors a prefix (the player may walk back to
    // any opened room holding any count: about 40^3 / 2 states).
    let mut row = String::from("#@");
    row.push_str(&"s".repeat(40));
    row.push_str(&".S".repeat(40));
    row.push_str(".E#");
    let wall = "#".repeat(row.len());
    let v = prove_text(&[&format!("{wall}\n{row}\n{wall}")]);
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
    assert!(v.states < 40 * 40 * 40, "{}", v.states);
    // One door more than there are keys: the last is named.
    let mut row = String::from("#@");
    row.push_str(&"s".repeat(12));
    row.push_str(&".S".repeat(13));
    row.push_str(".E#");
    let wall = "#".repeat(row.len());
    let v = prove_text(&[&format!("{wall}\n{row}\n{wall}")]);
    assert_eq!(v.outcome, Outcome::Unfinishable, "{}", v.sentence);
    assert!(v.sentence.contains("(39, 1)"), "{}", v.sentence);
}

#[test]
fn more_keys_than_the_proof_tracks_stop_it() {
    // 200 consumed keys: more bits than a state holds.
    let mut row = String::from("#@");
    row.push_str(&"s".repeat(200));
    row.push_str("S.E#");
    let wall = "#".repeat(row.len());
    let v = prove_text(&[&format!("{wall}\n{row}\n{wall}")]);
    assert_eq!(v.outcome, Outcome::TooManyStates, "{}", v.sentence);
}

#[test]
fn an_eighty_by_fifty_map_with_ten_locks_is_fast() {
    // Ten kept locks in a row, keys each before its door.
    let mut text = String::new();
    for y in 0..50 {
        let mut row = String::new();
        for x in 0..80 {
            let c = if y == 0 || y == 49 || x == 0 || x == 79 {
                '#'
            } else if x % 7 == 0 && x < 71 {
                if y == 25 {
                    'L'
                } else {
                    '#'
                }
            } else if (x, y) == (1, 1) {
                '@'
            } else if (x, y) == (3, 3) {
                'k'
            } else if (x, y) == (77, 47) {
                'E'
            } else {
                '.'
            };
            row.push(c);
        }
        text.push_str(&row);
        text.push('\n');
    }
    let started = std::time::Instant::now();
    let v = prove_text(&[text.trim_end()]);
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
    assert!(started.elapsed().as_millis() < 500);
}

#[test]
fn two_locks_side_by_side_open_in_turn() {
    // A locked_door and a small_lock touching: a double door, passed
    // with both keys, in either order of the kinds.
    for row in ["#@ksLS..E#", "#@ksSL..E#"] {
        let v = prove_text(&[&format!("##########\n{row}\n##########")]);
        assert_eq!(v.outcome, Outcome::Finishable, "{row}: {}", v.sentence);
    }
    // Three kinds' worth of doors in a row, the middle one touching no floor.
    let v = prove_text(&["###########\n#@kssSLS.E#\n###########"]);
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
}

#[test]
fn the_inner_door_of_a_double_door_is_named() {
    // The kept key is there, the small key is not: the small_lock, behind
    // the locked_door, is the lock that stops the player.
    let v = prove_text(&["##########\n#@k.LS.sE#\n##########"]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the small_lock at (5, 1) needs a small_key; the only small_key is at (7, 1), behind it"
    );
    assert_eq!(
        v.cells[0],
        ProofCell {
            level: 1,
            x: 5,
            y: 1
        }
    );
    assert_eq!(
        v.path.last(),
        Some(&ProofCell {
            level: 1,
            x: 5,
            y: 1
        })
    );
}

#[test]
fn a_chasm_right_behind_a_door_is_a_way_down() {
    let one = "########\n#@s.SC.#\n########";
    let two = "########\n#.....E#\n########";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
    // Without the key, the door is what stops the player.
    let one = "########\n#@..SC.#\n########";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the small_lock at (4, 1) on level 1 needs a small_key; there is none on any level"
    );
}

/// Stairs that are a lock (`locks = { stairs_down = ... }`) lead on once
/// opened: they are taken from the opened door (they were no way down).
#[test]
fn locked_stairs_lead_on_once_opened() {
    let mut p = puzzle();
    p.locks.push(LockRule {
        kind: "stairs_down".into(),
        key: "key".into(),
        consumed: false,
    });
    p.locks.sort_by(|a, b| a.kind.cmp(&b.kind));
    let two = "#######\n#@...E#\n#######";
    let prove_with = |one: &str| {
        let maps = [level(one), level(two)];
        let refs: Vec<&Map> = maps.iter().collect();
        prove(&refs, &p).unwrap()
    };
    let v = prove_with("#######\n#@k.>.#\n#######");
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
    let v = prove_with("#######\n#@..>k#\n#######");
    assert_eq!(v.outcome, Outcome::Unfinishable);
    assert_eq!(
        v.sentence,
        "the stairs_down at (4, 1) on level 1 needs a key; the only key is at (5, 1) on level 1, behind it"
    );
}

#[test]
fn a_drop_from_a_door_into_a_dead_end_is_a_softlock() {
    // Spending the key on the door to the chasm strands the player; the
    // stairs were the way.
    let one = "#########\n#@s.SC..#\n#>#######\n#########";
    let two = "#########\n#@.E#.###\n#########\n#########";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "falling through the chasm at (5, 1) on level 1 onto (5, 1) on level 2 leaves the exit unreachable (softlock)"
    );
    assert_eq!(
        v.cells[0],
        ProofCell {
            level: 1,
            x: 5,
            y: 1
        }
    );
}

#[test]
fn a_drop_into_a_doorway_stands_the_player_in_the_door() {
    // The chasm lands the player on a locked_door of level 2: with the
    // key in hand they walk out of it to the exit; without, they are stuck.
    let one = "#######\n#@k.C.#\n#######";
    let two = "#######\n#...LE#\n#######";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "falling through the chasm at (4, 1) on level 1 onto (4, 1) on level 2 before picking up the key at (2, 1) on level 1 leaves the exit unreachable (softlock)"
    );
    let one = "#######\n#@..C.#\n#######";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Unfinishable, "{}", v.sentence);
    // A small_lock landed on is opened from inside with a small_key.
    let one = "#######\n#@s.C.#\n#######";
    let two = "#######\n#...SE#\n#######";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
}

#[test]
fn a_long_chain_of_double_doors_stops_at_the_work_cap() {
    // Columns of two kept door kinds, alternating: every column a door
    // touching the next, 240,000 doors in one chain, met in every state
    // (sixty small keys beside the start, picked up in any order, and
    // the exit behind small_locks). Stops quickly.
    let (w, h) = (1200i64, 200i64);
    let mut map = Map::new(w, h).unwrap();
    let kind = |name: &str| TileKind {
        name: name.into(),
        glyph: '+',
        color: Rgb(255, 0, 0),
        background: Rgb(0, 0, 0),
        walkable: true,
        transparent: false,
    };
    let a = map.tiles_mut().define(kind("a_door")).unwrap();
    let b = map.tiles_mut().define(kind("b_door")).unwrap();
    let c = map.tiles_mut().define(kind("small_lock")).unwrap();
    for y in 0..h {
        for x in 0..w {
            let t = if (x + y) % 2 == 0 { a } else { b };
            map.set(x, y, t).unwrap();
        }
    }
    map.set(0, 0, Tile::FLOOR).unwrap();
    map.set(w - 1, h - 1, Tile::FLOOR).unwrap();
    map.set(w - 2, h - 1, c).unwrap();
    map.set(w - 1, h - 2, c).unwrap();
    map.set_start(0, 0).unwrap();
    map.mark(0, 0, "ka").unwrap();
    map.mark(0, 0, "kb").unwrap();
    for x in 1..61 {
        map.set(x, 0, Tile::FLOOR).unwrap();
        map.mark(x, 0, "small_key").unwrap();
    }
    map.mark(w - 1, h - 1, "exit").unwrap();
    let rule = |kind: &str, key: &str, consumed| LockRule {
        kind: kind.into(),
        key: key.into(),
        consumed,
    };
    let p = Puzzle {
        goals: vec!["exit".into()],
        secrets: true,
        locks: vec![
            rule("a_door", "ka", false),
            rule("b_door", "kb", false),
            rule("small_lock", "small_key", true),
        ],
        one_way: Vec::new(),
    };
    let started = std::time::Instant::now();
    let v = prove(&[&map], &p).unwrap();
    assert_eq!(v.outcome, Outcome::TooManyStates, "{}", v.sentence);
    let limit = if cfg!(debug_assertions) { 60.0 } else { 5.0 };
    assert!(
        started.elapsed().as_secs_f64() < limit,
        "{:?}",
        started.elapsed()
    );
}

/// A room with 17 kept keys (2^17 ways to hold them) beside one open door
/// of kind `a` touching 2,500 shut one-cell doors of kind `b`: every
/// state walks the door's links. Each link is charged, so the search
/// stops at the work cap instead of walking 300 million links (it said
/// "unfinishable" after seconds, and the explanation walked them again
/// with no cap at all).
#[test]
fn the_links_behind_an_open_door_are_charged_to_the_work_cap() {
    let (w, h) = (100i64, 100i64);
    let mut map = Map::new(w, h).unwrap();
    let kind = |name: &str| TileKind {
        name: name.into(),
        glyph: '+',
        color: Rgb(255, 0, 0),
        background: Rgb(0, 0, 0),
        walkable: true,
        transparent: false,
    };
    let a = map.tiles_mut().define(kind("adoor")).unwrap();
    let b = map.tiles_mut().define(kind("bdoor")).unwrap();
    let mut locks = vec![
        LockRule {
            kind: "adoor".into(),
            key: "ka".into(),
            consumed: false,
        },
        LockRule {
            kind: "bdoor".into(),
            key: "kb".into(),
            consumed: false,
        },
    ];
    for i in 1..=16 {
        map.tiles_mut().define(kind(&format!("l{i}"))).unwrap();
        locks.push(LockRule {
            kind: format!("l{i}"),
            key: format!("k{i}"),
            consumed: false,
        });
    }
    for y in 0..h {
        for x in 0..w {
            map.set(x, y, a).unwrap();
        }
    }
    for x in 0..w {
        map.set(x, 0, Tile::FLOOR).unwrap();
        map.set(x, 1, Tile::FLOOR).unwrap();
    }
    for y in (3..h - 1).step_by(2) {
        for x in 1..w {
            map.set(x, y, if x % 2 == 0 { b } else { Tile::WALL })
                .unwrap();
        }
    }
    for x in 0..w {
        map.set(x, h - 1, Tile::WALL).unwrap();
    }
    map.set(w - 1, h - 1, Tile::FLOOR).unwrap();
    map.set(w - 1, h - 2, b).unwrap();
    map.mark(w - 1, h - 1, "exit").unwrap();
    map.set_start(0, 0).unwrap();
    map.mark(1, 0, "ka").unwrap();
    for i in 1..=16 {
        map.mark(1 + i, 0, &format!("k{i}")).unwrap();
    }
    locks.sort_by(|x, y| x.kind.cmp(&y.kind));
    let p = Puzzle {
        goals: vec!["exit".into()],
        secrets: true,
        locks,
        one_way: Vec::new(),
    };
    let v = prove(&[&map], &p).unwrap();
    assert_eq!(v.outcome, Outcome::TooManyStates, "{}", v.sentence);
    assert!(v.states < MAX_STATES, "{}", v.states);
}

/// A proof given a deadline that has passed, or a cancelled flag, stops
/// and says so (check's `--timeout` covers the proof too).
#[test]
fn a_passed_deadline_or_a_cancel_stops_the_proof() {
    let maps = [level("#########\n#@.k.L.E#\n#########")];
    let refs: Vec<&Map> = maps.iter().collect();
    let past = Stop {
        deadline: Some(std::time::Instant::now()),
        cancel: None,
    };
    let cancelled = Stop {
        deadline: None,
        cancel: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            true,
        ))),
    };
    for stop in [past, cancelled] {
        let v = prove_until(&refs, &puzzle(), &stop).unwrap();
        assert_eq!(v.outcome, Outcome::TooManyStates, "{}", v.sentence);
        assert!(v.sentence.contains("deadline passed"), "{}", v.sentence);
    }
    let v = prove_until(&refs, &puzzle(), &Stop::default()).unwrap();
    assert_eq!(v.outcome, Outcome::Finishable, "{}", v.sentence);
}

/// A chasm over a chasm: the player falls on to level 3, and the sentence
/// names where they end, not the chasm they pass through on level 2 (it
/// said "onto (4, 1) on level 2"); when that is the only way down, the
/// pocket is said to be reached by the drop (it said no passage leads
/// there, naming the start without its level).
#[test]
fn a_chain_of_drops_is_named_by_where_the_player_ends() {
    let one = "#######\n#@>.C##\n#######";
    let two = "#######\n#@>.C##\n#######";
    let three = "#######\n#@E#.##\n#######";
    let v = prove_text(&[one, two, three]);
    assert_eq!(v.outcome, Outcome::Softlock, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "falling through the chasm at (4, 1) on level 1 and on through (4, 1) on level 2 onto (4, 1) on level 3 leaves the exit unreachable (softlock)"
    );
    let one = "#######\n#@..C##\n#######";
    let two = two.replace('>', ".");
    let v = prove_text(&[one, &two, three]);
    assert_eq!(v.outcome, Outcome::Unfinishable, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "the chasm at (4, 1) on level 1 drops the player, on through (4, 1) on level 2, onto (4, 1) on level 3, a pocket sealed off from the exit at (2, 1) on level 3"
    );
}

/// One small_key, two small_locks beside it that lead the same way, a
/// third on the way on: the sentence names the one lock one way spends
/// it on (it named every lock any state opened, "the 2 locks at (4, 1)
/// and (3, 2)").
#[test]
fn the_locks_named_as_spent_are_those_of_one_way() {
    let v = prove_text(&["##########\n#@s.S.S.E#\n###S######\n###.######\n##########"]);
    assert_eq!(v.outcome, Outcome::Unfinishable, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "the small_lock at (6, 1) needs a small_key; only 1 small_key can be reached (at (2, 1)), spent on the lock at (4, 1) on the way"
    );
}

/// The door's only key lies past a drop with no way back: the door is
/// named, and the drop (it spoke of the pocket the drop leads to).
#[test]
fn a_key_past_a_drop_names_the_door_it_cannot_open() {
    let one = "############\n#@..L..>####\n#..C########\n############";
    let two = "############\n#######@...E\n##.k.#######\n############";
    let v = prove_text(&[one, two]);
    assert_eq!(v.outcome, Outcome::Unfinishable, "{}", v.sentence);
    assert_eq!(
        v.sentence,
        "the locked_door at (4, 1) on level 1 needs a key; the only key is at (3, 2) on level 2, past the chasm at (3, 2) on level 1, with no way back to the locked_door"
    );
}

/// A start on a cell the model makes a wall says so (it said the goal was
/// cut off, "no door, lock or passage leads there", with floor between);
/// a chasm touching two unreached regions is one way on, named once; a
/// goal on a lock cell is said to be in a door passed through.
#[test]
fn a_start_on_a_wall_a_chasm_named_once_and_a_goal_in_a_door() {
    let mut map = level("#####\n#..E#\n#####");
    map.set(1, 1, map.tiles().by_name("chasm").unwrap())
        .unwrap();
    map.set_start(1, 1).unwrap();
    let v = prove(&[&map], &puzzle()).unwrap();
    assert_eq!(
        v.sentence,
        "the player starts at (1, 1) on a chasm cell, a one-way cell with no level below, where the player cannot stand"
    );
    let v = prove_text(&["#######\n#@#.C.#\n#######", "#######\n#@..E.#\n#######"]);
    assert_eq!(
        v.sentence,
        "no way down from level 1: the chasm at (4, 1) on level 1 cannot be reached from where the player gets to on that level, so the exit at (4, 1) on level 2 is out of reach"
    );
    let mut map = level("######\n#@..L#\n######");
    map.mark(4, 1, "exit").unwrap();
    let v = prove(&[&map], &puzzle()).unwrap();
    assert_eq!(
        v.sentence,
        "the exit at (4, 1) is on a locked_door cell, a door the player only passes through, where no goal is reached"
    );
}
