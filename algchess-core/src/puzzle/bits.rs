//! Sets of squares as `W` words, fixed when the search is compiled: the
//! placement search's inner loop is a few word operations per node.

/// A set of square indices below `64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(super) struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Bits<W> {
    pub(super) const EMPTY: Bits<W> = Bits([0; W]);

    pub(super) fn from_indices(it: impl IntoIterator<Item = usize>) -> Bits<W> {
        let mut b = Bits::EMPTY;
        for i in it {
            b.insert(i);
        }
        b
    }

    #[inline]
    pub(super) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub(super) fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub(super) fn and(&self, o: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }

    #[inline]
    pub(super) fn and_not(&self, o: &Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }

    /// Word `k`.
    #[inline]
    pub(super) fn word(&self, k: usize) -> u64 {
        self.0[k]
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no member is set.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// The members, lowest first.
    #[inline]
    pub(super) fn iter(&self) -> Ones<'_> {
        ones(&self.0)
    }
}

/// The indices of the set bits of `words`, lowest first.
#[inline]
pub(super) fn ones(words: &[u64]) -> Ones<'_> {
    Ones {
        words,
        k: 0,
        w: words.first().copied().unwrap_or(0),
    }
}

/// See [`ones`]: the word at `k`, with the bits already given cleared.
pub(super) struct Ones<'a> {
    words: &'a [u64],
    k: usize,
    w: u64,
}

impl Iterator for Ones<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.w == 0 {
            self.k += 1;
            self.w = *self.words.get(self.k)?;
        }
        let i = self.w.trailing_zeros() as usize;
        self.w &= self.w - 1;
        Some(self.k * 64 + i)
    }
}

/// The words a set of `n` squares needs, as one of the widths the
/// searches are compiled for; `None` past the widest.
pub(super) fn width(n: usize) -> Option<usize> {
    [1, 2, 4, 8, 16, 32, 64].into_iter().find(|w| n <= 64 * w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_back_in_order_across_words() {
        let b = Bits::<2>::from_indices([0, 63, 64, 127, 5]);
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 5, 63, 64, 127]);
        assert_eq!(b.len(), 5);
        assert!(b.contains(64) && !b.contains(65));
        let c = Bits::<2>::from_indices([5, 64, 100]);
        assert_eq!(b.and(&c).iter().collect::<Vec<_>>(), [5, 64]);
        assert_eq!(b.and_not(&c).iter().collect::<Vec<_>>(), [0, 63, 127]);
        assert!(b.and_not(&b).is_empty() && !b.is_empty());
        assert_eq!(b.word(1), 1 | 1 << 63);
        assert_eq!(width(64), Some(1));
        assert_eq!(width(65), Some(2));
        assert_eq!(width(196), Some(4));
        assert_eq!(width(4097), None);
    }
}
