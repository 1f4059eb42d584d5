//! `wfc.fill`: every window of a fill is one of the sample's, checked here
//! independently of the solver (the sample turned and mirrored whole, its
//! windows read off each copy); fixed cells, border, connected, path and
//! counts hold for seeds 0..99; the same seed gives the same map; the
//! unsatisfiable ends fast with a reason; wrong arguments are located.

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

use dunlua::{Generated, Generator};

use crate::util::{dunlua_in, Scratch};

/// The test sample: caves with pools, drawn with `#`, `.` and `~`.
const SAMPLE: [&str; 16] = [
    "################",
    "####....########",
    "###......#######",
    "##...##...######",
    "##..####...#####",
    "#...####....####",
    "#....##......###",
    "##.....~~...####",
    "###...~~~~..####",
    "####..~~~~..####",
    "###....~~....###",
    "##...........###",
    "##.......#...###",
    "###.....###.####",
    "#####.....######",
    "################",
];

/// A hand-drawn chamber kept as it is, stamped at `ROOM_AT`: a piece of
/// the sample (rows 3..=10, columns 2..=11), so the sample itself shows
/// that its edges can be continued.
fn room() -> Vec<String> {
    SAMPLE[3..=10]
        .iter()
        .map(|r| r[2..=11].to_string())
        .collect()
}
const ROOM_SIZE: (i32, i32) = (10, 8);
const ROOM_AT: (i32, i32) = (9, 5);
const PATH: [(i32, i32); 2] = [(2, 2), (25, 15)];
const SIZE: (i32, i32) = (28, 18);

fn lua_rows(rows: &[&str]) -> String {
    let quoted: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!("{{ {} }}", quoted.join(", "))
}

/// The script the property test runs: a room stamped, the rest filled
/// around it with every global constraint on.
fn constrained_script() -> String {
    format!(
        r##"local SAMPLE = {sample}
local ROOM = {room}
return {{
  width = {w}, height = {h},
  generate = function(map, rng)
    map:fill("wall")
    local room = map:stamp({rx}, {ry}, ROOM, {{ ["#"] = "wall", ["."] = "floor", ["~"] = "water" }})
    local region = map:select_rect(Rect.new(0, 0, map.width - 1, map.height - 1)):subtract(map:select_rect(room))
    local ok, why = wfc.fill(map, region, {{
      sample = SAMPLE, legend = {{ ["#"] = "wall", ["."] = "floor", ["~"] = "water" }},
      n = 3, symmetry = 8, border = "wall", connected = true,
      path = {{ {{{ax}, {ay}}}, {{{bx}, {by}}} }}, counts = {{ water = {{0, 30}} }}, attempts = 50,
    }}, rng)
    if not ok then error(why) end
    map:set_start({ax}, {ay})
  end,
}}
"##,
        sample = lua_rows(&SAMPLE),
        room = lua_rows(&room().iter().map(String::as_str).collect::<Vec<_>>()),
        w = SIZE.0,
        h = SIZE.1,
        rx = ROOM_AT.0,
        ry = ROOM_AT.1,
        ax = PATH[0].0,
        ay = PATH[0].1,
        bx = PATH[1].0,
        by = PATH[1].1,
    )
}

/// Every n×n window of the sample, of each of its 8 turns and mirrors.
fn sample_windows(sample: &[&str], n: usize) -> HashSet<Vec<char>> {
    let grid: Vec<Vec<char>> = sample.iter().map(|r| r.chars().collect()).collect();
    let turn = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        let (h, w) = (g.len(), g[0].len());
        (0..w)
            .map(|x| (0..h).rev().map(|y| g[y][x]).collect())
            .collect()
    };
    let mirror = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        g.iter()
            .map(|r| r.iter().rev().copied().collect())
            .collect()
    };
    let mut copies = vec![grid.clone(), mirror(&grid)];
    let mut g = grid;
    for _ in 0..3 {
        g = turn(&g);
        copies.push(g.clone());
        copies.push(mirror(&g));
    }
    let mut out = HashSet::new();
    for g in copies {
        for y in 0..=g.len() - n {
            for x in 0..=g[0].len() - n {
                out.insert(
                    (0..n)
                        .flat_map(|j| (0..n).map(move |i| (i, j)))
                        .map(|(i, j)| g[y + j][x + i])
                        .collect(),
                );
            }
        }
    }
    out
}

fn glyph(map: &Generated, x: i32, y: i32) -> char {
    match map.tile_name(x, y) {
        Some("wall") => '#',
        Some("floor") => '.',
        Some("water") => '~',
        other => panic!("({x}, {y}) holds {other:?}, a tile the sample does not have"),
    }
}

fn in_room(x: i32, y: i32) -> bool {
    let (w, h) = ROOM_SIZE;
    (ROOM_AT.0..ROOM_AT.0 + w).contains(&x) && (ROOM_AT.1..ROOM_AT.1 + h).contains(&y)
}

/// The windows of `map` touching a cell `in_region` says is filled that
/// are not among the sample's.
fn foreign_windows(
    map: &Generated,
    n: i32,
    in_region: impl Fn(i32, i32) -> bool,
    sample: &[&str],
) -> Vec<(i32, i32)> {
    let known = sample_windows(sample, n as usize);
    let (w, h) = (map.width() as i32, map.height() as i32);
    let mut bad = Vec::new();
    for y in 0..=h - n {
        for x in 0..=w - n {
            let cells: Vec<(i32, i32)> = (0..n)
                .flat_map(|j| (0..n).map(move |i| (x + i, y + j)))
                .collect();
            if !cells.iter().any(|&(cx, cy)| in_region(cx, cy)) {
                continue;
            }
            let window: Vec<char> = cells.iter().map(|&(cx, cy)| glyph(map, cx, cy)).collect();
            if !known.contains(&window) {
                bad.push((x, y));
            }
        }
    }
    bad
}

/// The 4-connected pieces of the cells `member` accepts.
fn pieces(w: i32, h: i32, member: impl Fn(i32, i32) -> bool) -> usize {
    let mut seen = vec![false; (w * h) as usize];
    let mut count = 0;
    for start in 0..w * h {
        let (sx, sy) = (start % w, start / w);
        if seen[start as usize] || !member(sx, sy) {
            continue;
        }
        count += 1;
        seen[start as usize] = true;
        let mut queue = VecDeque::from([(sx, sy)]);
        while let Some((x, y)) = queue.pop_front() {
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
                if nx >= 0
                    && ny >= 0
                    && nx < w
                    && ny < h
                    && !seen[(ny * w + nx) as usize]
                    && member(nx, ny)
                {
                    seen[(ny * w + nx) as usize] = true;
                    queue.push_back((nx, ny));
                }
            }
        }
    }
    count
}

/// Whether a walkable 4-connected route joins `a` and `b`.
fn joined(map: &Generated, a: (i32, i32), b: (i32, i32)) -> bool {
    let (w, h) = (map.width() as i32, map.height() as i32);
    if !walkable(map, a.0, a.1) {
        return false;
    }
    let mut seen = vec![false; (w * h) as usize];
    seen[(a.1 * w + a.0) as usize] = true;
    let mut queue = VecDeque::from([a]);
    while let Some((x, y)) = queue.pop_front() {
        if (x, y) == b {
            return true;
        }
        for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
            if nx >= 0
                && ny >= 0
                && nx < w
                && ny < h
                && !seen[(ny * w + nx) as usize]
                && walkable(map, nx, ny)
            {
                seen[(ny * w + nx) as usize] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    false
}

fn walkable(map: &Generated, x: i32, y: i32) -> bool {
    map.kind_at(x, y).is_some_and(|k| k.walkable)
}

#[test]
fn fills_keep_every_window_the_fixed_room_and_every_constraint_for_seeds_0_to_99() {
    let scratch = Scratch::new();
    let path = scratch.write("constrained.lua", &constrained_script());
    let generator = Generator::file(&path).build().unwrap();
    let (w, h) = SIZE;
    for seed in 0..100 {
        let map = generator
            .generate(seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let bad = foreign_windows(&map, 3, |x, y| !in_room(x, y), &SAMPLE);
        assert!(
            bad.is_empty(),
            "seed {seed}: windows not in the sample at {bad:?}\n{}",
            map.to_text()
        );
        for (j, row) in room().iter().enumerate() {
            for (i, c) in row.chars().enumerate() {
                let (x, y) = (ROOM_AT.0 + i as i32, ROOM_AT.1 + j as i32);
                assert_eq!(
                    glyph(&map, x, y),
                    c,
                    "seed {seed}: the kept room changed at ({x}, {y})"
                );
            }
        }
        for x in 0..w {
            for y in 0..h {
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    assert_eq!(glyph(&map, x, y), '#', "seed {seed}: border at ({x}, {y})");
                }
            }
        }
        // The region's walkable cells and the room's walkable cells that
        // touch it: one piece, counting no other cell.
        let touches = |x: i32, y: i32| {
            [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .iter()
                .any(|&(a, b)| a >= 0 && b >= 0 && a < w && b < h && !in_room(a, b))
        };
        let member = |x: i32, y: i32| walkable(&map, x, y) && (!in_room(x, y) || touches(x, y));
        assert_eq!(
            pieces(w, h, member),
            1,
            "seed {seed}: not connected\n{}",
            map.to_text()
        );
        let [a, b] = PATH;
        assert!(
            joined(&map, a, b),
            "seed {seed}: the path's ends are not joined\n{}",
            map.to_text()
        );
        // Counts are of the region's cells: the chamber's pools are not.
        let water = (0..w * h)
            .filter(|i| !in_room(i % w, i / w) && glyph(&map, i % w, i / w) == '~')
            .count();
        assert!(
            water <= 30,
            "seed {seed}: {water} water cells, counts allow 30"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_fill_and_seeds_differ() {
    let scratch = Scratch::new();
    let path = scratch.write("constrained.lua", &constrained_script());
    let one = Generator::file(&path).build().unwrap();
    let two = Generator::file(&path).build().unwrap();
    let hashes: HashSet<u64> = (0..6u64)
        .map(|seed| {
            let a = one.generate(seed).unwrap();
            // Another VM, and the first one again after other seeds.
            assert_eq!(
                a.to_text(),
                two.generate(seed).unwrap().to_text(),
                "seed {seed}"
            );
            assert_eq!(
                a.to_text(),
                one.generate(seed).unwrap().to_text(),
                "seed {seed}"
            );
            a.hash()
        })
        .collect();
    assert!(
        hashes.len() >= 5,
        "six seeds gave only {} maps",
        hashes.len()
    );
}

/// A script whose generate is `body`, on a `w`x`h` map.
fn script(w: i32, h: i32, body: &str) -> String {
    format!(
        "local SAMPLE = {}\nreturn {{ width = {w}, height = {h}, generate = function(map, rng)\n  map:fill(\"wall\")\n  map:set_start(1, 1)\n{body}\nend }}\n",
        lua_rows(&SAMPLE)
    )
}

/// Runs `dunlua NAME --seed 1 --ascii` on a throwaway script.
fn run(scratch: &Scratch, name: &str, text: &str, extra: &[&str]) -> crate::util::Run {
    scratch.write(name, text);
    let mut args = vec![name, "--seed", "1", "--ascii"];
    args.extend_from_slice(extra);
    dunlua_in(scratch.path(), &args)
}

#[test]
fn unsatisfiable_fills_return_nil_and_a_reason_within_a_second() {
    let scratch = Scratch::new();
    // Each case prints the reason wfc.fill gave, then stops the run.
    let cases = [
        // A checkerboard has no two walls side by side: the border cannot be all wall.
        ("wfc.fill(map, Rect.new(0, 0, 19, 11), { sample = { \"#.#.\", \".#.#\", \"#.#.\", \".#.#\" }, n = 2, border = \"wall\" }, rng)", "no 2x2 pattern of the sample fits"),
        // Only walls in the sample, and the path's ends must be walkable.
        ("wfc.fill(map, Rect.new(0, 0, 19, 11), { sample = { \"###\", \"###\", \"###\" }, path = { {2, 2}, {8, 8} } }, rng)", "no walkable tile"),
        // Lava kept beside the region: no window of the sample holds it.
        ("tiles.define(\"lava\", { glyph = \"%\" }); map:fill_rect(Rect.new(0, 0, 19, 2), \"lava\")\n  wfc.fill(map, Rect.new(0, 3, 19, 8), { sample = SAMPLE, context = \"exact\" }, rng)", "no 3x3 pattern of the sample fits the map at"),
        // The border tile is not in the sample at all.
        ("wfc.fill(map, Rect.new(0, 0, 19, 11), { sample = { \"...\", \"...\", \"...\" }, border = \"wall\" }, rng)", "the border tile 'wall' is not in the sample"),
        // The ring alone is 60 walls.
        ("wfc.fill(map, Rect.new(0, 0, 19, 11), { sample = SAMPLE, border = \"wall\", counts = { wall = {0, 5} } }, rng)", "the region needs at least 60 'wall' cells, and counts allow at most 5"),
        // The whole map, no border, no path: the sample's one pattern cannot
        // overlap itself, and nothing else could be blamed (the reason named
        // kept cells, a border and path ends that were not there).
        ("wfc.fill(map, Rect.new(0, 0, 19, 11), { sample = { \"#.\", \".#\" }, n = 2, symmetry = 1 }, rng)", "no fill of the region exists: the sample's 2x2 patterns cannot overlap to cover it"),
    ];
    for (k, (call, reason)) in cases.iter().enumerate() {
        let (setup, call) = call.rsplit_once('\n').unwrap_or(("", call));
        let body = format!("  {setup}\n  local ok, why = {call}\n  error(\"fill: \" .. tostring(ok) .. \": \" .. tostring(why))");
        let started = Instant::now();
        let out = run(
            &scratch,
            &format!("unsat{k}.lua"),
            &script(20, 12, &body),
            &[],
        );
        let took = started.elapsed();
        assert_eq!(out.code, 1, "case {k}: {}", out.stderr);
        assert!(
            out.stderr.contains("fill: nil: ") && out.stderr.contains(reason),
            "case {k}: expected {reason:?}, got {}",
            out.stderr
        );
        // A liveness bound for a debug build on a loaded machine: the
        // release timings are in docs/guide/src/wfc.md.
        assert!(took < Duration::from_secs(10), "case {k} took {took:?}");
    }
}

#[test]
fn wrong_arguments_are_located_errors_naming_the_argument() {
    let scratch = Scratch::new();
    let ok = "{ sample = SAMPLE }";
    let cases = [
        (format!("wfc.fill(nil, Rect.new(0, 0, 9, 9), {ok}, rng)"), "map must be the map, got nil"),
        (format!("wfc.fill(map, 3, {ok}, rng)"), "region must be a selection or a Rect, got 3"),
        (format!("wfc.fill(map, Rect.new(0, 0, 99, 9), {ok}, rng)"), "wfc.fill:"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), nil, rng)".into(), "options must be a table"),
        (format!("wfc.fill(map, Rect.new(0, 0, 9, 9), {ok})"), "rng must be the rng object"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = 'x' }, rng)".into(), "sample must be a list of rows"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = { '###', '##' } }, rng)".into(), "sample[2] has 2 characters where sample[1] has 3"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = { '#?#', '###' } }, rng)".into(), "sample[1] has '?' at column 2"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = { '###' }, n = 3 }, rng)".into(), "smaller than n = 3"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, n = 50 }, rng)".to_string(), "n must be an integer from 1 to 8, got 50"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, symmetry = 3 }, rng)".to_string(), "symmetry must be 1, 2, 4 or 8, got 3"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, border = 'nope' }, rng)".to_string(), "border: unknown tile 'nope'"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, connected = 'yes' }, rng)".to_string(), "connected must be a boolean"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, path = { {1, 1} } }, rng)".to_string(), "path must be two points"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, path = { {1, 1}, {500, 1} } }, rng)".to_string(), "path[2] (500, 1) is off the map"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, path = { {1, 1}, {0/0, 1} } }, rng)".to_string(), "path[2].x must be an integer"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, counts = { floor = {5, 2} } }, rng)".to_string(), "counts.floor: min 5 is more than max 2"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, context = 'loose' }, rng)".to_string(), "context must be \"exact\", \"walkable\" or \"free\", got \"loose\""),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, context = true }, rng)".to_string(), "context must be \"exact\", \"walkable\" or \"free\", got true"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, counts = { floor = 3 } }, rng)".to_string(), "counts.floor must be {min, max}"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, attempts = 0 }, rng)".to_string(), "attempts must be an integer from 1 to 10000, got 0"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, attemps = 3 }, rng)".to_string(), "attemps"),
        ("wfc.fill(map, Rect.new(0, 0, 9, 9), { sample = SAMPLE, legend = { ['#'] = { mark = 'x' } } }, rng)".to_string(), "legend '#' must name a tile"),
    ];
    for (k, (call, expect)) in cases.iter().enumerate() {
        // The call is on line 5 of the script.
        let out = run(
            &scratch,
            &format!("bad{k}.lua"),
            &script(20, 12, &format!("  {call}")),
            &[],
        );
        assert_eq!(out.code, 1, "case {k}: {}", out.stderr);
        let first = out.stderr.lines().next().unwrap_or("");
        assert!(
            first.contains(&format!("bad{k}.lua:5: wfc.fill: ")),
            "case {k}: not located: {first}"
        );
        assert!(
            first.contains(expect),
            "case {k}: expected {expect:?} in {first}"
        );
    }
}

#[test]
fn a_whole_big_map_with_a_tiny_budget_stops_at_once_with_a_located_error() {
    let scratch = Scratch::new();
    let body =
        "  wfc.fill(map, Rect.new(0, 0, 1999, 1999), { sample = SAMPLE, connected = true }, rng)";
    let started = Instant::now();
    let out = run(
        &scratch,
        "big.lua",
        &script(2000, 2000, body),
        &["--max-instructions", "2000000"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let first = out.stderr.lines().next().unwrap_or("");
    assert!(
        first.contains("big.lua:5: instruction budget of 2000000 exceeded: wfc.fill needs about"),
        "{}",
        out.stderr
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    // A small memory limit stops it as the fill reserves its domains.
    let out = run(
        &scratch,
        "big.lua",
        &script(2000, 2000, body),
        &["--max-memory", "64"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("big.lua:5: memory limit of 64 MiB exceeded"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_fill_inside_pcall_cannot_outlive_the_budget() {
    let scratch = Scratch::new();
    let body = "  for i = 1, 1000 do pcall(wfc.fill, map, Rect.new(0, 0, 199, 199), { sample = SAMPLE }, rng) end";
    let out = run(
        &scratch,
        "loop.lua",
        &script(200, 200, body),
        &["--max-instructions", "20000000"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("loop.lua:5: instruction budget of 20000000 exceeded"),
        "{}",
        out.stderr
    );
}

/// An ordinary room as a designer draws it: a one-cell wall ring with a
/// doorway at the bottom, not a piece of the cave sample.
const DOOR_ROOM: [&str; 5] = ["#######", "#.....#", "#.....#", "#.....#", "###.###"];
const DOOR_ROOM_AT: (i32, i32) = (15, 8);
const DOORWAY: (i32, i32) = (18, 12);
const FAR: (i32, i32) = (2, 2);

fn in_door_room(x: i32, y: i32) -> bool {
    (DOOR_ROOM_AT.0..DOOR_ROOM_AT.0 + 7).contains(&x)
        && (DOOR_ROOM_AT.1..DOOR_ROOM_AT.1 + 5).contains(&y)
}

/// The cave filled around the stamped room, a path asked from its
/// doorway to a far corner; `extra` is added to the options.
fn door_room_script(extra: &str) -> String {
    format!(
        r##"local SAMPLE = {sample}
local ROOM = {room}
local LEGEND = {{ ["#"] = "wall", ["."] = "floor", ["~"] = "water" }}
return {{
  width = 40, height = 24,
  generate = function(map, rng)
    map:fill("wall")
    local r = map:stamp({rx}, {ry}, ROOM, LEGEND)
    map:add_room(r)
    local all = map:select_rect(Rect.new(0, 0, map.width - 1, map.height - 1))
    local ok, why = wfc.fill(map, all:subtract(map:select_rect(r)), {{
      sample = SAMPLE, legend = LEGEND, n = 3, symmetry = 8, border = "wall", connected = true,
      path = {{ {{{dx}, {dy}}}, {{{fx}, {fy}}} }}, {extra} }}, rng)
    if not ok then error("fill: " .. why) end
    map:set_start(17, 9)
  end,
}}
"##,
        sample = lua_rows(&SAMPLE),
        room = lua_rows(&DOOR_ROOM),
        rx = DOOR_ROOM_AT.0,
        ry = DOOR_ROOM_AT.1,
        dx = DOORWAY.0,
        dy = DOORWAY.1,
        fx = FAR.0,
        fy = FAR.1,
    )
}

/// The room's cells are as stamped.
fn assert_door_room_kept(map: &Generated, what: &str) {
    for (j, row) in DOOR_ROOM.iter().enumerate() {
        for (i, c) in row.chars().enumerate() {
            let (x, y) = (DOOR_ROOM_AT.0 + i as i32, DOOR_ROOM_AT.1 + j as i32);
            assert_eq!(
                glyph(map, x, y),
                c,
                "{what}: the room changed at ({x}, {y})"
            );
        }
    }
}

/// The windows touching a cell `in_region` accepts for which no sample
/// window has the same tiles at the region's cells and, at the other
/// cells, a tile `kept_ok(sample glyph, x, y)` accepts.
fn unmatched_windows(
    map: &Generated,
    in_region: impl Fn(i32, i32) -> bool,
    kept_ok: impl Fn(char, i32, i32) -> bool,
) -> Vec<(i32, i32)> {
    let n = 3;
    let known: Vec<Vec<char>> = sample_windows(&SAMPLE, n as usize).into_iter().collect();
    let (w, h) = (map.width() as i32, map.height() as i32);
    let mut bad = Vec::new();
    for y in 0..=h - n {
        for x in 0..=w - n {
            let cells: Vec<(i32, i32)> = (0..n)
                .flat_map(|j| (0..n).map(move |i| (x + i, y + j)))
                .collect();
            if !cells.iter().any(|&(cx, cy)| in_region(cx, cy)) {
                continue;
            }
            let fits = |s: &Vec<char>| {
                cells.iter().zip(s).all(|(&(cx, cy), &c)| {
                    if in_region(cx, cy) {
                        glyph(map, cx, cy) == c
                    } else {
                        kept_ok(c, cx, cy)
                    }
                })
            };
            if !known.iter().any(fits) {
                bad.push((x, y));
            }
        }
    }
    bad
}

#[test]
fn a_fill_around_a_stamped_ordinary_room_joins_its_doorway_for_seeds_0_to_99() {
    let scratch = Scratch::new();
    let path = scratch.write("door_room.lua", &door_room_script(""));
    let generator = Generator::file(&path).build().unwrap();
    let outside = |x: i32, y: i32| !in_door_room(x, y);
    for seed in 0..100 {
        let map = generator
            .generate(seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_door_room_kept(&map, &format!("seed {seed}"));
        assert!(
            joined(&map, DOORWAY, FAR),
            "seed {seed}: the doorway is not joined to {FAR:?}\n{}",
            map.to_text()
        );
        for x in 0..40 {
            for y in 0..24 {
                if x == 0 || y == 0 || x == 39 || y == 23 {
                    assert_eq!(glyph(&map, x, y), '#', "seed {seed}: border at ({x}, {y})");
                }
            }
        }
        // The windows wholly inside the region are the sample's, always.
        let bad = unmatched_windows(&map, outside, |_, _, _| true);
        let inner: Vec<_> = bad
            .into_iter()
            .filter(|&(x, y)| (0..3).all(|j| (0..3).all(|i| outside(x + i, y + j))))
            .collect();
        assert!(
            inner.is_empty(),
            "seed {seed}: foreign windows at {inner:?}"
        );
    }
}

#[test]
fn forced_context_levels_behave_as_documented() {
    let scratch = Scratch::new();
    let outside = |x: i32, y: i32| !in_door_room(x, y);
    // Exact: the ring's doorway has no continuation in the cave sample.
    let exact =
        Generator::file(scratch.write("exact.lua", &door_room_script("context = \"exact\"")))
            .build()
            .unwrap();
    // Walkable: the doorway is still one cell wide between walls, which
    // the sample's walls never leave.
    let walkable =
        Generator::file(scratch.write("walkable.lua", &door_room_script("context = \"walkable\"")))
            .build()
            .unwrap();
    let free = Generator::file(scratch.write("free.lua", &door_room_script("context = \"free\"")))
        .build()
        .unwrap();
    let default = Generator::file(scratch.write("default.lua", &door_room_script("")))
        .build()
        .unwrap();
    for seed in 0..3 {
        let e = exact.generate(seed).unwrap_err().to_string();
        assert!(
            e.contains("fill: no route of walkable cells can join (18, 12) and (2, 2)"),
            "{e}"
        );
        assert!(
            !e.contains("with the kept cells read"),
            "a forced level has no fallback: {e}"
        );
        let e = walkable.generate(seed).unwrap_err().to_string();
        assert!(e.contains("fill: no route of walkable cells"), "{e}");
        assert!(!e.contains("with the kept cells read"), "{e}");
        // Free: the region's windows only; the room is kept, the path joined.
        let map = free.generate(seed).unwrap();
        assert_door_room_kept(&map, "free");
        assert!(joined(&map, DOORWAY, FAR), "{}", map.to_text());
        assert!(unmatched_windows(&map, outside, |_, _, _| true).is_empty());
        // The default falls back through both to free, on the same stream.
        assert_eq!(default.generate(seed).unwrap().to_text(), map.to_text());
    }

    // Lava kept above the region: no sample window holds lava, so exact
    // fails; read by walkability the lava is any wall-like sample tile.
    let body = |context: &str| {
        format!(
            "  tiles.define(\"lava\", {{ glyph = \"%\" }}); map:fill_rect(Rect.new(0, 0, 19, 2), \"lava\")\n  local ok, why = wfc.fill(map, Rect.new(0, 3, 19, 8), {{ sample = SAMPLE{context} }}, rng)\n  if not ok then error(\"fill: \" .. why) end\n  for y = 3, 11 do for x = 0, 19 do if map:is_walkable(x, y) then map:set_start(x, y) return end end end"
        )
    };
    let lava = |x: i32, y: i32| y <= 2 && x < 20;
    let in_region = |_x: i32, y: i32| y >= 3;
    let exact = Generator::file(scratch.write(
        "lava_exact.lua",
        &script(20, 12, &body(", context = \"exact\"")),
    ))
    .build()
    .unwrap();
    let e = exact.generate(1).unwrap_err().to_string();
    assert!(
        e.contains("fill: no 3x3 pattern of the sample fits the map at"),
        "{e}"
    );
    for (name, context) in [("walkable", ", context = \"walkable\""), ("default", "")] {
        let g = Generator::file(
            scratch.write(&format!("lava_{name}.lua"), &script(20, 12, &body(context))),
        )
        .build()
        .unwrap();
        for seed in 0..3 {
            let map = g
                .generate(seed)
                .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            for x in 0..20 {
                for y in 0..3 {
                    assert_eq!(
                        map.tile_name(x, y),
                        Some("lava"),
                        "{name}: kept lava at ({x}, {y})"
                    );
                }
            }
            // Every window touching the region is a sample window whose
            // tiles at the lava are not walkable.
            let bad = unmatched_windows(&map, in_region, |c, x, y| lava(x, y) && c != '.');
            assert!(
                bad.is_empty(),
                "{name} seed {seed}: windows at {bad:?}\n{}",
                map.to_text()
            );
        }
    }
}

#[test]
fn a_satisfiable_exact_fill_gives_the_same_map_as_before_the_fallback() {
    // The constrained script's room is a piece of the sample: exact
    // succeeds, so the fallback never runs and the maps are those of the
    // exact-only fill (hashes recorded from it), the same as when forced.
    let scratch = Scratch::new();
    let text = constrained_script();
    let default = Generator::file(scratch.write("c.lua", &text))
        .build()
        .unwrap();
    let forced = Generator::file(scratch.write(
        "c_exact.lua",
        &text.replace("attempts = 50,", "attempts = 50, context = \"exact\","),
    ))
    .build()
    .unwrap();
    let hashes: Vec<u64> = (0..3)
        .map(|seed| {
            let a = default.generate(seed).unwrap();
            assert_eq!(
                a.to_text(),
                forced.generate(seed).unwrap().to_text(),
                "seed {seed}"
            );
            a.hash()
        })
        .collect();
    assert_eq!(hashes, EXACT_HASHES, "the exact fill's maps changed");
}
/// The maps of seeds 0..3 from the exact-only fill (checked against the
/// build before the fallback came).
const EXACT_HASHES: [u64; 3] = [
    3000159536483805805,
    10468842277512966656,
    10725818608748946949,
];

#[test]
fn whole_floats_are_integers_in_path_and_counts_as_everywhere() {
    // api.md: wherever an integer is needed, a float with a whole value is
    // accepted (a path end computed with `/`, say); 2.5 is still refused.
    let scratch = Scratch::new();
    let fill = |opts: &str| {
        format!(
            "  local ok, why = wfc.fill(map, Rect.new(0, 0, 27, 17), {{ sample = SAMPLE, border = 'wall', {opts} }}, rng)\n  error('fill: ' .. tostring(ok) .. ': ' .. tostring(why))"
        )
    };
    let floats = run(
        &scratch,
        "floats.lua",
        &script(
            28,
            18,
            &fill("path = { {2.0, 2}, {map.width / 2, 15.0} }, counts = { water = {0.0, 60.0} }"),
        ),
        &[],
    );
    let ints = run(
        &scratch,
        "ints.lua",
        &script(
            28,
            18,
            &fill("path = { {2, 2}, {map.width // 2, 15} }, counts = { water = {0, 60} }"),
        ),
        &[],
    );
    assert!(
        floats.stderr.contains("fill: true: nil"),
        "{}",
        floats.stderr
    );
    assert!(ints.stderr.contains("fill: true: nil"), "{}", ints.stderr);
    for (call, expect) in [
        (
            "path = { {2.5, 2}, {20, 15} }",
            "path[1].x must be an integer, got 2.5",
        ),
        (
            "counts = { water = {0, 1.5} }",
            "counts.water[2] must be a whole number of cells, 0 or more, got 1.5",
        ),
        (
            "counts = { water = {0, 1e300} }",
            "counts.water[2] must be a whole number of cells",
        ),
        (
            "counts = { water = {-1.0, 3} }",
            "counts.water[1] must be a whole number of cells",
        ),
    ] {
        let out = run(&scratch, "half.lua", &script(28, 18, &fill(call)), &[]);
        let first = out.stderr.lines().next().unwrap_or("");
        assert!(
            first.contains("half.lua:5: wfc.fill: ") && first.contains(expect),
            "expected {expect:?} in {first}"
        );
    }
}
