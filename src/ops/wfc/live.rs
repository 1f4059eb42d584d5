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
    /// Forward choices between checks, so a big fill is not searched whole
    /// after every choice (a late check still backs up far enough).
    interval: u32,
    since: u32,
    seen: Vec<u32>,
    generation: u32,
    stack: Vec<u32>,
}

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
        let watched = members.len()
            + if path.is_some() { len } else { 0 }
            + region_cells.len() * counts.len();
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
            interval: (watched / 8192).max(1) as u32,
            since: 0,
            seen: vec![0; len],
            generation: 0,
            stack: Vec::new(),
        }
    }

    /// The bytes it holds besides what it was given.
    pub fn bytes(len: usize) -> usize {
        len * (16 + 1 + 4 + 4)
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

    fn might(&self, dom: &[u64], i: usize) -> bool {
        match self.source[i] {
            Source::Fixed(walkable) => walkable,
            Source::Window { pos, slot } => {
                let d = &dom[pos as usize * self.w..(pos as usize + 1) * self.w];
                d.iter()
                    .zip(&self.walk_at[slot as usize].0)
                    .any(|(a, b)| a & b != 0)
            }
        }
    }

    fn must(&self, dom: &[u64], i: usize) -> bool {
        match self.source[i] {
            Source::Fixed(walkable) => walkable,
            Source::Window { pos, slot } => {
                let d = &dom[pos as usize * self.w..(pos as usize + 1) * self.w];
                d.iter()
                    .zip(&self.walk_at[slot as usize].0)
                    .all(|(a, b)| a & !b == 0)
            }
        }
    }

    /// After a forward choice: checks every `interval` choices.
    pub fn check_forward(&mut self, dom: &[u64], meter: &mut Meter<'_>) -> Result<bool, Stopped> {
        self.since += 1;
        if self.since < self.interval {
            return Ok(true);
        }
        self.check(dom, meter)
    }

    /// Whether the cells that must be walkable can still be joined.
    pub fn check(&mut self, dom: &[u64], meter: &mut Meter<'_>) -> Result<bool, Stopped> {
        self.since = 0;
        if !self.counts.is_empty() {
            meter.work((self.region.len() * self.counts.len()) as u64 / 2 + 1)?;
            if self.count_out_of_reach(dom).is_some() {
                return Ok(false);
            }
        }
        if let Some((a, b)) = self.path {
            meter.work(self.source.len() as u64 / 8 + 1)?;
            if !self.reaches(dom, a, Some(b), false) {
                return Ok(false);
            }
        }
        if self.connected {
            meter.work(self.members.len() as u64 / 2 + 1)?;
            let Some(&first) = self.members.iter().find(|&&i| self.must(dom, i as usize)) else {
                return Ok(true);
            };
            self.reaches(dom, first as usize, None, true);
            let generation = self.generation;
            let apart = self
                .members
                .iter()
                .any(|&i| self.seen[i as usize] != generation && self.must(dom, i as usize));
            return Ok(!apart);
        }
        Ok(true)
    }

    /// Marks the cells reachable from `from` over cells that might be
    /// walkable (members only, when `members_only`); whether `to` was.
    fn reaches(&mut self, dom: &[u64], from: usize, to: Option<usize>, members_only: bool) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        let len = self.source.len();
        let width = self.width;
        self.stack.clear();
        self.seen[from] = generation;
        self.stack.push(from as u32);
        while let Some(i) = self.stack.pop() {
            let i = i as usize;
            if Some(i) == to {
                return true;
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
                    && self.might(dom, n)
                {
                    self.seen[n] = generation;
                    self.stack.push(n as u32);
                }
            }
        }
        false
    }
}
