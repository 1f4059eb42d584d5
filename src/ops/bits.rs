//! A set of cell indices of one map, a bit a cell: what the searches mark
//! cells with when a byte a cell would be eight times the memory to clear.

pub(crate) struct Bits(Vec<u64>);

impl Bits {
    pub(crate) fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets the bit; whether it was clear.
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (&mut self.0[i / 64], 1u64 << (i % 64));
        let was_clear = *word & bit == 0;
        *word |= bit;
        was_clear
    }

    /// The set indices, ascending.
    pub(crate) fn indices(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (k, &word) in self.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                out.push((k * 64) as u32 + rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
        out
    }
}
