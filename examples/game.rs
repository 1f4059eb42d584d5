//! What a game does with dunlua at run time, with only the lean library
//! (`dunlua = { default-features = false }`): build a [`Generator`] once,
//! generate levels on a worker thread as the player goes down, and read
//! each level's tiles, start and markers without parsing text.
//!
//! ```sh
//! cargo run --example game --no-default-features -- scripts/rooms.lua 7
//! ```

use std::sync::mpsc;

use dunlua::Generator;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let script = args.next().unwrap_or_else(|| "scripts/rooms.lua".into());
    let first_seed: u64 = args.next().map_or(Ok(7), |s| s.parse())?;

    // Built once: the script is compiled and its parameters checked here.
    let generator = Generator::file(&script).param("max_rooms", 12).build()?;

    // The level generator lives on a worker thread; the game asks it for
    // depths and goes on while it works.
    let (ask, asked) = mpsc::channel::<u64>();
    let (give, levels) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        for depth in asked {
            let level = generator.generate(first_seed + depth);
            if give.send((depth, level)).is_err() {
                break;
            }
        }
    });
    for depth in 0..3 {
        ask.send(depth)?;
    }
    drop(ask);

    for (depth, level) in levels {
        let level = level?;
        let (sx, sy) = level.start();
        println!(
            "depth {depth}: {}x{} map {:016x}, {} rooms, start ({sx}, {sy}) on {}",
            level.width(),
            level.height(),
            level.hash(),
            level.rooms().len(),
            level.tile_name(sx, sy).unwrap_or("?"),
        );
        for marker in level.markers() {
            println!("  {} at ({}, {})", marker.name, marker.x, marker.y);
        }
        // The game's own grid: one tile id per cell; the kinds say how
        // each id looks and behaves.
        let walkable: Vec<bool> = level.tile_kinds().map(|(_, k)| k.walkable).collect();
        let open = level
            .cells()
            .iter()
            .filter(|t| walkable[t.0 as usize])
            .count();
        println!("  {open} walkable cells");
        if depth == 0 {
            let glyphs: Vec<char> = level.tile_kinds().map(|(_, k)| k.glyph).collect();
            for row in level.cells().chunks(level.width()).take(12) {
                println!(
                    "  {}",
                    row.iter().map(|t| glyphs[t.0 as usize]).collect::<String>()
                );
            }
        }
    }
    worker.join().expect("the level thread");
    Ok(())
}
