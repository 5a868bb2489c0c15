//! Words of bits, one bit per square of a box: `u64` for boxes up to 8×8,
//! `u128` up to 128 squares (10×8, 12×10, 11×11), and [`Wide`] up to
//! 256 (16×16). The engine is compiled once per word, so chess pays
//! nothing for the larger boxes.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// The operations the bitboards need, on a word of `BITS` bits.
pub(crate) trait Word:
    Copy
    + Eq
    + Debug
    + std::hash::Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const BITS: u32;
    const ZERO: Self;
    const ONES: Self;

    /// Bit `k` alone (`k < BITS`).
    fn bit(k: u32) -> Self;
    /// Bits `0..k`; all of them for `k >= BITS`.
    fn below(k: u32) -> Self;
    /// The lowest bit set (`BITS` for none).
    fn lowest(self) -> u32;
    /// The highest bit set (undefined for none).
    fn highest(self) -> u32;
    /// The lowest bit alone.
    fn lowest_bit(self) -> Self;
    /// Without its lowest bit.
    fn clear_lowest(self) -> Self;
    /// Shifted towards bit 0 by `n`, zero for `n >= BITS`.
    fn down(self, n: u32) -> Self;
    /// Shifted away from bit 0 by `n`, zero for `n >= BITS`.
    fn up(self, n: u32) -> Self;
    /// The number of bits set.
    fn count(self) -> u32;

    /// The highest bit alone (none for none).
    #[inline(always)]
    fn highest_bit(self) -> Self {
        if self.is_zero() {
            Self::ZERO
        } else {
            Self::bit(self.highest())
        }
    }
    /// Bits `0..=k` for the lowest bit `k`; all of them for none.
    #[inline(always)]
    fn through_lowest(self) -> Self {
        if self.is_zero() {
            Self::ONES
        } else {
            Self::below(self.lowest() + 1)
        }
    }
    /// Of a word of at most one bit `k`: bits `k..`; all of them for none.
    #[inline(always)]
    fn and_above(self) -> Self {
        if self.is_zero() {
            Self::ONES
        } else {
            !Self::below(self.lowest())
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! native {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONES: Self = <$t>::MAX;

            #[inline(always)]
            fn bit(k: u32) -> Self {
                1 << k
            }
            #[inline(always)]
            fn below(k: u32) -> Self {
                if k >= Self::BITS {
                    Self::MAX
                } else {
                    (1 << k) - 1
                }
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                Self::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn lowest_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn down(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline(always)]
            fn up(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            // Without branches: rays stop at data-dependent squares.
            #[inline(always)]
            fn highest_bit(self) -> Self {
                let top: $t = 1 << (Self::BITS - 1);
                top.checked_shr(self.leading_zeros()).unwrap_or(0)
            }
            #[inline(always)]
            fn through_lowest(self) -> Self {
                self ^ self.wrapping_sub(1)
            }
            #[inline(always)]
            fn and_above(self) -> Self {
                self.wrapping_neg() | Self::from(self == 0).wrapping_neg()
            }
        }
    };
}

native!(u64);
native!(u128);

/// Four 64-bit words, lowest first: boxes up to 256 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Wide(pub [u64; 4]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

impl BitAndAssign for Wide {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl Word for Wide {
    const BITS: u32 = 256;
    const ZERO: Self = Wide([0; 4]);
    const ONES: Self = Wide([u64::MAX; 4]);

    #[inline(always)]
    fn bit(k: u32) -> Self {
        let mut w = [0; 4];
        w[(k / 64) as usize & 3] = 1 << (k % 64);
        Wide(w)
    }

    #[inline(always)]
    fn below(k: u32) -> Self {
        Wide(std::array::from_fn(|i| u64::below(k.saturating_sub(64 * i as u32))))
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        match self.0.iter().position(|&w| w != 0) {
            Some(i) => 64 * i as u32 + self.0[i].trailing_zeros(),
            None => Self::BITS,
        }
    }

    #[inline(always)]
    fn highest(self) -> u32 {
        let i = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        64 * i as u32 + self.0[i].highest()
    }

    #[inline(always)]
    fn lowest_bit(self) -> Self {
        match self.0.iter().position(|&w| w != 0) {
            Some(i) => {
                let mut w = [0; 4];
                w[i] = self.0[i].lowest_bit();
                Wide(w)
            }
            None => self,
        }
    }

    #[inline(always)]
    fn clear_lowest(mut self) -> Self {
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            self.0[i] = self.0[i].clear_lowest();
        }
        self
    }

    #[inline(always)]
    fn down(self, n: u32) -> Self {
        let (q, r) = ((n / 64) as usize, n % 64);
        let at = |i: usize| self.0.get(i).copied().unwrap_or(0);
        Wide(std::array::from_fn(|i| {
            let lo = at(i + q) >> r;
            let hi = if r == 0 { 0 } else { at(i + q + 1) << (64 - r) };
            lo | hi
        }))
    }

    #[inline(always)]
    fn up(self, n: u32) -> Self {
        let (q, r) = ((n / 64) as usize, n % 64);
        let at = |i: usize, back: usize| i.checked_sub(back).map_or(0, |j| self.0[j]);
        Wide(std::array::from_fn(|i| {
            let lo = at(i, q) << r;
            let hi = if r == 0 { 0 } else { at(i, q + 1) >> (64 - r) };
            lo | hi
        }))
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Wide` from a `u128` in its low half and another in its high.
    fn wide(lo: u128, hi: u128) -> Wide {
        Wide([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64])
    }

    /// Every operation of `Wide` agrees with two `u128` halves read as one
    /// number: shifts carry across the halves, bits are found in either.
    #[test]
    fn wide_words_act_as_numbers() {
        fn prop(lo: u128, hi: u128, n: u8) -> bool {
            let (w, n) = (wide(lo, hi), u32::from(n));
            // The 256-bit reference: shifts as pairs of halves.
            let down = if n >= 128 {
                (hi.down(n - 128), 0)
            } else {
                (lo.down(n) | hi.up(128 - n), hi.down(n))
            };
            let up = if n >= 128 {
                (0, lo.up(n - 128))
            } else {
                (lo.up(n), hi.up(n) | lo.down(128 - n))
            };
            let lowest = if lo != 0 {
                lo.trailing_zeros()
            } else if hi != 0 {
                128 + hi.trailing_zeros()
            } else {
                256
            };
            let highest = if hi != 0 {
                Some(255 - hi.leading_zeros())
            } else {
                (lo != 0).then(|| 127 - lo.leading_zeros())
            };
            let below = if n >= 128 {
                (u128::MAX, u128::below(n - 128))
            } else {
                (u128::below(n), 0)
            };
            w.down(n) == wide(down.0, down.1)
                && w.up(n) == wide(up.0, up.1)
                && w.lowest() == lowest
                && highest.is_none_or(|h| w.highest() == h && Wide::bit(h) & w == Wide::bit(h))
                && Wide::below(n) == wide(below.0, below.1)
                && (w.is_zero() || w.lowest_bit() == Wide::bit(lowest))
                && w.clear_lowest() | w.lowest_bit() == w
                && (w.clear_lowest() & w.lowest_bit()).is_zero()
                && !w & w == Wide::ZERO
                && (!w | w) == Wide::ONES
        }
        quickcheck::QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(u128, u128, u8) -> bool);
        // Shifts by whole words and past the end.
        let one = Wide::bit(0);
        assert_eq!(one.up(64), Wide::bit(64));
        assert_eq!(one.up(255).down(255), one);
        assert_eq!(one.up(256), Wide::ZERO);
        assert_eq!(Wide::bit(200).down(300), Wide::ZERO);
    }

    /// The branchless forms of `u64` and `u128` agree with what they
    /// mean, on every bit alone, none, and random words.
    #[test]
    fn native_words_find_their_ends_without_branches() {
        fn agrees<W: Word>(w: W) -> bool {
            let highest = if w.is_zero() { W::ZERO } else { W::bit(w.highest()) };
            let through = if w.is_zero() { W::ONES } else { W::below(w.lowest() + 1) };
            let one = w.lowest_bit();
            let from = if one.is_zero() {
                W::ONES
            } else {
                !W::below(one.lowest())
            };
            w.highest_bit() == highest && w.through_lowest() == through && one.and_above() == from
        }
        for k in 0..128 {
            assert!(agrees(1u128 << k) && (k >= 64 || agrees(1u64 << k)), "bit {k}");
        }
        assert!(agrees(0u64) && agrees(0u128) && agrees(u64::MAX) && agrees(u128::MAX));
        quickcheck::QuickCheck::new()
            .tests(2000)
            .quickcheck((|a: u64, b: u128| agrees(a) && agrees(b)) as fn(u64, u128) -> bool);
    }
}
