//! Squares of the infinite plane.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// The unit square `[x, x+1] × [y, y+1]`; `y` grows upwards.
///
/// Squares order row by row from the bottom, so that iterating a fragment
/// visits its cells in reading order for the pretty-printer.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Square {
    pub x: i32,
    pub y: i32,
}

impl Square {
    pub const ORIGIN: Square = Square { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> Self {
        Square { x, y }
    }
}

impl Ord for Square {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Square {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Square {
    type Output = Square;
    fn add(self, o: Square) -> Square {
        Square::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Square {
    type Output = Square;
    fn sub(self, o: Square) -> Square {
        Square::new(self.x - o.x, self.y - o.y)
    }
}

impl Neg for Square {
    type Output = Square;
    fn neg(self) -> Square {
        Square::new(-self.x, -self.y)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}
