//! `check`'s variety pass and seed catalog, through the real binary: a
//! script made to repeat itself is caught (identical and near-duplicate
//! groups), rooms.lua is not, the figures do not depend on `--jobs` or on
//! sharding, and a catalog written with one parameter lists exactly the
//! seeds another value of it changes.

use serde_json::{json, Value};

use crate::util::{dunlua, dunlua_in, Scratch};

/// Three layouts chosen by `seed % 3` (the rng is ignored); from seed 30
/// on, one cell of the second room turns to water at one of three places
/// (`seed % 9`), so those seeds are near-duplicates of their layout.
const REPEAT: &str = r#"
return { width = 40, height = 30, generate = function(map, rng, p, ctx)
  local s = ctx.seed
  local k = s % 3
  map:fill("wall")
  map:carve_room(Rect.new(2 + k * 5, 2, 10, 8))
  map:carve_room(Rect.new(20, 10 + k * 3, 12, 8))
  map:h_tunnel(8, 26, 6)
  map:v_tunnel(6, 14 + k * 3, 26)
  if s >= 30 then map:set(21 + s % 9, 12 + k * 3, "water") end
  map:set_start(8, 6)
end }
"#;

/// Rooms and markers drawn from the rng; `wide` widens the second room,
/// but only on seeds that are multiples of 4 (the rest never read it).
const WIDE: &str = r#"
return { width = 40, height = 24, params = { wide = false }, generate = function(map, rng, p, ctx)
  map:fill("wall")
  local w = 6 + rng:int(4)
  if ctx.seed % 4 == 0 and p.wide then w = w + 3 end
  local a = Rect.new(1 + rng:int(5), 1 + rng:int(5), 8, 6)
  local b = Rect.new(22, 10 + rng:int(4), w, 6)
  map:carve_room(a); map:add_room(a)
  map:carve_room(b); map:add_room(b)
  local ax, ay = a:center()
  local bx, by = b:center()
  map:l_tunnel(ax, ay, bx, by, true)
  map:set_start(ax, ay)
  for i = 1, 1 + ctx.seed % 3 do map:mark(bx + i - 1, by, "key") end
  map:mark(ax, ay, "exit")
end }
"#;

fn json_of(stdout: &str) -> Value {
    let mut v: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    v.as_object_mut().unwrap().remove("time_ms");
    v
}

fn every(start: u64, step: u64, end: u64) -> Vec<u64> {
    (start..end).step_by(step as usize).collect()
}

#[test]
fn a_repeating_script_has_its_identical_and_near_seeds_reported() {
    let scratch = Scratch::new();
    scratch.write("repeat.lua", REPEAT);
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "repeat.lua",
            "--seeds",
            "0..60",
            "--json",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json_of(&run.stdout);
    let variety = &v["variety"];
    assert_eq!(variety["maps"], 60);
    // The three layouts, and each of the nine watery variants.
    let mut identical = vec![every(0, 3, 30), every(1, 3, 30), every(2, 3, 30)];
    for first in 30..39 {
        identical.push(every(first, 9, 60));
    }
    identical.sort();
    assert_eq!(variety["identical"], json!(identical));
    // A layout and its three variants, each named by its first seed.
    assert_eq!(
        variety["near_groups"],
        json!([[0, 30, 33, 36], [1, 31, 34, 37], [2, 32, 35, 38]])
    );
    // Per layout: 3 pairs with the plain map (1 cell of 1200), 3 between
    // variants (2 cells).
    assert_eq!(variety["near_pairs"], 18);
    let pairs = variety["pairs"].as_array().unwrap();
    assert_eq!(
        pairs[0],
        json!({"seeds": [0, 30], "distance": 1.0 / 1200.0})
    );
    assert_eq!(pairs[17]["distance"], json!(2.0 / 1200.0));
    assert_eq!(variety["room_counts"], 1);

    // The text names the groups too.
    let text = dunlua_in(scratch.path(), &["check", "repeat.lua", "--seeds", "0..60"]);
    assert!(
        text.stdout
            .contains("identical maps: 12 groups, 60 seeds\n    seeds 0 3 6 9 12 15 18 21 24 27\n"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("near-duplicates: 3 groups, 12 seeds\n    seeds 0 30 33 36\n"),
        "{}",
        text.stdout
    );

    // A tighter threshold keeps only the one-cell pairs... and none under
    // one cell.
    let tight = dunlua_in(
        scratch.path(),
        &[
            "check",
            "repeat.lua",
            "--seeds",
            "0..60",
            "--json",
            "--near",
            "0.0015",
        ],
    );
    assert_eq!(json_of(&tight.stdout)["variety"]["near_pairs"], 9);
    let none = dunlua_in(
        scratch.path(),
        &[
            "check",
            "repeat.lua",
            "--seeds",
            "0..60",
            "--json",
            "--near",
            "0.0005",
        ],
    );
    assert_eq!(json_of(&none.stdout)["variety"]["near_pairs"], 0);
    for bad in ["0", "-1", "NaN", "2", "x"] {
        let flag = format!("--near={bad}");
        let run = dunlua_in(scratch.path(), &["check", "repeat.lua", &flag]);
        assert_eq!(run.code, 2, "--near {bad}: {}", run.stderr);
        assert!(run.stderr.contains("--near"), "{}", run.stderr);
    }
    let off = dunlua_in(
        scratch.path(),
        &[
            "check",
            "repeat.lua",
            "--seeds",
            "0..60",
            "--json",
            "--no-variety",
        ],
    );
    assert!(json_of(&off.stdout).get("variety").is_none());
}

#[test]
fn rooms_makes_neither_identical_nor_near_maps() {
    let run = dunlua(&["check", "scripts/rooms.lua", "--seeds", "0..400", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let variety = &json_of(&run.stdout)["variety"];
    assert_eq!(variety["identical"], json!([]), "{variety}");
    assert_eq!(variety["near_groups"], json!([]), "{variety}");
    assert_eq!(variety["sample"], 256);
    let spread = variety["mean_distance"].as_f64().unwrap();
    assert!(spread > 0.2 && spread < 0.8, "{spread}");
    assert!(variety["room_entropy"].as_f64().unwrap() > 1.5, "{variety}");
}

#[test]
fn variety_is_the_same_whatever_the_jobs_and_the_shards() {
    let scratch = Scratch::new();
    scratch.write("repeat.lua", REPEAT);
    let dir = scratch.path();
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "repeat.lua", "--seeds", "0..75", "--json"];
        args.extend(extra);
        let run = dunlua_in(dir, &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        json_of(&run.stdout)
    };
    let one = check(&["--jobs", "1", "--html", "one.html"]);
    assert_eq!(one, check(&["--jobs", "3"]));
    for i in 1..=3 {
        let out = format!("s{i}.json");
        let run = dunlua_in(
            dir,
            &[
                "check",
                "repeat.lua",
                "--seeds",
                "0..75",
                "--jobs",
                "2",
                "--shard",
                &format!("{i}/3"),
                "--shard-out",
                &out,
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let merged = dunlua_in(
        dir,
        &[
            "check", "--merge", "s2.json", "s3.json", "s1.json", "--json", "--html", "two.html",
        ],
    );
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(json_of(&merged.stdout), one);
    assert_eq!(one["variety"]["near_pairs"], 18);
    // The page (heat map and pairs included) but for the timing row.
    let page = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("time_ms "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (a, b) = (page("one.html"), page("two.html"));
    assert!(a.contains("<h2>Variety</h2>") && a.contains("walkable heat map"));
    assert!(a.contains("alt=\"cells that differ\""));
    assert!(a == b, "the merged page differs");
}

#[test]
fn a_catalog_lists_exactly_the_seeds_a_parameter_changes() {
    let scratch = Scratch::new();
    scratch.write("wide.lua", WIDE);
    let dir = scratch.path();
    let run = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--seeds",
            "0..40",
            "--catalog",
            "before.cat",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(dir.join("before.cat")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# dunlua-catalog 1");
    assert_eq!(lines.len(), 2 + 40, "{text}");
    assert!(lines[2].starts_with("seed=0 floor=0."), "{}", lines[2]);
    assert!(
        lines[2].contains(" markers=exit:1,key:1 path=")
            && lines[2].ends_with(" rooms=2 verdict=ok"),
        "{}",
        lines[2]
    );
    assert!(lines[4].contains("markers=exit:1,key:3"), "{}", lines[4]);

    // The same run: nothing changed, exit 0.
    let same = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--seeds",
            "0..40",
            "--against",
            "before.cat",
        ],
    );
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(same
        .stdout
        .contains("against before.cat: 0 seeds changed, 0 added, 0 missing\n"));

    // wide=true: exactly the multiples of 4, hash first; exit 1.
    let wide = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--seeds",
            "0..42",
            "-p",
            "wide=true",
            "--against",
            "before.cat",
            "--catalog",
            "after.cat",
        ],
    );
    assert_eq!(wide.code, 1, "{}", wide.stderr);
    assert!(
        wide.stderr
            .contains("10 seeds changed, 2 added, 0 missing against before.cat"),
        "{}",
        wide.stderr
    );
    let listed: Vec<&str> = wide
        .stdout
        .lines()
        .filter(|l| l.starts_with("  seed "))
        .collect();
    let changed: Vec<u64> = listed
        .iter()
        .filter(|l| !l.contains("added"))
        .map(|l| l[7..l.find(':').unwrap()].parse().unwrap())
        .collect();
    assert_eq!(changed, every(0, 4, 40), "{}", wide.stdout);
    assert!(listed[0].starts_with("  seed 0: hash "), "{}", listed[0]);
    assert!(listed[0].contains(", floor 0."), "{}", listed[0]);
    assert!(
        listed[10].starts_with("  seed 40: added (floor="),
        "{listed:?}"
    );
    // With --json, standard output is the report alone.
    let json = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--seeds",
            "0..40",
            "-p",
            "wide=true",
            "--against",
            "before.cat",
            "--json",
        ],
    );
    assert_eq!(json.code, 1, "{}", json.stderr);
    assert_eq!(json_of(&json.stdout)["total"], 40);
    assert!(
        json.stderr.contains("against before.cat: 10 seeds changed"),
        "{}",
        json.stderr
    );
    // And back: the new catalog against the old run lists the same seeds,
    // the two extra ones as missing.
    let back = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--seeds",
            "0..40",
            "--against",
            "after.cat",
        ],
    );
    assert_eq!(back.code, 1);
    assert!(
        back.stdout.contains("10 seeds changed, 0 added, 2 missing"),
        "{}",
        back.stdout
    );
    assert!(
        back.stdout.contains("  seed 41: missing (was floor="),
        "{}",
        back.stdout
    );
}

#[test]
fn bad_catalogs_are_one_line_errors_naming_the_file_and_line() {
    let scratch = Scratch::new();
    scratch.write("wide.lua", WIDE);
    let dir = scratch.path();
    let refused = |args: &[&str], expected: &str| {
        let mut all = vec!["check", "wide.lua", "--seeds", "0..5"];
        all.extend(args);
        let run = dunlua_in(dir, &all);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    };
    scratch.write("text.cat", "hello\n");
    refused(
        &["--against", "text.cat"],
        "--against text.cat:1: not a seed catalog",
    );
    scratch.write(
        "bad.cat",
        "# dunlua-catalog 1\n# c\nseed=1 floor=0.1000 hash=ab markers=- path=3 rooms=2 verdict=ok\nseed=2 floor=0.1000 markers=- path=3 rooms=2 verdict=ok\n",
    );
    refused(
        &["--against", "bad.cat"],
        "--against bad.cat:4: seed 2 has no hash=",
    );
    // A catalog cut short, as by `head -c`: its last line is refused.
    let whole = "# dunlua-catalog 1\nseed=1 floor=0.1000 hash=ab markers=- path=3 rooms=2 verdict=ok\nseed=2 floor=0.1000 hash=cd markers=exit:1,key:1 path=3 rooms=2 verdict=ok\n";
    scratch.write("cut.cat", &whole[..whole.len() - 30]);
    refused(
        &["--against", "cut.cat"],
        "--against cut.cat:3: the last line is cut short",
    );
    scratch.write(
        "twice.cat",
        "# dunlua-catalog 1\nseed=1 floor=0.1000 hash=ab markers=- path=3 rooms=2 verdict=ok\nseed=1 floor=0.1000 hash=cd markers=- path=3 rooms=2 verdict=ok\n",
    );
    refused(
        &["--against", "twice.cat"],
        "--against twice.cat:3: seed 1 appears twice",
    );
    scratch.write("future.cat", "# dunlua-catalog 7\n");
    refused(
        &["--against", "future.cat"],
        "catalog format '# dunlua-catalog 7'",
    );
    std::fs::write(dir.join("binary.cat"), [0xff, 0xfe, 0]).unwrap();
    refused(
        &["--against", "binary.cat"],
        "--against binary.cat: not a seed catalog",
    );
    refused(
        &["--against", "missing.cat"],
        "--against missing.cat: cannot read it",
    );
    refused(&["--against", "."], "--against .: cannot read it");
    refused(
        &["--catalog", "wide.lua"],
        "--catalog wide.lua: is the script itself",
    );
    refused(
        &["--catalog", "nowhere/x.cat"],
        "folder nowhere does not exist",
    );
    refused(&["--catalog", "."], "is a folder");
    refused(
        &["--catalog", "r.html", "--html", "r.html"],
        "--catalog r.html: is the same file as --html r.html",
    );
    // Nor a module the script loads: found after the run, nothing written.
    let module = "return { room = function(map) map:fill(\"wall\"); map:carve_room(Rect.new(1, 1, 6, 5)); map:set_start(2, 2) end }\n";
    scratch.write("lib/m.lua", module);
    scratch.write(
        "req.lua",
        "local m = require(\"lib.m\")\nreturn { generate = function(map) m.room(map) end }\n",
    );
    let run = dunlua_in(
        dir,
        &[
            "check",
            "req.lua",
            "--seeds",
            "0..3",
            "--catalog",
            "lib/m.lua",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--catalog lib/m.lua: is "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("which the script reads"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("lib/m.lua")).unwrap(),
        module
    );
    // Not with shards.
    let run = dunlua_in(
        dir,
        &[
            "check",
            "wide.lua",
            "--shard",
            "1/2",
            "--shard-out",
            "s.json",
            "--catalog",
            "c.cat",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(std::fs::read_to_string(dir.join("wide.lua")).unwrap() == WIDE);
}
