//! `dunlua sheet`: a contact sheet of seeds, checked by its size and by
//! reading its labels back pixel for pixel.

use crate::util::{dunlua_in, Scratch};
use dunlua::map::Rgb;
use dunlua::render::{Frame, GLYPH};

/// The PNG's pixels as a frame.
fn read_png(path: &std::path::Path) -> Frame {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let mut frame = Frame::new(info.width as usize, info.height as usize, Rgb(0, 0, 0));
    for (i, p) in buf.chunks(3).take(frame.pixels.len()).enumerate() {
        frame.pixels[i] = dunlua::render::pack(Rgb(p[0], p[1], p[2]));
    }
    frame
}

/// Whether `text` is written at (x, y) in `fg` (the font's lit pixels).
fn says(frame: &Frame, x: usize, y: usize, text: &str, fg: Rgb) -> bool {
    let mut want = Frame::new(text.len() * GLYPH, GLYPH, Rgb(1, 2, 3));
    want.text(0, 0, GLYPH, text, fg, Rgb(1, 2, 3));
    (0..want.height).all(|py| {
        (0..want.width).all(|px| {
            let lit = want.get(px, py) == fg;
            lit == (frame.get(x + px, y + py) == fg)
        })
    })
}

#[test]
fn a_sheet_shows_each_seed_labelled_and_failures_in_red() {
    let scratch = Scratch::new();
    scratch.write(
        "flaky.lua",
        "return { width = 40, height = 25, generate = function(map, rng)\n\
           if rng.seed == 2 then error('no luck') end\n\
           map:carve_room(Rect.new(2, 2, 30, 15)); map:set_start(5, 5)\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "sheet",
            "flaky.lua",
            "--seeds",
            "0..5",
            "--out",
            "s.png",
            "--thumb",
            "80",
            "--columns",
            "2",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("wrote s.png (5 seeds, 1 failed, 184x230 px)"),
        "{}",
        run.stderr
    );
    let frame = read_png(&scratch.path().join("s.png"));
    // 2 columns of 80x50 boxes (the maps' shape), 3 rows, 8 px gaps, a
    // label line under each.
    assert_eq!(
        (frame.width, frame.height),
        (2 * (80 + 8) + 8, 3 * (50 + 8 + 16) + 8)
    );
    let label = Rgb(0xdd, 0xdd, 0xdd);
    let failed = Rgb(0xff, 0x60, 0x60);
    let at = |i: usize| (8 + (i % 2) * 88, 8 + (i / 2) * 74 + 50 + 4);
    for (i, text, color) in [
        (0, "seed 0", label),
        (1, "seed 1", label),
        (3, "seed 3", label),
        (4, "seed 4", label),
    ] {
        let (x, y) = at(i);
        assert!(says(&frame, x, y, text, color), "{text} under its picture");
    }
    let (x, y) = at(2);
    assert!(says(&frame, x, y, "seed 2 f", failed), "the failure in red");
    // The pictures are the maps: 2 px a cell, floor where the room is.
    let floor = dunlua::TileSet::builtin().kind(dunlua::Tile::FLOOR).color;
    assert_eq!(frame.get(8 + 10 * 2, 8 + 10 * 2), floor);

    // Bad input: not a .png, a missing script.
    let run = dunlua_in(scratch.path(), &["sheet", "flaky.lua", "--out", "s.jpg"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--out s.jpg: a sheet is a .png"),
        "{}",
        run.stderr
    );
    let run = dunlua_in(scratch.path(), &["sheet", "nope.lua", "--out", "t.png"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!scratch.path().join("t.png").exists());
    // Too big a picture: refused before any map is made.
    let run = dunlua_in(
        scratch.path(),
        &[
            "sheet",
            "flaky.lua",
            "--seeds",
            "10000",
            "--thumb",
            "2000",
            "--out",
            "t.png",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("over the 64 million pixels a PNG may have"),
        "{}",
        run.stderr
    );
}

/// `--level K` pictures each seed's level K: the same sheet as a one-level
/// script that makes that level's map; a level the script does not make
/// is a usage error.
#[test]
fn a_sheet_of_a_deeper_level_pictures_that_level() {
    let scratch = Scratch::new();
    let below = "map:fill('water'); map:carve_room(Rect.new(2, 2, 6, 4)); map:set_start(3, 3)";
    scratch.write(
        "deep.lua",
        &format!(
            "return {{ levels = 2, width = 30, height = 12, generate = function(map, rng, p, ctx)\n\
               if ctx.level == 2 then {below} return end\n\
               map:carve_room(Rect.new(1, 1, 20, 8)); map:set_start(2, 2)\n\
             end }}\n"
        ),
    );
    scratch.write(
        "flat.lua",
        &format!("return {{ width = 30, height = 12, generate = function(map) {below} end }}\n"),
    );
    let sheet = |script: &str, out: &str, level: &str| {
        let run = dunlua_in(
            scratch.path(),
            &[
                "sheet", script, "--seeds", "0..3", "--out", out, "--thumb", "60", "--level", level,
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        std::fs::read(scratch.path().join(out)).unwrap()
    };
    let deep_1 = sheet("deep.lua", "d1.png", "1");
    let deep_2 = sheet("deep.lua", "d2.png", "2");
    let flat = sheet("flat.lua", "f.png", "1");
    assert_eq!(deep_2, flat, "level 2 as its own map");
    assert_ne!(deep_1, deep_2);
    let run = dunlua_in(
        scratch.path(),
        &["sheet", "deep.lua", "--out", "d3.png", "--level", "3"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--level 3: deep.lua makes 2 levels a seed"),
        "{}",
        run.stderr
    );
    assert!(!scratch.path().join("d3.png").exists());
}
