//! The benchmark's pure-Lua baseline (benches/rooms_pure.lua, its own RNG
//! written from the guide's Determinism chapter in Lua) makes exactly rooms.lua's maps: a second
//! implementation of the specified stream, in another language.

use crate::util::{generate, root};

#[test]
fn pure_lua_rooms_match_rooms_lua() {
    let lua = mlua::Lua::new();
    let source = std::fs::read_to_string(root().join("benches/rooms_pure.lua")).unwrap();
    let rooms_fn: mlua::Function = lua.load(source).eval().unwrap();
    for seed in 0..100u64 {
        let (tiles, _rooms, sx, sy): (Vec<u8>, mlua::Table, i32, i32) =
            rooms_fn.call((seed as i64, 80, 50, 30, 6, 10)).unwrap();
        let mut text = String::new();
        for y in 0..50 {
            for x in 0..80 {
                let floor = tiles[(y * 80 + x) as usize] == 1;
                text.push(if (x, y) == (sx, sy) {
                    '@'
                } else if floor {
                    '.'
                } else {
                    '#'
                });
            }
            text.push('\n');
        }
        let host = generate("scripts/rooms.lua", seed, &[]).unwrap();
        assert_eq!(text, host.map.to_string(), "seed {seed}");
    }
}
