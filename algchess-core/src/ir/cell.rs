//! What a square of a fragment or a board can hold.

use super::{PieceId, Pieces};
use crate::geometry::Movement;

/// The content of an on-board square: empty, or one piece. Binders `%c:`
/// name a content too.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Content {
    /// `.`: no piece.
    Empty,
    /// One piece.
    Piece(PieceId),
}

/// One cell of a fragment.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Cell {
    /// `#`: the square is off the board.
    Off,
    /// `.` or a piece.
    Is(Content),
    /// `%`: the piece of interest.
    Poi,
}

impl Content {
    /// Movements act on pieces (colour twins, and declared turns and
    /// mirrors); an empty square stays empty.
    pub fn moved(self, m: &Movement, pieces: &Pieces) -> Content {
        match self {
            Content::Empty => Content::Empty,
            Content::Piece(p) => Content::Piece(pieces.moved(p, m)),
        }
    }
}

impl Cell {
    /// `.`: an empty on-board square.
    pub const EMPTY: Cell = Cell::Is(Content::Empty);

    /// The cell a movement turns this one into; `#` and `%` stay as they are.
    pub fn moved(self, m: &Movement, pieces: &Pieces) -> Cell {
        match self {
            Cell::Is(c) => Cell::Is(c.moved(m, pieces)),
            other => other,
        }
    }
}
