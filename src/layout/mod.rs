//! Graph-first layout: rooms drawn as a graph (nodes, and edges that must
//! become doors or corridors) and hand-drawn room templates with the places
//! where doors may go, turned into a placement of every room on the map.
//!
//! Plain Rust, no Lua: [`shapes`] turns templates into their allowed turns
//! and mirrors, [`precheck`] refuses impossible inputs at once with a plain
//! reason, [`board`] keeps which cell belongs to what (with undo), and
//! [`search`] places rooms one at a time, cycles first, backtracking, and
//! restarting from scratch per attempt. Every random choice is drawn from
//! the caller's [`crate::rng::Rng`]; every step of work is reported to a
//! `charge` callback first, so a script's budget bounds it.

pub mod board;
pub mod precheck;
pub mod search;
pub mod shapes;

pub use search::{solve, Event, Outcome, Placed, Realised};
pub use shapes::{CellKind, Shape, TemplateSpec};

/// The most rooms one graph may hold: far more than fit on any sensible
/// map, few enough that a hostile graph is refused before any work.
pub const MAX_ROOMS: usize = 1000;
/// The most edges one graph may hold.
pub const MAX_EDGES: usize = 4000;
/// The most layout attempts one call may ask for.
pub const MAX_ATTEMPTS: u32 = 100_000;

/// One room of the graph: its name and the templates it may use (indices
/// into the template list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    pub templates: Vec<usize>,
}

/// One edge: the two rooms it joins (indices into the node list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
}

/// What the graph asks for.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl Graph {
    /// The edges at each node, in the order they were declared.
    pub fn incident(&self) -> Vec<Vec<usize>> {
        let mut at = vec![Vec::new(); self.nodes.len()];
        for (e, edge) in self.edges.iter().enumerate() {
            at[edge.a].push(e);
            at[edge.b].push(e);
        }
        at
    }

    /// The other end of edge `e` seen from node `n`.
    pub fn other(&self, e: usize, n: usize) -> usize {
        let edge = self.edges[e];
        if edge.a == n {
            edge.b
        } else {
            edge.a
        }
    }
}

/// How edges are realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joints {
    /// Connected rooms share a door place (they touch).
    Shared,
    /// A corridor from door to door of `min..=max` cells (both ≥ 1).
    Corridors { min: u32, max: u32 },
}

/// Everything a layout needs besides the map's size and blocked cells.
#[derive(Clone, Debug)]
pub struct Problem {
    pub graph: Graph,
    pub templates: Vec<TemplateSpec>,
    pub joints: Joints,
    pub attempts: u32,
}
