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
