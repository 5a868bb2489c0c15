//! Playing games: positions, perft, move names, FEN, PGN and the referee.
//! The terminal loop that plays them is the command line's (`cli::interactive`).

mod claims;
mod counting;
pub(crate) mod end;
pub use end::{Ending, GameOutcome};
mod entered;
mod error;
pub mod fen;
mod finding;
mod game;
mod markers;
pub mod move_names;
pub mod move_words;
mod naming;
mod ongoing;
mod outcome;
pub mod pdn;
mod perft;
pub mod pgn;
mod pieces;
pub mod referee;
mod repetition;
pub(crate) mod san;
mod setup;

pub use game::TooBig;
pub use game::{Position, Rules};
pub(crate) use markers::{rights, Markers, MAX_SIDE};
pub use perft::{divide, perft};
