//! The analysis primitives and rerolls as scripts use them, through Lua.

use dunlua::script::{attempt_seed, FailureKind};

use crate::util::{dunlua_in, Scratch};

/// A script that stamps `rows` on a map of their size and then runs `body`.
fn on_map(rows: &[&str], body: &str) -> String {
    let list: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!(
        "return {{ width = {w}, height = {h}, generate = function(map, rng)\n\
           map:stamp(0, 0, {{ {rows} }}, {{ ['#'] = 'wall', ['.'] = 'floor', ['~'] = 'water', ['+'] = 'door' }})\n\
           {body}\n\
         end }}\n",
        w = rows[0].len(),
        h = rows.len(),
        rows = list.join(", ")
    )
}

#[test]
fn analysis_primitives_answer_from_lua() {
    let scratch = Scratch::new();
    let text = on_map(
        &["#######", "#..#..#", "#..#..#", "####..#", "#.#####"],
        r#"
        local regions = map:regions()
        assert(#regions == 3, "regions: " .. #regions)
        assert(regions[1].size == 6 and regions[1].x == 4 and regions[1].y == 1)
        assert(regions[2].size == 4 and regions[3].size == 1)
        assert(regions[1].cells:contains(5, 3) and not regions[1].cells:contains(1, 1))
        assert(map:flood(1, 1):count() == 4 and #map:flood(0, 0) == 0)
        local d = map:dijkstra(4, 1)
        assert(d:get(5, 3) == 3 and d:get(1, 1) == nil)
        local fx, fy, far = d:farthest()
        assert(fx == 5 and fy == 3 and far == 3 and d:max() == 3)
        local two = map:dijkstra({ {1, 1}, {x = 4, y = 1} })
        assert(two:get(2, 2) == 2)
        assert(map:neighbors(1, 1, "wall") == 5)
        local floor = map:select("floor")
        assert(floor:count() == 11)
        local near = map:flood(1, 1):grow()
        assert(near:intersect(floor):count() == 4 and near:count() == 16)
        assert(floor:subtract(map:flood(1, 1)):count() == 7)
        assert(floor:union(map:select("wall")):count() == 35)
        local x, y = map:random_cell("floor", rng)
        assert(map:get(x, y) == "floor")
        assert(map:connect_regions(rng) == 2 and #map:regions() == 1)
        map:set_start(1, 1)
        "#,
    );
    scratch
        .run("x.lua", &text)
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn shaping_primitives_from_lua() {
    let scratch = Scratch::new();
    let g = scratch
        .run(
            "x.lua",
            "return { width = 9, height = 7, generate = function(map, rng)\n\
               map:circle(4, 3, 2, 'floor')\n\
               map:line(0, 6, 8, 6, 'water')\n\
               map:stamp(7, 0, { '+.' }, { ['+'] = 'door', ['.'] = { tile = 'floor', mark = 'key' } })\n\
               map:set_start(4, 3)\n\
             end }\n",
        )
        .unwrap();
    assert_eq!(
        g.map.to_string(),
        "#######+.\n####.####\n###...###\n##..@..##\n###...###\n####.####\n~~~~~~~~~\n"
    );
    assert_eq!(g.map.markers()[0].name, "key");
}

#[test]
fn cellular_and_scatter_from_lua() {
    let scratch = Scratch::new();
    let g = scratch
        .run(
            "x.lua",
            "return { width = 5, height = 5, generate = function(map, rng)\n\
               map:stamp(0, 0, { '#####', '#...#', '#.#.#', '#...#', '#####' }, { ['#'] = 'wall', ['.'] = 'floor' })\n\
               map:cellular({ birth = {5, 6, 7, 8}, survive = {4, 5, 6, 7, 8} })\n\
               map:set_start(2, 2)\n\
             end }\n",
        )
        .unwrap();
    assert_eq!(g.map.to_string(), "#####\n##.##\n#.@.#\n##.##\n#####\n");
}

#[test]
fn new_primitives_refuse_bad_arguments() {
    let scratch = Scratch::new();
    for (body, expected) in [
        (
            "map:circle(2, 2, 5, 'floor')",
            "map:circle: cell (-3, 2) is outside the 80x50 map",
        ),
        (
            "map:stamp(79, 0, { '..' }, { ['.'] = 'floor' })",
            "map:stamp: the 2x1 stamp at (79, 0) reaches outside the 80x50 map",
        ),
        (
            "map:stamp(0, 0, { '.?' }, { ['.'] = 'floor' })",
            "map:stamp: stamp row 1 uses '?', which the legend does not define",
        ),
        (
            "map:stamp(0, 0, { '..' }, { ['.'] = 'lava' })",
            "map:stamp: unknown tile 'lava'",
        ),
        (
            "map:cellular({ birth = {9}, survive = {} })",
            "map:cellular: birth counts must be 0..=8, got 9",
        ),
        (
            "map:cellular({ birth = 5, survive = {} })",
            "map:cellular: birth must be a list of neighbour counts, got 5",
        ),
        (
            "map:walk(1, 1, 10, 'rng')",
            "map:walk: rng must be the rng object, got \"rng\"",
        ),
        ("map:dijkstra({})", "map:dijkstra: sources is empty"),
        (
            "map:dijkstra(90, 1)",
            "map:dijkstra: cell (90, 1) is outside the 80x50 map",
        ),
        (
            "map:maze(Rect.new(0, 0, 1, 1), rng)",
            "map:maze: Rect(x1=0, y1=0, x2=1, y2=1) is too small for a maze",
        ),
        (
            "map:fill_selection(5, 'floor')",
            "map:fill_selection: selection must be a selection (from map:select), got 5",
        ),
        (
            "map:scatter('wall', 0/0, rng)",
            "map:scatter: p must be a finite number, got nan",
        ),
        ("reject(5)", "reject: reason must be a string, got 5"),
    ] {
        let text = format!("return {{ generate = function(map, rng)\n  {body}\nend }}\n");
        let err = scratch.run("x.lua", &text).expect_err(body);
        assert!(err.message.contains("x.lua:2: "), "{body}: {}", err.message);
        assert!(
            err.message.contains(expected),
            "{body}: expected {expected:?} in {}",
            err.message
        );
    }
}

#[test]
fn rejected_attempts_reroll_on_derived_streams() {
    let scratch = Scratch::new();
    let script = "return { generate = function(map, rng)\n\
                    map:fill('floor') ; map:set_start(1, 1)\n\
                    map:mark(0, 0, tostring(rng.seed))\n\
                    if rng:int(3) ~= 0 then reject('unlucky') end\n\
                  end }\n";
    let path = scratch.write("x.lua", script);
    let mut request = dunlua::script::Request::new(&path, 11);
    let g = dunlua::script::run(&request).unwrap();
    let k = g.provenance.attempt;
    assert_eq!(g.rejections.len(), k as usize);
    assert!(g
        .rejections
        .iter()
        .all(|(_, why)| why.ends_with("x.lua:4: unlucky")));
    assert_eq!(
        g.map.markers()[0].name,
        (attempt_seed(11, k) as i64).to_string()
    );
    assert_eq!(
        g.provenance.seed, 11,
        "the user's seed is kept; the attempt says which stream"
    );
    let again = dunlua::script::run(&request).unwrap();
    assert_eq!(
        (again.provenance.attempt, again.map),
        (k, g.map),
        "rerolls are deterministic"
    );

    request.max_attempts = 1;
    let seeds_rejected_first = (0..40u64).find(|&s| {
        request.seed = s;
        dunlua::script::run(&request).is_err()
    });
    let s = seeds_rejected_first.expect("some seed rejects its first attempt");
    request.seed = s;
    let err = dunlua::script::run(&request).unwrap_err();
    assert_eq!(err.kind, FailureKind::Rejected);
    assert!(
        err.message
            .contains("all 1 attempts were rejected; the last because"),
        "{}",
        err.message
    );

    let run = dunlua_in(
        scratch.path(),
        &[
            "x.lua",
            "--seed",
            &s.to_string(),
            "--max-attempts",
            "1",
            "--ascii",
        ],
    );
    assert_eq!(run.code, 1);
    let run = dunlua_in(
        scratch.path(),
        &["x.lua", "--seed", &s.to_string(), "--ascii"],
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stderr.contains("accepted")
            && run.stderr.contains("attempt 0 rejected: x.lua:4: unlucky"),
        "{}",
        run.stderr
    );
}

#[test]
fn validate_and_pcall_cannot_dodge_a_rejection() {
    let scratch = Scratch::new();
    let caught = scratch
        .run(
            "x.lua",
            "return { generate = function(map, rng)\n\
               map:fill('floor') ; map:set_start(1, 1)\n\
               pcall(reject, 'caught')\n\
             end }\n",
        )
        .unwrap_err();
    assert_eq!(caught.kind, FailureKind::Rejected);
    let refused = scratch
        .run(
            "y.lua",
            "return { generate = function(map) map:fill('floor') ; map:set_start(1, 1) end,\n\
               validate = function(map) return map:count('floor') < 10 end }\n",
        )
        .unwrap_err();
    assert!(
        refused.message.contains("validate returned false"),
        "{}",
        refused.message
    );
    scratch
        .run(
            "z.lua",
            "return { generate = function(map) map:fill('floor') ; map:set_start(1, 1) end,\n\
               validate = function(map) return map:count('floor') > 10 end }\n",
        )
        .unwrap();
}

#[test]
fn markers_carry_data_through_lua_and_every_export() {
    let scratch = Scratch::new();
    let text = on_map(
        &["######", "#....#", "######"],
        r#"
        map:mark(1, 1, "orc", { hp = 12, speed = 1.5, boss = true, loot = "gold" })
        map:mark(2, 1, "trap")
        map:mark(2, 1, "trap")
        map:mark(3, 1, "chest", { gold = 30 })
        local m = map:markers()
        assert(#m == 3, "the same name twice on a cell is one marker: " .. #m)
        assert(m[1].props.hp == 12 and m[1].props.boss == true and m[1].props.loot == "gold")
        assert(math.type(m[1].props.hp) == "integer" and m[1].props.speed == 1.5)
        assert(next(m[2].props) == nil, "a marker without data has empty props")
        assert(map:unmark(3, 1, "nothing") == 0)
        assert(map:unmark(3, 1) == 1)
        assert(#map:markers() == 2)
        map:set_start(4, 1)
        "#,
    );
    scratch.write("m.lua", &text);
    let run = dunlua_in(
        scratch.path(),
        &["m.lua", "--seed", "1", "--out", "m.json", "--out", "m.tmx"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: dunlua::json::JsonMap =
        serde_json::from_str(&std::fs::read_to_string(scratch.path().join("m.json")).unwrap())
            .unwrap();
    let orc = &json.markers[0];
    assert_eq!(orc.props["hp"], 12);
    assert_eq!(orc.props["speed"], 1.5);
    assert_eq!(orc.props["boss"], true);
    assert_eq!(orc.props["loot"], "gold");
    let back = dunlua::json::read_map(&json).unwrap();
    assert_eq!(back.markers()[0].props.len(), 4, "read back with its data");
    let map = tiled::Loader::new()
        .load_tmx_map(scratch.path().join("m.tmx"))
        .unwrap();
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let orc = objects.objects().find(|o| o.name == "orc").unwrap();
    assert_eq!(
        orc.properties.get("hp"),
        Some(&tiled::PropertyValue::IntValue(12))
    );
    assert_eq!(
        orc.properties.get("boss"),
        Some(&tiled::PropertyValue::BoolValue(true))
    );
    assert_eq!(
        orc.properties.get("cell_x"),
        Some(&tiled::PropertyValue::IntValue(1))
    );
}

#[test]
fn weighted_choice_draws_as_specified_from_lua() {
    let scratch = Scratch::new();
    // The same draws as the Rust pins (seed 7, weights 1, 3, 6).
    let text = on_map(
        &["####", "#..#", "####"],
        r#"
        local got = {}
        local list = { { "a", 1 }, { "b", 3 }, { "c", 6 } }
        for i = 1, 12 do got[i] = rng:weighted(list) end
        map:mark(1, 1, table.concat(got))
        map:set_start(1, 1)
        "#,
    );
    scratch.write("w.lua", &text);
    let g = {
        let mut request = dunlua::script::Request::new(scratch.path().join("w.lua"), 7);
        request.limits.max_instructions = 20_000_000;
        dunlua::script::run(&request).unwrap()
    };
    // Index sequence for seed 7 from the Python transcription: 1 2 2 2 1 2 1 2 2 2 2 0.
    assert_eq!(g.map.markers()[0].name, "bcccbcbcccca");
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(refused("rng:weighted({})").contains("rng:weighted: the list is empty"));
    assert!(refused(r#"rng:weighted({ { "a", 0 } })"#)
        .contains("rng:weighted: list[1][2] (the weight) must be a positive integer, got 0"));
    assert!(refused(r#"rng:weighted({ { "a", 1.5 } })"#).contains("got 1.5"));
    assert!(refused(r#"rng:weighted({ "a" })"#)
        .contains("rng:weighted: list[1] must be a {value, weight} pair, got \"a\""));
    assert!(refused(r#"rng:weighted({ { nil, 2 } })"#).contains("list[1][1] (the value) is nil"));
    assert!(
        refused(r#"rng:weighted({ { "a", 4294967296 }, { "b", 1 } })"#)
            .contains("the weights add up to 4294967297")
    );
    assert!(refused("rng:weighted({ { 'a', 1 } }, 3) error('x')").contains("bad.lua:"));
    // A whole float weight is the integer, as every integer argument
    // takes one (2.0 and 2^31 were refused as "must be a positive integer").
    let picks = |weights: &str| {
        let body = format!(
            "local s = '' for _ = 1, 12 do s = s .. rng:weighted({{ {{ 'a', {weights} }}, {{ 'b', 3 }} }}) end \
             map:set_start(1, 1) map:mark(1, 1, s)"
        );
        scratch
            .run("floats.lua", &on_map(&["####", "#..#", "####"], &body))
            .unwrap()
            .map
            .markers()[0]
            .name
            .clone()
    };
    assert_eq!(picks("2.0"), picks("2"));
    assert_eq!(picks("2^31"), picks("2147483648"));
}

#[test]
fn the_spawn_module_places_depth_scaled_things_with_data() {
    let scratch = Scratch::new();
    let lib = std::fs::read_to_string(crate::util::root().join("scripts/lib/spawn.lua")).unwrap();
    scratch.write("lib/spawn.lua", &lib);
    let script = r#"
local spawn = require("lib.spawn")
return { width = 60, height = 30, params = { depth = 1 }, generate = function(map, rng, p)
  for i = 0, 5 do
    local r = Rect.new(2 + i * 9, 4, 7, 7)
    map:carve_room(r)
    map:add_room(r)
  end
  local placed = spawn.populate(map, rng, { depth = p.depth, per_room = 3 })
  assert(placed == #map:markers(), placed .. " placed, " .. #map:markers() .. " markers")
  map:set_start(3, 5)
end }
"#;
    scratch.write("s.lua", script);
    let count = |depth: i64| {
        let mut names: std::collections::BTreeMap<String, usize> = Default::default();
        for seed in 0..40 {
            let mut request = dunlua::script::Request::new(scratch.path().join("s.lua"), seed);
            request.params = vec![format!("depth={depth}")];
            let g = dunlua::script::run(&request).unwrap();
            for m in g.map.markers() {
                assert!(m.props.iter().any(|(k, _)| k == "kind"), "{m:?}");
                *names.entry(m.name.clone()).or_default() += 1;
            }
        }
        names
    };
    let shallow = count(1);
    let deep = count(6);
    assert!(
        !shallow.contains_key("troll"),
        "no trolls at depth 1: {shallow:?}"
    );
    assert!(
        deep.get("troll").copied().unwrap_or(0) > 0,
        "trolls deeper down: {deep:?}"
    );
    assert!(
        !deep.contains_key("rat"),
        "rats weigh nothing by depth 6: {deep:?}"
    );
}

#[test]
fn paths_go_round_walls_follow_costs_and_carve() {
    let scratch = Scratch::new();
    let text = on_map(
        &["#######", "#..#..#", "#..#..#", "#.....#", "#######"],
        r#"
        local p = map:path(1, 1, 5, 1)
        assert(#p == 9, "round the wall: " .. #p)
        assert(p[1].x == 1 and p[1][2] == 1 and p[9].x == 5 and p[9].y == 1)
        assert(map:path(1, 1, 3, 1) == nil, "a wall is no goal")
        -- Through the wall when walls cost little.
        local through = map:path(1, 1, 5, 1, { cost = { wall = 1 } })
        assert(#through == 5, "straight through: " .. #through)
        assert(map:path(1, 1, 5, 1, { cost = { floor = false } }) == nil)
        assert(#map:path(1, 1, 5, 3, { diagonal = true }) < #map:path(1, 1, 5, 3))
        -- A noise field makes cells dearer; weight 0 changes nothing, and a
        -- heavy field never makes a path longer than walls allow.
        local field = map:noise(rng, { scale = 2, octaves = 1 })
        local flat = map:path(1, 3, 5, 3, { field = field, weight = 0 })
        assert(#flat == 5, "weight 0: straight along the bottom: " .. #flat)
        local heavy = map:path(1, 1, 5, 1, { field = field, weight = 1000 })
        assert(heavy and heavy[#heavy].x == 5 and #heavy >= 9)
        assert(map:carve_path(through, "door") == 5)
        assert(map:get(3, 1) == "door")
        map:set_start(1, 1)
        "#,
    );
    scratch.write("p.lua", &text);
    let mut request = dunlua::script::Request::new(scratch.path().join("p.lua"), 1);
    request.limits.max_instructions = 20_000_000;
    dunlua::script::run(&request).unwrap();
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(
        refused("map:path(1, 1, 9, 1)").contains("map:path: cell (9, 1) is outside the 4x3 map")
    );
    assert!(refused("map:path(1, 1, 2, 1, { cost = { lava = 2 } })")
        .contains("cost: unknown tile 'lava'"));
    assert!(refused("map:path(1, 1, 2, 1, { cost = { floor = 0 } })")
        .contains("a path cost must be a positive finite number or false, got 0"));
    assert!(refused("map:path(1, 1, 2, 1, { cost = { floor = true } })")
        .contains("cost.floor must be a positive number or false, got true"));
    assert!(refused("map:path(1, 1, 2, 1, { diagonals = true })")
        .contains("unknown option \"diagonals\"; path takes cost, diagonal, field and weight"));
    assert!(refused("map:path(1, 1, 2, 1, { weight = 3 })")
        .contains("map:path: weight needs a field (field = map:noise(rng))"));
    assert!(
        refused("map:path(1, 1, 2, 1, { field = map:select('floor') })")
            .contains("field must be a noise field (map:noise(rng)), got")
    );
    assert!(
        refused("map:path(1, 1, 2, 1, { field = map:noise(rng), weight = -1 })")
            .contains("field: a field's weight must be a finite number 0 or more, got -1")
    );
    assert!(
        refused("map:path(1, 1, 2, 1, { field = map:noise(rng), weight = 'x' })")
            .contains("weight must be a number, got \"x\"")
    );
    assert!(refused("map:carve_path({ { 1, 1 }, { 9, 9 } })")
        .contains("map:carve_path: cell (9, 9) is outside the 4x3 map"));
    assert!(refused("map:carve_path({ { 1, 'a' } })")
        .contains("path[1].y (or path[1][2]) must be an integer, got \"a\""));
    // One point is no list of points (it made no path and no error).
    assert!(refused("map:carve_path({ x = 1, y = 1 })")
        .contains("map:carve_path: path must be a list of {x, y} points, got one point"));
}

#[test]
fn regions_of_any_kind_floods_that_avoid_and_farthest_within() {
    let scratch = Scratch::new();
    let text = on_map(
        &["########", "#..+...#", "#~~#.~.#", "########"],
        r#"
        local water = map:regions("water")
        assert(#water == 2 and water[1].size == 2 and water[2].size == 1, "lakes: " .. #water)
        assert(#map:regions({ "water", "door" }) == 3)
        local doors = map:select("door")
        local near = map:flood(1, 1, { avoid = doors })
        assert(near:count() == 2, "the door and beyond are cut off: " .. near:count())
        assert(map:flood(1, 1):count() == 8)
        local d = map:dijkstra(1, 1)
        local x, y, far = d:farthest({ within = near })
        assert(x == 2 and y == 1 and far == 1, "farthest within: " .. tostring(x) .. "," .. tostring(y))
        local fx, fy = d:farthest()
        assert(fx == 6, "farthest anywhere: " .. fx)
        map:set_start(1, 1)
        "#,
    );
    scratch.write("r.lua", &text);
    let mut request = dunlua::script::Request::new(scratch.path().join("r.lua"), 1);
    request.limits.max_instructions = 20_000_000;
    dunlua::script::run(&request).unwrap();
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(refused("map:regions('lava')").contains("map:regions: unknown tile 'lava'"));
    assert!(refused("map:regions({ 'floor', 3 })").contains("kinds[2] must be a tile name, got 3"));
    assert!(refused("map:flood(1, 1, { avoid = 3 })")
        .contains("map:flood: avoid must be a selection (from map:select), got 3"));
    assert!(refused("map:flood(1, 1, { avoids = map:select('wall') })")
        .contains("unknown option \"avoids\"; it takes avoid"));
    assert!(
        refused("map:connect_regions(rng, { tile = 'floor', around = 1 })")
            .contains("unknown option \"around\"; it takes tile, avoid")
    );
    assert!(refused("map:dijkstra(1, 1):farthest({ within = {} })")
        .contains("distance:farthest: within must be a selection"));
}

#[test]
fn noise_fields_are_specified_and_select_bands() {
    let scratch = Scratch::new();
    // 12x7, seed 7, scale 4, 3 octaves: the Rust unit test's pins, computed
    // by an independent Python transcription of the specification.
    let script = r#"
return { width = 12, height = 7, generate = function(map, rng)
  local field = map:noise(rng, { scale = 4, octaves = 3 })
  assert(field:get(0, 0) == 0.2998975257256201, string.format("%.17g", field:get(0, 0)))
  assert(field:get(5, 3) == 0.5340100118811668)
  assert(field:get(11, 6) == 0.35632057115019833)
  local low, high = field:select(0, 0.5), field:select(0.5, 1)
  assert(low:count() + high:count() == 84)
  map:fill_selection(high, "floor")
  map:fill_selection(low, "water")
  map:set(0, 0, "floor")
  map:set_start(0, 0)
end }
"#;
    scratch.write("n.lua", script);
    let mut request = dunlua::script::Request::new(scratch.path().join("n.lua"), 7);
    request.limits.max_instructions = 20_000_000;
    dunlua::script::run(&request).unwrap();
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(refused("map:noise(rng, { scale = 0.5 })")
        .contains("map:noise: scale must be a number from 1 to 4096, got 0.5"));
    assert!(refused("map:noise(rng, { octaves = 9 })").contains("octaves must be 1..=8, got 9"));
    assert!(refused("map:noise(rng, { octave = 2 })")
        .contains("unknown option \"octave\"; it takes scale, octaves"));
    assert!(refused("map:noise(rng):get(9, 9)").contains("field:get: cell (9, 9) is off the map"));
}

#[test]
fn loops_and_secret_doors() {
    let scratch = Scratch::new();
    let text = on_map(
        &[
            "##########",
            "#........#",
            "########.#",
            "#........#",
            "##########",
        ],
        r#"
        assert(map:add_loops({ min_distance = 100 }) == 0, "nothing is 100 steps round")
        assert(map:add_loops({ min_distance = 10, tile = "secret_door", rng = rng }) == 1)
        local secret = map:select("secret_door")
        assert(secret:count() == 1)
        local x, y = secret:cells()[1][1], secret:cells()[1][2]
        assert(map:is_walkable(x, y), "a secret door is walkable")
        map:set_start(1, 1)
        "#,
    );
    scratch.write("l.lua", &text);
    let mut request = dunlua::script::Request::new(scratch.path().join("l.lua"), 3);
    request.limits.max_instructions = 20_000_000;
    let g = dunlua::script::run(&request).unwrap();
    let secret = g
        .tile_kinds()
        .find(|(_, k)| k.name == "secret_door")
        .unwrap()
        .1;
    assert!(secret.walkable && !secret.transparent);
    assert_eq!(secret.glyph, '≡');
    // Secret doors from add_doors, on a reference script's rooms.
    let doors = r#"
return { width = 30, height = 9, generate = function(map, rng)
  for i = 0, 2 do
    local r = Rect.new(1 + i * 10, 1, 7, 6)
    map:carve_room(r) map:add_room(r)
  end
  map:h_tunnel(4, 24, 4)
  local n = map:add_doors({ secret = 1, rng = rng })
  assert(n > 0 and map:count("door") == 0 and map:count("secret_door") == n, n)
  map:set_start(3, 3)
end }
"#;
    scratch.write("d.lua", doors);
    let mut request = dunlua::script::Request::new(scratch.path().join("d.lua"), 1);
    request.limits.max_instructions = 20_000_000;
    dunlua::script::run(&request).unwrap();
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(refused("map:add_doors({ secret = 0.5 })").contains("secret doors need rng = rng"));
    // Not an rng: said whether or not secret doors are asked for.
    for opts in ["{ secret = 0.5, rng = 'rng' }", "{ rng = 'rng' }"] {
        assert!(refused(&format!("map:add_doors({opts})"))
            .contains("map:add_doors: rng must be an rng, got \"rng\""));
    }
    assert!(
        refused("map:add_doors({ secret = 2, rng = rng })").contains("secret must be 0..1, got 2")
    );
    assert!(refused("map:add_loops({ min_distance = 0 })")
        .contains("min_distance must be an integer 1..=10000, got 0"));
    assert!(refused("map:add_loops({ distance = 3 })")
        .contains("unknown option \"distance\"; it takes min_distance, tile, rng"));
}

#[test]
fn prefabs_turn_mirror_and_find_their_place() {
    let scratch = Scratch::new();
    let text = on_map(
        &[
            "##########",
            "##########",
            "##....####",
            "##....####",
            "##########",
        ],
        r##"
        local legend = { ["#"] = "wall", ["."] = "floor", ["+"] = "door", ["$"] = { tile = "floor", mark = "gold" } }
        map:stamp(6, 0, { "+.", "$#" }, legend, { rotate = 90 })
        assert(map:get(6, 0) == "floor" and map:get(7, 0) == "door", "turned clockwise")
        assert(map:get(6, 1) == "wall" and map:get(7, 1) == "floor")
        map:stamp(6, 0, { "+.", "$#" }, legend, { rotate = 90 })
        assert(#map:markers() == 1, "stamping twice keeps one marker")
        local x, y, rotate, mirror = map:place_prefab({ "..", ".$" }, legend, rng,
          { on = "floor", rotate = "any", mirror = "any", within = Rect.new(0, 0, 9, 4) })
        assert(x and x >= 2 and x <= 4 and y >= 2, "on the floor patch: " .. tostring(x))
        assert(rotate % 90 == 0 and (mirror == nil or mirror == "x"))
        assert(map:place_prefab({ "...." , "...." }, legend, rng, { on = "water", tries = 5 }) == nil)
        map:set_start(2, 2)
        "##,
    );
    scratch.write("f.lua", &text);
    let mut request = dunlua::script::Request::new(scratch.path().join("f.lua"), 4);
    request.limits.max_instructions = 20_000_000;
    dunlua::script::run(&request).unwrap();
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    let legend = r#"{ ["."] = "floor" }"#;
    assert!(refused(&format!(
        "map:stamp(0, 0, {{ '.' }}, {legend}, {{ rotate = 45 }})"
    ))
    .contains("map:stamp: rotate must be 0, 90, 180 or 270, got 45"));
    assert!(refused(&format!(
        "map:stamp(0, 0, {{ '.' }}, {legend}, {{ mirror = 'any' }})"
    ))
    .contains("mirror must be \"x\", \"y\" or nil, got \"any\""));
    assert!(refused(&format!(
        "map:place_prefab({{ '.' }}, {legend}, rng, {{ tries = 0 }})"
    ))
    .contains("tries must be an integer 1..=100000, got 0"));
    assert!(refused(&format!(
        "map:place_prefab({{ '.' }}, {legend}, rng, {{ on = 'lava' }})"
    ))
    .contains("on: unknown tile 'lava'"));
    assert!(refused(&format!(
        "map:place_prefab({{ '.' }}, {legend}, rng, {{ within = 3 }})"
    ))
    .contains("within must be a Rect (from Rect.new), got 3"));
}

#[test]
fn rooms_of_any_shape_with_names_and_kinds() {
    let scratch = Scratch::new();
    let script = r#"
return { width = 12, height = 9, generate = function(map)
  map:carve_room(Rect.new(0, 2, 11, 4))
  map:carve_room(Rect.new(3, 0, 5, 8))
  local cross = map:select("floor")
  map:add_room(cross, { name = "crossing", kind = "hall" })
  map:add_room(Rect.new(0, 0, 2, 2))
  assert(#map:rooms() == 2)
  local r = map:rooms()[1]
  assert(r.x1 == 1 and r.y1 == 1 and r.x2 == 10 and r.y2 == 7, "the bounding box")
  local info = map:room(1)
  assert(info.name == "crossing" and info.kind == "hall" and info.cells:count() == cross:count())
  assert(map:room(2).name == nil and map:room(2).cells == nil)
  map:set_start(5, 3)
end }
"#;
    scratch.write("x.lua", script);
    let run = dunlua_in(
        scratch.path(),
        &["x.lua", "--seed", "1", "--out", "x.json", "--out", "x.tmx"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: dunlua::json::JsonMap =
        serde_json::from_str(&std::fs::read_to_string(scratch.path().join("x.json")).unwrap())
            .unwrap();
    let room = &json.rooms[0];
    assert_eq!(room.name.as_deref(), Some("crossing"));
    assert_eq!(room.kind.as_deref(), Some("hall"));
    let cells = room.cells.as_ref().unwrap();
    assert!(cells.contains(&[1, 3]) && cells.contains(&[4, 1]) && !cells.contains(&[1, 1]));
    assert!(json.rooms[1].cells.is_none() && json.rooms[1].name.is_none());
    let back = dunlua::json::read_map(&json).unwrap();
    assert_eq!(
        back.room_details()[0].cells.as_ref().unwrap().count(),
        cells.len()
    );
    assert_eq!(back.room_details()[0].name.as_deref(), Some("crossing"));
    let map = tiled::Loader::new()
        .load_tmx_map(scratch.path().join("x.tmx"))
        .unwrap();
    let objects = map.get_layer(1).unwrap().as_object_layer().unwrap();
    let hall = objects.get_object(0).unwrap();
    assert_eq!(hall.name, "crossing");
    assert_eq!(
        hall.properties.get("kind"),
        Some(&tiled::PropertyValue::StringValue("hall".into()))
    );
    assert!(
        matches!(hall.properties.get("cells"), Some(tiled::PropertyValue::StringValue(s)) if s.starts_with("4,1;"))
    );
    let refused = |body: &str| {
        scratch
            .run("bad.lua", &on_map(&["####", "#..#", "####"], body))
            .unwrap_err()
            .message
    };
    assert!(refused("map:add_room(map:select('water'))")
        .contains("map:add_room: a room needs at least one cell"));
    assert!(
        refused("map:add_room(Rect.new(0, 0, 1, 1), { title = 'x' })")
            .contains("unknown option \"title\"; it takes name, kind")
    );
    assert!(refused("map:room(3)").contains("map:room: room 3 does not exist (there are 0)"));
}

#[test]
fn secret_door_is_usable_before_any_add_doors() {
    let scratch = Scratch::new();
    // Every way of naming it, before add_doors ever makes one.
    let uses = r##"
return { width = 12, height = 8, generate = function(map, rng)
  map:carve_room(Rect.new(0, 0, 11, 7))
  assert(map:count("secret_door") == 0, "a query finds none and defines nothing")
  assert(map:select("secret_door"):count() == 0)
  assert(map:neighbors(3, 3, "secret_door") == 0)
  local names = tiles.names()
  assert(names[#names] == "secret_door", "listed among the known names")
  map:set(1, 1, "secret_door")
  map:stamp(4, 2, { "#S#" }, { ["#"] = "wall", S = "secret_door" })
  map:place_prefab({ "s" }, { s = { tile = "secret_door", mark = "hidden" } }, rng, { on = "floor" })
  assert(map:count("secret_door") == 3, map:count("secret_door"))
  map:set_start(2, 2)
end }
"##;
    let g = scratch.run("uses.lua", uses).unwrap();
    let secret: Vec<_> = g
        .tile_kinds()
        .filter(|(_, k)| k.name == "secret_door")
        .collect();
    assert_eq!(secret.len(), 1, "one kind, added once");
    assert_eq!(secret[0].0.index(), 6, "after the six built-ins");
    assert!(secret[0].1.walkable && !secret[0].1.transparent);
    // A map that only asks about secret doors keeps its kinds and hash.
    let plain = "return { width = 12, height = 8, generate = function(map)\n\
      map:carve_room(Rect.new(0, 0, 11, 7)) QUERY map:set_start(2, 2) end }\n";
    let without = scratch
        .run("plain.lua", &plain.replace("QUERY", ""))
        .unwrap();
    let with = scratch
        .run(
            "asks.lua",
            &plain.replace(
                "QUERY",
                "assert(map:count(\"secret_door\") == 0) map:select(\"secret_door\")",
            ),
        )
        .unwrap();
    assert_eq!(with.tile_kinds().count(), 6);
    assert_eq!(with.hash(), without.hash());
    // Its look is built in: another one is refused.
    let err = scratch
        .run(
            "redefine.lua",
            "tiles.define(\"secret_door\", { glyph = \"S\" })\n\
             return { generate = function(map) map:fill(\"floor\") map:set_start(0, 0) end }\n",
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("tile 'secret_door' is built in and cannot be redefined"),
        "{err}"
    );
}

#[test]
fn a_path_may_price_secret_doors_before_the_map_has_one() {
    // `cost = {secret_door = ...}` names the kind before anything wrote
    // it: no cell holds it, so the price changes nothing (it used to
    // index past the per-kind table and panic).
    let scratch = Scratch::new();
    let plain = "return { width = 12, height = 8, generate = function(map)\n\
      map:carve_room(Rect.new(0, 0, 11, 7)) QUERY map:set_start(2, 2) end }\n";
    let without = scratch
        .run("plain.lua", &plain.replace("QUERY", ""))
        .unwrap();
    for query in [
        "assert(#map:path(1, 1, 9, 5, { cost = { secret_door = 3 } }) == 13)",
        "assert(#map:path(1, 1, 9, 5, { cost = { wall = 2, secret_door = false }, diagonal = true }) == 9)",
    ] {
        let with = scratch
            .run("asks.lua", &plain.replace("QUERY", query))
            .unwrap_or_else(|e| panic!("{query}: {e}"));
        assert_eq!(with.tile_kinds().count(), 6, "{query}");
        assert_eq!(with.hash(), without.hash(), "{query}");
    }
    // Its price is still checked like any other.
    let err = scratch
        .run(
            "bad.lua",
            &plain.replace(
                "QUERY",
                "map:path(1, 1, 9, 5, { cost = { secret_door = -1 } })",
            ),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("cost.secret_door"), "{err}");
}

#[test]
fn prefabs_report_their_footprint_in_characters() {
    let scratch = Scratch::new();
    let script = r##"
local rows = { "▓▓▓▓", "▓..▓", "▓▓▓ " }
local legend = { ["▓"] = "wall", ["."] = "water" }
local function covers_exactly(map, r, w, h)
  assert(r.x2 - r.x1 + 1 == w and r.y2 - r.y1 + 1 == h, ("%d..%d x %d..%d"):format(r.x1, r.x2, r.y1, r.y2))
  map:fill_rect(r, "stairs_up")
  assert(map:count("stairs_up") == w * h, map:count("stairs_up"))
  assert(map:count("wall") == 0 and map:count("water") == 0, "every cell it put down is inside")
  map:fill("floor")
end
return { width = 20, height = 12, generate = function(map, rng)
  map:fill("floor")
  assert(select("#", prefab.size(rows)) == 2)
  local w, h = prefab.size(rows)
  assert(w == 4 and h == 3, w .. "x" .. h)
  local tw, th = prefab.size(rows, { rotate = 90, mirror = "x" })
  assert(tw == 3 and th == 4, tw .. "x" .. th)
  for _, turn in ipairs({ 0, 90, 180, 270 }) do
    local r = map:stamp(2, 3, rows, legend, { rotate = turn, mirror = "y" })
    local sw, sh = prefab.size(rows, { rotate = turn })
    assert(r.x1 == 2 and r.y1 == 3)
    covers_exactly(map, r, sw, sh)
    local x, y, rot, mirror, c = map:place_prefab(rows, legend, rng, { rotate = "any", mirror = "any" })
    assert(c.x1 == x and c.y1 == y, "the rect starts where it went")
    local pw, ph = prefab.size(rows, { rotate = rot })
    covers_exactly(map, c, pw, ph)
  end
  local none = { map:place_prefab({ ("#"):rep(18) }, { ["#"] = "wall" }, rng, { tries = 3, on = "water" }) }
  assert(#none == 0 and select("#", map:place_prefab({ ("#"):rep(18) }, { ["#"] = "wall" }, rng, { tries = 3, on = "water" })) == 5)
  local ok, err = pcall(map.stamp, map, 0, 0, { "▓▓▓", "▓.▓▓" }, legend)
  assert(not ok and err:find("stamp row 2 has 4 characters where row 1 has 3", 1, true), err)
  ok, err = pcall(prefab.size, { "▓▓▓", "▓." })
  assert(not ok and err:find("prefab.size: row 2 has 2 characters where row 1 has 3", 1, true), err)
  ok, err = pcall(prefab.size, { "▓" }, { rotate = 45 })
  assert(not ok and err:find("rotate must be 0, 90, 180 or 270, got 45", 1, true), err)
  map:set_start(0, 0)
end }
"##;
    scratch.run("p.lua", script).unwrap();
}

#[test]
fn selections_of_a_rect_and_of_dead_ends() {
    let scratch = Scratch::new();
    let script = r##"
return { width = 12, height = 7, generate = function(map, rng)
  map:fill("wall")
  map:carve_room(Rect.new(0, 0, 6, 4))
  map:h_tunnel(6, 10, 2)
  map:v_tunnel(2, 5, 10)
  local r = Rect.new(1, 1, 3, 2)
  local sel = map:select_rect(r)
  assert(sel:count() == 4 * 3, sel:count())
  map:fill_selection(sel, "water")
  assert(map:count("water") == 12)
  map:fill_rect(r, "floor")
  assert(map:select_rect(r):intersect(map:select("floor")):count() == 12, "the cells fill_rect wrote")
  local ok, err = pcall(map.select_rect, map, Rect.new(10, 5, 4, 4))
  assert(not ok and err:find("map:select_rect", 1, true), err)
  local ends = map:dead_ends()
  assert(ends:count() == 1, ends:count())
  assert(ends:contains(10, 5), "the tunnel's end")
  map:mark(10, 5, "end")
  map:set_start(1, 1)
end }
"##;
    let g = scratch.run("s.lua", script).unwrap();
    assert_eq!(dunlua::check::dead_ends(&g.map), 1, "as check counts them");
}

#[test]
fn chokepoints_from_lua() {
    let scratch = Scratch::new();
    // A room, a corridor (its cells cut, up to where it meets the loop)
    // and a loop (no cut on it but that joint).
    let text = on_map(
        &[
            "###########",
            "#...#######",
            "#.........#",
            "#...###.#.#",
            "#######...#",
            "###########",
        ],
        r#"
        local cuts = map:chokepoints()
        local got = {}
        for _, c in ipairs(cuts:cells()) do got[#got + 1] = c[1] .. "," .. c[2] end
        assert(table.concat(got, " ") == "3,2 4,2 5,2 6,2 7,2", "chokepoints: " .. table.concat(got, " "))
        -- Each is a cell whose removal cuts the far room off.
        map:set(4, 2, "wall")
        assert(not map:flood(1, 1):contains(8, 4))
        map:set(4, 2, "floor")
        map:set(8, 2, "wall")
        assert(map:flood(1, 1):contains(8, 4), "a cell on the loop cuts nothing")
        map:set(8, 2, "floor")
        map:fill("wall")
        assert(map:chokepoints():count() == 0)
        map:set(1, 1, "floor")
        map:set_start(1, 1)
        "#,
    );
    scratch
        .run("x.lua", &text)
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn disconnects_from_lua() {
    let scratch = Scratch::new();
    // Two rooms joined by a corridor and, lower down, by a loop round.
    let text = on_map(
        &[
            "##########",
            "#...##...#",
            "#........#",
            "#...##...#",
            "#.######.#",
            "#........#",
            "##########",
        ],
        r#"
        local function cells(list)
          local sel = map:select("door") -- empty
          for _, c in ipairs(list) do
            map:set(c[1], c[2], "door")
            sel = sel:union(map:select("door"))
            map:set(c[1], c[2], "floor")
          end
          return sel
        end
        -- The corridor alone: the loop still joins the rooms.
        assert(not map:disconnects(cells({ { 4, 2 }, { 5, 2 } })))
        -- The corridor and the loop: cut.
        assert(map:disconnects(cells({ { 4, 2 }, { 4, 5 } })))
        -- A room's corner: nothing falls off.
        assert(not map:disconnects(cells({ { 1, 1 }, { 2, 1 } })))
        -- Walls change nothing; nothing selected, nothing cut.
        assert(not map:disconnects(map:select("wall")))
        assert(not map:disconnects(map:select("water")))
        -- What it answers is what filling and counting regions says.
        local lake = cells({ { 4, 2 }, { 4, 5 } })
        map:fill_selection(lake, "water")
        assert(#map:regions() == 2)
        map:fill_selection(lake, "floor")
        map:set_start(1, 1)
        "#,
    );
    scratch
        .run("x.lua", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = scratch
        .run(
            "bad.lua",
            &on_map(&["####", "#..#", "####"], "map:disconnects(3)"),
        )
        .unwrap_err()
        .message;
    assert!(refused.contains("map:disconnects"), "{refused}");
}

/// A game's worker thread made with a small stack gets an error from
/// `build` and `generate`, never a crash: on 64 KiB, the raising of "C
/// stack exhausted" recursed past the stack's end and aborted the process.
#[test]
fn a_thread_with_a_small_stack_gets_an_error_not_a_crash() {
    for kib in [48, 64, 128, 256] {
        let outcome = std::thread::Builder::new()
            .stack_size(kib << 10)
            .spawn(|| {
                dunlua::Generator::file("scripts/rooms.lua")
                    .build()
                    .map(|_| ())
                    .map_err(|e| (e.kind, e.message))
            })
            .unwrap()
            .join()
            .unwrap();
        let (kind, message) = outcome.expect_err("a run cannot start on so small a stack");
        assert_eq!(
            kind,
            dunlua::script::FailureKind::Limit,
            "{kib} KiB: {message}"
        );
        assert!(
            message.starts_with("C stack exhausted: the thread has "),
            "{kib} KiB: {message}"
        );
    }
    // With stack enough, the same call works.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            dunlua::Generator::file("scripts/rooms.lua")
                .build()
                .unwrap()
                .generate(1)
                .unwrap()
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A memory limit too small for Lua to start is the caller's mistake,
/// said so: it was "cannot start Lua: memory error", a runtime failure.
#[test]
fn a_memory_limit_under_a_mebibyte_is_a_usage_error() {
    for bytes in [0, 1000, (1 << 20) - 1] {
        let err = dunlua::Generator::file("scripts/rooms.lua")
            .limits(dunlua::Limits {
                max_memory: bytes,
                ..dunlua::Limits::default()
            })
            .build()
            .map(|_| ())
            .unwrap_err();
        assert_eq!(err.kind, FailureKind::Usage, "{}", err.message);
        assert_eq!(
            err.message,
            format!("a memory limit of {bytes} bytes is too small to start Lua: give at least 1 MiB (Limits::max_memory)")
        );
    }
}

/// A NaN's sign depends on the processor that made it (0/0 has it set on
/// x86, clear on ARM), so `tostring`, `string.format` and `string.pack`
/// write every NaN without it: a script deciding by that text or those
/// bytes makes the same map on every machine. (On x86 this printed
/// "-nan" and packed 255.)
#[test]
fn a_nan_is_written_alike_on_every_machine() {
    let scratch = Scratch::new();
    let body = r#"local n = 0/0
        error(table.concat({ tostring(n), tostring(-n), string.format("%f %g %.3e %a %5.1f", n, -n, n, n, n),
          (string.pack("<d", n)):byte(8), (string.pack("<d", -n)):byte(8), (string.pack("<f", n)):byte(4),
          (string.pack("<n", n)):byte(8), tostring(-math.huge) }, " "), 0)"#;
    let err = scratch
        .run("nan.lua", &on_map(&["#"], body))
        .unwrap_err()
        .message;
    assert!(
        err.ends_with("nan nan nan nan nan nan   nan 127 127 127 127 -inf"),
        "{err}"
    );
}

/// A size the caller gives that no map can have is said once, naming the
/// size (it read "--size 0x5: size 0x5 is invalid: ...", and no library
/// caller has a --size).
#[test]
fn a_bad_size_from_a_library_caller_is_said_once() {
    let mut request =
        dunlua::script::Request::new(crate::util::root().join("scripts/rooms.lua"), 1);
    request.size = Some((0, 5));
    let err = dunlua::script::run(&request).unwrap_err();
    assert_eq!(
        err.message,
        "size 0x5 is invalid: width and height must be 1..=10000"
    );
    assert_eq!(err.exit_code(), 2);
}

/// `populate` looks only at the cells it took itself, as its comment says:
/// a floor cell that holds a marker from before (a key) may get a thing
/// too. Skipping such cells would spend other draws and change the maps of
/// levels.lua (its amulet), so the behaviour is pinned, not changed.
#[test]
fn populate_may_put_a_thing_on_a_cell_marked_before() {
    let scratch = Scratch::new();
    let lib = std::fs::read_to_string(crate::util::root().join("scripts/lib/spawn.lua")).unwrap();
    scratch.write("lib/spawn.lua", &lib);
    let script = r#"
local spawn = require("lib.spawn")
return { width = 20, height = 8, generate = function(map, rng)
  map:fill("wall")
  local a, b = Rect.new(1, 1, 4, 4), Rect.new(8, 1, 3, 3)
  map:carve_room(a) map:add_room(a)
  map:carve_room(b) map:add_room(b)
  for x = 9, 10 do for y = 2, 3 do map:mark(x, y, "key") end end
  local placed = spawn.populate(map, rng, { per_room = 4 })
  assert(#map:markers() == 4 + placed)
  map:set_start(2, 2)
end }
"#;
    scratch.write("s.lua", script);
    let mut doubled = 0;
    for seed in 0..20 {
        let request = dunlua::script::Request::new(scratch.path().join("s.lua"), seed);
        let g = dunlua::script::run(&request).unwrap();
        let markers = g.map.markers();
        doubled += markers
            .iter()
            .filter(|m| m.name != "key")
            .filter(|m| {
                markers
                    .iter()
                    .any(|k| k.name == "key" && (k.x, k.y) == (m.x, m.y))
            })
            .count();
    }
    assert!(doubled > 0, "a thing on a key's cell in 20 seeds");
}
