//! `graph` layouts: valid on many seeds (no overlap, every edge realised,
//! no connection the graph lacks, rects covering exactly the templates),
//! deterministic, impossible inputs named at once, hostile inputs bounded,
//! the search in the replay and failures counted by `check`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use dunlua::script::{self, Request};
use dunlua::{Map, Tile};

use crate::util::{dunlua_in, Scratch};

/// Templates of three shapes (a square, a long room, an L with spaces in
/// its box) and a graph with a four-room loop, a tail and a locked edge.
fn script(corridors: bool, extra: &str) -> String {
    let corridors = if corridors {
        "corridors = { length = { 2, 6 } },"
    } else {
        ""
    };
    format!(
        r####"
tiles.define("locked_door", {{ glyph = "+", color = "#ff4040", walkable = true }})
local L = {{ ["#"] = "wall", ["."] = "floor", D = {{ tile = "wall", door = true }} }}
local T = {{
  square = {{ rows = {{ "##D##", "#...#", "D...D", "#...#", "##D##" }}, legend = L }},
  long = {{ rows = {{ "###D###", "D.....D", "###D###" }}, legend = L }},
  ell = {{ rows = {{ "##D#   ", "#..#   ", "D...###", "#.....D", "###D###" }}, legend = L }},
}}
local ROOMS = {{
  a = {{ "square", "ell" }}, b = {{ "long", "square" }}, c = {{ "ell", "long" }},
  d = {{ "square", "long", "ell" }}, e = {{ "long" }},
}}
local EDGES = {{ {{ "a", "b" }}, {{ "b", "c" }}, {{ "c", "d" }}, {{ "d", "a" }}, {{ "c", "e", "locked_door" }} }}
return {{ width = 60, height = 40, generate = function(map, rng)
  map:fill("wall")
  local g = graph.new()
  for _, name in ipairs({{ "a", "b", "c", "d", "e" }}) do g:room(name, {{ templates = ROOMS[name] }}) end
  for _, e in ipairs(EDGES) do g:connect(e[1], e[2], e[3] and {{ door = e[3] }} or nil) end
  {extra}
  local layout, why = g:layout(map, rng, {{ templates = T, {corridors} attempts = 200 }})
  if not layout then error("no layout: " .. why) end
  local degree = {{}}
  for _, e in ipairs(EDGES) do
    degree[e[1]] = (degree[e[1]] or 0) + 1
    degree[e[2]] = (degree[e[2]] or 0) + 1
  end
  for name, room in pairs(layout) do
    local r = room.rect
    local w, h = prefab.size(T[room.template].rows, {{ rotate = room.rotate }})
    assert(r.x2 - r.x1 + 1 == w and r.y2 - r.y1 + 1 == h, name .. ": rect is not the template's box")
    local known = false
    for _, t in ipairs(ROOMS[name]) do known = known or t == room.template end
    assert(known, name .. ": a template it may not use")
    assert(type(room.mirror) == "boolean", "mirror is a boolean")
    assert(#room.doors == degree[name], name .. ": " .. #room.doors .. " doors")
    for _, d in ipairs(room.doors) do
      assert(d[1] == d.x and d[2] == d.y)
      local t = map:get(d.x, d.y)
      assert(t == "door" or t == "locked_door", name .. ": door cell holds " .. t)
    end
  end
  local sx, sy = layout.a.rect:center()
  map:set_start(sx, sy)
end }}
"####
    )
}

const EDGES: [(&str, &str); 5] = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("c", "e")];

/// Labels the 4-connected walkable regions of `map` with every door cell
/// (door or locked_door) closed: `None` for cells not walkable.
fn regions_with_doors_closed(map: &Map) -> Vec<Option<usize>> {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let locked = map.tiles().by_name("locked_door");
    let open = |i: usize| {
        let t = map.cells()[i];
        map.tiles().kind(t).walkable && t != Tile::DOOR && Some(t) != locked
    };
    let mut label = vec![None; w * h];
    let mut next = 0;
    for start in 0..w * h {
        if label[start].is_some() || !open(start) {
            continue;
        }
        label[start] = Some(next);
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let mut near = Vec::new();
            if x > 0 {
                near.push(i - 1);
            }
            if x + 1 < w {
                near.push(i + 1);
            }
            if y > 0 {
                near.push(i - w);
            }
            if y + 1 < h {
                near.push(i + w);
            }
            for j in near {
                if label[j].is_none() && open(j) {
                    label[j] = Some(next);
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    label
}

/// The room pairs the finished map really connects, through doors and
/// corridors, checking on the way that rooms never open into each other.
fn realised_edges(map: &Map, at: &str) -> BTreeSet<(String, String)> {
    let w = map.width() as usize;
    let label = regions_with_doors_closed(map);
    let mut room_of_region = std::collections::BTreeMap::new();
    for (rect, details) in map.rooms().iter().zip(map.room_details()) {
        let name = details.name.clone().expect("a named room");
        let (cx, cy) = rect.center();
        let region = label[cy as usize * w + cx as usize].expect("a room's centre is floor");
        assert!(
            room_of_region.insert(region, name.clone()).is_none(),
            "{at}: room {name} shares its floor with another room"
        );
        // The room's floor stays inside its rect: nothing opens into it
        // but its doors.
        for (i, l) in label.iter().enumerate() {
            if *l == Some(region) {
                let (x, y) = ((i % w) as i32, (i / w) as i32);
                assert!(
                    rect.contains(x, y),
                    "{at}: room {name}'s floor leaks to ({x}, {y})"
                );
            }
        }
    }
    let locked = map.tiles().by_name("locked_door");
    // Each door joins the regions beside it; corridors are the regions of
    // no room.
    let mut links: Vec<(usize, usize)> = Vec::new();
    for (i, &t) in map.cells().iter().enumerate() {
        if t != Tile::DOOR && Some(t) != locked {
            continue;
        }
        let (x, y) = (i % w, i / w);
        let mut beside: Vec<usize> = [(0i64, -1i64), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .filter_map(|(dx, dy)| {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                (nx >= 0 && ny >= 0 && nx < map.width() as i64 && ny < map.height() as i64)
                    .then(|| label[ny as usize * w + nx as usize])
                    .flatten()
            })
            .collect();
        beside.sort_unstable();
        beside.dedup();
        assert_eq!(
            beside.len(),
            2,
            "{at}: the door at ({x}, {y}) joins {beside:?}"
        );
        links.push((beside[0], beside[1]));
    }
    let mut out = BTreeSet::new();
    let name = |r: usize| room_of_region.get(&r).cloned();
    for &(p, q) in &links {
        if let (Some(a), Some(b)) = (name(p), name(q)) {
            out.insert((a.clone().min(b.clone()), a.max(b)));
        }
    }
    // A corridor region: exactly two doors, each into a room.
    let corridors: BTreeSet<usize> = links
        .iter()
        .flat_map(|&(p, q)| [p, q])
        .filter(|r| !room_of_region.contains_key(r))
        .collect();
    for c in corridors {
        let rooms: Vec<String> = links
            .iter()
            .filter_map(|&(p, q)| {
                if p == c {
                    name(q)
                } else if q == c {
                    name(p)
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(rooms.len(), 2, "{at}: a corridor joins {rooms:?}");
        let (a, b) = (rooms[0].clone(), rooms[1].clone());
        assert!(
            out.insert((a.clone().min(b.clone()), a.max(b))),
            "{at}: two ways between the same rooms"
        );
    }
    out
}

fn expected() -> BTreeSet<(String, String)> {
    EDGES
        .iter()
        .map(|&(a, b)| (a.min(b).to_string(), a.max(b).to_string()))
        .collect()
}

fn run(path: &std::path::Path, seed: u64) -> dunlua::Generated {
    script::run(&Request::new(path, seed)).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

#[test]
fn corridor_layouts_are_valid_for_100_seeds() {
    let scratch = Scratch::new();
    let path = scratch.write("graph.lua", &script(true, ""));
    for seed in 0..100 {
        let g = run(&path, seed);
        let at = format!("seed {seed}");
        assert_eq!(realised_edges(&g.map, &at), expected(), "{at}\n{}", g.map);
        assert_eq!(g.map.rooms().len(), 5);
        // The locked edge got its own door kind, once.
        let locked = g.map.tiles().by_name("locked_door").unwrap();
        assert_eq!(
            g.map.count(locked),
            2,
            "{at}: two locked doors (one corridor)"
        );
    }
}

#[test]
fn shared_door_layouts_are_valid_for_100_seeds() {
    let scratch = Scratch::new();
    let path = scratch.write("graph.lua", &script(false, ""));
    for seed in 0..100 {
        let g = run(&path, seed);
        let at = format!("seed {seed}");
        assert_eq!(realised_edges(&g.map, &at), expected(), "{at}\n{}", g.map);
        let locked = g.map.tiles().by_name("locked_door").unwrap();
        assert_eq!(g.map.count(locked), 1, "{at}: one shared locked door");
    }
}

#[test]
fn the_same_seed_gives_the_same_layout_in_every_run() {
    let scratch = Scratch::new();
    let path = scratch.write("graph.lua", &script(true, ""));
    let once: Vec<u64> = (0..10).map(|s| run(&path, s).map.hash64()).collect();
    let again: Vec<u64> = (0..10).map(|s| run(&path, s).map.hash64()).collect();
    assert_eq!(once, again);
    assert!(
        once.iter().collect::<BTreeSet<_>>().len() > 5,
        "seeds differ"
    );
    let text = |seed: &str| dunlua_in(scratch.path(), &["graph.lua", "--seed", seed]).stdout;
    assert_eq!(text("3"), text("3"));
}

/// Runs a layout of a graph that cannot work; returns the error text and
/// checks it came quickly.
fn failure(body: &str) -> String {
    let scratch = Scratch::new();
    let text = format!(
        r####"
local L = {{ ["#"] = "wall", ["."] = "floor", D = {{ tile = "wall", door = true }} }}
local T = {{
  square = {{ rows = {{ "##D##", "#...#", "D...D", "#...#", "##D##" }}, legend = L }},
  closet = {{ rows = {{ "###", "#.#", "###" }}, legend = L }},
  corner = {{ rows = {{ "##D", "#..", "###" }}, legend = {{ ["#"] = "wall", ["."] = "floor", D = {{ tile = "wall", door = true, socket = "iron" }} }}, rotate = false, mirror = false }},
  boss = {{ rows = {{ "##D##", "#...#", string.rep("#", 5) }}, legend = L, unique = true }},
  big = {{ rows = (function() local r = {{ "#D#" }} for i = 1, 44 do r[#r + 1] = "#.#" end return r end)(), legend = L, rotate = false }},
}}
return {{ width = 60, height = 40, generate = function(map, rng)
  map:fill("wall")
  local g = graph.new()
  {body}
  map:set_start(1, 1)
end }}
"####
    );
    let started = Instant::now();
    let err = scratch.run("bad.lua", &text).unwrap_err().to_string();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{err} took {:?}",
        started.elapsed()
    );
    err
}

const LAYOUT: &str = "local l, why = g:layout(map, rng, { templates = T, corridors = { length = { 2, 6 } } }); error(tostring(why), 0)";

#[test]
fn impossible_inputs_are_named_at_once() {
    let cases = [
        (
            "g:room('a', { templates = { 'closet' } }); g:room('b', { templates = { 'square' } }); g:connect('a', 'b')",
            "room \"a\" has 1 connection(s) but its template \"closet\" has no door places",
        ),
        (
            "for _, n in ipairs({'h', 'a', 'b', 'c', 'd', 'e'}) do g:room(n, { templates = { 'square' } }) end
             for _, n in ipairs({'a', 'b', 'c', 'd', 'e'}) do g:connect('h', n) end",
            "room \"h\" has 5 connections but its templates have at most 4 door places (template \"square\")",
        ),
        (
            "g:room('a', { templates = { 'corner' } }); g:room('b', { templates = { 'square' } }); g:connect('a', 'b')",
            "room \"b\": no template has a door that can face \"a\"",
        ),
        (
            "g:room('a', { templates = { 'boss' } }); g:room('b', { templates = { 'boss' } })",
            "template \"boss\" is unique but rooms \"a\" and \"b\" have no other",
        ),
        (
            "g:room('a', { templates = { 'big' } })",
            "room \"a\": none of its templates fits the 60x40 map",
        ),
    ];
    for (body, want) in cases {
        let err = failure(&format!("{body}\n{LAYOUT}"));
        assert!(err.contains(want), "want {want}\ngot  {err}");
    }
}

#[test]
fn a_layout_that_never_fits_gives_up_with_a_reason() {
    // A chain of 40 squares cannot fit on 60x40 with 2..6 corridors.
    let err = failure(
        "for i = 1, 40 do g:room('r' .. i, { templates = { 'square' } }) end
         for i = 2, 40 do g:connect('r' .. (i - 1), 'r' .. i) end
         local l, why = g:layout(map, rng, { templates = T, corridors = { length = { 5, 6 } }, attempts = 3 })
         error(tostring(why), 0)",
    );
    assert!(
        err.contains("bad.lua:16: gave up after 3 attempts: room \"r"),
        "{err}"
    );
}

#[test]
fn a_room_without_a_template_list_may_use_every_template() {
    // `g:room(name)` (or `{}`): any template of g:layout's; a room with a
    // list keeps to it. Over a few seeds the free rooms use both shapes.
    let scratch = Scratch::new();
    let path = scratch.write(
        "free.lua",
        r####"
local L = { ["#"] = "wall", ["."] = "floor", D = { tile = "wall", door = true } }
local T = {
  square = { rows = { "##D##", "#...#", "D...D", "#...#", "##D##" }, legend = L },
  long = { rows = { "###D###", "D.....D", "###D###" }, legend = L },
}
return { width = 60, height = 40, generate = function(map, rng)
  map:fill("wall")
  local g = graph.new()
  g:room("a")
  g:room("b", {})
  g:room("c", { templates = { "square" } })
  g:connect("a", "b") g:connect("b", "c")
  local layout, why = g:layout(map, rng, { templates = T, corridors = { length = { 2, 6 } } })
  if not layout then reject(why) end
  for _, r in ipairs({ "a", "b", "c" }) do map:mark(layout[r].rect.x1, layout[r].rect.y1, r .. "_" .. layout[r].template) end
  map:set_start(layout.a.rect:center())
end }
"####,
    );
    let mut used = BTreeSet::new();
    for seed in 0..20 {
        let g = run(&path, seed);
        for m in g.map.markers() {
            used.insert(m.name.clone());
        }
    }
    for want in ["a_square", "a_long", "b_square", "b_long", "c_square"] {
        assert!(used.contains(want), "{want} never used: {used:?}");
    }
    assert!(!used.contains("c_long"), "c keeps to its list: {used:?}");
}

#[test]
fn wrong_arguments_are_located_errors() {
    let cases = [
        ("g:room('a', { templates = { 'nope' } }); g:layout(map, rng, { templates = T })", "graph:layout: unknown template \"nope\""),
        ("g:room('a', { templates = {} })", "graph:room: opts.templates must list 1 to 256 template names, got 0"),
        ("g:room('a', { templates = 'square' })", "graph:room: opts.templates must be a list of template names, got \"square\""),
        ("g:room('a'); g:layout(map, rng, { templates = {} })", "graph:layout: room \"a\" names no templates, so it may use every one in opts.templates: that is 1 to 256, and opts.templates has 0"),
        ("g:room('a'); g:layout(map, rng, { templates = { [1] = T.square } })", "graph:layout: opts.templates must be a table of templates by name, got the key 1"),
        ("g:room('a', { templates = { 'square' } }); g:room('a', { templates = { 'square' } })", "room \"a\" is already in the graph"),
        ("g:room('a', { templates = { 'square' } }); g:connect('a', 'zz')", "no room \"zz\" in the graph"),
        ("g:room('a', { templates = { 'square' } }); g:connect('a', 'a')", "cannot be connected to itself"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, attempts = 1e9 })", "opts.attempts must be an integer from 1 to 100000, got 1000000000.0"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, attempts = 0/0 })", "opts.attempts must be an integer"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, corridors = { length = { 0/0, 3 } } })", "opts.corridors.length must be {min, max}"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, corridors = { length = { 3, 2 } } })", "opts.corridors.length must be {min, max}"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, corridors = { length = { 2, 3 }, tile = 'wall' } })", "opts.corridors.tile \"wall\" is not walkable"),
        ("g:room('a', { templates = { 'square' } }); g:layout(map, rng, { templates = T, colour = 1 })", "graph:layout"),
        ("g:room('a', { templates = { 'square' } }); g:room('b', { templates = { 'square' } }); g:connect('a', 'b', { door = 'nope' }); g:layout(map, rng, { templates = T })", "opts.door"),
        ("g:room('a', { templates = { 'x' } }); g:layout(map, rng, { templates = { x = { rows = { '#D#', '#.#' }, legend = { ['#'] = 'wall', ['.'] = 'floor', D = { tile = 'wall', door = 'yes' } } } } })", "templates.x.legend 'D': door must be a boolean"),
        ("g:room('a', { templates = { 'x' } }); g:layout(map, rng, { templates = { x = { rows = { '#D#', '#.#' }, legend = { ['#'] = 'wall', ['.'] = 'floor' } } } })", "templates.x: row 1 uses 'D', which its legend does not define"),
        ("g:room('a', { templates = { 'x' } }); g:layout(map, rng, { templates = { x = { rows = { '###', '#D#', '###' }, legend = { ['#'] = 'wall', D = { tile = 'floor', door = true } } } } })", "not on the room's edge"),
        ("g:room('a', { templates = { 'x' } }); g:layout(map, rng, { templates = { x = { rows = { string.rep('#', 5000) }, legend = L } } })", "templates.x.rows[1] is 5000 bytes, longer than the map's longest side"),
        ("g:layout(nil, rng, { templates = T })", "graph:layout: map must be the map"),
        ("g:layout(map, 3, { templates = T })", "graph:layout: rng must be the rng object"),
        ("for i = 1, 10000 do g:room('r' .. i, { templates = { 'square' } }) end", "graph:room: a graph holds at most 1000 rooms"),
    ];
    for (body, want) in cases {
        let err = failure(body);
        assert!(err.contains(want), "want {want}\ngot  {err}");
        assert!(err.contains("/bad.lua:"), "located: {err}");
    }
}

#[test]
fn hostile_layouts_end_within_the_budget() {
    // 1000 rooms on a map where they cannot fit, with every attempt
    // allowed: the budget ends it, quickly and located.
    let err = failure(
        "for i = 1, 1000 do g:room('r' .. i, { templates = { 'square' } }) end
         for i = 2, 1000 do g:connect('r' .. (i - 1), 'r' .. i); if i > 3 then pcall(g.connect, g, 'r' .. (i - 3), 'r' .. i) end end
         g:layout(map, rng, { templates = T, corridors = { length = { 1, 60 } }, attempts = 100000 })",
    );
    assert!(
        err.contains("instruction budget") || err.contains("gave up"),
        "{err}"
    );
    // A loop of three touching rooms can never close; with attempts to
    // spare, the budget ends the search before it gives up, and the
    // message says what the failed attempts found (it said only the
    // budget).
    let err = failure(
        "g:room('a', { templates = { 'square' } }); g:room('b', { templates = { 'square' } }); g:room('c', { templates = { 'square' } })
         g:connect('a', 'b'); g:connect('b', 'c'); g:connect('c', 'a')
         g:layout(map, rng, { templates = T, attempts = 100000 })",
    );
    assert!(err.contains("instruction budget"), "{err}");
    assert!(
        err.contains("graph:layout had failed ")
            && err.contains(" of its 100000 attempts: the cycle through \""),
        "{err}"
    );
    assert!(err.contains("never closed"), "{err}");
    // An error inside a metamethod of the options is the script's own.
    let err = failure(
        "g:room('a', { templates = { 'square' } })
         g:layout(map, rng, setmetatable({ templates = T }, { __index = function() error('from index') end }))",
    );
    assert!(
        err.contains("from index") || err.contains("graph:layout"),
        "{err}"
    );
}

#[test]
fn the_replay_shows_the_search_as_labelled_steps() {
    let scratch = Scratch::new();
    let path = scratch.write("graph.lua", &script(true, ""));
    let mut request = Request::new(&path, 4);
    request.record = true;
    let g = script::run(&request).unwrap();
    let labels: Vec<String> = g
        .replay
        .expect("a replay")
        .steps()
        .iter()
        .map(|s| s.label.clone())
        .collect();
    for name in ["a", "b", "c", "d", "e"] {
        let want = format!("graph: place {name}");
        assert!(labels.contains(&want), "{want} in {labels:?}");
    }
    assert_eq!(labels.last().map(String::as_str), Some("graph: layout"));
    // Recording changes nothing in the map.
    assert_eq!(g.map, run(&path, 4).map);
}

#[test]
fn check_counts_rejected_layouts_by_reason() {
    let scratch = Scratch::new();
    scratch.write(
        "cramped.lua",
        &script(true, "")
            .replace(
                "if not layout then error(\"no layout: \" .. why) end",
                "if not layout then reject(why) return end",
            )
            .replace("width = 60, height = 40", "width = 10, height = 8")
            .replace("attempts = 200", "attempts = 5"),
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "cramped.lua",
            "--seeds",
            "0..3",
            "--max-attempts",
            "2",
            "--json",
        ],
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    let rejections = report["rejections"].as_array().expect("rejections counted");
    let total: u64 = rejections
        .iter()
        .map(|r| r["attempts"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6, "3 seeds x 2 attempts: {rejections:?}");
    for r in rejections {
        assert!(
            r["reason"]
                .as_str()
                .unwrap()
                .contains("gave up after 5 attempts"),
            "{r}"
        );
    }
}

#[test]
fn a_graph_changed_from_inside_its_own_layout_is_an_error() {
    let err = failure(
        "g:room('a', { templates = { 'square' } })
         local sneaky = setmetatable({}, { __index = function(_, k) if k == 'rows' then g:room('z', { templates = { 'square' } }) end end })
         g:layout(map, rng, { templates = { square = sneaky } })",
    );
    assert!(err.contains("the graph is being laid out"), "{err}");
}

#[test]
fn whole_float_corridor_lengths_are_integers_and_a_bad_one_is_named() {
    // api.md: wherever an integer is needed, a float with a whole value is
    // accepted ({2.0, 6.0}, or a length computed with `/`); a bad length
    // is named, not shown as "a table".
    let two = "for _, n in ipairs({'a', 'b'}) do g:room(n, { templates = { 'square' } }) end g:connect('a', 'b')";
    let err = failure(&format!(
        "{two}
         local l, why = g:layout(map, rng, {{ templates = T, corridors = {{ length = {{ 2.0, map.width / 10 }} }} }})
         error('layout: ' .. tostring(l and #l.a.doors) .. ' ' .. tostring(why), 0)"
    ));
    assert!(err.contains("layout: 1 nil"), "{err}");
    for (length, want) in [
        ("{ 2.5, 6 }", "got {2.5, 6}"),
        ("{ 0/0, 6 }", "got {nan, 6}"),
        ("{ -3, 6 }", "got {-3, 6}"),
        ("{ 2, 1e300 }", "got {2, 1e300}"),
        ("{ 6, 2 }", "got {6, 2}"),
        ("3", "got 3"),
    ] {
        let err = failure(&format!(
            "{two}
             g:layout(map, rng, {{ templates = T, corridors = {{ length = {length} }} }})"
        ));
        assert!(
            err.contains("/bad.lua:")
                && err.contains("opts.corridors.length must be {min, max}")
                && err.contains(want),
            "want {want}\ngot  {err}"
        );
    }
}

#[test]
fn an_unknown_door_kind_is_named_at_its_g_connect_line() {
    // The body starts on line 13 of the script `failure` writes: the
    // connect is on line 14, the layout on line 15.
    let two = "for _, n in ipairs({'a', 'b'}) do g:room(n, { templates = { 'square' } }) end";
    let err = failure(&format!(
        "{two}
         g:connect('a', 'b', {{ door = 'no_such_tile' }})
         g:layout(map, rng, {{ templates = T }})"
    ));
    let line = err.lines().next().unwrap();
    assert!(
        line.contains("/bad.lua:14: graph:connect: opts.door: unknown tile 'no_such_tile'; known tiles: wall, floor, door")
            && line.contains("(looked up by g:layout at ")
            && line.ends_with("/bad.lua:15)"),
        "{err}"
    );
    // A kind defined after the connect and before the layout is its door.
    let err = failure(&format!(
        "{two}
         g:connect('a', 'b', {{ door = 'vault_door' }})
         tiles.define('vault_door', {{ glyph = '+', color = '#ff4040', walkable = true }})
         local l = g:layout(map, rng, {{ templates = T }})
         local d = l.a.doors[1]
         error('door: ' .. map:get(d.x, d.y), 0)"
    ));
    assert!(err.contains("door: vault_door"), "{err}");
}

#[test]
fn a_door_kind_that_cannot_be_walked_is_named_at_its_g_connect_line() {
    // As above: the connect on line 14, the layout on line 15 or 16. A
    // door that cannot be walked through would block its own connection.
    let two = "for _, n in ipairs({'a', 'b'}) do g:room(n, { templates = { 'square' } }) end";
    let err = failure(&format!(
        "{two}
         g:connect('a', 'b', {{ door = 'wall' }})
         g:layout(map, rng, {{ templates = T }})"
    ));
    let line = err.lines().next().unwrap();
    assert!(
        line.contains("/bad.lua:14: graph:connect: opts.door: \"wall\" is not walkable, so the door would block the connection")
            && line.contains("(looked up by g:layout at ")
            && line.ends_with("/bad.lua:15)"),
        "{err}"
    );
    // A kind the script defines as not walkable, after the connect.
    let err = failure(&format!(
        "{two}
         g:connect('a', 'b', {{ door = 'portcullis' }})
         tiles.define('portcullis', {{ glyph = '=', color = '#808080', walkable = false }})
         g:layout(map, rng, {{ templates = T }})"
    ));
    let line = err.lines().next().unwrap();
    assert!(
        line.contains("/bad.lua:14: graph:connect: opts.door: \"portcullis\" is not walkable")
            && line.ends_with("/bad.lua:16)"),
        "{err}"
    );
}
