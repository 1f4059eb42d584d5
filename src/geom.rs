//! Rectangles with the seed tutorials' semantics: `Rect::new(x, y, w, h)` has
//! corners `(x, y)` and `(x + w, y + h)`, both inclusive; the *interior* drops
//! the one-tile ring so rooms keep a wall between them.

use std::fmt;

/// An axis-aligned rectangle given by two inclusive corners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

impl Rect {
    /// `Rect.new`'s checks: a positive size and corners that fit map
    /// coordinates; the error says which part was wrong.
    pub fn checked(x: i64, y: i64, w: i64, h: i64) -> Result<Rect, String> {
        if w < 1 {
            return Err(format!("w must be at least 1, got {w}"));
        }
        if h < 1 {
            return Err(format!("h must be at least 1, got {h}"));
        }
        let far = |a: i64, b: i64| a.checked_add(b).and_then(|v| i32::try_from(v).ok());
        match (i32::try_from(x), i32::try_from(y), far(x, w), far(y, h)) {
            (Ok(x), Ok(y), Some(_), Some(_)) => Ok(Rect::new(x, y, w as i32, h as i32)),
            _ => Err("the rect's far corner is out of range".into()),
        }
    }

    /// The seeds' constructor: top-left corner plus width and height, so the
    /// far corner is `(x + w, y + h)`.
    pub fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect {
            x1: x,
            y1: y,
            x2: x + w,
            y2: y + h,
        }
    }

    pub fn w(&self) -> i32 {
        self.x2 - self.x1
    }

    pub fn h(&self) -> i32 {
        self.y2 - self.y1
    }

    /// The centre with truncating integer division, as every seed computes it.
    pub fn center(&self) -> (i32, i32) {
        // Summed in 64 bits so rects near the i32 limits cannot overflow.
        let mid = |a: i32, b: i32| ((a as i64 + b as i64) / 2) as i32;
        (mid(self.x1, self.x2), mid(self.y1, self.y2))
    }

    /// The interior as inclusive bounds `(x1, y1, x2, y2)`; empty when
    /// `x1 > x2` or `y1 > y2` (a rect one tile wide has no interior).
    pub fn interior(&self) -> (i32, i32, i32, i32) {
        (self.x1 + 1, self.y1 + 1, self.x2 - 1, self.y2 - 1)
    }

    /// Inclusive overlap test, as in the seeds: rects that share an edge
    /// intersect, which is what keeps a wall between neighbouring rooms.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x1 <= other.x2 && self.x2 >= other.x1 && self.y1 <= other.y2 && self.y2 >= other.y1
    }

    /// Whether the cell lies on or inside the rect's corners.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x1 && x <= self.x2 && y >= self.y1 && y <= self.y2
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Rect(x1={}, y1={}, x2={}, y2={})",
            self.x1, self.y1, self.x2, self.y2
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_uses_width_and_height_for_the_far_corner() {
        let r = Rect::new(2, 3, 6, 8);
        assert_eq!((r.x1, r.y1, r.x2, r.y2), (2, 3, 8, 11));
        assert_eq!((r.w(), r.h()), (6, 8));
    }

    #[test]
    fn center_truncates_like_the_seeds() {
        assert_eq!(Rect::new(0, 0, 7, 9).center(), (3, 4));
        assert_eq!(Rect::new(1, 1, 6, 6).center(), (4, 4));
        let far = Rect::new(i32::MAX - 10, 0, 10, 2);
        assert_eq!(far.center(), (i32::MAX - 5, 1));
    }

    #[test]
    fn interior_drops_the_ring() {
        assert_eq!(Rect::new(2, 3, 6, 8).interior(), (3, 4, 7, 10));
    }

    #[test]
    fn intersection_is_inclusive() {
        let a = Rect::new(0, 0, 5, 5);
        assert!(a.intersects(&Rect::new(5, 5, 3, 3)), "shared corner");
        assert!(a.intersects(&Rect::new(5, 0, 3, 3)), "shared edge");
        assert!(!a.intersects(&Rect::new(6, 0, 3, 3)));
        assert!(!a.intersects(&Rect::new(0, 6, 3, 3)));
        assert!(a.intersects(&Rect::new(1, 1, 1, 1)), "contained");
    }

    #[test]
    fn contains_includes_the_corners() {
        let r = Rect::new(1, 1, 3, 3);
        assert!(r.contains(1, 1) && r.contains(4, 4) && r.contains(2, 3));
        assert!(!r.contains(0, 1) && !r.contains(5, 4));
    }
}
