//! What the evaluator needs from a board, so that one evaluator serves both
//! concrete boards and the checker's symbolic boards.

use super::cell_set::CellSet;
use crate::geometry::{Rect, Square};
use crate::ir::Content;
use std::hash::Hash;

/// A board as the evaluator sees it: a finite set of on-board squares, each
/// holding a value, that can be asked questions and written.
///
/// A concrete board always answers. A symbolic board (a set of boards) may
/// answer `Err(Unknown)`, naming a question whose answer differs across the
/// set; the caller splits the set and runs again.
pub trait Store: Clone + Eq + Hash {
    /// A question the store cannot answer. `std::convert::Infallible` for
    /// concrete boards, so the evaluator's error paths compile away.
    type Unknown;
    /// What a square holds, as copied when the piece of interest moves.
    type Value: Copy + Eq;

    /// Every square that may be on the board, in a fixed order. A superset
    /// of the board: callers still ask `on_board`.
    fn squares(&self) -> Rect;
    /// The squares that may hold `c`: a superset, in the order of
    /// `squares`. A concrete board finds them directly.
    fn candidates(&self, c: Content) -> smallvec::SmallVec<[Square; 16]> {
        let _ = c;
        self.squares().iter().collect()
    }
    /// Whether `q` is a square of the board.
    fn on_board(&self, q: Square) -> Result<bool, Self::Unknown>;
    /// Whether `q`, not the POI's square, reads one of the cells of `set`
    /// (`#` off the board, else what it holds).
    fn reads(&self, q: Square, set: &CellSet) -> Result<bool, Self::Unknown>;
    /// Whether `q` is on the board and holds `c`.
    fn holds(&self, q: Square, c: Content) -> Result<bool, Self::Unknown>;
    /// The value on an on-board square.
    fn value(&self, q: Square) -> Self::Value;
    /// Writes a content on an on-board square.
    fn set(&mut self, q: Square, c: Content);
    /// Writes a value read earlier with `value`.
    fn set_value(&mut self, q: Square, v: Self::Value);
}

/// A state: a board and the square of the piece of interest, if bound.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct State<S> {
    /// The board.
    pub board: S,
    /// The square of the piece of interest; `None` before a binder or rule
    /// binds it.
    pub poi: Option<Square>,
}
