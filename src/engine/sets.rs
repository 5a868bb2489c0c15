//! The squares holding each code a plan looks for (a `%♙:` binder, a rule
//! pivoting on `♘`), as bit sets kept up to date by every write, so that
//! finding a side's pieces costs a few words instead of a scan of the
//! board.

use smallvec::SmallVec;

const UNTRACKED: u8 = u8::MAX;

#[derive(Clone)]
pub struct Sets {
    /// The set of each code, by slot; `UNTRACKED` for codes not looked for.
    slot: [u8; 256],
    /// The first index of the box's rows: bit `k` stands for index `lo + k`.
    lo: usize,
    words: usize,
    bits: Vec<u64>,
}

/// Some squares of the board, as indices, ascending.
#[derive(Clone)]
pub struct Squares {
    lo: usize,
    words: SmallVec<[u64; 4]>,
    at: usize,
}

impl Iterator for Squares {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.at < self.words.len() {
            let w = self.words[self.at];
            if w != 0 {
                self.words[self.at] = w & (w - 1);
                return Some(self.lo + self.at * 64 + w.trailing_zeros() as usize);
            }
            self.at += 1;
        }
        None
    }
}

impl Sets {
    /// Sets for `codes` over `cells`, whose on-board squares lie in `lo..hi`.
    pub fn new(cells: &[u8], (lo, hi): (usize, usize), codes: &[u8]) -> Sets {
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
    pub fn moved(&mut self, i: usize, old: u8, new: u8) {
        let s = self.slot[old as usize];
        if s != UNTRACKED {
            let k = i - self.lo;
            self.bits[s as usize * self.words + k / 64] &= !(1 << (k % 64));
        }
        self.put(i, new);
    }

    /// The squares of `cells` holding `code`, but `except`.
    #[inline]
    pub fn holding(&self, cells: &[u8], code: u8, except: Option<usize>) -> Squares {
        let s = self.slot[code as usize];
        let mut words: SmallVec<[u64; 4]> = if s == UNTRACKED {
            // Not looked for by the plan (the interpreter's codes): a scan.
            let mut w: SmallVec<[u64; 4]> = smallvec::smallvec![0; self.words];
            let end = (self.lo + 64 * self.words).min(cells.len());
            for i in memchr::memchr_iter(code, &cells[self.lo..end]) {
                w[i / 64] |= 1 << (i % 64);
            }
            w
        } else {
            SmallVec::from_slice(&self.bits[s as usize * self.words..][..self.words])
        };
        if let Some(k) = except
            .and_then(|p| p.checked_sub(self.lo))
            .filter(|k| k / 64 < self.words)
        {
            words[k / 64] &= !(1 << (k % 64));
        }
        Squares {
            lo: self.lo,
            words,
            at: 0,
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
        let all = |s: &Sets, cells: &[u8], c, p| s.holding(cells, c, p).collect::<Vec<_>>();
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
