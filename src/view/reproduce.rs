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
        shell_word(&request.script.display().to_string()),
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
        line.push_str(&format!(" -p {}", shell_word(p)));
    }
    line
}

/// A word as a POSIX shell reads it back: as is when plain, else quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_=.,+-/:@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The name Ctrl+S saves under: `SCRIPT-SEED`, then whatever else made
/// the map (`-80x30`, `-levels3`, `-max_rooms=12`), so maps made with
/// different settings never overwrite each other. Characters a file name
/// should not hold become `_`.
pub fn save_stem(request: &Request, seed: u64, params: &[String]) -> String {
    let script = request
        .script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    let mut stem = format!("{script}-{seed}");
    if let Some((w, h)) = request.size {
        stem.push_str(&format!("-{w}x{h}"));
    }
    if let Some(levels) = request.levels {
        stem.push_str(&format!("-levels{levels}"));
    }
    for p in params {
        let safe: String = p
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_=.+-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        stem.push('-');
        stem.push_str(&safe);
    }
    stem
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
            "rooms-8-60x40-levels3-max_rooms=12-name=a_b_c"
        );
        request.seed = 8;
        assert_eq!(
            command_line(&request),
            "dunlua scripts/rooms.lua --seed 8 --size 60x40 --levels 3 -p max_rooms=12 -p 'name=a b/c'"
        );
    }
}
