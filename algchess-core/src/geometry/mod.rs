//! The plane: squares and hex cells, and the movement groups acting on them.

mod movement;
mod rect;
mod square;
mod tiling;

pub use movement::Movement;
pub(crate) use movement::MAX_SHIFT;
pub(crate) use rect::Rect;
pub use square::{ParseSquareError, Square};
pub use tiling::Tiling;
