//! A `not` test made of bitboard probes, and when its answer, kept from
//! one board, stands on the boards a move makes from it.

use super::probe::Reads;
use super::{BitProbe, Bits, Codes, Reading, Shared};
use crate::engine::word::Word;
use crate::semantics::{CellSet, Code};

/// One way a [`BitTest`] holds.
#[derive(Clone, Debug)]
pub(in crate::engine) enum Part<W> {
    /// Always (`nil`).
    Yes,
    /// The probe holds from the POI (`None`: a probe that always holds).
    AtPoi(Option<BitProbe<W>>),
    /// The probe holds from a square holding the code, the POI's excepted
    /// (`%p: ...`).
    Bound(u8, Option<BitProbe<W>>),
}

/// A test made of probes on bitboards, pieces found by their words: what
/// `not` tests when its move is probes, binders and unions only.
#[derive(Clone, Debug)]
pub(in crate::engine) struct BitTest<W> {
    parts: Vec<Part<W>>,
    /// By code: whether binders look for it (`BOUND`), leaps (`LEAPT`)
    /// or lines (`LINED`), one load where a move's every change asks.
    kinds: Box<[u8; 256]>,
    /// The codes binders look for.
    pub bound: CellSet,
    /// The codes leaps (and hops' hurdles) look for.
    leapt: Codes,
    /// No probe is read from the POI, which a move may carry along.
    fixed: bool,
    /// The [`Slots`] whose words `holds` reads: the only ones a move
    /// made for the test alone must keep ([`Bits::moved_in`]).
    slots: u32,
}

impl<W: Word> BitTest<W> {
    /// Gives the code sets the test reads their words ([`Slots`]), and
    /// shares its rows.
    pub(in crate::engine) fn intern(&mut self, shared: &mut Shared<W>) {
        let mut read = 0;
        for part in &mut self.parts {
            if let Part::AtPoi(Some(p)) | Part::Bound(_, Some(p)) = part {
                p.intern(shared);
                read |= p.slots();
            }
        }
        shared.codes(&mut self.leapt);
        self.slots = read | self.leapt.mask();
    }

    /// The [`Slots`] whose words `holds` reads.
    #[inline]
    pub(in crate::engine) fn slots(&self) -> u32 {
        self.slots
    }
}

/// The kinds of a code in a [`BitTest`].
const BOUND: u8 = 1;
const LEAPT: u8 = 2;
const LINED: u8 = 4;

/// A test's answer on one board and what it read there (see
/// [`BitProbe::reads`]), for the boards a move makes from it: a move far
/// from the king leaves it as safe as it was, and is not tested again.
pub(in crate::engine) struct Still<W> {
    pub answer: bool,
    pub poi: Option<usize>,
    lines: W,
    leaps: W,
    /// First blockers that may be taken away, and the squares past the
    /// first blockers up to the next (see [`BitProbe::reads`]).
    vacant: W,
    past: W,
}

impl<W: Word> Still<W> {
    /// The squares where a change leaves the answer standing, unless it
    /// puts or takes away a code a binder looks for ([`BitTest::change`]).
    #[inline]
    pub(in crate::engine) fn quiet(&self) -> W {
        !(self.lines | self.leaps | self.past)
    }
}

/// Where a binder's rule may write and leave a kept answer standing
/// ([`BitTest::landing`]), by the kind of write: each such write bears on
/// the answer as [`BitTest::change`] says, at most a first blocker taken
/// away (the pivot's) or a square past one changed, never both.
pub(in crate::engine) struct Landing<'a, W> {
    test: &'a BitTest<W>,
    /// The binder's code, on the pivot.
    pub code: u8,
    /// The pivot emptied.
    vacate: W,
    /// Any other write (a square emptied, a piece a line looks for put;
    /// none where a piece a binder looks for is put).
    calm: W,
    /// A piece no line, leap or binder looks for put (over what the
    /// square holds now), or one a leap looks for (`placed_leapt`).
    placed: W,
    placed_leapt: W,
}

impl<W: Word> Landing<'_, W> {
    /// The squares where a write of `v` (on the pivot: `pivot`) leaves
    /// the answer standing.
    #[inline]
    pub(super) fn quiet(&self, pivot: bool, v: u8) -> W {
        let kind = self.test.kinds[v as usize];
        if v == Code::EMPTY {
            if pivot {
                self.vacate
            } else {
                self.calm
            }
        } else if kind & BOUND != 0 {
            // Putting or taking a code a binder looks for always may.
            W::ZERO
        } else if kind & LINED != 0 {
            self.calm
        } else if kind & LEAPT != 0 {
            self.placed_leapt
        } else {
            self.placed
        }
    }
}

/// How the changes of a move bear on a kept answer ([`BitTest::change`]),
/// or-ed together: the answer stands when [`Stand::holds`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(in crate::engine) struct Stand(u8);

impl Stand {
    const FAILS: u8 = 1;
    /// A first blocker taken away, its next blocker a harmless one.
    const VACATES: u8 = 2;
    /// A square past a first blocker emptied or given a piece a line
    /// looks for: harmless unless a first blocker goes too.
    const PAST: u8 = 4;

    #[inline(always)]
    pub(in crate::engine) fn with(self, o: Stand) -> Stand {
        Stand(self.0 | o.0)
    }

    /// Whether the answer stands after every change or-ed in.
    #[inline(always)]
    pub(in crate::engine) fn holds(self) -> bool {
        self.0 & Stand::FAILS == 0 && self.0 & (Stand::VACATES | Stand::PAST) != Stand::VACATES | Stand::PAST
    }
}

/// The squares of `w` but bit `k`'s (all of them for `None`).
#[inline(always)]
fn except<W: Word>(k: Option<u32>) -> W {
    k.map_or(W::ONES, |k| !W::bit(k))
}

impl<W: Word> BitTest<W> {
    pub(in crate::engine) fn new(parts: Vec<Part<W>>) -> BitTest<W> {
        let (mut bound, mut leapt, mut lined) = (CellSet::default(), CellSet::default(), CellSet::default());
        let mut fixed = true;
        for part in &parts {
            let p = match part {
                Part::Yes => None,
                Part::AtPoi(p) => {
                    fixed = false;
                    p.as_ref()
                }
                Part::Bound(c, p) => {
                    bound.insert_code(*c);
                    p.as_ref()
                }
            };
            for l in p.iter().flat_map(|p| &p.leaps) {
                l.codes.0.iter().for_each(|&c| leapt.insert_code(c));
            }
            for g in p.iter().flat_map(|p| &p.lines) {
                g.codes.0.iter().for_each(|&c| lined.insert_code(c));
            }
            for h in p.iter().flat_map(|p| &p.hops) {
                h.codes.0.iter().for_each(|&c| lined.insert_code(c));
                leapt = leapt.union(&h.hurdles);
            }
        }
        let kinds = Box::new(std::array::from_fn(|c| {
            let c = c as u8;
            [(bound, BOUND), (leapt, LEAPT), (lined, LINED)]
                .iter()
                .filter(|(set, _)| set.contains_code(c))
                .fold(0, |k, (_, kind)| k | kind)
        }));
        BitTest {
            parts,
            kinds,
            bound,
            leapt: Codes::of(leapt),
            fixed,
            slots: 0,
        }
    }

    /// Whether the test's answer is kept between the moves of a board
    /// (`still`): when no probe is read from the POI, which a move may
    /// carry along. However little it reads (one attacker's lines, a
    /// knight's leaps), keeping it costs less than testing each move
    /// again, and a leaf then counts moves without making them.
    pub(in crate::engine) fn keeps(&self) -> bool {
        self.fixed
    }

    /// The answer here with what it read, when no probe is read from the
    /// POI; `poi` is the POI's mailbox index and `k` its bit.
    pub(in crate::engine) fn still(&self, b: &Bits<W>, poi: Option<usize>, k: Option<u32>) -> Option<Still<W>> {
        if !self.fixed {
            return None;
        }
        let mut r = Reads::default();
        // The answer as `holds` gives it, from the reads of bound parts.
        let mut answer = false;
        for part in &self.parts {
            match part {
                Part::Bound(c, p) => {
                    let mut w = b.words[*c as usize] & except(k);
                    while !w.is_zero() {
                        answer |= p.as_ref().is_none_or(|p| p.reads(b, w.lowest(), &mut r));
                        w = w.clear_lowest();
                    }
                }
                part => answer = answer || self.part_holds(part, b, k),
            }
        }
        Some(Still {
            answer,
            poi,
            lines: r.lines,
            leaps: r.leaps,
            vacant: r.benign & !r.danger,
            past: r.past,
        })
    }

    /// How square `i` (a mailbox index) going from `old` to `new` bears
    /// on `s`. Where no line reached a piece it looks for, a piece no
    /// line looks for, put on a line up to its first blocker, is only a
    /// nearer blocker; and a first blocker taken away leaves the next
    /// one first, which is harmless when it is not a piece the line looks
    /// for and no square up to it changes too.
    #[inline]
    pub(in crate::engine) fn change(&self, s: &Still<W>, b: &Bits<W>, i: usize, old: u8, new: u8) -> Stand {
        let Some(k) = b.bit_of(i) else { return Stand(0) };
        if old == new {
            return Stand(0);
        }
        let m = W::bit(k);
        let (was, now) = (self.kinds[old as usize], self.kinds[new as usize]);
        if (was | now) & BOUND != 0 || (!(s.leaps & m).is_zero() && (was | now) & LEAPT != 0) {
            return Stand(Stand::FAILS);
        }
        let lined = now & LINED != 0;
        let mut out = 0;
        if !(s.lines & m).is_zero() {
            if s.answer || lined {
                return Stand(Stand::FAILS);
            }
            if new == Code::EMPTY {
                if (s.vacant & m).is_zero() {
                    return Stand(Stand::FAILS);
                }
                out |= Stand::VACATES;
            }
        }
        if !(s.past & m).is_zero() && (lined || new == Code::EMPTY) {
            out |= Stand::PAST;
        }
        Stand(out)
    }

    /// The squares where putting `v` on an empty square leaves `s`
    /// standing (as [`BitTest::change`] says of each): a slider landing
    /// away from the lines and leaps the test read.
    #[inline]
    pub(in crate::engine) fn lands_quietly(&self, s: &Still<W>, v: u8) -> W {
        let (was, now) = (self.kinds[Code::EMPTY as usize], self.kinds[v as usize]);
        if v == Code::EMPTY || (was | now) & BOUND != 0 {
            return W::ZERO;
        }
        let mut out = W::ONES;
        if (was | now) & LEAPT != 0 {
            out &= !s.leaps;
        }
        if s.answer || now & LINED != 0 {
            out &= !s.lines;
        }
        if now & LINED != 0 {
            out &= !s.past;
        }
        out
    }

    /// Where the writes of a binder's rules leave `s` standing, for
    /// pieces of `code` (a code no binder of the test looks for).
    pub(in crate::engine) fn landing(&self, s: &Still<W>, b: &Bits<W>, code: u8) -> Landing<'_, W> {
        let calm = s.quiet();
        if s.answer {
            // Every write to a square read changes the answer or may.
            return Landing {
                test: self,
                code,
                vacate: calm,
                calm,
                placed: calm,
                placed_leapt: calm,
            };
        }
        let leapt = (self.kinds[code as usize] | self.kinds[Code::EMPTY as usize]) & LEAPT != 0;
        Landing {
            test: self,
            code,
            // A first blocker taken away whose next blocker is harmless
            // (and no square past it read): the other writes then must
            // not touch a square past a first blocker, which they do not
            // (they put a piece no line looks for, or land on `calm`).
            vacate: !(s.lines & (!s.vacant | s.past)) & if leapt { !s.leaps } else { W::ONES },
            calm,
            // Over a code a leap looks for, on a square a leap read.
            placed: !(s.leaps & b.of(&self.leapt)),
            placed_leapt: !s.leaps,
        }
    }

    /// The one probe that decides the test once a piece leaves bit
    /// `from` and `v` is put down elsewhere, with no POI: when every part
    /// is a probe from the pieces of a code, no such piece is left but the
    /// one that moves, and one part looks for `v`. The test then holds
    /// where the probe holds from the square `v` lands on.
    pub(in crate::engine) fn decided_by(&self, b: &Bits<W>, from: u32, v: u8) -> Option<&BitProbe<W>> {
        let mut found = None;
        for part in &self.parts {
            let Part::Bound(c, Some(p)) = part else { return None };
            if !(b.word(*c) & !W::bit(from)).is_zero() {
                return None;
            }
            if *c == v {
                if found.is_some() {
                    return None;
                }
                found = Some(p);
            }
        }
        found
    }

    /// Whether the test holds with the POI on bit `poi`, on the board `b`
    /// reads (the board's words, or a [`Stepped`] on from them).
    #[inline]
    pub(in crate::engine) fn holds(&self, b: &impl Reading<W>, poi: Option<u32>) -> bool {
        self.parts.iter().any(|part| self.part_holds(part, b, poi))
    }

    /// Whether `part` holds with the POI on bit `poi`.
    #[inline]
    fn part_holds(&self, part: &Part<W>, b: &impl Reading<W>, poi: Option<u32>) -> bool {
        match part {
            Part::Yes => true,
            Part::AtPoi(p) => poi.is_some_and(|k| p.as_ref().is_none_or(|p| p.holds(b, k))),
            Part::Bound(c, p) => {
                let mut w = b.word(*c) & except(poi);
                while !w.is_zero() {
                    if p.as_ref().is_none_or(|p| p.holds(b, w.lowest())) {
                        return true;
                    }
                    w = w.clear_lowest();
                }
                false
            }
        }
    }
}
