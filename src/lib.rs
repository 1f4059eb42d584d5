//! dunlua: a scriptable roguelike dungeon generator. A Rust host owns the map
//! and a seeded RNG and lends fast native primitives to Lua scripts, which
//! decide the layout.

pub mod geom;
pub mod map;
pub mod ops;
pub mod rng;

pub use geom::Rect;
pub use map::{Map, MapError, Tile, TileSet};
pub use rng::Rng;
pub mod generated;
pub mod params;
pub mod script;

pub use generated::{Generated, Provenance};
pub mod cli;
pub mod export;
