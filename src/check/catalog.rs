//! The seed catalog of `check --catalog FILE`: one line of text per seed
//! (its hash, rooms, markers, floor ratio, path length and verdict) in a
//! stable, diff-friendly format, and `--against FILE`, which compares a
//! run with a catalog written earlier and lists the seeds whose maps
//! changed, field by field (Brogue's seed catalog, diffed in CI, is the
//! model).
//!
//! The format, version 1 (the guide's *Variety* chapter has it too):
//!
//! ```text
//! # dunlua-catalog 1
//! # script scripts/rooms.lua seeds 0..100
//! seed=0 floor=0.3125 hash=5d1c0b6a3e2f4a17 markers=exit:1,key:2 path=87 rooms=9 verdict=ok
//! ```
//!
//! The first line names the format and its version; other lines starting
//! with `#` are comments. Then one line per seed, in seed order: `seed`
//! first, the other keys in alphabetical order, separated by one space.
//! A dungeon of several levels writes each per-level value level by level,
//! joined by `/`. `floor` has 4 decimals; markers are `name:count` sorted
//! by name, `-` for none; a value the seed does not have (no map) is `-`.
//! The verdict is `ok` or the check's failure kind (`unreachable`,
//! `script_error`, ...).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::generated::Generated;
use crate::ops::dijkstra;

/// The first line of every catalog.
pub const HEADER: &str = "# dunlua-catalog 1";
/// The largest catalog `--against` reads.
const CATALOG_FILE: crate::files::Kind = crate::files::Kind {
    what: "a seed catalog",
    max_bytes: 256 << 20,
};

/// What one level of a seed's map shows.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelFacts {
    pub rooms: usize,
    pub floor_ratio: f64,
    /// The longest shortest path from the start, in steps.
    pub path: i64,
    /// Marker name -> how many.
    pub markers: BTreeMap<String, usize>,
}

/// Each level's facts (measured on the worker thread).
pub fn facts(levels: &[Generated]) -> Vec<LevelFacts> {
    levels
        .iter()
        .map(|g| {
            let map = &g.map;
            let walkable = map.walkable_mask();
            let floor = walkable.iter().filter(|&&w| w).count();
            let path = map
                .start()
                .and_then(|(x, y)| dijkstra(map, &[(x as i64, y as i64)]).ok())
                .and_then(|d| d.max())
                .unwrap_or(0);
            let mut markers = BTreeMap::new();
            for m in map.markers() {
                *markers.entry(m.name.clone()).or_insert(0) += 1;
            }
            LevelFacts {
                rooms: map.rooms().len(),
                floor_ratio: floor as f64 / map.cells().len().max(1) as f64,
                path: path as i64,
                markers,
            }
        })
        .collect()
}

/// A marker name as a catalog writes it: bytes other than letters,
/// digits, `_`, `.` and `-` as `%XX`, so a line splits on spaces.
fn escape(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// One seed's catalog line (no newline).
pub fn line(seed: u64, hash: Option<u64>, facts: Option<&[LevelFacts]>, verdict: &str) -> String {
    let per_level = |f: &dyn Fn(&LevelFacts) -> String| -> String {
        match facts {
            Some(levels) if !levels.is_empty() => {
                levels.iter().map(f).collect::<Vec<_>>().join("/")
            }
            _ => "-".into(),
        }
    };
    let floor = per_level(&|l| format!("{:.4}", l.floor_ratio));
    let markers = per_level(&|l| {
        if l.markers.is_empty() {
            return "-".into();
        }
        l.markers
            .iter()
            .map(|(name, n)| format!("{}:{n}", escape(name)))
            .collect::<Vec<_>>()
            .join(",")
    });
    let path = per_level(&|l| l.path.to_string());
    let rooms = per_level(&|l| l.rooms.to_string());
    let hash = hash.map_or("-".into(), |h| format!("{h:016x}"));
    format!(
        "seed={seed} floor={floor} hash={hash} markers={markers} path={path} rooms={rooms} verdict={verdict}"
    )
}

/// A run's catalog lines, and the files the run read (which a catalog
/// must never replace).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lines {
    /// One per seed, in seed order.
    pub lines: Vec<String>,
    /// The script and every module it loaded.
    pub read: Vec<std::path::PathBuf>,
}

/// A whole catalog's text.
pub fn text(script: &str, seeds: [u64; 2], lines: &[String]) -> String {
    let mut out = format!(
        "{HEADER}\n# script {} seeds {}..{}\n",
        script.replace('\n', " "),
        seeds[0],
        seeds[1]
    );
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// A catalog read back: seed -> the rest of its line (its other fields,
/// checked, kept as the text they are to hold no more than the file).
#[derive(Debug, Default)]
pub struct Catalog {
    pub seeds: BTreeMap<u64, String>,
}

/// The `key=value` fields of the rest of a line read by [`parse_line`].
fn fields(rest: &str) -> Vec<(&str, &str)> {
    rest.split(' ').filter_map(|t| t.split_once('=')).collect()
}

/// Checks a line's `key=value` fields, `seed` first: the seed and the
/// rest of the line.
fn parse_line(text: &str) -> Result<(u64, String), String> {
    let mut fields: Vec<(&str, &str)> = Vec::new();
    let mut seed = None;
    for (i, token) in text.split(' ').enumerate() {
        let Some((key, value)) = token.split_once('=') else {
            return Err(format!("'{}' is not key=value", cut(token)));
        };
        if key.is_empty() || value.is_empty() {
            return Err(format!("'{}' has an empty key or value", cut(token)));
        }
        if i == 0 {
            if key != "seed" {
                return Err(format!("a line starts with seed=N, not '{}'", cut(token)));
            }
            seed = Some(
                value
                    .parse::<u64>()
                    .map_err(|_| format!("seed '{}' is not a whole number", cut(value)))?,
            );
            continue;
        }
        if fields.iter().any(|(k, _)| *k == key) {
            return Err(format!("the key '{}' appears twice", cut(key)));
        }
        fields.push((key, value));
    }
    let seed = seed.ok_or("an empty line")?;
    // Every field this format writes: a line without one was cut short.
    for key in ["floor", "hash", "markers", "path", "rooms", "verdict"] {
        if !fields.iter().any(|(k, _)| *k == key) {
            return Err(format!("seed {seed} has no {key}= (a line cut short?)"));
        }
    }
    let rest = text.split_once(' ').map_or("", |(_, rest)| rest);
    Ok((seed, rest.to_string()))
}

/// A value cut short for a message.
fn cut(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

impl Catalog {
    /// Reads and parses a catalog; the error is one line naming the file
    /// (and line).
    pub fn read(path: &Path) -> Result<Catalog, String> {
        let name = path.display();
        let bytes = crate::files::read(path, CATALOG_FILE)
            .map_err(|e| format!("--against {name}: cannot read it: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("--against {name}: not a seed catalog (not UTF-8 text)"))?;
        Catalog::parse(&text).map_err(|(line, why)| format!("--against {name}:{line}: {why}"))
    }

    /// Parses a catalog's text; an error names its line (from 1).
    pub fn parse(text: &str) -> Result<Catalog, (usize, String)> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.trim_end() == HEADER => {}
            Some((_, first)) if first.starts_with("# dunlua-catalog ") => {
                return Err((
                    1,
                    format!(
                        "catalog format '{}', this dunlua reads '{HEADER}'",
                        cut(first)
                    ),
                ))
            }
            _ => {
                return Err((
                    1,
                    format!("not a seed catalog (the first line is not '{HEADER}')"),
                ))
            }
        }
        // dunlua ends every line it writes: a file that does not end so
        // was cut short (a copy that stopped, a full disk).
        if !text.ends_with('\n') {
            return Err((
                text.lines().count(),
                "the last line is cut short (no newline at its end)".into(),
            ));
        }
        let mut catalog = Catalog::default();
        for (i, line) in lines {
            let line = line.trim_end_matches('\r');
            // Comments, and blank lines an editor may leave.
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (seed, fields) = parse_line(line).map_err(|why| (i + 1, why))?;
            if catalog.seeds.insert(seed, fields).is_some() {
                return Err((i + 1, format!("seed {seed} appears twice")));
            }
        }
        Ok(catalog)
    }

    /// What changed from `self` (the old catalog) to `now`: one line per
    /// seed that changed, was added or is missing, in seed order.
    pub fn changes(&self, now: &Catalog) -> Changes {
        let mut changes = Changes::default();
        for (seed, line) in &now.seeds {
            let Some(old_line) = self.seeds.get(seed) else {
                changes.added += 1;
                changes.lines.push(format!("seed {seed}: added ({line})"));
                continue;
            };
            if old_line == line {
                continue;
            }
            let (old, new) = (fields(old_line), fields(line));
            let mut diffs = Vec::new();
            // The hash first: it says the map changed.
            let mut keys: Vec<&str> = new.iter().chain(&old).map(|(k, _)| *k).collect();
            keys.sort_by_key(|k| (*k != "hash", *k));
            keys.dedup();
            for key in keys {
                let before = old.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                let after = new.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                if before != after {
                    diffs.push(format!(
                        "{key} {} -> {}",
                        before.unwrap_or("(none)"),
                        after.unwrap_or("(none)")
                    ));
                }
            }
            if !diffs.is_empty() {
                changes.changed += 1;
                changes
                    .lines
                    .push(format!("seed {seed}: {}", diffs.join(", ")));
            }
        }
        for (seed, line) in &self.seeds {
            if !now.seeds.contains_key(seed) {
                changes.missing += 1;
                changes
                    .lines
                    .push(format!("seed {seed}: missing (was {line})"));
            }
        }
        changes.lines.sort_by_key(|l| {
            l.split([' ', ':'])
                .nth(1)
                .and_then(|s| s.parse::<u64>().ok())
        });
        changes
    }
}

/// What `--against` found.
#[derive(Debug, Default, PartialEq)]
pub struct Changes {
    pub changed: usize,
    pub added: usize,
    pub missing: usize,
    /// One line per seed, in seed order.
    pub lines: Vec<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The summary and the lines, as `check` prints them.
    pub fn text(&self, against: &Path) -> String {
        let mut out = format!(
            "against {}: {} seeds changed, {} added, {} missing\n",
            against.display(),
            self.changed,
            self.added,
            self.missing
        );
        for l in &self.lines {
            out.push_str("  ");
            out.push_str(l);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rooms: usize, markers: &[(&str, usize)]) -> LevelFacts {
        LevelFacts {
            rooms,
            floor_ratio: 1.0 / 3.0,
            path: 12,
            markers: markers.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
        }
    }

    #[test]
    fn lines_are_sorted_fixed_and_read_back() {
        let l = line(
            7,
            Some(0xab),
            Some(&[level(3, &[("key", 2), ("a b", 1)])]),
            "ok",
        );
        assert_eq!(
            l,
            "seed=7 floor=0.3333 hash=00000000000000ab markers=a%20b:1,key:2 path=12 rooms=3 verdict=ok"
        );
        let two = line(
            8,
            Some(1),
            Some(&[level(1, &[]), level(2, &[("x", 1)])]),
            "ok",
        );
        assert!(
            two.contains("rooms=1/2") && two.contains("markers=-/x:1"),
            "{two}"
        );
        let none = line(9, None, None, "script_error");
        assert_eq!(
            none,
            "seed=9 floor=- hash=- markers=- path=- rooms=- verdict=script_error"
        );
        let text = text("s.lua", [7, 10], &[l, two, none]);
        let catalog = Catalog::parse(&text).unwrap();
        assert_eq!(catalog.seeds.len(), 3);
        assert!(catalog.changes(&Catalog::parse(&text).unwrap()).is_empty());
    }

    /// A whole line of the format, with its hash and rooms.
    fn full(seed: u64, hash: &str, rooms: u32) -> String {
        format!("seed={seed} floor=0.1000 hash={hash} markers=- path=9 rooms={rooms} verdict=ok")
    }

    #[test]
    fn changes_name_the_fields_and_the_seeds() {
        let old = Catalog::parse(&format!(
            "{HEADER}\n{}\n{}\n{}\n",
            full(1, "aa", 3),
            full(2, "bb", 4),
            full(3, "cc", 1)
        ))
        .unwrap();
        let now = Catalog::parse(&format!(
            "{HEADER}\n{}\n{}\n{}\n",
            full(1, "aa", 3),
            full(2, "dd", 5),
            full(4, "ee", 1)
        ))
        .unwrap();
        let c = old.changes(&now);
        assert_eq!((c.changed, c.added, c.missing), (1, 1, 1));
        assert_eq!(c.lines[0], "seed 2: hash bb -> dd, rooms 4 -> 5");
        assert!(c.lines[1].starts_with("seed 3: missing"));
        assert!(c.lines[2].starts_with("seed 4: added"));
    }

    #[test]
    fn malformed_catalogs_name_the_line() {
        assert_eq!(Catalog::parse("hello\n").unwrap_err().0, 1);
        let e = Catalog::parse(&format!(
            "{HEADER}\n# c\n{}\nseed=x hash=b\n",
            full(1, "a", 1)
        ))
        .unwrap_err();
        assert_eq!(e.0, 4, "{e:?}");
        assert_eq!(
            Catalog::parse(&format!(
                "{HEADER}\n{}\n{}\n",
                full(1, "a", 1),
                full(1, "b", 1)
            ))
            .unwrap_err()
            .0,
            3
        );
        assert!(Catalog::parse(&format!("{HEADER}\nseed=1 rooms=2\n")).is_err());
        assert!(Catalog::parse(&format!("{HEADER}\nseed=1 hash=a rooms\n")).is_err());
        assert!(Catalog::parse("# dunlua-catalog 9\n")
            .unwrap_err()
            .1
            .contains("format"));
    }

    #[test]
    fn a_catalog_cut_short_is_refused() {
        let whole = format!("{HEADER}\n{}\n{}\n", full(1, "a", 1), full(2, "b", 2));
        assert!(Catalog::parse(&whole).is_ok());
        // Cut inside the last line: no newline at the end.
        let cut = &whole[..whole.len() - 10];
        let e = Catalog::parse(cut).unwrap_err();
        assert_eq!(e.0, 3, "{e:?}");
        assert!(e.1.contains("cut short"), "{e:?}");
        // Cut at a line's end but before its last fields.
        let e = Catalog::parse(&format!("{HEADER}\nseed=1 floor=0.1000 hash=a markers=-\n"))
            .unwrap_err();
        assert!(e.1.contains("has no path="), "{e:?}");
    }
}
