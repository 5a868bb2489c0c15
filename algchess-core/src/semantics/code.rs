//! The bytes that stand for cells: a concrete board stores `.`, pieces and
//! `#` as these bytes, and a `CellSet` is a set of them, with `%` too, so a
//! board square is looked up in a set without translation.

use crate::ir::{Cell, Content, PieceId};

/// The byte codes of cells: `.` is 0, piece `p` is `p.index() + 1` (at
/// most `MAX_PIECES + 1`, below `POI`), `%` and `#` are the top two.
pub struct Code;

impl Code {
    pub(crate) const EMPTY: u8 = 0;
    pub(crate) const POI: u8 = u8::MAX - 1;
    pub(crate) const OFF: u8 = u8::MAX;

    #[inline]
    pub(crate) fn content(c: Content) -> u8 {
        match c {
            Content::Empty => Code::EMPTY,
            Content::Piece(p) => p.index() as u8 + 1,
        }
    }

    #[inline]
    pub(crate) fn cell(c: Cell) -> u8 {
        match c {
            Cell::Is(c) => Code::content(c),
            Cell::Poi => Code::POI,
            Cell::Off => Code::OFF,
        }
    }

    /// The cell a byte stands for.
    #[inline]
    pub(crate) fn to_cell(v: u8) -> Cell {
        match v {
            Code::EMPTY => Cell::EMPTY,
            Code::POI => Cell::Poi,
            Code::OFF => Cell::Off,
            p => Cell::Is(Content::Piece(PieceId(p - 1))),
        }
    }

    /// What a board square holding this byte holds: `None` off the board.
    #[inline]
    pub fn to_content(v: u8) -> Option<Content> {
        match v {
            Code::OFF => None,
            Code::EMPTY => Some(Content::Empty),
            p => Some(Content::Piece(PieceId(p - 1))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::piece::MAX_PIECES;

    #[test]
    fn codes_round_trip_and_pieces_stay_below_the_poi() {
        let pieces = (0..=MAX_PIECES as u8).map(|i| Cell::Is(Content::Piece(PieceId(i))));
        for c in [Cell::EMPTY, Cell::Poi, Cell::Off].into_iter().chain(pieces) {
            assert_eq!(Code::to_cell(Code::cell(c)), c);
            if let Cell::Is(x) = c {
                assert_eq!(Code::to_content(Code::content(x)), Some(x));
                assert!(Code::content(x) < Code::POI);
            }
        }
        assert_eq!(Code::to_content(Code::OFF), None);
    }
}
