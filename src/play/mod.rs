//! Playing games: positions, perft, move names, FEN, and the interactive
//! loop.

pub(crate) mod end;
pub mod fen;
mod game;
pub(crate) mod interactive;
pub mod notation;
pub(crate) mod pdn;
mod perft;
pub mod pgn;
mod pieces;
pub mod referee;
mod repetition;
pub(crate) mod san;

pub(crate) use game::TooBig;
pub use game::{Position, Rules};
pub use perft::{divide, perft};
