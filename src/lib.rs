//! dunlua: a scriptable roguelike dungeon generator. A Rust host owns the map
//! and a seeded RNG and lends fast native primitives to Lua scripts, which
//! decide the layout.
//!
//! The primitives are plain Rust on [`Map`], usable without Lua:
//!
//! ```
//! use dunlua::{Map, Rect, Tile};
//!
//! let mut map = Map::new(8, 5).unwrap();
//! map.carve_room(&Rect::new(0, 0, 4, 4), Tile::FLOOR).unwrap();
//! map.h_tunnel(3, 6, 2, Tile::FLOOR).unwrap();
//! map.set_start(1, 1).unwrap();
//! assert_eq!(map.to_string(), "########\n#@..####\n#......#\n#...####\n########\n");
//! ```
//!
//! Running a script is one call; the same request always gives the same map:
//!
//! ```no_run
//! use dunlua::script::{run, Request};
//!
//! let generated = run(&Request::new("scripts/rooms.lua", 7)).unwrap();
//! print!("{}", generated.map);
//! ```

#![deny(unsafe_code)]

/// `eprintln!` that never panics: a closed or broken stderr is no reason to
/// stop (or to lose the outputs being written); and one line, whatever a
/// file name or a script's message holds (see [`one_line`]).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", $crate::one_line::one_line(&line));
    }};
}

// Generation: what every build has (the lean library a game links).
mod closest;
pub mod files;
pub mod generated;
pub mod generator;
pub mod geom;
pub mod glyphs;
pub mod json;
pub mod layout;
pub mod map;
pub mod one_line;
pub mod ops;
pub mod params;
pub mod proof;
pub mod replay;
pub mod rng;
pub mod script;

pub use generated::{Generated, Provenance};
pub use generator::{Generator, GeneratorBuilder};
pub use geom::Rect;
pub use map::{Map, MapError, Tile, TileSet};
pub use rng::Rng;
pub use script::{FailureKind, LimitKind, LimitNames, Limits, ScriptError as Error};

// Pictures and files (features `png`, `export`).
#[cfg(feature = "export")]
pub mod export;
#[cfg(feature = "png")]
pub mod render;
#[cfg(feature = "png")]
pub mod thumbnail;

// The command (feature `cli`) and its window (feature `window`).
#[cfg(feature = "cli")]
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod templates;
#[cfg(feature = "window")]
pub mod view;
#[cfg(feature = "window")]
pub mod watch;
