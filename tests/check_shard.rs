//! `dunlua check --shard I/N --shard-out FILE` and `check --merge FILES`:
//! four shards put together give the report, digest, page and saved
//! failures of one run over all the seeds, and shards that do not fit
//! together are refused with one line naming the file and the mismatch.

use std::path::Path;

use crate::util::{dunlua, dunlua_in, files_in, Run, Scratch};

/// Fails in a known way on known seeds (by the last digit), with a
/// parameter and a module, so both are part of what shards must share.
const FLAKY: &str = r#"
local extra = require("lib.extra")
return { params = { k = 1 }, generate = function(map, rng, p)
  local s = rng.seed
  extra.room(map, p.k)
  if s % 10 == 3 then error("boom on " .. s) end
  if s % 10 == 5 then map:set(20, 20, "floor") end
  if s % 10 == 7 then map:set_start(0, 0) end
  if s % 10 == 9 then reject("nine") end
  if s % 4 == 0 then map:carve_room(Rect.new(1, 1, 8 + s % 7, 5)) end
end }
"#;

const EXTRA: &str = r#"
return { room = function(map, k)
  map:fill("wall")
  map:fill_rect(Rect.new(1, 1, 4 + k, 3), "floor")
  map:add_room(Rect.new(0, 0, 5 + k, 4))
  map:set_start(2, 2)
end }
"#;

const COMMON: [&str; 3] = ["--max-attempts", "1", "--jobs"];

fn scratch() -> Scratch {
    let scratch = Scratch::new();
    scratch.write("flaky.lua", FLAKY);
    scratch.write("lib/extra.lua", EXTRA);
    scratch
}

/// `check flaky.lua --seeds RANGE --shard I/N --shard-out OUT` plus `extra`.
fn shard(dir: &Path, range: &str, shard: &str, out: &str, extra: &[&str]) -> Run {
    let mut args = vec!["check", "flaky.lua", "--seeds", range];
    args.extend(COMMON);
    args.extend(["1", "--shard", shard, "--shard-out", out]);
    if !extra.contains(&"--size") {
        args.extend(["--size", "30x30"]);
    }
    args.extend(extra);
    let run = dunlua_in(dir, &args);
    assert_eq!(run.code, 0, "shard {shard}: {}", run.stderr);
    run
}

fn without_timing_json(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert!(v["time_ms"].is_object(), "{json}");
    v.as_object_mut().unwrap().remove("time_ms");
    v
}

/// The text (or the page holding it) without the one row that varies.
fn without_timing(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("time_ms "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Equal texts, or a panic that shows the first line that differs (cut
/// short: a page's lines are long).
fn same_text(a: &str, b: &str) {
    let cut = |l: &str| l.chars().take(300).collect::<String>();
    for (i, (x, y)) in a.split('>').zip(b.split('>')).enumerate() {
        assert!(x == y, "piece {i} differs:\n{}\n{}", cut(x), cut(y));
    }
    assert_eq!(a.len(), b.len());
}

fn merge(dir: &Path, files: &[&str], extra: &[&str]) -> Run {
    let mut args = vec!["check", "--merge"];
    args.extend(files);
    args.extend(extra);
    dunlua_in(dir, &args)
}

#[test]
fn four_shards_merge_into_the_report_of_one_run() {
    let scratch = scratch();
    let dir = scratch.path();
    let mut single = vec!["check", "flaky.lua", "--seeds", "0..43"];
    single.extend(COMMON);
    single.extend(["2", "--size", "30x30", "--html", "one.html"]);
    single.extend(["--save-failures", "one"]);
    let text = dunlua_in(dir, &single);
    assert_eq!(text.code, 1, "{}", text.stderr);
    single.push("--json");
    let json = dunlua_in(dir, &single);
    assert_eq!(json.code, 1, "{}", json.stderr);

    for i in 1..=4 {
        shard(dir, "0..43", &format!("{i}/4"), &format!("s{i}.json"), &[]);
    }
    // In any order.
    let files = ["s3.json", "s1.json", "s4.json", "s2.json"];
    let merged_text = merge(dir, &files, &[]);
    assert_eq!(merged_text.code, 1, "{}", merged_text.stderr);
    assert!(
        merged_text.stderr.contains("of 43 seeds failed"),
        "{}",
        merged_text.stderr
    );
    assert_eq!(
        without_timing(&merged_text.stdout),
        without_timing(&text.stdout)
    );
    assert!(
        merged_text.stdout.contains("\ntime_ms "),
        "the timings are the shards': {}",
        merged_text.stdout
    );
    let merged = merge(
        dir,
        &files,
        &[
            "--json",
            "--html",
            "merged.html",
            "--save-failures",
            "merged",
        ],
    );
    assert_eq!(merged.code, 1, "{}", merged.stderr);
    assert!(
        merged.stderr.contains("dunlua: wrote merged.html\n"),
        "{}",
        merged.stderr
    );
    assert!(
        !merged_text.stderr.contains("wrote"),
        "no --html, no page: {}",
        merged_text.stderr
    );
    let (a, b) = (
        without_timing_json(&json.stdout),
        without_timing_json(&merged.stdout),
    );
    assert_eq!(a, b);
    assert!(
        a["digest"].as_str().unwrap().len() == 16 && a["failed"] == 16,
        "{a}"
    );

    // The page: the same, pictures included, but for the timing row.
    let page = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (one, two) = (page("one.html"), page("merged.html"));
    assert!(one.contains("data:image/png;base64,") && one.contains("<h2>Failures</h2>"));
    same_text(&without_timing(&one), &without_timing(&two));

    // The saved failures: the same files, byte for byte.
    let (one, two) = (dir.join("one"), dir.join("merged"));
    assert_eq!(files_in(&one), files_in(&two));
    assert!(files_in(&one).contains(&"flaky-9.png".to_string()));
    for name in files_in(&one) {
        assert_eq!(
            std::fs::read(one.join(&name)).unwrap(),
            std::fs::read(two.join(&name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn shards_of_a_reference_script_give_its_digest() {
    let scratch = Scratch::new();
    let out = |i: u32| scratch.path().join(format!("r{i}.json"));
    for i in 1..=4u32 {
        let path = out(i);
        let run = dunlua(&[
            "check",
            "scripts/rooms.lua",
            "--seeds",
            "100..300",
            "--jobs",
            "2",
            "--shard",
            &format!("{i}/4"),
            "--shard-out",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let one = dunlua(&[
        "check",
        "scripts/rooms.lua",
        "--seeds",
        "100..300",
        "--jobs",
        "2",
    ]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    let paths: Vec<String> = (1..=4).map(|i| out(i).display().to_string()).collect();
    let mut args = vec!["check", "--merge"];
    args.extend(paths.iter().map(String::as_str));
    let merged = dunlua(&args);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(merged.stdout.contains("maps digest "), "{}", merged.stdout);
    assert_eq!(without_timing(&merged.stdout), without_timing(&one.stdout));
}

/// `merge` fails with exit 2 and one line that says `wanted`.
#[track_caller]
fn refused(run: Run, wanted: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(wanted),
        "wanted '{wanted}' in: {}",
        run.stderr
    );
}

#[test]
fn shards_that_do_not_fit_together_are_refused() {
    let scratch = scratch();
    let dir = scratch.path();
    for i in 1..=4 {
        shard(dir, "0..40", &format!("{i}/4"), &format!("s{i}.json"), &[]);
    }
    let ok = merge(dir, &["s1.json", "s2.json", "s3.json", "s4.json"], &[]);
    assert_eq!(
        ok.code, 1,
        "the failing seeds fail the merge: {}",
        ok.stderr
    );

    refused(
        merge(dir, &["s1.json", "s2.json", "s4.json"], &[]),
        "dunlua: --merge: shard 3/4 (seeds 20..30) is missing: 3 of 4 shards given",
    );
    std::fs::copy(dir.join("s2.json"), dir.join("again.json")).unwrap();
    refused(
        merge(
            dir,
            &["s1.json", "s2.json", "s3.json", "s4.json", "again.json"],
            &[],
        ),
        "--merge again.json: shard 2/4 is also in s2.json",
    );
    let four = |name: &str, extra: &[&str]| {
        shard(dir, "0..40", "4/4", name, extra);
        merge(dir, &["s1.json", "s2.json", "s3.json", name], &[])
    };
    refused(
        four("k.json", &["-p", "k=2"]),
        r#"--merge k.json: parameters {"k":"2"} differs from {"k":"1"} in s1.json"#,
    );
    refused(
        four("size.json", &["--size", "31x30"]),
        "--merge size.json: --size [31,30] differs from [30,30] in s1.json",
    );
    refused(
        four("limits.json", &["--max-instructions", "9000000"]),
        "--merge limits.json: limits {\"max_instructions\":9000000,",
    );
    shard(dir, "0..50", "4/4", "range.json", &[]);
    refused(
        merge(dir, &["s1.json", "s2.json", "s3.json", "range.json"], &[]),
        "--merge range.json: seed range [0,50] differs from [0,40] in s1.json",
    );
    shard(dir, "0..40", "5/5", "five.json", &[]);
    refused(
        merge(dir, &["s1.json", "s2.json", "s3.json", "five.json"], &[]),
        "--merge five.json: shard count N 5 differs from 4 in s1.json",
    );

    // The script or a module edited between shards.
    scratch.write("flaky.lua", &format!("{FLAKY}-- edited\n"));
    refused(
        four("edited.json", &[]),
        "--merge edited.json: script source hash ",
    );
    // ... or since: the page and the saved failures are made from it again.
    refused(
        merge(
            dir,
            &["s1.json", "s2.json", "s3.json", "s4.json"],
            &["--html", "page.html"],
        ),
        "--merge: flaky.lua changed since the shards ran",
    );
    assert!(!dir.join("page.html").exists());
    scratch.write("flaky.lua", FLAKY);
    scratch.write("lib/extra.lua", &format!("{EXTRA}-- edited\n"));
    refused(
        four("module.json", &[]),
        "--merge module.json: module lib/extra.lua hash ",
    );
    scratch.write("lib/extra.lua", EXTRA);
    // A module gone since the shards ran: the page cannot be made again
    // (it was exit 1, "cannot read", as if seeds had failed).
    std::fs::rename(dir.join("lib/extra.lua"), dir.join("lib/gone.lua")).unwrap();
    refused(
        merge(
            dir,
            &["s1.json", "s2.json", "s3.json", "s4.json"],
            &["--html", "page.html"],
        ),
        "--merge: module lib/extra.lua of flaky.lua cannot be read",
    );
    assert!(!dir.join("page.html").exists());
    std::fs::rename(dir.join("lib/gone.lua"), dir.join("lib/extra.lua")).unwrap();

    // A shard of another build of dunlua (whose maps may differ though its
    // version is the same): refused, both builds named.
    let mut other: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s4.json")).unwrap()).unwrap();
    let ours = other["engine"].as_str().unwrap().to_string();
    assert_eq!(ours.len(), 16, "{ours}");
    other["engine"] = serde_json::json!("0123456789abcdef");
    scratch.write("build.json", &other.to_string());
    refused(
        merge(dir, &["s1.json", "s2.json", "s3.json", "build.json"], &[]),
        &format!(
            "--merge build.json: dunlua engine build \"0123456789abcdef\" differs from \"{ours}\" in s1.json"
        ),
    );
    // All of another build: their digest stands, but no map is made again
    // by this one.
    let mut all = Vec::new();
    for i in 1..=4 {
        let name = format!("s{i}.json");
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&name)).unwrap()).unwrap();
        json["engine"] = serde_json::json!("0123456789abcdef");
        let name = format!("b{i}.json");
        scratch.write(&name, &json.to_string());
        all.push(name);
    }
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    assert_eq!(merge(dir, &all, &["--no-variety"]).code, 1);
    refused(
        merge(dir, &all, &["--html", "page.html"]),
        "its dunlua engine build \"0123456789abcdef\" is not this one's",
    );

    // Not shards, or damaged ones.
    scratch.write("other.json", "{\"format\": 2, \"width\": 3}");
    refused(
        merge(dir, &["s1.json", "other.json"], &[]),
        "--merge other.json: not a check shard",
    );
    let text = std::fs::read_to_string(dir.join("s1.json")).unwrap();
    scratch.write("v9.json", &text.replace("\"version\":2,", "\"version\":9,"));
    refused(
        merge(dir, &["v9.json"], &[]),
        "--merge v9.json: shard format version 9, this dunlua reads version 2",
    );
    scratch.write("cut.json", &text.replace("{\"seed\":3,", "{\"seed\":33,"));
    refused(
        merge(dir, &["cut.json", "s2.json", "s3.json", "s4.json"], &[]),
        "--merge cut.json: holds 10 results, not one for each seed of its slice 0..10 in order",
    );
    refused(
        merge(dir, &["missing.json"], &[]),
        "--merge missing.json: cannot read it",
    );
    // What the shards fix cannot be changed at the merge.
    refused(
        merge(dir, &["s1.json", "s2.json", "s3.json", "s4.json"], &["-p", "k=2"]),
        "--merge takes the script, seeds, parameters, size and limits from the shards; -p cannot change them",
    );
    // --seeds was ignored: the report was of the shards' 0..40.
    refused(
        merge(
            dir,
            &["s1.json", "s2.json", "s3.json", "s4.json"],
            &["--seeds", "0..5", "--html", "page.html"],
        ),
        "dunlua: --merge takes the script, seeds, parameters, size and limits from the shards; --seeds cannot change them",
    );
    assert!(!dir.join("page.html").exists());
}

#[test]
fn shard_usage_errors() {
    let scratch = scratch();
    let dir = scratch.path();
    for (args, wanted) in [
        (
            vec!["--shard", "5/4", "--shard-out", "x.json"],
            "expected I/N",
        ),
        (vec!["--shard", "1/4"], "--shard-out"),
        (vec!["--shard-out", "x.json"], "--shard"),
        (
            vec![
                "--shard",
                "1/4",
                "--shard-out",
                "x.json",
                "--html",
                "a.html",
            ],
            "cannot be used with",
        ),
        (
            vec!["--shard", "1/4", "--shard-out", "flaky.lua"],
            "is the script itself",
        ),
        (
            vec!["--shard", "1/4", "--shard-out", "nowhere/x.json"],
            "folder nowhere does not exist",
        ),
    ] {
        let mut all = vec!["check", "flaky.lua"];
        all.extend(args);
        let run = dunlua_in(dir, &all);
        assert_eq!(run.code, 2, "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(wanted), "{all:?}: {}", run.stderr);
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("flaky.lua")).unwrap(),
        FLAKY
    );
    // A module is known once the runs loaded it: refused then, untouched.
    let run = dunlua_in(
        dir,
        &[
            "check",
            "flaky.lua",
            "--shard",
            "1/4",
            "--shard-out",
            "lib/extra.lua",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "dunlua: --shard-out lib/extra.lua: is the module lib/extra.lua the script loads\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("lib/extra.lua")).unwrap(),
        EXTRA
    );
    let run = dunlua_in(dir, &["check", "flaky.lua", "--merge", "s1.json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = dunlua_in(dir, &["check"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// Two layouts by seed parity; seeds from 10 on add one water cell.
const TWINS: &str = r#"
return { width = 30, height = 20, generate = function(map, rng, p, ctx)
  local s = ctx.seed
  map:fill("wall")
  map:carve_room(Rect.new(1 + s % 2 * 4, 1, 12, 10))
  if s >= 10 then map:set(4 + s % 2 * 4, 5, "water") end
  map:set_start(3 + s % 2 * 4, 3)
end }
"#;

#[test]
fn shards_carry_what_the_variety_pass_needs() {
    let scratch = Scratch::new();
    scratch.write("twins.lua", TWINS);
    let dir = scratch.path();
    for i in 1..=2 {
        let run = dunlua_in(
            dir,
            &[
                "check",
                "twins.lua",
                "--seeds",
                "0..20",
                "--shard",
                &format!("{i}/2"),
                "--shard-out",
                &format!("t{i}.json"),
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("t2.json")).unwrap()).unwrap();
    assert_eq!(file["variety"], true);
    assert_eq!(file["heat"][0]["size"], serde_json::json!([30, 20]));
    assert_eq!(file["heat"][0]["maps"], 10);
    assert_eq!(file["results"][0]["sketch"].as_str().unwrap().len(), 2048);

    // --near is the merge's own: it gives what one run with it gives.
    let one = dunlua_in(
        dir,
        &["check", "twins.lua", "--seeds", "0..20", "--near", "0.01"],
    );
    let merged = merge(dir, &["t1.json", "t2.json"], &["--near", "0.01"]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(without_timing(&merged.stdout), without_timing(&one.stdout));
    assert!(
        one.stdout
            .contains("near-duplicates: 2 groups, 4 seeds\n    seeds 0 10\n    seeds 1 11\n"),
        "{}",
        one.stdout
    );

    // Verifying the near pairs makes maps again: not from an edited script
    // (unless the pass is left out).
    scratch.write("twins.lua", &format!("{TWINS}-- edited\n"));
    refused(
        merge(dir, &["t1.json", "t2.json"], &[]),
        "--merge: twins.lua changed since the shards ran",
    );
    let without = merge(dir, &["t1.json", "t2.json"], &["--no-variety"]);
    assert_eq!(without.code, 0, "{}", without.stderr);
    assert!(!without.stdout.contains("variety"), "{}", without.stdout);
    // Shards run without the pass merge without it, and not with shards
    // run with it.
    scratch.write("twins.lua", TWINS);
    for (shard, out) in [("1/1", "n.json"), ("2/2", "n2.json")] {
        let run = dunlua_in(
            dir,
            &[
                "check",
                "twins.lua",
                "--seeds",
                "0..20",
                "--shard",
                shard,
                "--shard-out",
                out,
                "--no-variety",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let merged = merge(dir, &["n.json"], &[]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(!merged.stdout.contains("variety"), "{}", merged.stdout);
    refused(
        merge(dir, &["t1.json", "n2.json"], &[]),
        "--merge n2.json: variety false differs from true in t1.json",
    );
}

/// Values no check could have measured are a damaged shard too: a passing
/// seed with more (or fewer) metrics rows than its dungeons have levels, a
/// metric that is not a count (NaN, 1e300, 2.5 rooms) or a ratio above 1,
/// a time of 1e308 ms. Each merged with exit 0 and printed the nonsense.
#[test]
fn shards_with_values_no_check_measures_are_refused() {
    let scratch = scratch();
    let dir = scratch.path();
    for i in 1..=2 {
        shard(dir, "0..20", &format!("{i}/2"), &format!("s{i}.json"), &[]);
    }
    let text = std::fs::read_to_string(dir.join("s1.json")).unwrap();
    let damaged = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let results = json["results"].as_array_mut().unwrap();
        let passing = results
            .iter_mut()
            .find(|r| r.get("metrics").is_some())
            .expect("a passing seed");
        edit(passing);
        scratch.write(name, &json.to_string());
        merge(dir, &[name, "s2.json"], &[])
    };
    refused(
        damaged("rows.json", &|r| {
            let row = r["metrics"][0].clone();
            r["metrics"] = serde_json::json!([row.clone(), row]);
        }),
        "metrics rows, where its dungeons have 1 levels",
    );
    refused(
        damaged("none.json", &|r| r["metrics"] = serde_json::json!([])),
        "0 metrics rows, where a seed makes 1 to 32 levels",
    );
    for (name, value) in [
        ("nan.json", serde_json::json!("NaN")),
        ("huge.json", serde_json::json!(1e300)),
        ("half.json", serde_json::json!("2.5")),
    ] {
        refused(
            damaged(name, &|r| r["metrics"][0][1] = value.clone()),
            "a metrics row is not 6 measures",
        );
    }
    refused(
        damaged("ratio.json", &|r| {
            r["metrics"][0][2] = serde_json::json!("1.5")
        }),
        "a metrics row is not 6 measures",
    );
    refused(
        damaged("time.json", &|r| r["time_ms"] = serde_json::json!(1e308)),
        "a time that is not a number of milliseconds",
    );
    // Each of these merged silently.
    refused(
        damaged("attempts.json", &|r| {
            r["metrics"][0][0] = serde_json::json!(0)
        }),
        "a metrics row is not 6 measures",
    );
    for (name, hash) in [
        ("short.json", "abc"),
        ("plus.json", "+123456789abcdef"),
        ("long.json", "0123456789abcdef0"),
    ] {
        refused(
            damaged(name, &|r| r["hash"] = serde_json::json!(hash)),
            &format!("--merge {name}: a damaged check shard: seed "),
        );
        refused(
            damaged(name, &|r| r["hash"] = serde_json::json!(hash)),
            &format!("hash '{hash}' is not 16 hex digits"),
        );
    }
    refused(
        damaged("sketch.json", &|r| {
            r.as_object_mut().unwrap().remove("sketch");
        }),
        "no variety sketch, where the seed made a map",
    );
    let failing = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let results = json["results"].as_array_mut().unwrap();
        let failed = results
            .iter_mut()
            .find(|r| r.get("problem").is_some())
            .expect("a failing seed");
        edit(failed);
        scratch.write(name, &json.to_string());
        merge(dir, &[name, "s2.json"], &[])
    };
    refused(
        failing("message.json", &|r| {
            r.as_object_mut().unwrap().remove("message");
        }),
        "--merge message.json: a damaged check shard: seed 3: a problem with no message",
    );
    let ok = merge(dir, &["s1.json", "s2.json"], &[]);
    assert!(ok.code == 0 || ok.code == 1, "{}", ok.stderr);
}

/// A shard's heat maps must be the count of its own maps: a heat map of a
/// billion maps, one size given twice or a cell walkable in more maps than
/// were counted merged with exit 0 and the page printed the nonsense
/// ("over 1000000060 maps", "0.0% of cells always, 0.0% never").
#[test]
fn shards_whose_heat_maps_contradict_their_results_are_refused() {
    let scratch = scratch();
    let dir = scratch.path();
    for i in 1..=2 {
        shard(dir, "0..20", &format!("{i}/2"), &format!("s{i}.json"), &[]);
    }
    let text = std::fs::read_to_string(dir.join("s1.json")).unwrap();
    let made = serde_json::from_str::<serde_json::Value>(&text).unwrap()["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("hash").is_some())
        .count();
    let damaged = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["heat"].as_array().unwrap().len(), 1, "{text}");
        edit(&mut json);
        scratch.write(name, &json.to_string());
        let run = merge(dir, &[name, "s2.json"], &["--html", "page.html"]);
        assert!(!dir.join("page.html").exists(), "{name}");
        run
    };
    refused(
        damaged("billion.json", &|j| {
            j["heat"][0]["maps"] = serde_json::json!(1_000_000_000u64)
        }),
        &format!(
            "--merge billion.json: a damaged check shard: its heat maps count 1000000000 maps, where its seeds made {made}"
        ),
    );
    refused(
        damaged("twice.json", &|j| {
            let heat = j["heat"][0].clone();
            j["heat"] = serde_json::json!([heat.clone(), heat]);
        }),
        "--merge twice.json: a damaged check shard: the heat map of 30x30 is given twice",
    );
    refused(
        damaged("above.json", &|j| {
            let maps = j["heat"][0]["maps"].as_u64().unwrap();
            for c in j["heat"][0]["walkable"].as_array_mut().unwrap() {
                *c = serde_json::json!(maps + 1);
            }
        }),
        &format!(
            "--merge above.json: a damaged check shard: the heat map of 30x30 counts a cell walkable in {} of its {made} maps",
            made + 1
        ),
    );
    refused(
        damaged("zero.json", &|j| {
            j["heat"][0]["maps"] = serde_json::json!(0)
        }),
        "--merge zero.json: a damaged check shard: the heat map of 30x30 counts 0 maps",
    );
    refused(
        damaged("shape.json", &|j| {
            j["heat"][0]["walkable"] = serde_json::json!([0])
        }),
        "--merge shape.json: a damaged check shard: a heat map is not 30x30",
    );
    // Heat maps in a shard run without the variety pass (all of the range).
    shard(dir, "0..20", "1/1", "whole.json", &[]);
    let mut whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("whole.json")).unwrap()).unwrap();
    whole["variety"] = serde_json::json!(false);
    scratch.write("none.json", &whole.to_string());
    refused(
        merge(dir, &["none.json"], &["--html", "page.html"]),
        "--merge none.json: a damaged check shard: heat maps, where the shard ran without the variety pass",
    );
    assert!(!dir.join("page.html").exists());
    // The shards as written still merge, page and all.
    let ok = merge(dir, &["s1.json", "s2.json"], &["--html", "page.html"]);
    assert_eq!(
        ok.code, 1,
        "the failing seeds fail the merge: {}",
        ok.stderr
    );
    assert!(dir.join("page.html").exists());
}

/// The shards name the script from the folder they ran in: a merge run
/// from another folder could not read it ("cannot read flaky.lua", exit
/// 1). It is found from the shard files' folder too, in older shards
/// (without `script_from_shard`) by its name, and a script found nowhere
/// is one line naming the shard and the script, exit 2.
#[test]
fn shards_merge_from_another_folder() {
    let scratch = scratch();
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    for i in 1..=2 {
        shard(
            dir,
            "0..20",
            &format!("{i}/2"),
            &format!("out/s{i}.json"),
            &[],
        );
    }
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/s1.json")).unwrap()).unwrap();
    assert_eq!(file["script"], "flaky.lua");
    assert_eq!(file["script_from_shard"], "../flaky.lua");
    let abs = |name: &str| dir.join(name).display().to_string();
    let (s1, s2, page) = (abs("out/s1.json"), abs("out/s2.json"), abs("page.html"));
    let here = merge(
        dir,
        &["out/s1.json", "out/s2.json"],
        &["--html", "page.html"],
    );
    assert_eq!(
        here.code, 1,
        "the failing seeds fail the merge: {}",
        here.stderr
    );
    let away = merge(&dir.join("elsewhere"), &[&s1, &s2], &["--html", &page]);
    assert_eq!(away.code, 1, "{}", away.stderr);
    assert!(!away.stderr.contains("cannot"), "{}", away.stderr);
    assert!(std::fs::read_to_string(dir.join("page.html"))
        .unwrap()
        .contains("<img"));
    std::fs::remove_file(dir.join("page.html")).unwrap();

    // An older shard, without script_from_shard, next to the script.
    for i in 1..=2 {
        let mut json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("out/s{i}.json"))).unwrap(),
        )
        .unwrap();
        json.as_object_mut().unwrap().remove("script_from_shard");
        scratch.write(&format!("old{i}.json"), &json.to_string());
        scratch.write(&format!("elsewhere/old{i}.json"), &json.to_string());
    }
    let old = merge(
        &dir.join("elsewhere"),
        &[&abs("old1.json"), &abs("old2.json")],
        &["--html", &page],
    );
    assert_eq!(old.code, 1, "{}", old.stderr);
    assert!(dir.join("page.html").exists());
    std::fs::remove_file(dir.join("page.html")).unwrap();

    // Nowhere to be found: the shard and the script named, no page.
    let lost = merge(
        &dir.join("elsewhere"),
        &["old1.json", "old2.json"],
        &["--html", &page],
    );
    refused(
        lost,
        "dunlua: --merge old1.json: cannot find its script flaky.lua (from here, nor from the shard file's folder",
    );
    assert!(!dir.join("page.html").exists());
}
