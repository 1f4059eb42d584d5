//! Every build of the crate makes the same maps: a game crate outside this
//! workspace (tests/dependent_game), depending on dunlua by path with no
//! `.cargo/config.toml` and a `CFLAGS` of its own, prints the same hash as
//! the command for a script whose map follows `pairs()` order (which
//! depends on Lua's string hash seed: dunlua's own Lua fixes it).

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
    let script = scratch.write("pairs.lua", PAIRS_SCRIPT);
    // Its own target folder (not this workspace's, whose lock the running
    // test holds), kept between runs under target/ so CI builds it once.
    let target = root().join("target/dependent-game");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(game.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        // A user's own C flags: they must not change the seed.
        .env("CFLAGS", "-O1")
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
    for seed in [1u64, 7] {
        let out = Command::new(target.join("debug/dependent-game"))
            .arg(&script)
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
            &["pairs.lua", "--seed", &seed.to_string(), "--hash"],
        );
        assert_eq!(cli.code, 0, "{}", cli.stderr);
        assert_eq!(game_hash, cli.stdout.trim(), "seed {seed}");
    }
}
