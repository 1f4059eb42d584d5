//! The script author's toolkit: `dunlua new`, `dunlua api`, the editor
//! annotations.

use crate::util::{dunlua, dunlua_in, root, Scratch};

#[test]
fn new_scripts_run_at_once_and_pass_check() {
    let scratch = Scratch::new();
    for from in ["template", "rooms", "caves", "vaults", "mixed", "maze"] {
        let name = format!("my_{from}");
        let run = dunlua_in(scratch.path(), &["new", &name, "--from", from]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let file = format!("{name}.lua");
        assert!(scratch.path().join(&file).exists());
        let check = dunlua_in(scratch.path(), &["check", &file, "--seeds", "50"]);
        assert_eq!(check.code, 0, "{from}: {}{}", check.stdout, check.stderr);
        assert!(
            check.stdout.contains("(50): 50 ok, 0 failed"),
            "{}",
            check.stdout
        );
    }
    // Without --from: the template.
    let run = dunlua_in(scratch.path(), &["new", "plain"]);
    assert_eq!(run.code, 0);
    let text = std::fs::read_to_string(scratch.path().join("plain.lua")).unwrap();
    assert!(
        text.contains("---@type Script") && text.contains("dunlua plain.lua --seed 1"),
        "{text}"
    );
}

#[test]
fn new_never_overwrites() {
    let scratch = Scratch::new();
    let mine = scratch.write("mine.lua", "-- my precious script\n");
    let run = dunlua_in(scratch.path(), &["new", "mine"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("mine.lua already exists"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(mine).unwrap(),
        "-- my precious script\n"
    );
    let run = dunlua_in(scratch.path(), &["new", "x", "--from", "nonsense"]);
    assert_eq!(run.code, 2);
    // A wrong name lists every valid one.
    for valid in dunlua::templates::NAMES {
        assert!(run.stderr.contains(valid), "{valid}: {}", run.stderr);
    }
}

/// The reference script's file name, or its path from the project, names
/// it as well as its bare name does; a mistyped one still gets the closest.
#[test]
fn new_takes_a_reference_script_by_its_file_name() {
    let scratch = Scratch::new();
    for (i, from) in ["caves.lua", "scripts/caves.lua", "scripts/caves"]
        .iter()
        .enumerate()
    {
        let name = format!("c{i}");
        let run = dunlua_in(scratch.path(), &["new", &name, "--from", from]);
        assert_eq!(run.code, 0, "{from}: {}", run.stderr);
        assert_eq!(
            std::fs::read_to_string(scratch.path().join(format!("{name}.lua"))).unwrap(),
            std::fs::read_to_string(root().join("scripts/caves.lua"))
                .unwrap()
                .replace("THIS_FILE", &format!("{name}.lua")),
            "{from}"
        );
    }
    let run = dunlua_in(scratch.path(), &["new", "d", "--from", "scripts/cave.lua"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "dunlua: unknown starting script 'scripts/cave.lua'; did you mean 'caves'?"
        ),
        "{}",
        run.stderr
    );
}

/// A script that needs `lib/features.lua` is not started beside another
/// file of that name (it would fail at its first run), and a missing
/// folder is a usage error like any wrong name: nothing is written.
#[test]
fn new_refuses_a_lib_it_would_not_run_with_and_a_missing_folder() {
    let scratch = Scratch::new();
    let mine = scratch.write("lib/features.lua", "-- mine\nreturn true\n");
    let run = dunlua_in(scratch.path(), &["new", "zz", "--from", "rooms"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("features.lua already exists and is not the one rooms needs"),
        "{}",
        run.stderr
    );
    assert!(!scratch.path().join("zz.lua").exists());
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "-- mine\nreturn true\n"
    );
    // The same file as the one it needs is fine (a second script beside the first).
    let other = Scratch::new();
    assert_eq!(
        dunlua_in(other.path(), &["new", "a", "--from", "rooms"]).code,
        0
    );
    let run = dunlua_in(other.path(), &["new", "b", "--from", "rooms"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = dunlua_in(other.path(), &["new", "no/such/x"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
}

#[test]
fn new_takes_every_reference_script() {
    let mut names: Vec<String> = dunlua::templates::NAMES
        .iter()
        .filter(|n| **n != "template")
        .map(|n| format!("{n}.lua"))
        .collect();
    names.sort();
    assert_eq!(names, crate::util::reference_scripts());
    let scratch = Scratch::new();
    for from in ["keys", "lakes", "digger", "river", "levels"] {
        let name = format!("my_{from}");
        let run = dunlua_in(scratch.path(), &["new", &name, "--from", from]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let file = format!("{name}.lua");
        let check = dunlua_in(scratch.path(), &["check", &file, "--seeds", "5"]);
        assert_eq!(check.code, 0, "{from}: {}{}", check.stdout, check.stderr);
    }
}

#[test]
fn api_prints_the_reference_and_the_annotations() {
    let run = dunlua(&["api"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("map:carve_room(r: Rect, t?: TileName)"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("rng:range(lo: integer, hi: integer) -> integer"));
    let luals = dunlua(&["api", "--luals"]);
    let committed = std::fs::read_to_string(root().join("types/dunlua.lua")).unwrap();
    assert_eq!(
        luals.stdout, committed,
        "types/dunlua.lua is what `dunlua api --luals` prints"
    );
    let luarc = std::fs::read_to_string(root().join(".luarc.json")).unwrap();
    let luarc: serde_json::Value = serde_json::from_str(&luarc).unwrap();
    assert_eq!(luarc["workspace.library"][0], "types");
}

#[test]
fn the_guide_rust_example_is_the_compiled_one() {
    // The README's Rust example moved to the guide's chapter on games.
    let readme = std::fs::read_to_string(root().join("docs/guide/src/game.md")).unwrap();
    let start = readme.find("```rust\n").expect("a Rust block") + "```rust\n".len();
    let block = &readme[start..start + readme[start..].find("```\n").unwrap()];
    let example = std::fs::read_to_string(root().join("examples/readme.rs")).unwrap();
    let code = &example[example.find("use dunlua::").unwrap()..];
    assert_eq!(
        block, code,
        "the guide's Rust block (game.md) is examples/readme.rs (cargo test builds it)"
    );
    // And it runs: from the project folder, where its script is.
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "--example", "readme"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("0 wall '#' walkable=false cells="),
        "{stdout}"
    );
    assert!(stdout.contains("bytes of JSON"), "{stdout}");
}
