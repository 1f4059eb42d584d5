//! A fixed-size set of pattern numbers as 64-bit words, and the word-slice
//! operations the solver runs on domains stored side by side.

/// A set of pattern numbers below a fixed count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Bits(pub Vec<u64>);

/// The words a set of `count` numbers takes.
pub(super) fn words(count: usize) -> usize {
    count.div_ceil(64)
}

impl Bits {
    pub fn new(count: usize) -> Bits {
        Bits(vec![0; words(count)])
    }

    /// Every number below `count`.
    pub fn full(count: usize) -> Bits {
        let mut b = Bits::new(count);
        for p in 0..count {
            b.set(p);
        }
        b
    }

    pub fn set(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }

    #[cfg(test)]
    pub fn has(&self, p: usize) -> bool {
        has(&self.0, p)
    }
}

#[cfg(test)]
pub(super) fn has(words: &[u64], p: usize) -> bool {
    words[p / 64] >> (p % 64) & 1 == 1
}

pub(super) fn count(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

/// The numbers in the set, smallest first.
pub(super) fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(k, &w)| {
        let mut rest = w;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(k * 64 + bit)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_lists_the_members_in_order() {
        let mut b = Bits::new(130);
        for p in [0, 5, 63, 64, 129] {
            b.set(p);
        }
        assert_eq!(ones(&b.0).collect::<Vec<_>>(), vec![0, 5, 63, 64, 129]);
        assert_eq!(count(&b.0), 5);
        assert_eq!(count(&Bits::full(130).0), 130);
    }
}
