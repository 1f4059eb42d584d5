//! `markers.define`: a look given at the top of a script, in a module or in
//! `generate` is what `--ascii`, PNGs and the LDtk export draw; markers
//! without one keep their first letter, in colours that tell apart names
//! sharing it; a name has one look on every level of a dungeon (the
//! coloured text, each level's PNG, LDtk, sheets and the window); and a
//! look belongs to its run only, in a reused VM too.

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

/// Three levels, each marking names in an order the levels above do not
/// predict: drawn level by level, `sword` would be magenta on level 2 and
/// `scroll` cyan there; `gem` cyan and `goblin` magenta on level 3. One
/// stairs down on each level but the last, to walk the window down.
const DUNGEON: &str = r##"
markers.define("treasure", { glyph = "$", color = "#ffd700" })
local marked = {
  { "scroll", "gem" },
  { "sword", "treasure", "scroll" },
  { "goblin", "gem", "sword" },
}
return { width = 12, height = 3, levels = 3, generate = function(map, rng, p, ctx)
  map:fill("floor")
  map:set_start(0, 0)
  if ctx.level < ctx.levels then map:set(11, 2, "stairs_down") end
  for i, name in ipairs(marked[ctx.level]) do map:mark(2 * i - 1, 1, name) end
end }
"##;

/// What each level of [`DUNGEON`] marks on row 1, at x = 1, 3, 5.
const MARKED: [&[&str]; 3] = [
    &["scroll", "gem"],
    &["sword", "treasure", "scroll"],
    &["goblin", "gem", "sword"],
];

const CYAN: Rgb = Rgb(0x40, 0xe0, 0xff);
const GOLD: Rgb = Rgb(0xff, 0xd7, 0x00);

/// The one look each name has in the whole dungeon: the look of the first
/// level marking it (level 1 first, as if it were alone).
fn dungeon_look(name: &str) -> (char, Rgb) {
    match name {
        "scroll" => ('S', MARKER_COLOR),
        "gem" => ('G', MARKER_COLOR),
        "sword" => ('S', CYAN),
        "treasure" => ('$', GOLD),
        "goblin" => ('G', CYAN),
        other => panic!("{other} is not marked"),
    }
}

/// Each marked cell of level `level` (1-based): x, name.
fn marked(level: usize) -> impl Iterator<Item = (usize, &'static str)> {
    MARKED[level - 1]
        .iter()
        .enumerate()
        .map(|(i, &name)| (2 * i + 1, name))
}

/// A row of coloured text as (character, colour if one was set) per cell.
fn coloured_cells(row: &str) -> Vec<(char, Option<Rgb>)> {
    let mut out = Vec::new();
    let mut rest = row;
    while let Some(c) = rest.chars().next() {
        if let Some(escape) = rest.strip_prefix("\x1b[38;2;") {
            let end = escape.find('m').unwrap();
            let rgb: Vec<u8> = escape[..end]
                .split(';')
                .map(|v| v.parse().unwrap())
                .collect();
            let shown = escape[end + 1..].chars().next().unwrap();
            out.push((shown, Some(Rgb(rgb[0], rgb[1], rgb[2]))));
            let after = &escape[end + 1 + shown.len_utf8()..];
            rest = after
                .strip_prefix("\x1b[0m")
                .expect("a reset after the glyph");
        } else {
            out.push((c, None));
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[test]
fn a_name_has_one_look_on_every_level_in_text_pngs_and_ldtk() {
    let scratch = Scratch::new();
    scratch.write("dungeon.lua", DUNGEON);
    let run = dunlua_in(
        scratch.path(),
        &[
            "dungeon.lua",
            "--seed",
            "1",
            "--ascii",
            "--color",
            "always",
            "--out",
            "d.png",
            "--out",
            "d.ldtk",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The coloured text: "level k of 3", then the level's three rows.
    let lines: Vec<&str> = run.stdout.lines().collect();
    for level in 1..=3 {
        let at = lines
            .iter()
            .position(|l| *l == format!("level {level} of 3"))
            .unwrap_or_else(|| panic!("no level {level} in {:?}", run.stdout));
        let row = coloured_cells(lines[at + 2]);
        for (x, name) in marked(level) {
            let (glyph, color) = dungeon_look(name);
            assert_eq!(row[x], (glyph, Some(color)), "{name} on level {level}");
        }
    }
    // Every level's PNG.
    for level in 1..=3 {
        let png = read_png(&scratch.path().join(format!("d-{level}.png")));
        for (x, name) in marked(level) {
            let (_, color) = dungeon_look(name);
            assert_eq!(colours_in(&png, x, 1), [color], "{name} in d-{level}.png");
        }
    }
    // LDtk: one entity per name, in the colour every level draws it.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scratch.path().join("d.ldtk")).unwrap())
            .unwrap();
    for name in ["scroll", "gem", "sword", "treasure", "goblin"] {
        let def = doc["defs"]["entities"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["identifier"] == name)
            .unwrap_or_else(|| panic!("no entity {name}"));
        let (_, Rgb(r, g, b)) = dungeon_look(name);
        assert_eq!(
            def["color"].as_str().unwrap(),
            format!("#{r:02X}{g:02X}{b:02X}"),
            "{name}'s entity"
        );
    }
}

#[test]
fn looks_of_levels_extend_level_by_level() {
    let scratch = Scratch::new();
    let path = scratch.write("dungeon.lua", DUNGEON);
    let levels = dunlua::script::run_levels(&Request::new(path, 1)).unwrap();
    let maps: Vec<&dunlua::Map> = levels.iter().map(|g| &g.map).collect();
    let looks = MarkerLooks::of_levels(maps.iter().copied());
    for name in ["scroll", "gem", "sword", "treasure", "goblin"] {
        assert_eq!(looks.get(name), dungeon_look(name), "{name}");
    }
    // Level 1 alone looks as in the dungeon; so do levels 1..k alone.
    assert_eq!(MarkerLooks::of(maps[0]), MarkerLooks::of_levels([maps[0]]));
    for k in 1..=3 {
        let above = MarkerLooks::of_levels(maps[..k].iter().copied());
        for (_, name) in (1..=k).flat_map(marked) {
            assert_eq!(above.get(name), looks.get(name), "{name} down to level {k}");
        }
    }
    // Alone, level 3 would draw gem cyan: the fix is not a no-op.
    assert_eq!(MarkerLooks::of(maps[2]).get("gem"), ('G', CYAN));
}

/// The one non-background colour in map cell (x, y) of a `cell`-px picture
/// placed at `origin`.
fn lit_in(
    frame: &Frame,
    origin: (usize, usize),
    cell: usize,
    x: usize,
    y: usize,
    bg: Rgb,
) -> Vec<Rgb> {
    let mut out = Vec::new();
    for py in 0..cell {
        for px in 0..cell {
            let c = frame.get(origin.0 + x * cell + px, origin.1 + y * cell + py);
            if c != bg && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

#[test]
fn sheets_of_a_lower_level_keep_the_dungeon_s_looks() {
    let scratch = Scratch::new();
    scratch.write("dungeon.lua", DUNGEON);
    for level in 2..=3 {
        let out = format!("sheet-{level}.png");
        let run = dunlua_in(
            scratch.path(),
            &[
                "sheet",
                "dungeon.lua",
                "--seeds",
                "1..2",
                "--thumb",
                "120",
                "--level",
                &level.to_string(),
                "--out",
                &out,
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        // A 12x3 map in a 120x30 box: 10 px a cell, 8 px in from the corner;
        // a marker is a square in the middle of its cell.
        let sheet = read_png(&scratch.path().join(&out));
        for (x, name) in marked(level) {
            let (_, color) = dungeon_look(name);
            let (px, py) = (8 + x * 10 + 5, 8 + 10 + 5);
            assert_eq!(sheet.get(px, py), color, "{name} on level {level}'s sheet");
        }
    }
}

#[test]
fn the_window_draws_a_name_alike_on_every_level() {
    use dunlua::view::{draw, state::Overlay, state::ViewState};
    let scratch = Scratch::new();
    let path = scratch.write("dungeon.lua", DUNGEON);
    let levels = dunlua::script::run_levels(&Request::new(path, 1)).unwrap();
    let floor = levels[0].map.tiles().kind(dunlua::Tile::FLOOR).background;
    let cell = 16;
    let mut state = ViewState::new(levels, std::time::Duration::ZERO, cell);
    for level in 1..=3 {
        assert_eq!(state.level(), (level, 3));
        for overlay in [Overlay::None, Overlay::Markers] {
            state.overlay = overlay;
            // Wide and tall enough that the status line wraps below the map.
            let mut frame = Frame::new(1200, 3 * cell + 200, Rgb(1, 1, 1));
            draw::draw(&state, &mut frame);
            // The map is centred: cell (0, 0) is at `origin`.
            let (cx, cy) = draw::camera(&state, &frame).0;
            assert!(cx <= 0 && cy <= 0, "the whole map is in view");
            let origin = ((-cx) as usize * cell, (-cy) as usize * cell);
            for (x, name) in marked(level) {
                let (_, color) = dungeon_look(name);
                match overlay {
                    // The glyph in its colour on the floor.
                    Overlay::None => assert_eq!(
                        lit_in(&frame, origin, cell, x, 1, floor),
                        [color],
                        "{name} on level {level}"
                    ),
                    // The marker's box outlined in its colour.
                    _ => assert_eq!(
                        frame.get(origin.0 + x * cell, origin.1 + cell),
                        color,
                        "{name}'s box on level {level}"
                    ),
                }
            }
        }
        if level < 3 {
            state.player = (11, 2);
            state.take_stairs(true).unwrap();
        }
    }
}
