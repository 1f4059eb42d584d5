//! A reused VM is indistinguishable from a fresh one: for adversarial
//! scripts (tests/differential/: state parked in `_ENV`, modules, library
//! tables, the strings' metatable, coroutines, weak tables, the collector,
//! interned strings near the budget, memory near the limit, finalizers,
//! pairs() order) and for random scripts from the fuzzer, every seed's
//! outcome (the map's hash and the budget it used, or the failure's kind
//! and message) is the same from a fresh session, from one session running
//! the seeds in order, and from one running them backwards.

use std::path::Path;
use std::time::Duration;

use dunlua::script::{Limits, Request, Session};
use dunlua::Rng;

use crate::util::{root, Scratch};

/// What a run gave, as far as a user can tell.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Map {
        hash: u64,
        work: u64,
        markers: String,
    },
    Failed {
        kind: String,
        message: String,
    },
}

fn outcome(session: &Session, seed: u64) -> Outcome {
    match session.run(seed) {
        Ok(g) => Outcome::Map {
            hash: g.map.hash64(),
            work: g.work,
            markers: format!("{:?}", g.map.markers()),
        },
        Err(e) => Outcome::Failed {
            kind: format!("{:?}", e.kind),
            message: e.message,
        },
    }
}

/// Fresh, forwards and backwards outcomes of `seeds` agree; returns them.
fn agree(request: &Request, seeds: u64) -> Vec<Outcome> {
    let fresh: Vec<Outcome> = (0..seeds)
        .map(|seed| match Session::new(request) {
            Ok(session) => outcome(&session, seed),
            Err(e) => Outcome::Failed {
                kind: format!("{:?}", e.kind),
                message: e.message,
            },
        })
        .collect();
    let Ok(forwards) = Session::new(request) else {
        return fresh;
    };
    let backwards = Session::new(request).unwrap();
    let mut reversed: Vec<Outcome> = (0..seeds).rev().map(|s| outcome(&backwards, s)).collect();
    reversed.reverse();
    for (seed, fresh) in fresh.iter().enumerate() {
        let again = outcome(&forwards, seed as u64);
        assert_eq!(
            &again,
            fresh,
            "{}: seed {seed} after seeds 0..{seed} in one VM",
            request.script.display()
        );
        assert_eq!(
            &reversed[seed],
            fresh,
            "{}: seed {seed} after the seeds above it in one VM",
            request.script.display()
        );
    }
    fresh
}

fn request(script: &Path, limits: Limits) -> Request {
    let mut request = Request::new(script, 0);
    request.limits = limits;
    request
}

const NO_CLOCK: Limits = Limits {
    max_instructions: Limits::DEFAULT_INSTRUCTIONS,
    max_memory: Limits::DEFAULT_MEMORY_MB << 20,
    timeout: None,
};

#[test]
fn adversarial_scripts_run_alike_in_reused_and_fresh_vms() {
    let dir = root().join("tests/differential");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            (path.extension().is_some_and(|x| x == "lua")).then_some(path)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the corpus is there");
    for script in names {
        let stem = script.file_stem().unwrap().to_string_lossy().into_owned();
        let limits = match stem.as_str() {
            "interned_budget" => Limits {
                max_instructions: 3_000_000,
                ..NO_CLOCK
            },
            "memory_edge" => Limits {
                // Past 32 MiB the run's collector goes incremental (raw::guard).
                max_memory: 48 << 20,
                ..NO_CLOCK
            },
            _ => NO_CLOCK,
        };
        let seeds = if stem == "memory_edge" { 4 } else { 12 };
        let outcomes = agree(&request(&script, limits), seeds);
        // The scripts that try to carry state make a map in every run; the
        // limit scripts fail in every run, at a line.
        match stem.as_str() {
            "interned_budget" | "memory_edge" => {
                for o in &outcomes {
                    let Outcome::Failed { kind, message } = o else {
                        panic!("{stem}: {o:?}");
                    };
                    assert_eq!(kind, "Limit", "{stem}: {message}");
                    assert!(message.contains(&format!("{stem}.lua:")), "{message}");
                }
            }
            "finalizers" => {}
            _ => {
                for o in &outcomes {
                    assert!(matches!(o, Outcome::Map { .. }), "{stem}: {o:?}");
                }
            }
        }
        // A state that leaked would show as the same script making
        // different maps for one seed; check the carriers saw a first run.
        if stem == "chunk_env" || stem == "module_env" || stem == "coroutines" {
            let once = agree(&request(&script, limits), 1);
            assert_eq!(once[0], outcomes[0], "{stem}");
        }
    }
}

#[test]
fn random_scripts_run_alike_in_reused_and_fresh_vms() {
    let scratch = Scratch::new();
    for case in 0..40u64 {
        let mut rng = Rng::new(0xd1ff + case);
        let source = crate::fuzz::script(&mut rng);
        let path = scratch.write(&format!("random{case}.lua"), &source);
        let limits = Limits {
            max_instructions: 300_000 + rng.int(3_000_000),
            max_memory: (16 + rng.int(48) as usize) << 20,
            timeout: Some(Duration::from_secs(30)),
        };
        agree(&request(&path, limits), 3);
    }
}
