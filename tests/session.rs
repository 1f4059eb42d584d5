//! Reusing one VM across seeds (check, bench, batches) gives exactly the
//! maps fresh VMs give, and nothing a script does leaks into the next run.

use dunlua::script::{Request, Session};

use crate::util::{generate, root, Scratch};

#[test]
fn a_reused_session_makes_the_same_maps_as_fresh_runs() {
    for script in ["rooms", "caves", "vaults", "bsp", "rooms_yeti"] {
        let path = format!("scripts/{script}.lua");
        let session = Session::new(&Request::new(root().join(&path), 0)).unwrap();
        for seed in 0..40 {
            let reused = session.run(seed).unwrap();
            let fresh = generate(&path, seed, &[]).unwrap();
            assert_eq!(reused.map, fresh.map, "{path} seed {seed}");
            assert_eq!(reused.provenance.seed, seed);
        }
    }
}

#[test]
fn nothing_leaks_from_one_run_to_the_next() {
    let scratch = Scratch::new();
    scratch.write(
        "lib/counter.lua",
        "local M = { n = 0 }\nfunction M.bump() M.n = M.n + 1 return M.n end\nreturn M\n",
    );
    let path = scratch.write(
        "leaky.lua",
        r#"
        local counter = require("lib.counter")
        return { generate = function(map, rng)
          -- Everything a careless script might leave behind.
          assert(LEAK == nil, "a global survived")
          assert(math.leak == nil, "a library field survived")
          assert(string.trim == nil, "a library function survived")
          assert(math.floor ~= nil and string.rep ~= nil, "a deleted library field stayed deleted")
          assert(print ~= nil, "a deleted global stayed deleted")
          -- A library is the run's overlay of the host's: its metatable is
          -- protected, so no script can change it for the next run.
          assert(getmetatable(string) == false, "a library's metatable is not protected")
          assert(counter.bump() == 1, "a module's state survived")
          assert(#tiles.names() == 7, "a tile kind survived")
          LEAK = true
          math.leak = true
          math.floor = nil
          string.rep = nil
          print = nil
          assert(not pcall(setmetatable, string, {}), "a library's metatable changed")
          function string.trim(s) return (s:gsub("^%s+", "")) end
          assert(("  x"):trim() == "x", "a library function added is not a string method")
          assert(string.trim ~= nil and rawget(string, "trim") ~= nil)
          tiles.define("moss", { glyph = "\"", walkable = true })
          map:fill("moss")
          map:set_start(1, 1)
        end }
        "#,
    );
    let session = Session::new(&Request::new(path, 0)).unwrap();
    for seed in 0..5 {
        session
            .run(seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

#[test]
fn the_budget_is_per_run() {
    let scratch = Scratch::new();
    let path = scratch.write(
        "busy.lua",
        "return { generate = function(map) local n = 0 for i = 1, 300000 do n = n + i end map:fill('floor') map:set_start(0, 0) end }\n",
    );
    let mut request = Request::new(path, 0);
    request.limits.max_instructions = 2_000_000;
    let session = Session::new(&request).unwrap();
    for seed in 0..10 {
        session
            .run(seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

#[test]
fn math_random_draws_from_each_runs_own_stream() {
    let scratch = Scratch::new();
    let script = |draws: &str| {
        format!(
            "return {{ width = 60, height = 4, generate = function(map, rng)\n\
               map:fill('wall')\n\
               for y = 0, 3 do {draws} map:set(a, y, 'floor') map:set(b, y, 'floor') map:set(c, y, 'floor') end\n\
               map:set(0, 0, 'floor') map:set_start(0, 0)\n\
             end }}\n"
        )
    };
    let mixed = scratch.write(
        "mixed.lua",
        &script("local a = math.random(0, 59) local b = rng:range(0, 59) local c = math.floor(math.random() * 60)"),
    );
    let plain = scratch.write(
        "plain.lua",
        &script("local a = rng:range(0, 59) local b = rng:range(0, 59) local c = math.floor(rng:float() * 60)"),
    );
    let mixed = Session::new(&Request::new(mixed, 0)).unwrap();
    let plain = Session::new(&Request::new(plain, 0)).unwrap();
    let mut distinct = std::collections::HashSet::new();
    for seed in 0..20 {
        let (a, b) = (mixed.run(seed).unwrap().map, plain.run(seed).unwrap().map);
        assert_eq!(a, b, "seed {seed}");
        distinct.insert(a.to_string());
    }
    assert!(distinct.len() > 15, "the seeds should give different maps");
}

/// The modules a script names literally are read and loaded once, before
/// the first run (each run gets its own closure of them): a module file
/// removed after the session was made still serves every run. One named at
/// run time, or in a comment, is read on first need; a module that does
/// not compile is left to the run, which reports it at the `require` line.
#[test]
fn literally_named_modules_are_loaded_before_the_first_run() {
    let scratch = Scratch::new();
    scratch.write(
        "lib/a.lua",
        "local n = 0\nreturn { bump = function() n = n + 1 return n end }\n",
    );
    scratch.write(
        "lib/b.lua",
        "local a = require('lib.a')\nreturn { twice = function() return a.bump() * 2 end }\n",
    );
    scratch.write("lib/late.lua", "return 7\n");
    scratch.write("lib/commented.lua", "return 1\n");
    scratch.write("lib/broken.lua", "return {\n");
    let path = scratch.write(
        "mods.lua",
        r#"
        local b = require("lib.b")
        -- an old note: require("lib.commented")
        --[[ require "lib.commented" ]]
        return { width = 10, height = 10, generate = function(map, rng, p)
          map:fill("wall")
          map:carve_room(Rect.new(0, 0, 3 + b.twice(), 5))
          map:set_start(1, 1)
          if p.late then map:set(9, 9, "floor"); assert(require("lib." .. "late") == 7) end
          if p.commented then require("lib" .. ".commented") end
          if p.broken then require("lib.broken") end
        end, params = { late = false, commented = false, broken = false } }
        "#,
    );
    let session = |params: &[&str]| {
        let mut request = Request::new(&path, 0);
        request.params = params.iter().map(|p| p.to_string()).collect();
        Session::new(&request).unwrap()
    };
    let (plain, late, commented, broken) = (
        session(&[]),
        session(&["late=true"]),
        session(&["commented=true"]),
        session(&["broken=true"]),
    );
    for gone in [
        "lib/a.lua",
        "lib/b.lua",
        "lib/late.lua",
        "lib/commented.lua",
    ] {
        std::fs::remove_file(scratch.path().join(gone)).unwrap();
    }
    let first = plain.run(1).unwrap();
    let again = plain.run(1).unwrap();
    assert_eq!(first.map, again.map, "each run's module state is its own");
    assert_eq!(first.map.get(2, 1).unwrap(), dunlua::Tile::FLOOR);
    let late = late.run(1).unwrap_err().message;
    assert!(late.contains("module 'lib.late' not found"), "{late}");
    let commented = commented.run(1).unwrap_err().message;
    assert!(
        commented.contains("module 'lib.commented' not found"),
        "{commented}"
    );
    let broken = broken.run(1).unwrap_err().message;
    assert!(
        broken.contains("lib/broken.lua:2:"),
        "the module's own syntax error, from the run: {broken}"
    );
}

/// A game's loader function is called only when a run requires a module,
/// never while the session is being made (a C caller's loader gets the
/// generator's handle, which does not exist yet then).
#[test]
fn a_loader_function_is_called_only_by_runs() {
    use std::sync::{Arc, Mutex};
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = asked.clone();
    let scratch = Scratch::new();
    let path = scratch.write(
        "mods.lua",
        r#"
        local a = require("lib.a")
        return { width = 10, height = 10, generate = function(map)
          map:fill("floor")
          map:set_start(a, 1)
        end }
        "#,
    );
    let mut request = Request::new(&path, 0);
    request.modules = dunlua::script::Modules::Loader(Arc::new(move |relative: &str| {
        log.lock().unwrap().push(relative.to_string());
        Ok((relative == "lib/a.lua").then(|| "return 2".to_string()))
    }));
    let session = Session::new(&request).unwrap();
    assert!(
        asked.lock().unwrap().is_empty(),
        "{:?}",
        asked.lock().unwrap()
    );
    session.run(1).unwrap();
    session.run(2).unwrap();
    assert_eq!(
        *asked.lock().unwrap(),
        ["lib/a.lua"],
        "read once, by the first run"
    );
}

/// An rng reached through another table's `__index` reads its own `seed`
/// (the rng's method table passes the rng, not the table first indexed).
#[test]
fn an_rng_behind_another_tables_index_reads_its_own_seed() {
    let scratch = Scratch::new();
    let path = scratch.write(
        "proxy.lua",
        r#"
        return { width = 10, height = 10, generate = function(map, rng)
          local fork = rng:fork("x")
          local p = setmetatable({}, { __index = fork })
          assert(p.seed == fork.seed and p.seed ~= rng.seed, "the fork's own seed")
          assert(type(p.int) == "function")
          map:fill("floor")
          map:set_start(1, 1)
        end }
        "#,
    );
    Session::new(&Request::new(&path, 0))
        .unwrap()
        .run(3)
        .unwrap();
}
