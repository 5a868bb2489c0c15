//! Playing games: positions, perft, move names, FEN, and the interactive
//! loop.

pub mod end;
pub mod fen;
mod game;
pub mod interactive;
pub mod notation;
pub mod pdn;
mod perft;
pub mod pgn;
mod pieces;
pub mod referee;
mod repetition;
pub mod san;

pub use game::{Position, Rules, TooBig};
pub use perft::{divide, perft};
