//! A finished map together with where it came from: what every sink writes.

use std::path::PathBuf;

use crate::geom::Rect;
use crate::map::{Map, Marker, Tile, TileKind};
use crate::params::Params;
use crate::replay::Replay;

/// How a map was made: enough to make it again.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The script path as the user gave it.
    pub script: String,
    /// The script's `name`.
    pub name: String,
    pub seed: u64,
    /// Which attempt was accepted (0 unless the script rejected maps);
    /// attempt k ran on `script::attempt_seed(seed, k)`.
    pub attempt: u32,
    /// Every declared parameter with the value used.
    pub params: Params,
    /// Which level of the dungeon this is (1-based) and how many it has;
    /// 1 of 1 for a one-level script. Level k ran on
    /// `script::level_seed(seed, k)`.
    pub level: u32,
    pub levels: u32,
}

/// The output of one run.
#[derive(Clone, Debug)]
pub struct Generated {
    pub map: Map,
    pub provenance: Provenance,
    /// Files the script `require`d, for hot reload.
    pub modules: Vec<PathBuf>,
    /// The generation step by step, when it was recorded.
    pub replay: Option<Replay>,
    /// The attempts the script rejected before this one, and why: the
    /// first 31 and the last (each reason at most about 200 bytes).
    pub rejections: Vec<(u32, String)>,
    /// The budget units the whole run used (Lua instructions plus charged
    /// native work, over every attempt), out of `--max-instructions`.
    pub work: u64,
    /// The part of `work` charged for native primitives and C library
    /// functions; the rest are Lua instructions.
    pub native_work: u64,
    /// The puzzle the script declares (`goal`, `locks`, `one_way`), for
    /// [`Generated::prove`] and `check`; `None` when it declares none.
    pub puzzle: Option<std::sync::Arc<crate::proof::Puzzle>>,
}

/// What a game reads, without parsing text.
impl Generated {
    pub fn width(&self) -> usize {
        self.map.width() as usize
    }

    pub fn height(&self) -> usize {
        self.map.height() as usize
    }

    /// Every cell's tile, row by row (`y * width + x`); `Tile(id).0` is the
    /// id, an index into [`tile_kinds`](Self::tile_kinds).
    pub fn cells(&self) -> &[Tile] {
        self.map.cells()
    }

    /// The tile id of every cell, row by row: what a game copies into its
    /// own grid.
    pub fn tile_ids(&self) -> Vec<u8> {
        self.map.cells().iter().map(|t| t.0).collect()
    }

    /// The tile at (x, y), or `None` outside the map.
    pub fn tile_at(&self, x: i32, y: i32) -> Option<Tile> {
        self.map.get(x.into(), y.into()).ok()
    }

    /// The kind (name, glyph, colours, walkable, transparent) of the tile at (x, y).
    pub fn kind_at(&self, x: i32, y: i32) -> Option<&TileKind> {
        self.tile_at(x, y).map(|t| self.map.tiles().kind(t))
    }

    /// The name of the tile at (x, y) (`"wall"`, `"floor"`, a script's own kind).
    pub fn tile_name(&self, x: i32, y: i32) -> Option<&str> {
        self.kind_at(x, y).map(|k| k.name.as_str())
    }

    /// The tile kinds, in id order: the six built-ins, then the script's.
    pub fn tile_kinds(&self) -> impl Iterator<Item = (Tile, &TileKind)> {
        self.map.tiles().iter()
    }

    /// The rooms the script recorded, in order.
    pub fn rooms(&self) -> &[Rect] {
        self.map.rooms()
    }

    /// Where the player starts (always on a walkable cell: a map without
    /// one is an error, never a `Generated`).
    pub fn start(&self) -> (i32, i32) {
        self.map.start().unwrap_or_default()
    }

    /// The named points the script marked (stairs, spawns, treasure).
    pub fn markers(&self) -> &[Marker] {
        self.map.markers()
    }

    /// The map's 64-bit hash, the same on every machine: what
    /// `dunlua SCRIPT --hash` prints.
    pub fn hash(&self) -> u64 {
        self.map.hash64()
    }

    /// Whether this is one level of a dungeon of several.
    pub fn is_level(&self) -> bool {
        self.provenance.levels > 1
    }

    /// Proves this map, alone, against the puzzle its script declares:
    /// whether the goal can be reached from the start and no move strands
    /// the player, with one sentence naming the cells (see
    /// [`crate::proof`]). `None` when the script declares no puzzle; an
    /// error when the declaration does not fit the map (a `locks` kind it
    /// never defines). For a dungeon of several levels, prove them
    /// together with [`crate::proof::prove_levels`].
    pub fn prove(&self) -> Option<Result<crate::proof::Verdict, String>> {
        crate::proof::prove_levels(std::slice::from_ref(self))
    }

    /// The JSON form the `.json` export writes (see [`crate::json`]).
    /// Whatever its size: [`try_to_json`](Self::try_to_json) refuses one
    /// past the exports' bound, as a game taking maps from mods should.
    pub fn to_json(&self) -> String {
        crate::json::to_string(self)
    }

    /// [`to_json`](Self::to_json), or why not: the markers, rooms and
    /// properties would take more than [`crate::json::MAX_JSON_BYTES`].
    pub fn try_to_json(&self) -> Result<String, String> {
        crate::json::check_size(self)?;
        Ok(self.to_json())
    }

    /// The map as text, one glyph a cell and a line a row, with the start
    /// and the markers drawn: what `dunlua SCRIPT --ascii` prints for a
    /// one-level script.
    pub fn to_text(&self) -> String {
        self.map.text_with_markers()
    }
}

/// What `dunlua SCRIPT --ascii` prints for a seed's levels: one level's
/// text, or several each under a `level K of N` line.
pub fn levels_text(levels: &[Generated]) -> String {
    levels_text_by(levels, Generated::to_text)
}

/// [`levels_text`] with each level's text made by `text` (the command's
/// coloured text for a terminal).
pub fn levels_text_by(levels: &[Generated], text: impl Fn(&Generated) -> String) -> String {
    match levels {
        [one] => text(one),
        _ => levels
            .iter()
            .map(|g| {
                let p = &g.provenance;
                format!("level {} of {}\n{}", p.level, p.levels, text(g))
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// One hash for a whole dungeon: a one-level dungeon's is its map's hash
/// (so nothing changes for one-level scripts); several levels' is
/// [`crate::map::digest`] over (level number, map hash) in level order.
pub fn dungeon_hash(levels: &[Generated]) -> u64 {
    match levels {
        [one] => one.hash(),
        _ => crate::map::digest(
            levels
                .iter()
                .enumerate()
                .map(|(i, g)| (i as u64 + 1, g.hash())),
        ),
    }
}
