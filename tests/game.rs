//! A game's [`Generator`] against the command line: the same script, seed,
//! parameters and size give the hash `dunlua --hash` prints, and 10,000
//! seeds on a game's worker thread give the digest `dunlua check` reports.

use dunlua::Generator;

use crate::util::{dunlua, root};

#[test]
fn a_generator_gives_the_hash_the_command_prints() {
    for (script, params) in [
        ("scripts/rooms.lua", vec![]),
        ("scripts/rooms.lua", vec!["max_rooms=8"]),
        ("scripts/caves.lua", vec![]),
        ("scripts/vaults.lua", vec![]),
    ] {
        let mut builder = Generator::file(root().join(script));
        for p in &params {
            let (k, v) = p.split_once('=').unwrap();
            builder = builder.param_text(k, v);
        }
        let generator = builder.build().unwrap();
        for seed in [0u64, 7, 123_456_789] {
            let mut args = vec![script, "--hash"];
            let seed_text = seed.to_string();
            args.extend(["--seed", &seed_text]);
            for p in &params {
                args.extend(["-p", p]);
            }
            let run = dunlua(&args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let ours = format!("{:016x}\n", generator.generate(seed).unwrap().hash());
            assert_eq!(ours, run.stdout, "{script} {params:?} seed {seed}");
        }
    }
}

#[test]
fn ten_thousand_seeds_on_a_game_thread_match_check() {
    let run = dunlua(&[
        "check",
        "scripts/rooms.lua",
        "--seeds",
        "0..10000",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["maps"], 10_000);
    let generator = Generator::file(root().join("scripts/rooms.lua"))
        .build()
        .unwrap();
    let digest = std::thread::spawn(move || {
        let hashes = (0..10_000u64).map(|seed| (seed, generator.generate(seed).unwrap().hash()));
        format!("{:016x}", dunlua::map::digest(hashes.collect::<Vec<_>>()))
    })
    .join()
    .unwrap();
    assert_eq!(report["digest"], digest.as_str());
    let text = dunlua(&[
        "check",
        "scripts/rooms.lua",
        "--seeds",
        "0..10000",
        "--jobs",
        "1",
    ]);
    assert!(
        text.stdout
            .contains(&format!("maps digest {digest} over 10000 maps")),
        "{}",
        text.stdout
    );
}

/// A run a limit stopped says how to raise that limit in the caller's own
/// terms: the Rust library's names, not the command line's flags.
#[test]
fn limit_messages_name_the_librarys_knobs() {
    use dunlua::{Generator, LimitNames, Limits};
    let spin = "return { generate = function(map)\n  while true do end\nend }\n";
    let err = Generator::source("spin.lua", spin)
        .limits(Limits {
            max_instructions: 100_000,
            ..Limits::default()
        })
        .build()
        .unwrap()
        .generate(1)
        .unwrap_err();
    assert!(
        err.message
            .ends_with("raise it with Limits::max_instructions"),
        "{}",
        err.message
    );
    let reject = "return { generate = function(map)\n  reject('never')\nend }\n";
    let err = Generator::source("reject.lua", reject)
        .max_attempts(2)
        .build()
        .unwrap()
        .generate(1)
        .unwrap_err();
    assert!(
        err.message
            .contains("(raise GeneratorBuilder::max_attempts or"),
        "{}",
        err.message
    );
    // A binding names its own (the C ABI's, here).
    let err = Generator::source("spin.lua", spin)
        .limit_names(LimitNames::C)
        .limits(Limits {
            max_instructions: 100_000,
            ..Limits::default()
        })
        .build()
        .unwrap()
        .generate(1)
        .unwrap_err();
    assert!(
        err.message
            .ends_with("raise it with dunlua_generator_set_limits's max_instructions"),
        "{}",
        err.message
    );
}

/// A script's name is its chunk's name, a C string inside Lua: one with a
/// NUL byte is refused as a usage error naming it (mlua's "invalid name:
/// nul byte found" came out mangled into "(error object is a ... value)").
#[test]
fn a_script_name_with_a_nul_byte_is_refused() {
    use dunlua::Generator;
    let script = "return { generate = function(map) map:fill('floor') map:set_start(1, 1) end }\n";
    let err = Generator::source("a\0b.lua", script)
        .build()
        .err()
        .expect("refused");
    assert_eq!(
        err.message,
        "script a\\x00b.lua: a script's name cannot hold a NUL byte"
    );
    assert_eq!(err.exit_code(), 2);
}
