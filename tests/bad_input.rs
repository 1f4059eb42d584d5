//! Bad input of every kind: a clear message naming what and where, the
//! right exit code, and never a panic.

use crate::util::{dunlua, dunlua_in, Scratch};

/// A script whose `generate` body is on line 2.
fn script_with(body: &str) -> String {
    format!("return {{ generate = function(map, rng, p)\n  {body}\nend }}\n")
}

/// Runs `body` in-process and checks the error text.
fn refuses(body: &str, expected: &str) {
    let scratch = Scratch::new();
    let err = scratch
        .run("x.lua", &script_with(body))
        .expect_err(&format!("`{body}` should fail"));
    assert!(
        err.message.contains("x.lua:2: "),
        "`{body}`: message does not point at the line: {}",
        err.message
    );
    assert!(
        err.message.contains(expected),
        "`{body}`: expected {expected:?} in\n{}",
        err.message
    );
    assert_eq!(err.exit_code(), 1);
}

#[test]
fn map_primitives_refuse_bad_arguments() {
    let cases = [
        (r#"map:get("a", 1)"#, r#"map:get: x must be an integer, got "a" (map is 80x50)"#),
        ("map:get(1, 0/0)", "map:get: y must be an integer, got nan (map is 80x50)"),
        ("map:get(1.5, 1)", "map:get: x must be an integer, got 1.5 (map is 80x50)"),
        ("map:get(80, 0)", "map:get: cell (80, 0) is outside the 80x50 map"),
        ("map:get(1e300, 0)", "map:get: x must be an integer, got 1e300"),
        // A host object in the wrong place is named as what it is, and the
        // arguments are checked in order (the rng second names the region).
        (
            r#"map:fill_rect(rng, "wall")"#,
            "map:fill_rect: rect must be a Rect (from Rect.new), got rng(seed=",
        ),
        (
            r#"wfc.fill(map, rng, { sample = { "ab" } })"#,
            "wfc.fill: region must be a selection (from map:select), got rng(seed=",
        ),
        (
            r#"map:stamp(1, 1, {"...", "."}, {["."] = "floor"})"#,
            "map:stamp: stamp row 2 has 1 character where row 1 has 3",
        ),
        // A source's coordinates are read as every other integer is: a
        // whole float is the integer it holds (as Lua's own library reads
        // it), one with a fraction is refused, not cast.
        (
            "map:dijkstra({{x = 2^60, y = 1}})",
            "map:dijkstra: cell (1152921504606846976, 1) is outside the 80x50 map",
        ),
        (
            "map:dijkstra({{x = 2.5, y = 1}})",
            "map:dijkstra: a source's x must be an integer, got 2.5",
        ),
        (
            r#"map:mark(1, 1, "orc", { hp = {} })"#,
            "map:mark: props.hp must be a string, a finite number or a boolean, got a table",
        ),
        (
            r#"map:mark(1, 1, "orc", { [1] = "x" })"#,
            "map:mark: props keys must be non-empty strings, got 1",
        ),
        (
            r#"map:mark(1, 1, "orc", { hp = 0/0 })"#,
            "map:mark: props.hp must be a string, a finite number or a boolean, got nan",
        ),
        (
            r#"local t = {} for i = 1, 100 do t["k" .. i] = i end map:mark(1, 1, "orc", t)"#,
            "map:mark: props: at most 64 properties a marker",
        ),
        (r#"map:unmark(99, 1)"#, "map:unmark: cell (99, 1) is outside the 80x50 map"),
        (r#"map:set(-1, 0, "floor")"#, "map:set: cell (-1, 0) is outside the 80x50 map"),
        ("map:set(1, 1, {})", "map:set: tile must be a tile name (string), got a table (map is 80x50)"),
        (
            r#"map:set(1, 1, "lava")"#,
            "map:set: unknown tile 'lava'; known tiles: wall, floor, door, stairs_down, stairs_up, water, secret_door",
        ),
        ("map:in_bounds(1.5, 2)", "map:in_bounds: x must be an integer, got 1.5"),
        ("map:is_walkable(99, 0)", "map:is_walkable: cell (99, 0) is outside the 80x50 map"),
        ("map:count(nil)", "map:count: tile must be a tile name (string), got nil"),
        ("map:fill(3)", "map:fill: tile must be a tile name (string), got 3"),
        (
            r#"map:fill_rect(Rect.new(78, 0, 5, 5), "floor")"#,
            "map:fill_rect: Rect(x1=78, y1=0, x2=83, y2=5) reaches outside the 80x50 map",
        ),
        (
            r#"map:fill_rect({}, "floor")"#,
            "map:fill_rect: rect must be a Rect (from Rect.new), got a table",
        ),
        (
            "map:carve_room(Rect.new(75, 45, 10, 10))",
            "map:carve_room: Rect(x1=76, y1=46, x2=84, y2=54) reaches outside the 80x50 map",
        ),
        ("map:h_tunnel(0, 100, 5)", "map:h_tunnel: cell (100, 5) is outside the 80x50 map"),
        ("map:v_tunnel(0, 1/0, 5)", "map:v_tunnel: y2 must be an integer, got inf"),
        (
            r#"map:l_tunnel(1, 1, 5, 5, "yes")"#,
            r#"map:l_tunnel: horizontal_first must be a boolean, got "yes""#,
        ),
        ("map:l_tunnel(1, 1, 500, 5, true)", "map:l_tunnel: cell (500, 5) is outside the 80x50 map"),
        (
            "map:add_room(Rect.new(70, 40, 20, 20))",
            "map:add_room: Rect(x1=70, y1=40, x2=90, y2=60) reaches outside the 80x50 map",
        ),
        ("map:set_start(0/0, 1)", "map:set_start: x must be an integer, got nan"),
        ("map:set_start(3, 50)", "map:set_start: cell (3, 50) is outside the 80x50 map"),
        ("map:mark(1, 1, 5)", "map:mark: name must be a string, got 5"),
        (r#"map:mark(100, 1, "gold")"#, "map:mark: cell (100, 1) is outside the 80x50 map"),
        // A C caller reads names as C strings: a NUL would end or blur them.
        (
            r#"map:mark(1, 1, "a\0b")"#,
            r#"map:mark: name "a\0b" holds a NUL byte, which a name cannot"#,
        ),
        (
            r#"tiles.define("lava\0", { glyph = "~" })"#,
            "holds a NUL byte, which a name cannot",
        ),
    ];
    for (body, expected) in cases {
        refuses(body, expected);
    }
}

#[test]
fn rects_refuse_bad_arguments() {
    let cases = [
        (
            "Rect.new(1, 2, 0, 4)",
            "Rect.new: w must be at least 1, got 0",
        ),
        (
            "Rect.new(1, 2, 3, -4)",
            "Rect.new: h must be at least 1, got -4",
        ),
        (
            "Rect.new(1.5, 2, 3, 4)",
            "Rect.new: x must be an integer, got 1.5",
        ),
        (
            "Rect.new(1, 2, 3)",
            "Rect.new: h must be an integer, got nil",
        ),
        (
            "Rect.new(1, 1, 3, 3):intersects(5)",
            "Rect:intersects: other must be a Rect (from Rect.new), got 5",
        ),
        (
            "Rect.new(1, 1, 3, 3):contains(0/0, 1)",
            "Rect:contains: x must be an integer, got nan",
        ),
    ];
    for (body, expected) in cases {
        refuses(body, expected);
    }
}

#[test]
fn rng_and_tiles_refuse_bad_arguments() {
    let cases = [
        (
            "rng:range(1, 0/0)",
            "rng:range: hi must be an integer, got nan",
        ),
        (
            "rng:range(5, 1)",
            "rng:range: empty range 5..1: hi must be >= lo",
        ),
        ("rng:int(0)", "rng:int: n must be 1..=4294967296, got 0"),
        ("rng:int(2.5)", "rng:int: n must be an integer, got 2.5"),
        (
            "rng:chance(0/0)",
            "rng:chance: p must be a finite number, got nan",
        ),
        ("rng:pick({})", "rng:pick: the list is empty"),
        ("rng:pick(3)", "rng:pick: list must be a table, got 3"),
        (
            r#"rng:shuffle("abc")"#,
            r#"rng:shuffle: list must be a table, got "abc""#,
        ),
        ("rng:fork(1)", "rng:fork: name must be a string, got 1"),
        ("math.random(0)", "math.random: empty range 1..0"),
        (
            "math.random(1.5)",
            "math.random: m must be an integer, got 1.5",
        ),
        ("math.randomseed(1)", "math.randomseed is disabled"),
        (
            "math.random(1, 2, 3)",
            "math.random: wrong number of arguments (it takes none, m, or m and n; got 3)",
        ),
        (
            "math.random(nil)",
            "math.random: m must be an integer, got nil",
        ),
        (
            "math.random(1, nil)",
            "math.random: n must be an integer, got nil",
        ),
        (
            r###"tiles.define("lava", {glyph = "##"})"###,
            r###"tiles.define: 'lava' needs glyph = one character, got "##""###,
        ),
        (
            r#"tiles.define("lava", {glyph = "%", walkabel = true})"#,
            "tiles.define: unknown field 'walkabel' in the spec of 'lava'",
        ),
        (
            r#"tiles.define("floor", {glyph = "f"})"#,
            "tiles.define: tile 'floor' is built in",
        ),
        (
            r#"tiles.define("lava", {glyph = "%", color = "red"})"#,
            r##"'lava': color must be "#rrggbb", got "red""##,
        ),
    ];
    for (body, expected) in cases {
        refuses(body, expected);
    }
}

#[test]
fn the_sandbox_has_no_way_out() {
    let cases = [
        (
            r#"io.open("x")"#,
            "attempt to index a nil value (global 'io')",
        ),
        (
            r#"os.execute("ls")"#,
            "attempt to index a nil value (global 'os')",
        ),
        (
            r#"dofile("x")"#,
            "attempt to call a nil value (global 'dofile')",
        ),
        (
            r#"loadfile("x")"#,
            "attempt to call a nil value (global 'loadfile')",
        ),
        (
            r#"package.loadlib("x", "y")"#,
            "attempt to index a nil value (global 'package')",
        ),
        (
            r#"load(string.dump(print))"#,
            "attempt to call a nil value (field 'dump')",
        ),
        (
            r#"assert(load("return 1", "x", "b"))"#,
            "dunlua loads text chunks only (mode 't')",
        ),
        (
            r#"load("return 1", "x", 5)"#,
            "bad argument #3 to 'load' (string expected, got number)",
        ),
        (
            r#"debug.sethook()"#,
            "attempt to index a nil value (global 'debug')",
        ),
        (
            r#"require("../secret")"#,
            "require: bad module name \"../secret\"",
        ),
        (r#"require("/etc/passwd")"#, "require: bad module name"),
        (r#"require("missing")"#, "module 'missing' not found"),
    ];
    for (body, expected) in cases {
        refuses(body, expected);
    }
    // Binary chunks are refused even through the text loader.
    let scratch = Scratch::new();
    let err = scratch
        .run("x.lua", &script_with(r#"assert(load("\27Lua"))"#))
        .unwrap_err();
    assert!(
        err.message.contains("attempt to load a binary chunk"),
        "{}",
        err.message
    );
    // A mode that allows binary chunks too ("bt") still loads text only.
    let err = scratch
        .run(
            "x.lua",
            &script_with(r#"assert(load("\27Lua", "x", "bt"))"#),
        )
        .unwrap_err();
    assert!(
        err.message.contains("attempt to load a binary chunk"),
        "{}",
        err.message
    );
}

/// A method called with `.` or on another object, caught by `pcall`, is
/// said in the API's words at the script's line, as it is uncaught (the
/// script saw mlua's "bad argument `self` to `LuaMap.set`: userdata is
/// not expected type").
#[test]
fn a_caught_wrong_self_says_what_the_uncaught_one_says() {
    let scratch = Scratch::new();
    for (call, api, owner) in [
        ("map.set(1.5, 0, 'wall')", "map:set", "map"),
        ("map.count(rng, 'x')", "map:count", "map"),
        ("rng.int(map, 3)", "rng:int", "rng"),
    ] {
        let body = format!("local ok, e = pcall(function() return {call} end); error(e, 0)");
        let err = scratch.run("x.lua", &script_with(&body)).unwrap_err();
        let said = format!("{api}: call it on a {owner} with a colon, as {api}(...); it was called on something else");
        assert!(
            err.message.starts_with("x.lua:") || err.message.contains("/x.lua:"),
            "{}",
            err.message
        );
        assert!(err.message.ends_with(&said), "{}", err.message);
    }
}

#[test]
fn text_load_still_works() {
    let scratch = Scratch::new();
    let g = scratch
        .run(
            "x.lua",
            &script_with(
                r#"local f = load("return 2 + 3"); local g = load("return 1", "=g", "bt"); map:fill("floor"); map:set_start(f(), g())"#,
            ),
        )
        .unwrap();
    assert_eq!(g.map.start(), Some((5, 1)));
}

fn scratch_script(scratch: &Scratch, text: &str) -> String {
    scratch.write("x.lua", text);
    "x.lua".to_string()
}

/// Runs the binary on a throwaway script, expecting failure `code`.
fn binary_fails(text: &str, extra: &[&str], code: i32) -> String {
    let scratch = Scratch::new();
    let script = scratch_script(&scratch, text);
    let mut args = vec![script.as_str(), "--seed", "1"];
    args.extend_from_slice(extra);
    let run = dunlua_in(scratch.path(), &args);
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    assert!(run.stdout.is_empty(), "no map is printed on failure");
    assert!(run.stderr.starts_with("dunlua: "), "{}", run.stderr);
    run.stderr
}

/// A misspelled `generate` or `params` key of the returned table is named
/// in the error that says the field is missing; nothing else changes.
#[test]
fn a_misspelled_generate_or_params_key_is_named() {
    let err = binary_fails("return { genrate = function(map) end }\n", &["--hash"], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: the returned table needs generate = function(map, rng, params), got nil \
         (the table has 'genrate': did you mean generate?)\n"
    );
    // Not a function: the field is there, no guess.
    let err = binary_fails("return { generate = 3, genrate = 1 }\n", &["--hash"], 1);
    assert!(
        err.ends_with("got 3\n") || err.ends_with("got integer 3\n"),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
    // Nothing close: the message as before.
    let err = binary_fails("return { banana = 1 }\n", &["--hash"], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: the returned table needs generate = function(map, rng, params), got nil\n"
    );
    // The keys are read raw (no __pairs or __index runs), and only the
    // first few dozen: a table of thousands of keys is no slower.
    let err = binary_fails(
        "return setmetatable({genrate = 1}, {__pairs = function() error('ran') end})\n",
        &["--hash"],
        1,
    );
    assert!(
        err.ends_with("(the table has 'genrate': did you mean generate?)\n"),
        "{err}"
    );
    let err = binary_fails(
        "local t = setmetatable({}, {__pairs = function() error('ran') end})\n\
         for i = 1, 100000 do t['k' .. i] = i end\n\
         return t\n",
        &["--hash"],
        1,
    );
    assert!(err.ends_with("got nil\n"), "{err}");

    let generate = "generate = function(map) map:fill('floor') map:set_start(1, 1) end";
    let err = binary_fails(
        &format!("return {{ parms = {{gap = 3}}, {generate} }}\n"),
        &["--hash", "-p", "gap=3"],
        2,
    );
    assert_eq!(
        err,
        "dunlua: unknown parameter 'gap'; no parameters are declared \
         (the table has 'parms': did you mean params?)\n"
    );
    let err = binary_fails(
        &format!("return {{ {generate} }}\n"),
        &["--hash", "-p", "gap=3"],
        2,
    );
    assert_eq!(
        err,
        "dunlua: unknown parameter 'gap'; no parameters are declared\n"
    );
    // Without -p the misspelled key is no error (as before).
    let scratch = Scratch::new();
    let script = scratch_script(
        &scratch,
        &format!("return {{ parms = {{gap = 3}}, {generate} }}\n"),
    );
    let run = dunlua_in(scratch.path(), &[&script, "--seed", "1", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A key of the returned table close to a field's name is a typo, said
/// at once: `widht = 40` made an 80-wide map and `validte` never ran. A
/// key of the script's own, far from every field, is no error.
#[test]
fn a_misspelled_field_of_the_script_table_is_an_error() {
    let generate = "generate = function(map) map:fill('floor') map:set_start(1, 1) end";
    for (key, field) in [
        ("widht = 40", "width"),
        ("validte = print", "validate"),
        ("one_wya = {}", "one_way"),
        ("lcoks = {}", "locks"),
    ] {
        let err = binary_fails(&format!("return {{ {key}, {generate} }}\n"), &["--hash"], 1);
        let typo = key.split(' ').next().unwrap();
        assert_eq!(
            err,
            format!("dunlua: x.lua: the returned table has '{typo}', which is no field of a script: did you mean {field}?\n")
        );
    }
    let scratch = Scratch::new();
    let script = scratch_script(
        &scratch,
        &format!("return {{ rooms_wanted = 3, [1] = true, {generate} }}\n"),
    );
    let run = dunlua_in(scratch.path(), &[&script, "--seed", "1", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Words of the script's own: a field's name in them, or in a field's,
    // or two letters off, are no typo (a module's `M.level`, `names`).
    for key in [
        "names",
        "level",
        "stairs_up",
        "heights",
        "goals",
        "lock",
        "validator",
        "Name",
        "_width",
    ] {
        let script = scratch_script(&scratch, &format!("return {{ {key} = 1, {generate} }}\n"));
        let run = dunlua_in(scratch.path(), &[&script, "--seed", "1", "--hash"]);
        assert_eq!(run.code, 0, "{key}: {}", run.stderr);
    }
}

/// A validate that returns nothing (a forgotten `return true`), or nil (a
/// `return map:path(...)` that found none), rejects the map, and the reason
/// says nil, at validate's line: it said "validate returned false".
#[test]
fn validate_returning_nil_rejects_and_says_so() {
    let err = binary_fails(
        "return { width = 20, height = 10,\n\
           generate = function(map) map:fill('floor') map:set_start(1, 1) end,\n\
           validate = function(map)\n\
             local _ = map:count('floor')\n\
           end }\n",
        &["--hash", "--max-attempts", "2"],
        1,
    );
    assert!(
        err.contains(
            "the last because x.lua:3: validate returned nil (return true to keep the map)"
        ),
        "{err}"
    );
    // A C function's nil has no line to name.
    let err = binary_fails(
        "return { width = 20, height = 10, validate = math.type,\n\
           generate = function(map) map:fill('floor') map:set_start(1, 1) end }\n",
        &["--hash", "--max-attempts", "1"],
        1,
    );
    assert!(
        err.contains("the last because x.lua: validate returned nil"),
        "{err}"
    );
}

#[test]
fn a_syntax_error_names_the_line() {
    let err = binary_fails(
        "return { generate = function(map)\n  local x = = 3\nend }\n",
        &[],
        1,
    );
    assert_eq!(err, "dunlua: x.lua:2: unexpected symbol near '='\n");
}

#[test]
fn a_runtime_error_deep_in_a_helper_shows_the_traceback() {
    let text = "local function helper(map)\n  local t = map:get(97, 3)\nend\n\
                local function middle(map)\n  helper(map)\nend\n\
                return { generate = function(map)\n  middle(map)\nend }\n";
    let err = binary_fails(text, &[], 1);
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some("dunlua: x.lua:2: map:get: cell (97, 3) is outside the 80x50 map")
    );
    assert_eq!(lines.next(), Some("stack traceback:"));
    let rest: Vec<&str> = lines.map(str::trim).collect();
    assert_eq!(rest[0], "x.lua:2: in upvalue 'helper'");
    assert_eq!(rest[1], "x.lua:5: in upvalue 'middle'");
    assert!(rest[2].starts_with("x.lua:8: in function"), "{rest:?}");
}

#[test]
fn a_lua_error_call_keeps_its_location() {
    let err = binary_fails(&script_with(r#"error("no room for the vault")"#), &[], 1);
    assert!(
        err.starts_with("dunlua: x.lua:2: no room for the vault\n"),
        "{err}"
    );
}

#[test]
fn an_error_message_is_one_line_before_its_traceback() {
    let err = binary_fails(&script_with(r#"error("two\nlines\r\t\27[31m")"#), &[], 1);
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some(r"dunlua: x.lua:2: two\nlines\r\t\x1b[31m")
    );
    assert_eq!(lines.next(), Some("stack traceback:"));
    assert_eq!(lines.next(), Some("\tx.lua:2: in function <x.lua:1>"));
    assert_eq!(lines.next(), None);
    // A fake traceback in the message stays in the message.
    let err = binary_fails(
        &script_with(r#"error("a\nstack traceback:\n\tfake.lua:1: in x")"#),
        &[],
        1,
    );
    assert_eq!(
        err.lines().next(),
        Some(r"dunlua: x.lua:2: a\nstack traceback:\n\tfake.lua:1: in x")
    );
}

#[test]
fn an_error_object_is_named_without_its_address() {
    let err = binary_fails(&script_with("error({})"), &[], 1);
    assert_eq!(
        err.lines().next(),
        Some("dunlua: x.lua:2: (error object is a table value)")
    );
    for (body, shown) in [
        (r#"error(setmetatable({}, { __name = "room" }))"#, "room"),
        ("error(function() end)", "function"),
        ("error(coroutine.create(print))", "thread"),
    ] {
        let err = binary_fails(&script_with(body), &[], 1);
        assert!(!err.contains("0x"), "{body}: {err}");
        assert_eq!(
            err.lines().next().unwrap(),
            format!("dunlua: x.lua:2: (error object is a {shown} value)"),
            "{body}"
        );
    }
    // Its own __tostring, if it has one, one line and cut short.
    let err = binary_fails(
        &script_with(
            r#"error(setmetatable({}, { __tostring = function() return "a\n" .. ("b"):rep(100000) end }))"#,
        ),
        &[],
        1,
    );
    let first = err.lines().next().unwrap();
    assert!(first.starts_with(r"dunlua: x.lua:2: a\nbbbb"), "{first}");
    assert!(first.ends_with("... (100002 bytes in all)"), "{first}");
    assert!(first.len() < 2100, "{}", first.len());
    // A long string raised by `error` or `assert` (cut by the sandbox's
    // own `error` first) says the size the script raised, not the size of
    // what was left of it ("(2036 bytes in all)").
    // A message or a `__tostring` text that ends in something like a
    // number is the script's text, not an object's address.
    for (body, says) in [
        (
            r#"error("expected 3 rooms, got: 2", 0)"#,
            "expected 3 rooms, got: 2",
        ),
        (
            r#"error(setmetatable({}, { __tostring = function() return "Node: 7" end }))"#,
            "Node: 7",
        ),
    ] {
        let err = binary_fails(&script_with(body), &[], 1);
        assert_eq!(
            err.lines().next().unwrap(),
            format!("dunlua: x.lua:2: {says}"),
            "{body}"
        );
    }
    // A "\0" inside a message is shown, escaped, with what follows it
    // (Lua's traceback read the message up to it).
    let err = binary_fails(&script_with(r#"error("before\0after")"#), &[], 1);
    assert_eq!(
        err.lines().next().unwrap(),
        r"dunlua: x.lua:2: before\x00after"
    );
    for body in [
        r#"error(("y"):rep(5000))"#,
        r#"assert(false, ("y"):rep(5000))"#,
    ] {
        let err = binary_fails(&script_with(body), &[], 1);
        let first = err.lines().next().unwrap();
        assert!(first.ends_with("yyy... (5000 bytes)"), "{body}: {first}");
        assert!(first.len() < 2100, "{body}: {}", first.len());
    }
}

#[test]
fn an_error_in_a_module_names_the_module_and_its_line() {
    let scratch = Scratch::new();
    scratch.write(
        "x.lua",
        "local helper = require('lib.helper')\nreturn { generate = function(map)\n  helper.dig(map)\nend }\n",
    );
    scratch.write(
        "lib/helper.lua",
        "local M = {}\nfunction M.dig(map)\n  error('no\\nroom')\nend\nreturn M\n",
    );
    let run = dunlua_in(scratch.path(), &["x.lua", "--seed", "1"]);
    assert_eq!(run.code, 1);
    let mut lines = run.stderr.lines();
    assert_eq!(lines.next(), Some(r"dunlua: lib/helper.lua:3: no\nroom"));
    assert_eq!(lines.next(), Some("stack traceback:"));
    assert_eq!(lines.next(), Some("\tlib/helper.lua:3: in field 'dig'"));
    assert_eq!(lines.next(), Some("\tx.lua:3: in function <x.lua:2>"));
}

#[test]
fn a_newline_in_a_file_name_is_escaped() {
    let scratch = Scratch::new();
    scratch.write("a\nb.lua", &script_with(r#"error("boom")"#));
    let run = dunlua_in(scratch.path(), &["a\nb.lua", "--seed", "1"]);
    assert_eq!(run.code, 1);
    let mut lines = run.stderr.lines();
    assert_eq!(lines.next(), Some(r"dunlua: a\nb.lua:2: boom"));
    assert_eq!(lines.next(), Some("stack traceback:"));
    assert_eq!(
        lines.next(),
        Some("\ta\\nb.lua:2: in function <a\\nb.lua:1>")
    );
    assert_eq!(lines.next(), None);
    // Every other message too: a usage error, a note.
    let run = dunlua_in(scratch.path(), &["no\nsuch.lua", "--seed", "1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with(r"dunlua: cannot read script no\nsuch.lua: "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    scratch.write(
        "ok.lua",
        &script_with("map:fill('floor') map:set_start(1, 1)"),
    );
    let run = dunlua_in(
        scratch.path(),
        &["ok.lua", "--seed", "1", "--out", "m\n.txt"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "dunlua: wrote m\\n.txt\n");
}

#[test]
fn a_runaway_loop_hits_the_budget() {
    let err = binary_fails(
        &script_with("while true do end"),
        &["--max-instructions", "1000000"],
        1,
    );
    assert!(
        err.starts_with(
        "dunlua: x.lua:2: instruction budget of 1000000 exceeded (a runaway loop?); raise it with --max-instructions\nstack traceback:\n\tx.lua:2:"),
        "{err}"
    );
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    let err = binary_fails(
        &script_with("while true do pcall(function() while true do end end) end"),
        &["--max-instructions", "1000000"],
        1,
    );
    assert!(
        err.contains("instruction budget of 1000000 exceeded"),
        "{err}"
    );
}

#[test]
fn a_runaway_loop_at_load_time_hits_the_budget_too() {
    let err = binary_fails("while true do end\n", &["--max-instructions", "1000000"], 1);
    assert!(
        err.starts_with("dunlua: x.lua:1: instruction budget"),
        "{err}"
    );
}

#[test]
fn a_table_that_grows_forever_hits_the_memory_limit() {
    let err = binary_fails(
        &script_with("local t = {} ; local i = 0 ; while true do i = i + 1 ; t[i] = {i} end"),
        &["--max-memory", "16"],
        1,
    );
    // Located at the growing line, with the traceback kept.
    assert!(
        err.starts_with(
        "dunlua: x.lua:2: memory limit of 16 MiB exceeded (a table that grows forever?); raise it with --max-memory\nstack traceback:\n\tx.lua:2:"),
        "{err}"
    );
}

#[test]
fn the_script_contract_is_checked() {
    let err = binary_fails("local x = 1\n", &[], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: the script must return a table with a generate function, got nil\n"
    );
    let err = binary_fails("return { name = \"no generate\" }\n", &[], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: the returned table needs generate = function(map, rng, params), got nil\n"
    );
    let err = binary_fails(&script_with(r#"map:fill("floor")"#), &[], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: generate set no start; call map:set_start(x, y) on a walkable cell\n"
    );
    let err = binary_fails(&script_with("map:set_start(4, 2)"), &[], 1);
    assert_eq!(
        err,
        "dunlua: x.lua: generate left the start at (4, 2) on 'wall', which is not walkable\n"
    );
    let err = binary_fails(
        "return { width = 2.5, generate = function() end }\n",
        &[],
        1,
    );
    assert_eq!(err, "dunlua: x.lua: width must be an integer, got 2.5\n");
    let err = binary_fails(
        "return { params = { n = {} }, generate = function() end }\n",
        &[],
        1,
    );
    assert!(
        err.contains("params.n must default to an integer, number, boolean or string"),
        "{err}"
    );
}

#[test]
fn bad_parameters_are_usage_errors_listing_the_declared_ones() {
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "-p", "rooms=3"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "dunlua: unknown parameter 'rooms'; declared: features (boolean, default false), \
         max_rooms (integer, default 30), max_size (integer, default 10), min_size (integer, default 6)\n"
    );
    // A near miss names what was meant, as a mistyped API name does.
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "-p", "max_room=3"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "dunlua: unknown parameter 'max_room'; did you mean 'max_rooms'? declared: "
        ),
        "{}",
        run.stderr
    );
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "-p", "max_rooms=abc"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "dunlua: parameter 'max_rooms' must be an integer, got 'abc'; declared: features"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_sizes_are_usage_errors() {
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "--size", "0x5"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "dunlua: invalid value '0x5' for '--size <WxH>': width and height must be 1..=10000, got 0x5 (see dunlua --help)\n"
    );
    // Seeds: whole numbers from 0 to 2^64-1, said so whatever was wrong.
    for bad in ["-1", "18446744073709551616", "0x10", "1.5", "abc"] {
        let run = dunlua(&["scripts/rooms.lua", "--seed", bad, "--hash"]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("dunlua: invalid value '{bad}' for '--seed <SEED>': a seed is a whole number from 0 to 18446744073709551615, got '{bad}' (see dunlua --help)\n")
        );
    }
    let run = dunlua(&[
        "scripts/rooms.lua",
        "--seed",
        "1",
        "--size",
        "100000x100000",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("width and height must be 1..=10000, got 100000x100000"),
        "{}",
        run.stderr
    );
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "--size", "9000x9000"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("at most 25000000 cells"),
        "{}",
        run.stderr
    );
    // A size the script cannot use is the script's error, with its line.
    let run = dunlua(&["scripts/rooms.lua", "--seed", "1", "--size", "8x8"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with("dunlua: scripts/rooms.lua:")
            && run
                .stderr
                .contains("a 8x8 map is too small for rooms up to 10 tiles"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_script_is_a_usage_error() {
    let run = dunlua(&["scripts/nope.lua", "--seed", "1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("dunlua: cannot read script scripts/nope.lua: "),
        "{}",
        run.stderr
    );
}

#[test]
fn an_output_in_a_missing_folder_is_refused_before_generating() {
    let scratch = Scratch::new();
    let script = crate::util::root().join("scripts/rooms.lua");
    let run = dunlua_in(
        scratch.path(),
        &[
            script.to_str().unwrap(),
            "--seed",
            "1",
            "--out",
            "missing/map.json",
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "dunlua: --out missing/map.json: folder missing does not exist\n"
    );
    assert!(!scratch.path().join("missing").exists());
    let run = dunlua_in(
        scratch.path(),
        &[script.to_str().unwrap(), "--seed", "1", "--out", "map.bmp"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown output format"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_failing_script_leaves_an_existing_output_alone() {
    let scratch = Scratch::new();
    scratch.write("x.lua", &script_with(r#"error("broken")"#));
    let old = scratch.write("map.txt", "the old map\n");
    let run = dunlua_in(
        scratch.path(),
        &["x.lua", "--seed", "1", "--out", "map.txt"],
    );
    assert_eq!(run.code, 1);
    assert_eq!(std::fs::read_to_string(old).unwrap(), "the old map\n");
    let names: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert_eq!(names.len(), 2, "no temporary file is left behind");
}

#[test]
fn unknown_flags_are_usage_errors() {
    let run = dunlua(&["scripts/rooms.lua", "--sed", "1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("dunlua: unexpected argument '--sed'"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

/// `check` writes no Tiled file: `--tileset` and `--embed-tileset` are not
/// its flags (they were, unused, and a missing tileset still failed it),
/// while `run` keeps them and `check` keeps the picture flags.
#[test]
fn check_takes_no_tileset_flags() {
    for flag in [&["--tileset", "x.tsx"][..], &["--embed-tileset"][..]] {
        let mut args = vec!["check", "scripts/rooms.lua", "--seeds", "0..1"];
        args.extend(flag);
        let run = dunlua(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("dunlua: unexpected argument '{}' found", flag[0])),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    let help = dunlua(&["check", "--help"]);
    assert!(!help.stdout.contains("--tileset"), "{}", help.stdout);
    assert!(!help.stdout.contains("--embed-tileset"), "{}", help.stdout);
    for flag in ["--png-style", "--png-rock", "--cell-size"] {
        assert!(help.stdout.contains(flag), "{flag}: {}", help.stdout);
    }
    let help = dunlua(&["--help"]);
    for flag in ["--tileset", "--embed-tileset", "--png-style", "--cell-size"] {
        assert!(help.stdout.contains(flag), "{flag}: {}", help.stdout);
    }
    let run = dunlua(&[
        "scripts/rooms.lua",
        "--seed",
        "1",
        "--tileset",
        "no-such.tsx",
        "--hash",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// clap's "did you mean" (a tip under its error) is kept in the one line.
#[test]
fn a_mistyped_flag_or_value_names_the_closest_one() {
    for (args, want) in [
        (
            &["check", "--job", "2", "scripts/rooms.lua"][..],
            "dunlua: unexpected argument '--job' found; did you mean '--jobs'? (see dunlua check --help)\n",
        ),
        (
            &["scripts/rooms.lua", "--sed", "1"][..],
            "dunlua: unexpected argument '--sed' found; did you mean '--seed'? (see dunlua --help)\n",
        ),
        (
            &["scripts/rooms.lua", "--color", "nevr"][..],
            "dunlua: invalid value 'nevr' for '--color <WHEN>'; did you mean 'never'? (one of: auto, always, never) (see dunlua --help)\n",
        ),
        // Nothing close: no suggestion.
        (
            &["scripts/rooms.lua", "--zzzz"][..],
            "dunlua: unexpected argument '--zzzz' found (see dunlua --help)\n",
        ),
        // A mistyped command is no file: clap took it for the script.
        (
            &["chek", "scripts/rooms.lua"][..],
            "dunlua: no command or script 'chek'; did you mean 'check'? (see dunlua --help)\n",
        ),
        (
            &["benhc"][..],
            "dunlua: no command or script 'benhc'; did you mean 'bench'? (see dunlua --help)\n",
        ),
        // Nothing close, and no file: the commands are listed.
        (
            &["exprot", "x"][..],
            "dunlua: no command or script 'exprot' (the commands: check, bench, sheet, api, new; or a script file) (see dunlua --help)\n",
        ),
        (
            &["zzzzzz"][..],
            "dunlua: no command or script 'zzzzzz' (the commands: check, bench, sheet, api, new; or a script file) (see dunlua --help)\n",
        ),
        // A value not among a flag's values lists them.
        (
            &["scripts/rooms.lua", "--color", "purple"][..],
            "dunlua: invalid value 'purple' for '--color <WHEN>' (one of: auto, always, never) (see dunlua --help)\n",
        ),
    ] {
        let run = dunlua(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, want, "{args:?}");
    }
}

/// What an argument of a primitive is, for the generated matrix below.
#[derive(Clone, Copy)]
enum Arg {
    Int(&'static str, &'static str),
    Tile(&'static str),
    Rect(&'static str),
}

/// Every primitive with valid arguments; the matrix spoils one at a time.
const PRIMITIVES: &[(&str, &[Arg])] = &[
    ("map:get", &[Arg::Int("x", "1"), Arg::Int("y", "1")]),
    (
        "map:set",
        &[
            Arg::Int("x", "1"),
            Arg::Int("y", "1"),
            Arg::Tile("\"floor\""),
        ],
    ),
    ("map:in_bounds", &[Arg::Int("x", "1"), Arg::Int("y", "1")]),
    ("map:is_walkable", &[Arg::Int("x", "1"), Arg::Int("y", "1")]),
    ("map:count", &[Arg::Tile("\"floor\"")]),
    ("map:fill", &[Arg::Tile("\"floor\"")]),
    (
        "map:fill_rect",
        &[Arg::Rect("Rect.new(1, 1, 3, 3)"), Arg::Tile("\"floor\"")],
    ),
    (
        "map:carve_room",
        &[Arg::Rect("Rect.new(1, 1, 3, 3)"), Arg::Tile("\"floor\"")],
    ),
    (
        "map:h_tunnel",
        &[
            Arg::Int("x1", "1"),
            Arg::Int("x2", "5"),
            Arg::Int("y", "2"),
            Arg::Tile("\"floor\""),
        ],
    ),
    (
        "map:v_tunnel",
        &[
            Arg::Int("y1", "1"),
            Arg::Int("y2", "5"),
            Arg::Int("x", "2"),
            Arg::Tile("\"floor\""),
        ],
    ),
    (
        "map:l_tunnel",
        &[
            Arg::Int("ax", "1"),
            Arg::Int("ay", "1"),
            Arg::Int("bx", "5"),
            Arg::Int("by", "5"),
        ],
    ),
    ("map:add_room", &[Arg::Rect("Rect.new(1, 1, 3, 3)")]),
    ("map:set_start", &[Arg::Int("x", "1"), Arg::Int("y", "1")]),
    ("map:mark", &[Arg::Int("x", "1"), Arg::Int("y", "1")]),
    (
        "Rect.new",
        &[
            Arg::Int("x", "1"),
            Arg::Int("y", "1"),
            Arg::Int("w", "3"),
            Arg::Int("h", "3"),
        ],
    ),
    ("rng:range", &[Arg::Int("lo", "1"), Arg::Int("hi", "6")]),
    ("rng:int", &[Arg::Int("n", "6")]),
];

/// The call with argument `i` replaced by `bad`, plus any fixed trailing
/// arguments the primitive needs.
fn call_with(name: &str, args: &[Arg], i: usize, bad: &str) -> String {
    let mut texts: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(j, a)| {
            if j == i {
                return bad.to_string();
            }
            match a {
                Arg::Int(_, v) | Arg::Tile(v) | Arg::Rect(v) => v.to_string(),
            }
        })
        .collect();
    match name {
        "map:l_tunnel" => texts.push("true".into()),
        "map:mark" => texts.push("\"chest\"".into()),
        _ => {}
    }
    format!("{name}({})", texts.join(", "))
}

#[test]
fn every_primitive_refuses_wrong_types_nan_and_fractions() {
    let mut checked = 0;
    for (name, args) in PRIMITIVES {
        let on_map = name.starts_with("map:");
        for (i, arg) in args.iter().enumerate() {
            let spoiled: Vec<(&str, String)> = match arg {
                Arg::Int(what, _) => vec![
                    (
                        "\"a\"",
                        format!("{name}: {what} must be an integer, got \"a\""),
                    ),
                    ("0/0", format!("{name}: {what} must be an integer, got nan")),
                    ("1.5", format!("{name}: {what} must be an integer, got 1.5")),
                    (
                        "{}",
                        format!("{name}: {what} must be an integer, got a table"),
                    ),
                ],
                Arg::Tile(_) => vec![
                    (
                        "7",
                        format!("{name}: tile must be a tile name (string), got 7"),
                    ),
                    (
                        "\"lava\"",
                        format!("{name}: unknown tile 'lava'; known tiles: wall, floor"),
                    ),
                ],
                Arg::Rect(_) => vec![
                    ("{}", format!("{name}: ")),
                    ("\"room\"", format!("{name}: ")),
                ],
            };
            for (bad, expected) in spoiled {
                let body = call_with(name, args, i, bad);
                refuses(&body, &expected);
                if on_map {
                    let scratch = Scratch::new();
                    let err = scratch.run("x.lua", &script_with(&body)).unwrap_err();
                    assert!(
                        err.message.contains("80x50"),
                        "`{body}` names no map size: {}",
                        err.message
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "only {checked} cases");
}

#[test]
fn every_cell_primitive_refuses_cells_off_the_map() {
    let cells = [
        ("map:get", "map:get(80, 0)", "cell (80, 0)"),
        ("map:set", "map:set(0, 50, \"floor\")", "cell (0, 50)"),
        ("map:is_walkable", "map:is_walkable(-1, 0)", "cell (-1, 0)"),
        ("map:h_tunnel", "map:h_tunnel(-2, 5, 3)", "cell (-2, 3)"),
        ("map:v_tunnel", "map:v_tunnel(0, 50, 3)", "cell (3, 50)"),
        (
            "map:l_tunnel",
            "map:l_tunnel(1, 1, 1, 99, false)",
            "cell (1, 99)",
        ),
        ("map:set_start", "map:set_start(80, 49)", "cell (80, 49)"),
        ("map:mark", "map:mark(0, -1, \"gold\")", "cell (0, -1)"),
    ];
    for (name, body, cell) in cells {
        refuses(body, &format!("{name}: {cell} is outside the 80x50 map"));
    }
    let rects = [
        (
            "map:fill_rect",
            "map:fill_rect(Rect.new(-1, 0, 3, 3), \"floor\")",
        ),
        ("map:carve_room", "map:carve_room(Rect.new(70, 45, 10, 10))"),
        ("map:add_room", "map:add_room(Rect.new(0, 0, 80, 10))"),
    ];
    for (name, body) in rects {
        refuses(body, &format!("{name}: Rect("));
        refuses(body, "reaches outside the 80x50 map");
    }
}

#[test]
fn sizes_must_be_positive() {
    for (body, expected) in [
        (
            "Rect.new(0, 0, 0, 3)",
            "Rect.new: w must be at least 1, got 0",
        ),
        (
            "Rect.new(0, 0, -2, 3)",
            "Rect.new: w must be at least 1, got -2",
        ),
        (
            "Rect.new(0, 0, 3, 0)",
            "Rect.new: h must be at least 1, got 0",
        ),
        ("rng:int(-4)", "rng:int: n must be 1..=4294967296, got -4"),
    ] {
        refuses(body, expected);
    }
}

#[test]
fn window_and_report_flags_name_what_is_wrong() {
    let scratch = Scratch::new();
    scratch.write(
        "ok.lua",
        &script_with("map:fill('floor') map:set_start(1, 1)"),
    );
    for (args, said) in [
        (
            vec!["ok.lua", "--save-dir", "missing", "--ascii"],
            "--save-dir missing: no such folder",
        ),
        (
            vec!["check", "ok.lua", "--html", "r.pdf"],
            "--html r.pdf: the report is an .html file",
        ),
        (
            vec!["check", "ok.lua", "--html", "missing/r.html"],
            "--html missing/r.html: folder missing does not exist",
        ),
        (
            vec!["sheet", "ok.lua", "--out", "s.gif"],
            "--out s.gif: a sheet is a .png",
        ),
        (
            vec!["ok.lua", "--png-rock", "grey", "--out", "m.png"],
            "invalid value 'grey' for '--png-rock",
        ),
    ] {
        let run = dunlua_in(scratch.path(), &args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.lines().count(),
            1,
            "{args:?}: one line: {}",
            run.stderr
        );
    }
    assert_eq!(
        crate::util::files_in(scratch.path()),
        ["ok.lua"],
        "nothing written"
    );
}

#[test]
fn a_mistyped_api_name_gets_the_closest_one() {
    for (body, expected) in [
        (
            "map:connect_region(rng)",
            "attempt to call a nil value (method 'connect_region'); did you mean connect_regions?",
        ),
        ("rng:rnage(1, 3)", "(method 'rnage'); did you mean range?"),
        ("Rect.nwe(1, 1, 2, 2)", "(field 'nwe'); did you mean new?"),
        (
            "Rects.new(1, 1, 2, 2)",
            "(global 'Rects'); did you mean Rect?",
        ),
        ("rejcet('no')", "(global 'rejcet'); did you mean reject?"),
    ] {
        refuses(body, expected);
    }
    // Looking a name up still gives nil, as in plain Lua: a script may test
    // for a function a newer dunlua has.
    let scratch = Scratch::new();
    scratch
        .run(
            "x.lua",
            &script_with(
                "assert(map.connect_region == nil and map.chokepoints ~= nil)\n  map:fill('floor') map:set_start(1, 1)",
            ),
        )
        .expect("a missing name reads as nil");
}

/// A mistyped parameter name (`p.step` for the declared `steps`) is an
/// error naming the parameter meant, at the line that read it, not a `nil`
/// that fails lines later or silently becomes a default. Names close to no
/// declared one still read as nil (`p.optional or 3`), the table's metatable
/// is the host's (a run cannot change what the next run's table does), and
/// the parameters reach the map's provenance as before.
#[test]
fn a_mistyped_parameter_name_is_an_error_naming_the_declared_one() {
    let scratch = Scratch::new();
    let script = |body: &str| {
        format!(
            "return {{ params = {{ steps = 4, max_rooms = 9 }},\n  generate = function(map, rng, p)\n  {body}\n  map:fill('floor') map:set_start(1, 1)\nend }}\n"
        )
    };
    for (body, meant) in [
        (
            "local n = p.step * 2",
            "params.step is not a declared parameter; did you mean params.steps?",
        ),
        (
            "local n = p.max_room",
            "params.max_room is not a declared parameter; did you mean params.max_rooms?",
        ),
        (
            "if p.Steps then end",
            "params.Steps is not a declared parameter; did you mean params.steps?",
        ),
    ] {
        let err = scratch
            .run("x.lua", &script(body))
            .expect_err(&format!("`{body}` should fail"));
        assert!(err.message.contains("x.lua:3: "), "{}", err.message);
        assert!(err.message.contains(meant), "`{body}`: {}", err.message);
        assert!(
            err.message.contains("(declared: max_rooms, steps;"),
            "{}",
            err.message
        );
        assert_eq!(err.exit_code(), 1);
    }
    let ok = scratch
        .run(
            "x.lua",
            &script(
                "assert(p.optional == nil and (p.layout or 3) == 3 and p[1] == nil and p[p] == nil)\n  assert(p.steps == 4 and getmetatable(p) == false)\n  assert(not pcall(setmetatable, p, nil))\n  p.stepz = 1 assert(p.stepz == 1)",
            ),
        )
        .expect("undeclared names far from any declared one read as nil");
    assert_eq!(
        ok.provenance.params.get("steps"),
        Some(&dunlua::params::ParamValue::Integer(4))
    );
    // A library or host function handed the table looks up keys of its
    // own: a miss there reads as nil, as in plain Lua, not as the script's
    // typo (gsub looks "step" up in p).
    scratch
        .run(
            "x.lua",
            &script("assert(string.gsub('step', '%a+', p) == 'step')"),
        )
        .expect("a library's own lookups are not checked");
    // Changing the protected metatable is refused at the script's line
    // (the sandbox's setmetatable took `false` for no metatable, and Lua's
    // own error named the sandbox's line).
    let err = scratch
        .run("x.lua", &script("setmetatable(p, nil)"))
        .expect_err("the metatable is protected");
    assert!(
        err.message
            .contains("x.lua:3: cannot change a protected metatable"),
        "{}",
        err.message
    );
    // A name that is not an identifier is shown as a script writes it, and
    // an empty name is never the one meant.
    let odd = "return { params = { [''] = 1, ['max size'] = 3 },\n  generate = function(map, rng, p)\n  local x = p.x\n  local y = p['max siz']\nend }\n";
    let err = scratch
        .run("x.lua", odd)
        .expect_err("a typo of an odd name");
    assert!(
        err.message.contains(
            "x.lua:4: params[\"max siz\"] is not a declared parameter; did you mean params[\"max size\"]? (declared: \"\", \"max size\";"
        ),
        "{}",
        err.message
    );
    // Names that are not UTF-8 are refused: read lossily, two of them
    // became one name that neither could be read or set under.
    let err = scratch
        .run(
            "x.lua",
            "return { params = { ['\\xff'] = 2, ['\\xfe'] = 3 }, generate = function(map) end }\n",
        )
        .expect_err("not UTF-8");
    assert!(
        err.message.contains("params keys must be UTF-8 names"),
        "{}",
        err.message
    );
}

#[test]
fn a_scripts_own_protected_metatable_is_refused_at_its_line() {
    let scratch = Scratch::new();
    // A script's own __metatable that is itself a table cannot be told
    // from a real metatable by the sandbox's checks: Lua refuses, at the
    // script's line (it said the sandbox's), and a table without one is
    // still set (its metatable replaced).
    let err = scratch
        .run(
            "x.lua",
            &script_with("local t = setmetatable({}, { __metatable = {} })\n  setmetatable(t, {})"),
        )
        .expect_err("a table-valued __metatable protects too");
    assert!(
        err.message
            .contains("x.lua:3: cannot change a protected metatable"),
        "{}",
        err.message
    );
    scratch
        .run(
            "x.lua",
            &script_with("local a, b = {}, {}\n  local t = setmetatable({}, a)\n  assert(setmetatable(t, b) == t and getmetatable(t) == b)\n  map:fill('floor') map:set_start(1, 1)"),
        )
        .expect("an unprotected metatable is replaced");
}

/// An error Lua raises with no line of its own (a precompiled chunk, which
/// the text-only loader refuses before anything runs; `coroutine.yield`
/// outside a coroutine, tail-called, so its caller's frame is gone) still
/// names the script it came from.
#[test]
fn errors_without_a_line_still_name_the_script() {
    let scratch = Scratch::new();
    let err = scratch
        .run("binary.lua", "\x1bLua")
        .expect_err("a binary chunk is refused");
    assert!(
        err.message
            .ends_with("binary.lua: attempt to load a binary chunk (mode is 't')"),
        "{}",
        err.message
    );
    let err = scratch
        .run("yield.lua", "return coroutine.yield()\n")
        .expect_err("nothing to yield to");
    assert!(
        err.message
            .contains("yield.lua: coroutine.yield: not inside a coroutine"),
        "{}",
        err.message
    );
}

/// Files load as Lua's own `lua` loads them: a UTF-8 byte-order mark (as
/// some Windows editors save) and a `#!` first line are skipped, in the
/// script and in its modules, and the lines keep their numbers.
#[test]
fn a_byte_order_mark_and_a_shebang_line_are_skipped() {
    let scratch = Scratch::new();
    scratch.write(
        "marked.lua",
        "\u{feff}#!/usr/bin/env lua\nreturn { size = 3 }\n",
    );
    let g = scratch
        .run(
            "bom.lua",
            "\u{feff}local m = require('marked')\nreturn { width = 10, height = 5, generate = function(map)\n  map:fill('floor') map:set_start(m.size, 1)\nend }\n",
        )
        .expect("a byte-order mark is no syntax error");
    assert_eq!(g.map.start(), Some((3, 1)));
    let err = scratch
        .run(
            "shebang.lua",
            "#!/usr/bin/env dunlua\nreturn { generate = function(map)\n  error('here')\nend }\n",
        )
        .expect_err("the script fails on purpose");
    assert!(
        err.message.contains("shebang.lua:3: here"),
        "{}",
        err.message
    );
}

/// An error raised inside the host's own Lua (here the `tostring`
/// wrapper, overflowing the C stack because a `__tostring` calls
/// `tostring` on itself) is reported at the script's line that led there,
/// not at an internal chunk's ("tostring:6:").
#[test]
fn an_error_inside_the_sandboxs_lua_names_the_scripts_line() {
    let scratch = Scratch::new();
    let err = scratch
        .run(
            "loop.lua",
            "return { generate = function(map)\n  local e = setmetatable({}, {__tostring = function(self) return 'E' .. tostring(self) end})\n  error(e)\nend }\n",
        )
        .expect_err("the __tostring never ends");
    assert!(
        err.message.ends_with("loop.lua:2: C stack overflow"),
        "{}",
        err.message
    );
}

/// Arguments a primitive would take and then quietly fail on are refused,
/// at the script's line: a tunnel of a kind nobody can walk (it joined
/// nothing and said it had), and path costs whose sum over the map would
/// overflow (the path came back nil on an open map).
#[test]
fn tunnels_nobody_can_walk_and_overflowing_costs_are_refused() {
    let scratch = Scratch::new();
    let err = scratch
        .run(
            "tunnel.lua",
            "return { width = 30, height = 12, generate = function(map, rng)\n  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 5, 5)) map:carve_room(Rect.new(20, 1, 5, 5))\n  map:connect_regions(rng, { tile = 'water' })\nend }\n",
        )
        .expect_err("water joins nothing");
    assert!(
        err.message.contains(
            "tunnel.lua:4: map:connect_regions: tile \"water\" is not walkable: its tunnels would join nothing"
        ),
        "{}",
        err.message
    );
    let err = scratch
        .run(
            "dear.lua",
            "return { width = 30, height = 12, generate = function(map, rng)\n  map:fill('floor')\n  local p = map:path(0, 0, 29, 11, { cost = { floor = 1e308 } })\nend }\n",
        )
        .expect_err("1e308 a step overflows");
    assert!(
        err.message.contains("dear.lua:3: map:path: costs up to 1e308 a step over 360 cells could add up past the largest number"),
        "{}",
        err.message
    );
}

/// "Wherever an integer is needed, a float with a whole value (`3.0`) is
/// accepted" (the API guide) holds for options read from tables and the
/// script's own fields too: rotations, tries, steps, octaves, neighbour
/// counts, a loop distance, the size and the levels. Each of these was
/// refused ("rotate must be 0, 90, 180 or 270, got 90.0"); the map is the
/// one the integers make.
#[test]
fn whole_floats_are_integers_in_options_and_fields_too() {
    let script = |n: &str| {
        format!(
            "return {{ width = 30{n}, height = 20{n}, levels = 1{n}, generate = function(map, rng)\n\
               map:fill('wall')\n\
               map:carve_room(Rect.new(1, 1, 10, 8))\n\
               map:stamp(12, 2, {{'#.', '..'}}, {{['#'] = 'wall', ['.'] = 'floor'}}, {{rotate = 90{n}}})\n\
               local f = map:noise(rng, {{octaves = 2{n}}})\n\
               map:cellular{{birth = {{5{n}, 6}}, survive = {{4{n}, 5, 6, 7, 8}}, steps = 1{n}}}\n\
               map:add_loops{{min_distance = 5{n}}}\n\
               map:place_prefab({{'..', '..'}}, {{['.'] = 'floor'}}, rng, {{tries = 5{n}, rotate = 180{n}}})\n\
               local w, h = prefab.size({{'...'}}, {{rotate = 90{n}}})\n\
               map:carve_room(Rect.new(1, 1, w, h))\n\
               map:set(1, 1, 'floor') map:set_start(1, 1)\n\
             end }}\n"
        )
    };
    let scratch = Scratch::new();
    let floats = scratch
        .run("floats.lua", &script(".0"))
        .expect("whole floats are integers");
    let integers = scratch.run("integers.lua", &script("")).unwrap();
    assert_eq!(floats.map.hash64(), integers.map.hash64());
    assert_eq!((floats.map.width(), floats.map.height()), (30, 20));
    let err = scratch
        .run("half.lua", &script(".5"))
        .expect_err("30.5 is no size");
    assert!(
        err.message.contains("width must be an integer, got 30.5"),
        "{}",
        err.message
    );
}

/// `m.tiles.png` and `./m.tiles.png` are one file: two outputs that would
/// write it differently are refused as bad usage (however they are spelled
/// and in whichever order), nothing written; two that agree write it once.
#[test]
fn two_outputs_that_are_one_file_are_caught_however_spelled() {
    let scratch = Scratch::new();
    let rooms = crate::util::root().join("scripts/rooms.lua");
    let run_with = |outs: &[&str]| {
        let mut args = vec![rooms.to_str().unwrap(), "--seed", "1"];
        for out in outs {
            args.extend(["--out", out]);
        }
        dunlua_in(scratch.path(), &args)
    };
    for (outs, says) in [
        (
            &["m.tmx", "./m.tiles.png"][..],
            "--out ./m.tiles.png: two outputs would write ./m.tiles.png differently",
        ),
        (
            &["./m.tiles.png", "m.tmx"][..],
            "--out m.tmx: two outputs would write m.tiles.png differently",
        ),
        (
            &["m.tmx", "m.tiles.png"][..],
            "--out m.tiles.png: two outputs would write m.tiles.png differently",
        ),
    ] {
        let run = run_with(outs);
        assert_eq!(run.code, 2, "{outs:?}: {}", run.stderr);
        assert_eq!(run.stderr, format!("dunlua: {says}\n"), "{outs:?}");
        assert!(crate::util::files_in(scratch.path()).is_empty(), "{outs:?}");
    }
    let run = run_with(&["a.json", "./a.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "dunlua: wrote a.json\n");
    assert_eq!(crate::util::files_in(scratch.path()), ["a.json"]);
}

/// A scratch folder holding `scripts/rooms.lua` as `name` and the `lib/`
/// modules it requires beside it.
fn rooms_as(name: &str) -> Scratch {
    let scratch = Scratch::new();
    let scripts = crate::util::root().join("scripts");
    let text = std::fs::read_to_string(scripts.join("rooms.lua")).unwrap();
    scratch.write(name, &text);
    for module in std::fs::read_dir(scripts.join("lib")).unwrap() {
        let module = module.unwrap();
        let text = std::fs::read_to_string(module.path()).unwrap();
        scratch.write(
            &format!("lib/{}", module.file_name().to_string_lossy()),
            &text,
        );
    }
    scratch
}

/// `sheet --out` and `check --html` never replace the script, by any
/// name: refused before any seed runs, as --out and --catalog are.
#[test]
fn a_sheet_or_an_html_report_never_replaces_the_script() {
    let scratch = rooms_as("x.png");
    std::fs::hard_link(scratch.path().join("x.png"), scratch.path().join("y.png")).unwrap();
    let script = std::fs::read(scratch.path().join("x.png")).unwrap();
    for out in ["x.png", "./x.png", "y.png"] {
        let run = dunlua_in(
            scratch.path(),
            &["sheet", "x.png", "--seeds", "0..2", "--out", out],
        );
        assert_eq!(run.code, 2, "{out}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("dunlua: --out {out}: is the script itself\n")
        );
        assert_eq!(std::fs::read(scratch.path().join("x.png")).unwrap(), script);
    }
    let scratch = rooms_as("r.html");
    let script = std::fs::read(scratch.path().join("r.html")).unwrap();
    for html in ["r.html", "./r.html", "lib/../r.html"] {
        let run = dunlua_in(
            scratch.path(),
            &["check", "r.html", "--seeds", "0..3", "--html", html],
        );
        assert_eq!(run.code, 2, "{html}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("dunlua: --html {html}: is the script itself\n")
        );
        assert_eq!(run.stdout, "", "no seed ran");
        assert_eq!(
            std::fs::read(scratch.path().join("r.html")).unwrap(),
            script
        );
    }
}

/// `--save-failures` names a folder: a file there is refused before any
/// seed runs, and the folder is made only when a failure is saved in it.
#[test]
fn save_failures_is_a_folder_made_only_for_a_failure() {
    let scratch = rooms_as("ok.lua");
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "ok.lua",
            "--seeds",
            "0..2",
            "--save-failures",
            "ok.lua",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "dunlua: --save-failures ok.lua: is a file, not a folder\n"
    );
    assert_eq!(run.stdout, "", "no seed ran");
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "ok.lua",
            "--seeds",
            "0..2",
            "--save-failures",
            "a/b/c",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !scratch.path().join("a").exists(),
        "nothing failed, no folder"
    );
    scratch.write("bad.lua", &script_with("error('always')"));
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "bad.lua",
            "--seeds",
            "0..1",
            "--save-failures",
            "a/b",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        crate::util::files_in(&scratch.path().join("a/b")),
        ["bad-0.txt"]
    );
}

/// `dunlua new NAME` writes NAME.lua whatever dots NAME holds, and refuses
/// a name that would read as a flag or break the script's first line.
#[test]
fn new_writes_name_dot_lua_and_refuses_names_that_would_not_work() {
    let scratch = Scratch::new();
    for (name, file) in [
        ("my.dungeon", "my.dungeon.lua"),
        ("v1.2", "v1.2.lua"),
        ("x.lua", "x.lua"),
        ("Cave.LUA", "Cave.LUA"),
    ] {
        let run = dunlua_in(scratch.path(), &["new", name]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(scratch.path().join(file).is_file(), "{name}");
        let run = dunlua_in(scratch.path(), &[file, "--seed", "1", "--hash"]);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
    }
    assert_eq!(
        crate::util::files_in(scratch.path()),
        ["Cave.LUA", "my.dungeon.lua", "v1.2.lua", "x.lua"]
    );
    for (name, says) in [
        (
            "-p",
            "dunlua: new -p: a script name cannot start with '-' (it would read as a flag)\n",
        ),
        (
            "nl\nx",
            "dunlua: new nl\\nx: a script name cannot hold a control character\n",
        ),
        (
            ".lua",
            "dunlua: new .lua: the script needs a name before .lua\n",
        ),
        (
            ".Lua",
            "dunlua: new .Lua: the script needs a name before .lua\n",
        ),
    ] {
        let run = dunlua_in(scratch.path(), &["new", "--", name]);
        assert_eq!(run.code, 2, "{name:?}: {}", run.stderr);
        assert_eq!(run.stderr, says);
    }
    assert_eq!(
        crate::util::files_in(scratch.path()).len(),
        4,
        "nothing written"
    );
    // The "try it" line runs as printed, whatever the name holds.
    let run = dunlua_in(scratch.path(), &["new", "my cave"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with("dunlua: try it: dunlua 'my cave.lua' --seed 1\n"),
        "{}",
        run.stderr
    );
}

/// A file where a folder should be, or a folder where a file should be,
/// is said to be that, not "does not exist" or an OS error.
#[test]
fn a_file_for_a_folder_or_a_folder_for_a_file_is_named_as_such() {
    let scratch = rooms_as("ok.lua");
    std::fs::create_dir(scratch.path().join("dir.lua")).unwrap();
    for (args, says) in [
        (
            &["ok.lua", "--seed", "1", "--out", "ok.lua/x.json"][..],
            "--out ok.lua/x.json: ok.lua is a file, not a folder",
        ),
        (
            &["ok.lua", "--seed", "1", "--out", "dir.lua/"][..],
            "--out dir.lua/: is a folder",
        ),
        (
            &["ok.lua", "--seed", "1", "--out", "dir.lua"][..],
            "--out dir.lua: is a folder",
        ),
        (
            &["ok.lua", "--seed", "1", "--out", "x.json/"][..],
            "--out x.json/: names a folder (it ends in a separator), not a file",
        ),
        (
            &["ok.lua", "--seed", "1", "--hash", "--save-dir", "ok.lua"][..],
            "--save-dir ok.lua: is a file, not a folder",
        ),
        (
            &["check", "ok.lua", "--html", "ok.lua/r.html"][..],
            "--html ok.lua/r.html: ok.lua is a file, not a folder",
        ),
        (
            &["check", "ok.lua", "--html", "dir.lua/r.html/"][..],
            "--html dir.lua/r.html/: names a folder (it ends in a separator), not a file",
        ),
        (
            &["sheet", "ok.lua", "--out", "ok.lua/s.png"][..],
            "--out ok.lua/s.png: ok.lua is a file, not a folder",
        ),
    ] {
        let run = dunlua_in(scratch.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, format!("dunlua: {says}\n"), "{args:?}");
    }
    assert_eq!(
        crate::util::files_in(scratch.path()),
        ["dir.lua", "lib", "ok.lua"]
    );
    assert!(crate::util::files_in(&scratch.path().join("dir.lua")).is_empty());
}

/// A negative number is a value, checked by its flag's own check and
/// named in its message, not an unknown flag (`unexpected argument '-5'`).
#[test]
fn negative_values_reach_their_flags_check() {
    for (args, says) in [
        (
            &["scripts/rooms.lua", "--size", "-5x10"][..],
            "invalid value '-5x10' for '--size <WxH>': width and height must be 1..=10000, got -5x10",
        ),
        (
            &["scripts/rooms.lua", "--levels", "-1"][..],
            "invalid value '-1' for '--levels <N>': -1 is not in 1..=32",
        ),
        (
            &["scripts/rooms.lua", "--timeout", "-1"][..],
            "invalid value '-1' for '--timeout <SECONDS>': \"-1\" is not a number of seconds from 0 to 86400",
        ),
        (
            &["check", "scripts/rooms.lua", "--near", "-0.1"][..],
            "invalid value '-0.1' for '--near <SHARE>': expected a share of cells above 0 and at most 0.5 (0.05 is 5%), got '-0.1'",
        ),
        (
            &["check", "scripts/rooms.lua", "--seeds", "-1..5"][..],
            "invalid value '-1..5' for '--seeds <RANGE>': expected seeds as A..B, A..=B or N, got '-1..5'",
        ),
        (
            &["check", "scripts/rooms.lua", "--jobs", "-1"][..],
            "invalid value '-1' for '--jobs <N>': -1 is not in 1..=1024",
        ),
        (
            &["bench", "scripts/rooms.lua", "--count", "-1"][..],
            "invalid value '-1' for '--count <N>': -1 is not in 1..=100000000",
        ),
        (
            &["bench", "scripts/rooms.lua", "--count", "1.5"][..],
            "invalid value '1.5' for '--count <N>': expected a whole number of maps in 1..=100000000, got '1.5'",
        ),
    ] {
        let run = dunlua(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with(&format!("dunlua: {says}")),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

/// A usage error inside a command points at that command's help; a second
/// script is named as the stray argument it is, with the script the run
/// took (clap said "the subcommand 'extra.lua' cannot be used with
/// <SCRIPT>").
#[test]
fn usage_errors_point_at_the_right_help_and_name_a_stray_script() {
    for (args, says) in [
        (
            &["sheet", "scripts/rooms.lua", "--out", "s.png", "--thumb", "3"][..],
            "dunlua: invalid value '3' for '--thumb <PX>': 3 is not in 16..=2000 (see dunlua sheet --help)\n",
        ),
        (
            &["bench", "scripts/rooms.lua", "--zzzz"][..],
            "dunlua: unexpected argument '--zzzz' found (see dunlua bench --help)\n",
        ),
        (
            &["scripts/rooms.lua", "--seed", "1", "--ascii", "extra.lua"][..],
            "dunlua: unexpected argument 'extra.lua' (one script a run: scripts/rooms.lua) (see dunlua --help)\n",
        ),
        (
            &["--seed", "1", "scripts/rooms.lua", "extra.lua"][..],
            "dunlua: unexpected argument 'extra.lua' (one script a run: scripts/rooms.lua) (see dunlua --help)\n",
        ),
        // `--size` took `--seed` for its value and left `1` over: the size
        // is what to fix.
        (
            &["scripts/rooms.lua", "--size", "--seed", "1"][..],
            "dunlua: invalid value '--seed' for '--size <WxH>': expected WxH such as 80x50, got '--seed' (see dunlua --help)\n",
        ),
    ] {
        let run = dunlua(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, says, "{args:?}");
    }
}

/// A Tiled or LDtk map names the files beside it in its text: an output
/// name that is not UTF-8 is refused up front (it gave the side files a
/// U+FFFD name the map could not point at); other formats write it as is.
#[cfg(unix)]
#[test]
fn a_tiled_output_named_in_bytes_that_are_not_utf8_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new();
    let rooms = crate::util::root().join("scripts/rooms.lua");
    let run = |name: &[u8]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_dunlua"))
            .arg(&rooms)
            .args(["--seed", "1", "--out"])
            .arg(std::ffi::OsStr::from_bytes(name))
            .current_dir(scratch.path())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    for (name, kind) in [
        (&b"m\xff.tmx"[..], "Tiled"),
        (b"m\xff.tmj", "Tiled"),
        (b"m\xff.ldtk", "LDtk"),
    ] {
        let (code, stderr) = run(name);
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(
            stderr,
            format!("dunlua: --out m\u{fffd}.{}: a {kind} file names its tileset files in its text, so its own name must be UTF-8\n",
                String::from_utf8_lossy(&name[3..]))
        );
        assert!(std::fs::read_dir(scratch.path()).unwrap().next().is_none());
    }
    let (code, stderr) = run(b"m\xff.json");
    assert_eq!(code, Some(0), "{stderr}");
}

/// The reference scripts refuse a size or a parameter they cannot use with
/// one line in the user's terms (the size, or `need ... got ...`), never an
/// API error from deep inside (`rng:int: n must be ...`, `Rect.new: w must
/// be at least 1`, `map:get: cell ... is outside`, indexing nil); running
/// out of attempts on a reject (`fewer than 3 rooms`) is fine too.
#[test]
fn reference_scripts_name_a_size_or_parameter_they_cannot_use() {
    let sizes = [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (8, 8),
        (10, 10),
        (12, 12),
        (16, 16),
        (20, 20),
        (40, 1),
        (1, 40),
    ];
    let cases: Vec<(&str, Vec<&str>)> = [
        "caves",
        "crypt",
        "digger",
        "drunkard",
        "graph_dungeon",
        "keys",
        "lakes",
        "levels",
        "maze",
        "river",
        "wfc_caves",
    ]
    .into_iter()
    .map(|s| (s, vec![]))
    .chain([
        ("river", vec!["banks=100"]),
        ("river", vec!["banks=-1"]),
        ("river", vec!["meander=-5"]),
        ("river", vec!["woods=-1"]),
        ("lakes", vec!["lake_level=1"]),
        ("lakes", vec!["lake_level=0"]),
        ("lakes", vec!["min_size=0"]),
        ("keys", vec!["min_size=11"]),
        ("maze", vec!["stairs=false"]),
    ])
    .collect();
    for (name, params) in &cases {
        let script = format!("scripts/{name}.lua");
        let at_default = params.is_empty();
        for &(w, h) in sizes
            .iter()
            .chain(if at_default { &[][..] } else { &[(80, 50)][..] })
        {
            let size = format!("{w}x{h}");
            for seed in 0..3 {
                let mut request = crate::util::request(crate::util::root().join(&script), seed);
                request.size = Some((w, h));
                request.params = params.iter().map(|s| s.to_string()).collect();
                let Err(e) = dunlua::script::run_levels(&request) else {
                    continue;
                };
                let text = e.to_string();
                let first = text.lines().next().unwrap_or_default();
                for raw in ["rng:", "Rect.new", "map:", "attempt to", "graph:", "nil"] {
                    assert!(
                        !first.contains(raw),
                        "{script} {params:?} at {size}, seed {seed}: an API error, not the script's own: {first}"
                    );
                }
                assert!(
                    first.contains(&size)
                        || first.contains("need ")
                        || first.contains("attempts were rejected"),
                    "{script} {params:?} at {size}, seed {seed}: names neither the size nor a parameter: {first}"
                );
            }
        }
    }
}

/// A reference script refuses a size or parameter it cannot use with one
/// line, exit 1, located at the script's own line (never inside
/// `scripts/lib/`) and naming the parameter or the size in the user's
/// terms. Each row failed before: a nil index, an integer overflow, an
/// API error in the API's terms, a line inside `lib/features.lua`, or a
/// guard passed and every attempt rejected.
#[test]
fn reference_scripts_refuse_bad_input_at_their_own_line() {
    #[rustfmt::skip]
    let cases: &[(&str, &[&str], u32, &str)] = &[
        // lib/features.lua's stairs name the script's call to features.add.
        ("rooms", &["-p", "features=true", "-p", "max_rooms=0", "-p", "min_size=2", "-p", "max_size=2"], 67, "no room for stairs on the 80x50 map"),
        // No try at all left rooms[1] nil ("attempt to index a nil value").
        ("rooms_jsrlt", &["-p", "max_rooms=0"], 28, "need max_rooms >= 1, got 0"),
        ("rooms_malwoden", &["-p", "max_rooms=0"], 30, "need max_rooms >= 1, got 0"),
        ("rooms_yeti", &["-p", "max_rooms=-3"], 48, "need max_rooms >= 1, got -3"),
        ("vaults", &["-p", "max_rooms=-1"], 70, "need max_rooms >= 0, got -1"),
        ("mixed", &["-p", "max_rooms=-1"], 26, "need max_rooms >= 0, got -1"),
        // Overflows and API errors in the API's terms.
        ("river", &["-p", "bridges=9223372036854775807"], 35, "need 0 <= bridges <= 10000, got 9223372036854775807"),
        ("levels", &["-p", "per_room=9223372036854775807"], 38, "need 0 <= per_room <= 10000, got 9223372036854775807"),
        ("bsp", &["-p", "min_room=9223372036854775807"], 72, "need 3 <= min_room < min_leaf, got min_room 9223372036854775807, min_leaf 10"),
        ("mixed", &["-p", "cave=1e308"], 32, "need 0 <= cave < 1, got 1e+308"),
        ("mixed", &["-p", "cave=1"], 32, "need 0 <= cave < 1, got 1.0"),
        ("mixed", &["-p", "cave=0.9"], 39, "a 72x45 cave (cave = 0.9) leaves no room of min_size 6 beside it on a 80x50 map"),
        ("digger", &["-p", "loops=0"], 51, "need 1 <= loops <= 10000"),
        ("digger", &["-p", "secret=1e308"], 54, "need 0 <= secret <= 1, got 1e+308"),
        // Level 3 found no pit above; one level had no exit.
        ("crypt", &["--levels", "1"], 85, "it needs --levels 2, got 1"),
        ("crypt", &["--levels", "3"], 85, "it needs --levels 2, got 3"),
        // Sizes the old guards let through and every attempt failed on.
        ("drunkard", &["--size", "3x3"], 30, "a 3x3 map at floor_ratio 0.4 digs 1 cell, and stairs need 2"),
        ("drunkard", &["--size", "4x4"], 30, "a 4x4 map at floor_ratio 0.4 digs 1 cell, and stairs need 2"),
        ("caves", &["--size", "5x5"], 31, "a 5x5 map leaves at most 5 cells for a cave, fewer than min_region = 12"),
        ("caves", &["--size", "7x5"], 31, "a 7x5 map leaves at most 11 cells for a cave, fewer than min_region = 12"),
        ("wfc_caves", &["--size", "10x10"], 48, "wfc caves need at least 8x8 cells and one side of 16 or more (the sample's), got 10x10"),
        ("wfc_caves", &["--size", "15x15"], 48, "got 15x15"),
        ("graph_dungeon", &["--size", "5x5"], 70, "a 5x5 map is too small for the graph dungeon: the boss room alone is 11x7"),
        ("graph_dungeon", &["--size", "10x10"], 70, "a 10x10 map is too small for the graph dungeon"),
        ("graph_dungeon", &["-p", "corridor_min=0"], 73, "need 1 <= corridor_min <= corridor_max <= 60 (the map's longest side), got 0 and 6"),
    ];
    for (name, args, line, expected) in cases {
        let script = format!("scripts/{name}.lua");
        for seed in ["0", "1", "2"] {
            let mut all = vec![script.as_str(), "--seed", seed, "--hash"];
            all.extend_from_slice(args);
            let run = dunlua(&all);
            let first = run.stderr.lines().next().unwrap_or_default();
            let at = format!("dunlua: {script}:{line}: ");
            assert!(
                run.code == 1 && first.starts_with(&at) && first.contains(expected),
                "{script} {args:?} seed {seed}: expected exit 1 and {at}...{expected}, got exit {}:\n{}",
                run.code,
                run.stderr
            );
        }
    }
}

/// `lib/spawn.lua`'s `populate` on a room with no cell inside its walls
/// raised `rng:range: empty range 6..5` inside the library, and without
/// its options table `attempt to index a nil value (local 'opts')`; a bad
/// `per_room` is said at the script's call.
#[test]
fn spawn_populate_takes_thin_rooms_and_no_options() {
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.path().join("lib")).unwrap();
    std::fs::copy(
        crate::util::root().join("scripts/lib/spawn.lua"),
        scratch.path().join("lib/spawn.lua"),
    )
    .unwrap();
    let script = |tail: &str| {
        format!(
            "local spawn = require('lib.spawn')\n\
             return {{ width = 20, height = 20, generate = function(map, rng)\n\
               map:fill('floor') map:set_start(0, 0)\n\
               map:add_room(Rect.new(1, 1, 4, 4)) map:add_room(Rect.new(6, 6, 1, 1))\n\
               map:add_room(Rect.new(9, 9, 6, 6))\n\
               {tail}\n\
             end }}\n"
        )
    };
    scratch.write(
        "ok.lua",
        &script("spawn.populate(map, rng, { per_room = 3 }) spawn.populate(map, rng)"),
    );
    let run = dunlua_in(scratch.path(), &["ok.lua", "--seed", "1", "--hash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A thin room still draws its count of tries: a map made before (the
    // draw came out 0) is the same map (hash from the library before).
    scratch.write(
        "thin.lua",
        "local spawn = require('lib.spawn')\n\
         return { width = 40, height = 20, generate = function(map, rng)\n\
           map:fill('wall')\n\
           local rs = { Rect.new(1,1,8,6), Rect.new(12,1,1,8), Rect.new(16,1,8,6), Rect.new(26,8,8,6) }\n\
           for _, r in ipairs(rs) do map:fill_rect(r, 'floor') map:add_room(r) end\n\
           map:set_start(2,2)\n\
           spawn.populate(map, rng, { per_room = 1 })\n\
         end }\n",
    );
    let run = dunlua_in(scratch.path(), &["thin.lua", "--seed", "4", "--hash"]);
    assert_eq!(run.stdout.trim(), "959f32a9a8443743", "{}", run.stderr);
    scratch.write(
        "bad.lua",
        &script("spawn.populate(map, rng, { per_room = -1 })"),
    );
    let run = dunlua_in(scratch.path(), &["bad.lua", "--seed", "1", "--hash"]);
    assert!(
        run.stderr.starts_with(
            "dunlua: bad.lua:6: spawn.populate: per_room must be a whole number 0..4294967295, got -1"
        ),
        "{}",
        run.stderr
    );
}
