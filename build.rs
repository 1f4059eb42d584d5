//! Compiles dunlua's copies of Lua 5.4.9's string, table and utf8 libraries,
//! patched to charge their work to the script's budget (see
//! `src/script/raw/c/dunlua_charge.h`). They link against the Lua that
//! mlua vendors, built with the same `luaconf.h` and defines.

fn main() {
    let dir = "src/script/raw/c";
    let mut build = cc::Build::new();
    build.include(dir).define("LUA_COMPAT_5_3", None);
    match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
        Ok("linux") => build.define("LUA_USE_LINUX", None),
        Ok("macos") => build.define("LUA_USE_MACOSX", None),
        Ok("windows") => build.define("LUA_USE_WINDOWS", None),
        _ => build.define("LUA_USE_POSIX", None),
    };
    // Pattern matching is hot in tests too; optimise it in every profile,
    // as Cargo.toml does for the vendored Lua.
    build.opt_level(3);
    for file in ["lstrlib.c", "ltablib.c", "lutf8lib.c"] {
        build.file(format!("{dir}/{file}"));
    }
    println!("cargo:rerun-if-changed={dir}");
    build.compile("dunlua_lualibs");
}
