//! Sets of cells, one bit per cell code: what a guard square may read.

use super::code::Code;
use crate::ir::Cell;

/// A set of cells a guard square may read. `P -> Q` with patterns is one
/// rule per pair of members; pairs that differ only in what one square of
/// the guard reads (`uur free`) are merged into one rule that reads a set
/// there, so the board is matched once, not once per member.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CellSet([u64; 4]);

impl CellSet {
    pub fn single(c: Cell) -> CellSet {
        let mut s = CellSet::default();
        s.insert_code(Code::cell(c));
        s
    }

    pub fn insert_code(&mut self, code: u8) {
        self.0[code as usize / 64] |= 1 << (code % 64);
    }

    #[inline]
    pub fn contains_code(&self, code: u8) -> bool {
        self.0[code as usize / 64] & (1 << (code % 64)) != 0
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.contains_code(Code::cell(c))
    }

    pub fn union(&self, o: &CellSet) -> CellSet {
        CellSet([0, 1, 2, 3].map(|i| self.0[i] | o.0[i]))
    }

    pub fn intersection(&self, o: &CellSet) -> CellSet {
        CellSet([0, 1, 2, 3].map(|i| self.0[i] & o.0[i]))
    }

    pub fn complement(&self) -> CellSet {
        CellSet(self.0.map(|w| !w))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The one cell, when there is exactly one.
    pub fn only(&self) -> Option<Cell> {
        (self.len() == 1).then(|| self.cells().next().expect("one cell"))
    }

    /// The codes of the set, in increasing order.
    pub fn codes(&self) -> impl Iterator<Item = u8> + '_ {
        (0..4).flat_map(move |i| {
            let mut w = self.0[i];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64 + b as usize) as u8
                })
            })
        })
    }

    /// The cells of the set.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..=u8::MAX).filter(|c| self.contains_code(*c)).map(Code::to_cell)
    }
}
