//! Playing games: rules, positions, a game in progress (`Match`) with its
//! ends, draws and repetitions, and perft. How games and moves are written
//! (FEN, SAN, PGN, PDN) and the referee are `record`'s; the terminal loop
//! that plays them is the command line's (`cli::interactive`).

mod claims;
mod counting;
pub(crate) mod end;
pub use end::{Ending, GameOutcome};
mod entered;
pub(crate) mod game;
pub(crate) mod markers;
mod ongoing;
mod outcome;
mod perft;
pub(crate) mod pieces;
pub(crate) mod repetition;

pub use claims::DrawClaim;
pub use counting::Count;
pub use entered::Entered;
pub use game::TooBig;
pub use game::{Backend, Position, Rules};
pub use ongoing::Match;
pub use perft::{divide, perft};
