//! `--color`: the text map on a terminal shows markers that share a letter
//! in different colours; `--color never`, `NO_COLOR`, pipes and files get
//! the plain text. Terminals are real: `script` gives the run a pty.

use std::process::Command;

use crate::util::{dunlua_in, Scratch};

/// Two names showing `K`, one with a look of its own, one on its tile.
const SCRIPT: &str = r##"
markers.define("treasure", { glyph = "$", color = "#ffd700" })
return { width = 9, height = 3, generate = function(map)
  map:fill("floor")
  map:mark(1, 1, "key") map:mark(3, 1, "knife") map:mark(5, 1, "treasure")
  map:set(7, 1, "stairs_down") map:mark(7, 1, "stairs_down")
  map:set_start(0, 0)
end }
"##;

const PLAIN: &str = "@........\n.K.K.$.>.\n.........\n";

/// The escape that starts each marker's colour in `text`, in row order.
fn colour_escapes(text: &str) -> Vec<String> {
    text.split("\x1b[")
        .skip(1)
        .map(|s| s[..s.find('m').unwrap() + 1].to_string())
        .filter(|e| e != "0m")
        .collect()
}

#[test]
fn always_colours_same_letter_markers_differently() {
    let scratch = Scratch::new();
    scratch.write("marks.lua", SCRIPT);
    let run = dunlua_in(
        scratch.path(),
        &["marks.lua", "--seed", "1", "--ascii", "--color", "always"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let escapes = colour_escapes(&run.stdout);
    assert_eq!(
        escapes,
        ["38;2;255;64;255m", "38;2;64;224;255m", "38;2;255;215;0m"],
        "key magenta, knife another colour, treasure its own gold; stairs on their tile uncoloured:\n{:?}",
        run.stdout
    );
    assert_ne!(escapes[0], escapes[1]);
    // Without the escapes it is exactly the plain text.
    let mut stripped = run.stdout.clone();
    for e in escapes.iter().chain(["0m".to_string()].iter()) {
        stripped = stripped.replace(&format!("\x1b[{e}"), "");
    }
    assert_eq!(stripped, PLAIN);
}

#[test]
fn never_pipes_and_files_stay_plain() {
    let scratch = Scratch::new();
    scratch.write("marks.lua", SCRIPT);
    for args in [
        &["marks.lua", "--seed", "1", "--ascii", "--color", "never"][..],
        &["marks.lua", "--seed", "1", "--ascii"][..], // a pipe: auto says no
        &["marks.lua", "--seed", "1", "--ascii", "--color", "auto"][..],
    ] {
        let run = dunlua_in(scratch.path(), args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, PLAIN, "{args:?}");
    }
    let run = dunlua_in(
        scratch.path(),
        &[
            "marks.lua",
            "--seed",
            "1",
            "--color",
            "always",
            "--out",
            "map.txt",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = std::fs::read_to_string(scratch.path().join("map.txt")).unwrap();
    assert_eq!(file, PLAIN, "a file is never coloured");
    let bad = dunlua_in(
        scratch.path(),
        &["marks.lua", "--ascii", "--color", "sometimes"],
    );
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--color"), "{}", bad.stderr);
}

/// Runs dunlua on a pseudo-terminal (util-linux `script`), `NO_COLOR` as
/// given; None when `script` is missing (outside CI).
fn on_a_terminal(dir: &std::path::Path, args: &str, no_color: Option<&str>) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_dunlua");
    let mut command = Command::new("script");
    command
        .args(["-qec", &format!("'{bin}' {args}"), "/dev/null"])
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("NO_COLOR");
    if let Some(v) = no_color {
        command.env("NO_COLOR", v);
    }
    match command.output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
        }
        Err(_) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI needs `script` (util-linux)"
            );
            eprintln!("SKIPPED: no `script` to make a terminal");
            None
        }
    }
}

#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let scratch = Scratch::new();
    scratch.write("marks.lua", SCRIPT);
    let Some(tty) = on_a_terminal(scratch.path(), "marks.lua --seed 1 --ascii", None) else {
        return;
    };
    assert_eq!(colour_escapes(&tty).len(), 3, "{tty:?}");
    // Text printed for want of a window is the same on a terminal.
    let fallback = on_a_terminal(scratch.path(), "marks.lua --seed 1", None).unwrap();
    assert_eq!(colour_escapes(&fallback).len(), 3, "{fallback:?}");
    let no_color = on_a_terminal(scratch.path(), "marks.lua --seed 1 --ascii", Some("1")).unwrap();
    assert!(!no_color.contains('\x1b'), "{no_color:?}");
    // An empty NO_COLOR is no request (no-color.org); --color always wins.
    let empty = on_a_terminal(scratch.path(), "marks.lua --seed 1 --ascii", Some("")).unwrap();
    assert_eq!(colour_escapes(&empty).len(), 3, "{empty:?}");
    let forced = on_a_terminal(
        scratch.path(),
        "marks.lua --seed 1 --ascii --color always",
        Some("1"),
    )
    .unwrap();
    assert_eq!(colour_escapes(&forced).len(), 3, "{forced:?}");
}
