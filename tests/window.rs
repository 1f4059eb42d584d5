//! The real window, end to end: the built binary under Xvfb, keys sent with
//! xdotool, state read from the file `DUNLUA_STATE_FILE` names and the error
//! overlay checked on a screenshot. With `CI=true` the X tools must be
//! installed (`.ci/run` installs them); elsewhere the test skips, saying so.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{dunlua_in, root, Scratch};

const TOOLS: [&str; 4] = ["Xvfb", "xdotool", "xwd", "convert"];

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// An X server of our own, stopped when dropped.
struct Xvfb {
    child: Child,
    display: String,
    /// Xvfb wrote its display number here; kept open so a late write by
    /// the server can never meet a closed pipe.
    _displayfd: std::process::ChildStdout,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// One X server at a time: the window tests are heavy (a release binary,
/// screenshots), and two at once on a 2-core machine made their waits flaky.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Xvfb {
    fn start() -> Xvfb {
        Xvfb::start_with("1280x1024x24")
    }

    /// Xvfb picks its display itself (`-displayfd 1`: the first number
    /// whose socket and lock it can take, written to its standard output
    /// once it accepts connections). Picking a number here from the lock
    /// files failed in CI: on a machine kept between runs, locks left by
    /// servers of earlier runs named pids that were alive again (or /proc
    /// entries of threads) and every number from 90 to 999 looked taken.
    /// The server's own check is the one that cannot be fooled.
    fn start_with(screen: &str) -> Xvfb {
        use std::io::BufRead;
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                screen,
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut stdout = child.stdout.take().expect("Xvfb's standard output");
        let mut line = String::new();
        let read = {
            let mut reader = std::io::BufReader::new(&mut stdout);
            reader.read_line(&mut line)
        };
        let number = match read.ok().and_then(|_| line.trim().parse::<u32>().ok()) {
            Some(n) => n,
            None => {
                let _ = child.kill();
                let status = child.wait();
                panic!("Xvfb wrote no display number ({line:?}); it ended with {status:?}");
            }
        };
        Xvfb {
            child,
            display: format!(":{number}"),
            _displayfd: stdout,
            _turn: turn,
        }
    }
}

impl Drop for Xvfb {
    /// SIGTERM rather than SIGKILL: Xvfb then removes its lock file and
    /// socket, and runs after this one (or of other programs) find the
    /// display number free again.
    fn drop(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signalling our own child, which we have not yet reaped.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The viewer under test and how to talk to it.
struct Viewer {
    child: Child,
    display: String,
    state_file: PathBuf,
    window: String,
}

impl Viewer {
    fn x(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool runs");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A real press and release, like a quick tap.
    fn tap(&self, key: &str) {
        self.x(&["windowfocus", "--sync", &self.window]);
        self.x(&["keydown", key]);
        std::thread::sleep(Duration::from_millis(40));
        self.x(&["keyup", key]);
        std::thread::sleep(Duration::from_millis(40));
    }

    fn state(&self) -> Option<State> {
        let text = std::fs::read_to_string(&self.state_file).ok()?;
        // Only whole lines: the viewer may be writing the next one.
        let whole = &text[..text.rfind('\n')? + 1];
        whole.lines().last().map(State::parse)
    }

    fn wait(&self, what: &str, pred: impl Fn(&State) -> bool) -> State {
        // A liveness limit, not a speed check: on a 2-core CI machine
        // running other tests beside this one, the seed grid's 42 maps
        // took over 20 s.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(s) = self.state().filter(|s| pred(s)) {
                return s;
            }
            if Instant::now() >= deadline {
                let last = std::fs::read_to_string(&self.state_file).unwrap_or_default();
                panic!(
                    "timed out waiting for {what}; last state: {}",
                    last.lines().last().unwrap_or("none")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The window's pixels, through xwd and ImageMagick.
    fn screenshot(&self) -> (usize, Vec<u8>) {
        let xwd = Command::new("xwd")
            .args(["-id", &self.window, "-silent"])
            .env("DISPLAY", &self.display)
            .output()
            .expect("xwd runs");
        let mut convert = Command::new("convert")
            .args(["xwd:-", "png24:-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("convert runs");
        use std::io::Write;
        convert
            .stdin
            .take()
            .unwrap()
            .write_all(&xwd.stdout)
            .unwrap();
        let png_bytes = convert.wait_with_output().unwrap().stdout;
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG screenshot");
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = reader.output_color_type().0.samples();
        assert!(channels >= 3, "an RGB screenshot");
        let rgb: Vec<u8> = buf
            .chunks(channels)
            .take(info.width as usize * info.height as usize)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (info.width as usize, rgb)
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug, Clone)]
struct State {
    seed: u64,
    player: (i32, i32),
    hash: String,
    reloads: u64,
    error: String,
    fov: bool,
    params: String,
    step: (usize, usize),
    workers: usize,
    cancelled: usize,
    /// `K/N`: the level shown of how many.
    level: String,
    /// Pixels per cell.
    cell: usize,
    /// `FIRST+SELECTED:DONE/LEN`, or `none`.
    grid: String,
    rock: String,
    overlay: String,
    help: bool,
    hover: String,
}

impl State {
    fn parse(line: &str) -> State {
        let field = |key: &str| {
            line.split(' ')
                .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                .unwrap_or_else(|| panic!("no {key} in {line}"))
                .to_string()
        };
        let (x, y) = field("player")
            .split_once(',')
            .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
            .unwrap();
        State {
            seed: field("seed").parse().unwrap(),
            player: (x, y),
            hash: field("hash"),
            reloads: field("reloads").parse().unwrap(),
            error: field("error"),
            fov: field("fov") == "true",
            params: field("params"),
            workers: field("workers").parse().unwrap(),
            level: field("level"),
            cell: field("cell").parse().unwrap(),
            grid: field("grid"),
            rock: field("rock"),
            overlay: field("overlay"),
            help: field("help") == "true",
            hover: field("hover"),
            cancelled: field("cancelled").parse().unwrap(),
            step: field("step")
                .split_once('/')
                .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
                .unwrap(),
        }
    }
}

/// How far the player can walk from `start` in a direction before a wall.
fn run_length(rows: &[Vec<char>], start: (i32, i32), (dx, dy): (i32, i32)) -> i32 {
    let walkable = |x: i32, y: i32| {
        rows.get(y as usize)
            .and_then(|r| r.get(x as usize))
            .is_some_and(|&c| c == '.' || c == '@')
    };
    let mut n = 0;
    while walkable(start.0 + (n + 1) * dx, start.1 + (n + 1) * dy) {
        n += 1;
    }
    n
}

/// Whether the X tools are here; in CI they must be.
fn x_tools() -> bool {
    let missing: Vec<&str> = TOOLS.iter().copied().filter(|t| !have(t)).collect();
    if !missing.is_empty() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("window tests need {missing:?} in CI (.ci/run installs xvfb, xdotool, x11-apps, imagemagick)");
        }
        eprintln!("SKIPPED window end-to-end test: {missing:?} not installed (apt-get install xvfb xdotool x11-apps imagemagick)");
        return false;
    }
    true
}

/// Starts `dunlua ARGS` in `dir` on the display and waits for its first
/// frame and its window, found by `title` (a token in the script's name).
/// Its stderr goes to `stderr.txt` in `dir`.
fn open_viewer(x: &Xvfb, dir: &Path, args: &[&str], title: &str) -> (Viewer, State) {
    open_viewer_with(x, dir, args, title, &[])
}

/// [`open_viewer`] with more environment variables.
fn open_viewer_with(
    x: &Xvfb,
    dir: &Path,
    args: &[&str],
    title: &str,
    env: &[(&str, &str)],
) -> (Viewer, State) {
    let state_file = dir.join("state.txt");
    let stderr = std::fs::File::create(dir.join("stderr.txt")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_dunlua"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env("DISPLAY", &x.display)
        .env("DUNLUA_STATE_FILE", &state_file)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut viewer = Viewer {
        child,
        display: x.display.clone(),
        state_file,
        window: String::new(),
    };
    let first = viewer.wait("the first frame", |_| true);
    viewer.window = wait_for("the window", || {
        let id = viewer.x(&["search", "--onlyvisible", "--name", title]);
        id.lines()
            .next()
            .map(str::to_string)
            .filter(|s| !s.is_empty())
    });
    (viewer, first)
}

#[test]
fn stairs_lead_down_and_back_up() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("stairs{}", std::process::id());
    scratch.write(
        "deep.lua",
        &format!(
            "return {{ name = '{token}', width = 20, height = 8, levels = 3, stairs = 'aligned',\n\
               generate = function(map, rng, p, ctx)\n\
                 map:fill('wall'); map:carve_room(Rect.new(0, 0, 19, 7))\n\
                 map:set_start(3 + ctx.level, 3)\n\
                 if ctx.above then map:set(3 + ctx.level, 3, 'stairs_up') end\n\
                 if ctx.level < ctx.levels then map:set(4 + ctx.level, 3, 'stairs_down') end\n\
                 if ctx.level == 2 then map:fill_rect(Rect.new(10, 1, 8, 5), 'water') end\n\
               end }}\n"
        ),
    );
    let (viewer, first) = open_viewer(&x, scratch.path(), &["deep.lua", "--seed", "3"], &token);
    assert_eq!((first.level.as_str(), first.player), ("1/3", (4, 3)));
    let greater = |v: &Viewer| {
        v.x(&["windowfocus", "--sync", &v.window]);
        v.x(&["key", "greater"]);
    };
    greater(&viewer);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        viewer.state().unwrap().level,
        "1/3",
        "not on the stairs yet"
    );
    viewer.tap("Right");
    viewer.wait("the stairs", |s| s.player == (5, 3));
    greater(&viewer);
    let second = viewer.wait("level 2", |s| s.level == "2/3");
    assert_eq!(
        second.player,
        (5, 3),
        "on the up stairs, under the way down"
    );
    assert_ne!(second.hash, first.hash);
    viewer.tap("Right");
    viewer.wait("the next stairs", |s| s.player == (6, 3));
    greater(&viewer);
    viewer.wait("level 3", |s| s.level == "3/3" && s.player == (6, 3));
    viewer.x(&["key", "less"]);
    let back = viewer.wait("level 2 again", |s| s.level == "2/3");
    assert_eq!(back.player, (6, 3), "where they went down");
    viewer.tap("Left");
    viewer.wait("the up stairs", |s| s.player == (5, 3));
    viewer.x(&["key", "less"]);
    let top = viewer.wait("level 1 again", |s| s.level == "1/3");
    assert_eq!((top.player, top.hash), ((5, 3), first.hash));
    // Another seed keeps the level shown: a designer judging level 2
    // stays on level 2 (at its start), and so does the seed grid.
    greater(&viewer);
    let down = viewer.wait("level 2 once more", |s| s.level == "2/3");
    viewer.tap("Next");
    let next = viewer.wait("seed 4, level 2", |s| s.seed == 4 && s.level == "2/3");
    // (The script draws nothing, so every seed's level 2 is the same map.)
    assert_eq!(
        (next.player, next.hash),
        ((5, 3), down.hash),
        "level 2's start"
    );
    viewer.x(&["windowfocus", "--sync", &viewer.window]);
    viewer.x(&["key", "g"]);
    viewer.wait("the grid", |s| s.grid.starts_with("4+0:"));
    viewer.x(&["key", "Right"]);
    viewer.wait("seed 5 selected", |s| s.grid.starts_with("4+1:"));
    viewer.x(&["key", "Return"]);
    viewer.wait("seed 5 open on level 2", |s| {
        s.seed == 5 && s.grid == "none" && s.level == "2/3"
    });
    // The grid pictures the level shown: level 2's lake is in it, level
    // 1's grid has none.
    let grid_of_level = |want: &str| {
        viewer.x(&["windowfocus", "--sync", &viewer.window]);
        viewer.x(&["key", "g"]);
        viewer.wait("every picture", |s| {
            s.level == want
                && s.grid.split_once(':').is_some_and(|(_, done)| {
                    let (d, n) = done.split_once('/').unwrap();
                    d == n
                })
        });
        std::thread::sleep(Duration::from_millis(250));
        let (_, pixels) = viewer.screenshot();
        viewer.x(&["key", "Escape"]);
        viewer.wait("the grid closed", |s| s.grid == "none");
        pixels
    };
    let lake = grid_of_level("2/3");
    viewer.x(&["key", "less"]);
    viewer.wait("level 1", |s| s.level == "1/3");
    let dry = grid_of_level("1/3");
    assert!(differ(&lake, &dry) > 5_000, "{}", differ(&lake, &dry));
    viewer.tap("q");
}

#[test]
fn walk_change_seeds_reload_and_survive_a_broken_save() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("e2e{}", std::process::id());
    let original = std::fs::read_to_string(root().join("scripts/rooms.lua")).unwrap();
    let script = original.replace("Rooms and corridors (Grogue)", &token);
    scratch.write("e2e.lua", &script);
    let features = std::fs::read_to_string(root().join("scripts/lib/features.lua")).unwrap();
    scratch.write("lib/features.lua", &features);

    // The same map as text, to know where the walls are.
    let text = dunlua_in(scratch.path(), &["e2e.lua", "--seed", "7", "--ascii"]).stdout;
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let start = rows
        .iter()
        .enumerate()
        .find_map(|(y, r)| {
            r.iter()
                .position(|&c| c == '@')
                .map(|x| (x as i32, y as i32))
        })
        .unwrap();

    let args = [
        "e2e.lua",
        "--seed",
        "7",
        "--max-instructions",
        "50000000000",
        "--timeout",
        // Long enough for the memory bomb below to reach 512 MiB on a
        // loaded 2-core CI machine before the deadline.
        "8",
    ];
    let (mut viewer, first) = open_viewer(&x, scratch.path(), &args, &token);
    assert_eq!(
        (first.seed, first.player, first.error.as_str()),
        (7, start, "none")
    );

    // Walk up to a wall, then once more: the last tap must be blocked.
    let dirs = [
        ("Right", (1, 0)),
        ("Left", (-1, 0)),
        ("Up", (0, -1)),
        ("Down", (0, 1)),
    ];
    let (key, step, n) = dirs
        .iter()
        .map(|&(k, d)| (k, d, run_length(&rows, start, d)))
        .filter(|&(_, _, n)| n >= 1)
        .min_by_key(|&(_, _, n)| n)
        .expect("the start room has room to walk");
    let goal = (start.0 + n * step.0, start.1 + n * step.1);
    for _ in 0..n + 1 {
        viewer.tap(key);
    }
    viewer.wait("the player to reach the wall", |s| s.player == goal);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(
        viewer.state().unwrap().player,
        goal,
        "the wall blocked the extra step"
    );

    viewer.tap("Next");
    let next = viewer.wait("seed 8", |s| s.seed == 8);
    assert_ne!(next.hash, first.hash);
    viewer.tap("Prior");
    let back = viewer.wait("seed 7 again", |s| s.seed == 7);
    assert_eq!(back.hash, first.hash, "the same seed gives the same map");

    // Field of view and replay keys.
    viewer.tap("f");
    viewer.wait("field of view on", |s| s.fov);
    let len = back.step.1;
    assert!(
        len > 0 && back.step.0 == len,
        "the replay starts at its end"
    );
    viewer.tap("bracketleft");
    viewer.wait("a step back", |s| s.step.0 == len - 1);
    viewer.tap("Home");
    viewer.wait("the first step", |s| s.step.0 == 0);
    viewer.tap("End");
    viewer.wait("the last step", |s| s.step.0 == len);
    viewer.tap("f");
    viewer.wait("field of view off", |s| !s.fov);

    // Saving a changed script reloads the map with the same seed.
    scratch.write(
        "e2e.lua",
        &script.replace("max_rooms = 30", "max_rooms = 4"),
    );
    let reloaded = viewer.wait("the reload", |s| s.reloads == 1);
    assert_eq!(reloaded.seed, 7);
    assert_ne!(reloaded.hash, first.hash);

    // A broken save keeps that map and shows the error.
    scratch.write(
        "e2e.lua",
        "return { generate = function(map)\n  local x = = 1\nend }\n",
    );
    let broken = viewer.wait("the error", |s| s.error != "none");
    assert!(broken.error.starts_with("e2e.lua:2:"), "{}", broken.error);
    assert_eq!(
        (broken.hash.as_str(), broken.reloads),
        (reloaded.hash.as_str(), 1)
    );
    std::thread::sleep(Duration::from_millis(200));
    let (width, pixels) = viewer.screenshot();
    let at = |x: usize, y: usize| {
        let i = (y * width + x) * 3;
        (pixels[i], pixels[i + 1], pixels[i + 2])
    };
    let red = dunlua::view::draw::ERROR_BG;
    assert_eq!(
        at(4, 4),
        (red.0, red.1, red.2),
        "the error overlay is on screen"
    );

    // Fixing the script clears the overlay.
    scratch.write("e2e.lua", &script);
    let fixed = viewer.wait("the fixed reload", |s| s.reloads == 2);
    assert_eq!(
        (fixed.error.as_str(), fixed.hash.as_str()),
        ("none", first.hash.as_str())
    );

    // A runaway script saved ten times: each save cancels the reload before
    // it, the overlay names the budget, the window lives on, and the
    // workers do not pile up (all of them end, the cancelled ones at once).
    for i in 0..10 {
        scratch.write(
            "e2e.lua",
            &format!("return {{ generate = function(map)\n  local n = {i}\n  while true do n = n + 1 end\nend }}\n"),
        );
        std::thread::sleep(Duration::from_millis(60));
    }
    // The viewer runs with a budget too big to stop a loop in this test's
    // time, so only cancelling ends the overtaken runs, and only the
    // deadline the newest one.
    let runaway = viewer.wait("the timeout", |s| s.error != "none");
    assert!(
        runaway.error.starts_with("e2e.lua:3:_timed_out_after_8_s"),
        "{}",
        runaway.error
    );
    assert!(runaway.cancelled >= 5, "{runaway:?}");
    assert_eq!(runaway.hash, fixed.hash, "the last good map stays");
    viewer.wait("every worker gone", |s| s.workers == 0);

    // A memory bomb: the same overlay, the window lives on.
    scratch.write(
        "e2e.lua",
        "return { generate = function(map)\n  local t = {}\n  while true do t[#t + 1] = { 1, 2, 3 } end\nend }\n",
    );
    let bomb = viewer.wait("the memory error", |s| s.error.contains("memory_limit"));
    assert!(
        bomb.error.starts_with("e2e.lua:3:_memory_limit_of_512_MiB"),
        "{}",
        bomb.error
    );
    assert_eq!(bomb.hash, fixed.hash, "the last good map stays");
    scratch.write("e2e.lua", &script);
    let fixed = viewer.wait("the map back", |s| {
        s.error == "none" && s.hash == first.hash
    });
    assert_eq!(fixed.workers, 0);

    // Live parameters: Tab picks the first (features), '.' raises it, the
    // map regenerates with the same seed; Ctrl+R restores the defaults.
    viewer.tap("Tab");
    viewer.tap("period");
    let tuned = viewer.wait("a tuned parameter", |s| s.params != "default");
    assert_eq!(tuned.params, "features=true");
    let tuned = viewer.wait("the tuned map", |s| s.hash != first.hash);
    assert_eq!(tuned.seed, 7);
    viewer.x(&["windowfocus", "--sync", &viewer.window]);
    viewer.x(&["key", "ctrl+r"]);
    let reset = viewer.wait("the defaults", |s| {
        s.params == "default" && s.hash == first.hash
    });
    assert_eq!(reset.seed, 7);

    // Ctrl+S saves a PNG and a JSON of the map on screen.
    viewer.x(&["windowfocus", "--sync", &viewer.window]);
    viewer.x(&["key", "ctrl+s"]);
    wait_for("the saved files", || {
        (scratch.path().join("e2e-7.png").exists() && scratch.path().join("e2e-7.json").exists())
            .then_some(())
    });

    viewer.tap("q");
    let status = wait_for("the window to close", || {
        viewer.child.try_wait().ok().flatten()
    });
    assert!(status.success());
}

/// Pixels of the map area (above the status line) that are not black, and
/// their bounding box (x0, y0, x1, y1), exclusive.
fn drawn(width: usize, rgb: &[u8], map_h: usize) -> (usize, (usize, usize, usize, usize)) {
    let (mut n, mut x0, mut y0, mut x1, mut y1) = (0, usize::MAX, usize::MAX, 0, 0);
    for y in 0..map_h {
        for x in 0..width {
            let p = &rgb[(y * width + x) * 3..][..3];
            if p != [0, 0, 0] {
                n += 1;
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
            }
        }
    }
    (n, (x0, y0, x1, y1))
}

/// How many pixels two screenshots differ in.
fn differ(a: &[u8], b: &[u8]) -> usize {
    a.chunks(3).zip(b.chunks(3)).filter(|(p, q)| p != q).count()
}

/// CPU seconds a process has used (user + system), from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[test]
fn fit_rock_overlays_mouse_and_a_command_that_reproduces_the_map() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("judge{}", std::process::id());
    let caves = std::fs::read_to_string(root().join("scripts/caves.lua")).unwrap();
    scratch.write(
        "judge.lua",
        &caves.replace("name = \"", &format!("name = \"{token} ")),
    );
    let features = std::fs::read_to_string(root().join("scripts/lib/features.lua")).unwrap();
    scratch.write("lib/features.lua", &features);
    let args = ["judge.lua", "--seed", "3", "--size", "400x300"];
    let (viewer, first) = open_viewer(&x, scratch.path(), &args, &token);
    assert_eq!(
        (first.cell, first.rock.as_str(), first.overlay.as_str()),
        (8, "dark", "none")
    );
    let focus = |v: &Viewer| {
        v.x(&["windowfocus", "--sync", &v.window]);
    };
    let shot = |v: &Viewer| {
        // Let the frame reach the screen.
        std::thread::sleep(Duration::from_millis(250));
        v.screenshot()
    };

    // `0`: every cell of the 400x300 map on screen, at 3 px a cell.
    focus(&viewer);
    viewer.x(&["key", "0"]);
    let fit = viewer.wait("the whole map", |s| s.cell < 8);
    assert_eq!(fit.cell, 3, "1280x940 px hold 400x300 cells at 3 px");
    let (width, dark) = shot(&viewer);
    let map_h = dark.len() / 3 / width - 20;
    let (_, bounds) = drawn(width, &dark, map_h);
    assert_eq!(
        (bounds.2 - bounds.0, bounds.3 - bounds.1),
        (400 * 3, 300 * 3),
        "the drawn area is the whole map: {bounds:?}"
    );

    // `W`: every wall drawn; buried rock was dark.
    focus(&viewer);
    viewer.x(&["key", "w"]);
    viewer.wait("every wall", |s| s.rock == "all");
    let (_, all) = shot(&viewer);
    assert!(differ(&dark, &all) > 10_000, "W changes the picture");
    viewer.x(&["key", "w"]);
    viewer.wait("dark rock", |s| s.rock == "dark");

    // `M`: rooms (caves have none), regions, distance: each changes the picture.
    viewer.x(&["key", "m"]);
    viewer.x(&["key", "m"]);
    viewer.wait("the regions overlay", |s| s.overlay == "regions");
    let (_, regions) = shot(&viewer);
    assert!(differ(&dark, &regions) > 10_000, "regions tint the caves");
    viewer.x(&["key", "m"]);
    viewer.wait("the distance overlay", |s| s.overlay == "distance");
    let (_, heat) = shot(&viewer);
    assert!(differ(&regions, &heat) > 10_000, "distance is not regions");

    // Stepping the replay lights the cells each step changed, and the
    // player (the start) is not there before the step that placed it.
    viewer.x(&["key", "m"]);
    viewer.x(&["key", "m"]);
    viewer.wait("no overlay", |s| s.overlay == "none");
    let lit = |rgb: &[u8]| {
        rgb.chunks(3)
            .filter(|p| p[0] as i32 > p[2] as i32 + 60 && p[1] as i32 > p[2] as i32 + 40)
            .count()
    };
    let (_, end) = shot(&viewer);
    viewer.x(&["key", "Home"]);
    viewer.wait("step 0", |s| s.step.0 == 0);
    let (_, before) = shot(&viewer);
    assert_eq!(lit(&before), 0, "nothing changed yet, and no player");
    viewer.x(&["key", "bracketright"]);
    viewer.wait("step 1", |s| s.step.0 == 1);
    let (_, one) = shot(&viewer);
    assert!(
        lit(&one) > 10_000,
        "the first step's cells are lit: {}",
        lit(&one)
    );
    assert!(
        lit(&end) > 0 && lit(&end) < 50,
        "at the end only the player: {}",
        lit(&end)
    );
    viewer.x(&["key", "End"]);
    viewer.wait("the last step", |s| s.step.0 == s.step.1);

    // Hovering names the cell under the mouse; a click walks there.
    let text = dunlua_in(
        scratch.path(),
        &["judge.lua", "--seed", "3", "--size", "400x300", "--ascii"],
    )
    .stdout;
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let (fx, fy) = (0..300)
        .rev()
        .flat_map(|y| (0..400).map(move |x| (x, y)))
        .find(|&(x, y)| rows[y][x] == '.')
        .unwrap();
    let (ox, oy) = (bounds.0, bounds.1);
    let (mx, my) = (ox + fx * 3 + 1, oy + fy * 3 + 1);
    viewer.x(&[
        "mousemove",
        "--window",
        &viewer.window,
        &mx.to_string(),
        &my.to_string(),
    ]);
    let want = format!("{fx},{fy}");
    viewer.wait("the hover on the floor cell", |s| s.hover == want);
    // A click as long as a person's (xdotool's own is shorter than a frame).
    viewer.x(&["mousedown", "1"]);
    std::thread::sleep(Duration::from_millis(100));
    viewer.x(&["mouseup", "1"]);
    viewer.wait("the player at the clicked cell", |s| {
        s.player == (fx as i32, fy as i32)
    });

    // Idle: nothing changes for two seconds; how much CPU does it use?
    viewer.x(&["mousemove", "--window", &viewer.window, "1", "1"]);
    std::thread::sleep(Duration::from_millis(1500));
    let before = cpu_seconds(viewer.child.id());
    std::thread::sleep(Duration::from_secs(3));
    let idle = (cpu_seconds(viewer.child.id()) - before) / 3.0;
    eprintln!("idle window CPU: {:.1}% of a core", idle * 100.0);

    // PageDown: the printed command makes the window's map again.
    focus(&viewer);
    viewer.tap("Next");
    let next = viewer.wait("seed 4", |s| s.seed == 4);
    let stderr = std::fs::read_to_string(scratch.path().join("stderr.txt")).unwrap();
    let command = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("dunlua: dunlua "))
        .unwrap_or_else(|| panic!("no command printed: {stderr}"));
    assert!(command.contains("--size 400x300"), "{command}");
    let mut again: Vec<&str> = command.split(' ').collect();
    again.push("--hash");
    let run = dunlua_in(scratch.path(), &again);
    assert_eq!(run.stdout.trim(), next.hash, "{command}");

    // G: a grid of the seeds from 4, made on workers; Right and Enter open 5.
    let (_, map_shot) = shot(&viewer);
    focus(&viewer);
    viewer.x(&["key", "g"]);
    let full = viewer.wait("every picture of the grid", |s| {
        s.grid.split_once(':').is_some_and(|(_, done)| {
            let (d, n) = done.split_once('/').unwrap();
            d == n
        })
    });
    assert!(full.grid.starts_with("4+0:"), "{}", full.grid);
    let (_, grid_shot) = shot(&viewer);
    assert!(
        differ(&map_shot, &grid_shot) > 100_000,
        "the grid replaces the map"
    );
    viewer.x(&["key", "Right"]);
    viewer.wait("seed 5 selected", |s| s.grid.starts_with("4+1:"));
    viewer.x(&["key", "Return"]);
    let opened = viewer.wait("seed 5 open", |s| s.seed == 5 && s.grid == "none");
    assert_ne!(opened.hash, next.hash);
    viewer.tap("q");
}

#[test]
fn esc_closes_the_key_list_and_the_overlay_before_it_quits() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("esc{}", std::process::id());
    scratch.write(
        "esc.lua",
        &format!(
            "return {{ name = '{token}', width = 20, height = 8, generate = function(map)\n\
               map:fill('wall') map:carve_room(Rect.new(0, 0, 19, 7)) map:set_start(3, 3)\n\
               map:mark(5, 3, 'key') end }}\n"
        ),
    );
    let (mut viewer, _) = open_viewer(&x, scratch.path(), &["esc.lua", "--seed", "1"], &token);
    let alive = |v: &mut Viewer| v.child.try_wait().unwrap().is_none();
    viewer.tap("question");
    viewer.wait("the key list", |s| s.help);
    viewer.tap("Escape");
    viewer.wait("the key list closed", |s| !s.help);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        alive(&mut viewer),
        "Esc closed the key list, not the window"
    );
    viewer.tap("m");
    viewer.wait("an overlay", |s| s.overlay != "none");
    viewer.tap("Escape");
    viewer.wait("the overlay closed", |s| s.overlay == "none");
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(&mut viewer), "Esc closed the overlay, not the window");
    viewer.tap("Escape");
    wait_for("the window to quit", || (!alive(&mut viewer)).then_some(()));
}

#[test]
fn a_map_a_little_over_80_columns_opens_large() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start_with("1600x1000x24");
    let scratch = Scratch::new();
    let token = format!("wide{}", std::process::id());
    scratch.write(
        "wide.lua",
        &format!(
            "return {{ name = '{token}', width = 81, height = 51, generate = function(map)\n\
               map:fill('wall') map:carve_room(Rect.new(0, 0, 80, 50)) map:set_start(3, 3)\n\
               end }}\n"
        ),
    );
    let (viewer, first) = open_viewer(&x, scratch.path(), &["wide.lua", "--seed", "1"], &token);
    let geometry = viewer.x(&["getwindowgeometry", &viewer.window]);
    let size = geometry
        .lines()
        .find_map(|l| l.trim().strip_prefix("Geometry: "))
        .unwrap_or_else(|| panic!("{geometry}"));
    let (w, h) = size.split_once('x').unwrap();
    let (w, h): (usize, usize) = (w.parse().unwrap(), h.parse().unwrap());
    assert!(w > 648 && h > 428, "{w}x{h}");
    assert!(w <= 1600 && h <= 1000, "{w}x{h} fits the screen");
    assert!(first.cell > 8, "cells of {} px", first.cell);
    viewer.tap("q");
}

/// The window can be made smaller (a 1280x820 window did not fit a
/// 1366x768 screen and its size was fixed): resized, it draws at its new
/// size, and `0` fits the map to it.
#[test]
fn a_resized_window_draws_at_its_new_size() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start_with("1366x768x24");
    let scratch = Scratch::new();
    let token = format!("resized{}", std::process::id());
    scratch.write(
        "small.lua",
        &format!(
            "return {{ name = '{token}', width = 80, height = 50, generate = function(map)\n\
               map:fill('wall') map:carve_room(Rect.new(0, 0, 79, 49)) map:set_start(3, 3)\n\
               end }}\n"
        ),
    );
    let (viewer, first) = open_viewer(&x, scratch.path(), &["small.lua", "--seed", "1"], &token);
    assert_eq!(first.cell, 16);
    viewer.x(&["windowsize", &viewer.window, "900", "600"]);
    std::thread::sleep(Duration::from_millis(300));
    viewer.tap("0");
    let fitted = viewer.wait("the map fitted to 900x600", |s| s.cell < 16);
    assert_eq!(
        fitted.cell, 10,
        "80x50 cells in 900 by 600 less the status line"
    );
    viewer.tap("q");
}

/// One line of the window's timing log (`DUNLUA_TIMINGS=1`): its kind
/// (`frame`, `input`, `generate`, `swap`) and its `key=value` fields.
struct Timing {
    kind: String,
    fields: std::collections::HashMap<String, String>,
}

impl Timing {
    fn get(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("no {key} in a {} line", self.kind))
    }

    fn num(&self, key: &str) -> f64 {
        self.get(key).parse().unwrap()
    }
}

/// The timing lines in the viewer's stderr so far.
fn timings(dir: &Path) -> Vec<Timing> {
    let text = std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    whole
        .lines()
        .filter_map(|l| l.strip_prefix("dunlua: timing "))
        .map(|l| {
            let mut words = l.split(' ');
            let kind = words.next().unwrap().to_string();
            let fields = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Timing { kind, fields }
        })
        .collect()
}

/// The grid's `DONE/LEN` of the state line's `FIRST+SELECTED:DONE/LEN`.
fn grid_done(grid: &str) -> Option<(usize, usize)> {
    let (_, done) = grid.split_once(':')?;
    let (d, n) = done.split_once('/')?;
    Some((d.parse().ok()?, n.parse().ok()?))
}

/// Issue #27's big map: a 2000x2000 cave reloads while the window keeps
/// drawing and taking keys, the new map is on screen in the first frame
/// after its worker finished it, and the seed grid of 2000x2000 maps fills
/// in picture by picture while keys still work, and closes before it is
/// full. The checks read the window's own timing log (frames and events on
/// one clock), not wall-clock limits a loaded machine would break.
#[test]
fn a_big_map_reloads_and_its_seed_grid_fills_while_the_window_takes_keys() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("bigcave{}", std::process::id());
    let original = std::fs::read_to_string(root().join("scripts/caves.lua")).unwrap();
    let script = original.replace("Cellular automaton caves", &token);
    scratch.write("big.lua", &script);
    let features = std::fs::read_to_string(root().join("scripts/lib/features.lua")).unwrap();
    scratch.write("lib/features.lua", &features);
    let args = [
        "big.lua",
        "--seed",
        "1",
        "--size",
        "2000x2000",
        "--max-instructions",
        "100000000000",
        "--max-memory",
        "4096",
        // A debug build on a loaded machine: minutes, not the default 10 s.
        "--timeout",
        "600",
    ];
    let dir = scratch.path();
    let (viewer, first) = open_viewer_with(&x, dir, &args, &token, &[("DUNLUA_TIMINGS", "1")]);
    assert_eq!((first.rock.as_str(), first.reloads), ("dark", 0));

    // Save a changed script; once its reload has started, press W (rock
    // drawn in full): the window handles it while the worker generates.
    scratch.write("big.lua", &script.replace("fill = 0.45", "fill = 0.48"));
    wait_for("the reload to start", || {
        timings(dir)
            .iter()
            .any(|t| t.kind == "generate" && t.get("why") == "reload")
            .then_some(())
    });
    viewer.tap("w");
    let during = viewer.wait("W handled", |s| s.rock == "all");
    let (_, old_map) = viewer.screenshot();
    let still_old = viewer.state().unwrap();
    let reloaded = viewer.wait("the reload", |s| s.reloads == 1);
    assert_ne!(reloaded.hash, first.hash, "a new map");
    std::thread::sleep(Duration::from_millis(300));
    let (_, new_map) = viewer.screenshot();
    let log = timings(dir);
    let started = log
        .iter()
        .find(|t| t.kind == "generate" && t.get("why") == "reload")
        .unwrap();
    let swap = log
        .iter()
        .find(|t| t.kind == "swap" && t.get("why") == "reload")
        .expect("a swap in the log");
    let done_at = swap.num("done_at");
    let key = log
        .iter()
        .find(|t| t.kind == "input" && t.get("action") == "ToggleRock")
        .expect("W in the log");
    assert!(
        started.num("at") <= key.num("at") && key.num("at") < done_at,
        "W was handled while the map was being made: generation {}..{done_at} ms, W at {} ms",
        started.num("at"),
        key.num("at")
    );
    assert_eq!(
        (during.hash.as_str(), during.reloads),
        (first.hash.as_str(), 0),
        "W showed on the old map"
    );
    // The new map goes on screen at most one frame after it was made:
    // no whole frame started between the worker's end and the swap's
    // frame, besides the one that may have begun as the worker sent it.
    let swap_frame = swap.num("frame") as u64;
    let frames: Vec<&Timing> = log.iter().filter(|t| t.kind == "frame").collect();
    let waited = frames
        .iter()
        .filter(|t| t.num("at") > done_at && (t.num("frame") as u64) < swap_frame)
        .count();
    assert!(
        waited <= 1,
        "{waited} frames between the map made and shown"
    );
    let shown = frames
        .iter()
        .find(|t| t.num("frame") as u64 == swap_frame)
        .expect("the swap's frame line");
    assert_eq!((shown.get("drawn"), shown.get("sent")), ("1", "1"));
    assert!(
        swap.num("swap") < 100.0,
        "putting the map in place is not map-sized work: {} ms",
        swap.num("swap")
    );
    // The frames while the map was being made kept coming: at least one
    // a fifth of a second (a liveness bound; at 60 a second it is 12).
    let while_made = frames
        .iter()
        .filter(|t| t.num("at") > started.num("at") && t.num("at") < done_at)
        .count();
    let seconds = (done_at - started.num("at")) / 1000.0;
    assert!(
        while_made as f64 >= seconds * 5.0,
        "{while_made} frames in {seconds:.1} s of generation"
    );
    if still_old.reloads == 0 {
        assert!(
            differ(&old_map, &new_map) > 50_000,
            "the screen shows the new map: {} pixels changed",
            differ(&old_map, &new_map)
        );
    }

    // The seed grid of 2000x2000 maps: pictures appear one by one while
    // arrows still move the selection; Esc closes it before it is full.
    viewer.x(&["windowfocus", "--sync", &viewer.window]);
    viewer.x(&["key", "g"]);
    let one = viewer.wait("the first picture", |s| {
        grid_done(&s.grid).is_some_and(|(d, _)| d >= 1)
    });
    viewer.tap("Right");
    let two = viewer.wait("the second picture, the selection moved", |s| {
        grid_done(&s.grid).is_some_and(|(d, _)| d >= 2) && s.grid.starts_with("1+1:")
    });
    let (done, len) = grid_done(&two.grid).unwrap();
    assert!(len >= 16, "a grid of {len}");
    let (_, partial) = viewer.screenshot();
    viewer.tap("Escape");
    let closed = viewer.wait("the grid closed", |s| s.grid == "none");
    assert!(
        done < len && grid_done(&one.grid).unwrap().0 < len,
        "closed before every picture was made"
    );
    assert_eq!(closed.seed, 1, "Esc opened nothing");
    let log = timings(dir);
    let grid_frames: Vec<&Timing> = log
        .iter()
        .filter(|t| t.kind == "frame" && t.get("grid") != "none")
        .collect();
    let partly: std::collections::BTreeSet<usize> = grid_frames
        .iter()
        .filter(|t| t.get("drawn") == "1")
        .filter_map(|t| grid_done(&format!("x:{}", t.get("grid"))))
        .filter(|&(d, n)| d < n)
        .map(|(d, _)| d)
        .collect();
    // At least two different partial counts on drawn frames: the grid was
    // drawn while it filled, not only once complete. (Three was asked
    // before; CI once saw {0, 2}, the frame after the first picture not
    // redrawn before the second landed, and Esc came right after.)
    assert!(
        partly.len() >= 2,
        "frames drawn with 0, 1, 2 ... pictures made: {partly:?}"
    );
    let first_picture = grid_frames
        .iter()
        .find(|t| grid_done(&format!("x:{}", t.get("grid"))).unwrap().0 >= 1)
        .unwrap()
        .num("at");
    let right = log
        .iter()
        .find(|t| {
            t.kind == "input" && t.get("action") == "Move(1,0)" && t.num("at") > first_picture
        })
        .expect("Right in the log");
    let frames_between = grid_frames
        .iter()
        .filter(|t| t.num("at") > first_picture && t.num("at") < right.num("at"))
        .count();
    assert!(
        frames_between >= 1,
        "frames went on between the pictures and the key"
    );
    // A picture is on screen: the grid's first box is not all background.
    let width = viewer.screenshot().0;
    let box_pixels = (0..150)
        .flat_map(|y| (0..150).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = &partial[((y + 10) * width + x + 10) * 3..][..3];
            p != [0x18, 0x18, 0x20] && p != [0, 0, 0]
        })
        .count();
    assert!(
        box_pixels > 5_000,
        "the first picture is drawn: {box_pixels} pixels"
    );
    viewer.tap("q");
}

/// Saving the script while the seed grid is open keeps the grid open and
/// makes its pictures again from the saved script (the workers making the
/// old ones are cancelled).
#[test]
fn saving_with_the_seed_grid_open_remakes_its_pictures() {
    if !x_tools() {
        return;
    }
    let x = Xvfb::start();
    let scratch = Scratch::new();
    let token = format!("regrid{}", std::process::id());
    let script = |lake: &str| {
        format!(
            "return {{ name = '{token}', width = 40, height = 20,\n\
               generate = function(map, rng)\n\
                 map:fill('wall'); map:carve_room(Rect.new(1, 1, 37, 17))\n\
                 {lake}\n\
                 map:set_start(3 + rng:int(3), 3)\n\
               end }}\n"
        )
    };
    scratch.write("regrid.lua", &script(""));
    let args = ["regrid.lua", "--seed", "2"];
    let (viewer, first) = open_viewer(&x, scratch.path(), &args, &token);
    let full = |s: &State| grid_done(&s.grid).is_some_and(|(d, n)| d == n);
    viewer.x(&["windowfocus", "--sync", &viewer.window]);
    viewer.x(&["key", "g"]);
    viewer.wait("every picture", full);
    std::thread::sleep(Duration::from_millis(250));
    let (_, dry) = viewer.screenshot();
    scratch.write(
        "regrid.lua",
        &script("map:fill_rect(Rect.new(5, 5, 25, 10), 'water')"),
    );
    let after = viewer.wait("the reload, the grid remade", |s| {
        s.reloads == 1 && s.grid != "none" && full(s)
    });
    assert!(
        after.grid.starts_with("2+0:"),
        "the same seeds: {}",
        after.grid
    );
    std::thread::sleep(Duration::from_millis(250));
    let (_, lake) = viewer.screenshot();
    assert!(
        differ(&dry, &lake) > 5_000,
        "the pictures show the lake: {} pixels changed",
        differ(&dry, &lake)
    );
    viewer.tap("Escape");
    let closed = viewer.wait("the grid closed", |s| s.grid == "none");
    assert_ne!(closed.hash, first.hash, "the saved script's map");
    viewer.tap("q");
}
