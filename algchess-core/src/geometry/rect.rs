//! Boxes of squares: the bounding boxes of boards.

use super::Square;

/// The squares `[x0, x0 + width) × [y0, y0 + height)`, `origin` being
/// `(x0, y0)`. Iterates row by row from the bottom, left to right.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rect {
    pub origin: Square,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub fn new(origin: Square, width: i32, height: i32) -> Rect {
        Rect { origin, width, height }
    }

    pub fn contains(&self, q: Square) -> bool {
        let (x, y) = (q.x - self.origin.x, q.y - self.origin.y);
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// The number of squares.
    pub fn len(&self) -> usize {
        (self.width.max(0) as usize) * (self.height.max(0) as usize)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The squares, row by row from the bottom.
    pub fn iter(&self) -> impl Iterator<Item = Square> {
        let Rect { origin, width, height } = *self;
        (0..height).flat_map(move |y| (0..width).map(move |x| Square::new(origin.x + x, origin.y + y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_run_row_by_row() {
        let r = Rect::new(Square::new(-1, 2), 2, 2);
        let all: Vec<Square> = r.iter().collect();
        assert_eq!(all, [(-1, 2), (0, 2), (-1, 3), (0, 3)].map(|(x, y)| Square::new(x, y)));
        assert_eq!(r.len(), 4);
        assert!(r.contains(Square::new(0, 3)) && !r.contains(Square::new(1, 3)));
    }
}
