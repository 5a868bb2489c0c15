//! Puzzles for any piece a rule file or a notation defines: pieces placed
//! so that none attacks another (`place`), and a tour of one piece over
//! every square of a board (`tour`).
//!
//! Nothing here knows a piece. What a piece attacks is read off its own
//! captures by the elaborator's `attacked_by` test, run by the evaluator
//! on a board holding that piece and one piece to take; where it goes is
//! what its moves do on a board holding it alone (`piece`). The searches
//! then see only squares and which attack which.

mod bits;
mod board;
mod piece;
mod place;
mod tour;

pub use board::{brief, Board, BriefError};
pub use piece::{read_pieces, Attacks, Kind, PieceSet};
pub use place::{place, Goal, Mode, PlaceOptions, PlaceReport, Placed};
pub use tour::{tour, NoTour, TourOptions, TourReport};

use crate::checker::Limit;
use crate::clock::{Deadline, Timer};
use crate::memory::MemoryLimit;
use std::fmt;

/// The most squares a placement puzzle's board may have: the search keeps
/// each square's attacks as a set of squares, `n²` bits in all.
pub const MAX_PLACE: usize = 4096;

/// The most squares a tour's board may have.
pub const MAX_TOUR: usize = 1 << 16;

/// Why a puzzle cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// The board has no square.
    NoSquares,
    /// The board has more squares than the puzzle takes.
    TooManySquares {
        /// The board's squares.
        squares: usize,
        /// The most the puzzle takes.
        most: usize,
    },
    /// The piece neither moves nor takes anywhere on the board.
    NoMoves(String),
    /// The attacks of a piece cannot be read off its moves.
    Attacks(String, String),
    /// A move made more intermediate states than one evaluation may.
    Budget(usize),
    /// A limit met while the pieces' moves were read.
    Stopped(Limit),
    /// `--max` asked of more than one piece.
    MaxOfMixed,
    /// A count past the largest number kept.
    CountOverflow,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::NoSquares => f.write_str("the board has no square"),
            PuzzleError::TooManySquares { squares, most } => {
                write!(
                    f,
                    "this puzzle takes boards of at most {most} squares; this one has {squares}"
                )
            }
            PuzzleError::NoMoves(p) => write!(f, "`{p}` neither moves nor takes anywhere on this board"),
            PuzzleError::Attacks(p, why) => write!(f, "the attacks of `{p}` cannot be read off its moves: {why}"),
            PuzzleError::Budget(n) => write!(f, "a move made more than {n} intermediate states"),
            PuzzleError::Stopped(Limit::Memory) => {
                f.write_str("the memory limit was met while the moves were read and set out; raise --memory-limit")
            }
            PuzzleError::Stopped(_) => {
                f.write_str("the timeout came while the moves were read and set out; raise --timeout")
            }
            PuzzleError::CountOverflow => write!(f, "the count passed {}, the largest kept", u64::MAX),
            PuzzleError::MaxOfMixed => {
                f.write_str("the most pieces that fit is asked of one piece; give counts for several")
            }
        }
    }
}

impl std::error::Error for PuzzleError {}

/// How long a puzzle may run and how much heap it may hold; reading the
/// moves counts too.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after this long, on its clock.
    pub timeout: Timer,
    /// Stop when the process holds more heap than this.
    pub memory: MemoryLimit,
    /// States one evaluation of a move may make.
    pub eval_budget: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Timer::NONE,
            memory: MemoryLimit::NONE,
            eval_budget: 1_000_000,
        }
    }
}

/// The limits of one run, its deadline fixed when it starts.
#[derive(Clone, Copy)]
pub(crate) struct Running {
    deadline: Deadline,
    memory: MemoryLimit,
    budget: usize,
}

impl Running {
    pub(crate) fn start(limits: &Limits) -> Running {
        Running {
            deadline: limits.timeout.start(),
            memory: limits.memory,
            budget: limits.eval_budget,
        }
    }

    /// The limit met, if any.
    pub(crate) fn check(&self) -> Result<(), Limit> {
        if self.deadline.passed() {
            return Err(Limit::Timeout);
        }
        if self.memory.exceeded() {
            return Err(Limit::Memory);
        }
        Ok(())
    }
}

/// What the puzzles' unit tests share: pieces read from notation with no
/// rule file, boards written briefly, on the square grid.
#[cfg(test)]
mod testing {
    use super::{brief, read_pieces, Board, PieceSet};
    use crate::geometry::Tiling;
    use crate::memory::MemoryLimit;

    pub(super) fn set(texts: &[&str]) -> PieceSet {
        let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        read_pieces(None, &texts, Tiling::Square, &crate::elab::NoFiles, MemoryLimit::NONE).unwrap()
    }

    pub(super) fn board(text: &str) -> Board {
        Board::new(&brief(text, Tiling::Square).unwrap().unwrap(), Tiling::Square).unwrap()
    }
}
