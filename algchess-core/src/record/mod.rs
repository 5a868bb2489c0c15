//! Games and moves as they are written: FEN for positions, SAN, UCI and
//! PDN for moves, the protocols' move words, PGN for whole games, and the
//! referee that replays a written game against the rules. It reads and
//! writes what `play` runs: a `Match` is named, found, set up and written
//! here, in `impl` blocks of their own.

mod error;
pub mod fen;
mod finding;
pub mod move_names;
pub mod move_words;
mod naming;
pub mod pdn;
pub mod pgn;
pub mod referee;
pub(crate) mod san;
mod setup;

pub use error::{MoveError, PositionError};
pub use setup::{fen_count, fen_fits};
