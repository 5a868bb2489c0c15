//! Bitboards for boxes of at most 256 squares: each code's squares as one
//! [`Word`], kept by every write, so that a test made of leaps and lines
//! (whether a king is attacked) is a few masks and a first blocker per
//! line, answered afresh on every board instead of read square by square.
//! Only probes whose every path is a leap or a line are compiled; any
//! other shape keeps its read tree, so the compiled form never differs.
//!
//! This module holds the board's words ([`Bits`]) and what reads them;
//! `probe.rs` compiles a read tree to leaps, lines and hops, `answer.rs`
//! is a `not` test of such probes and when its kept answer stands, and
//! `rule.rs` fits rules, walks and slides for every piece of a set at once.

mod answer;
mod probe;
mod rule;
#[cfg(test)]
mod tests;

use super::word::Word;
use crate::geometry::Square;
use crate::semantics::{CellSet, Code};
use std::collections::HashSet;
use std::sync::Arc;

pub(super) use answer::{BitTest, Landing, Part, Stand, Still};
pub(super) use probe::BitProbe;
use probe::Line;
pub(super) use rule::{BitLeaps, BitRay, BitRays, BitRule, BitWalk};

/// Where a box's squares are: square `x + width·y` of the box is bit
/// `x + width·y` (box-relative coordinates).
#[derive(Clone, Copy, Debug)]
pub(super) struct BoxShape {
    pub width: i32,
    pub height: i32,
}

impl BoxShape {
    /// Whether the box's squares fit in a `W`.
    pub(super) fn fits<W: Word>(self) -> bool {
        self.width * self.height <= W::BITS as i32
    }

    fn bit(self, x: i32, y: i32) -> Option<u32> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (x + self.width * y) as u32)
    }

    /// The squares whose square `d` away is on the box.
    fn stepping<W: Word>(self, d: Square) -> W {
        self.squares()
            .fold(W::ZERO, |m, (x, y)| match self.bit(x + d.x, y + d.y) {
                Some(_) => m | W::bit(self.bit(x, y).expect("a square of the box")),
                None => m,
            })
    }

    fn squares(self) -> impl Iterator<Item = (i32, i32)> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| (x, y)))
    }
}

/// The codes of a set, for or-ing their words; the board's word that
/// holds the set's squares when one does (its one code's, or the word of
/// its slot given by [`Slots`]; `NO_WORD` for none); and the set.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Codes(Box<[u8]>, u16, CellSet);

/// No word of the board holds a set's squares.
const NO_WORD: u16 = u16::MAX;

/// A board's words: one per code, then one per slot.
const WORDS: usize = 256 + SLOTS;

/// The most code sets a board keeps a word for.
const SLOTS: usize = 32;

/// The sets of several codes a plan reads, each given a word that every
/// write keeps ([`Bits::moved`]), so that reading the set is one load
/// instead of an or of its codes' words (the first [`SLOTS`] of them).
#[derive(Clone, Debug, Default)]
pub(super) struct Slots(Vec<Box<[u8]>>);

impl Slots {
    /// Gives `codes` the word of its set, a new one while there is room.
    fn intern(&mut self, codes: &mut Codes) {
        if codes.0.len() < 2 {
            return;
        }
        let slot = match self.0.iter().position(|s| *s == codes.0) {
            Some(k) => k,
            None if self.0.len() < SLOTS => {
                self.0.push(codes.0.clone());
                self.0.len() - 1
            }
            None => return,
        };
        codes.1 = (256 + slot) as u16;
    }
}

/// A mask for each square of a box, by bit number: `W::BITS` of them, a
/// power of two, so that `k & (BITS - 1)` indexes it without a bounds
/// check. Equal rows are one allocation once planned ([`Shared::row`]):
/// a rook's, a queen's and the check test's line up share their masks,
/// so a leaf's reads stay in few cache lines.
type Row<W> = Arc<[W]>;

fn row<W: Word>(masks: impl Iterator<Item = W>) -> Row<W> {
    let mut out = vec![W::ZERO; W::BITS as usize];
    out.iter_mut().zip(masks).for_each(|(o, m)| *o = m);
    out.into()
}

/// A row being built: not shared yet.
fn fresh<W>(r: &mut Row<W>) -> &mut [W] {
    Arc::get_mut(r).expect("a row is shared only once planned")
}

/// What a plan's parts share once planned: the code sets given words
/// ([`Slots`]) and one copy of each row of masks.
pub(super) struct Shared<W> {
    pub slots: Slots,
    rows: HashSet<Row<W>>,
}

impl<W: Word> Shared<W> {
    pub(super) fn new() -> Shared<W> {
        Shared {
            slots: Slots::default(),
            rows: HashSet::new(),
        }
    }

    /// Gives `codes` the word of its set ([`Slots::intern`]).
    pub(super) fn codes(&mut self, codes: &mut Codes) {
        self.slots.intern(codes);
    }

    /// Makes `r` the one copy of its masks.
    fn row(&mut self, r: &mut Row<W>) {
        match self.rows.get(r) {
            Some(one) => *r = one.clone(),
            None => {
                self.rows.insert(r.clone());
            }
        }
    }

    fn line(&mut self, l: &mut Line<W>) {
        self.row(&mut l.masks);
    }
}

/// Bit number `k` as an index into a [`Row`].
#[inline(always)]
fn at<W: Word>(k: u32) -> usize {
    k as usize & (W::BITS as usize - 1)
}

impl Codes {
    pub(super) fn of(set: CellSet) -> Codes {
        let codes: Box<[u8]> = (0..=u8::MAX).filter(|&c| set.contains_code(c)).collect();
        let word = match codes[..] {
            [c] => u16::from(c),
            _ => NO_WORD,
        };
        Codes(codes, word, set)
    }

    /// The set.
    pub(super) fn set(&self) -> &CellSet {
        &self.2
    }

    /// The bit of its slot, 0 for none.
    fn mask(&self) -> u32 {
        match usize::from(self.1).checked_sub(256) {
            Some(slot) if slot < SLOTS => 1 << slot,
            _ => 0,
        }
    }
}

/// What a test reads of a board: the squares holding a set's codes or
/// one code, those not empty, and the code on a square. The board's
/// words are read directly, or through a [`Stepped`].
pub(super) trait Reading<W> {
    fn of(&self, codes: &Codes) -> W;
    fn word(&self, code: u8) -> W;
    fn occupied(&self) -> W;
    fn code(&self, k: u32) -> u8;
}

impl<W: Word> Reading<W> for Bits<W> {
    #[inline]
    fn of(&self, codes: &Codes) -> W {
        Bits::of(self, codes)
    }

    #[inline]
    fn word(&self, code: u8) -> W {
        self.words[code as usize]
    }

    #[inline]
    fn occupied(&self) -> W {
        !self.words[Code::EMPTY as usize]
    }

    #[inline]
    fn code(&self, k: u32) -> u8 {
        self.cells[k as usize]
    }
}

/// A board one step on, seen through the words of the board before it:
/// a piece leaves bit `from` and `v` is put on bit `to`. A leaf tests a
/// step this way, with no write made.
pub(super) struct Stepped<'a, W> {
    b: &'a Bits<W>,
    from: W,
    to: W,
    v: u8,
    /// The squares not empty after the step.
    occupied: W,
}

impl<'a, W: Word> Stepped<'a, W> {
    pub(super) fn new(b: &'a Bits<W>, from: u32, to: u32, v: u8) -> Stepped<'a, W> {
        let (from, to) = (W::bit(from), W::bit(to));
        let empty = (b.words[Code::EMPTY as usize] & !to) | from;
        let empty = if v == Code::EMPTY { empty | to } else { empty };
        Stepped {
            b,
            from,
            to,
            v,
            occupied: !empty,
        }
    }
}

impl<W: Word> Reading<W> for Stepped<'_, W> {
    /// The squares holding one of `codes` (pieces, as a probe's sets are:
    /// [`plain`]) after the step.
    #[inline]
    fn of(&self, codes: &Codes) -> W {
        debug_assert!(!codes.2.contains_code(Code::EMPTY));
        let w = self.b.of(codes) & !(self.from | self.to);
        if codes.2.contains_code(self.v) {
            w | self.to
        } else {
            w
        }
    }

    #[inline]
    fn word(&self, code: u8) -> W {
        let mut w = self.b.words[code as usize] & !(self.from | self.to);
        if code == self.v {
            w |= self.to;
        }
        if code == Code::EMPTY {
            w |= self.from;
        }
        w
    }

    #[inline]
    fn occupied(&self) -> W {
        self.occupied
    }

    #[inline]
    fn code(&self, k: u32) -> u8 {
        let m = W::bit(k);
        if m == self.to {
            self.v
        } else if m == self.from {
            Code::EMPTY
        } else {
            self.b.cells[k as usize]
        }
    }
}

/// A board's squares by code, as words over the box.
#[derive(Clone)]
pub(super) struct Bits<W> {
    /// The squares holding each code, then those of each set of [`Slots`]
    /// (`256 + slot`).
    words: Box<[W; WORDS]>,
    /// By code, the sets of [`Slots`] it is in.
    member: Box<[u32; 256]>,
    /// By mailbox index: the square's bit number, `NONE` off the box.
    bit: Vec<u16>,
    /// By mailbox index: the first bit number at or after it (`W::BITS`
    /// past the box).
    from: Vec<u16>,
    /// By bit number: the mailbox index, and the code there (for a
    /// hurdle, which may be any of many codes).
    index: Vec<u32>,
    cells: Vec<u8>,
}

const NONE: u16 = u16::MAX;

impl<W: Word> Bits<W> {
    /// The words of `cells`, a mailbox whose box square `(x, y)` is at
    /// `index(x, y)`; the box must fit in a `W`.
    pub(super) fn new(cells: &[u8], shape: BoxShape, slots: &Slots, index: impl Fn(i32, i32) -> usize) -> Bits<W> {
        debug_assert!(shape.fits::<W>());
        let mut member = Box::new([0; 256]);
        for (k, set) in slots.0.iter().enumerate() {
            set.iter().for_each(|&c| member[c as usize] |= 1 << k);
        }
        let mut b = Bits {
            words: Box::new([W::ZERO; WORDS]),
            member,
            bit: vec![NONE; cells.len()],
            from: vec![W::BITS as u16; cells.len() + 1],
            index: vec![],
            cells: vec![Code::EMPTY; (shape.width * shape.height) as usize],
        };
        for (k, (x, y)) in shape.squares().enumerate() {
            let i = index(x, y);
            b.bit[i] = k as u16;
            b.index.push(i as u32);
            b.put(k as u32, cells[i]);
        }
        // Mailbox indices grow with bit numbers (both go row by row).
        let mut next = W::BITS as u16;
        for i in (0..cells.len()).rev() {
            if b.bit[i] != NONE {
                next = b.bit[i];
            }
            b.from[i] = next;
        }
        b
    }

    #[inline]
    fn put(&mut self, k: u32, c: u8) {
        self.words[c as usize] |= W::bit(k);
        self.cells[k as usize] = c;
        self.each_set(self.member[c as usize], |w| *w |= W::bit(k));
    }

    /// Calls `f` on the word of each set in `slots`.
    #[inline(always)]
    fn each_set(&mut self, mut slots: u32, mut f: impl FnMut(&mut W)) {
        while slots != 0 {
            f(&mut self.words[256 + (slots.trailing_zeros() as usize & (SLOTS - 1))]);
            slots &= slots - 1;
        }
    }

    /// Mailbox square `i` held `old` and now holds `new`.
    #[inline]
    pub(super) fn moved(&mut self, i: usize, old: u8, new: u8) {
        self.moved_in(i, old, new, u32::MAX);
    }

    /// As `moved`, keeping only the set words of `slots` (the others
    /// are left stale: for a move made for one test and taken back).
    #[inline]
    pub(super) fn moved_in(&mut self, i: usize, old: u8, new: u8, slots: u32) {
        if let Some(k) = self.bit_of(i) {
            let bit = W::bit(k);
            self.words[old as usize] &= !bit;
            self.words[new as usize] |= bit;
            self.cells[k as usize] = new;
            let (was, is) = (self.member[old as usize] & slots, self.member[new as usize] & slots);
            self.each_set(was & !is, |w| *w &= !bit);
            self.each_set(is & !was, |w| *w |= bit);
        }
    }

    /// The squares holding `code`.
    #[inline]
    pub(super) fn word(&self, code: u8) -> W {
        self.words[code as usize]
    }

    /// The squares holding `code` but square `poi`: the pieces a binder
    /// with the POI there runs for.
    #[inline]
    pub(super) fn pieces(&self, code: u8, poi: Option<usize>) -> W {
        self.word(code) & poi.and_then(|p| self.bit_of(p)).map_or(W::ONES, |k| !W::bit(k))
    }

    /// The mailbox index of bit `k`.
    #[inline]
    pub(super) fn index_of(&self, k: u32) -> usize {
        self.index[k as usize] as usize
    }

    /// The bit number of mailbox square `i`, if on the box.
    #[inline]
    pub(super) fn bit_of(&self, i: usize) -> Option<u32> {
        Some(self.bit[i]).filter(|&k| k != NONE).map(u32::from)
    }

    /// The first mailbox index from `from` on whose square holds `code`,
    /// but `except`.
    #[inline]
    pub(super) fn next(&self, code: u8, from: usize, except: Option<usize>) -> Option<usize> {
        let k = u32::from(*self.from.get(from)?);
        if k >= W::BITS {
            return None;
        }
        let mut word = self.words[code as usize] & !W::below(k);
        while !word.is_zero() {
            let i = self.index[word.lowest() as usize] as usize;
            if Some(i) != except {
                return Some(i);
            }
            word = word.clear_lowest();
        }
        None
    }

    /// How many squares hold a code of `codes`, but square `except`.
    #[inline]
    pub(super) fn count_of(&self, codes: &Codes, except: Option<usize>) -> u32 {
        let w = self.of(codes) & except.and_then(|p| self.bit_of(p)).map_or(W::ONES, |k| !W::bit(k));
        w.count()
    }

    #[inline]
    fn of(&self, codes: &Codes) -> W {
        match self.words.get(usize::from(codes.1)) {
            Some(&w) => w,
            None => codes.0.iter().fold(W::ZERO, |m, &c| m | self.words[c as usize]),
        }
    }
}
