//! `dunlua check`: failures found on the exact seeds, the same report
//! whatever the number of threads, and every reference script clean.

use crate::util::{dunlua, dunlua_in, Scratch};

/// Fails in a known way on known seeds (by the last digit).
const FLAKY: &str = r#"
return { generate = function(map, rng)
  local s = rng.seed
  map:fill("wall")
  map:fill_rect(Rect.new(1, 1, 5, 3), "floor")
  map:add_room(Rect.new(0, 0, 6, 4))
  map:set_start(2, 2)
  if s % 10 == 3 then error("boom on " .. s) end
  if s % 10 == 5 then map:set(20, 20, "floor") end
  if s % 10 == 7 then map:set_start(0, 0) end
  if s % 10 == 9 then reject("nine") end
end }
"#;

fn without_timing(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v.as_object_mut().unwrap().remove("time_ms");
    v
}

#[test]
fn reports_the_exact_failing_seeds_by_kind() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    let args = |jobs: &'static str| {
        vec![
            "check",
            "flaky.lua",
            "--seeds",
            "0..20",
            "--max-attempts",
            "1",
            "--json",
            "--jobs",
            jobs,
            "--size",
            "30x30",
        ]
    };
    let one = dunlua_in(scratch.path(), &args("1"));
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert!(
        one.stderr.contains("dunlua: 8 of 20 seeds failed"),
        "{}",
        one.stderr
    );
    let report = without_timing(&one.stdout);
    let seeds_of = |kind: &str| -> Vec<u64> {
        report["failures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["kind"] == kind)
            .map(|g| {
                g["seeds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_u64().unwrap())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(seeds_of("script_error"), [3, 13]);
    assert_eq!(seeds_of("unreachable"), [5, 15]);
    assert_eq!(seeds_of("start_not_walkable"), [7, 17]);
    assert_eq!(seeds_of("rejected"), [9, 19]);
    assert_eq!(
        (report["ok"].as_u64(), report["failed"].as_u64()),
        (Some(12), Some(8))
    );
    assert_eq!(report["metrics"]["rooms"]["max"], 1.0);

    let two = dunlua_in(scratch.path(), &args("2"));
    assert_eq!(two.code, 1);
    assert_eq!(
        without_timing(&two.stdout),
        report,
        "--jobs 1 and --jobs 2 agree"
    );
}

#[test]
fn text_report_and_saved_failures() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..=9",
            "--max-attempts",
            "1",
            "--size",
            "30x30",
            "--save-failures",
            "fails",
        ],
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with("check flaky.lua: seeds 0..10 (10): 6 ok, 4 failed\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("  script error (1): seeds 3\n    e.g. flaky.lua:8: boom on 3"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("walkable cells unreachable from the start (1): seeds 5"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("floor_ratio"), "{}", run.stdout);
    let dir = scratch.path().join("fails");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "flaky-3.txt",
            "flaky-5.json",
            "flaky-5.png",
            "flaky-7.txt",
            // Rejected on every attempt: the map it rejected last.
            "flaky-9.json",
            "flaky-9.png"
        ]
    );
    let error = std::fs::read_to_string(dir.join("flaky-3.txt")).unwrap();
    assert!(error.starts_with("flaky.lua:8: boom on 3"), "{error}");
}

/// A check where every seed failed has no ok map to measure: one line
/// says so instead of a table of min, median, p95 and max "over ok maps".
#[test]
fn a_check_with_no_ok_map_prints_no_statistics_table() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    // Seed 3 of FLAKY is a script error: the only seed.
    let run = dunlua_in(
        scratch.path(),
        &["check", "flaky.lua", "--seeds", "3..4", "--size", "30x30"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("check flaky.lua: seeds 3..4 (1): 0 ok, 1 failed\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\nno ok maps to measure\n"),
        "{}",
        run.stdout
    );
    for row in ["over ok maps", "median", "time_ms", "variety over"] {
        assert!(!run.stdout.contains(row), "{row}: {}", run.stdout);
    }
    // One ok seed beside it: the table is back.
    let run = dunlua_in(
        scratch.path(),
        &["check", "flaky.lua", "--seeds", "2..4", "--size", "30x30"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("\nover ok maps "), "{}", run.stdout);
    assert!(run.stdout.contains("\ntime_ms "), "{}", run.stdout);
    assert!(
        run.stdout.contains("\nvariety over 1 maps"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("no ok maps"), "{}", run.stdout);
}

#[test]
fn every_reference_script_passes_200_seeds() {
    for script in crate::util::reference_scripts() {
        let run = dunlua(&[
            "check",
            &format!("scripts/{script}"),
            "--seeds",
            "0..200",
            "--jobs",
            "2",
            // The deadline is the wall clock's safety net, not what this
            // checks: a debug build of wfc_caves.lua takes 2.4 s on one
            // seed alone, more while the rest of the suite shares the cores.
            "--timeout",
            crate::util::SLOW_BUILD_TIMEOUT,
        ]);
        assert_eq!(run.code, 0, "{script}:\n{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("(200): 200 ok, 0 failed"),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn check_usage_errors() {
    let run = dunlua(&["check", "scripts/rooms.lua", "--seeds", "5..2"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the seed range '5..2' is empty"),
        "{}",
        run.stderr
    );
    let run = dunlua(&["check", "scripts/rooms.lua", "-p", "nope=1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("dunlua: unknown parameter 'nope'"),
        "{}",
        run.stderr
    );
    let run = dunlua(&["check", "scripts/missing.lua"]);
    assert_eq!(run.code, 2);
}

/// Two outputs of one check that are one file (however spelled: `./`,
/// `..`, a symlink), or an output named as a file `--save-failures`
/// writes in its folder, are refused before anything is written.
#[test]
fn the_catalog_against_reads_is_replaced_by_no_other_output() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..4",
            "--catalog",
            "cat.html",
        ],
    );
    assert!(scratch.path().join("cat.html").exists(), "{}", run.stderr);
    assert!(
        run.stderr.lines().any(|l| l == "dunlua: wrote cat.html"),
        "{}",
        run.stderr
    );
    let before = std::fs::read(scratch.path().join("cat.html")).unwrap();
    // (--shard-out cannot come with --against.)
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..4",
            "--against",
            "cat.html",
            "--html",
            "./cat.html",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--html ./cat.html: is the catalog --against cat.html reads"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read(scratch.path().join("cat.html")).unwrap(),
        before
    );
    // Refreshing the catalog it compares with stays allowed.
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..4",
            "--against",
            "cat.html",
            "--catalog",
            "cat.html",
        ],
    );
    assert_ne!(run.code, 2, "{}", run.stderr);
}

#[test]
fn outputs_that_are_one_file_are_refused_before_anything_is_written() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    std::fs::create_dir(scratch.path().join("sf")).unwrap();
    std::fs::create_dir(scratch.path().join("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("sf", scratch.path().join("link")).unwrap();
    let refused = |args: &[&str], expected: &str| {
        let mut all = vec!["check", "flaky.lua", "--seeds", "0..10"];
        all.extend(args);
        let run = dunlua_in(scratch.path(), &all);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
        assert_eq!(
            crate::util::files_in(scratch.path()),
            ["flaky.lua", "link", "sf", "sub"],
            "{args:?}: nothing written"
        );
        assert!(crate::util::files_in(&scratch.path().join("sf")).is_empty());
    };
    refused(
        &["--html", "rr.html", "--catalog", "./rr.html"],
        "--catalog ./rr.html: is the same file as --html rr.html",
    );
    refused(
        &["--html", "rr.html", "--catalog", "sub/../rr.html"],
        "--catalog sub/../rr.html: is the same file as --html rr.html",
    );
    refused(
        &["--save-failures", "sf", "--catalog", "sf/flaky-3.txt"],
        "--catalog sf/flaky-3.txt: is a file --save-failures sf writes",
    );
    refused(
        &["--save-failures", "./sf", "--catalog", "link/flaky-5.json"],
        "--catalog link/flaky-5.json: is a file --save-failures ./sf writes",
    );
    refused(
        &["--save-failures", "sf", "--catalog", "sf"],
        "--catalog sf: is a folder",
    );
    refused(
        &[
            "--save-failures",
            "sf",
            "--shard",
            "1/2",
            "--shard-out",
            "sf/flaky-0.json",
        ],
        "--shard-out sf/flaky-0.json: is a file --save-failures sf writes",
    );
    // Other names in the folder are the user's own.
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..10",
            "--save-failures",
            "sf",
            "--catalog",
            "sf/flaky.catalog",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(scratch.path().join("sf/flaky.catalog").is_file());
    assert!(scratch.path().join("sf/flaky-3.txt").is_file());
}

#[test]
fn a_seed_past_its_deadline_is_marked_timed_out_and_the_others_go_on() {
    let scratch = Scratch::new();
    scratch.write(
        "slow.lua",
        r#"
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if rng.seed % 3 == 0 then while true do end end
end }
"#,
    );
    // A budget no run reaches in this test's time: only the deadline ends
    // the runaway seeds.
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "slow.lua",
            "--seeds",
            "0..6",
            "--json",
            "--max-instructions",
            "1000000000000",
            "--timeout",
            "0.5",
            "--size",
            "20x20",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["ok"], 4, "{report}");
    let groups = report["failures"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{report}");
    assert_eq!(groups[0]["kind"], "timed_out");
    assert_eq!(groups[0]["seeds"], serde_json::json!([0, 3]));
    assert!(
        groups[0]["example"]
            .as_str()
            .unwrap()
            .starts_with("slow.lua:5: timed out after 0.5 s"),
        "{report}"
    );
}

/// The table is "over ok maps": its time_ms row measured every seed, so
/// the runaway seeds' 0.5 s stood as the ok maps' maximum.
#[test]
fn the_time_row_is_over_the_ok_maps_alone() {
    let scratch = Scratch::new();
    scratch.write(
        "slow.lua",
        r#"
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if rng.seed % 3 == 0 then while true do end end
end }
"#,
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "slow.lua",
            "--seeds",
            "0..6",
            "--json",
            "--max-instructions",
            "1000000000000",
            "--timeout",
            "0.5",
            "--size",
            "20x20",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["ok"], 4, "{report}");
    // The timed-out seeds ran at least 500 ms each; a 20x20 fill, far less.
    let max = report["time_ms"]["max"].as_f64().unwrap();
    assert!(max < 500.0, "{report}");
}

/// Loading the script to read its declarations is no seed's run: a
/// `--timeout` shorter than the load stopped the whole check at load with
/// exit 1 and no report, where a slightly longer one timed the seeds out.
#[test]
fn a_timeout_shorter_than_the_load_times_out_seeds_not_the_check() {
    let scratch = Scratch::new();
    scratch.write(
        "heavy.lua",
        r#"
local x = 0
for i = 1, 300000 do x = x + i % 7 end
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
end }
"#,
    );
    for timeout in ["1e-9", "0.0001"] {
        let run = dunlua_in(
            scratch.path(),
            &[
                "check",
                "heavy.lua",
                "--seeds",
                "0..3",
                "--size",
                "20x20",
                "--timeout",
                timeout,
            ],
        );
        assert!(run.code == 0 || run.code == 1, "{timeout}: {}", run.stderr);
        assert!(
            run.stdout.starts_with("check heavy.lua: seeds 0..3 (3): "),
            "{timeout}: {}{}",
            run.stdout,
            run.stderr
        );
        if run.code == 1 {
            assert!(run.stdout.contains("timed out ("), "{}", run.stdout);
        }
    }
}

/// `--jobs` above the seeds (or the cores) runs no more threads than
/// there are seeds: each thread made a Lua VM of its own, so `--jobs 1024`
/// on two cores took 9.5 s where `--jobs 2` took 0.35 s.
#[test]
fn more_jobs_than_seeds_run_a_thread_a_seed_at_most() {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    let run = dunlua_in(
        scratch.path(),
        &["check", "flaky.lua", "--seeds", "0..2", "--jobs", "1024"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("2 seeds in ") && run.stderr.contains(" on 1 thread ")
            || run.stderr.contains(" on 2 threads "),
        "{}",
        run.stderr
    );
    let one = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..40",
            "--jobs",
            "1",
            "--json",
        ],
    );
    let many = dunlua_in(
        scratch.path(),
        &[
            "check",
            "flaky.lua",
            "--seeds",
            "0..40",
            "--jobs",
            "1024",
            "--json",
        ],
    );
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert_eq!(many.code, 1, "{}", many.stderr);
    assert_eq!(without_timing(&one.stdout), without_timing(&many.stdout));
}
