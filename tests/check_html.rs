//! `dunlua check --html`: the report page opened in headless Chromium (the
//! browser a user opens it with), its screenshot checked for histograms and
//! thumbnails; failures pictured, rejected seeds' last maps saved; the
//! `attempts` column.

use std::process::Command;

use crate::util::{dunlua, dunlua_in, files_in, root, Scratch};

/// Chromium's name here, if it is installed; in CI it must be.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing, and CI must open the HTML report (see .ci/run)"
        );
        eprintln!("SKIPPED: chromium is not installed (apt-get install chromium)");
    }
    found
}

/// The page as Chromium draws it: (width, height, RGB pixels).
fn screenshot(
    browser: &str,
    page: &std::path::Path,
    out: &std::path::Path,
) -> (usize, usize, Vec<u8>) {
    let run = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--screenshot={}", out.display()))
        .arg("--window-size=1100,2400")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.exists(),
        "no screenshot: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = reader.output_color_type().0.samples();
    let rgb = buf
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width as usize, info.height as usize, rgb)
}

/// Pixels of exactly this colour.
fn count(rgb: &[u8], c: [u8; 3]) -> usize {
    rgb.chunks(3).filter(|p| *p == c).count()
}

#[test]
fn the_html_report_shows_histograms_and_thumbnails_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let scratch = Scratch::new();
    for script in ["rooms", "caves", "keys"] {
        let page = scratch.path().join(format!("{script}.html"));
        let run = dunlua(&[
            "check",
            &format!("scripts/{script}.lua"),
            "--seeds",
            "40",
            "--html",
            page.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{script}: {}", run.stderr);
        let html = std::fs::read_to_string(&page).unwrap();
        assert_eq!(
            html.matches("<svg class=\"histogram\"").count(),
            6,
            "{script}: a histogram per metric"
        );
        assert_eq!(
            html.matches("<img src=\"data:image/png;base64,").count(),
            18,
            "{script}: min, median, max of each"
        );
        assert_eq!(
            html.matches("<img class=\"variety").count(),
            2,
            "{script}: the walkable heat map and its legend (no identical or near maps)"
        );
        assert!(html.contains("<h2>Variety</h2>"), "{script}");
        assert!(!html.contains("http"), "{script}: self-contained");
        let (w, h, rgb) = screenshot(
            browser,
            &page,
            &scratch.path().join(format!("{script}.png")),
        );
        assert_eq!((w, h), (1100, 2400));
        // The bars (#4a90d9) and the maps' walls (#888888) are on screen.
        assert!(
            count(&rgb, [0x4a, 0x90, 0xd9]) > 5_000,
            "{script}: histogram bars"
        );
        assert!(
            count(&rgb, [0x88, 0x88, 0x88]) > 1_000,
            "{script}: thumbnails"
        );
    }
}

#[test]
fn failures_are_pictured_and_rejected_seeds_keep_their_last_map() {
    let scratch = Scratch::new();
    scratch.write(
        "moody.lua",
        "return { width = 30, height = 12, generate = function(map, rng, p, ctx)\n\
           map:carve_room(Rect.new(1, 1, 10, 8)); map:set_start(3, 3)\n\
           if ctx.seed % 4 == 1 then map:carve_room(Rect.new(15, 1, 10, 8)) end\n\
           if ctx.seed % 4 == 2 then error('a bad day') end\n\
           if ctx.seed % 4 == 3 then reject('never good enough') end\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "moody.lua",
            "--seeds",
            "8",
            "--html",
            "r.html",
            "--save-failures",
            "bad",
            "--max-attempts",
            "2",
            "--json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    // Said as every command that writes a file says it, the report on
    // stdout left alone.
    assert!(
        run.stderr.lines().any(|l| l == "dunlua: wrote r.html"),
        "{}",
        run.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["metrics"]["attempts"]["max"], 1.0, "{}", run.stdout);
    let html = std::fs::read_to_string(scratch.path().join("r.html")).unwrap();
    assert!(
        html.contains("<h3>walkable cells unreachable from the start (2 seeds)</h3>"),
        "{html}"
    );
    assert!(html.contains("<h3>script error (2 seeds)</h3>"));
    assert!(
        html.contains("a bad day"),
        "the error is shown where there is no map"
    );
    // The rejected seeds (validate said no on every attempt): their last
    // map pictured, and saved.
    assert!(
        html.contains("<h3>rejected after all attempts (2 seeds)</h3>"),
        "{html}"
    );
    assert_eq!(
        html.matches("<img src=\"data:image/png").count(),
        4 + 18,
        "4 failing maps, 18 metric maps"
    );
    let saved = files_in(&scratch.path().join("bad"));
    let want: Vec<String> = [
        "moody-1.json",
        "moody-1.png",
        "moody-2.txt",
        "moody-3.json",
        "moody-3.png",
        "moody-5.json",
        "moody-5.png",
        "moody-6.txt",
        "moody-7.json",
        "moody-7.png",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(
        saved, want,
        "unreachable and rejected seeds as maps, errors as text"
    );

    let run = dunlua_in(scratch.path(), &["check", "moody.lua", "--html", "r.txt"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--html r.txt: the report is an .html file"),
        "{}",
        run.stderr
    );
    let run = dunlua_in(
        scratch.path(),
        &["check", "moody.lua", "--html", "nope/r.html"],
    );
    assert_eq!(run.code, 2);
    let _ = root();
}

/// A multi-level seed turned down on its second level on every attempt:
/// the map kept is that level's, saved under its number (`deep-0-2.png`,
/// its JSON saying `"level": 2`) and captioned with it in the page.
#[test]
fn a_level_rejected_below_the_first_is_saved_and_shown_as_that_level() {
    let scratch = Scratch::new();
    scratch.write(
        "deep.lua",
        "return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)\n\
           map:carve_room(Rect.new(1, 1, 10, 6)); map:set_start(2, 2)\n\
           if ctx.level == 2 then map:set(5, 8, 'water'); reject('too dry below') end\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            "deep.lua",
            "--seeds",
            "1",
            "--save-failures",
            "bad",
            "--html",
            "r.html",
            "--max-attempts",
            "2",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        files_in(&scratch.path().join("bad")),
        ["deep-0-2.png", "deep-0.json"]
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.path().join("bad/deep-0.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["level"], 2);
    assert!(json["rows"][8].as_str().unwrap().contains('~'), "{json}");
    let html = std::fs::read_to_string(scratch.path().join("r.html")).unwrap();
    assert!(html.contains("seed 0, level 2 <code>"), "{html}");
}

/// A failed proof is pictured on the level its sentence names first; the
/// caption said "level 1" (the dungeon's first level) under a picture of
/// level 2.
#[test]
fn a_failed_proof_is_captioned_with_the_level_it_pictures() {
    let scratch = Scratch::new();
    scratch.write(
        "locked.lua",
        r##"
tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })
return { width = 12, height = 5, levels = 2,
  goal = { goals = { "exit" } },
  locks = { locked_door = { key = "key" } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    if ctx.level == 1 then
      map:h_tunnel(1, 4, 2); map:set_start(1, 2); map:set(4, 2, "stairs_down")
    else
      map:h_tunnel(1, 10, 2); map:set_start(1, 2); map:set(7, 2, "locked_door"); map:mark(10, 2, "exit")
    end
  end }
"##,
    );
    let run = dunlua_in(
        scratch.path(),
        &["check", "locked.lua", "--seeds", "1", "--html", "r.html"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("(7, 2) on level 2"), "{}", run.stdout);
    let html = std::fs::read_to_string(scratch.path().join("r.html")).unwrap();
    assert!(html.contains("class=\"proof\">"), "{html}");
    assert!(html.contains("seed 0, level 2 <code>"), "{html}");
    assert!(!html.contains("seed 0, level 1 <code>"), "{html}");
}

/// The command under a failing seed's picture is the one that makes that
/// seed fail again: every `-p`, `--size` and limit the check ran with,
/// quoted for the shell (a script named `it's a $(x).lua` too), and
/// HTML-escaped in the page.
#[test]
fn the_command_shown_for_a_failure_reproduces_it() {
    let scratch = Scratch::new();
    let script = "it's a $(x) <b>.lua";
    scratch.write(
        script,
        "return { width = 20, height = 10, params = { bad = false }, generate = function(map, rng, p)\n\
           map:carve_room(Rect.new(1, 1, 5, 5)) map:set_start(2, 2)\n\
           if p.bad and map.width == 31 then error('bad map') end\n\
         end }\n",
    );
    let run = dunlua_in(
        scratch.path(),
        &[
            "check",
            script,
            "--seeds",
            "2",
            "-p",
            "bad=true",
            "--size",
            "31x12",
            "--max-attempts",
            "3",
            "--max-memory",
            "300",
            "--timeout",
            "60",
            "--html",
            "r.html",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let page = std::fs::read_to_string(scratch.path().join("r.html")).unwrap();
    let start = page.find("<figcaption>seed 0 <code>").unwrap() + "<figcaption>seed 0 <code>".len();
    let shown = &page[start..start + page[start..].find("</code>").unwrap()];
    let command = shown
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    assert_eq!(
        command,
        "dunlua 'it'\\''s a $(x) <b>.lua' --seed 0 -p bad=true --size 31x12 \
         --max-attempts 3 --max-memory 300 --timeout 60"
    );
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_dunlua"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let again = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(scratch.path())
        .env("PATH", path)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "{again:?}");
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("bad map"),
        "{again:?}"
    );
}
