//! Primitive tests: the letters a claim's tests are spelled in.
//!
//! Guards are read down to what they ask of squares. An anchored guard
//! (`% + u. -> 0`) asks about squares at fixed offsets from the POI, each
//! of which reads exactly one value, so it becomes a conjunction of `At`
//! letters that exclude each other square by square. An unanchored guard
//! (`♘ + u♟ -> 0`) asks whether some translation matches; it stays one
//! letter, related to others by implication. Every other test is a letter
//! of its own, known by its term.

use super::effects::{Effects, Vals};
use crate::geometry::{Movement, Square};
use crate::ir::{Cell, Fragment, Pieces, Show, Term};
use std::fmt;

/// A primitive test.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(super) enum Prim {
    /// `% -> 0`: a POI is bound.
    Bound,
    /// `% + d c -> 0`: the square at offset `d` from the POI reads `c`
    /// (`.`, a piece, or `#` for off the board); `d` is never the origin.
    At(Square, Cell),
    /// `h -> 0` for `h` without `%`: some translation of `h` matches,
    /// placed with its lowest square on the origin.
    Guard(Fragment),
    /// A test known only as itself (a binder of a test, a test under a
    /// movement metavariable).
    Test(Term),
    /// `not not M`: the move `M` has a result.
    Applies(Term),
}

/// A fragment moved so its lowest square is the origin: translations of
/// an unanchored guard ask the same.
pub(super) fn placed(f: &Fragment) -> Fragment {
    match f.cells().next() {
        Some((low, _)) if low != Square::ORIGIN => f.shifted(&Movement::translation(-low.x, -low.y)),
        _ => f.clone(),
    }
}

impl Prim {
    /// The test as a move of the algebra.
    pub(super) fn term(&self) -> Term {
        let frag = |cells: Vec<(Square, Cell)>| Term::fragment(Fragment::from_cells(cells).expect("distinct squares"));
        let guard = |h: Term| Term::rule(&h, &Term::fragment(Fragment::empty()));
        match self {
            Prim::Bound => guard(frag(vec![(Square::ORIGIN, Cell::Poi)])),
            Prim::At(d, c) => guard(frag(vec![(Square::ORIGIN, Cell::Poi), (*d, *c)])),
            Prim::Guard(h) => guard(Term::fragment(h.clone())),
            Prim::Test(t) => t.clone(),
            Prim::Applies(m) => Term::not(&Term::not(m)),
        }
    }

    /// What the test reads: the values of its squares (`%` for tests that
    /// read relative to the POI), and whether it sees the POI's content.
    pub(super) fn effects(&self) -> Effects {
        let reads = |v: Vals| Effects {
            reads: v,
            ..Effects::default()
        };
        match self {
            Prim::Bound => reads(Vals::of([Cell::Poi])),
            Prim::At(_, c) => reads(Vals::of([Cell::Poi, *c])),
            Prim::Guard(h) => reads(Vals::of(h.cells().map(|(_, c)| c))),
            Prim::Test(t) | Prim::Applies(t) => Effects::of(t, None),
        }
    }
}

impl Show for Prim {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.term().show(pieces, f)
    }
}

/// A primitive test or its negation.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(super) struct Lit {
    pub prim: usize,
    pub holds: bool,
}

impl Lit {
    pub(super) fn yes(prim: usize) -> Lit {
        Lit { prim, holds: true }
    }

    pub(super) fn no(prim: usize) -> Lit {
        Lit { prim, holds: false }
    }

    /// The literal as a test of the algebra.
    #[cfg(test)]
    pub(super) fn term(&self, prims: &[Prim]) -> Term {
        let t = prims[self.prim].term();
        if self.holds {
            t
        } else {
            Term::not(&t)
        }
    }
}

/// A conjunction of literals as masks over at most 64 primitive tests: an
/// atom `a` satisfies it when `a & mask == value`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct Conj {
    pub mask: u64,
    pub value: u64,
}

impl Conj {
    pub(super) fn of(lits: &[Lit]) -> Option<Conj> {
        let mut c = Conj::default();
        for l in lits {
            c = c.and(*l)?;
        }
        Some(c)
    }

    /// The conjunction with one more literal; `None` when it contradicts.
    pub(super) fn and(self, l: Lit) -> Option<Conj> {
        let bit = 1u64 << l.prim;
        let v = if l.holds { bit } else { 0 };
        if self.mask & bit != 0 && self.value & bit != v {
            return None;
        }
        Some(Conj {
            mask: self.mask | bit,
            value: self.value | v,
        })
    }

    pub(super) fn holds(&self, atom: u64) -> bool {
        atom & self.mask == self.value
    }
}
