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
/// stop (or to lose the outputs being written).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod geom;
pub mod map;
pub mod ops;
pub mod render;
pub mod replay;
pub mod rng;

pub use geom::Rect;
pub use map::{Map, MapError, Tile, TileSet};
pub use rng::Rng;
pub mod generated;
pub mod params;
pub mod script;
pub mod templates;
pub mod view;
pub mod watch;

pub use generated::{Generated, Provenance};
pub mod check;
pub mod cli;
pub mod export;
