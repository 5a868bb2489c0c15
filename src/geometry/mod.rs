//! The plane: squares and hex cells, and the movement groups acting on them.

mod movement;
mod rect;
mod square;
mod tiling;

pub use movement::{Movement, MAX_SHIFT};
pub use rect::Rect;
pub use square::Square;
pub use tiling::Tiling;
