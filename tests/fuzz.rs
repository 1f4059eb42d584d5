//! A seeded script fuzzer: random scripts that call the whole Lua API (as
//! `dunlua api` describes it) with hostile arguments, wrong `self`, objects
//! from elsewhere, tiny limits and big maps, run in-process. Whatever a
//! script does, a run must end with a map or a located error: no panic, no
//! raw mlua message, no hang. A failing case prints its seed and script.
//!
//! `cargo test` runs a bounded number of cases; a longer run:
//! `FUZZ_CASES=20000 cargo test --release fuzz -- --ignored`.

use std::time::Duration;

use dunlua::script::api_doc::{Kind, API};
use dunlua::script::{FailureKind, Limits, Request, Session};
use dunlua::Rng;

use crate::util::Scratch;

/// Values a call may get, hostile and ordinary alike.
const VALUES: &[&str] = &[
    "nil",
    "0",
    "1",
    "3",
    "-1",
    "7",
    "1.5",
    "0/0",
    "1/0",
    "-1/0",
    "math.maxinteger",
    "math.mininteger",
    "2^53",
    "2^63",
    "\"floor\"",
    "\"wall\"",
    "\"water\"",
    "\"nope\"",
    "\"\"",
    "string.rep(\"x\", 3000)",
    "{}",
    "{ { 1, 2 }, { 3, 4 } }",
    "{ 1.5 }",
    "{ x = 1, y = 2 }",
    "function() end",
    "true",
    "false",
    "r",
    "Rect.new(-5, -5, 2, 2)",
    "Rect.new(0, 0, 100000, 100000)",
    "map",
    "rng",
    "sel",
    "d",
    "field",
    "ix",
    "other",
    "{ birth = { 5, 6 }, survive = { 4, 5 }, steps = 3 }",
    "{ tile = \"floor\", loops = 0.5 }",
    "{ glyph = \"Q\", color = \"#ff00ff\", walkable = true }",
    "setmetatable({}, { __index = function() return 1 end })",
    "{ \"#.#\", \"...\" }",
    "{ [\"#\"] = \"wall\", [\".\"] = { tile = \"floor\", mark = \"m\" } }",
];

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.int(items.len() as u64) as usize]
}

/// One random statement calling one API entry.
fn statement(rng: &mut Rng) -> String {
    let entry = pick(rng, API);
    let object = entry.owner.lua_object();
    if entry.kind == Kind::Field {
        return format!("local _ = {object}.{}", entry.name);
    }
    let count = match rng.int(4) {
        0 => rng.int(8) as usize,
        _ => entry.params.len(),
    };
    let mut args: Vec<String> = (0..count).map(|_| pick(rng, VALUES).to_string()).collect();
    // Mostly sensible arguments where the entry names integers, so calls
    // get past the first check and do real work.
    for (i, (_, ty)) in entry.params.iter().enumerate() {
        if i < args.len() && ty.starts_with("integer") && rng.int(2) == 0 {
            args[i] = rng.int(12).to_string();
        }
    }
    let (callee, self_arg) = match entry.kind {
        Kind::Method => {
            let me = if rng.int(5) == 0 {
                pick(rng, VALUES).to_string()
            } else {
                object.to_string()
            };
            (format!("{object}.{}", entry.name), Some(me))
        }
        _ => (format!("{object}.{}", entry.name), None),
    };
    let all: Vec<String> = self_arg.into_iter().chain(args).collect();
    let call = format!("{callee}({})", all.join(", "));
    match rng.int(4) {
        0 => call,
        1 => format!("KEEP[#KEEP + 1] = {call}"),
        _ => format!(
            "pcall({callee}{}{})",
            if all.is_empty() { "" } else { ", " },
            all.join(", ")
        ),
    }
}

/// A whole random script.
pub(crate) fn script(rng: &mut Rng) -> String {
    let size = match rng.int(6) {
        0 => "width = 1, height = 1,",
        1 => "width = 600, height = 600,",
        _ => "",
    };
    let mut body = String::new();
    for _ in 0..(3 + rng.int(25)) {
        body.push_str("    ");
        body.push_str(&statement(rng));
        body.push('\n');
    }
    format!(
        "KEEP = {{}}\nreturn {{ {size} generate = function(map, rng)\n    map:fill(\"floor\")\n    local r, ix = Rect.new(1, 1, 3, 3), Rect.index()\n    local sel, d = map:select(\"floor\"), map:dijkstra(0, 0)\n    local field = map:noise(rng)\n    local other = rng:fork(\"other\")\n    local g = graph.new()\n    map:set_start(0, 0)\n{body}    map:fill(\"floor\")\n    map:set_start(0, 0)\n  end }}\n"
    )
}

/// What a failed run must look like: located, in the API's own words.
fn acceptable(err: &dunlua::script::ScriptError) -> Result<(), String> {
    let first = err.message.lines().next().unwrap_or("");
    for raw in [
        "error converting",
        "bad argument `self`",
        "LuaMap",
        "LuaRng",
        "panicked",
        "userdata is not expected",
    ] {
        if first.contains(raw) {
            return Err(format!("raw message: {first}"));
        }
    }
    let located = first
        .split_once(": ")
        .and_then(|(at, _)| at.rsplit_once(':'))
        .is_some_and(|(file, line)| file.ends_with(".lua") && line.parse::<u32>().is_ok());
    // Contract failures (no start, all attempts rejected) are about the
    // whole run, named by file only.
    let whole_run = matches!(
        err.kind,
        FailureKind::BadStart | FailureKind::Rejected | FailureKind::Contract
    );
    if !located && !whole_run {
        return Err(format!("not located: {first}"));
    }
    Ok(())
}

fn fuzz(cases: u64, first_seed: u64) {
    let scratch = Scratch::new();
    for case in first_seed..first_seed + cases {
        let mut rng = Rng::new(case);
        let source = script(&mut rng);
        let path = scratch.write(&format!("fuzz{case}.lua"), &source);
        let mut request = Request::new(&path, case);
        request.max_attempts = 2;
        request.limits = match rng.int(3) {
            0 => Limits {
                max_instructions: 200_000 + rng.int(2_000_000),
                max_memory: (8 + rng.int(24) as usize) << 20,
                timeout: Some(Duration::from_secs(20)),
            },
            _ => Limits {
                max_instructions: 50_000_000,
                max_memory: 256 << 20,
                timeout: Some(Duration::from_secs(20)),
            },
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let session = Session::new(&request)?;
            // Two seeds in one VM: the second run must be as good as the first.
            session.run(case)?;
            session.run(case + 1)
        }));
        let problem = match outcome {
            Err(_) => Some("panicked".to_string()),
            Ok(Ok(_)) => None,
            Ok(Err(e)) => acceptable(&e).err(),
        };
        if let Some(problem) = problem {
            panic!("fuzz case {case}: {problem}\n--- script ---\n{source}");
        }
    }
}

#[test]
fn random_scripts_end_with_a_map_or_a_located_error() {
    fuzz(150, 0);
}

#[test]
#[ignore]
fn fuzz_long() {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let first = std::env::var("FUZZ_FIRST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    fuzz(cases, first);
}
