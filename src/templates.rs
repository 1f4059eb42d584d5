//! `dunlua new`: starting scripts, built into the binary so they work from
//! any folder: a commented template, or a copy of any reference script
//! (with the shared `lib/` modules it requires).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::export::write_atomically;

/// The names `--from` accepts.
pub const NAMES: &[&str] = &[
    "template",
    "rooms",
    "rooms_jsrlt",
    "rooms_malwoden",
    "rooms_yeti",
    "bsp",
    "caves",
    "drunkard",
    "maze",
    "mixed",
    "vaults",
    "keys",
    "crypt",
    "lakes",
    "digger",
    "river",
    "levels",
    "graph_dungeon",
    "wfc_caves",
    "wfc_town",
];

/// The shared modules a copied script may require, written beside it.
const LIBS: &[(&str, &str)] = &[
    ("features", include_str!("../scripts/lib/features.lua")),
    ("rooms", include_str!("../scripts/lib/rooms.lua")),
    ("spawn", include_str!("../scripts/lib/spawn.lua")),
];

fn source(name: &str) -> Option<&'static str> {
    Some(match name {
        "template" => include_str!("templates/starter.lua"),
        "rooms" => include_str!("../scripts/rooms.lua"),
        "rooms_jsrlt" => include_str!("../scripts/rooms_jsrlt.lua"),
        "rooms_malwoden" => include_str!("../scripts/rooms_malwoden.lua"),
        "rooms_yeti" => include_str!("../scripts/rooms_yeti.lua"),
        "bsp" => include_str!("../scripts/bsp.lua"),
        "caves" => include_str!("../scripts/caves.lua"),
        "drunkard" => include_str!("../scripts/drunkard.lua"),
        "maze" => include_str!("../scripts/maze.lua"),
        "mixed" => include_str!("../scripts/mixed.lua"),
        "vaults" => include_str!("../scripts/vaults.lua"),
        "keys" => include_str!("../scripts/keys.lua"),
        "crypt" => include_str!("../scripts/crypt.lua"),
        "lakes" => include_str!("../scripts/lakes.lua"),
        "digger" => include_str!("../scripts/digger.lua"),
        "river" => include_str!("../scripts/river.lua"),
        "levels" => include_str!("../scripts/levels.lua"),
        "graph_dungeon" => include_str!("../scripts/graph_dungeon.lua"),
        "wfc_caves" => include_str!("../scripts/wfc_caves.lua"),
        "wfc_town" => include_str!("../scripts/wfc_town.lua"),
        _ => return None,
    })
}

/// Writes `path` from the template or reference script `from` (default the
/// template), plus `lib/features.lua` beside it when the script needs it
/// and it is not there. Refuses to overwrite anything, and to start a
/// script beside a `lib/` module of the same name that is not the one it
/// needs (it would not run): nothing is written then. Returns what it
/// wrote.
pub fn write_new(path: &Path, from: Option<&str>) -> anyhow::Result<Vec<PathBuf>> {
    let given = from.unwrap_or("template");
    // `caves.lua` and `scripts/caves.lua` (the reference script's file, as
    // the guide and the tab key spell it) name `caves` too.
    let name = given.strip_prefix("scripts/").unwrap_or(given);
    let name = name.strip_suffix(".lua").unwrap_or(name);
    let Some(text) = source(name) else {
        let guess = crate::closest::closest(name, NAMES.iter().copied())
            .map(|n| format!("did you mean '{n}'? "))
            .unwrap_or_default();
        bail!(
            "unknown starting script '{given}'; {guess}choose one of {}",
            NAMES.join(", ")
        );
    };
    if path.exists() {
        bail!(
            "{} already exists; choose another name (dunlua new never overwrites)",
            path.display()
        );
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        bail!("folder {} does not exist", folder.display());
    }
    let shown = path.display().to_string();
    let text = text.replace("THIS_FILE", &shown);
    let needed: Vec<(PathBuf, &str)> = LIBS
        .iter()
        .filter(|(module, _)| text.contains(&format!("require(\"lib.{module}\")")))
        .map(|(module, source)| (folder.join("lib").join(format!("{module}.lua")), *source))
        .collect();
    for (lib, source) in &needed {
        if lib.exists() && std::fs::read(lib).ok().as_deref() != Some(source.as_bytes()) {
            bail!(
                "{} already exists and is not the one {name} needs (it would not run with it); \
                 start the script in another folder, or move that file aside",
                lib.display()
            );
        }
    }
    let mut written = Vec::new();
    for (lib, source) in needed {
        if !lib.exists() {
            let dir = folder.join("lib");
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            write_atomically(&lib, source.as_bytes())?;
            written.push(lib);
        }
    }
    write_atomically(path, text.as_bytes())?;
    written.push(path.to_path_buf());
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_starting_script_gets_the_closest_name() {
        let dir = std::env::temp_dir().join(format!("dunlua-new-{}", std::process::id()));
        let err = write_new(&dir.join("x.lua"), Some("cave")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("did you mean 'caves'?"), "{text}");
        assert!(text.contains("choose one of"), "{text}");
        let err = write_new(&dir.join("x.lua"), Some("nonsense")).unwrap_err();
        assert!(!err.to_string().contains("did you mean"), "{err}");
        assert!(!dir.exists(), "nothing written");
    }
}
