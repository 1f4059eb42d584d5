//! Properties every seed-tutorial script keeps, over 500 seeds each.

use dunlua::ops::unreachable_walkable;
use dunlua::params::ParamValue;

use crate::util::generate;

const SEEDS: u64 = 500;

fn int_param(g: &dunlua::Generated, name: &str) -> i32 {
    match g.provenance.params.get(name) {
        Some(ParamValue::Integer(v)) => *v as i32,
        other => panic!("{name} is {other:?}"),
    }
}

/// Checks one map; `size_range` gives the allowed room widths and heights.
fn check(script: &str, seed: u64, size_range: impl Fn(i32, i32) -> (i32, i32)) {
    let g = generate(script, seed, &[]).unwrap_or_else(|e| panic!("{script} seed {seed}: {e}"));
    let map = &g.map;
    let at = format!("{script} seed {seed}");

    let unreachable = unreachable_walkable(map);
    assert!(
        unreachable.is_empty(),
        "{at}: {} walkable cells unreachable from the start, first {:?}\n{map}",
        unreachable.len(),
        unreachable[0]
    );

    let (sx, sy) = map.start().expect("a start");
    assert!(map.is_walkable(sx as i64, sy as i64), "{at}: start in rock");
    let rooms = map.rooms();
    assert!(!rooms.is_empty(), "{at}: no rooms");
    assert_eq!(
        (sx, sy),
        rooms[0].center(),
        "{at}: start not at the first room's centre"
    );

    let (lo, hi) = size_range(int_param(&g, "min_size"), int_param(&g, "max_size"));
    for (i, a) in rooms.iter().enumerate() {
        assert!(
            (lo..=hi).contains(&a.w()) && (lo..=hi).contains(&a.h()),
            "{at}: room {a} has a size outside {lo}..={hi}"
        );
        assert!(
            map.check_rect(a).is_ok(),
            "{at}: room {a} reaches outside the map"
        );
        for b in &rooms[i + 1..] {
            assert!(!a.intersects(b), "{at}: rooms {a} and {b} intersect");
        }
    }
}

#[test]
fn rooms_keeps_its_properties() {
    for seed in 0..SEEDS {
        check("scripts/rooms.lua", seed, |lo, hi| (lo, hi));
    }
}

#[test]
fn rooms_jsrlt_keeps_its_properties() {
    for seed in 0..SEEDS {
        check("scripts/rooms_jsrlt.lua", seed, |lo, hi| (lo, hi));
    }
}

#[test]
fn rooms_malwoden_keeps_its_properties() {
    // malwoden's nextInt excludes its maximum.
    for seed in 0..SEEDS {
        check("scripts/rooms_malwoden.lua", seed, |lo, hi| (lo, hi - 1));
    }
}

#[test]
fn rooms_yeti_keeps_its_properties() {
    for seed in 0..SEEDS {
        check("scripts/rooms_yeti.lua", seed, |lo, hi| (lo, hi));
    }
}

#[test]
fn yeti_bug_lets_rooms_overlap_when_asked() {
    let overlapping = (0..200u64).any(|seed| {
        let g = generate("scripts/rooms_yeti.lua", seed, &["buggy_intersection=true"]).unwrap();
        let rooms = g.map.rooms();
        rooms
            .iter()
            .enumerate()
            .any(|(i, a)| rooms[i + 1..].iter().any(|b| a.intersects(b)))
    });
    assert!(
        overlapping,
        "the tutorial's intersection bug never let rooms overlap"
    );
}

/// The `-- floor ratio: A..B` line every script's header documents.
fn documented_floor_ratio(script: &str) -> (f64, f64) {
    let text = std::fs::read_to_string(crate::util::root().join("scripts").join(script)).unwrap();
    let line = text
        .lines()
        .take_while(|l| l.starts_with("--") || l.is_empty())
        .find_map(|l| l.strip_prefix("-- floor ratio: "))
        .unwrap_or_else(|| panic!("{script}: no '-- floor ratio: A..B' line in the header"));
    let range = line.split_whitespace().next().unwrap();
    let (a, b) = range.split_once("..").unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

/// The parameters that switch a script's stairs on, if it has any.
fn stairs_on(g: &dunlua::Generated) -> Vec<&'static str> {
    let mut on = Vec::new();
    for (name, set) in [("stairs", "stairs=true"), ("features", "features=true")] {
        if g.provenance.params.get(name).is_some() {
            on.push(set);
        }
    }
    on
}

#[test]
fn every_script_is_playable_on_500_seeds() {
    let scripts = crate::util::reference_scripts();
    assert!(scripts.len() >= 10, "{scripts:?}");
    let mut off = Vec::new();
    for script in &scripts {
        let path = format!("scripts/{script}");
        let (lo, hi) = documented_floor_ratio(script);
        let (mut min, mut max) = (f64::MAX, f64::MIN);
        let defaults = generate(&path, 0, &[]).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Stairs on, so their reachability is checked too (stairs and doors
        // are walkable, so the floor ratio is the same as without them).
        let params = stairs_on(&defaults);
        // Every level of a multi-level script.
        let levels = (0..SEEDS).flat_map(|seed| {
            let levels = crate::util::generate_levels(&path, seed, &params)
                .unwrap_or_else(|e| panic!("{path} seed {seed}: {e}"));
            levels.into_iter().map(move |g| (seed, g))
        });
        for (seed, g) in levels {
            let map = &g.map;
            let at = format!("{path} seed {seed} level {}", g.provenance.level);
            let (sx, sy) = map.start().unwrap();
            assert!(map.is_walkable(sx as i64, sy as i64), "{at}: start in rock");
            let unreachable = unreachable_walkable(map);
            assert!(
                unreachable.is_empty(),
                "{at}: {} cells unreachable, first {:?}\n{map}",
                unreachable.len(),
                unreachable[0]
            );
            let last = g.provenance.level == g.provenance.levels && g.provenance.levels > 1;
            if !params.is_empty() && !last {
                let down = map.markers().iter().find(|m| m.name == "stairs_down");
                let down = down.unwrap_or_else(|| panic!("{at}: no stairs down"));
                assert_eq!(
                    map.get(down.x as i64, down.y as i64).unwrap(),
                    dunlua::Tile::STAIRS_DOWN
                );
            }
            let walkable = map
                .cells()
                .iter()
                .filter(|&&t| map.tiles().kind(t).walkable)
                .count();
            let ratio = walkable as f64 / map.cells().len() as f64;
            min = min.min(ratio);
            max = max.max(ratio);
        }
        if !(lo <= min && max <= hi) {
            off.push(format!("{path}: floor ratios {min:.3}..{max:.3} over {SEEDS} seeds, the header says {lo}..{hi}"));
        }
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
}

/// Runs a script on a 400x400 map (160,000 cells) and says whether it
/// took more than 40,000 Lua instructions (the budget's units less those
/// charged for native work): enough for any decision-making, too few for a
/// Lua loop that touches every cell (at least two instructions a cell).
fn run_on_a_big_map(path: std::path::PathBuf) -> Result<u64, String> {
    let mut request = crate::util::request(path, 1);
    request.size = Some((400, 400));
    let levels = dunlua::script::run_levels(&request).map_err(|e| e.to_string())?;
    // The busiest level: each level is a run of its own.
    let lua = levels
        .iter()
        .map(|g| g.work - g.native_work)
        .max()
        .unwrap_or(0);
    if lua > 40_000 {
        return Err(format!("{lua} Lua instructions"));
    }
    Ok(lua)
}

#[test]
fn every_scripts_hot_loop_is_native() {
    for script in crate::util::reference_scripts() {
        let path = crate::util::root().join("scripts").join(&script);
        if let Err(e) = run_on_a_big_map(path) {
            panic!("{script} on 400x400 with 40,000 instructions: {e}");
        }
    }
    // The check can fail: the same script with a Lua loop over every cell.
    let scratch = crate::util::Scratch::new();
    let path = scratch.write(
        "per_cell.lua",
        "return { generate = function(map)\n\
           for y = 0, map.height - 1 do for x = 0, map.width - 1 do map:set(x, y, \"floor\") end end\n\
           map:set_start(1, 1)\n\
         end }\n",
    );
    let err = run_on_a_big_map(path).unwrap_err();
    assert!(err.contains("Lua instructions"), "{err}");
}

#[test]
fn lakes_never_cut_the_level_and_keys_are_reachable_without_their_door() {
    for seed in 0..60 {
        let lakes = generate("scripts/lakes.lua", seed, &[]).unwrap();
        assert_eq!(
            dunlua::ops::regions(&lakes.map).len(),
            1,
            "lakes seed {seed}: one walkable region"
        );
        assert!(
            lakes.map.count(dunlua::Tile::WATER) > 0,
            "lakes seed {seed}: water"
        );

        let keys = generate("scripts/keys.lua", seed, &[]).unwrap();
        let map = &keys.map;
        let find = |name: &str| map.markers().iter().find(|m| m.name == name).unwrap();
        let (key, exit, door) = (find("key"), find("exit"), find("locked_door"));
        assert_eq!(
            keys.tile_name(door.x, door.y),
            Some("locked_door"),
            "keys seed {seed}"
        );
        let door_cell = dunlua::ops::Selection::from_indices(
            map.width(),
            map.height(),
            vec![(door.y * map.width() + door.x) as u32],
        );
        let (sx, sy) = map.start().unwrap();
        let without = dunlua::ops::flood_avoiding(map, sx as i64, sy as i64, Some(&door_cell));
        let at = |x: i32, y: i32| without[(y * map.width() + x) as usize];
        assert!(
            at(key.x, key.y),
            "keys seed {seed}: the key is reachable without the door"
        );
        assert!(!at(exit.x, exit.y), "keys seed {seed}: the exit is not");
        assert!(
            key.props.iter().any(|(k, v)| k == "opens"
                && *v == dunlua::params::ParamValue::Text("locked_door".into())),
            "keys seed {seed}: the key says what it opens"
        );
    }
}

#[test]
fn levels_stairs_line_up_and_deeper_is_tougher() {
    use dunlua::Tile;
    let (mut hp, mut count) = ([0i64; 5], [0i64; 5]);
    for seed in 0..60 {
        let levels = crate::util::generate_levels("scripts/levels.lua", seed, &[]).unwrap();
        assert_eq!(levels.len(), 5, "seed {seed}");
        for (k, g) in levels.iter().enumerate() {
            let at = format!("seed {seed} level {}", k + 1);
            assert_eq!(g.provenance.level as usize, k + 1, "{at}");
            assert_eq!(dunlua::ops::regions(&g.map).len(), 1, "{at}: one region");
            let marked = |name: &str| g.markers().iter().find(|m| m.name == name);
            if k + 1 < levels.len() {
                let down = marked("stairs_down").unwrap_or_else(|| panic!("{at}: no way down"));
                assert_eq!(g.tile_at(down.x, down.y), Some(Tile::STAIRS_DOWN), "{at}");
                let below = &levels[k + 1];
                // The player arrives on the up stairs, right under these.
                assert_eq!(below.start(), (down.x, down.y), "{at}");
                assert_eq!(below.tile_at(down.x, down.y), Some(Tile::STAIRS_UP), "{at}");
            } else {
                assert!(marked("amulet").is_some(), "{at}: the amulet at the bottom");
                assert_eq!(g.map.count(Tile::STAIRS_DOWN), 0, "{at}");
            }
            for m in g.markers() {
                let kind = m.props.iter().find(|(key, _)| key == "kind");
                if kind.map(|(_, v)| v) == Some(&ParamValue::Text("monster".into())) {
                    let Some((_, ParamValue::Integer(h))) =
                        m.props.iter().find(|(key, _)| key == "hp")
                    else {
                        panic!("{at}: a monster without hp: {m:?}");
                    };
                    hp[k] += h;
                    count[k] += 1;
                    assert!(k > 0 || m.name != "troll", "{at}: no trolls on level 1");
                }
                assert!(k > 0 || m.name != "crown", "{at}: no crowns on level 1");
            }
        }
        assert_eq!(dunlua::check::stairs_mismatch(&levels), None, "seed {seed}");
    }
    let mean: Vec<f64> = (0..5).map(|k| hp[k] as f64 / count[k] as f64).collect();
    assert!(
        mean.windows(2).all(|w| w[0] < w[1]),
        "monsters get tougher level by level: {mean:?}"
    );
}

#[test]
fn the_river_cuts_the_land_and_bridges_join_it() {
    for seed in 0..60 {
        let g = generate("scripts/river.lua", seed, &[]).unwrap();
        let mut map = g.map.clone();
        assert_eq!(dunlua::ops::regions(&map).len(), 1, "seed {seed}");
        let bridge = map.tiles().resolve("bridge").unwrap();
        assert!(map.count(bridge) > 0, "seed {seed}: bridges");
        // Without its bridges the river splits the land.
        let cells: Vec<usize> = (0..map.cells().len())
            .filter(|&i| map.cells()[i] == bridge)
            .collect();
        let w = map.width() as usize;
        for i in cells {
            map.set((i % w) as i64, (i / w) as i64, dunlua::Tile::WATER)
                .unwrap();
        }
        assert!(
            dunlua::ops::regions(&map).len() >= 2,
            "seed {seed}: the river does not cut the land\n{map}"
        );
    }
}
