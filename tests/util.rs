//! Helpers shared by the integration tests: run the built binary from the
//! project folder, run scripts in-process, and write throwaway scripts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dunlua::script::{self, Request, ScriptError};
use dunlua::Generated;

/// The project folder, so script paths read `scripts/rooms.lua`.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every script in scripts/ (not lib/), by file name, sorted.
pub fn reference_scripts() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("scripts"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lua"))
        .collect();
    names.sort();
    names
}

/// What one run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn from(output: Output) -> Run {
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        assert!(
            !run.stderr.contains("panicked"),
            "dunlua panicked:\n{}",
            run.stderr
        );
        run
    }
}

/// Runs `dunlua ARGS` in `dir`.
pub fn dunlua_in(dir: &Path, args: &[&str]) -> Run {
    // No display: these runs print text; the window has its own tests.
    let output = Command::new(env!("CARGO_BIN_EXE_dunlua"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the dunlua binary runs");
    Run::from(output)
}

/// Runs `dunlua ARGS` in the project folder.
pub fn dunlua(args: &[&str]) -> Run {
    dunlua_in(&root(), args)
}

/// The wall-clock deadline for tests that run reference scripts to check
/// what they make, not how fast: a debug build of `wfc_caves.lua` takes
/// 2.4 s a seed alone and passed the default 10 s while the rest of the
/// suite shared the two cores. The deadline itself has its own tests
/// (`deadline.rs`, `hostile.rs`).
pub const SLOW_BUILD_TIMEOUT: &str = "120";

/// A request for `path` and `seed` with the deadline moved out of the way
/// ([`SLOW_BUILD_TIMEOUT`]); every other limit is the default.
pub fn request(path: impl AsRef<Path>, seed: u64) -> Request {
    let mut request = Request::new(path.as_ref(), seed);
    let secs = SLOW_BUILD_TIMEOUT.parse().expect("a number of seconds");
    request.limits.timeout = Some(std::time::Duration::from_secs(secs));
    request
}

/// Runs a script of the project in-process.
pub fn generate(script: &str, seed: u64, params: &[&str]) -> Result<Generated, ScriptError> {
    let mut request = request(root().join(script), seed);
    request.params = params.iter().map(|s| s.to_string()).collect();
    script::run(&request)
}

/// Runs a script of the project in-process: every level it makes.
pub fn generate_levels(
    script: &str,
    seed: u64,
    params: &[&str],
) -> Result<Vec<Generated>, ScriptError> {
    let mut request = request(root().join(script), seed);
    request.params = params.iter().map(|s| s.to_string()).collect();
    script::run_levels(&request)
}

/// A folder that holds throwaway scripts; removed when dropped.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `name` with `text` and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Runs a throwaway script in-process with small limits.
    pub fn run(&self, name: &str, text: &str) -> Result<Generated, ScriptError> {
        let path = self.write(name, text);
        let mut request = Request::new(path, 1);
        request.limits.max_instructions = 20_000_000;
        request.limits.max_memory = 32 << 20;
        script::run(&request)
    }
}

/// The names of the files in a folder, sorted (temporaries and backups
/// included, to check that none is left behind).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
