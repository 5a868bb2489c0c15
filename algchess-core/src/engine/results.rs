//! Sets of results: diffs without repeats (`Distinct`), fingerprints
//! for counting a leaf (`Fingerprints`), and the states a repetition has
//! seen (`Seen`).

use super::board::Diff;
use rustc_hash::FxHashSet;
use smallvec::SmallVec;

/// Results without repeats: fingerprints in an open-addressed table,
/// entries compared only where fingerprints are equal.
pub(super) struct Distinct {
    /// Index of an item plus one; 0 for a free slot.
    slots: SmallVec<[u32; 64]>,
    pub items: Vec<Diff>,
    fps: SmallVec<[u64; 64]>,
}

impl Distinct {
    /// Results gathered in `items`, emptied first.
    pub(super) fn new(mut items: Vec<Diff>) -> Distinct {
        items.clear();
        Distinct {
            slots: smallvec::smallvec![0; 64],
            items,
            fps: SmallVec::new(),
        }
    }

    /// Adds a result; false when it was there.
    pub(super) fn insert(&mut self, (fp, d): (u64, Diff)) -> bool {
        if 2 * self.items.len() >= self.slots.len() {
            self.slots = smallvec::smallvec![0; 2 * self.slots.len()];
            for k in 0..self.items.len() {
                let mut h = self.fps[k] as usize & (self.slots.len() - 1);
                while self.slots[h] != 0 {
                    h = (h + 1) & (self.slots.len() - 1);
                }
                self.slots[h] = k as u32 + 1;
            }
        }
        let mask = self.slots.len() - 1;
        let mut h = fp as usize & mask;
        loop {
            match self.slots[h] {
                0 => break,
                s => {
                    let k = s as usize - 1;
                    let e = &self.items[k];
                    if self.fps[k] == fp && e.len() == d.len() && d.iter().all(|w| e.contains(w)) {
                        return false;
                    }
                }
            }
            h = (h + 1) & mask;
        }
        self.slots[h] = self.items.len() as u32 + 1;
        self.items.push(d);
        self.fps.push(fp);
        true
    }
}

/// Fingerprints of results, to count them: a repeated fingerprint may be
/// a repeated board or two boards that merely share one, so the caller
/// then counts exactly with `Distinct`. Chess never repeats a result, and
/// counting a leaf's moves makes no diffs.
#[derive(Default)]
pub(super) struct Fingerprints {
    /// `fp | 1`, 0 for a free slot: folding the low bit can only add
    /// repeats, which are counted exactly anyway.
    slots: Vec<u64>,
    used: Vec<u32>,
    /// Results counted with no fingerprint, being no other result
    /// (`Op::BitRules`'s `apart`).
    pub direct: usize,
}

impl Fingerprints {
    /// Adds `fp`; false when it was there.
    pub(super) fn insert(&mut self, fp: u64) -> bool {
        if 2 * (self.used.len() + 1) > self.slots.len() {
            let old: Vec<u64> = self.used.iter().map(|&h| self.slots[h as usize]).collect();
            self.used.clear();
            self.slots = vec![0; (2 * self.slots.len()).max(128)];
            old.into_iter().for_each(|f| {
                self.insert(f);
            });
        }
        let (f, mask) = (fp | 1, self.slots.len() - 1);
        let mut h = (fp >> 7) as usize & mask;
        while self.slots[h] != 0 {
            if self.slots[h] == f {
                return false;
            }
            h = (h + 1) & mask;
        }
        self.slots[h] = f;
        self.used.push(h as u32);
        true
    }

    pub(super) fn len(&self) -> usize {
        self.used.len() + self.direct
    }

    /// Empties the set, touching only the slots in use.
    pub(super) fn clear(&mut self) {
        for &h in &self.used {
            self.slots[h as usize] = 0;
        }
        self.used.clear();
        self.direct = 0;
    }
}

/// States seen by a search: a short list, then a hash set.
#[derive(Default)]
pub(super) struct Seen {
    few: Vec<(Diff, Option<usize>)>,
    many: FxHashSet<(Diff, Option<usize>)>,
}

impl Seen {
    pub(super) fn len(&self) -> usize {
        self.few.len() + self.many.len()
    }

    pub(super) fn insert(&mut self, k: (Diff, Option<usize>)) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&k) {
                return false;
            }
            if self.few.len() < 16 {
                self.few.push(k);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(k)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::key;

    fn fp(d: &Diff) -> u64 {
        d.iter().fold(0, |h, &w| h ^ key(u64::from(w >> 8), w as u8))
    }

    /// Growing keeps every fingerprint; a repeat is refused, also one
    /// differing only in the low bit (counted exactly by the caller).
    #[test]
    fn fingerprints_find_repeats() {
        let mut set = Fingerprints::default();
        for k in 0..1000u64 {
            assert!(set.insert(key(k, 0)));
        }
        assert_eq!(set.len(), 1000);
        assert!((0..1000u64).all(|k| !set.insert(key(k, 0))));
        assert!(!set.insert(key(7, 0) ^ 1));
        set.clear();
        assert_eq!(set.len(), 0);
        assert!(set.insert(key(7, 0)));
    }

    /// Results are the same board whatever the order of their entries;
    /// equal fingerprints alone never merge two different boards.
    #[test]
    fn distinct_results_are_exact() {
        let a: Diff = SmallVec::from_slice(&[1 << 8 | 3, 2 << 8]);
        let b: Diff = SmallVec::from_slice(&[2 << 8, 1 << 8 | 3]);
        let c: Diff = SmallVec::from_slice(&[1 << 8 | 4, 2 << 8]);
        assert_eq!(fp(&a), fp(&b));
        let mut out = Distinct::new(vec![]);
        out.insert((fp(&a), a.clone()));
        out.insert((fp(&b), b));
        out.insert((fp(&c), c.clone()));
        // A forged collision: same fingerprint, another board.
        out.insert((fp(&a), c.clone()));
        assert_eq!(out.items.len(), 3);
        // Past the first table, repeats are still found.
        for k in 0..200u32 {
            let d: Diff = SmallVec::from_slice(&[k << 8 | 1]);
            out.insert((fp(&d), d.clone()));
            out.insert((fp(&d), d));
        }
        assert_eq!(out.items.len(), 203);
    }
}
