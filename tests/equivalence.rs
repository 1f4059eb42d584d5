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
