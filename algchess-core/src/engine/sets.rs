//! The squares holding each code a plan looks for (a `%♙:` binder, a rule
//! pivoting on `♘`), as bit sets kept up to date by every write, so that
//! finding a side's pieces costs a few words instead of a scan of the
//! board.

const UNTRACKED: u8 = u8::MAX;

#[derive(Clone)]
pub(super) struct Sets {
    /// The set of each code, by slot; `UNTRACKED` for codes not looked for.
    slot: [u8; 256],
    /// The first index of the box's rows: bit `k` stands for index `lo + k`.
    lo: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Sets {
    /// Sets for `codes` over `cells`, whose on-board squares lie in `lo..hi`.
    pub(super) fn new(cells: &[u8], (lo, hi): (usize, usize), codes: &[u8]) -> Sets {
        let mut slot = [UNTRACKED; 256];
        let mut n = 0;
        for &c in codes {
            if slot[c as usize] == UNTRACKED && n < UNTRACKED {
                slot[c as usize] = n;
                n += 1;
            }
        }
        let words = (hi - lo).div_ceil(64);
        let mut s = Sets {
            slot,
            lo,
            words,
            bits: vec![0; words * n as usize],
        };
        for (i, &c) in cells.iter().enumerate().take(hi).skip(lo) {
            s.put(i, c);
        }
        s
    }

    #[inline]
    fn put(&mut self, i: usize, c: u8) {
        let s = self.slot[c as usize];
        if s != UNTRACKED {
            let k = i - self.lo;
            self.bits[s as usize * self.words + k / 64] |= 1 << (k % 64);
        }
    }

    /// Square `i` held `old` and now holds `new`.
    #[inline]
    pub(super) fn moved(&mut self, i: usize, old: u8, new: u8) {
        let s = self.slot[old as usize];
        if s != UNTRACKED {
            let k = i - self.lo;
            self.bits[s as usize * self.words + k / 64] &= !(1 << (k % 64));
        }
        self.put(i, new);
    }

    /// The first index from `from` on whose square holds `code`, but
    /// `except`.
    #[inline]
    pub(super) fn next(&self, cells: &[u8], code: u8, from: usize, except: Option<usize>) -> Option<usize> {
        let from = from.max(self.lo);
        let s = self.slot[code as usize];
        if s == UNTRACKED {
            // Not looked for by the plan: a scan.
            let end = (self.lo + 64 * self.words).min(cells.len());
            return memchr::memchr_iter(code, cells.get(from..end)?)
                .map(|i| i + from)
                .find(|&i| Some(i) != except);
        }
        let bits = &self.bits[s as usize * self.words..][..self.words];
        let k = from - self.lo;
        let mut w = k / 64;
        let mut word = *bits.get(w)? & (u64::MAX << (k % 64));
        loop {
            while word != 0 {
                let i = self.lo + w * 64 + word.trailing_zeros() as usize;
                if Some(i) != except {
                    return Some(i);
                }
                word &= word - 1;
            }
            w += 1;
            word = *bits.get(w)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_follow_writes() {
        let mut cells = vec![9u8; 200];
        cells[70] = 3;
        cells[150] = 3;
        cells[80] = 4;
        let mut s = Sets::new(&cells, (64, 192), &[3]);
        let all = |s: &Sets, cells: &[u8], c, p| {
            let mut out = vec![];
            while let Some(i) = s.next(cells, c, out.last().map_or(0, |i| i + 1), p) {
                out.push(i);
            }
            out
        };
        assert_eq!(all(&s, &cells, 3, None), vec![70, 150]);
        assert_eq!(all(&s, &cells, 3, Some(70)), vec![150]);
        cells[70] = 0;
        s.moved(70, 3, 0);
        cells[191] = 3;
        s.moved(191, 9, 3);
        assert_eq!(all(&s, &cells, 3, None), vec![150, 191]);
        // An untracked code is found by a scan.
        assert_eq!(all(&s, &cells, 4, None), vec![80]);
    }
}
