//! Builds the Lua 5.4.9 that dunlua runs (`src/script/raw/lua/`, the
//! sources as the `lua-src` crate ships them, with a fixed string hash seed
//! in `lstate.c`) with dunlua's copies of its string, table and utf8
//! libraries in place of the stock ones, patched to charge their work to
//! the script's budget (see `src/script/raw/c/dunlua_charge.h`). mlua links against this Lua
//! (`mlua-sys`'s `external` feature): whatever builds the crate (this
//! workspace, another one depending on it, its published tarball, maturin)
//! builds the same interpreter, so the same seed makes the same map.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let configure = |build: &mut cc::Build| {
        build.define("LUA_COMPAT_5_3", None);
        match target_os.as_str() {
            "linux" => build.define("LUA_USE_LINUX", None),
            "macos" => build.define("LUA_USE_MACOSX", None),
            "windows" => build.define("LUA_USE_WINDOWS", None),
            _ => build.define("LUA_USE_POSIX", None),
        };
        // The interpreter and pattern matching are hot in tests too;
        // optimise them in every profile.
        build.opt_level(3);
        // A float expression computes the same bits on every target: C
        // compilers may fuse `a * b + c` into one rounding where the CPU
        // has fused multiply-add (arm64: Apple Silicon, phones), unlike
        // x86-64 and unlike Rust, which never fuses.
        build.flag_if_supported("-ffp-contract=off");
    };

    let core = "src/script/raw/lua";
    let mut lua = cc::Build::new();
    configure(&mut lua);
    lua.include(core)
        .warnings(false)
        .flag_if_supported("-fno-common");
    if std::env::var("PROFILE").as_deref() == Ok("debug") {
        // Lua's API checks, as the vendored build had in test builds.
        lua.define("LUA_USE_APICHECK", None);
    }
    for entry in std::fs::read_dir(core).expect("the Lua sources") {
        let path = entry.expect("a Lua source").path();
        if path.extension().is_some_and(|e| e == "c") {
            lua.file(path);
        }
    }
    lua.compile("dunlua_lua54");

    // The charged libraries are the only string, table and utf8 libraries
    // built (`luaopen_string` and the others are theirs; without a guard,
    // as in a state the host did not make, they charge nothing).
    let dir = "src/script/raw/c";
    let mut libs = cc::Build::new();
    configure(&mut libs);
    libs.include(core).include(dir);
    for file in ["lstrlib.c", "ltablib.c", "lutf8lib.c"] {
        libs.file(format!("{dir}/{file}"));
    }
    libs.compile("dunlua_lualibs");

    println!("cargo:rerun-if-changed={core}");
    println!("cargo:rerun-if-changed={dir}");
}
