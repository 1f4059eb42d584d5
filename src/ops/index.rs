//! A spatial index of rectangles: "does this rect touch any placed one?"
//! in time proportional to its neighbours, not to every rect placed, so a
//! script placing thousands of rooms does less work than the naive loop.

use rustc_hash::FxHashMap;

use crate::geom::Rect;

/// Rects bucketed on a uniform grid.
#[derive(Clone, Debug, Default)]
pub struct RectIndex {
    rects: Vec<Rect>,
    /// Keyed by bucket coordinates with a fast hash: SipHash's cost was
    /// a visible part of a small map's run; no order is ever read from it.
    buckets: FxHashMap<(i32, i32), Vec<u32>>,
    /// Rect ids stored over all buckets.
    entries: usize,
}

/// Bucket size in cells: about a room, so a query reads a few buckets.
const BUCKET: i32 = 16;

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
        let id = self.rects.len() as u32;
        self.rects.push(r);
        for b in buckets_of(&r) {
            self.buckets.entry(b).or_default().push(id);
            self.entries += 1;
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
            + self.entries * std::mem::size_of::<u32>()
            + self.buckets.len() * 64
    }

    /// Whether `r` intersects (inclusively, as [`Rect::intersects`]) any
    /// rect in the index.
    pub fn intersects_any(&self, r: &Rect) -> bool {
        buckets_of(r).any(|b| {
            self.buckets
                .get(&b)
                .is_some_and(|ids| ids.iter().any(|&id| self.rects[id as usize].intersects(r)))
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
    fn shared_edges_count() {
        let mut index = RectIndex::new();
        index.insert(Rect::new(0, 0, 15, 15));
        assert!(index.intersects_any(&Rect::new(15, 15, 5, 5)));
        assert!(!index.intersects_any(&Rect::new(16, 0, 5, 5)));
    }
}
