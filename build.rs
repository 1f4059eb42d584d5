//! Builds the Lua 5.4.9 that dunlua runs (`src/script/raw/lua/`, the
//! sources as the `lua-src` crate ships them, with a fixed string hash seed
//! in `lstate.c`) with dunlua's copies of its string, table and utf8
//! libraries in place of the stock ones, patched to charge their work to
//! the script's budget (see `src/script/raw/c/dunlua_charge.h`). mlua links against this Lua
//! (`mlua-sys`'s `external` feature): whatever builds the crate (this
//! workspace, another one depending on it, its published tarball, maturin)
//! builds the same interpreter, so the same seed makes the same map.

use std::path::{Path, PathBuf};

/// C flags that undo a user's `-ffast-math` and the like (in `CFLAGS`,
/// `-Ofast`): each changes what Lua computes (`nan ~= nan` false, `t[0/0]`
/// accepted, sums reassociated). They go after the user's flags on the
/// command line (see `user_cflags`), where the last one wins.
const EXACT_MATH: [&str; 9] = [
    "-fno-fast-math",
    "-fno-unsafe-math-optimizations",
    "-fno-associative-math",
    "-fno-reciprocal-math",
    "-fno-finite-math-only",
    "-fsigned-zeros",
    "-ftrapping-math",
    "-fno-cx-limited-range",
    // A float expression computes the same bits on every target: C
    // compilers may fuse `a * b + c` into one rounding where the CPU
    // has fused multiply-add (arm64: Apple Silicon, phones), unlike
    // x86-64 and unlike Rust, which never fuses.
    "-ffp-contract=off",
];

/// The user's C flags, as the `cc` crate reads them (`CFLAGS`, then
/// `TARGET_CFLAGS` or `HOST_CFLAGS`, then `CFLAGS_<target>`), taken out of
/// the environment: `cc` puts the environment's flags after a build's own,
/// so that they win; given to the build as its own flags instead, they go
/// before [`EXACT_MATH`]. `None` (the environment left alone) when
/// `CC_SHELL_ESCAPED_FLAGS` asks `cc` to split them as a shell would.
fn user_cflags() -> Option<Vec<String>> {
    if std::env::var_os("CC_SHELL_ESCAPED_FLAGS").is_some() {
        return None;
    }
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    let kind = if target == host { "HOST" } else { "TARGET" };
    let names = [
        "CFLAGS".to_string(),
        format!("{kind}_CFLAGS"),
        format!("CFLAGS_{}", target.replace('-', "_")),
        format!("CFLAGS_{target}"),
    ];
    let mut flags = Vec::new();
    for name in names {
        if let Some(value) = std::env::var_os(&name) {
            flags.extend(
                value
                    .to_string_lossy()
                    .split_ascii_whitespace()
                    .map(str::to_string),
            );
        }
        println!("cargo:rerun-if-env-changed={name}");
    }
    for name in [
        "CFLAGS",
        "HOST_CFLAGS",
        "TARGET_CFLAGS",
        &format!("CFLAGS_{}", target.replace('-', "_")),
        &format!("CFLAGS_{target}"),
    ] {
        // SAFETY: a build script's one thread, before any compiler runs.
        #[allow(unused_unsafe)]
        unsafe {
            std::env::remove_var(name)
        };
    }
    Some(flags)
}

/// Every file under `dir` (hidden ones and editors' `~` backups aside),
/// by its path from the crate, sorted.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with('~') {
            continue;
        }
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The engine's identity (`DUNLUA_ENGINE`, which `dunlua check` writes
/// into its shards): FNV-1a 64 over the path (from the crate, `/`
/// separated) and bytes (`\r\n` read as `\n`, as a Windows checkout has
/// them) of every source that could change a map, in path order: `src/`
/// (the vendored Lua with it), `build.rs`, `Cargo.toml`, `Cargo.lock`.
/// Content only, no times: the same sources give the same identity on
/// every machine.
fn engine_identity() -> String {
    let mut paths = Vec::new();
    files_under(Path::new("src"), &mut paths);
    for file in ["build.rs", "Cargo.toml", "Cargo.lock"] {
        if Path::new(file).is_file() {
            paths.push(PathBuf::from(file));
        }
    }
    let mut named: Vec<(String, PathBuf)> = paths
        .into_iter()
        .map(|p| (p.to_string_lossy().replace('\\', "/"), p))
        .collect();
    named.sort();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (name, path) in &named {
        let bytes = std::fs::read(path).expect("a source of the engine");
        eat(name.as_bytes());
        eat(&[0]);
        // The length as read with CRLF as LF, as the bytes are hashed.
        let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
        eat(&((bytes.len() - crlf) as u64).to_le_bytes());
        let mut rest = &bytes[..];
        while let Some(at) = rest.windows(2).position(|w| w == b"\r\n") {
            eat(&rest[..at]);
            rest = &rest[at + 1..];
        }
        eat(rest);
        eat(&[0]);
    }
    format!("{h:016x}")
}

/// The environment variables `cc` reads for this target (the ones it
/// names with `rerun-if-env-changed`), and how the build is configured.
fn cc_envs() -> Vec<String> {
    let target = std::env::var("TARGET").unwrap_or_default();
    let under = target.replace('-', "_");
    let mut names = Vec::new();
    for base in ["CC", "CFLAGS", "AR", "ARFLAGS"] {
        names.push(base.to_string());
        names.push(format!("HOST_{base}"));
        names.push(format!("TARGET_{base}"));
        names.push(format!("{base}_{target}"));
        names.push(format!("{base}_{under}"));
    }
    for name in [
        "CRATE_CC_NO_DEFAULTS",
        "CC_FORCE_DISABLE",
        "CC_ENABLE_DEBUG_OUTPUT",
        "CC_SHELL_ESCAPED_FLAGS",
        "COMPILER_PATH",
        "CPATH",
        "C_INCLUDE_PATH",
        "CPLUS_INCLUDE_PATH",
        "OBJC_INCLUDE_PATH",
        "OBJCPLUS_INCLUDE_PATH",
        "GCC_EXEC_PREFIX",
        "SOURCE_DATE_EPOCH",
    ] {
        names.push(name.to_string());
    }
    names
}

/// What the two C libraries are built from: build.rs, every file of the
/// Lua sources and the charged libraries, the build's configuration and
/// `cc`'s environment. The same key as the last build's (in `OUT_DIR`)
/// means the libraries there are still the ones this build would make:
/// a change to a Rust source reruns this script (for the engine's
/// identity) but need not compile the Lua again (about 30 s).
fn c_key(dirs: &[&str]) -> String {
    let mut paths = vec![PathBuf::from("build.rs")];
    for dir in dirs {
        files_under(Path::new(dir), &mut paths);
    }
    paths.sort();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h = (h ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3);
    };
    for path in &paths {
        eat(path.to_string_lossy().as_bytes());
        eat(&std::fs::read(path).unwrap_or_default());
    }
    let cargo = ["TARGET", "HOST", "PROFILE", "OPT_LEVEL", "DEBUG"];
    for name in cc_envs().iter().map(String::as_str).chain(cargo) {
        eat(name.as_bytes());
        match std::env::var_os(name) {
            Some(value) => eat(value.to_string_lossy().as_bytes()),
            None => eat(b"\0unset"),
        }
    }
    format!("{h:016x}")
}

fn main() {
    println!("cargo:rustc-env=DUNLUA_ENGINE={}", engine_identity());
    // Any source (for the engine's identity, as for the Lua).
    for path in ["src", "build.rs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let core = "src/script/raw/lua";
    let dir = "src/script/raw/c";
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let stamp = out.join("dunlua_c.key");
    let key = c_key(&[core, dir]);
    let built = ["dunlua_lua54", "dunlua_lualibs"].iter().all(|lib| {
        out.join(format!("lib{lib}.a")).is_file() || out.join(format!("{lib}.lib")).is_file()
    });
    if built && std::fs::read_to_string(&stamp).ok().as_deref() == Some(key.as_str()) {
        // What cc printed when it built them.
        for name in cc_envs() {
            println!("cargo:rerun-if-env-changed={name}");
        }
        println!("cargo:rustc-link-search=native={}", out.display());
        println!("cargo:rustc-link-lib=static=dunlua_lua54");
        println!("cargo:rustc-link-lib=static=dunlua_lualibs");
        return;
    }
    let _ = std::fs::remove_file(&stamp);
    let user = user_cflags();
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
        // The user's flags, then the ones no user flag may undo.
        for flag in user.iter().flatten() {
            build.flag(flag);
        }
        for flag in EXACT_MATH {
            build.flag_if_supported(flag);
        }
    };

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
    let mut libs = cc::Build::new();
    configure(&mut libs);
    libs.include(core).include(dir);
    for file in ["lstrlib.c", "ltablib.c", "lutf8lib.c"] {
        libs.file(format!("{dir}/{file}"));
    }
    libs.compile("dunlua_lualibs");
    std::fs::write(&stamp, key).expect("OUT_DIR is writable");
}
