//! The guide's Rust example (docs/guide/src/game.md; it was the README's),
//! compiled by `cargo test` (a test checks the guide shows this file's
//! code): `cargo run --example readme`.

use dunlua::Generator;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let generator = Generator::file("scripts/rooms.lua") // or Generator::source(name, text)
        .param("max_rooms", 12) // typed; checked by build()
        .size(120, 60)
        .build()?; // compiles, checks params and size
    let seed = 7;
    let level = generator.generate(seed)?; // again and again, any seed
    let (sx, sy) = level.start();
    let ids: Vec<u8> = level.tile_ids(); // one id per cell, row by row
    for (id, kind) in level.tile_kinds() {
        // id is a Tile: it prints as its number and equals the u8 ids
        let cells = ids.iter().filter(|&&i| id == i).count();
        println!(
            "{id} {} '{}' walkable={} cells={cells}",
            kind.name, kind.glyph, kind.walkable
        );
    }
    let json: String = level.to_json(); // the .json export's form
    println!("start ({sx}, {sy}), {} bytes of JSON", json.len());
    Ok(())
}
