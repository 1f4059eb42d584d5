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
