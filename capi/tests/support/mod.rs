//! What the tests that run real callers of the C ABI share (`callers.rs`,
//! `love.rs`): the libraries they load, built once per test binary, and
//! the rule that a missing program skips a test but fails it under CI.

use std::path::PathBuf;
use std::process::Command;

/// The folder cargo builds into for this profile (a test runs from its
/// `deps/` subfolder).
pub fn built_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Builds the shared and static libraries: `cargo test` builds only what
/// the tests link (the rlib), so the callers' libraries are built here,
/// once, into the same folder.
pub fn build_libraries() {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = Command::new(cargo);
        command.args(["build", "--offline", "-p", "dunlua-capi", "--lib"]);
        if built_dir().file_name().is_some_and(|p| p == "release") {
            command.arg("--release");
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "cargo build -p dunlua-capi:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    });
}

/// The shared library (`libdunlua_capi.so`, `.dylib`, `dunlua_capi.dll`),
/// built.
pub fn shared_library() -> PathBuf {
    build_libraries();
    let name = format!(
        "{}dunlua_capi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let path = built_dir().join(name);
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// Whether `program` can be run; with `CI` set it must be (`what` says
/// which tests CI must run).
pub fn available(program: &str, what: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is not installed, and CI must run {what} (see .ci/run)"
        );
        eprintln!("skipping: {program} is not installed");
    }
    found
}
