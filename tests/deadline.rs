//! One deadline for every caller: the watchdog stops a run at its next
//! instruction once `--timeout` (or a game's timeout) has passed, whatever
//! one instruction costs, and says where.

use std::time::{Duration, Instant};

use dunlua::script::{FailureKind, Limits};
use dunlua::Generator;

use crate::util::{dunlua_in, Scratch};

/// Each `==` compares two distinct 16 MiB strings (a memcmp of
/// milliseconds). It is charged by its bytes, so the tests raise the budget
/// out of the way (`BUDGET`) for the deadline to be what stops it.
const SLOW_EQUALS: &str = r#"
return { generate = function(map)
  local a = ("x"):rep(1 << 24)
  local b = ("x"):rep((1 << 24) - 1) .. "x"
  local n = 0
  while true do
    if a == b then n = n + 1 end
  end
end }
"#;

/// A budget the slow loop cannot spend in minutes.
const BUDGET: u64 = 100_000_000_000;

fn limits(timeout: f64) -> Limits {
    Limits {
        timeout: Some(Duration::from_secs_f64(timeout)),
        max_instructions: BUDGET,
        ..Limits::default()
    }
}

#[test]
fn a_game_gets_its_timeout_within_a_second() {
    let generator = Generator::source("slow.lua", SLOW_EQUALS)
        .limits(limits(1.0))
        .build()
        .unwrap();
    for seed in 0..2 {
        let started = Instant::now();
        let err = generator.generate(seed).unwrap_err();
        let took = started.elapsed();
        assert_eq!(err.kind, FailureKind::TimedOut, "{}", err.message);
        assert!(err.message.starts_with("slow.lua:"), "{}", err.message);
        assert!(
            took < Duration::from_millis(2500),
            "seed {seed} took {took:?}"
        );
        assert!(
            took >= Duration::from_millis(900),
            "seed {seed} took {took:?}"
        );
    }
}

#[test]
fn check_stops_every_seed_at_its_deadline() {
    let scratch = Scratch::new();
    scratch.write("slow.lua", SLOW_EQUALS);
    let started = Instant::now();
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "slow.lua",
            "--seeds",
            "0..3",
            "--jobs",
            "1",
            "--timeout",
            "1",
            "--max-instructions",
            "100000000000",
        ],
    );
    let took = started.elapsed();
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        took < Duration::from_secs(3 * 2 + 3),
        "three seeds of a 1 s deadline took {took:?}"
    );
    assert!(run.stdout.contains("timed out"), "{}", run.stdout);
}

#[test]
fn the_cli_names_the_line_where_time_ran_out() {
    let scratch = Scratch::new();
    scratch.write("slow.lua", SLOW_EQUALS);
    let started = Instant::now();
    let run = dunlua_in(
        scratch.path(),
        &[
            "slow.lua",
            "--seed",
            "1",
            "--ascii",
            "--timeout",
            "1",
            "--max-instructions",
            "100000000000",
        ],
    );
    let took = started.elapsed();
    assert_eq!(run.code, 1);
    let first = run.stderr.lines().next().unwrap_or("");
    // Line 7 (the comparison) as a rule; line 4 or 5 when a loaded machine
    // spends the whole second building the two 16 MiB strings. Any of the
    // function's lines is where time ran out; no line, or another file's,
    // would be wrong.
    let line = first
        .strip_prefix("dunlua: slow.lua:")
        .and_then(|rest| rest.split_once(": timed out"))
        .and_then(|(n, _)| n.parse::<u32>().ok());
    assert!(line.is_some_and(|n| (3..=8).contains(&n)), "{first}");
    assert!(took < Duration::from_millis(3500), "took {took:?}");
}

/// A timeout too long for the clock to hold (a game passing
/// `Duration::MAX` for "no deadline") is no deadline: the generator builds
/// and runs, where adding it to the clock panicked inside `build()`.
#[test]
fn a_timeout_past_what_the_clock_holds_is_no_deadline() {
    let generator = Generator::source(
        "long.lua",
        "return { generate = function(map) map:fill('floor') map:set_start(1, 1) end }",
    )
    .limits(Limits {
        timeout: Some(Duration::MAX),
        ..Limits::default()
    })
    .build()
    .unwrap();
    for seed in 0..2 {
        generator.generate(seed).unwrap();
    }
}
