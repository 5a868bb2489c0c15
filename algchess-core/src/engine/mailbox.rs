//! The engine's board: the cells of a `Grid`'s box in one array with a
//! border of `#` around it, so that a rule reaching `pad` squares from an
//! on-board square reads a cell of the array without a bounds check.

use super::bits::{Bits, BoxShape, Slots};
use super::word::Word;
use crate::geometry::{Rect, Square};
use crate::ir::Content;
use crate::semantics::{square_base, CellSet, Code, Grid, Store};
use std::convert::Infallible;
use std::sync::Arc;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Mailbox {
    origin: Square,
    width: i32,
    height: i32,
    pad: i32,
    stride: i32,
    pub cells: Vec<u8>,
}

impl Mailbox {
    /// `g`'s board with a border `pad` squares wide.
    pub(super) fn new(g: &Grid, pad: i32) -> Mailbox {
        let stride = g.width() + 2 * pad;
        let mut b = Mailbox {
            origin: g.origin(),
            width: g.width(),
            height: g.height(),
            pad,
            stride,
            cells: vec![Code::OFF; (stride * (g.height() + 2 * pad)).max(0) as usize],
        };
        // Both keep codes row by row: a row is a copy.
        let w = g.width().max(0) as usize;
        for (y, row) in g.codes().chunks(w.max(1)).enumerate() {
            let at = b.row_start(y as i32);
            b.cells[at..at + w].copy_from_slice(row);
        }
        b
    }

    /// The mailbox index of the first square of box row `y`.
    fn row_start(&self, y: i32) -> usize {
        ((y + self.pad) * self.stride + self.pad) as usize
    }

    /// Each index's square as the board hash's keys read it
    /// (`semantics::square_base`), border squares included: a plan's
    /// boards share one.
    pub(super) fn bases(&self) -> Arc<[u64]> {
        (0..self.cells.len()).map(|i| square_base(self.square(i))).collect()
    }

    /// The board as a `Grid` over the same box.
    pub(super) fn grid(&self) -> Grid {
        let mut g = Grid::off(self.origin, self.width, self.height);
        let w = self.width.max(0) as usize;
        for y in 0..self.height {
            let at = self.row_start(y);
            g.row_codes_mut(y).copy_from_slice(&self.cells[at..at + w]);
        }
        g
    }

    /// The indices of the box's rows, border columns included: every
    /// on-board square lies in them.
    pub(super) fn rows(&self) -> (usize, usize) {
        (
            (self.pad * self.stride) as usize,
            ((self.pad + self.height) * self.stride) as usize,
        )
    }

    /// Index deltas of a step: `d` squares away is `i + delta(d)`.
    pub(super) fn delta(stride: i32, d: Square) -> isize {
        (d.x + d.y * stride) as isize
    }

    /// The step of an index delta, `delta`'s inverse for steps of at most
    /// `pad` columns.
    pub(super) fn step(stride: i32, pad: i32, d: isize) -> Square {
        let (s, pad) = (stride as isize, pad as isize);
        let dy = (d + pad).div_euclid(s);
        Square::new((d - dy * s) as i32, dy as i32)
    }

    /// The index of `q`, when it lies inside the array.
    #[inline]
    pub(super) fn index(&self, q: Square) -> Option<usize> {
        let (x, y) = (q.x - self.origin.x + self.pad, q.y - self.origin.y + self.pad);
        let rows = self.height + 2 * self.pad;
        (x >= 0 && y >= 0 && x < self.stride && y < rows).then(|| (y * self.stride + x) as usize)
    }

    pub(super) fn square(&self, i: usize) -> Square {
        let (x, y) = (i as i32 % self.stride, i as i32 / self.stride);
        Square::new(x - self.pad + self.origin.x, y - self.pad + self.origin.y)
    }

    /// The board as bitboards, when its box fits in a `W`.
    pub(super) fn bits<W: Word>(&self, slots: &Slots) -> Option<Bits<W>> {
        let shape = BoxShape {
            width: self.width,
            height: self.height,
        };
        shape.fits::<W>().then(|| {
            Bits::new(&self.cells, shape, slots, |x, y| {
                ((y + self.pad) * self.stride + x + self.pad) as usize
            })
        })
    }

    #[inline]
    fn code(&self, q: Square) -> u8 {
        self.index(q).map_or(Code::OFF, |i| self.cells[i])
    }
}

/// So that the interpreter runs on the engine's board where the engine
/// hands a move back to it.
impl Store for Mailbox {
    type Unknown = Infallible;
    type Value = u8;

    fn squares(&self) -> Rect {
        Rect::new(self.origin, self.width, self.height)
    }

    fn candidates(&self, c: Content) -> smallvec::SmallVec<[Square; 16]> {
        memchr::memchr_iter(Code::content(c), &self.cells)
            .map(|i| self.square(i))
            .collect()
    }

    fn on_board(&self, q: Square) -> Result<bool, Infallible> {
        Ok(self.code(q) != Code::OFF)
    }

    fn reads(&self, q: Square, set: &CellSet) -> Result<bool, Infallible> {
        Ok(set.contains_code(self.code(q)))
    }

    fn holds(&self, q: Square, c: Content) -> Result<bool, Infallible> {
        Ok(self.code(q) == Code::content(c))
    }

    fn value(&self, q: Square) -> u8 {
        self.code(q)
    }

    fn set(&mut self, q: Square, c: Content) {
        let i = self.index(q).expect("on the board");
        self.cells[i] = Code::content(c);
    }

    fn set_value(&mut self, q: Square, v: u8) {
        let i = self.index(q).expect("on the board");
        self.cells[i] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_round_trip_and_the_border_is_off() {
        let g = Grid::parse("♖.#\n♙♙.", &crate::ir::Pieces::chess()).unwrap();
        let b = Mailbox::new(&g, 3);
        assert_eq!(b.grid(), g);
        assert_eq!(b.cells.len(), 9 * 8);
        assert!(!b.on_board(Square::new(-3, 0)).unwrap());
        assert!(!b.on_board(Square::new(2, 1)).unwrap());
        assert!(b.on_board(Square::new(2, 0)).unwrap());
        for i in 0..b.cells.len() {
            assert_eq!(b.index(b.square(i)), Some(i));
        }
    }
}
