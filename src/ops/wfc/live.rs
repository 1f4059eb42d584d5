//! Connectivity watched during the search, as DeBroglie's connected and
//! path constraints do: a cell *might* be walkable while some pattern left
//! at it has a walkable tile there, and *must* be once all do. When the
//! cells that must be walkable no longer lie in one piece of those that
//! might, no completion can join them: the search backs up at once
//! instead of finishing a fill that the final check would throw away.
//! Counts are watched alike: more cells that must hold a tile than its
//! maximum, or fewer that might than its minimum, is a dead end.

use super::bitset::Bits;
use super::meter::{Meter, Stopped};

/// Where a map cell's walkability is read from.
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// A cell kept as it is: walkable or not.
    Fixed(bool),
    /// A region cell: the domain of window `pos`, at offset `slot` (j * n + i).
    Window { pos: u32, slot: u32 },
}

pub(super) struct Live {
    width: usize,
    source: Vec<Source>,
    /// For `connected`: the cells that count (region cells, and walkable
    /// kept cells touching the region), as a list and as a mask.
    members: Vec<u32>,
    is_member: Vec<bool>,
    connected: bool,
    path: Option<(usize, usize)>,
    /// `walk_at[slot]`: the patterns with a walkable tile at that offset.
    walk_at: Vec<Bits>,
    /// Per count: `(min, max, patterns with its tile at each slot)`.
    counts: Vec<(u64, u64, Vec<Bits>)>,
    /// The region's cells, for the counts.
    region: Vec<u32>,
    w: usize,
    /// Each cell's might and must as last seen, so a change can be judged
    /// by what it changed.
    might_was: Vec<bool>,
    must_was: Vec<bool>,
    /// The cells each window position is the source of (`owned[owned_at[pos]
    /// ..owned_at[pos + 1]]`).
    owned_at: Vec<u32>,
    owned: Vec<u32>,
    /// Whether a change since the last passing search could have broken
    /// connectivity: a cell closed where its neighbours do not join around
    /// it, or a new must-be-walkable cell outside the known piece.
    dirty: bool,
    /// `piece[i] == piece_generation`: in the piece of the last passing
    /// connected search.
    piece: Vec<u32>,
    piece_generation: u32,
    seen: Vec<u32>,
    generation: u32,
    stack: Vec<u32>,
    /// Whether a reset has read the kept cells (which never change).
    fixed_read: bool,
}

/// Budget units for a cell the connectivity search takes off its stack
/// and looks around (about 7 ns measured over a 3000x3000 map, too big
/// for the cache; less on a small one; a unit is about 4 ns of Lua).
pub(super) const UNITS_PER_CELL_SEARCHED: u64 = 2;

/// The eight cells around one, in order around it: each is a 4-neighbour
/// of the next, so open cells in a row along the ring are joined.
const RING: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

impl Live {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        width: usize,
        source: Vec<Source>,
        region: &[bool],
        walk_at: Vec<Bits>,
        w: usize,
        connected: bool,
        path: Option<(usize, usize)>,
        counts: Vec<(u64, u64, Vec<Bits>)>,
        positions: usize,
    ) -> Live {
        let len = source.len();
        let height = len / width;
        let walkable_fixed = |i: usize| matches!(source[i], Source::Fixed(true));
        let touches = |i: usize| {
            let (x, y) = (i % width, i / width);
            (x > 0 && region[i - 1])
                || (x + 1 < width && region[i + 1])
                || (y > 0 && region[i - width])
                || (y + 1 < height && region[i + width])
        };
        let mut is_member = vec![false; if connected { len } else { 0 }];
        let mut members = Vec::new();
        if connected {
            for i in 0..len {
                if region[i] || (walkable_fixed(i) && touches(i)) {
                    is_member[i] = true;
                    members.push(i as u32);
                }
            }
        }
        let region_cells: Vec<u32> = (0..len as u32).filter(|&i| region[i as usize]).collect();
        // Cells by source position (a counting sort).
        let mut owned_at = vec![0u32; positions + 1];
        for s in &source {
            if let Source::Window { pos, .. } = s {
                owned_at[*pos as usize + 1] += 1;
            }
        }
        for p in 0..positions {
            owned_at[p + 1] += owned_at[p];
        }
        let mut next = owned_at.clone();
        let mut owned = vec![0u32; owned_at[positions] as usize];
        for (i, s) in source.iter().enumerate() {
            if let Source::Window { pos, .. } = s {
                owned[next[*pos as usize] as usize] = i as u32;
                next[*pos as usize] += 1;
            }
        }
        Live {
            width,
            source,
            members,
            is_member,
            connected,
            path,
            walk_at,
            counts,
            region: region_cells,
            w,
            might_was: vec![false; len],
            must_was: vec![false; len],
            owned_at,
            owned,
            dirty: true,
            piece: vec![0; len],
            piece_generation: 0,
            seen: vec![0; len],
            generation: 0,
            stack: Vec::new(),
            fixed_read: false,
        }
    }

    /// The bytes it holds besides what it was given.
    pub fn bytes(len: usize, positions: usize) -> usize {
        len * (16 + 1 + 4 + 4 + 2 + 4 + 4 + 4) + positions * 4
    }

    /// Reads every cell afresh (a new attempt's domains). A kept cell
    /// reads the same in every attempt: those are read once, by the first
    /// reset, and later resets read the region's cells only.
    pub fn reset(&mut self, dom: &[u64]) {
        if !self.fixed_read {
            for i in 0..self.source.len() {
                (self.might_was[i], self.must_was[i]) = self.might_must(dom, i);
            }
            self.fixed_read = true;
        } else {
            for k in 0..self.owned.len() {
                let i = self.owned[k] as usize;
                (self.might_was[i], self.must_was[i]) = self.might_must(dom, i);
            }
        }
        self.dirty = true;
    }

    /// Takes in the domains of `positions`, which changed: marks the state
    /// dirty if a change could have split what must be joined.
    pub fn sync(
        &mut self,
        positions: &[u32],
        dom: &[u64],
        meter: &mut Meter<'_>,
    ) -> Result<(), Stopped> {
        meter.work(positions.len() as u64 + 1)?;
        for &pos in positions {
            let (from, to) = (self.owned_at[pos as usize], self.owned_at[pos as usize + 1]);
            for k in from..to {
                let i = self.owned[k as usize] as usize;
                let (might, must) = self.might_must(dom, i);
                let closed = self.might_was[i] && !might;
                self.might_was[i] = might;
                if closed && !self.dirty && !self.closes_safely(i) {
                    self.dirty = true;
                }
                if must
                    && !self.must_was[i]
                    && self.connected
                    && self.piece[i] != self.piece_generation
                {
                    self.dirty = true;
                }
                self.must_was[i] = must;
            }
        }
        Ok(())
    }

    /// Whether closing cell `i` keeps its open neighbours joined through
    /// the ring of cells around it, in every graph watched: then no route
    /// through it was the only one.
    fn closes_safely(&self, i: usize) -> bool {
        let (x, y) = ((i % self.width) as i32, (i / self.width) as i32);
        let height = (self.source.len() / self.width) as i32;
        let graphs = [
            (self.path.is_some(), false),
            (self.connected && self.is_member[i], true),
        ];
        graphs
            .iter()
            .filter(|(on, _)| *on)
            .all(|&(_, members_only)| {
                let open: [bool; 8] = std::array::from_fn(|k| {
                    let (nx, ny) = (x + RING[k].0, y + RING[k].1);
                    if nx < 0 || ny < 0 || nx >= self.width as i32 || ny >= height {
                        return false;
                    }
                    let n = ny as usize * self.width + nx as usize;
                    self.might_was[n] && (!members_only || self.is_member[n])
                });
                // Runs of open cells along the ring holding a 4-neighbour.
                let Some(start) = (0..8).find(|&k| !open[k]) else {
                    return true;
                };
                let mut runs = 0;
                let mut in_run = false;
                let mut run_has_side = false;
                for step in 1..=8 {
                    let k = (start + step) % 8;
                    if open[k] {
                        if !in_run {
                            in_run = true;
                            run_has_side = false;
                        }
                        run_has_side |= k % 2 == 0;
                    } else if in_run {
                        in_run = false;
                        runs += run_has_side as u32;
                    }
                }
                runs <= 1
            })
    }

    /// How many region cells must hold, and might hold, the tile whose
    /// patterns by slot are `at`.
    fn tally(&self, dom: &[u64], at: &[Bits]) -> (u64, u64) {
        let (mut must, mut might) = (0, 0);
        for &i in &self.region {
            if let Source::Window { pos, slot } = self.source[i as usize] {
                let d = &dom[pos as usize * self.w..(pos as usize + 1) * self.w];
                let bits = &at[slot as usize].0;
                if d.iter().zip(bits).any(|(a, b)| a & b != 0) {
                    might += 1;
                    if d.iter().zip(bits).all(|(a, b)| a & !b == 0) {
                        must += 1;
                    }
                }
            }
        }
        (must, might)
    }

    /// The first count that can no longer be met: its index, and how many
    /// cells must and might hold its tile.
    pub fn count_out_of_reach(&self, dom: &[u64]) -> Option<(usize, u64, u64)> {
        self.counts
            .iter()
            .enumerate()
            .find_map(|(k, (min, max, at))| {
                let (must, might) = self.tally(dom, at);
                (must > *max || might < *min).then_some((k, must, might))
            })
    }

    /// Whether the cell might be walkable, and must be (plain loops: see
    /// solver.rs).
    fn might_must(&self, dom: &[u64], i: usize) -> (bool, bool) {
        match self.source[i] {
            Source::Fixed(walkable) => (walkable, walkable),
            Source::Window { pos, slot } => {
                let d = &dom[pos as usize * self.w..][..self.w];
                let walk = &self.walk_at[slot as usize].0[..self.w];
                let (mut might, mut must, mut k) = (false, true, 0);
                while k < d.len() {
                    might |= d[k] & walk[k] != 0;
                    must &= d[k] & !walk[k] == 0;
                    k += 1;
                }
                (might, must && might)
            }
        }
    }

    /// Whether the cells that must be walkable can still be joined, and
    /// the counts still met: searched again only when a change since the
    /// last passing search could have broken them.
    pub fn check(&mut self, dom: &[u64], meter: &mut Meter<'_>) -> Result<bool, Stopped> {
        if !self.counts.is_empty() {
            meter.work((self.region.len() * self.counts.len()) as u64 / 2 + 1)?;
            if self.count_out_of_reach(dom).is_some() {
                return Ok(false);
            }
        }
        if !self.dirty {
            return Ok(true);
        }
        if let Some((a, b)) = self.path {
            if !self.reaches(a, Some(b), false, meter)? {
                return Ok(false);
            }
        }
        if self.connected {
            // Two looks along the members, besides the search.
            meter.work(self.members.len() as u64 / 2 + 1)?;
            let first = self
                .members
                .iter()
                .find(|&&i| self.must_was[i as usize])
                .copied();
            if first.is_none() {
                // No piece yet: any cell that must be walkable later is news.
                self.next_generation();
                self.piece_generation = self.generation;
            }
            if let Some(first) = first {
                self.reaches(first as usize, None, true, meter)?;
                let generation = self.generation;
                let apart = self
                    .members
                    .iter()
                    .any(|&i| self.seen[i as usize] != generation && self.must_was[i as usize]);
                if apart {
                    return Ok(false);
                }
                // The piece is kept: a must cell that joins it later is fine.
                std::mem::swap(&mut self.piece, &mut self.seen);
                self.piece_generation = generation;
            }
        }
        self.dirty = false;
        Ok(true)
    }

    /// A generation no mark holds yet: both mark lists are cleared when the
    /// counter wraps (and the piece forgotten, so the next check searches).
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.piece.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
            self.piece_generation = 0;
            self.dirty = true;
        }
    }

    /// Marks the cells reachable from `from` over cells that might be
    /// walkable (members only, when `members_only`); whether `to` was.
    /// Each cell taken off the stack is charged as it is.
    fn reaches(
        &mut self,
        from: usize,
        to: Option<usize>,
        members_only: bool,
        meter: &mut Meter<'_>,
    ) -> Result<bool, Stopped> {
        self.next_generation();
        let generation = self.generation;
        let len = self.source.len();
        let width = self.width;
        self.stack.clear();
        self.seen[from] = generation;
        self.stack.push(from as u32);
        while let Some(i) = self.stack.pop() {
            meter.work(UNITS_PER_CELL_SEARCHED)?;
            let i = i as usize;
            if Some(i) == to {
                return Ok(true);
            }
            let (x, y) = (i % width, i / width);
            let around = [
                (x > 0).then(|| i - 1),
                (x + 1 < width).then(|| i + 1),
                (y > 0).then(|| i - width),
                (i + width < len).then(|| i + width),
            ];
            for n in around.into_iter().flatten() {
                if self.seen[n] != generation
                    && (!members_only || self.is_member[n])
                    && self.might_was[n]
                {
                    self.seen[n] = generation;
                    self.stack.push(n as u32);
                }
            }
        }
        Ok(false)
    }
}
