//! What the host keeps about the run under way, reachable from every API
//! function through the VM's app data; made anew by every reset.

use std::path::PathBuf;

use mlua::{AnyUserData, Table};

use crate::map::TileSet;

/// What the host keeps about one run, reachable from every API function.
pub(crate) struct HostState {
    /// Kinds defined before the map exists; moved into it by `generate`.
    /// `None` until the script defines one: the built-in kinds (made a
    /// run only for the map, not for every reset too: their names are
    /// seven allocations).
    pending_tiles: Option<TileSet>,
    /// The map while `generate` runs.
    pub map: Option<AnyUserData>,
    /// Every file `require` loaded, for hot reload.
    pub modules: Vec<PathBuf>,
    /// Why the script called `reject`, if it did (even if a `pcall` caught it).
    pub rejected: Option<String>,
    /// `require`'s cache of loaded modules.
    pub loaded: Option<Table>,
    /// Bytes `print` wrote in this run.
    pub printed: usize,
    /// The objects `tostring` numbered in this run (see `object_names`).
    pub object_names: Option<Table>,
    /// How many it numbered.
    pub named_objects: u64,
    /// The parameters `generate` was handed (their names are what a read
    /// of an undeclared one is compared with: `params_table`).
    pub params: Option<crate::params::Params>,
}

impl HostState {
    /// The kinds defined so far, before the map exists.
    pub(crate) fn pending_tiles(&self) -> &TileSet {
        static BUILTIN: std::sync::LazyLock<TileSet> = std::sync::LazyLock::new(TileSet::builtin);
        self.pending_tiles.as_ref().unwrap_or(&BUILTIN)
    }

    /// The kinds defined so far, to define more.
    pub(crate) fn pending_tiles_mut(&mut self) -> &mut TileSet {
        self.pending_tiles.get_or_insert_with(TileSet::builtin)
    }

    /// The kinds defined so far, for the run's map.
    pub(crate) fn take_pending_tiles(&mut self) -> TileSet {
        self.pending_tiles.take().unwrap_or_else(TileSet::builtin)
    }

    pub(crate) fn fresh() -> HostState {
        HostState {
            pending_tiles: None,
            map: None,
            modules: Vec::new(),
            rejected: None,
            loaded: None,
            printed: 0,
            object_names: None,
            named_objects: 0,
            params: None,
        }
    }
}
