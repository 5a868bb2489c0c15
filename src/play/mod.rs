//! Playing games: positions, perft, move names, FEN, and the interactive
//! loop.

pub mod fen;
mod game;
pub mod interactive;
pub mod notation;
mod perft;

pub use game::{Position, Rules, TooBig};
pub use perft::{divide, perft};
