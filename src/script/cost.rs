//! What native work costs in the budget's unit, one Lua VM instruction
//! (about 7 ns on the Intel machine the rates were set on, about 3 ns on
//! the AMD one of the latest performance tables, native work faster
//! too): the rates make a primitive's work cost about what its
//! time would have bought in Lua instructions, so no call does much more
//! work per unit than the script's own code. Pure functions of a call's
//! arguments, so work is charged before it is done.

use crate::geom::Rect;
use crate::map::Map;

/// Cells written per unit by bulk writes (fill, carve, copy): memset speed.
pub const CELLS_PER_UNIT_WRITTEN: u64 = 16;
/// Units per cell visited by searches and whole-map passes (flood, regions,
/// distances, cellular steps, neighbour counts): a few loads and a branch.
pub const UNITS_PER_CELL_VISITED: u64 = 1;

/// Units a binding charges for the work of reading its arguments (about
/// half a µs: conversion, a checked borrow), on top of what the VM charges
/// every call into the host (`DUNLUA_HOST_CALL_UNITS` in
/// `src/script/raw/lua/ldo.c`, also 100): the bindings that read tables of
/// options or many arguments charge it, so a loop of them is paid for by
/// its time, not by its few Lua instructions.
pub const CALL_UNITS: u64 = 100;
/// Units for each table or userdata a call makes and hands back in a list
/// (`map:rooms()`'s rects, `map:markers()`'s tables): about 150 ns each.
pub const UNITS_PER_VALUE_MADE: u64 = 48;
/// Units `map:place_prefab` charges each try besides the prefab's cells
/// (a spot drawn, maybe a turn, the checks).
pub const PREFAB_TRY_UNITS: u64 = 16;
/// Units for a line `print` writes: a write to stderr (a system call, a
/// few microseconds to a file), besides its bytes and values.
pub const PRINT_LINE_UNITS: u64 = 1000;
/// Units for a value `print` turns into text.
pub const PRINT_VALUE_UNITS: u64 = 16;
/// Units for a host function's error that the script catches (`pcall`,
/// `xpcall`, `coroutine.resume`): mlua makes a traceback of the stack for
/// it (naming each frame's function by a search of the loaded libraries)
/// and the host writes its message, about 20 µs, while the instructions
/// around it count a few hundred units.
pub const CAUGHT_HOST_ERROR_UNITS: u64 = 6000;
/// Units for one swap of two list entries from Rust (four table accesses).
pub const SWAP_UNITS: u64 = 30;

/// Bytes Lua takes for one `{x, y}` list a call hands back in a list
/// (`sel:cells()`): a table, its array of two and the list's slot. What a
/// call makes room for before building (`budget::make_room`), as
/// measured (3 million cells, 320 MB: 107 a cell); an estimate over it
/// refused lists that fit.
pub const POINT_TABLE_BYTES: usize = 108;
/// Bytes for one of `map:path`'s points (`p[1]`, `p[2]`, `p.x`, `p.y`): a
/// table with an array of two and two fields (measured: 160).
pub const PATH_POINT_BYTES: usize = 160;
/// Bytes for one of `map:markers()`'s `{x, y, name, props}` tables, its
/// empty `props` and the list's slot (measured: 241).
pub const MARKER_TABLE_BYTES: usize = 244;
/// Bytes for one more field of a table a call hands back (a marker's prop).
pub const FIELD_BYTES: usize = 48;

/// Units for compiling `bytes` of Lua source (`load`, `require`): the
/// parser runs no instructions, and a chunk takes about 25 ns a byte here
/// to compile and later collect.
pub fn compiled(bytes: u64) -> u64 {
    bytes.saturating_mul(4)
}

/// Units for one pass over `bytes` of a script's text (hashing, comparing,
/// checking or copying it): about a nanosecond a byte.
pub fn text(bytes: u64) -> u64 {
    bytes / 8 + 1
}

/// Units for writing `cells` cells.
pub fn written(cells: u64) -> u64 {
    cells / CELLS_PER_UNIT_WRITTEN + 1
}

/// Units for visiting `cells` cells.
pub fn visited(cells: u64) -> u64 {
    cells.saturating_mul(UNITS_PER_CELL_VISITED)
}

/// The cells of the whole map, as a cost.
pub fn area(map: &Map) -> u64 {
    map.width() as u64 * map.height() as u64
}

/// The cells a rect covers on the map, as a cost (never more than the map:
/// a rect off the map is refused by the primitive, not charged for).
pub fn rect_cells(map: &Map, r: &Rect) -> u64 {
    let w = (r.x2 as i64 - r.x1 as i64 + 1).max(0) as u64;
    let h = (r.y2 as i64 - r.y1 as i64 + 1).max(0) as u64;
    w.saturating_mul(h).min(area(map))
}

/// The cells between two coordinates, as a cost.
pub fn span(a: i64, b: i64, limit: i32) -> u64 {
    (a.abs_diff(b) + 1).min(limit as u64)
}

/// A full collection of a heap of `bytes`: it marks and sweeps every object.
pub fn collection(bytes: u64) -> u64 {
    bytes / 8
}
