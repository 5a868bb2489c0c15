//! The plane: squares and the movement group acting on them.

mod movement;
mod rect;
mod square;

pub use movement::{Movement, MAX_SHIFT};
pub use rect::Rect;
pub use square::Square;
