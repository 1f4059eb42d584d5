//! The LuaJIT peer of the speed comparison (benches/rooms_luajit.lua, its
//! RNG on ffi 64-bit integers) makes exactly rooms.lua's maps: the same
//! text for the first seeds and the same checksums as `dunlua bench` over
//! 1000. Skipped when there is no `luajit` (or `$LUAJIT`), except under CI
//! (`CI` set), where a missing LuaJIT fails.

use std::process::Command;

use dunlua::script::{Request, Session};

use crate::util::{generate, root};

fn luajit() -> Option<String> {
    let exe = std::env::var("LUAJIT").unwrap_or_else(|_| "luajit".into());
    match Command::new(&exe).arg("-v").output() {
        Ok(out) if out.status.success() => Some(exe),
        _ if std::env::var_os("CI").is_some() => {
            panic!("CI is set but there is no LuaJIT to run ({exe}); install luajit or set LUAJIT")
        }
        _ => None,
    }
}

fn peer(exe: &str, args: &[&str]) -> String {
    let out = Command::new(exe)
        .arg(root().join("benches/rooms_luajit.lua"))
        .args(args)
        .output()
        .expect("luajit runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn luajit_rooms_match_rooms_lua() {
    let Some(exe) = luajit() else {
        eprintln!("no luajit: the LuaJIT peer is not checked");
        return;
    };
    for seed in 0..20u64 {
        let text = peer(&exe, &["--map", &seed.to_string()]);
        let host = generate("scripts/rooms.lua", seed, &[]).unwrap();
        assert_eq!(text, host.map.to_string(), "seed {seed}");
    }
    let line = peer(&exe, &["1000"]);
    let session = Session::new(&Request::new(root().join("scripts/rooms.lua"), 0)).unwrap();
    let totals = session.bench(1000).unwrap();
    let want = format!("floors={} rooms={}", totals.floors, totals.rooms);
    assert_eq!(
        want, "floors=981956 rooms=14004",
        "the checksums in the guide's Performance chapter"
    );
    assert!(
        line.starts_with(&format!("maps=1000 size=80x50 {want} ")),
        "{line}"
    );
}
