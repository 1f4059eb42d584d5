//! The completion proof through the real binary and the library: fixture
//! scripts in tests/completion/ with known bad seeds (a key behind its own
//! lock, fewer consumed keys than locks on the only route, a consumed key
//! spent on the wrong door, a drop into a dead end, stairs into a sealed
//! pocket) are caught on exactly those seeds with a sentence naming the
//! right cells; the good seeds and the reference scripts pass.

use crate::util::{dunlua, root, Scratch};

/// `check FIXTURE --seeds 0..6 --json`: the report.
fn check(fixture: &str) -> serde_json::Value {
    let path = format!("tests/completion/{fixture}.lua");
    let run = dunlua(&["check", &path, "--seeds", "6", "--json", "--jobs", "2"]);
    assert_eq!(run.code, 1, "{fixture}: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// The one failure group of a report: kind, seeds, example sentence.
fn failure(report: &serde_json::Value) -> (String, Vec<u64>, String) {
    let groups = report["failures"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{report:#}");
    let g = &groups[0];
    (
        g["kind"].as_str().unwrap().to_string(),
        g["seeds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect(),
        g["example"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_key_behind_its_own_lock_is_unfinishable() {
    let report = check("key_behind");
    assert_eq!(report["ok"], 3);
    assert_eq!(
        failure(&report),
        (
            "unfinishable".into(),
            vec![1, 3, 5],
            "the locked_door at (6, 1) needs a key; the only key is at (8, 1), behind it".into()
        )
    );
}

/// A key no way leads to (walled in) is said to be so, not "behind another
/// lock" (which the sentence said of any key it could not reach); a key
/// behind a door of another kind still is.
#[test]
fn a_walled_in_key_is_not_said_to_be_behind_another_lock() {
    let report = check("key_cut_off");
    assert_eq!(report["ok"], 2);
    let (kind, seeds, example) = failure(&report);
    assert_eq!((kind.as_str(), seeds), ("unfinishable", vec![1, 2, 4, 5]));
    assert_eq!(
        example,
        "the locked_door at (6, 1) needs a key; the only key is at (3, 3), where no way leads, through any lock or secret door"
    );
    let run = dunlua(&[
        "check",
        "tests/completion/key_cut_off.lua",
        "--seeds",
        "2..3",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        failure(&report).2,
        "the locked_door at (6, 1) needs a key; the only key is at (3, 3), behind another lock"
    );
}

/// A level whose way down is walled off from the start: the sentence names
/// the stairs (it named only the goal, on the level below).
#[test]
fn stairs_down_cut_off_from_the_start_are_named() {
    let report = check("stairs_walled_off");
    assert_eq!(
        failure(&report),
        (
            "unfinishable".into(),
            vec![1, 3, 5],
            "no way down from level 1: the stairs_down at (10, 2) on level 1 cannot be reached from where the player gets to on that level, so the exit at (9, 2) on level 2 is out of reach".into()
        )
    );
}

#[test]
fn fewer_consumed_keys_than_locks_on_the_only_route() {
    let report = check("consumed_short");
    assert_eq!(
        failure(&report),
        (
            "unfinishable".into(),
            vec![0, 3],
            "the small_lock at (11, 1) needs a small_key; only 2 small_keys can be reached (at (2, 1) and (3, 1)), spent on the 2 locks at (7, 1) and (9, 1) on the way".into()
        )
    );
}

#[test]
fn a_consumed_key_spent_on_the_wrong_door_is_a_softlock() {
    let report = check("wrong_door");
    assert_eq!(
        failure(&report),
        (
            "softlock".into(),
            vec![1, 3, 5],
            "spending a small_key on the small_lock at (4, 3) first leaves the exit unreachable (softlock)".into()
        )
    );
}

#[test]
fn a_drop_into_a_dead_end_is_a_softlock() {
    let report = check("drop_dead_end");
    assert_eq!(
        failure(&report),
        (
            "softlock".into(),
            vec![1, 3, 5],
            "falling through the chasm at (2, 2) on level 1 onto (2, 2) on level 2 leaves the exit unreachable (softlock)".into()
        )
    );
}

/// Entering the exit's room is not finishing: the player who picks up the
/// key beside the exit without stepping on it, goes back up and spends
/// it, then falls into a pocket, is stranded (the proof said "ok", the
/// exit's whole region counting as the goal).
#[test]
fn leaving_the_goals_room_without_stepping_on_the_goal_can_strand() {
    let report = check("goal_room_key");
    assert_eq!(
        failure(&report),
        (
            "softlock".into(),
            vec![1, 3, 5],
            "falling through the chasm at (7, 1) on level 1 onto (7, 1) on level 2 leaves the exit unreachable (softlock)".into()
        )
    );
}

#[test]
fn stairs_into_a_sealed_pocket_are_unfinishable() {
    let report = check("sealed_stairs");
    assert_eq!(
        failure(&report),
        (
            "unfinishable".into(),
            vec![1, 3, 5],
            "the stairs_down at (10, 2) on level 1 lead to level 2's start at (2, 2), a pocket sealed off from the exit at (9, 2) on level 2".into()
        )
    );
}

#[test]
fn a_double_door_opens_in_turn_and_its_inner_lock_is_named() {
    let report = check("double_door");
    assert_eq!(report["ok"], 3, "{report:#}");
    assert_eq!(
        failure(&report),
        (
            "unfinishable".into(),
            vec![1, 3, 5],
            "the small_lock at (7, 1) needs a small_key; the only small_key is at (10, 1), behind it".into()
        )
    );
}

/// `check SCRIPT --seeds 1 --json` on a script written to a scratch
/// folder: the one failure's kind and sentence.
fn check_one(script: &str) -> (String, String) {
    let scratch = Scratch::new();
    let path = scratch.write("puzzle.lua", script);
    let run = dunlua(&["check", path.to_str().unwrap(), "--seeds", "1", "--json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let (kind, _, example) = failure(&report);
    (kind, example)
}

#[test]
fn a_secret_door_on_the_only_route_is_named_when_secrets_are_walls() {
    let (kind, sentence) = check_one(
        "return { width = 10, height = 3, goal = { goals = {'exit'}, secrets = false },
           generate = function(map)
             map:fill('wall') map:h_tunnel(1, 8, 1) map:set(4, 1, 'secret_door')
             map:set_start(1, 1) map:mark(8, 1, 'exit')
           end }",
    );
    assert_eq!(kind, "unfinishable");
    assert_eq!(
        sentence,
        "the way to the exit at (8, 1) is through the secret_door at (4, 1), which the puzzle says the player need not find (goal.secrets = false)"
    );
}

#[test]
fn a_start_on_a_walkable_kind_declared_a_lock_says_the_player_cannot_step_out() {
    // `door` is walkable; declared a lock it is shut until opened, and a
    // start on it stands the player in it with no key yet (not "the key
    // is behind it": the key lies in the open, beside the door).
    let (kind, sentence) = check_one(
        "return { width = 10, height = 3, goal = { goals = {'exit'} },
           locks = { door = { key = 'key' } },
           generate = function(map)
             map:fill('wall') map:h_tunnel(1, 8, 1) map:set(1, 1, 'door')
             map:set_start(1, 1) map:mark(4, 1, 'key') map:mark(8, 1, 'exit')
           end }",
    );
    assert_eq!(kind, "unfinishable");
    assert_eq!(
        sentence,
        "the door at (1, 1) needs a key; the player starts standing in it without one and cannot step out"
    );
}

#[test]
fn the_reference_puzzles_pass_with_a_proof_ms_row() {
    for script in ["scripts/keys.lua", "scripts/crypt.lua"] {
        let run = dunlua(&["check", script, "--seeds", "100", "--jobs", "2"]);
        assert_eq!(run.code, 0, "{script}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("\nproof_ms "), "{}", run.stdout);
    }
    // A script without a puzzle reports as before: no proof_ms at all.
    let run = dunlua(&["check", "scripts/rooms.lua", "--seeds", "5", "--json"]);
    assert_eq!(run.code, 0);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report.get("proof_ms").is_none(), "{report:#}");
}

#[test]
fn save_failures_writes_the_sentence_and_html_draws_the_cells() {
    let scratch = Scratch::new();
    let out = scratch.path().join("failures");
    let page = scratch.path().join("report.html");
    let run = dunlua(&[
        "check",
        "tests/completion/wrong_door.lua",
        "--seeds",
        "2",
        "--save-failures",
        out.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let sentence = std::fs::read_to_string(out.join("wrong_door-1.txt")).unwrap();
    assert_eq!(
        sentence,
        "spending a small_key on the small_lock at (4, 3) first leaves the exit unreachable (softlock)\n"
    );
    assert!(out.join("wrong_door-1.png").exists() && out.join("wrong_door-1.json").exists());
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("<p class=\"proof\">spending a small_key on the small_lock at (4, 3)"));
}

#[test]
fn shards_merge_into_the_same_proof_failures() {
    let scratch = Scratch::new();
    let (a, b) = (scratch.path().join("a.json"), scratch.path().join("b.json"));
    for (shard, out) in [("1/2", &a), ("2/2", &b)] {
        let run = dunlua(&[
            "check",
            "tests/completion/key_behind.lua",
            "--seeds",
            "6",
            "--shard",
            shard,
            "--shard-out",
            out.to_str().unwrap(),
        ]);
        assert!(run.stderr.contains("wrote"), "{}", run.stderr);
    }
    let merged = dunlua(&[
        "check",
        "--merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(failure(&report), failure(&check("key_behind")));
    assert!(report["proof_ms"]["max"].as_f64().unwrap() >= 0.0);
}

/// Each declaration mistake, and the one-line error naming it.
#[test]
fn wrong_declarations_are_clear_errors() {
    let scratch = Scratch::new();
    let body =
        "generate = function(map) map:fill('floor') map:set_start(1, 1) map:mark(2, 2, 'exit') end";
    for (declared, message) in [
        ("goal = 'exit'", "goal must be a table like { goals = {\"exit\"} }, got \"exit\""),
        ("goal = { goal = {'exit'} }", "goal has no field 'goal' (it takes goals and secrets)"),
        ("goal = {}", "goal.goals must list the marker names"),
        ("goal = { goals = {'exit', 3} }", "goal.goals[2] must be a marker name, got 3"),
        ("goal = { goals = {'exit'}, secrets = 'no' }", "goal.secrets must be true"),
        ("locks = { door = { key = 'key' } }", "locks and one_way need a goal"),
        ("goal = { goals = {'exit'} }, locks = { door = 'key' }", "locks.door must be a table like { key = \"key\" }"),
        ("goal = { goals = {'exit'} }, locks = { door = { kee = 'key' } }", "locks.door has no field 'kee' (it takes key and consumed)"),
        ("goal = { goals = {'exit'} }, locks = { door = { consumed = true } }", "locks.door needs key = \"<marker name>\""),
        ("goal = { goals = {'exit'} }, locks = { door = { key = 'k', consumed = 1 } }", "locks.door.consumed must be true or false, got 1"),
        ("goal = { goals = {'exit'} }, one_way = { water = 'up' }", "one_way.water must be \"down\""),
        ("goal = { goals = {'exit'} }, locks = { door = { key = 'k' }, water = { key = 'k', consumed = true } }", "locks: the key 'k' opens door (kept) and water (consumed)"),
    ] {
        let path = scratch.write("bad.lua", &format!("return {{ width = 5, height = 5, {declared}, {body} }}"));
        let run = dunlua(&[path.to_str().unwrap(), "--seed", "1", "--ascii"]);
        assert_ne!(run.code, 0, "{declared}");
        let line = run.stderr.lines().next().unwrap_or("");
        assert!(
            line.contains("bad.lua: ") && line.contains(message),
            "{declared}: {}",
            run.stderr
        );
    }
    // A kind the map never defines is found when the maps are proved.
    let path = scratch.write(
        "unknown.lua",
        &format!("return {{ width = 5, height = 5, goal = {{ goals = {{'exit'}} }}, locks = {{ locked_dor = {{ key = 'key' }} }}, {body} }}"),
    );
    let run = dunlua(&["check", path.to_str().unwrap(), "--seeds", "2"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("unknown.lua: locks.locked_dor: the map has no tile kind 'locked_dor' (it has wall, floor, door, stairs_down, stairs_up, water)"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_library_gives_the_verdict_to_a_game() {
    use dunlua::proof::{prove_levels, Outcome, ProofCell};
    let generator = dunlua::Generator::file(root().join("tests/completion/drop_dead_end.lua"))
        .build()
        .unwrap();
    let good = generator.generate_levels(0).unwrap();
    let verdict = prove_levels(&good).unwrap().unwrap();
    assert!(verdict.is_finishable(), "{}", verdict.sentence);
    let bad = generator.generate_levels(1).unwrap();
    let verdict = prove_levels(&bad).unwrap().unwrap();
    assert_eq!(verdict.outcome, Outcome::Softlock);
    assert_eq!(
        verdict.cells,
        vec![ProofCell {
            level: 1,
            x: 2,
            y: 2
        }]
    );
    assert!(!verdict.path.is_empty());
    // One level on its own, with the method on Generated.
    let keys = dunlua::Generator::file(root().join("scripts/keys.lua"))
        .build()
        .unwrap()
        .generate(7)
        .unwrap();
    assert_eq!(keys.prove().unwrap().unwrap().outcome, Outcome::Finishable);
    // No puzzle declared: nothing to prove.
    let rooms = dunlua::Generator::file(root().join("scripts/rooms.lua"))
        .build()
        .unwrap()
        .generate(7)
        .unwrap();
    assert!(rooms.prove().is_none());
}

/// `check FIXTURE --seeds 1 --json` with extra arguments: the report and
/// how long the run took.
fn check_seed(fixture: &str, extra: &[&str]) -> (serde_json::Value, f64) {
    let path = format!("tests/completion/{fixture}.lua");
    let mut args = vec!["check", &path, "--seeds", "1", "--json", "--no-variety"];
    args.extend(extra);
    let started = std::time::Instant::now();
    let run = dunlua(&args);
    let took = started.elapsed().as_secs_f64();
    assert_eq!(run.code, 1, "{fixture}: {}{}", run.stdout, run.stderr);
    (serde_json::from_str(&run.stdout).unwrap(), took)
}

/// 68,700 drops out of one region: the stranding one is named by its own
/// cell (a 16-bit index named the chasm at (327, 23), 65,536 moves
/// earlier), and at twice the size (274,000 drops) the moves are told
/// apart in linear time (compared pairwise it took 499 s; now the search
/// stops at its cap within a second or so).
#[test]
fn the_drop_past_65536_moves_is_named_and_many_drops_are_quick() {
    let (report, _) = check_seed("many_drops", &[]);
    assert_eq!(
        failure(&report).2,
        "falling through the chasm at (599, 459) on level 1 onto (599, 459) on level 2 leaves the exit unreachable (softlock)"
    );
    let (report, took) = check_seed("many_drops", &["--size", "1200x920", "--timeout", "5"]);
    assert_eq!(failure(&report).0, "unproved", "{report:#}");
    assert!(took < 20.0, "{took} s");
}
