//! Why a FEN is not a position of a game, and why a move's name picks out
//! no one legal move: the referee's errors, by kind.

use crate::diag::clip;
use crate::geometry::{Square, Tiling};
use crate::play::TooBig;
use crate::semantics::BoardError;
use std::fmt;

/// Why a FEN is not a position of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is not FEN.
    Unreadable(BoardError),
    /// FEN draws square boards; the game is played on another grid.
    NotSquare {
        /// The game's name.
        game: String,
        /// Its grid.
        tiling: Tiling,
    },
    /// The board is not the size the game is played on.
    Size {
        /// The game's name.
        game: String,
        /// Files and ranks of the FEN's board.
        found: (i32, i32),
        /// Files and ranks of the game's board.
        want: (i32, i32),
    },
    /// A side has another number of kings than the start (one, or none
    /// for horde's white).
    Kings {
        /// `"white"` or `"black"`.
        side: &'static str,
        /// How many the start has.
        want: usize,
        /// How many the FEN has.
        found: usize,
    },
    /// A pawn stands where no pawn can: on the rank it promotes on, or
    /// its first rank.
    PawnRank(Square),
    /// The side not to move is in check.
    InCheck,
    /// Finding the moves took more states than the budget allows.
    TooBig(TooBig),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Unreadable(e) => e.fmt(f),
            PositionError::NotSquare { game, tiling } => write!(
                f,
                "FEN describes square boards, and `{game}` is played on {tiling} cells: give the board drawn as text"
            ),
            PositionError::Size {
                game,
                found: (w, h),
                want: (ww, wh),
            } => write!(
                f,
                "the FEN describes a {w}×{h} board, but `{game}` is played on {ww}×{wh}"
            ),
            PositionError::Kings { side, want, found } => {
                let kings = if *want == 1 { "one" } else { "no" };
                write!(f, "a position has {kings} {side} king, this one has {found}")
            }
            PositionError::PawnRank(q) => write!(f, "a pawn cannot stand on {}, on the first or last rank", q.name()),
            PositionError::InCheck => f.write_str("the side not to move is in check: its king could be taken"),
            PositionError::TooBig(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<TooBig> for PositionError {
    fn from(e: TooBig) -> PositionError {
        PositionError::TooBig(e)
    }
}

/// Why a move's name picks out no one legal move. `text` is the name as
/// given, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in SAN or UCI.
    NotSan(String),
    /// Not a ply in PDN.
    NotPdn(String),
    /// A SAN or UCI move to a square off the board.
    OffBoard {
        /// The move.
        text: String,
        /// The square it names.
        square: String,
    },
    /// A PDN ply through a square number the board does not have.
    NoSquare {
        /// The ply.
        text: String,
        /// The number.
        number: i32,
    },
    /// No legal move has this name.
    NotLegal(String),
    /// No legal move has this name, and why.
    Illegal {
        /// The move.
        text: String,
        /// Why the rules refuse it: `the king would move into check on
        /// e2`, `white has no knight on the board`.
        why: String,
    },
    /// No legal move has this name on a hex board, where moves are named
    /// by their cells.
    NotLegalOnHex(String),
    /// Several legal moves have this name.
    Ambiguous {
        /// The move.
        text: String,
        /// Their names in full.
        could_be: Vec<String>,
    },
    /// Several legal captures join the two squares of a PDN ply.
    AmbiguousCapture {
        /// The ply.
        text: String,
        /// How many captures.
        count: usize,
        /// The squares' numbers.
        from: i32,
        /// See `from`.
        to: i32,
    },
    /// Several legal moves on a hex board have these cells.
    AmbiguousCells(String),
    /// The side to move has no move at all.
    NoMoves(String),
    /// Finding the moves took more states than the budget allows.
    TooBig(TooBig),
    /// Another error, with the legal moves' names to choose from.
    Listed {
        /// Why the name picks no move.
        error: Box<MoveError>,
        /// The legal moves' names.
        legal: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotSan(t) => write!(f, "`{}` is not a move in SAN (`Nf3`, `exd5`, `O-O`) or UCI (`g1f3`)", clip(t)),
            MoveError::NotPdn(t) => write!(f, "`{}` is not a ply in PDN (`11-15`, `22x15`, `22x15x6`)", clip(t)),
            MoveError::OffBoard { text, square } => write!(f, "`{}` goes to {square}, which is not on the board", clip(text)),
            MoveError::NoSquare { text, number } => write!(f, "`{}`: there is no square {number} on this board", clip(text)),
            MoveError::NotLegal(t) => write!(f, "`{}` is not a legal move here", clip(t)),
            MoveError::Illegal { text, why } => write!(f, "`{}` is not a legal move here: {why}", clip(text)),
            MoveError::NotLegalOnHex(t) => write!(
                f,
                "`{}` is not a legal move here (on hex, moves are named by their cells: `f5f6`)", clip(t)
            ),
            MoveError::Ambiguous { text, could_be } => {
                write!(f, "`{}` is ambiguous: it could be {}", clip(text), could_be.join(" or "))
            }
            MoveError::AmbiguousCapture { text, count, from, to } => write!(
                f,
                "`{}` is ambiguous: {count} captures go from {from} to {to}; write the squares between (`{from}x..x{to}`)", clip(text)
            ),
            MoveError::AmbiguousCells(t) => write!(f, "`{}` is ambiguous", clip(t)),
            MoveError::NoMoves(t) => write!(f, "`{}` is not a legal move: the side to move has none", clip(t)),
            MoveError::TooBig(e) => e.fmt(f),
            MoveError::Listed { error, legal } => write!(f, "{error} (legal: {})", legal.join(" ")),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<TooBig> for MoveError {
    fn from(e: TooBig) -> MoveError {
        MoveError::TooBig(e)
    }
}
