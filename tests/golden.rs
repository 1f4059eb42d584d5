//! Golden maps: each reference script, a few seeds, pinned as text files in
//! tests/golden/. A changed map fails here; re-bless on purpose with
//! `DUNLUA_BLESS=1 cargo test golden` and review the diff in git.

use std::path::PathBuf;

use crate::util::{dunlua, root};

/// The seed tutorials, three seeds each; the classic variants, two.
const SCRIPTS: [(&str, &[u64]); 19] = [
    ("rooms", &[1, 7, 42]),
    ("rooms_jsrlt", &[1, 7, 42]),
    ("rooms_malwoden", &[1, 7, 42]),
    ("rooms_yeti", &[1, 7, 42]),
    ("bsp", &[1, 7]),
    ("caves", &[1, 7]),
    ("drunkard", &[1, 7]),
    ("maze", &[1, 7]),
    ("mixed", &[1, 7]),
    ("vaults", &[1, 7]),
    ("lakes", &[1, 7]),
    ("keys", &[1, 7]),
    ("digger", &[1, 7]),
    ("river", &[1, 7]),
    ("levels", &[1, 7]),
    ("crypt", &[1, 7]),
    ("graph_dungeon", &[1, 7]),
    ("wfc_caves", &[1, 7]),
    ("wfc_town", &[1, 7]),
];

fn golden_path(script: &str, seed: u64) -> PathBuf {
    root()
        .join("tests")
        .join("golden")
        .join(format!("{script}-{seed}.txt"))
}

/// The rows that differ, numbered, so a failure reads as a diff.
fn diff(want: &str, got: &str) -> String {
    let mut out = String::new();
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i).copied(), g.get(i).copied());
        if a != b {
            out.push_str(&format!(
                "row {i:3} want {}\n        got  {}\n",
                a.unwrap_or("<none>"),
                b.unwrap_or("<none>")
            ));
        }
    }
    out
}

/// Map hashes are pinned too, one `script seed hash` line per golden map,
/// so the hash itself can never change silently.
#[test]
fn map_hashes_match_their_goldens() {
    let bless = std::env::var_os("DUNLUA_BLESS").is_some();
    let path = root().join("tests").join("golden").join("hashes.txt");
    let mut lines = Vec::new();
    for (script, seeds) in SCRIPTS {
        for &seed in seeds {
            let run = dunlua(&[
                &format!("scripts/{script}.lua"),
                "--seed",
                &seed.to_string(),
                "--hash",
            ]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            // A multi-level script prints a hash per level, on one line here.
            let hashes: Vec<&str> = run.stdout.split_whitespace().collect();
            lines.push(format!("{script} {seed} {}", hashes.join(" ")));
        }
    }
    let got = lines.join("\n") + "\n";
    if bless {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (bless with DUNLUA_BLESS=1)", path.display()));
    assert!(want == got, "map hashes changed:\n{}", diff(&want, &got));
}

#[test]
fn reference_scripts_match_their_goldens() {
    let bless = std::env::var_os("DUNLUA_BLESS").is_some();
    let mut failures = Vec::new();
    for (script, seeds) in SCRIPTS {
        for &seed in seeds {
            let seed_text = seed.to_string();
            let path = format!("scripts/{script}.lua");
            let run = dunlua(&[&path, "--seed", &seed_text, "--ascii"]);
            assert_eq!(run.code, 0, "{path} seed {seed}: {}", run.stderr);
            let golden = golden_path(script, seed);
            if bless {
                std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
                std::fs::write(&golden, &run.stdout).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
                panic!("{}: {e} (bless with DUNLUA_BLESS=1)", golden.display())
            });
            if want != run.stdout {
                failures.push(format!(
                    "{path} --seed {seed} differs from {}:\n{}",
                    golden.display(),
                    diff(&want, &run.stdout)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
