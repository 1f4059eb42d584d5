//! The search: one domain (a set of patterns) per window position, arc
//! consistency by propagation, lowest-count-first choices weighted by how
//! often the sample shows each pattern, and chronological backtracking on
//! contradictions (DeBroglie's), with a trail that saves a position's
//! domain once per choice.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::bitset::{self, words};
use super::live::Live;
use super::meter::{Meter, Stopped};
use super::patterns::{Patterns, DIRS};
use crate::rng::Rng;

/// Budget units for a position the undo puts back, besides a quarter unit
/// a word of its domain: a push on the heap of choices.
const UNITS_PER_UNDONE: u64 = 4;

/// The window positions being solved: top-left corners `(ox + px, oy + py)`
/// for `px < gw`, `py < gh`; the active ones cover at least one region cell.
pub(super) struct Grid {
    pub ox: i32,
    pub oy: i32,
    pub gw: usize,
    pub gh: usize,
    pub active: Vec<bool>,
}

impl Grid {
    fn neighbour(&self, pos: usize, d: usize) -> Option<usize> {
        let (x, y) = ((pos % self.gw) as i32, (pos / self.gw) as i32);
        let (nx, ny) = (x + DIRS[d].0, y + DIRS[d].1);
        if nx < 0 || ny < 0 || nx >= self.gw as i32 || ny >= self.gh as i32 {
            return None;
        }
        let n = ny as usize * self.gw + nx as usize;
        self.active[n].then_some(n)
    }
}

/// How one attempt ended.
pub(super) enum End {
    /// Every position holds one pattern.
    Solved,
    /// The backtracking limit was reached.
    GaveUp,
    /// The search ran out of choices: no fill exists at all.
    Impossible,
}

/// Positions a contradiction emptied: `Err(pos)`.
type Propagated = Result<(), usize>;

// The loops below index slices with `while` rather than zip iterators:
// the same code optimised, and several times faster unoptimised (the test
// builds run these fills hundreds of times).

/// Whether every bit of `target` is in `allowed`.
fn covers(allowed: &[u64], target: &[u64]) -> bool {
    let mut i = 0;
    while i < target.len() {
        if target[i] & !allowed[i] != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// ORs into `out` what the patterns of `source` allow (a table lookup per
/// byte of it), stopping once that covers `target`. Returns whether it
/// did, and the lookups made.
fn unite_by_bytes(table: &[u64], source: &[u64], target: &[u64], out: &mut [u64]) -> (bool, u64) {
    // The common widths with the width known to the compiler: the rows
    // are ORed in registers, unrolled (a third faster for 314 patterns).
    match out.len() {
        1 => unite_words::<1>(table, source, target, out),
        2 => unite_words::<2>(table, source, target, out),
        3 => unite_words::<3>(table, source, target, out),
        4 => unite_words::<4>(table, source, target, out),
        5 => unite_words::<5>(table, source, target, out),
        6 => unite_words::<6>(table, source, target, out),
        7 => unite_words::<7>(table, source, target, out),
        8 => unite_words::<8>(table, source, target, out),
        _ => unite_any_width(table, source, target, out),
    }
}

/// [`unite_by_bytes`] for domains of `W` words.
fn unite_words<const W: usize>(
    table: &[u64],
    source: &[u64],
    target: &[u64],
    out: &mut [u64],
) -> (bool, u64) {
    let (Ok(source), Ok(target), Ok(out)) = (
        <&[u64; W]>::try_from(source),
        <&[u64; W]>::try_from(target),
        <&mut [u64; W]>::try_from(out),
    ) else {
        unreachable!("a domain is W words")
    };
    let mut united = *out;
    let mut seen = 0;
    for (k, &word) in source.iter().enumerate() {
        if word == 0 {
            continue;
        }
        for b in 0..8 {
            let byte = (word >> (8 * b)) as usize & 0xff;
            if byte != 0 {
                let at = ((k * 8 + b) * 256 + byte) * W;
                let row: &[u64; W] = table[at..at + W].try_into().expect("W words");
                for i in 0..W {
                    united[i] |= row[i];
                }
                seen += 1;
            }
        }
        if (0..W).all(|i| target[i] & !united[i] == 0) {
            *out = united;
            return (true, seen);
        }
    }
    *out = united;
    (false, seen)
}

/// [`unite_by_bytes`] for any width.
fn unite_any_width(table: &[u64], source: &[u64], target: &[u64], out: &mut [u64]) -> (bool, u64) {
    let w = out.len();
    let mut seen = 0;
    let mut k = 0;
    while k < source.len() {
        let word = source[k];
        if word != 0 {
            let mut b = 0;
            while b < 8 {
                let byte = (word >> (8 * b)) as usize & 0xff;
                if byte != 0 {
                    let row = &table[((k * 8 + b) * 256 + byte) * w..][..w];
                    let mut i = 0;
                    while i < w {
                        out[i] |= row[i];
                        i += 1;
                    }
                    seen += 1;
                }
                b += 1;
            }
            if covers(out, target) {
                return (true, seen);
            }
        }
        k += 1;
    }
    (false, seen)
}

/// [`unite_by_bytes`] pattern by pattern, for pattern sets too big for
/// the tables.
fn unite_by_patterns(
    compat: &[super::bitset::Bits],
    source: &[u64],
    target: &[u64],
    out: &mut [u64],
) -> (bool, u64) {
    let mut seen = 0;
    for (k, p) in bitset::ones(source).enumerate() {
        for (o, x) in out.iter_mut().zip(&compat[p].0) {
            *o |= x;
        }
        seen += 1;
        if k % 8 == 7 && covers(out, target) {
            return (true, seen);
        }
    }
    (false, seen)
}

pub(super) struct Solver<'a> {
    pats: &'a Patterns,
    grid: &'a Grid,
    w: usize,
    dom: Vec<u64>,
    counts: Vec<u32>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Saved domains: positions, their words, their counts.
    trail_pos: Vec<u32>,
    trail_words: Vec<u64>,
    /// The choice whose trail last saved each position (0: none).
    saved_by: Vec<u32>,
    choice_id: u32,
    /// The last id given to a choice: ids never come back, so the
    /// `saved_by` marks of a choice that was undone mean nothing later.
    last_id: u32,
    heap: BinaryHeap<Reverse<(u32, u32, u32)>>,
    noise_seed: u64,
    scratch: Vec<u64>,
    /// Positions whose domain changed since the watch last looked (kept
    /// only while there is a watch).
    touched: Vec<u32>,
    track: bool,
}

/// The bytes a solver for `positions` positions of `w` words holds, before
/// its trail grows (domains three times: the attempt's, the initial copy,
/// and the next attempt's while it is made).
pub(super) fn base_bytes(positions: usize, w: usize) -> usize {
    positions * (3 * w * 8 + 4 + 1 + 4 + 4 + 16)
}

/// A position's place in the choice order among equal counts: a hash of
/// the attempt's seed, so ties break at random without a draw each.
fn noise(seed: u64, pos: usize) -> u32 {
    let mut z = seed ^ (pos as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32
}

impl<'a> Solver<'a> {
    /// A solver whose domains are `initial` (positions × words).
    pub fn new(pats: &'a Patterns, grid: &'a Grid, initial: Vec<u64>) -> Solver<'a> {
        let w = words(pats.count());
        let positions = grid.gw * grid.gh;
        let counts = (0..positions)
            .map(|p| bitset::count(&initial[p * w..(p + 1) * w]))
            .collect();
        Solver {
            pats,
            grid,
            w,
            dom: initial,
            counts,
            queue: Vec::new(),
            queued: vec![false; positions],
            trail_pos: Vec::new(),
            trail_words: Vec::new(),
            saved_by: vec![0; positions],
            choice_id: 0,
            last_id: 0,
            heap: BinaryHeap::new(),
            noise_seed: 0,
            scratch: vec![0; w],
            touched: Vec::new(),
            track: false,
        }
    }

    pub fn domains(&self) -> &[u64] {
        &self.dom
    }

    /// The pattern a solved position holds.
    pub fn pattern(&self, pos: usize) -> usize {
        bitset::ones(&self.dom[pos * self.w..(pos + 1) * self.w])
            .next()
            .unwrap_or(0)
    }

    /// Propagates from every active position: the initial consistency.
    pub fn propagate_all(&mut self, meter: &mut Meter<'_>) -> Result<Propagated, Stopped> {
        for pos in 0..self.grid.active.len() {
            if self.grid.active[pos] {
                if self.counts[pos] == 0 {
                    return Ok(Err(pos));
                }
                self.enqueue(pos);
            }
        }
        self.propagate(meter)
    }

    fn enqueue(&mut self, pos: usize) {
        if !self.queued[pos] {
            self.queued[pos] = true;
            self.queue.push(pos as u32);
        }
    }

    /// Saves `pos`'s domain on the trail, once per choice (none at the root:
    /// the root's removals hold for the whole attempt).
    fn save(&mut self, pos: usize) {
        if self.choice_id == 0 || self.saved_by[pos] == self.choice_id {
            return;
        }
        self.saved_by[pos] = self.choice_id;
        self.trail_pos.push(pos as u32);
        self.trail_words
            .extend_from_slice(&self.dom[pos * self.w..(pos + 1) * self.w]);
    }

    fn changed(&mut self, pos: usize) {
        let count = bitset::count(&self.dom[pos * self.w..(pos + 1) * self.w]);
        self.counts[pos] = count;
        if self.track {
            self.touched.push(pos as u32);
        }
        if count > 1 {
            self.heap
                .push(Reverse((count, noise(self.noise_seed, pos), pos as u32)));
        }
    }

    fn propagate(&mut self, meter: &mut Meter<'_>) -> Result<Propagated, Stopped> {
        let w = self.w;
        while let Some(c) = self.queue.pop() {
            let c = c as usize;
            self.queued[c] = false;
            for d in 0..4 {
                let Some(nb) = self.grid.neighbour(c, d) else {
                    continue;
                };
                // What c's patterns allow at nb, built until it covers
                // nb's domain (then nothing would change).
                self.scratch.iter_mut().for_each(|x| *x = 0);
                let target = &self.dom[nb * w..(nb + 1) * w];
                let source = &self.dom[c * w..(c + 1) * w];
                let (covered, seen) = match &self.pats.unions {
                    Some(unions) => unite_by_bytes(&unions[d], source, target, &mut self.scratch),
                    None => {
                        unite_by_patterns(&self.pats.compat[d], source, target, &mut self.scratch)
                    }
                };
                meter.work(seen * w as u64 / 4 + 1)?;
                if covered || covers(&self.scratch, &self.dom[nb * w..(nb + 1) * w]) {
                    continue;
                }
                self.save(nb);
                let target = &mut self.dom[nb * w..(nb + 1) * w];
                let mut i = 0;
                while i < w {
                    target[i] &= self.scratch[i];
                    i += 1;
                }
                self.changed(nb);
                if self.counts[nb] == 0 {
                    self.clear_queue();
                    return Ok(Err(nb));
                }
                self.enqueue(nb);
            }
        }
        Ok(Ok(()))
    }

    fn clear_queue(&mut self) {
        for &q in &self.queue {
            self.queued[q as usize] = false;
        }
        self.queue.clear();
    }

    /// Puts back the domains saved since the trail held `len` positions,
    /// charged before any is put back (the trail is cut here, so its
    /// length says what the undo does only before).
    fn undo(&mut self, len: usize, meter: &mut Meter<'_>) -> Result<(), Stopped> {
        let w = self.w;
        // Each position put back: its words copied and counted, and a push
        // on the heap.
        meter.work(
            (self.trail_pos.len().saturating_sub(len) as u64)
                .saturating_mul(w as u64 / 4 + UNITS_PER_UNDONE)
                + 1,
        )?;
        while self.trail_pos.len() > len {
            let pos = self.trail_pos.pop().unwrap_or(0) as usize;
            let from = self.trail_words.len() - w;
            self.dom[pos * w..(pos + 1) * w].copy_from_slice(&self.trail_words[from..]);
            self.trail_words.truncate(from);
            self.changed(pos);
        }
        Ok(())
    }

    /// The undecided position with the fewest patterns, ties broken by the
    /// attempt's noise; stale heap entries are skipped.
    fn next_choice(&mut self) -> Option<usize> {
        while let Some(Reverse((count, _, pos))) = self.heap.pop() {
            let pos = pos as usize;
            if self.counts[pos] == count && count > 1 {
                return Some(pos);
            }
        }
        None
    }

    fn rebuild_heap(&mut self) {
        self.heap.clear();
        for pos in 0..self.counts.len() {
            if self.grid.active[pos] && self.counts[pos] > 1 {
                self.heap.push(Reverse((
                    self.counts[pos],
                    noise(self.noise_seed, pos),
                    pos as u32,
                )));
            }
        }
    }

    /// One attempt from the current (initial) domains: choose, propagate,
    /// back up on contradiction, at most `limit` times.
    pub fn search(
        &mut self,
        rng: &mut Rng,
        limit: u32,
        mut live: Option<&mut Live>,
        meter: &mut Meter<'_>,
    ) -> Result<End, Stopped> {
        let w = self.w;
        self.noise_seed = (rng.next_u32() as u64) << 32 | rng.next_u32() as u64;
        self.rebuild_heap();
        meter.work(self.counts.len() as u64 / 4 + 1)?;
        // (trail length, position, pattern, choice id) of each open choice.
        let mut choices: Vec<(usize, usize, usize, u32)> = Vec::new();
        let mut backtracks = 0u32;
        let mut weights = Vec::new();
        self.track = live.is_some();
        if let Some(live) = live.as_deref_mut() {
            live.reset(&self.dom);
        }
        loop {
            if self.heap.len() > 4 * self.counts.len() + 64 {
                self.rebuild_heap();
            }
            let Some(pos) = self.next_choice() else {
                return Ok(End::Solved);
            };
            weights.clear();
            let options: Vec<usize> = bitset::ones(&self.dom[pos * w..(pos + 1) * w]).collect();
            weights.extend(options.iter().map(|&p| self.pats.weights[p]));
            meter.work(options.len() as u64 / 4 + 1)?;
            // Weights total at most the sample's windows, well under 2^32.
            let pick = options[rng.weighted(&weights).unwrap_or(0)];
            self.last_id += 1;
            self.choice_id = self.last_id;
            choices.push((self.trail_pos.len(), pos, pick, self.choice_id));
            self.save(pos);
            self.dom[pos * w..(pos + 1) * w]
                .iter_mut()
                .for_each(|x| *x = 0);
            self.dom[pos * w + pick / 64] |= 1 << (pick % 64);
            self.changed(pos);
            self.enqueue(pos);
            meter.hold(self.trail_bytes())?;
            let mut ok = self.propagate(meter)?.is_ok();
            if let (true, Some(live)) = (ok, live.as_deref_mut()) {
                ok = self.watch(live, meter)?;
            }
            while !ok {
                backtracks += 1;
                if backtracks > limit {
                    return Ok(End::GaveUp);
                }
                let Some((len, pos, pick, _)) = choices.pop() else {
                    return Ok(End::Impossible);
                };
                self.undo(len, meter)?;
                self.choice_id = choices.last().map_or(0, |c| c.3);
                // The choice failed: its pattern is out at the choice before.
                self.save(pos);
                self.dom[pos * w + pick / 64] &= !(1 << (pick % 64));
                self.changed(pos);
                if self.counts[pos] == 0 {
                    continue;
                }
                self.enqueue(pos);
                ok = self.propagate(meter)?.is_ok();
                if let (true, Some(live)) = (ok, live.as_deref_mut()) {
                    ok = self.watch(live, meter)?;
                }
            }
        }
    }

    /// Tells the watch what changed, then asks it.
    fn watch(&mut self, live: &mut Live, meter: &mut Meter<'_>) -> Result<bool, Stopped> {
        self.sync(live, meter)?;
        live.check(&self.dom, meter)
    }

    fn sync(&mut self, live: &mut Live, meter: &mut Meter<'_>) -> Result<(), Stopped> {
        live.sync(&self.touched, &self.dom, meter)?;
        self.touched.clear();
        Ok(())
    }

    fn trail_bytes(&self) -> usize {
        self.trail_pos.capacity() * 4 + self.trail_words.capacity() * 8 + self.heap.capacity() * 12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(rng: &mut Rng) -> u64 {
        (rng.next_u32() as u64) << 32 | rng.next_u32() as u64
    }

    /// Sparse random words: some zero, some with few bits, some full.
    fn word(rng: &mut Rng) -> u64 {
        match rng.int(4) {
            0 => 0,
            1 => 1 << rng.int(64),
            2 => random(rng) & random(rng) & random(rng),
            _ => random(rng),
        }
    }

    /// An undo of a trail too long to pass in one batch of charges: with
    /// a meter that refuses, nothing is put back; with one that takes every
    /// charge, each position put back is charged (its words and a push).
    #[test]
    fn an_undo_is_charged_for_every_position_before_it_puts_any_back() {
        use super::super::meter::Charge;
        use super::super::patterns::{learn, Sample};
        use crate::map::Tile;
        // Random two-tile rows: hundreds of 3x3 patterns, several words.
        let mut rng = Rng::new(3);
        let cells = (0..24 * 24)
            .map(|_| [Tile::WALL, Tile::FLOOR][rng.int(2) as usize])
            .collect();
        let sample = Sample {
            width: 24,
            height: 24,
            cells,
        };
        let pats = learn(&sample, 3, 8, 4096).unwrap();
        let (count, w) = (pats.count(), words(pats.count()));
        assert!(w >= 4, "{count} patterns");
        let (gw, gh) = (60, 60);
        let grid = Grid {
            ox: 0,
            oy: 0,
            gw,
            gh,
            active: vec![true; gw * gh],
        };
        let mut full = vec![0u64; gw * gh * w];
        for pos in 0..gw * gh {
            for p in 0..count {
                full[pos * w + p / 64] |= 1 << (p % 64);
            }
        }
        let mut solver = Solver::new(&pats, &grid, full.clone());
        // One choice that narrowed every position to its first pattern.
        solver.last_id = 1;
        solver.choice_id = 1;
        for pos in 0..gw * gh {
            solver.save(pos);
            solver.dom[pos * w..(pos + 1) * w].fill(0);
            solver.dom[pos * w] = 1;
            solver.changed(pos);
        }
        let narrowed = solver.dom.clone();
        let units = (gw * gh) as u64 * (w as u64 / 4 + UNITS_PER_UNDONE) + 1;
        assert!(units >= 1 << 14, "more than a batch: {units}");

        let mut refuse = |_| Err(Stopped);
        let refused = solver.undo(0, &mut Meter::new(&mut refuse));
        assert_eq!(refused, Err(Stopped));
        assert_eq!(solver.trail_pos.len(), gw * gh, "the trail is not cut");
        assert!(solver.dom == narrowed, "no domain is put back");

        let mut charged = 0;
        let mut take = |c: Charge| {
            if let Charge::Work(u) = c {
                charged += u;
            }
            Ok(())
        };
        let mut meter = Meter::new(&mut take);
        solver.undo(0, &mut meter).unwrap();
        meter.flush().unwrap();
        drop(meter);
        assert_eq!(charged, units);
        assert!(solver.trail_pos.is_empty());
        assert!(solver.dom == full, "every domain is put back");
    }

    #[test]
    fn every_width_unites_as_the_general_loop_does() {
        let mut rng = Rng::new(5);
        for w in 1..=10usize {
            // A union table of w-word rows for every byte of a w-word domain.
            let table: Vec<u64> = (0..w * 8 * 256 * w).map(|_| word(&mut rng)).collect();
            for _ in 0..200 {
                let source: Vec<u64> = (0..w).map(|_| word(&mut rng)).collect();
                let target: Vec<u64> = (0..w).map(|_| word(&mut rng)).collect();
                let start: Vec<u64> = (0..w).map(|_| word(&mut rng) & word(&mut rng)).collect();
                let mut fast = start.clone();
                let mut general = start.clone();
                let got = unite_by_bytes(&table, &source, &target, &mut fast);
                let want = unite_any_width(&table, &source, &target, &mut general);
                assert_eq!((got, fast), (want, general), "width {w}");
            }
        }
    }
}
