//! The hostile-script suite: every script in `tests/hostile/` tries one way
//! to hang, crash, exhaust or escape the sandbox, or to leak state into the
//! next run. Each says in its header what must happen:
//!
//! - `-- args: FLAGS` extra flags (small limits keep the suite quick);
//! - `-- exit: N` the exit code (default 1);
//! - `-- expect: TEXT` a part of the first line of stderr;
//! - `-- line: N` the script line the message must name;
//! - `-- setup: file PATH TEXT` / `symlink PATH TARGET` / `fifo PATH`
//!   things to make beside the copied script;
//! - `-- quoted: N` no character repeated more than N times in a row on
//!   stderr (a message quotes at most a short prefix of a long argument);
//! - `-- ulimit: yes` run under `ulimit -v` of the memory limit plus 1 GiB,
//!   so a copy the limit did not count aborts the process (and fails);
//!   `-- ulimit: N` under N MiB, less than the limit: the system refuses
//!   memory first, which must end the run as the limit does;
//! - `-- located: no` the message names no script line of its own (a
//!   rejection: the line is inside it).
//!
//! Every failing run must exit with its code (never 101 or a signal), say
//! `dunlua: FILE.lua:LINE: ...` on its first line, and write no output
//! file; every run must end (a generous guard kills a hang, which fails).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dunlua::script::{run, Session};

use crate::util::{files_in, root, Scratch};

/// Not a speed limit: only what tells a hang from a slow machine.
const HANG_GUARD: Duration = Duration::from_secs(180);

struct Case {
    name: String,
    source: String,
    args: Vec<String>,
    exit: i32,
    expect: Vec<String>,
    line: Option<u32>,
    setup: Vec<String>,
    quoted: Option<usize>,
    /// The `ulimit -v` in MiB, if any (`yes`: the memory limit + 1024).
    ulimit: Option<u64>,
    located: bool,
}

fn hostile_dir() -> PathBuf {
    root().join("tests/hostile")
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(hostile_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "lua") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let mut case = Case {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            source: source.clone(),
            args: Vec::new(),
            exit: 1,
            expect: Vec::new(),
            line: None,
            setup: Vec::new(),
            quoted: None,
            ulimit: None,
            located: true,
        };
        for line in source.lines().take_while(|l| l.starts_with("-- ")) {
            let (key, value) = line[3..].split_once(": ").unwrap_or((&line[3..], ""));
            match key {
                "args" => case.args = value.split_whitespace().map(String::from).collect(),
                "exit" => case.exit = value.parse().unwrap(),
                "expect" => case.expect.push(value.to_string()),
                "line" => case.line = Some(value.parse().unwrap()),
                "setup" => case.setup.push(value.to_string()),
                "quoted" => case.quoted = Some(value.parse().unwrap()),
                "ulimit" if value == "yes" => case.ulimit = Some(0),
                "ulimit" => case.ulimit = Some(value.parse().unwrap()),
                "located" => case.located = value != "no",
                _ => {}
            }
        }
        out.push(case);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Makes what a case's `setup` lines ask for in `dir`.
fn set_up(dir: &Path, setup: &[String]) {
    for line in setup {
        let mut words = line.splitn(3, ' ');
        let (what, path) = (words.next().unwrap(), dir.join(words.next().unwrap()));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        match what {
            "file" => std::fs::write(&path, words.next().unwrap_or("")).unwrap(),
            "symlink" => std::os::unix::fs::symlink(words.next().unwrap(), &path).unwrap(),
            "fifo" => {
                let made = Command::new("mkfifo").arg(&path).status().unwrap();
                assert!(made.success());
            }
            other => panic!("unknown setup {other}"),
        }
    }
}

/// Runs one case; `Err` says what was wrong.
fn check_case(case: &Case) -> Result<(), String> {
    let scratch = Scratch::new();
    let script = format!("{}.lua", case.name);
    scratch.write(&script, &case.source);
    for module in ["flaky", "counter"] {
        let lib = std::fs::read_to_string(hostile_dir().join(format!("lib/{module}.lua"))).unwrap();
        scratch.write(&format!("lib/{module}.lua"), &lib);
    }
    set_up(scratch.path(), &case.setup);
    let before: Vec<_> = files_in(scratch.path());
    // The deadline is the budget's safety net, not what these cases test
    // (unless they say so): a loaded machine must not turn a budget stop
    // into a timeout.
    let mut args = case.args.clone();
    if !args.iter().any(|a| a == "--timeout") {
        args.extend(["--timeout".to_string(), "120".to_string()]);
    }
    let errors = tempfile::NamedTempFile::new().unwrap();
    let mut command = if let Some(mb) = case.ulimit {
        // Address space for the memory limit and 1 GiB more (the binary,
        // its threads' stacks, the allocator's arenas): what the limit
        // did not count can only fit in what is left.
        let limit_mb = args
            .windows(2)
            .find(|w| w[0] == "--max-memory")
            .map_or(512, |w| w[1].parse::<u64>().unwrap());
        let kib = if mb > 0 {
            mb << 10
        } else {
            (limit_mb + 1024) << 10
        };
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_dunlua"));
        sh
    } else {
        Command::new(env!("CARGO_BIN_EXE_dunlua"))
    };
    let mut child = command
        .args([script.as_str(), "--seed", "1", "--out", "out.json"])
        .args(&args)
        .current_dir(scratch.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // A file, not a pipe: a script that prints megabytes must not block
        // on a pipe nobody reads until it exits.
        .stderr(errors.reopen().unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > HANG_GUARD {
            let _ = child.kill();
            return Err(format!("still running after {HANG_GUARD:?}: a hang"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = String::from_utf8_lossy(&std::fs::read(errors.path()).unwrap()).into_owned();
    if let Some(most) = case.quoted {
        let mut run = (None, 0);
        for c in stderr.chars() {
            run = if run.0 == Some(c) {
                (run.0, run.1 + 1)
            } else {
                (Some(c), 1)
            };
            if run.1 > most {
                return Err(format!(
                    "{c:?} more than {most} times in a row: a long argument quoted whole ({} bytes of stderr)",
                    stderr.len()
                ));
            }
        }
    }
    // A script's own print lines come first; dunlua's message is the first
    // line that is dunlua's.
    let first = stderr
        .lines()
        .find(|l| l.starts_with("dunlua: ") && !l.starts_with("dunlua: print: "))
        .unwrap_or("")
        .chars()
        .take(400)
        .collect::<String>();
    let stderr: String = stderr.chars().take(2000).collect();
    let code = status
        .code()
        .ok_or_else(|| format!("killed by a signal: {stderr}"))?;
    if code != case.exit {
        return Err(format!("exit {code}, wanted {}: {stderr}", case.exit));
    }
    if stderr.contains("panicked") || stderr.contains("error converting") {
        return Err(format!("a raw Rust or mlua message: {stderr}"));
    }
    let written = scratch.path().join("out.json").exists();
    if case.exit == 0 {
        return if written {
            Ok(())
        } else {
            Err("no output written".into())
        };
    }
    if written || files_in(scratch.path()) != before {
        return Err(format!(
            "a failing run left files: {:?}",
            files_in(scratch.path())
        ));
    }
    let located = first
        .strip_prefix("dunlua: ")
        .and_then(|rest| rest.split_once(": "))
        .and_then(|(at, _)| at.rsplit_once(':'))
        .is_some_and(|(file, line)| file.ends_with(".lua") && line.parse::<u32>().is_ok());
    if case.located && !located {
        return Err(format!("not `dunlua: FILE.lua:LINE: ...`: {first}"));
    }
    if let Some(line) = case.line {
        if !first.starts_with(&format!("dunlua: {script}:{line}: ")) {
            return Err(format!("does not name {script}:{line}: {first}"));
        }
    }
    for want in &case.expect {
        if !first.contains(want.as_str()) {
            return Err(format!("no {want:?} in: {first}"));
        }
    }
    Ok(())
}

#[test]
fn every_hostile_script_ends_with_a_located_error_and_writes_nothing() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} hostile scripts", cases.len());
    // Two at a time: most end in well under a second.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let chunks: Vec<&[Case]> = cases.chunks(cases.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|case| {
                            check_case(case)
                                .err()
                                .map(|e| format!("{}: {e}", case.name))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Every reference script and every isolation script (`iso_*.lua`), over
/// 50 seeds, in one reused VM and in a fresh VM per seed: the same maps.
#[test]
fn reused_and_fresh_vms_make_the_same_maps() {
    let mut scripts: Vec<PathBuf> = crate::util::reference_scripts()
        .iter()
        .map(|s| root().join("scripts").join(s))
        .collect();
    let iso: Vec<PathBuf> = cases()
        .iter()
        .filter(|c| c.name.starts_with("iso_"))
        .map(|c| hostile_dir().join(format!("{}.lua", c.name)))
        .collect();
    assert!(iso.len() >= 10);
    scripts.extend(iso);
    for path in scripts {
        let mut request = crate::util::request(&path, 0);
        request.size = Some((60, 40));
        let session = Session::new(&request).unwrap();
        for seed in 0..50 {
            let reused = session.run(seed).map(|g| g.map.hash64());
            request.seed = seed;
            let fresh = run(&request).map(|g| g.map.hash64());
            let show = |r: &Result<u64, dunlua::script::ScriptError>| match r {
                Ok(h) => format!("{h:016x}"),
                Err(e) => e.to_string(),
            };
            assert_eq!(
                show(&reused),
                show(&fresh),
                "{} seed {seed}: reused vs fresh VM",
                path.display()
            );
            assert!(fresh.is_ok(), "{}: {}", path.display(), show(&fresh));
        }
    }
}

/// `check` reuses a VM per worker: one worker or two, the same report.
#[test]
fn check_reports_the_same_with_one_or_two_workers() {
    for script in [
        "tests/hostile/iso_string_metatable.lua",
        "tests/hostile/iso_gc_settings.lua",
        "scripts/caves.lua",
    ] {
        let report = |jobs: &str| {
            let run = crate::util::dunlua(&[
                "check", script, "--seeds", "0..50", "--jobs", jobs, "--json", "--size", "60x40",
            ]);
            let mut v: serde_json::Value = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{script}: {e}: {}", run.stderr));
            v.as_object_mut().unwrap().remove("time_ms");
            if let Some(m) = v["metrics"].as_object_mut() {
                m.remove("time_ms");
            }
            v
        };
        assert_eq!(report("1"), report("2"), "{script}");
    }
}

/// Lua 5.4's string hash (`luaS_hash` in `lstring.c`) with dunlua's fixed
/// seed (`.cargo/config.toml`): the string is read from its last byte.
fn lua_string_hash(bytes: &[u8]) -> u32 {
    const SEED: u32 = 0x6475_6e6c;
    let mut h = SEED ^ bytes.len() as u32;
    hash_steps(&mut h, bytes);
    h
}

fn hash_steps(h: &mut u32, bytes: &[u8]) {
    for &b in bytes.iter().rev() {
        *h ^= (*h << 5).wrapping_add(*h >> 2).wrapping_add(b as u32);
    }
}

/// `2^blocks` different strings of `3 * blocks` characters with one and the
/// same Lua hash: for each 3-character block, from the string's end, two
/// blocks that take the hash to the same state (a birthday search, about
/// 80,000 tries), so any choice of one of each pair collides. With the
/// seed fixed this takes a moment, which is the price of `pairs()` order
/// being the same in every run.
fn colliding_strings(blocks: usize) -> Vec<String> {
    let alphabet: Vec<u8> = (b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .collect();
    let mut state = 0x6475_6e6cu32 ^ (3 * blocks) as u32;
    let mut pairs = Vec::new();
    'block: for _ in 0..blocks {
        let mut seen = std::collections::HashMap::new();
        for &a in &alphabet {
            for &b in &alphabet {
                for &c in &alphabet {
                    let block = [a, b, c];
                    let mut h = state;
                    hash_steps(&mut h, &block);
                    if let Some(other) = seen.insert(h, block) {
                        pairs.push([other, block]);
                        state = h;
                        continue 'block;
                    }
                }
            }
        }
        panic!("no colliding pair of blocks");
    }
    (0..1usize << blocks)
        .map(|choice| {
            // The first pair found is the string's last block.
            (0..blocks)
                .rev()
                .map(|i| String::from_utf8(pairs[i][(choice >> i) & 1].to_vec()).unwrap())
                .collect()
        })
        .collect()
}

/// A script whose 8,192 string constants all collide in Lua's string hash
/// takes Lua's parser (which runs no instruction) time proportional to the
/// square of their number to intern; the allocator's look at the clock
/// stops the compile at the deadline. Without that, it compiles (slowly)
/// and the trivial run that follows fits any deadline.
#[test]
fn a_script_made_to_compile_slowly_is_stopped_at_the_deadline() {
    let keys = colliding_strings(13);
    assert_eq!(keys.len(), 8192);
    let first = lua_string_hash(keys[0].as_bytes());
    assert!(keys
        .iter()
        .all(|k| k.len() == 39 && lua_string_hash(k.as_bytes()) == first));
    let constants: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
    let scratch = Scratch::new();
    scratch.write(
        "collide.lua",
        &format!(
            "local keys = {{{}}}\n\
             return {{ width = 10, height = 10, generate = function(map)\n\
               map:fill('floor'); map:set_start(1, 1)\n\
             end }}\n",
            constants.join(",")
        ),
    );
    let stopped = crate::util::dunlua_in(
        scratch.path(),
        &["collide.lua", "--seed", "1", "--hash", "--timeout", "0.02"],
    );
    assert_eq!(stopped.code, 1, "{}", stopped.stderr);
    assert!(
        stopped
            .stderr
            .starts_with("dunlua: collide.lua: timed out after 0.02 s"),
        "{}",
        stopped.stderr
    );
    let patient = crate::util::dunlua_in(
        scratch.path(),
        &["collide.lua", "--seed", "1", "--hash", "--timeout", "120"],
    );
    assert_eq!(patient.code, 0, "{}", patient.stderr);
}
