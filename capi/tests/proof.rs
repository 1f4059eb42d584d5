//! The completion proof through the C ABI, from a real C program
//! (`callers/prove.c`, compiled with `cc` against `include/dunlua.h`): its
//! verdicts, sentences and cells must equal the Rust library's for the
//! same scripts and seeds, and wrong values must come back as statuses.
//! With `CI` set, a missing `cc` fails the test instead of skipping it.

use std::path::PathBuf;
use std::process::Command;

use dunlua::Generator;

// shared_library is for the callers that load the library themselves.
#[allow(dead_code)]
mod support;
use support::{available, build_libraries, built_dir};

fn capi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines prove.c must print, from the library.
fn expected(scripts: &[PathBuf]) -> String {
    let mut lines = Vec::new();
    for (i, script) in scripts.iter().enumerate() {
        let generator = Generator::file(script).build().unwrap();
        for seed in 0..4u64 {
            let levels = generator.generate_levels(seed).unwrap();
            let verdict = dunlua::proof::prove_levels(&levels).unwrap().unwrap();
            let cells: String = verdict
                .cells
                .iter()
                .map(|c| format!(" {}:{},{}", c.level, c.x, c.y))
                .collect();
            lines.push(format!(
                "script {} seed {seed} {}: {};{cells}",
                i + 1,
                verdict.outcome.name(),
                verdict.sentence
            ));
        }
    }
    lines.extend([
        "null_levels DUNLUA_STATUS_NULL_ARGUMENT".to_string(),
        "bad_handle DUNLUA_STATUS_BAD_HANDLE".into(),
        "zero_count DUNLUA_STATUS_USAGE".into(),
        "no_puzzle DUNLUA_STATUS_USAGE the script declares no puzzle: add goal = { goals = {\"exit\"} } (and locks, one_way) to its table".into(),
        "untouched 1".into(),
        "bad_proof -1 0 unknown".into(),
    ]);
    lines.join("\n") + "\n"
}

#[test]
fn a_c_program_proves_levels_as_the_library_does() {
    if !available("cc", "the proof caller") {
        return;
    }
    build_libraries();
    let scratch = std::env::temp_dir().join(format!("dunlua-capi-proof-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let program = scratch.join("prove");
    let dir = built_dir();
    let output = Command::new("cc")
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            &capi_dir().join("callers/prove.c").display().to_string(),
            &format!("-I{}", capi_dir().join("include").display()),
            "-o",
            &program.display().to_string(),
            &format!("-L{}", dir.display()),
            "-ldunlua_capi",
            &format!("-Wl,-rpath,{}", dir.display()),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "cc prove.c:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let scripts = [
        capi_dir().join("../scripts/keys.lua"),
        capi_dir().join("../tests/completion/key_behind.lua"),
    ];
    let output = Command::new(&program).args(&scripts).output().unwrap();
    assert!(
        output.status.success(),
        "prove failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let got = String::from_utf8(output.stdout).unwrap();
    let want = expected(&scripts);
    assert_eq!(got, want);
    // The bad seeds (odd ones) are caught with the cells of the door and key.
    assert!(got.contains(
        "script 2 seed 1 unfinishable: the locked_door at (6, 1) needs a key; the only key is at (8, 1), behind it; 1:6,1 1:8,1 1:10,1"
    ));
    assert!(got.contains("script 1 seed 0 finishable"));
    std::fs::remove_dir_all(&scratch).unwrap();
}
