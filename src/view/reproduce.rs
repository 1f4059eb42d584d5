//! What the window tells and keeps outside itself: the command line that
//! makes the map on screen again (printed on stderr at every change), and
//! Ctrl+S's files, named by everything that made the map.

use std::path::{Path, PathBuf};

use super::state::ViewState;
use crate::export::{self, Options};
use crate::script::{self, Request};

/// The command that reproduces the current view: every flag that changes
/// the map (size, levels, attempts, parameters), quoted for a shell.
pub fn command_line(request: &Request) -> String {
    let mut line = format!(
        "dunlua {} --seed {}",
        crate::one_line::shell_word(&request.script.display().to_string()),
        request.seed
    );
    if let Some((w, h)) = request.size {
        line.push_str(&format!(" --size {w}x{h}"));
    }
    if let Some(levels) = request.levels {
        line.push_str(&format!(" --levels {levels}"));
    }
    if request.max_attempts != script::DEFAULT_MAX_ATTEMPTS {
        line.push_str(&format!(" --max-attempts {}", request.max_attempts));
    }
    for p in &request.params {
        line.push_str(&format!(" -p {}", crate::one_line::shell_word(p)));
    }
    line
}

/// The name Ctrl+S saves under: `SCRIPT-SEED`, then whatever else made
/// the map (`-80x30`, `-levels3`, `-max_rooms=12`), so maps made with
/// different settings never overwrite each other. Characters a file name
/// should not hold become `_`, and a value longer than [`MAX_VALUE`] bytes
/// is cut; either way a hash of the parameter's exact text follows it
/// (`-name=a_b~1f0c9a2e`), so values that differ only there still name
/// different files. The whole name stays under [`MAX_STEM`] bytes (cut,
/// with a hash of all of it, when longer), well under the 255 a file
/// name may have.
pub fn save_stem(request: &Request, seed: u64, params: &[String]) -> String {
    let script = request
        .script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    let mut stem = format!("{}-{seed}", safe_part(&script));
    if let Some((w, h)) = request.size {
        stem.push_str(&format!("-{w}x{h}"));
    }
    if let Some(levels) = request.levels {
        stem.push_str(&format!("-levels{levels}"));
    }
    for p in params {
        stem.push('-');
        stem.push_str(&safe_part(p));
    }
    if stem.len() > MAX_STEM {
        let hash = short_hash(&stem);
        // Only ASCII is left, so any byte is a character's boundary.
        stem.truncate(MAX_STEM - hash.len());
        stem.push_str(&hash);
    }
    stem
}

/// The most bytes of one value (or of the script's name) a saved file's
/// name keeps.
const MAX_VALUE: usize = 40;

/// The most bytes of a saved file's name before its extension (a level's
/// suffix and the extension still fit in 255).
const MAX_STEM: usize = 180;

/// `text` as part of a file name: characters a file name should not hold
/// become `_`, and it is cut to [`MAX_VALUE`] bytes; when either happened,
/// `~` and a hash of the exact text follow (`~` is never kept from a text,
/// so a hashed part never equals a kept one).
fn safe_part(text: &str) -> String {
    let mut safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_=.+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe == text && safe.len() <= MAX_VALUE {
        return safe;
    }
    safe.truncate(MAX_VALUE);
    safe.push_str(&short_hash(text));
    safe
}

/// `~` and 8 hex digits of `text`'s FNV-1a hash: the same in every run
/// and on every machine.
fn short_hash(text: &str) -> String {
    format!("~{:08x}", crate::rng::fnv1a64(text) as u32)
}

/// Ctrl+S: the map's PNG and JSON (every level of a dungeon) in the save
/// folder, through the same exporters as `--out`. Returns the status-line
/// notice.
pub fn save(state: &ViewState, request: &Request, dir: &Path, options: &Options) -> String {
    let stem = save_stem(request, state.seed(), &state.changed_params());
    let paths: Vec<PathBuf> = ["png", "json"]
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .collect();
    let mut saved = Vec::new();
    match export::write_levels(&paths, state.levels_made(), options) {
        Ok((written, notes)) => {
            for note in notes {
                note!("dunlua: {note}");
            }
            for path in written {
                note!("dunlua: saved {}", path.display());
                saved.push(path.display().to_string());
            }
        }
        Err(e) => {
            note!("dunlua: {e:#}");
            return format!("save failed: {e}");
        }
    }
    format!("saved {}", saved.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_commands_name_everything_that_made_the_map() {
        let mut request = Request::new("scripts/rooms.lua", 7);
        assert_eq!(save_stem(&request, 7, &[]), "rooms-7");
        assert_eq!(command_line(&request), "dunlua scripts/rooms.lua --seed 7");
        request.size = Some((60, 40));
        request.levels = Some(3);
        request.params = vec!["max_rooms=12".into(), "name=a b/c".into()];
        assert_eq!(
            save_stem(&request, 8, &request.params),
            format!(
                "rooms-8-60x40-levels3-max_rooms=12-name=a_b_c{}",
                short_hash("name=a b/c")
            )
        );
        request.seed = 8;
        assert_eq!(
            command_line(&request),
            "dunlua scripts/rooms.lua --seed 8 --size 60x40 --levels 3 -p max_rooms=12 -p 'name=a b/c'"
        );
    }

    #[test]
    fn save_names_stay_short_and_tell_changed_values_apart() {
        let request = Request::new("scripts/rooms.lua", 7);
        let stem = |params: &[&str]| {
            let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
            save_stem(&request, 7, &params)
        };
        // Kept as is: no hash.
        assert_eq!(stem(&["theme=a_b"]), "rooms-7-theme=a_b");
        // Replaced characters: hashed, so none of these is another's name.
        let names = [
            stem(&["theme=a/b"]),
            stem(&["theme=a b"]),
            stem(&["theme=a_b"]),
            stem(&["theme=a\\b"]),
        ];
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(
            names[0],
            format!("rooms-7-theme=a_b{}", short_hash("theme=a/b"))
        );
        // A long value is cut, and values differing past the cut differ.
        let long = format!("theme={}", "x".repeat(300));
        let longer = format!("theme={}y", "x".repeat(300));
        let a = stem(&[&long]);
        assert!(a.len() < 80, "{a}");
        assert_ne!(a, stem(&[&longer]));
        assert_eq!(a, stem(&[&long]), "the same every time");
        // Many long values, a long script name: the whole name is capped.
        let many: Vec<String> = (0..20)
            .map(|i| format!("p{i}={}", "z".repeat(100)))
            .collect();
        let many: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
        let all = stem(&many);
        assert!(all.len() <= MAX_STEM, "{} bytes", all.len());
        let mut fewer = many.clone();
        fewer.pop();
        assert_ne!(all, stem(&fewer));
        let mut named = Request::new(format!("{}.lua", "é".repeat(120)), 7);
        named.levels = Some(3);
        let stem = save_stem(&named, 7, &[]);
        assert!(stem.len() <= MAX_STEM && stem.is_ascii(), "{stem}");
        // Such names are files that can be written.
        let dir = tempfile::tempdir().unwrap();
        for name in [&a, &all, &stem] {
            std::fs::write(dir.path().join(format!("{name}.json")), "").unwrap();
        }
    }
}
