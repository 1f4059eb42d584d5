//! Every build of the crate makes the same maps: a game crate outside this
//! workspace (tests/dependent_game), depending on dunlua by path with no
//! `.cargo/config.toml` and a `CFLAGS` of its own (`-ffast-math` among
//! them), prints the same hash as the command for a script whose map
//! follows `pairs()` order (which depends on Lua's string hash seed:
//! dunlua's own Lua fixes it) and for one whose map follows what NaN
//! compares and indexes as (which fast math changes: build.rs undoes it).

use std::process::Command;

use crate::util::{dunlua_in, root, Scratch};

const PAIRS_SCRIPT: &str = r#"
local weights = { alpha = 1, beta = 2, gamma = 3, delta = 4, epsilon = 5, zeta = 6,
  eta = 7, theta = 8, iota = 9, kappa = 10, lambda = 11, mu = 12 }
return { generate = function(map, rng)
  local s, i = 0, 0
  for _, w in pairs(weights) do i = i + 1 s = s + i * w end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + s % 40, 4 + s % 7))
  map:set_start(2, 2)
end }
"#;

/// Under `-ffast-math` (finite math only) `nan ~= nan` was false and
/// `t[0/0] = 1` raised no error: the room's width says what Lua saw.
const NAN_SCRIPT: &str = r#"
return { generate = function(map, rng)
  local nan = 0/0
  local w = 3
  if nan ~= nan then w = w + 1 end
  if not (nan == nan) then w = w + 2 end
  if not (nan < 1) and not (nan >= 1) then w = w + 4 end
  if not pcall(function() local t = {} t[nan] = 1 end) then w = w + 8 end
  if math.huge - math.huge ~= math.huge - math.huge then w = w + 16 end
  local z = -0.0
  if 1 / z < 0 then w = w + 32 end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, w, 3))
  map:set_start(2, 2)
end }
"#;

#[test]
fn a_game_outside_the_workspace_makes_the_commands_maps() {
    let scratch = Scratch::new();
    let game = scratch.path().join("game");
    std::fs::create_dir_all(game.join("src")).unwrap();
    let manifest = std::fs::read_to_string(root().join("tests/dependent_game/Cargo.toml.in"))
        .unwrap()
        .replace("@DUNLUA@", &root().display().to_string());
    std::fs::write(game.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(
        root().join("tests/dependent_game/src/main.rs"),
        game.join("src/main.rs"),
    )
    .unwrap();
    // The same versions as this workspace, from the local registry cache.
    std::fs::copy(root().join("Cargo.lock"), game.join("Cargo.lock")).unwrap();
    scratch.write("pairs.lua", PAIRS_SCRIPT);
    scratch.write("nan.lua", NAN_SCRIPT);
    // Its own target folder (not this workspace's, whose lock the running
    // test holds), kept between runs under target/ so CI builds it once.
    let target = root().join("target/dependent-game");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(game.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        // A user's own C flags: they must not change the seed, nor what
        // Lua computes.
        .env("CFLAGS", "-O1 -ffast-math")
        .env_remove("HOST_CFLAGS")
        .env_remove("TARGET_CFLAGS")
        .current_dir(&game)
        .output()
        .expect("cargo runs");
    assert!(
        built.status.success(),
        "the game does not build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    for (name, seed) in [("pairs.lua", 1u64), ("pairs.lua", 7), ("nan.lua", 1)] {
        let out = Command::new(target.join("debug/dependent-game"))
            .arg(scratch.path().join(name))
            .arg(seed.to_string())
            .output()
            .expect("the game runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let game_hash = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let cli = dunlua_in(
            scratch.path(),
            &[name, "--seed", &seed.to_string(), "--hash"],
        );
        assert_eq!(cli.code, 0, "{}", cli.stderr);
        assert_eq!(game_hash, cli.stdout.trim(), "{name} seed {seed}");
    }
}
