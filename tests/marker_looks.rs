//! `markers.define`: a look given at the top of a script, in a module or in
//! `generate` is what `--ascii`, PNGs and the LDtk export draw; markers
//! without one keep their first letter, in colours that tell apart names
//! sharing it; and a look belongs to its run only, in a reused VM too.

use dunlua::map::Rgb;
use dunlua::render::{Frame, MarkerLooks, MARKER_COLOR};
use dunlua::script::{Request, Session};

use crate::util::{dunlua_in, Scratch};

const SCRIPT: &str = r##"
markers.define("treasure", { glyph = "$", color = "#ffd700" })
local looks = require("lib.looks")
return { width = 14, height = 5, generate = function(map, rng)
  markers.define("key", { glyph = "k", color = "#40ff40" })
  map:fill("floor")
  map:mark(1, 1, "treasure") map:mark(3, 1, "trap") map:mark(5, 1, "key")
  map:mark(7, 1, "goblin") map:mark(9, 1, "gold")
  map:mark(11, 1, "stairs_down") map:set(11, 1, "stairs_down")
  map:set_start(0, 0)
end }
"##;

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

/// The colours lit in cell (x, y) of a 16-px PNG.
fn colours_in(frame: &Frame, x: usize, y: usize) -> Vec<Rgb> {
    let mut out = Vec::new();
    for py in 0..16 {
        for px in 0..16 {
            let c = frame.get(x * 16 + px, y * 16 + py);
            if c != Rgb(0, 0, 0) && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

#[test]
fn looks_defined_anywhere_are_drawn_in_text_and_pictures() {
    let scratch = Scratch::new();
    scratch.write(
        "lib/looks.lua",
        "markers.define(\"trap\", { glyph = \"^\", color = \"#ff3030\" })\nreturn {}\n",
    );
    scratch.write("m.lua", SCRIPT);
    let run = dunlua_in(
        scratch.path(),
        &[
            "m.lua", "--seed", "1", "--ascii", "--out", "m.png", "--out", "m.txt",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(rows[1], ".$.^.k.G.G.>..", "{}", run.stdout);
    assert_eq!(rows[0], "@.............");
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("m.txt")).unwrap(),
        run.stdout,
        ".txt holds what --ascii prints"
    );
    let png = read_png(&scratch.path().join("m.png"));
    assert_eq!(colours_in(&png, 1, 1), [Rgb(0xff, 0xd7, 0x00)]);
    assert_eq!(colours_in(&png, 3, 1), [Rgb(0xff, 0x30, 0x30)]);
    assert_eq!(colours_in(&png, 5, 1), [Rgb(0x40, 0xff, 0x40)]);
    let (goblin, gold) = (colours_in(&png, 7, 1), colours_in(&png, 9, 1));
    assert_eq!(goblin, [MARKER_COLOR], "the first G keeps today's colour");
    assert_eq!(gold.len(), 1);
    assert_ne!(goblin, gold, "goblin and gold tell apart");
}

#[test]
fn a_look_belongs_to_its_run() {
    let scratch = Scratch::new();
    // Only seed 0 gives "x" a look, in generate.
    let path = scratch.write(
        "leak.lua",
        "\
         return { width = 6, height = 3, generate = function(map, rng)\n\
           if rng.seed == 0 then markers.define(\"x\", { glyph = \"$\" }) end\n\
           map:fill(\"floor\") map:mark(2, 1, \"x\") map:set_start(0, 0)\n\
         end }\n",
    );
    let session = Session::new(&Request::new(&path, 0)).unwrap();
    let first = session.run(0).unwrap();
    assert_eq!(first.map.text_with_markers().lines().nth(1), Some("..$..."));
    for seed in [1, 2] {
        let g = session.run(seed).unwrap();
        assert!(g.map.tiles().marker_look("x").is_none(), "seed {seed}");
        assert_eq!(g.map.text_with_markers().lines().nth(1), Some("..X..."));
        let fresh = Session::new(&Request::new(&path, 0))
            .unwrap()
            .run(seed)
            .unwrap();
        assert_eq!(fresh.map.tiles(), g.map.tiles(), "as in a fresh VM");
        assert_eq!(fresh.map.hash64(), g.map.hash64());
    }
    // A look does not change the map's hash.
    let plain = scratch.write(
        "plain.lua",
        "return { width = 6, height = 3, generate = function(map, rng)\n\
           map:fill(\"floor\") map:mark(2, 1, \"x\") map:set_start(0, 0)\n\
         end }\n",
    );
    let without = Session::new(&Request::new(&plain, 0))
        .unwrap()
        .run(0)
        .unwrap();
    assert_eq!(without.map.hash64(), first.map.hash64());
}

#[test]
fn undefined_names_sharing_a_letter_get_distinct_colours() {
    let mut map = dunlua::Map::new(12, 1).unwrap();
    let names = ["goblin", "gold", "gem", "guard", "orc", "ghost"];
    for (i, n) in names.iter().enumerate() {
        map.mark(i as i64, 0, n).unwrap();
    }
    let looks = MarkerLooks::of(&map);
    let gs: Vec<Rgb> = names
        .iter()
        .filter(|n| n.starts_with('g'))
        .map(|n| looks.get(n).1)
        .collect();
    for (i, a) in gs.iter().enumerate() {
        assert!(gs[i + 1..].iter().all(|b| b != a), "{gs:?}");
    }
    assert_eq!(looks.get("orc"), ('O', MARKER_COLOR));
    assert_eq!(looks.get("goblin"), ('G', MARKER_COLOR));
}
