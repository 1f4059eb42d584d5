//! A spatial index of rectangles: "does this rect touch any placed one?"
//! in time proportional to its neighbours, not to every rect placed, so a
//! script placing thousands of rooms does less work than the naive loop.

use rustc_hash::FxHashMap;

use crate::geom::Rect;

/// Rects bucketed on a uniform grid.
#[derive(Clone, Debug, Default)]
pub struct RectIndex {
    rects: Vec<Rect>,
    /// Each bucket's rects as a list threaded through one vector: a rect's
    /// id and the entry after it in its bucket ([`END`] at the last). A
    /// bucket of its own vector cost an allocation per bucket, a visible
    /// part of a small map's run (rooms.lua makes a few dozen buckets).
    entries: Vec<(u32, u32)>,
    /// Each bucket's first entry, keyed by bucket coordinates with a fast
    /// hash: SipHash's cost was a visible part of a small map's run; no
    /// order is ever read from it.
    heads: FxHashMap<(i32, i32), u32>,
    /// The buckets the rects of a scanned index (one with no buckets yet)
    /// would take.
    scanned_buckets: u64,
}

/// The `next` of a bucket's last entry.
const END: u32 = u32::MAX;

/// Bucket size in cells: about a room, so a query reads a few buckets.
const BUCKET: i32 = 16;

/// Buckets an index makes room for when it first uses them: an 80x50
/// map's rooms touch about 30, and a table grown from empty rehashed four
/// times. (Never when it is made: an empty index holds no heap, so a
/// script making millions of them is held by Lua's memory limit alone.)
const FIRST_BUCKETS: usize = 32;

/// Up to this many rects, an index has no buckets and a query compares
/// them all: cheaper than hashing the buckets a query touches (a typical
/// 80x50 map's rooms, which rooms.lua queries 31 times a map, took 320
/// instructions a query through the buckets and under 100 scanned).
/// What a query or insert is charged does not depend on it.
const SCANNED: usize = 16;

/// Nor past this many buckets in all: the insert that starts the buckets
/// makes every rect's at once, before what they hold is counted against
/// the memory limit, so big rects start them at once, as each insert did
/// before (16 rects of 2 million buckets each were made in one go, 20
/// times the limit).
const SCANNED_BUCKETS: u64 = 64;

fn buckets_of(r: &Rect) -> impl Iterator<Item = (i32, i32)> {
    let (bx1, bx2) = (r.x1.div_euclid(BUCKET), r.x2.div_euclid(BUCKET));
    let (by1, by2) = (r.y1.div_euclid(BUCKET), r.y2.div_euclid(BUCKET));
    (by1..=by2).flat_map(move |by| (bx1..=bx2).map(move |bx| (bx, by)))
}

impl RectIndex {
    pub fn new() -> RectIndex {
        RectIndex::default()
    }

    pub fn len(&self) -> usize {
        self.rects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rects.is_empty()
    }

    pub fn insert(&mut self, r: Rect) {
        let scanned = self.heads.is_empty();
        self.rects.push(r);
        let n = self.rects.len();
        if scanned {
            self.scanned_buckets = self
                .scanned_buckets
                .saturating_add(RectIndex::buckets_touched(&r));
            if n <= SCANNED && self.scanned_buckets <= SCANNED_BUCKETS {
                return;
            }
            // Past a scanned index's size: every rect so far goes into the
            // buckets, in order (at most SCANNED_BUCKETS entries more than
            // this rect's own, which an insert has always allocated).
            self.heads.reserve(FIRST_BUCKETS);
            for id in 0..n {
                self.add_to_buckets(id as u32);
            }
        } else {
            self.add_to_buckets(n as u32 - 1);
        }
    }

    /// Threads rect `id` into the list of every bucket it touches.
    fn add_to_buckets(&mut self, id: u32) {
        let r = self.rects[id as usize];
        for b in buckets_of(&r) {
            let entry = self.entries.len() as u32;
            let head = self.heads.entry(b).or_insert(END);
            self.entries.push((id, *head));
            *head = entry;
        }
    }

    /// How many buckets an insert or a query of `r` visits: the work either
    /// does, known before doing it (a rect the size of the world visits
    /// billions).
    pub fn buckets_touched(r: &Rect) -> u64 {
        let span =
            |a: i32, b: i32| (b.div_euclid(BUCKET) as i64 - a.div_euclid(BUCKET) as i64 + 1) as u64;
        span(r.x1, r.x2).saturating_mul(span(r.y1, r.y2))
    }

    /// About what the index holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.rects.capacity() * std::mem::size_of::<Rect>()
            + self.entries.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.heads.capacity() * (std::mem::size_of::<((i32, i32), u32)>() + 1)
    }

    /// Whether `r` intersects (inclusively, as [`Rect::intersects`]) any
    /// rect in the index.
    pub fn intersects_any(&self, r: &Rect) -> bool {
        if self.heads.is_empty() {
            return self.rects.iter().any(|p| p.intersects(r));
        }
        buckets_of(r).any(|b| {
            let mut at = self.heads.get(&b).copied().unwrap_or(END);
            while at != END {
                let (id, next) = self.entries[at as usize];
                if self.rects[id as usize].intersects(r) {
                    return true;
                }
                at = next;
            }
            false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn agrees_with_the_naive_loop() {
        let mut rng = Rng::new(8);
        let mut index = RectIndex::new();
        let mut placed: Vec<Rect> = Vec::new();
        for _ in 0..3000 {
            let r = Rect::new(
                rng.int(400) as i32 - 50,
                rng.int(300) as i32 - 50,
                rng.int(30) as i32 + 1,
                rng.int(30) as i32 + 1,
            );
            let naive = placed.iter().any(|p| p.intersects(&r));
            assert_eq!(index.intersects_any(&r), naive, "{r}");
            if !naive {
                index.insert(r);
                placed.push(r);
            }
        }
        assert_eq!(index.len(), placed.len());
        assert!(index.len() > 20);
    }

    #[test]
    fn a_scanned_index_answers_as_its_buckets_do() {
        // Around the size where an index starts its buckets, queries
        // agree with the naive loop, before and after.
        let mut rng = Rng::new(3);
        for size in [SCANNED - 1, SCANNED, SCANNED + 1, SCANNED + 2, 3 * SCANNED] {
            let mut index = RectIndex::new();
            let mut placed: Vec<Rect> = Vec::new();
            while placed.len() < size {
                let r = Rect::new(
                    rng.int(200) as i32 - 20,
                    rng.int(200) as i32 - 20,
                    rng.int(40) as i32 + 1,
                    rng.int(40) as i32 + 1,
                );
                index.insert(r);
                placed.push(r);
            }
            let small = index.scanned_buckets <= SCANNED_BUCKETS;
            assert_eq!(
                index.heads.is_empty(),
                size <= SCANNED && small,
                "{size} rects"
            );
            for _ in 0..500 {
                let q = Rect::new(
                    rng.int(260) as i32 - 50,
                    rng.int(260) as i32 - 50,
                    rng.int(20) as i32 + 1,
                    rng.int(20) as i32 + 1,
                );
                let naive = placed.iter().any(|p| p.intersects(&q));
                assert_eq!(index.intersects_any(&q), naive, "{size} rects, {q}");
            }
        }
    }

    #[test]
    fn big_rects_start_the_buckets_at_once() {
        // A rect past the scanned index's buckets starts them (its own and
        // those of every rect before it, a few): the buckets of 16 big
        // rects were made in one go before the memory limit could see them.
        let mut index = RectIndex::new();
        index.insert(Rect::new(0, 0, 8, 8));
        assert!(index.heads.is_empty());
        index.insert(Rect::new(100, 100, 16 * 20, 16 * 20));
        assert!(!index.heads.is_empty());
        assert!(index.intersects_any(&Rect::new(1, 1, 2, 2)));
        assert!(index.intersects_any(&Rect::new(200, 200, 2, 2)));
        assert!(!index.intersects_any(&Rect::new(50, 50, 2, 2)));
    }

    #[test]
    fn an_empty_index_holds_no_heap() {
        // What an index holds is counted against a run's memory limit only
        // once something is inserted: a script making millions of empty
        // ones must not hold native memory that nothing counts.
        let mut index = RectIndex::new();
        assert_eq!(index.heap_bytes(), 0);
        index.insert(Rect::new(0, 0, 40, 40));
        assert!(index.heap_bytes() >= std::mem::size_of::<Rect>());
        // Past the scanned size, the buckets are counted too: 9 a rect
        // of this size.
        for _ in 0..SCANNED {
            index.insert(Rect::new(0, 0, 40, 40));
        }
        let rects = (SCANNED + 1) * std::mem::size_of::<Rect>();
        assert!(
            index.heap_bytes() >= rects + 9 * (SCANNED + 1) * 8,
            "{}",
            index.heap_bytes()
        );
    }

    #[test]
    fn shared_edges_count() {
        let mut index = RectIndex::new();
        index.insert(Rect::new(0, 0, 15, 15));
        assert!(index.intersects_any(&Rect::new(15, 15, 5, 5)));
        assert!(!index.intersects_any(&Rect::new(16, 0, 5, 5)));
    }
}
