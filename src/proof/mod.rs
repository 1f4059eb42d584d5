//! The completion proof: given a dungeon's levels and the puzzle its
//! script declares ([`Puzzle`]: goals, locks and their keys, one-way
//! drops, secret doors), proves that a goal can be reached from the start
//! and that no state the player can reach strands them (a softlock), or
//! says in one sentence, naming cells, why not. Plain Rust over [`Map`]s:
//! what `check` runs on every seed and what a game calls on a level it
//! generated ([`crate::Generated::prove`], [`prove_levels`]).
//!
//! The model: the player walks 4-connected over walkable cells (and
//! `secret_door` cells unless `secrets = false`); a cell of a kind named
//! in `locks` is shut until its key opens it; keys are picked up (or left)
//! by walking onto their markers; a kept key opens every lock of its kind,
//! a consumed key opens one lock, which stays open; stepping on a `one_way`
//! kind drops the player onto the same (x, y) of the level below; a
//! `stairs_down` leads to the next level's start and a `stairs_up` back to
//! the `stairs_down` above (the one at the same cell, else the first).

mod explain;
mod graph;
pub mod puzzle;
mod search;

pub use puzzle::{LockRule, Puzzle};
pub use search::MAX_STATES;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::generated::Generated;
use crate::map::Map;

/// When a proof must give up whatever it has left: a wall-clock deadline
/// (a run's `--timeout`) and a flag another thread sets to cancel it. A
/// proof that stops for either ends [`Outcome::TooManyStates`], saying
/// so, within a few milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How a proof ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A goal can be reached from the start and from every state the
    /// player can reach.
    Finishable,
    /// No goal can be reached from the start.
    Unfinishable,
    /// A goal can be reached, but some move strands the player.
    Softlock,
    /// More than [`MAX_STATES`] states (or keys and consumed locks than
    /// the proof tracks): neither proved nor refuted.
    TooManyStates,
}

impl Outcome {
    /// The outcome's name, as the C ABI and the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Finishable => "finishable",
            Outcome::Unfinishable => "unfinishable",
            Outcome::Softlock => "softlock",
            Outcome::TooManyStates => "too_many_states",
        }
    }
}

/// A cell of a dungeon: level (1-based, 1 for a one-level map), x, y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProofCell {
    pub level: u32,
    pub x: i32,
    pub y: i32,
}

/// What the proof found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// One plain sentence naming cells: why the dungeon cannot be
    /// finished, which move strands the player, or what was proved.
    pub sentence: String,
    /// The cells the sentence names (the blocking lock or move first).
    pub cells: Vec<ProofCell>,
    /// The way the player was tried: from where they entered the level of
    /// the first named cell up to it (empty when there is nothing to show).
    pub path: Vec<ProofCell>,
    /// How many states the search visited.
    pub states: usize,
}

impl Verdict {
    pub fn is_finishable(&self) -> bool {
        self.outcome == Outcome::Finishable
    }
}

/// Proves a dungeon (its maps, level 1 first) against a puzzle. An error
/// is a declaration that does not fit the maps: a `locks` or `one_way`
/// kind no level defines, one key both kept and consumed.
pub fn prove(maps: &[&Map], puzzle: &Puzzle) -> Result<Verdict, String> {
    prove_until(maps, puzzle, &Stop::default())
}

/// [`prove`], stopped at `stop`'s deadline or when its flag is set: what
/// a caller with a deadline (a run's `--timeout`) calls.
pub fn prove_until(maps: &[&Map], puzzle: &Puzzle, stop: &Stop) -> Result<Verdict, String> {
    if maps.is_empty() {
        return Err("no levels to prove".into());
    }
    let world = match graph::build(maps, puzzle) {
        Ok(world) => world,
        Err(graph::BuildError::Declaration(why)) => return Err(why),
        Err(graph::BuildError::TooLarge(why)) => {
            return Ok(Verdict {
                outcome: Outcome::TooManyStates,
                sentence: format!("too many states to prove: {why}"),
                cells: Vec::new(),
                path: Vec::new(),
                states: 0,
            })
        }
    };
    let stopped = |n: usize, sentence: String| Verdict {
        outcome: Outcome::TooManyStates,
        sentence,
        cells: Vec::new(),
        path: Vec::new(),
        states: n,
    };
    let explored = match world.explore(stop) {
        Ok(explored) => explored,
        Err(search::TooMany::States(n)) => {
            return Ok(stopped(n, format!(
                "too many states to prove: the search stopped after {n} (keys, locks and regions combine into too many)"
            )))
        }
        Err(search::TooMany::Stopped(n)) => {
            return Ok(stopped(n, format!(
                "too many states to prove: the deadline passed (or the run was cancelled) after {n}"
            )))
        }
    };
    Ok(explain::verdict(&world, &explored, puzzle, stop))
}

/// Proves a generated dungeon (its levels in order) against the puzzle
/// its script declared; `None` when the script declares none.
pub fn prove_levels(levels: &[Generated]) -> Option<Result<Verdict, String>> {
    prove_levels_until(levels, &Stop::default())
}

/// [`prove_levels`], stopped at `stop`'s deadline or when cancelled.
pub fn prove_levels_until(levels: &[Generated], stop: &Stop) -> Option<Result<Verdict, String>> {
    let puzzle = levels.first()?.puzzle.clone()?;
    let maps: Vec<&Map> = levels.iter().map(|g| &g.map).collect();
    Some(prove_until(&maps, &puzzle, stop))
}

#[cfg(test)]
mod tests;
