//! The transposition table: what a search found of a position, by key,
//! one entry a slot, the deeper or newer result kept.

use crate::memory::MemoryLimit;

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

/// A table the memory limit or the allocator did not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The bytes it would take.
    pub bytes: usize,
    /// The limit it would pass, when that refused it; `None` when the
    /// allocator did.
    pub memory: Option<MemoryLimit>,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = self.bytes >> 20;
        match self.memory {
            Some(m) => write!(f, "a table of {mib} MiB would pass the memory limit ({m})"),
            None => write!(f, "the system would not give {mib} MiB for the table"),
        }
    }
}

impl std::error::Error for TableError {}

/// A table of `2^bits` entries.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
    /// Some slot may hold an entry: emptying the table has work to do.
    filled: bool,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
            filled: false,
        }
    }

    /// A table of about `mb` megabytes.
    pub fn with_megabytes(mb: usize) -> Table {
        Table::new(Table::bits_for(mb))
    }

    /// The bits of a table of about `mb` megabytes (a power of two entries,
    /// at most that size).
    fn bits_for(mb: usize) -> u32 {
        let per = std::mem::size_of::<Option<Entry>>();
        let want = (mb.clamp(1, 1 << 30) << 20) / per;
        usize::BITS - 1 - want.leading_zeros()
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Option<Entry>>()
    }

    /// Makes the table about `mb` megabytes, emptied, when `memory` allows
    /// what it grows by and the allocator gives it; otherwise leaves it as
    /// it was. The table grows in place (one reallocation, not a second
    /// table beside the first), so the old one is never held twice.
    pub fn resize(&mut self, mb: usize, memory: MemoryLimit) -> Result<(), TableError> {
        let len = 1usize << Table::bits_for(mb);
        let bytes = len * std::mem::size_of::<Option<Entry>>();
        let more = bytes.saturating_sub(self.bytes());
        if !memory.allows(more) {
            return Err(TableError {
                bytes,
                memory: Some(memory),
            });
        }
        if len > self.slots.len() {
            self.slots
                .try_reserve_exact(len - self.slots.len())
                .map_err(|_| TableError { bytes, memory: None })?;
        }
        self.slots.truncate(len);
        self.slots.shrink_to_fit();
        self.clear();
        self.slots.resize(len, None);
        self.mask = len - 1;
        Ok(())
    }

    pub fn clear(&mut self) {
        if self.filled {
            self.slots.iter_mut().for_each(|s| *s = None);
            self.filled = false;
        }
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn put(&mut self, e: Entry) {
        self.filled = true;
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
        // Filled again after it was emptied, it is emptied again.
        t.put(e(3, Bound::Exact));
        assert_eq!(t.get(0x1234).map(|x| x.depth), Some(3));
        t.clear();
        assert!(t.get(0x1234).is_none());
    }
}
