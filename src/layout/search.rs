//! The layout search. Rooms are placed one at a time in an order that
//! lays the graph's cycles first (breadth first over the 2-core, the rooms
//! on or between cycles, then the trees hanging off it, as Edgar's chains
//! do), each next to a room already placed: a shared door place, or a
//! corridor from door to door. A room whose other neighbours are already
//! placed must close those edges too (a cycle's last room). Candidates are
//! shuffled from the script's rng and tried depth first with backtracking;
//! an attempt that tries too many candidates starts again from scratch.

use super::board::Board;
use super::precheck;
use super::shapes::{shapes_of, DoorPlace, Shape};
use super::{Graph, Joints, Problem};
use crate::rng::Rng;

/// Where one room went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Index into [`Outcome::shapes`].
    pub shape: usize,
    pub x: i32,
    pub y: i32,
    /// The door cells its edges use, in the order of its edges.
    pub doors: Vec<(i32, i32)>,
}

/// How one edge was realised: its two door cells (the same cell for a
/// shared door) and the corridor between them (empty for a shared door).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Realised {
    pub doors: [(i32, i32); 2],
    pub corridor: Vec<(i32, i32)>,
}

/// A step of the search, for the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Room `node` placed as `shape` at `(x, y)`.
    Place {
        node: usize,
        shape: usize,
        x: i32,
        y: i32,
    },
    /// Room `node` taken away again.
    Backtrack { node: usize },
    /// Attempt `n` (from 1) starts from scratch.
    Restart { attempt: u32 },
}

/// A finished layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub shapes: Vec<Shape>,
    /// By node.
    pub rooms: Vec<Placed>,
    /// By edge.
    pub edges: Vec<Realised>,
    /// Which attempt succeeded, from 1.
    pub attempt: u32,
}

/// The most candidates one room's list holds: the search's branching.
const MAX_CANDIDATES: usize = 64;
/// The most door pairs listed one by one for a room's candidates; past
/// it, [`SAMPLED`] random pairs are drawn instead.
const ENUMERATED: u64 = 4096;
const SAMPLED: u64 = 512;
/// Corridor draws per door pair for a cycle's last room.
const OFFSETS: u64 = 4;
/// Random positions tried for a room with no placed neighbour.
const ROOT_TRIES: usize = 24;
/// The most events a trace keeps (the replay needs a story, not a log).
pub const MAX_EVENTS: usize = 400;

/// One way to put a room down.
#[derive(Clone, Copy, Debug)]
enum Candidate {
    /// Anywhere: shape at a position.
    Free { shape: usize, x: i32, y: i32 },
    /// Next to its parent: its door `mine` on the parent's door `theirs`
    /// (shared), or a corridor from the parent's door's front cell going
    /// `along` cells out and `side` across to this room's door's front.
    Next {
        shape: usize,
        mine: usize,
        theirs: usize,
        along: i32,
        side: i32,
        horizontal_first: bool,
    },
    /// At a position worked out from two placed neighbours (a cycle's last
    /// room): joined to its parent by its door `mine` and the parent's
    /// door `theirs` (the same cell when shared, else a corridor between
    /// their front cells).
    At {
        shape: usize,
        x: i32,
        y: i32,
        mine: usize,
        theirs: usize,
        horizontal_first: bool,
    },
}

/// Why a candidate failed, counted to explain a failure.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Miss {
    Space,
    Close(usize),
}

/// The search's state for one attempt.
struct State<'a> {
    problem: &'a Problem,
    shapes: &'a [Shape],
    board: Board,
    /// By node: shape, x, y.
    placed: Vec<Option<(usize, i32, i32)>>,
    /// By node, by door place of its shape: the edge using it.
    used: Vec<Vec<Option<usize>>>,
    realised: Vec<Option<Realised>>,
    template_uses: Vec<u32>,
    undo: Vec<Undo>,
    /// The edges at each node.
    incident: Vec<Vec<usize>>,
}

enum Undo {
    Placed(usize),
    Door(usize, usize),
    Edge(usize),
}

/// What a frame of the depth-first search holds.
struct Frame {
    node: usize,
    candidates: Vec<Candidate>,
    next: usize,
    board_mark: usize,
    undo_mark: usize,
    placed: bool,
}

/// Failure counts over every attempt, to name the likely cause.
struct Tally {
    exhausted: Vec<u32>,
    no_candidates: Vec<u32>,
    space: Vec<u32>,
    close: Vec<u32>,
}

/// The order rooms are placed in, and for each the edge to the room it
/// is placed next to (None: the first of its part of the graph).
fn order(graph: &Graph) -> (Vec<usize>, Vec<Option<usize>>) {
    let n = graph.nodes.len();
    let incident = graph.incident();
    // The 2-core: peel rooms with one edge or none until none is left.
    let mut degree: Vec<usize> = incident.iter().map(Vec::len).collect();
    let mut core = vec![true; n];
    let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    while let Some(v) = stack.pop() {
        if !core[v] {
            continue;
        }
        core[v] = false;
        for &e in &incident[v] {
            let o = graph.other(e, v);
            if core[o] {
                degree[o] -= 1;
                if degree[o] == 1 {
                    stack.push(o);
                }
            }
        }
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut parent = vec![None; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        // This part of the graph, to find its first room on a cycle.
        let mut part = vec![start];
        let mut in_part = vec![false; n];
        in_part[start] = true;
        let mut i = 0;
        while i < part.len() {
            for &e in &incident[part[i]] {
                let o = graph.other(e, part[i]);
                if !in_part[o] {
                    in_part[o] = true;
                    part.push(o);
                }
            }
            i += 1;
        }
        let root = part
            .iter()
            .copied()
            .filter(|&v| core[v])
            .min()
            .unwrap_or(start);
        let first = order.len();
        seen[root] = true;
        order.push(root);
        // Breadth first over the core, then over everything.
        for only_core in [true, false] {
            let mut k = first;
            while k < order.len() {
                let v = order[k];
                for &e in &incident[v] {
                    let o = graph.other(e, v);
                    if !seen[o] && (core[o] || !only_core) {
                        seen[o] = true;
                        parent[o] = Some(e);
                        order.push(o);
                    }
                }
                k += 1;
            }
        }
    }
    (order, parent)
}

/// Whether two door places face each other (opposite sides).
fn facing(a: &DoorPlace, b: &DoorPlace) -> bool {
    (a.dir.0 + b.dir.0, a.dir.1 + b.dir.1) == (0, 0)
}

/// A corridor's shape, drawn: `min..=max` cells going `along` cells out of
/// a door and `side` across (either way), as `(along, side)`.
fn corridor_offset(min: u32, max: u32, rng: &mut Rng) -> (i32, i32) {
    let cells = min + rng.int((max - min + 1) as u64) as u32;
    let along = rng.int(cells as u64) as i32;
    let side = (cells as i32 - 1 - along) * if rng.int(2) == 1 { 1 } else { -1 };
    (along, side)
}

/// The cells of an L-shaped path from `a` to `b`, both included.
fn l_path(a: (i32, i32), b: (i32, i32), horizontal_first: bool) -> Vec<(i32, i32)> {
    let mut out = vec![a];
    let (mut x, mut y) = a;
    let step = |from: i32, to: i32| (to - from).signum();
    let mut go = |horizontal: bool, out: &mut Vec<(i32, i32)>| {
        if horizontal {
            while x != b.0 {
                x += step(x, b.0);
                out.push((x, y));
            }
        } else {
            while y != b.1 {
                y += step(y, b.1);
                out.push((x, y));
            }
        }
    };
    go(horizontal_first, &mut out);
    go(!horizontal_first, &mut out);
    out
}

impl State<'_> {
    fn door_at(&self, node: usize, d: usize) -> (i32, i32) {
        let (s, x, y) = self.placed[node].unwrap_or((0, 0, 0));
        let door = self.shapes[s].doors[d];
        (x + door.x, y + door.y)
    }

    fn front_of(&self, node: usize, d: usize) -> (i32, i32) {
        let (s, _, _) = self.placed[node].unwrap_or((0, 0, 0));
        let (x, y) = self.door_at(node, d);
        let dir = self.shapes[s].doors[d].dir;
        (x + dir.0, y + dir.1)
    }

    fn undo_to(&mut self, board_mark: usize, undo_mark: usize) {
        self.board.undo_to(board_mark);
        while self.undo.len() > undo_mark {
            match self.undo.pop() {
                Some(Undo::Placed(n)) => {
                    if let Some((s, _, _)) = self.placed[n].take() {
                        self.template_uses[self.shapes[s].template] -= 1;
                    }
                    self.used[n].clear();
                }
                Some(Undo::Door(n, d)) => self.used[n][d] = None,
                Some(Undo::Edge(e)) => self.realised[e] = None,
                None => {}
            }
        }
    }

    fn put(&mut self, node: usize, shape: usize, x: i32, y: i32) -> bool {
        let s = &self.shapes[shape];
        let template = &self.problem.templates[s.template];
        if template.unique && self.template_uses[s.template] > 0 {
            return false;
        }
        if !self.board.place_room(node, s, x, y) {
            return false;
        }
        self.template_uses[s.template] += 1;
        self.placed[node] = Some((shape, x, y));
        self.used[node] = vec![None; s.doors.len()];
        self.undo.push(Undo::Placed(node));
        true
    }

    fn use_door(&mut self, node: usize, d: usize, e: usize) {
        self.used[node][d] = Some(e);
        self.undo.push(Undo::Door(node, d));
    }

    /// Realises edge `e` between placed rooms `n` (door `dn`) and `q`
    /// (door `dq`) with a shared door or the given corridor path.
    fn join(
        &mut self,
        e: usize,
        n: usize,
        dn: usize,
        q: usize,
        dq: usize,
        path: &[(i32, i32)],
    ) -> bool {
        let (pn, pq) = (self.door_at(n, dn), self.door_at(q, dq));
        if !path.is_empty() && !self.board.lay_corridor(path, e) {
            return false;
        }
        if !self.board.open_door(pn.0, pn.1, e)
            || (pq != pn && !self.board.open_door(pq.0, pq.1, e))
        {
            return false;
        }
        self.use_door(n, dn, e);
        self.use_door(q, dq, e);
        self.realised[e] = Some(Realised {
            doors: [pn, pq],
            corridor: path.to_vec(),
        });
        self.undo.push(Undo::Edge(e));
        true
    }

    fn sockets_meet(&self, n: usize, dn: usize, q: usize, dq: usize) -> bool {
        let (sn, _, _) = self.placed[n].unwrap_or((0, 0, 0));
        let (sq, _, _) = self.placed[q].unwrap_or((0, 0, 0));
        self.shapes[sn].doors[dn].socket == self.shapes[sq].doors[dq].socket
    }

    /// Closes edge `e` between placed rooms `n` and `q` through any pair of
    /// free doors that meet.
    fn close<E>(
        &mut self,
        e: usize,
        n: usize,
        q: usize,
        charge: &mut dyn FnMut(u64) -> Result<(), E>,
    ) -> Result<bool, E> {
        let (dn_count, dq_count) = (self.used[n].len(), self.used[q].len());
        // Looking at a pair is a few loads; laying a corridor is paid
        // for, cell by cell, before it is laid.
        charge((dn_count as u64 * dq_count as u64).saturating_mul(4) + 1)?;
        for dn in 0..dn_count {
            for dq in 0..dq_count {
                if self.used[n][dn].is_some()
                    || self.used[q][dq].is_some()
                    || !self.sockets_meet(n, dn, q, dq)
                {
                    continue;
                }
                match self.problem.joints {
                    Joints::Shared => {
                        let (sn, _, _) = self.placed[n].unwrap_or((0, 0, 0));
                        let (sq, _, _) = self.placed[q].unwrap_or((0, 0, 0));
                        let (a, b) = (self.shapes[sn].doors[dn].dir, self.shapes[sq].doors[dq].dir);
                        if self.door_at(n, dn) == self.door_at(q, dq)
                            && (a.0 + b.0, a.1 + b.1) == (0, 0)
                        {
                            charge(16)?;
                            if self.join(e, n, dn, q, dq, &[]) {
                                return Ok(true);
                            }
                        }
                    }
                    Joints::Corridors { min, max } => {
                        let (a, b) = (self.front_of(n, dn), self.front_of(q, dq));
                        let cells = (a.0 - b.0).unsigned_abs() + (a.1 - b.1).unsigned_abs() + 1;
                        if cells < min || cells > max {
                            continue;
                        }
                        for horizontal_first in [true, false] {
                            let mark = (self.board.mark(), self.undo.len());
                            charge(cells as u64 * 12 + 16)?;
                            if self.join(e, n, dn, q, dq, &l_path(a, b, horizontal_first)) {
                                return Ok(true);
                            }
                            self.undo_to(mark.0, mark.1);
                            if a.0 == b.0 || a.1 == b.1 {
                                break;
                            }
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// Tries one candidate for `node` (whose parent edge is `parent`);
    /// on failure the caller undoes what it left.
    fn attempt<E>(
        &mut self,
        node: usize,
        parent: Option<usize>,
        c: Candidate,
        charge: &mut dyn FnMut(u64) -> Result<(), E>,
    ) -> Result<Result<(), Miss>, E> {
        Ok(self.place_and_close(node, parent, c, charge)?.and(Ok(())))
    }

    fn place_and_close<E>(
        &mut self,
        node: usize,
        parent: Option<usize>,
        c: Candidate,
        charge: &mut dyn FnMut(u64) -> Result<(), E>,
    ) -> Result<Result<(), Miss>, E> {
        let placed = self.place(node, parent, c);
        if placed.is_err() {
            return Ok(placed);
        }
        for k in 0..self.incident[node].len() {
            let e = self.incident[node][k];
            let q = self.problem.graph.other(e, node);
            if Some(e) == parent || self.placed[q].is_none() || self.realised[e].is_some() {
                continue;
            }
            if !self.close(e, node, q, charge)? {
                return Ok(Err(Miss::Close(e)));
            }
        }
        Ok(Ok(()))
    }

    /// Puts `node` down as candidate `c` and joins it to its parent.
    fn place(&mut self, node: usize, parent: Option<usize>, c: Candidate) -> Result<(), Miss> {
        match c {
            Candidate::Free { shape, x, y } => {
                if !self.put(node, shape, x, y) {
                    return Err(Miss::Space);
                }
            }
            Candidate::Next {
                shape,
                mine,
                theirs,
                along,
                side,
                horizontal_first,
            } => {
                let e = parent.ok_or(Miss::Space)?;
                let p = self.problem.graph.other(e, node);
                let door = self.shapes[shape].doors[mine];
                let (path, at) = match self.problem.joints {
                    Joints::Shared => (Vec::new(), self.door_at(p, theirs)),
                    Joints::Corridors { .. } => {
                        let (ps, _, _) = self.placed[p].unwrap_or((0, 0, 0));
                        let dir = self.shapes[ps].doors[theirs].dir;
                        let a = self.front_of(p, theirs);
                        // Across: the direction turned a quarter.
                        let b = (
                            a.0 + dir.0 * along - dir.1 * side,
                            a.1 + dir.1 * along + dir.0 * side,
                        );
                        (
                            l_path(a, b, horizontal_first),
                            (b.0 - door.dir.0, b.1 - door.dir.1),
                        )
                    }
                };
                if !self.put(node, shape, at.0 - door.x, at.1 - door.y) {
                    return Err(Miss::Space);
                }
                if !self.join(e, node, mine, p, theirs, &path) {
                    return Err(Miss::Space);
                }
            }
            Candidate::At {
                shape,
                x,
                y,
                mine,
                theirs,
                horizontal_first,
            } => {
                let e = parent.ok_or(Miss::Space)?;
                let p = self.problem.graph.other(e, node);
                if !self.put(node, shape, x, y) {
                    return Err(Miss::Space);
                }
                let path = match self.problem.joints {
                    Joints::Shared => Vec::new(),
                    Joints::Corridors { .. } => l_path(
                        self.front_of(p, theirs),
                        self.front_of(node, mine),
                        horizontal_first,
                    ),
                };
                if !self.join(e, node, mine, p, theirs, &path) {
                    return Err(Miss::Space);
                }
            }
        }
        Ok(())
    }

    /// The candidates for `node`, shuffled.
    fn candidates(
        &self,
        node: usize,
        parent: Option<usize>,
        node_shapes: &[usize],
        first_part: bool,
        rng: &mut Rng,
    ) -> Vec<Candidate> {
        let (w, h) = (self.board_size().0, self.board_size().1);
        let mut out = Vec::new();
        match parent {
            None => {
                for _ in 0..ROOT_TRIES {
                    let shape = node_shapes[rng.int(node_shapes.len() as u64) as usize];
                    let s = &self.shapes[shape];
                    let (room_w, room_h) = (w - s.w + 1, h - s.h + 1);
                    if room_w <= 0 || room_h <= 0 {
                        continue;
                    }
                    // The first room goes near the middle, leaving room
                    // around it for the rest.
                    let (x, y) = if first_part {
                        (
                            room_w / 4 + rng.int((room_w / 2).max(1) as u64) as i32,
                            room_h / 4 + rng.int((room_h / 2).max(1) as u64) as i32,
                        )
                    } else {
                        (rng.int(room_w as u64) as i32, rng.int(room_h as u64) as i32)
                    };
                    out.push(Candidate::Free { shape, x, y });
                }
            }
            Some(e) => {
                let p = self.problem.graph.other(e, node);
                let Some((ps, _, _)) = self.placed[p] else {
                    return out;
                };
                if let Some(q) = self.closing_neighbour(node, e) {
                    self.closing_candidates(node_shapes, p, q, rng, &mut out);
                    if !out.is_empty() {
                        rng.shuffle(&mut out);
                        out.truncate(MAX_CANDIDATES);
                        return out;
                    }
                }
                let theirs_count = self.shapes[ps].doors.len();
                if self.pairings(node_shapes, ps) <= ENUMERATED {
                    for &shape in node_shapes {
                        for mine in 0..self.shapes[shape].doors.len() {
                            for theirs in 0..theirs_count {
                                self.next_to(p, shape, mine, theirs, rng, &mut out);
                            }
                        }
                    }
                } else {
                    // Too many door pairs to list (templates with doors
                    // all round): a random sample of them.
                    for _ in 0..SAMPLED {
                        let shape = node_shapes[rng.int(node_shapes.len() as u64) as usize];
                        let doors = self.shapes[shape].doors.len() as u64;
                        if doors == 0 || theirs_count == 0 {
                            continue;
                        }
                        let mine = rng.int(doors) as usize;
                        let theirs = rng.int(theirs_count as u64) as usize;
                        self.next_to(p, shape, mine, theirs, rng, &mut out);
                    }
                }
            }
        }
        rng.shuffle(&mut out);
        out.truncate(MAX_CANDIDATES);
        out
    }

    fn board_size(&self) -> (i32, i32) {
        self.board.size()
    }

    /// How many (shape, door, parent's door) triples a room next to a
    /// parent of shape `ps` has.
    fn pairings(&self, node_shapes: &[usize], ps: usize) -> u64 {
        let theirs = self.shapes[ps].doors.len() as u64;
        node_shapes
            .iter()
            .map(|&s| self.shapes[s].doors.len() as u64 * theirs)
            .sum()
    }

    /// Door `mine` of `shape` and door `theirs` of the placed room `p`,
    /// when that one is free and their sockets meet.
    fn free_pair(
        &self,
        shape: usize,
        mine: usize,
        p: usize,
        theirs: usize,
    ) -> Option<(DoorPlace, DoorPlace)> {
        let (ps, _, _) = self.placed[p]?;
        let (door, their) = (
            self.shapes[shape].doors[mine],
            self.shapes[ps].doors[theirs],
        );
        (self.used[p][theirs].is_none() && door.socket == their.socket).then_some((door, their))
    }

    /// The candidate that puts door `mine` of `shape` against the free
    /// door `theirs` of the placed room `p`, if their sockets (and, for a
    /// shared door, their sides) meet.
    fn next_to(
        &self,
        p: usize,
        shape: usize,
        mine: usize,
        theirs: usize,
        rng: &mut Rng,
        out: &mut Vec<Candidate>,
    ) {
        let Some((door, their)) = self.free_pair(shape, mine, p, theirs) else {
            return;
        };
        match self.problem.joints {
            Joints::Shared => {
                if facing(&door, &their) {
                    out.push(Candidate::Next {
                        shape,
                        mine,
                        theirs,
                        along: 0,
                        side: 0,
                        horizontal_first: true,
                    });
                }
            }
            Joints::Corridors { min, max } => {
                let (along, side) = corridor_offset(min, max, rng);
                out.push(Candidate::Next {
                    shape,
                    mine,
                    theirs,
                    along,
                    side,
                    horizontal_first: rng.int(2) == 1,
                });
            }
        }
    }

    /// The work of listing `node`'s candidates, charged before it is done.
    fn candidates_work(&self, node_shapes: &[usize], parent: Option<usize>, node: usize) -> u64 {
        let listed = match parent.and_then(|e| self.placed[self.problem.graph.other(e, node)]) {
            Some((ps, _, _)) => {
                let closing = parent
                    .and_then(|e| self.closing_neighbour(node, e))
                    .and_then(|q| self.placed[q])
                    .map_or(0, |(qs, _, _)| self.closings(node_shapes, ps, qs));
                self.pairings(node_shapes, ps).min(ENUMERATED.max(SAMPLED))
                    + closing.min(ENUMERATED.max(SAMPLED))
            }
            None => ROOT_TRIES as u64,
        };
        (listed + node_shapes.len() as u64) * 8 + 8
    }

    /// The first placed neighbour of `node` other than over its parent
    /// edge `parent`: the room a cycle's last room must reach too.
    fn closing_neighbour(&self, node: usize, parent: usize) -> Option<usize> {
        self.incident[node]
            .iter()
            .filter(|&&e| e != parent)
            .map(|&e| self.problem.graph.other(e, node))
            .find(|&q| self.placed[q].is_some())
    }

    /// How many (shape, door to q, door of q, door to p, door of p)
    /// tuples [`State::closing_candidates`] would list.
    fn closings(&self, node_shapes: &[usize], ps: usize, qs: usize) -> u64 {
        let (dp, dq) = (
            self.shapes[ps].doors.len() as u64,
            self.shapes[qs].doors.len() as u64,
        );
        node_shapes
            .iter()
            .map(|&s| {
                let d = self.shapes[s].doors.len() as u64;
                d.saturating_mul(d)
                    .saturating_mul(dp)
                    .saturating_mul(dq)
                    .saturating_mul(OFFSETS)
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Candidates for a room that closes a cycle: placed so one of its
    /// doors meets a free door of `q` (the same cell, or a corridor's
    /// length away), and kept when another of its doors can then meet a
    /// free door of its parent `p` the same way.
    fn closing_candidates(
        &self,
        node_shapes: &[usize],
        p: usize,
        q: usize,
        rng: &mut Rng,
        out: &mut Vec<Candidate>,
    ) {
        let (Some((ps, _, _)), Some((qs, _, _))) = (self.placed[p], self.placed[q]) else {
            return;
        };
        let (dp, dq) = (self.shapes[ps].doors.len(), self.shapes[qs].doors.len());
        if self.closings(node_shapes, ps, qs) <= ENUMERATED {
            for &shape in node_shapes {
                let d = self.shapes[shape].doors.len();
                for k in 0..d {
                    for t in 0..dq {
                        // A few corridor draws each: most miss the parent.
                        for _ in 0..OFFSETS {
                            let Some(at) = self.meeting(shape, k, q, t, rng) else {
                                continue;
                            };
                            for mine in (0..d).filter(|&m| m != k) {
                                for theirs in 0..dp {
                                    self.parent_meets(shape, at, mine, p, theirs, rng, out);
                                }
                            }
                        }
                    }
                }
            }
        } else {
            for _ in 0..SAMPLED {
                let shape = node_shapes[rng.int(node_shapes.len() as u64) as usize];
                let d = self.shapes[shape].doors.len() as u64;
                if d < 2 || dp == 0 || dq == 0 {
                    continue;
                }
                let (k, t) = (rng.int(d) as usize, rng.int(dq as u64) as usize);
                let (mine, theirs) = (rng.int(d) as usize, rng.int(dp as u64) as usize);
                if mine == k {
                    continue;
                }
                if let Some(at) = self.meeting(shape, k, q, t, rng) {
                    self.parent_meets(shape, at, mine, p, theirs, rng, out);
                }
            }
        }
    }

    /// Where `shape` goes for its door `k` to meet the free door `t` of
    /// the placed room `q`: on the same cell facing it, or with a corridor
    /// of an allowed length (drawn) between their front cells.
    fn meeting(
        &self,
        shape: usize,
        k: usize,
        q: usize,
        t: usize,
        rng: &mut Rng,
    ) -> Option<(i32, i32)> {
        let (mine, theirs) = self.free_pair(shape, k, q, t)?;
        match self.problem.joints {
            Joints::Shared => {
                if !facing(&mine, &theirs) {
                    return None;
                }
                let at = self.door_at(q, t);
                Some((at.0 - mine.x, at.1 - mine.y))
            }
            Joints::Corridors { min, max } => {
                let (along, side) = corridor_offset(min, max, rng);
                let a = self.front_of(q, t);
                let dir = theirs.dir;
                let b = (
                    a.0 + dir.0 * along - dir.1 * side,
                    a.1 + dir.1 * along + dir.0 * side,
                );
                Some((b.0 - mine.dir.0 - mine.x, b.1 - mine.dir.1 - mine.y))
            }
        }
    }

    /// Adds the candidate `shape` at `at` joined to its parent `p` by its
    /// door `mine` and `p`'s free door `theirs`, if those can meet.
    #[allow(clippy::too_many_arguments)]
    fn parent_meets(
        &self,
        shape: usize,
        at: (i32, i32),
        mine: usize,
        p: usize,
        theirs: usize,
        rng: &mut Rng,
        out: &mut Vec<Candidate>,
    ) {
        let Some((door, their)) = self.free_pair(shape, mine, p, theirs) else {
            return;
        };
        let cell = (at.0 + door.x, at.1 + door.y);
        let meets = match self.problem.joints {
            Joints::Shared => cell == self.door_at(p, theirs) && facing(&door, &their),
            Joints::Corridors { min, max } => {
                let a = self.front_of(p, theirs);
                let b = (cell.0 + door.dir.0, cell.1 + door.dir.1);
                let cells = (a.0 - b.0).unsigned_abs() + (a.1 - b.1).unsigned_abs() + 1;
                (min..=max).contains(&cells)
            }
        };
        if meets {
            out.push(Candidate::At {
                shape,
                x: at.0,
                y: at.1,
                mine,
                theirs,
                horizontal_first: rng.int(2) == 1,
            });
        }
    }
}

/// The work one candidate takes before any cycle is closed, as budget
/// units: its room's cells and its corridor (closing is charged as it
/// goes, in [`State::close`]).
fn candidate_cost(problem: &Problem, shapes: &[Shape], c: &Candidate) -> u64 {
    let shape = match c {
        Candidate::Free { shape, .. }
        | Candidate::Next { shape, .. }
        | Candidate::At { shape, .. } => &shapes[*shape],
    };
    let path = match problem.joints {
        Joints::Shared => 1,
        Joints::Corridors { max, .. } => max as u64 + 2,
    };
    shape.cells.len() as u64 * 6 + path * 12
}

/// Lays the graph out on a `w x h` board whose walkable cells (row major)
/// `walkable` names. `Ok(Err(reason))` when the inputs cannot work or
/// every attempt failed; `Err` when `charge` refused the work. When that
/// happens after some attempts had failed, `failed_so_far` gets what they
/// found, worded as the reason a search that gave up would give: with many
/// attempts, an impossible graph runs out of budget before it gives up,
/// and the budget's message alone did not say why.
#[allow(clippy::too_many_arguments)]
pub fn solve<E>(
    problem: &Problem,
    w: i32,
    h: i32,
    walkable: impl Fn(usize) -> bool,
    rng: &mut Rng,
    charge: &mut dyn FnMut(u64) -> Result<(), E>,
    mut trace: Option<&mut Vec<Event>>,
    failed_so_far: &mut Option<String>,
) -> Result<Result<Outcome, String>, E> {
    let graph = &problem.graph;
    let n = graph.nodes.len();
    let mut shapes = Vec::new();
    let mut of_template = Vec::new();
    for (i, t) in problem.templates.iter().enumerate() {
        let first = shapes.len();
        charge((t.rows.iter().map(|r| r.len() as u64).sum::<u64>() + 1) * 16)?;
        shapes.extend(shapes_of(t, i));
        of_template.push(first..shapes.len());
    }
    charge(
        graph
            .nodes
            .iter()
            .map(|n| n.templates.len() as u64 * 8 + 1)
            .sum(),
    )?;
    let node_shapes: Vec<Vec<usize>> = graph
        .nodes
        .iter()
        .map(|node| {
            node.templates
                .iter()
                .flat_map(|&t| of_template[t].clone())
                .filter(|&s| shapes[s].w <= w && shapes[s].h <= h)
                .collect()
        })
        .collect();
    if let Err(why) = precheck::check(problem, &shapes, &node_shapes, w, h, charge)? {
        return Ok(Err(why));
    }
    charge(w as u64 * h as u64 + n as u64 * 8)?;
    let (order, parent) = order(graph);
    let incident = graph.incident();
    let mut state = State {
        problem,
        shapes: &shapes,
        board: Board::new(w, h, n, &graph.edges, walkable),
        placed: vec![None; n],
        used: vec![Vec::new(); n],
        realised: vec![None; graph.edges.len()],
        template_uses: vec![0; problem.templates.len()],
        undo: Vec::new(),
        incident: incident.clone(),
    };
    let mut tally = Tally {
        exhausted: vec![0; n],
        no_candidates: vec![0; n],
        space: vec![0; n],
        close: vec![0; graph.edges.len()],
    };
    // Enough tries per attempt for some backtracking at every room, few
    // enough that a hopeless start is abandoned for a fresh one.
    let per_attempt = 40 * n as u64 + 200;
    let log = |trace: &mut Option<&mut Vec<Event>>, event: Event| {
        if let Some(t) = trace.as_deref_mut() {
            if t.len() < MAX_EVENTS {
                t.push(event);
            }
        }
    };
    for attempt in 1..=problem.attempts {
        // A refused charge ends the search; what the failed attempts
        // before this one found goes with it.
        macro_rules! charged {
            ($charge:expr) => {
                match $charge {
                    Ok(v) => v,
                    Err(e) => {
                        if attempt > 1 {
                            let head = format!(
                                "graph:layout had failed {} of its {} attempts",
                                attempt - 1,
                                problem.attempts
                            );
                            *failed_so_far = Some(explain(problem, &tally, &order, head));
                        }
                        return Err(e);
                    }
                }
            };
        }
        if attempt > 1 {
            log(&mut trace, Event::Restart { attempt });
        }
        state.undo_to(0, 0);
        let mut frames: Vec<Frame> = Vec::new();
        let mut tries = 0u64;
        let first_root = order.first().copied();
        loop {
            if frames.last().is_none_or(|f| f.placed) {
                if frames.len() == order.len() {
                    return Ok(Ok(finish(&state, &shapes, attempt)));
                }
                let node = order[frames.len()];
                charged!(charge(state.candidates_work(
                    &node_shapes[node],
                    parent[node],
                    node
                )));
                let candidates = state.candidates(
                    node,
                    parent[node],
                    &node_shapes[node],
                    Some(node) == first_root,
                    rng,
                );
                if candidates.is_empty() {
                    tally.no_candidates[node] += 1;
                }
                frames.push(Frame {
                    node,
                    candidates,
                    next: 0,
                    board_mark: state.board.mark(),
                    undo_mark: state.undo.len(),
                    placed: false,
                });
            }
            let Some(top) = frames.last_mut() else {
                break;
            };
            if top.next < top.candidates.len() {
                tries += 1;
                if tries > per_attempt {
                    break;
                }
                let c = top.candidates[top.next];
                top.next += 1;
                let (node, marks) = (top.node, (top.board_mark, top.undo_mark));
                charged!(charge(candidate_cost(problem, &shapes, &c)));
                match charged!(state.attempt(node, parent[node], c, charge)) {
                    Ok(()) => {
                        if let Some(top) = frames.last_mut() {
                            top.placed = true;
                        }
                        if let Some((shape, x, y)) = state.placed[node] {
                            log(&mut trace, Event::Place { node, shape, x, y });
                        }
                    }
                    Err(miss) => {
                        state.undo_to(marks.0, marks.1);
                        match miss {
                            Miss::Space => tally.space[node] += 1,
                            Miss::Close(e) => tally.close[e] += 1,
                        }
                    }
                }
            } else {
                tally.exhausted[top.node] += 1;
                frames.pop();
                // The room before gives way: its next candidate.
                let Some(prev) = frames.last_mut() else {
                    break;
                };
                prev.placed = false;
                let (node, marks) = (prev.node, (prev.board_mark, prev.undo_mark));
                state.undo_to(marks.0, marks.1);
                log(&mut trace, Event::Backtrack { node });
            }
        }
    }
    let head = format!("gave up after {} attempts", problem.attempts);
    Ok(Err(explain(problem, &tally, &order, head)))
}

fn finish(state: &State, shapes: &[Shape], attempt: u32) -> Outcome {
    let rooms = state
        .placed
        .iter()
        .enumerate()
        .map(|(node, p)| {
            let (shape, x, y) = p.unwrap_or((0, 0, 0));
            let doors = state.used[node]
                .iter()
                .enumerate()
                .filter(|(_, e)| e.is_some())
                .map(|(d, _)| state.door_at(node, d))
                .collect();
            Placed { shape, x, y, doors }
        })
        .collect();
    let edges = state
        .realised
        .iter()
        .map(|r| {
            r.clone().unwrap_or(Realised {
                doors: [(0, 0); 2],
                corridor: Vec::new(),
            })
        })
        .collect();
    Outcome {
        shapes: shapes.to_vec(),
        rooms,
        edges,
        attempt,
    }
}

/// The plain reason for a failure, after `head` (how many attempts
/// failed): the room that ran out of candidates most often, and what
/// stopped its candidates most often.
fn explain(problem: &Problem, tally: &Tally, order: &[usize], head: String) -> String {
    let graph = &problem.graph;
    let name = |n: usize| graph.nodes[n].name.as_str();
    let Some(&worst) = order
        .iter()
        .max_by_key(|&&n| (tally.exhausted[n], std::cmp::Reverse(n)))
    else {
        return head;
    };
    let closing = graph.incident()[worst]
        .iter()
        .copied()
        .max_by_key(|&e| (tally.close[e], std::cmp::Reverse(e)))
        .filter(|&e| tally.close[e] > tally.space[worst]);
    let how = match problem.joints {
        Joints::Shared => "rooms that share a door place",
        Joints::Corridors { .. } => "corridors of the allowed lengths",
    };
    if let Some(e) = closing {
        let (a, b) = (graph.edges[e].a, graph.edges[e].b);
        // Rooms that touch move each other along one axis only: a loop of
        // three such rooms, each door in the middle of a side, can never
        // close, whatever the search does.
        let hint = match problem.joints {
            Joints::Shared => " (touching rooms close a loop only when their doors line up around it: loops of three need rooms with several door places on a side; corridors loosen this)",
            Joints::Corridors { .. } => " (longer corridors or more door places loosen this)",
        };
        return format!(
            "{head}: the cycle through \"{}\" and \"{}\" never closed: no two free doors of theirs could be joined by {how}{hint}",
            name(a),
            name(b)
        );
    }
    if tally.no_candidates[worst] > tally.space[worst] {
        return format!(
            "{head}: room \"{}\" had no free door to meet (its neighbour's doors were all taken or face the wrong way)",
            name(worst)
        );
    }
    format!(
        "{head}: room \"{}\" found no free space for any of its templates next to the rooms placed before it (the map may be too small or too full)",
        name(worst)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_paths_run_from_end_to_end() {
        assert_eq!(
            l_path((0, 0), (2, 1), true),
            vec![(0, 0), (1, 0), (2, 0), (2, 1)]
        );
        assert_eq!(
            l_path((0, 0), (2, 1), false),
            vec![(0, 0), (0, 1), (1, 1), (2, 1)]
        );
        assert_eq!(l_path((3, 3), (3, 3), true), vec![(3, 3)]);
    }

    #[test]
    fn cycles_are_laid_first() {
        use super::super::{Edge, Node};
        let node = |name: &str| Node {
            name: name.into(),
            templates: vec![0],
        };
        // A tail 0-1, then the triangle 1-2-3.
        let graph = Graph {
            nodes: vec![node("a"), node("b"), node("c"), node("d")],
            edges: vec![
                Edge { a: 0, b: 1 },
                Edge { a: 1, b: 2 },
                Edge { a: 2, b: 3 },
                Edge { a: 3, b: 1 },
            ],
        };
        let (order, parent) = order(&graph);
        assert_eq!(order, vec![1, 2, 3, 0]);
        assert_eq!(parent, vec![Some(0), None, Some(1), Some(3)]);
    }
}
