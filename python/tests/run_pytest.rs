//! Runs the Python package's tests (`python/tests/*.py`, pytest) as part of
//! `cargo test`: builds the extension module and the `dunlua` command with
//! this test's profile, lays the package out in a temporary folder (the
//! module beside `dunlua/__init__.py`, as maturin's wheel has it) and runs
//! `python3 -m pytest` on it. The Python tests compare every map with the
//! command's. Without `python3`, numpy or pytest the test is skipped, but
//! with `CI` set it fails instead.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The folder cargo builds into for this profile (this test runs from its
/// `deps/` subfolder).
fn built_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn cargo_build(args: &[&str]) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.arg("build").arg("--offline").args(args);
    if built_dir().file_name().is_some_and(|p| p == "release") {
        command.arg("--release");
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "cargo build {args:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Whether `python3` can import what the tests need; with `CI` set it must.
fn python_ready() -> bool {
    let probe = Command::new("python3")
        .args(["-c", "import numpy, pytest"])
        .output();
    let ready = probe.as_ref().is_ok_and(|o| o.status.success());
    if !ready {
        let why = match &probe {
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs python3 with numpy and pytest: {why}"
        );
        eprintln!("skipped: python3 with numpy and pytest is not available ({why})");
    }
    ready
}

/// The package as a wheel lays it out: `dunlua/` with the extension module.
fn stage_package(into: &Path) {
    let package = into.join("dunlua");
    std::fs::create_dir_all(&package).unwrap();
    for entry in std::fs::read_dir(repo().join("python/dunlua")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, package.join(path.file_name().unwrap())).unwrap();
        }
    }
    let built = ["lib_dunlua.so", "lib_dunlua.dylib", "_dunlua.dll"]
        .iter()
        .map(|name| built_dir().join(name))
        .find(|p| p.exists())
        .expect("the extension module was built");
    let module = if cfg!(windows) {
        "_dunlua.pyd"
    } else {
        "_dunlua.abi3.so"
    };
    std::fs::copy(built, package.join(module)).unwrap();
}

#[test]
fn python_package_tests() {
    if !python_ready() {
        return;
    }
    cargo_build(&["-p", "dunlua-python", "--lib"]);
    cargo_build(&["-p", "dunlua", "--bin", "dunlua"]);
    let staged = tempfile_dir();
    stage_package(&staged);
    let output = Command::new("python3")
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(repo())
        .env("PYTHONPATH", &staged)
        .env("DUNLUA_BIN", built_dir().join("dunlua"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&staged);
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "pytest failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A new folder under the system's temporary one.
fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dunlua-pytest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
