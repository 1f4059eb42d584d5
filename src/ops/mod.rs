//! Native primitives: plain Rust functions on [`Map`](crate::map::Map) that do
//! every per-cell loop, so scripts only decide *where*. No Lua in here.

mod analysis;
mod bits;
mod carve;
mod cellular;
mod choke;
mod connect;
mod flood;
mod fov;
mod index;
mod loops;
mod maze;
pub mod meter;
mod noise;
mod path;
mod rock;
mod selection;
mod shapes;
mod stamp;
pub mod wfc;

pub use analysis::{
    dijkstra, label_regions, region_runs, regions, regions_of_kinds, DistanceMap, Region,
    RegionKinds, RegionLabels,
};
pub use cellular::CellularRule;
pub use choke::{chokepoints, disconnects};
pub use flood::{flood, flood_avoiding, flood_selection, unreachable_walkable};
pub use fov::{field_of_view, visible_mask};
pub use index::RectIndex;
pub use noise::{draws as noise_draws, Noise, MAX_SCALE as NOISE_MAX_SCALE};
pub use path::{path, PathCosts};
pub use rock::{buried_mask, is_buried};
pub use selection::Selection;
pub use stamp::{orient, Mirror, MirrorChoice, PlaceOn, Placement, StampCell};
