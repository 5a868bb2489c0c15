//! Playing games: positions, perft, move names, and the interactive loop.

mod game;
pub mod interactive;
pub mod notation;
mod perft;

pub use game::{Position, Rules, TooBig};
pub use perft::{divide, perft};
