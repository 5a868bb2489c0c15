//! The plane: squares and the movement group acting on them.

mod movement;
mod square;

pub use movement::{Movement, MAX_SHIFT};
pub use square::Square;
