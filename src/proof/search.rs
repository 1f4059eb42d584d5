//! The search over the player's state (region, keys picked up, consumed
//! locks opened): every state reachable from the start, breadth first,
//! then backwards from the goal states to learn which states can still
//! finish. Picking a key up is a move of its own, so a player who leaves
//! a key behind is a state the proof visits too; of the keys of one name
//! in one region, only the first not picked up is (they are alike).

use std::sync::atomic::Ordering;

use rustc_hash::FxHashMap;

use super::graph::{Move, World};
use super::Stop;

/// The most states one proof visits before it gives up.
pub const MAX_STATES: usize = 200_000;
/// The most moves between states it records.
const MAX_EDGES: usize = 2_000_000;
/// The most keys, locks and moves it looks at in all (a region beside
/// thousands of locks, met in thousands of states, stops here rather than
/// taking minutes).
pub(super) const MAX_WORK: u64 = 50_000_000;
/// What looking at one link between doors costs in work: a hash-set
/// insert, several times a plain step's cost.
pub(super) const LINK_COST: u64 = 8;
/// How much work passes between two looks at the clock and the cancel
/// flag (a look costs about as much as a few hundred steps).
const CLOCK_EVERY: u64 = 1 << 14;

/// The work a proof may still do, and when it must stop whatever is
/// left: every link, key, lock and move it looks at is charged here, so
/// nothing it does runs unbounded.
pub(super) struct Budget<'a> {
    left: u64,
    until_clock: u64,
    stop: &'a Stop,
    /// Set once the deadline passed or the run was cancelled.
    pub stopped: bool,
}

impl<'a> Budget<'a> {
    pub fn new(work: u64, stop: &'a Stop) -> Budget<'a> {
        Budget {
            left: work,
            until_clock: 0,
            stop,
            stopped: false,
        }
    }

    /// Charges `n` units; `false` once the budget is spent, the deadline
    /// has passed or the run is cancelled (and from then on).
    pub fn charge(&mut self, n: u64) -> bool {
        if self.stopped || n > self.left {
            self.left = 0;
            return false;
        }
        self.left -= n;
        if n >= self.until_clock {
            self.until_clock = CLOCK_EVERY;
            if self.stop.passed() {
                self.stopped = true;
                self.left = 0;
                return false;
            }
        } else {
            self.until_clock -= n;
        }
        true
    }
}

impl Stop {
    /// Whether the deadline has passed or the run was cancelled.
    pub(super) fn passed(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct State {
    pub region: u32,
    /// Keys picked up: a bit per consumed key, a bit per kept key name.
    pub picked: u128,
    /// Consumed locks opened.
    pub opened: u128,
}

/// What takes the player from one state to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Picks up key `items[i]`.
    Pickup(u32),
    /// Goes through lock group `g`, open or opened by a kept key.
    Through(u32),
    /// Spends a consumed key on lock group `g`.
    Open(u32),
    /// Takes move `i` of the region (stairs or a drop).
    Move(u32),
    /// Takes move `i` of lock group `g` (a drop touching the door), from
    /// the door, open in the state.
    DoorMove(u32, u32),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    pub from: u32,
    pub to: u32,
    pub step: Step,
}

/// The explored state graph.
pub(super) struct Explored {
    pub states: Vec<State>,
    /// In the order found (breadth first).
    pub edges: Vec<Edge>,
    /// The edge that first reached each state (none for the start).
    pub parent: Vec<Option<u32>>,
    /// Whether a goal can still be reached from each state.
    pub good: Vec<bool>,
}

/// Why the search stopped before it was done.
pub(super) enum TooMany {
    /// Past the state, edge or work cap, after this many states.
    States(usize),
    /// The deadline passed or the run was cancelled, after this many.
    Stopped(usize),
}

impl World {
    /// Keys of name `n` held in `s`: picked minus spent (consumed names).
    pub fn held(&self, s: &State, n: usize) -> u32 {
        let picked = (s.picked & self.item_mask[n]).count_ones();
        if self.consumed[n] {
            picked.saturating_sub((s.opened & self.group_mask[n]).count_ones())
        } else {
            picked
        }
    }

    /// Whether lock group `g` lets the player through in `s` as it is.
    pub fn passable(&self, s: &State, g: u32) -> bool {
        let group = &self.groups[g as usize];
        match group.bit {
            Some(bit) => s.opened & (1 << bit) != 0,
            None => self.held(s, self.rule_key[group.rule as usize]) > 0,
        }
    }

    /// The lock groups behind the open doors of `s`'s region: passable
    /// groups of other kinds touching an open door (a double door), and so
    /// on, then the shut ones touching any of them; each in a fixed order.
    /// The region's own groups are not in either list. Every link looked
    /// at is charged to `budget`; `None` once it is spent (a chain of
    /// thousands of doors met in many states is the work cap's to stop).
    pub fn doors_behind(&self, s: &State, budget: &mut Budget) -> Option<(Vec<u32>, Vec<u32>)> {
        let region = &self.regions[s.region as usize];
        let (mut open, mut shut) = (Vec::new(), Vec::new());
        if !region
            .groups
            .iter()
            .any(|&g| !self.groups[g as usize].links.is_empty())
        {
            return Some((open, shut));
        }
        // `region.groups` is sorted (built in group order).
        let mut seen: rustc_hash::FxHashSet<u32> = Default::default();
        let mut queue: Vec<u32> = region
            .groups
            .iter()
            .copied()
            .filter(|&g| self.passable(s, g))
            .collect();
        let mut next = 0;
        while next < queue.len() {
            let links = &self.groups[queue[next] as usize].links;
            if !budget.charge(1 + LINK_COST * links.len() as u64) {
                return None;
            }
            for &h in links {
                if region.groups.binary_search(&h).is_ok() || !seen.insert(h) {
                    continue;
                }
                if self.passable(s, h) {
                    open.push(h);
                    queue.push(h);
                } else {
                    shut.push(h);
                }
            }
            next += 1;
        }
        Some((open, shut))
    }

    /// The stair or drop a step takes from `s`, if it is one.
    pub fn move_of(&self, s: &State, step: Step) -> Option<Move> {
        match step {
            Step::Move(i) => Some(self.regions[s.region as usize].moves[i as usize]),
            Step::DoorMove(g, i) => Some(self.groups[g as usize].moves[i as usize]),
            _ => None,
        }
    }

    /// The moves out of `s`, in a fixed order, the work they took (keys,
    /// locks, links and moves looked at) charged to `budget`; `None` once
    /// it is spent.
    fn steps(&self, s: &State, out: &mut Vec<(Step, State)>, budget: &mut Budget) -> Option<()> {
        out.clear();
        let region = &self.regions[s.region as usize];
        // Keys of one name lying in one region are alike (the region is
        // where the player is; the cell only names it): only the first of
        // them not picked up yet is offered, so n small keys in a room are
        // n + 1 states, not 2^n (12 keys took 167 ms, 13 too many states).
        let mut offered: Vec<u16> = Vec::new();
        for &i in &region.items {
            let item = &self.items[i as usize];
            let bit = 1u128 << item.bit;
            if s.picked & bit == 0 && !offered.contains(&item.name) {
                offered.push(item.name);
                out.push((
                    Step::Pickup(i),
                    State {
                        picked: s.picked | bit,
                        ..*s
                    },
                ));
            }
        }
        if !budget.charge(1 + (region.items.len() + region.groups.len()) as u64) {
            return None;
        }
        // The region's own doors first (each passed, or opened), then the
        // doors behind them, then the stairs and drops.
        let mut open = Vec::new();
        for &g in &region.groups {
            if self.passable(s, g) {
                self.through(s, g, out);
                open.push(g);
            } else {
                self.open(s, g, out);
            }
        }
        let (behind, shut) = self.doors_behind(s, budget)?;
        for &g in &behind {
            self.through(s, g, out);
        }
        for &g in &shut {
            self.open(s, g, out);
        }
        open.extend(behind);
        for (i, m) in region.moves.iter().enumerate() {
            out.push((Step::Move(i as u32), State { region: m.to, ..*s }));
        }
        for &g in &open {
            for (i, m) in self.groups[g as usize].moves.iter().enumerate() {
                out.push((Step::DoorMove(g, i as u32), State { region: m.to, ..*s }));
            }
        }
        budget.charge(out.len() as u64).then_some(())
    }

    /// Through passable group `g` into the regions on its sides.
    fn through(&self, s: &State, g: u32, out: &mut Vec<(Step, State)>) {
        for &r in &self.groups[g as usize].regions {
            if r != s.region {
                out.push((Step::Through(g), State { region: r, ..*s }));
            }
        }
    }

    /// Spends a consumed key on shut group `g`, when one is held.
    fn open(&self, s: &State, g: u32, out: &mut Vec<(Step, State)>) {
        let group = &self.groups[g as usize];
        if let Some(bit) = group.bit {
            if self.held(s, self.rule_key[group.rule as usize]) > 0 {
                out.push((
                    Step::Open(g),
                    State {
                        opened: s.opened | (1 << bit),
                        ..*s
                    },
                ));
            }
        }
    }

    /// Every state reachable from the start, and which can finish; the
    /// search stops past its caps, at `stop`'s deadline or when cancelled.
    pub(super) fn explore(&self, stop: &Stop) -> Result<Explored, TooMany> {
        let first = State {
            region: self.start,
            picked: 0,
            opened: 0,
        };
        let mut states = vec![first];
        let mut parent = vec![None];
        // Looked up, never iterated: its order cannot reach the verdict.
        let mut index: FxHashMap<State, u32> = FxHashMap::default();
        index.insert(first, 0);
        let mut edges: Vec<Edge> = Vec::new();
        let mut steps = Vec::new();
        let mut next = 0;
        let mut budget = Budget::new(MAX_WORK, stop);
        let too_many = |budget: &Budget, n: usize| match budget.stopped {
            true => TooMany::Stopped(n),
            false => TooMany::States(n),
        };
        while next < states.len() {
            let s = states[next];
            // A finished player stops: what happens after does not matter.
            if !self.is_goal(s.region) {
                if self.steps(&s, &mut steps, &mut budget).is_none() {
                    return Err(too_many(&budget, states.len()));
                }
                for &(step, to) in &steps {
                    if edges.len() == MAX_EDGES {
                        return Err(TooMany::States(states.len()));
                    }
                    let id = match index.get(&to) {
                        Some(&id) => id,
                        None => {
                            if states.len() == MAX_STATES {
                                return Err(TooMany::States(states.len()));
                            }
                            let id = states.len() as u32;
                            states.push(to);
                            parent.push(Some(edges.len() as u32));
                            index.insert(to, id);
                            id
                        }
                    };
                    edges.push(Edge {
                        from: next as u32,
                        to: id,
                        step,
                    });
                }
            }
            next += 1;
        }
        if stop.passed() {
            return Err(TooMany::Stopped(states.len()));
        }
        let good = finishers(self, &states, &edges);
        Ok(Explored {
            states,
            edges,
            parent,
            good,
        })
    }
}

/// The states from which a goal state can be reached: backwards from the
/// goals over the reversed edges.
fn finishers(world: &World, states: &[State], edges: &[Edge]) -> Vec<bool> {
    let n = states.len();
    // Edges by target, as offsets (counting sort keeps their order).
    let mut start = vec![0usize; n + 1];
    for e in edges {
        start[e.to as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut from = vec![0u32; edges.len()];
    for e in edges {
        from[fill[e.to as usize]] = e.from;
        fill[e.to as usize] += 1;
    }
    let mut good = vec![false; n];
    let mut stack: Vec<usize> = (0..n)
        .filter(|&i| world.is_goal(states[i].region))
        .collect();
    for &i in &stack {
        good[i] = true;
    }
    while let Some(i) = stack.pop() {
        for &f in &from[start[i]..start[i + 1]] {
            if !good[f as usize] {
                good[f as usize] = true;
                stack.push(f as usize);
            }
        }
    }
    good
}
