//! The transposition table: what a search found of a position, by key,
//! one entry a slot, the deeper or newer result kept.

/// What a stored score says of the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// At least the score (a cut-off).
    Lower,
    /// At most the score (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The best move's index among the position's moves, plus one (0: none).
    pub best: u32,
}

/// A table of `2^bits` entries.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// A table of about `mb` megabytes.
    pub fn with_megabytes(mb: usize) -> Table {
        let per = std::mem::size_of::<Option<Entry>>();
        let want = (mb.max(1) << 20) / per;
        Table::new(usize::BITS - 1 - want.leading_zeros())
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn put(&mut self, e: Entry) {
        let slot = &mut self.slots[e.key as usize & self.mask];
        match slot {
            Some(old) if old.key == e.key && old.depth > e.depth && e.bound != Bound::Exact => {}
            _ => *slot = Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deeper_entry_stays_and_another_key_misses() {
        let mut t = Table::new(4);
        let e = |depth, bound| Entry {
            key: 0x1234,
            score: depth,
            depth,
            bound,
            best: 1,
        };
        t.put(e(5, Bound::Lower));
        t.put(e(2, Bound::Upper));
        assert_eq!(t.get(0x1234).map(|x| x.depth), Some(5));
        t.put(e(1, Bound::Exact));
        assert_eq!(t.get(0x1234).map(|x| x.depth), Some(1));
        assert!(t.get(0x1235).is_none());
        t.clear();
        assert!(t.get(0x1234).is_none());
    }
}
