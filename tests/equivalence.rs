//! rooms.lua through the host equals a plain Rust Grogue on the same RNG.

use crate::reference::grogue;
use crate::util::generate;

#[test]
fn rooms_lua_matches_pure_rust_grogue_for_1000_seeds() {
    for seed in 0..1000u64 {
        let got = generate("scripts/rooms.lua", seed, &[]).expect("rooms.lua runs");
        let want = grogue(seed, 80, 50, 30, 6, 10);
        let rooms: Vec<(i32, i32, i32, i32)> = got
            .map
            .rooms()
            .iter()
            .map(|r| (r.x1, r.y1, r.x2, r.y2))
            .collect();
        let want_rooms: Vec<(i32, i32, i32, i32)> = want
            .rooms
            .iter()
            .map(|r| (r.x1, r.y1, r.x2, r.y2))
            .collect();
        assert_eq!(rooms, want_rooms, "rooms differ for seed {seed}");
        let text = got.map.to_string();
        if text != want.text() {
            panic!(
                "seed {seed}: rooms.lua and the Rust reference differ\n--- rooms.lua\n{text}--- reference\n{}",
                want.text()
            );
        }
    }
}

#[test]
fn params_change_both_the_same_way() {
    for seed in [3u64, 99] {
        let got = generate(
            "scripts/rooms.lua",
            seed,
            &["max_rooms=50", "min_size=4", "max_size=7"],
        )
        .unwrap();
        assert_eq!(got.map.to_string(), grogue(seed, 80, 50, 50, 4, 7).text());
    }
}

#[test]
fn bench_checksums_match_the_reference() {
    let run = crate::util::dunlua(&["bench", "scripts/rooms.lua", "--count", "100"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (mut floors, mut rooms) = (0usize, 0usize);
    for seed in 0..100 {
        let level = grogue(seed, 80, 50, 30, 6, 10);
        floors += level.floor.iter().filter(|&&f| f).count();
        rooms += level.rooms.len();
    }
    let line = run.stdout.trim();
    assert!(
        line.starts_with(&format!(
            "maps=100 size=80x50 floors={floors} rooms={rooms} elapsed_ms="
        )),
        "{line}"
    );
    for key in ["maps_per_s=", "us_per_map="] {
        assert!(line.contains(key), "{line}");
    }
}
