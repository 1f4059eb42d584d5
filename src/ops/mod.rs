//! Native primitives: plain Rust functions on [`Map`](crate::map::Map) that do
//! every per-cell loop, so scripts only decide *where*. No Lua in here.

mod carve;
mod flood;
mod fov;

pub use flood::{flood, unreachable_walkable};
pub use fov::{field_of_view, visible_mask};
