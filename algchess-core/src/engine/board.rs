//! The engine's board: a mailbox of cells, where each code is (bitboards
//! or bit sets), the POI, and a trail of the writes made, with the hash of
//! the board before each. A search makes a result by writing a few
//! squares and unmakes it by undoing to a mark, so nothing is cloned; a
//! result is the squares that differ from the mark, its fingerprint how
//! the hash moved.

use super::bits::{BitTest, Bits, Slots, Stand, Still};
use super::mailbox::Mailbox;
use super::plan::{FastRule, ReadNode};
use super::sets::Sets;
use super::word::Word;
use crate::memory::Budget;
use crate::semantics::{key, CellSet, Code};
use smallvec::SmallVec;
use std::sync::Arc;

/// A board as it differs from where a search started: changed squares by
/// index, in order, with what they now hold (`index << 8 | code`).
pub(super) type Diff = SmallVec<[u32; 4]>;

/// Where each code's squares are.
pub(super) enum Squares<W> {
    /// Boxes of at most 256 squares: a word per code, which the bitboard
    /// tests read too.
    Words(Bits<W>),
    /// Larger boxes: bit sets of the codes the plan looks for.
    Sets(Box<Sets>),
}

/// The engine's board as a search moves on it: the cells, where each code
/// is, the POI, and the writes made, to be undone. Every write keeps them
/// all, so that making and unmaking a move costs only its squares.
pub(super) struct Board<W> {
    pub mailbox: Mailbox,
    /// Where the codes are, kept by every write.
    pub squares: Squares<W>,
    pub poi: Option<usize>,
    /// Squares written, with what they held before, oldest first.
    trail: Vec<(u32, u8)>,
    /// The board's hash (`semantics::board_hash`, xor the board's hash
    /// where the board started), kept by every write, so that a result's
    /// fingerprint is the xor of two hashes (order-free, and equal for
    /// equal boards) instead of a walk of the trail. `hashes` has the hash
    /// before each trail entry.
    hash: u64,
    /// Each mailbox index's square as the hash's keys read it
    /// (`semantics::square_base`), border squares included.
    bases: Arc<[u64]>,
    hashes: Vec<u64>,
    /// What a repetition's search may spend (the plan's budget).
    pub budget: Budget,
}

impl<W: Word> Board<W> {
    /// The board `mailbox` holds, keeping the squares of `codes` (the
    /// codes a plan looks for) where it has no bitboards.
    pub(super) fn new(mailbox: Mailbox, bases: Arc<[u64]>, codes: &[u8], slots: &Slots, budget: &Budget) -> Board<W> {
        Board {
            bases,
            squares: match mailbox.bits(slots) {
                Some(b) => Squares::Words(b),
                None => Squares::Sets(Box::new(Sets::new(&mailbox.cells, mailbox.rows(), codes))),
            },
            mailbox,
            poi: None,
            trail: Vec::with_capacity(64),
            hash: 0,
            hashes: Vec::with_capacity(64),
            budget: budget.clone(),
        }
    }

    /// The trail's length: what `undo` goes back to.
    pub(super) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Keeps every write made so far: the board is where searches start
    /// from now on, and nothing before it can be undone.
    pub(super) fn forget(&mut self) {
        self.trail.clear();
        self.hashes.clear();
    }

    /// `f` on the board as it was at `mark` (its cells and where each code
    /// is, not its hash or trail), the board then put back as it is now.
    pub(super) fn rewound<T>(&mut self, mark: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let now: SmallVec<[(u32, u8); 16]> = self.trail[mark..]
            .iter()
            .map(|&(i, _)| (i, self.mailbox.cells[i as usize]))
            .collect();
        for k in (mark..self.trail.len()).rev() {
            let (i, v) = self.trail[k];
            self.set_cell(i as usize, v);
        }
        let out = f(self);
        for (i, v) in now {
            self.set_cell(i as usize, v);
        }
        out
    }

    /// Restores every square written since `mark`.
    pub(super) fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (i, v) = self.trail.pop().expect("above the mark");
            self.set_cell(i as usize, v);
        }
        if let Some(&h) = self.hashes.get(mark) {
            self.hash = h;
        }
        self.hashes.truncate(mark);
    }

    #[inline]
    pub(super) fn set_cell(&mut self, i: usize, v: u8) {
        let old = std::mem::replace(&mut self.mailbox.cells[i], v);
        match &mut self.squares {
            Squares::Words(b) => b.moved(i, old, v),
            Squares::Sets(s) => s.moved(i, old, v),
        }
    }

    #[inline]
    pub(super) fn write(&mut self, i: usize, v: u8) {
        let old = self.mailbox.cells[i];
        self.trail.push((i as u32, old));
        self.hashes.push(self.hash);
        self.hash ^= self.key(i, old) ^ self.key(i, v);
        self.set_cell(i, v);
    }

    /// Applies a diff made by `diff`, to be undone with `undo`.
    pub(super) fn apply(&mut self, d: &Diff) {
        for &w in d {
            self.write((w >> 8) as usize, w as u8);
        }
    }

    /// How the board differs from what it was at `mark`.
    pub(super) fn diff(&self, mark: usize) -> Diff {
        let mut d: Diff = SmallVec::new();
        self.changes(mark, |w| d.push(w));
        d.sort_unstable();
        d
    }

    /// Calls `each` on every square that differs from what it held at
    /// `mark`, as `index << 8 | code`, in no particular order.
    #[inline(always)]
    pub(super) fn changes(&self, mark: usize, mut each: impl FnMut(u32)) {
        let trail = &self.trail[mark..];
        for (k, &(i, before)) in trail.iter().enumerate() {
            // A square's value at the mark is its oldest record.
            if trail[..k].iter().any(|(j, _)| *j == i) {
                continue;
            }
            let now = self.mailbox.cells[i as usize];
            if now != before {
                each(i << 8 | u32::from(now));
            }
        }
    }

    /// How the board differs from what it was at `mark`, its entries in
    /// no particular order, with a fingerprint that does not depend on
    /// their order: equal boards have equal fingerprints.
    pub(super) fn result(&self, mark: usize) -> (u64, Diff) {
        let mut d: Diff = SmallVec::new();
        self.changes(mark, |w| d.push(w));
        (self.fingerprint(mark), d)
    }

    /// Whether square `i` was written since `mark`.
    pub(super) fn wrote(&self, mark: usize, i: usize) -> bool {
        self.trail[mark..].iter().any(|&(j, _)| j as usize == i)
    }

    /// The fingerprint of `result`, without the diff: how the hash moved
    /// since `mark`.
    #[inline]
    pub(super) fn fingerprint(&self, mark: usize) -> u64 {
        self.hash ^ self.hash_at(mark)
    }

    /// The hash key of code `v` on mailbox index `i`.
    #[inline(always)]
    pub(super) fn key(&self, i: usize, v: u8) -> u64 {
        key(self.bases[i], v)
    }

    /// The board's hash now.
    #[inline]
    pub(super) fn hash(&self) -> u64 {
        self.hash
    }

    /// The board's hash at `mark`.
    #[inline]
    pub(super) fn hash_at(&self, mark: usize) -> u64 {
        self.hashes.get(mark).copied().unwrap_or(self.hash)
    }

    /// The squares written since `mark`, with what they held before,
    /// oldest first.
    #[inline]
    pub(super) fn written_since(&self, mark: usize) -> &[(u32, u8)] {
        &self.trail[mark..]
    }

    /// What square `i` reads: `%` on the POI's square.
    #[inline]
    pub(super) fn read(&self, i: usize) -> u8 {
        if Some(i) == self.poi {
            Code::POI
        } else {
            self.mailbox.cells[i]
        }
    }

    /// Whether rule `r` fits at `base`.
    #[inline(always)]
    pub(super) fn fits(&self, r: &FastRule, base: usize) -> bool {
        let at = |d: isize| base.wrapping_add_signed(d);
        if let Some((d, set)) = &r.one {
            return set.contains_code(self.read(at(*d)));
        }
        r.reads.iter().all(|&(d, set)| set.contains_code(self.read(at(d))))
            && r.offs.iter().all(|&d| self.mailbox.cells[at(d)] == Code::OFF)
            && r.ons.iter().all(|&d| self.mailbox.cells[at(d)] != Code::OFF)
    }

    /// The first square from index `from` on holding `code`, `except`
    /// excepted. A search that makes and unmakes moves between calls sees
    /// the same squares each time.
    #[inline]
    pub(super) fn next_holding(&self, code: u8, from: usize, except: Option<usize>) -> Option<usize> {
        match &self.squares {
            Squares::Words(b) => b.next(code, from, except),
            Squares::Sets(s) => s.next(&self.mailbox.cells, code, from, except),
        }
    }

    /// Whether a path of the read tree `nodes` matches from `p`.
    pub(super) fn probe(&self, nodes: &[ReadNode], p: usize) -> bool {
        self.walk(nodes, 0, nodes.len() as u32, p, |_, _| {})
    }

    /// Walks nodes `start..end` of a read tree in preorder from `p` (a
    /// subtree or the whole tree), telling `seen` of each square read;
    /// whether some path matched.
    #[inline(always)]
    pub(super) fn walk(
        &self,
        nodes: &[ReadNode],
        start: u32,
        end: u32,
        p: usize,
        mut seen: impl FnMut(usize, CellSet),
    ) -> bool {
        let mut i = start as usize;
        while i < end as usize {
            let n = &nodes[i];
            let at = p.wrapping_add_signed(n.at);
            seen(at, n.set);
            if n.set.contains_code(self.mailbox.cells[at]) {
                if n.done {
                    return true;
                }
                if n.has_children {
                    i += 1;
                    continue;
                }
            }
            i = n.fail as usize;
        }
        false
    }

    /// The board a walk from `start` leaves at `p`, as `Walk` makes it:
    /// the POI's piece moved there, and the POI with it.
    pub(super) fn walk_to(&mut self, start: usize, p: usize) {
        if p != start {
            let v = self.mailbox.cells[start];
            self.write(p, v);
            self.write(start, Code::EMPTY);
        }
        self.poi = Some(p);
    }

    /// A bitboard test's answer here, with what it read.
    pub(super) fn still(&self, t: &BitTest<W>) -> Option<Still<W>> {
        let Squares::Words(b) = &self.squares else { return None };
        t.still(b, self.poi, self.poi.and_then(|p| b.bit_of(p)))
    }

    /// Whether `s`, made at `mark`, still answers here.
    #[inline]
    pub(super) fn stands(&self, t: &BitTest<W>, s: &Still<W>, mark: usize) -> bool {
        let Squares::Words(b) = &self.squares else { return false };
        s.poi == self.poi
            && self.trail[mark..]
                .iter()
                .fold(Stand::default(), |st, &(i, old)| {
                    st.with(t.change(s, b, i as usize, old, self.mailbox.cells[i as usize]))
                })
                .holds()
    }

    /// Whether a bitboard test holds here.
    #[inline]
    pub(super) fn bit_test(&self, t: &BitTest<W>) -> bool {
        let Squares::Words(b) = &self.squares else {
            unreachable!("a plan with bitboard tests is for a board with bitboards")
        };
        t.holds(b, self.poi.and_then(|p| b.bit_of(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small board with two rooks, and the engine's board of it.
    fn rooks() -> (crate::semantics::Grid, Board<u64>) {
        let board = crate::semantics::Grid::parse("..../.♖../..♜.", &crate::ir::Pieces::chess()).expect("a board");
        let mailbox = Mailbox::new(&board, 2);
        let bases = mailbox.bases();
        let on = Board::new(mailbox, bases, &[], &Slots::default(), &Default::default());
        (board, on)
    }

    /// A result's fingerprint depends on the board reached, not on the
    /// writes that reached it: two orders agree, undoing restores it, a
    /// square written and written back adds nothing, another board differs.
    #[test]
    fn fingerprints_are_of_boards() {
        let (_, mut on) = rooks();
        let (a, b) = (on.mailbox.cells.len() / 2, on.mailbox.cells.len() / 2 + 1);
        let mark = on.mark();
        on.write(a, 7);
        on.write(b, 9);
        let one = on.fingerprint(mark);
        on.undo(mark);
        assert_eq!(on.fingerprint(mark), 0);
        on.write(b, 9);
        on.write(a, 3);
        on.write(a, 7);
        assert_eq!(on.fingerprint(mark), one);
        on.write(a, 3);
        assert_ne!(on.fingerprint(mark), one);
        let inner = on.mark();
        on.write(b, 1);
        on.undo(inner);
        assert_ne!(on.fingerprint(mark), one);
        on.write(a, 7);
        assert_eq!(on.fingerprint(mark), one);
    }

    /// The engine's fingerprint of a result is how the crate's one board
    /// hash moves: the search's key of the same change.
    #[test]
    fn fingerprints_are_the_board_hash_moved() {
        let (board, mut on) = rooks();
        let mark = on.mark();
        let change: crate::semantics::Change = [(0, 0, 5), (1, 1, 0), (3, 2, 9)]
            .iter()
            .map(|&(x, y, v)| (crate::geometry::Square::new(x, y), v))
            .collect();
        for &(q, v) in &change {
            on.write(on.mailbox.index(q).expect("in the box"), v);
        }
        assert_eq!(on.fingerprint(mark), crate::semantics::change_hash(&board, &change));
        let mut after = board.clone();
        after.apply(&change);
        let hash = crate::semantics::board_hash;
        assert_eq!(hash(&board) ^ on.fingerprint(mark), hash(&after));
    }
}
