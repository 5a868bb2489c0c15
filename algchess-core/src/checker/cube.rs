//! Cubes: sets of boards given square by square, and the symbolic store
//! that lets the ordinary evaluator run on a whole cube at once.
//!
//! A cube fixes a box and, for each square of it, the set of values it may
//! hold: off the board, empty, one of the named pieces, or the one other
//! piece that stands for all unnamed ones. Running a move on the cube asks
//! questions such as "does this square hold ♖?". When the answer is the same
//! for every board of the cube the run goes on; when it is not, the store
//! answers `Split`, and the search splits the cube in two and runs again.
//! At the leaves every question is answered, so every board of the cube
//! behaves alike, and one run covers them all.

use crate::geometry::{Rect, Square};
use crate::ir::{Cell, Content, PieceId};
use crate::semantics::{CellSet, Grid, Store};
use std::hash::{Hash, Hasher};

/// Bit 0: off the board. Bit 1: empty. Then one bit per named piece, then
/// the other piece.
pub(crate) type Domain = u64;
pub(crate) const OFF: Domain = 1;
const EMPTY_BIT: Domain = 2;

/// The values a square can take, and how they map to contents.
#[derive(Clone, Debug)]
pub(crate) struct Universe {
    /// The named pieces, then the stand-in for every other piece.
    pieces: Vec<PieceId>,
}

/// The most pieces one claim may name for the checker: with `#`, `.` and
/// the stand-in for the others, every value has a bit of a `u64`.
pub(crate) const MAX_NAMED: usize = 61;

impl Universe {
    /// `named` are the pieces either side mentions; `other` stands for all
    /// the rest.
    /// `None` when there are more than `MAX_NAMED`: a domain is one bit
    /// per value in a `u64`.
    pub(crate) fn new(named: &[PieceId], other: PieceId) -> Option<Universe> {
        let mut pieces = named.to_vec();
        pieces.sort();
        pieces.dedup();
        pieces.retain(|p| *p != other);
        pieces.push(other);
        (pieces.len() <= MAX_NAMED + 1).then_some(Universe { pieces })
    }

    /// Every value a board square can hold.
    pub(crate) fn full(&self) -> Domain {
        (1u64 << (self.pieces.len() + 2)) - 1
    }

    pub(crate) fn bit(&self, c: Content) -> Domain {
        match c {
            Content::Empty => EMPTY_BIT,
            Content::Piece(p) => {
                let i = self.pieces.iter().position(|q| *q == p);
                1 << (i.expect("the universe names every piece the moves use") + 2)
            }
        }
    }

    /// The values of a set of cells, as a domain: `#` is off the board.
    pub(crate) fn mask(&self, set: &CellSet) -> Domain {
        let mut d = 0;
        if set.contains(Cell::Off) {
            d |= OFF;
        }
        if set.contains(Cell::EMPTY) {
            d |= EMPTY_BIT;
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if set.contains(Cell::Is(Content::Piece(*p))) {
                d |= 1 << (i + 2);
            }
        }
        d
    }

    /// The content a single value bit stands for; `None` for off.
    pub(crate) fn content(&self, bit: Domain) -> Option<Content> {
        match bit.trailing_zeros() {
            0 => None,
            1 => Some(Content::Empty),
            i => Some(Content::Piece(self.pieces[i as usize - 2])),
        }
    }

    /// The value chosen to show a domain on a concrete board: off if
    /// allowed (fewest squares), else empty, else the other piece, else the
    /// first named piece.
    pub(crate) fn representative(&self, d: Domain) -> Domain {
        let other = 1 << (self.pieces.len() + 1);
        for pref in [OFF, EMPTY_BIT, other] {
            if d & pref != 0 {
                return pref;
            }
        }
        d & d.wrapping_neg()
    }
}

/// A set of boards: a box at the origin and a domain per square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cube {
    pub width: i32,
    pub height: i32,
    pub doms: Vec<Domain>,
    pub squares: std::sync::Arc<[Square]>,
}

/// A question with different answers across the cube: split the domain of
/// square `at` into the values in `mask` and the rest.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub at: usize,
    pub mask: Domain,
}

impl Cube {
    pub(crate) fn new(width: i32, height: i32, full: Domain) -> Cube {
        let squares: Vec<Square> = (0..height)
            .flat_map(|y| (0..width).map(move |x| Square::new(x, y)))
            .collect();
        Cube {
            width,
            height,
            doms: vec![full; (width * height) as usize],
            squares: squares.into(),
        }
    }

    #[inline]
    pub(crate) fn index(&self, q: Square) -> Option<usize> {
        (q.x >= 0 && q.y >= 0 && q.x < self.width && q.y < self.height).then(|| (q.y * self.width + q.x) as usize)
    }

    /// Squares that are on the board in every board of the cube: a lower
    /// bound on the size of any counterexample found below it.
    pub(crate) fn forced_on(&self) -> usize {
        self.doms.iter().filter(|d| **d & OFF == 0).count()
    }

    /// The two halves of a split, the one that allows "off" first.
    pub(crate) fn split(&self, s: Split) -> [Cube; 2] {
        let d = self.doms[s.at];
        let (mut a, mut b) = (self.clone(), self.clone());
        a.doms[s.at] = d & s.mask;
        b.doms[s.at] = d & !s.mask;
        if a.doms[s.at] & OFF == 0 && b.doms[s.at] & OFF != 0 {
            [b, a]
        } else {
            [a, b]
        }
    }

    /// Number of concrete boards in the cube.
    pub(crate) fn boards(&self) -> f64 {
        self.doms.iter().map(|d| f64::from(d.count_ones())).product()
    }

    /// One concrete board of the cube, chosen by `Universe::representative`.
    pub(crate) fn representative(&self, u: &Universe) -> Grid {
        let mut g = Grid::off(Square::ORIGIN, self.width, self.height);
        for (i, q) in self.squares.iter().enumerate() {
            g.put(*q, u.content(u.representative(self.doms[i])));
        }
        g
    }

    /// A board of the cube to show, of as few squares as the
    /// representative: every board of a leaf cube is a counterexample
    /// alike, and one with the claim's pieces on it reads better than
    /// one of empty squares. So the POI's square holds a named piece
    /// where its domain allows one, rather than an empty square or the
    /// stand-in for other pieces, and a board that would hold no named
    /// piece gets one on the first square that allows it.
    pub(crate) fn shown(&self, u: &Universe, poi: Option<Square>) -> Grid {
        let mut g = self.representative(u);
        let named = u.full() & !(OFF | EMPTY_BIT | (1 << (u.pieces.len() + 1)));
        let put = |g: &mut Grid, i: usize| {
            let d = self.doms[i] & named;
            let shown = u.representative(self.doms[i]);
            if d != 0 && shown != OFF && shown & named == 0 {
                g.put(self.squares[i], u.content(d & d.wrapping_neg()));
                return true;
            }
            false
        };
        let mut holds = (0..self.squares.len()).any(|i| u.representative(self.doms[i]) & named != 0);
        if let Some(i) = poi.and_then(|p| self.squares.iter().position(|q| *q == p)) {
            holds |= put(&mut g, i);
        }
        if !holds {
            (0..self.squares.len()).any(|i| put(&mut g, i));
        }
        g
    }
}

/// What a square of a symbolic board holds: the original value of some
/// square of the cube (itself, or the POI's square after `%` moved), or a
/// value written by a rule.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(crate) enum Val {
    Orig(u16),
    /// The value of this bit index of a `Domain`.
    Known(u8),
}

/// A symbolic board: the cube it ranges over, and what each square holds.
#[derive(Clone, Debug)]
pub(crate) struct Sym<'c> {
    pub cube: &'c Cube,
    pub universe: &'c Universe,
    pub vals: smallvec::SmallVec<[Val; 16]>,
}

impl<'c> Sym<'c> {
    pub(crate) fn initial(cube: &'c Cube, universe: &'c Universe) -> Sym<'c> {
        Sym {
            cube,
            universe,
            vals: (0..cube.doms.len()).map(|i| Val::Orig(i as u16)).collect(),
        }
    }

    /// The value as a single bit when the cube fixes it.
    pub(crate) fn canonical(&self, v: Val) -> Val {
        match v {
            Val::Orig(j) if self.cube.doms[j as usize].count_ones() == 1 => {
                Val::Known(self.cube.doms[j as usize].trailing_zeros() as u8)
            }
            v => v,
        }
    }

    /// Whether two symbolic boards are equal on every board of the cube,
    /// different on every board, or neither (then the split that decides).
    pub(crate) fn compare(&self, other: &Sym) -> Result<bool, Split> {
        let mut undecided = None;
        for (a, b) in self.vals.iter().zip(&other.vals) {
            let (a, b) = (self.canonical(*a), self.canonical(*b));
            match (a, b) {
                _ if a == b => {}
                (Val::Known(_), Val::Known(_)) => return Ok(false),
                (Val::Known(v), Val::Orig(j)) | (Val::Orig(j), Val::Known(v)) => {
                    let v: Domain = 1 << v;
                    if self.cube.doms[j as usize] & v == 0 {
                        return Ok(false);
                    }
                    undecided.get_or_insert(Split {
                        at: j as usize,
                        mask: v,
                    });
                }
                (Val::Orig(i), Val::Orig(j)) => {
                    let common = self.cube.doms[i as usize] & self.cube.doms[j as usize];
                    if common == 0 {
                        return Ok(false);
                    }
                    undecided.get_or_insert(Split {
                        at: i as usize,
                        mask: common & common.wrapping_neg(),
                    });
                }
            }
        }
        match undecided {
            None => Ok(true),
            Some(s) => Err(s),
        }
    }
}

impl PartialEq for Sym<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.vals == other.vals
    }
}

impl Eq for Sym<'_> {}

impl Hash for Sym<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.vals.hash(state);
    }
}

impl Store for Sym<'_> {
    type Unknown = Split;
    type Value = Val;

    fn squares(&self) -> Rect {
        Rect::new(Square::ORIGIN, self.cube.width, self.cube.height)
    }

    fn on_board(&self, q: Square) -> Result<bool, Split> {
        let Some(i) = self.cube.index(q) else {
            return Ok(false);
        };
        match self.vals[i] {
            // Only on-board squares are ever written.
            Val::Known(_) => Ok(true),
            Val::Orig(j) if j as usize != i => Ok(true),
            Val::Orig(_) => {
                let d = self.cube.doms[i];
                if d == OFF {
                    Ok(false)
                } else if d & OFF == 0 {
                    Ok(true)
                } else {
                    Err(Split { at: i, mask: OFF })
                }
            }
        }
    }

    fn reads(&self, q: Square, set: &CellSet) -> Result<bool, Split> {
        let Some(i) = self.cube.index(q) else {
            return Ok(set.contains(Cell::Off));
        };
        let mask = self.universe.mask(set);
        match self.vals[i] {
            Val::Known(v) => Ok(mask & (1 << v) != 0),
            Val::Orig(j) => {
                let d = self.cube.doms[j as usize];
                if d & mask == 0 {
                    Ok(false)
                } else if d & !mask == 0 {
                    Ok(true)
                } else {
                    Err(Split { at: j as usize, mask })
                }
            }
        }
    }

    fn holds(&self, q: Square, c: Content) -> Result<bool, Split> {
        let Some(i) = self.cube.index(q) else {
            return Ok(false);
        };
        let bit = self.universe.bit(c);
        match self.vals[i] {
            Val::Known(v) => Ok(1 << v == bit),
            Val::Orig(j) => {
                let d = self.cube.doms[j as usize];
                if d & bit == 0 {
                    Ok(false)
                } else if d == bit {
                    Ok(true)
                } else {
                    Err(Split {
                        at: j as usize,
                        mask: bit,
                    })
                }
            }
        }
    }

    fn value(&self, q: Square) -> Val {
        self.vals[self.cube.index(q).expect("inside the cube")]
    }

    fn set(&mut self, q: Square, c: Content) {
        let i = self.cube.index(q).expect("inside the cube");
        self.vals[i] = Val::Known(self.universe.bit(c).trailing_zeros() as u8);
    }

    fn set_value(&mut self, q: Square, v: Val) {
        let i = self.cube.index(q).expect("inside the cube");
        self.vals[i] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_split_only_when_the_cube_disagrees() {
        let rook = PieceId::chess("♖").unwrap();
        let other = PieceId::chess("♔").unwrap();
        let u = Universe::new(&[rook], other).unwrap();
        let cube = Cube::new(2, 1, u.full());
        let s = Sym::initial(&cube, &u);
        let q = Square::new(1, 0);
        let split = s.holds(q, Content::Piece(rook)).unwrap_err();
        assert_eq!(split.at, 1);
        let [a, b] = cube.split(split);
        // The half that allows "off" comes first.
        assert!(a.doms[1] & OFF != 0);
        assert!(!Sym::initial(&a, &u).holds(q, Content::Piece(rook)).unwrap());
        assert!(Sym::initial(&b, &u).holds(q, Content::Piece(rook)).unwrap());
        assert!(!s.on_board(Square::new(5, 0)).unwrap());
    }

    /// The board shown has the claim's pieces on it where the cube allows:
    /// on the POI's square first, with as many squares on the board.
    #[test]
    fn the_board_shown_holds_the_claims_pieces() {
        let king = PieceId::chess("♔").unwrap();
        let other = PieceId::chess("♛").unwrap();
        let u = Universe::new(&[king], other).unwrap();
        let chess = crate::ir::Pieces::chess();
        let mut cube = Cube::new(2, 1, u.full() & !OFF);
        assert_eq!(cube.representative(&u).rows(&chess), vec![".."]);
        assert_eq!(cube.shown(&u, Some(Square::new(1, 0))).rows(&chess), vec![".♔"]);
        assert_eq!(cube.shown(&u, None).rows(&chess), vec!["♔."]);
        // A square that may not hold the king keeps its value, and one
        // that may be off the board stays off.
        cube.doms[0] = EMPTY_BIT;
        cube.doms[1] = u.full();
        assert_eq!(cube.shown(&u, Some(Square::new(0, 0))).rows(&chess), vec![".#"]);
    }

    #[test]
    fn representative_prefers_fewest_squares() {
        let rook = PieceId::chess("♖").unwrap();
        let other = PieceId::chess("♔").unwrap();
        let u = Universe::new(&[rook], other).unwrap();
        let mut cube = Cube::new(2, 1, u.full());
        cube.doms[1] = u.bit(Content::Piece(rook));
        assert_eq!(cube.representative(&u).rows(&crate::ir::Pieces::chess()), vec!["#♖"]);
        assert_eq!(cube.forced_on(), 1);
    }
}
