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
pub use place::{place, Goal, Mode, PlaceOptions, PlaceReport};
pub use tour::{tour, NoTour, TourOptions, TourReport};

use crate::check::Limit;
use crate::memory::MemoryLimit;
use std::fmt;
use std::time::{Duration, Instant};

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
                f.write_str("the memory limit was met while the moves were read; raise --memory-limit")
            }
            PuzzleError::Stopped(_) => f.write_str("the timeout came while the moves were read; raise --timeout"),
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
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Stop when the process holds more heap than this.
    pub memory: MemoryLimit,
    /// States one evaluation of a move may make.
    pub eval_budget: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: None,
            memory: MemoryLimit::NONE,
            eval_budget: 1_000_000,
        }
    }
}

/// The limits of one run, its deadline fixed when it starts.
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    deadline: Option<Instant>,
    memory: MemoryLimit,
    budget: usize,
}

impl Clock {
    pub(crate) fn start(limits: &Limits) -> Clock {
        Clock {
            deadline: limits.timeout.and_then(|t| Instant::now().checked_add(t)),
            memory: limits.memory,
            budget: limits.eval_budget,
        }
    }

    /// The limit met, if any.
    pub(crate) fn check(&self) -> Result<(), Limit> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Limit::Timeout);
        }
        if self.memory.exceeded() {
            return Err(Limit::Memory);
        }
        Ok(())
    }
}

#[cfg(test)]
mod scratch {
    use super::*;
    use crate::geometry::Tiling;

    fn set(p: &str) -> PieceSet {
        read_pieces(
            None,
            &[p.to_string()],
            Tiling::Square,
            &crate::elab::NoFiles,
            MemoryLimit::NONE,
        )
        .unwrap()
    }
    fn board(t: &str) -> Board {
        Board::new(&brief(t, Tiling::Square).unwrap().unwrap(), Tiling::Square).unwrap()
    }

    #[test]
    #[ignore]
    fn phases() {
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let s = set("betza\"Q\"");
            let t1 = t.elapsed();
            let bd = board("14x14");
            let o = PlaceOptions {
                goal: Goal::Exactly(vec![0]),
                mode: Mode::Count,
                limits: Limits::default(),
            };
            place(&s, &bd, &o, &mut |_| {}, &|_, _| {}).unwrap();
            let t2 = t.elapsed();
            let o = PlaceOptions {
                goal: Goal::Exactly(vec![14]),
                mode: Mode::Count,
                limits: Limits::default(),
            };
            let r = place(&s, &bd, &o, &mut |_| {}, &|_, _| {}).unwrap();
            let t3 = t.elapsed();
            eprintln!(
                "read {:?} attacks {:?} all {:?} search {:?} nodes {}",
                t1,
                t2 - t1,
                t3 - t2,
                (t3 - t2) - (t2 - t1),
                r.nodes
            );
        }
    }

    #[test]
    #[ignore]
    fn timings() {
        for (p, b, goal) in [
            ("betza\"Q\"", "12x12", Goal::Exactly(vec![12])),
            ("betza\"Q\"", "14x14", Goal::Exactly(vec![14])),
            ("betza\"K\"", "8x8", Goal::Most),
            ("betza\"N\"", "8x8", Goal::Most),
            ("betza\"B\"", "8x8", Goal::Most),
            ("betza\"R\"", "8x8", Goal::Most),
            ("betza\"Q\"", "8x8", Goal::Most),
        ] {
            let t = std::time::Instant::now();
            let s = set(p);
            let bd = board(b);
            let o = PlaceOptions {
                goal,
                mode: Mode::Count,
                limits: Limits::default(),
            };
            let r = place(&s, &bd, &o, &mut |_| {}, &|_, _| {}).unwrap();
            eprintln!(
                "{p} {b}: pieces {} count {} bound {} nodes {} in {:?}",
                r.pieces,
                r.count,
                r.bound,
                r.nodes,
                t.elapsed()
            );
        }
        for (b, closed, count) in [
            ("8x8", false, false),
            ("8x8", true, false),
            ("30x30", false, false),
            ("6x6", true, true),
        ] {
            let t = std::time::Instant::now();
            let s = set("betza\"N\"");
            let bd = board(b);
            let o = TourOptions {
                closed,
                count,
                start: None,
                limits: Limits::default(),
            };
            let r = tour(&s, &bd, &o, &|_, _| {}).unwrap();
            eprintln!(
                "tour {b} closed {closed} count {count}: found {} count {:?} nodes {} in {:?}",
                r.tour.is_some(),
                r.count,
                r.nodes,
                t.elapsed()
            );
        }
    }
}
