//! The Lua API described once: `dunlua api` prints it, `types/dunlua.lua`
//! (LuaLS annotations for editor completion) is generated from it, and a
//! test checks it against what the host really registers, so neither can
//! drift from the code. [`table`] holds the API as data, [`render`] its two
//! renderings, and `sync` (tests only) the check against the host.

mod render;
#[cfg(test)]
mod sync;
mod table;

pub use render::{luals, reference};
pub use table::{Entry, Kind, Owner, API};
