//! Concrete boards: a dense grid over a bounding box, and the board text
//! format.
//!
//! Board text: rows from top to bottom, one character per square: `.` for
//! an empty square, a piece glyph (or an ASCII spelling such as `'R`), and
//! `#` for a square of the box that is off the board. The bottom-left square
//! is `(0, 0)`. Rows are separated by line breaks or `/`.

use super::code::Code;
use super::store::Store;
use crate::geometry::{Rect, Square};
use crate::ir::{Content, Pieces, Show};
use std::convert::Infallible;
use std::fmt;

/// A concrete board over the box `[x0, x0 + width) × [y0, y0 + height)`.
/// Equality, order and hashing look at the box and the cells only; the
/// square list is derived from the box.
pub struct Grid {
    origin: Square,
    width: i32,
    height: i32,
    cells: smallvec::SmallVec<[u8; 64]>,
}

/// What a move writes: squares with the code each now holds, each square
/// once, in no particular order.
pub(crate) type Change = smallvec::SmallVec<[(Square, u8); 4]>;

/// A malformed board text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// What is wrong, for the user.
    pub message: String,
    /// Byte offset in the text.
    pub at: usize,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BoardError {}

/// Why a fragment is not a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotABoard {
    /// It has no square.
    Empty,
    /// Its box holds more squares than a board may.
    TooLarge {
        /// The box's files.
        width: i64,
        /// The box's ranks.
        height: i64,
    },
    /// It has a `%` cell.
    Poi,
}

impl fmt::Display for NotABoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotABoard::Empty => f.write_str("a board needs at least one square"),
            NotABoard::TooLarge { width, height } => write!(
                f,
                "a board's box may hold at most {MAX_SQUARES} squares; this one is {width} by {height}"
            ),
            NotABoard::Poi => f.write_str("a board has no `%` cell"),
        }
    }
}

impl std::error::Error for NotABoard {}

/// The piece board text spells at `c`: a glyph, or `'` and an ASCII name
/// read on from `rest`; with how many more characters it took.
pub(super) fn read_piece(
    c: char,
    rest: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    at: usize,
    pieces: &Pieces,
) -> Result<(Content, i32), BoardError> {
    let mut name = c.to_string();
    if c == '\'' {
        while let Some(&(_, n)) = rest.peek() {
            if !(n.is_ascii_alphanumeric() || n == '_') {
                break;
            }
            name.push(n);
            rest.next();
        }
    }
    let p = pieces.lookup(&name).ok_or_else(|| BoardError {
        message: format!("unknown piece `{name}`"),
        at,
    })?;
    Ok((Content::Piece(p), name.chars().count() as i32 - 1))
}

/// The most squares a board drawn as a fragment may span, holes
/// included: far more than any game needs, and a box that fits in memory.
pub(super) const MAX_SQUARES: i64 = 1 << 20;

impl Grid {
    /// A box of the given size with every square off the board.
    pub fn off(origin: Square, width: i32, height: i32) -> Grid {
        Grid {
            origin,
            width,
            height,
            cells: smallvec::smallvec![Code::OFF; (width * height) as usize],
        }
    }

    /// The cells' codes, row by row from the box's origin.
    pub fn codes(&self) -> &[u8] {
        &self.cells
    }

    /// Row `y` of the box (from 0) as codes, to be written in place.
    pub fn row_codes_mut(&mut self, y: i32) -> &mut [u8] {
        let w = self.width as usize;
        &mut self.cells[y as usize * w..(y as usize + 1) * w]
    }

    fn index(&self, q: Square) -> Option<usize> {
        let (x, y) = (q.x - self.origin.x, q.y - self.origin.y);
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    /// What `q` holds, or `None` off the board.
    pub fn get(&self, q: Square) -> Option<Content> {
        self.index(q).and_then(|i| Code::to_content(self.cells[i]))
    }

    /// The letter of the piece on `q` (see [`Pieces::letter`]).
    pub fn letter(&self, q: Square, pieces: &Pieces) -> Option<char> {
        match self.get(q)? {
            Content::Piece(p) => pieces.letter(p),
            Content::Empty => None,
        }
    }

    /// Puts `q` on the board with content `c`, or takes it off with `None`.
    /// `q` must lie in the box.
    pub fn put(&mut self, q: Square, c: Option<Content>) {
        let i = self.index(q).expect("square inside the box");
        self.cells[i] = c.map_or(Code::OFF, Code::content);
    }

    /// Columns of the box.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Rows of the box.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The box's bottom-left square.
    pub fn origin(&self) -> Square {
        self.origin
    }

    /// Number of on-board squares.
    pub fn size(&self) -> usize {
        self.cells.iter().filter(|&&v| v != Code::OFF).count()
    }

    /// Parses board text, its pieces spelled as `pieces` spells them.
    pub fn parse(text: &str, pieces: &Pieces) -> Result<Grid, BoardError> {
        let mut rows: Vec<Vec<Option<Content>>> = vec![];
        let mut row = vec![];
        let mut offset = 0;
        let mut chars = text.char_indices().peekable();
        let mut row_start = 0;
        let mut widths = vec![];
        while let Some((i, c)) = chars.next() {
            offset = i;
            match c {
                '\n' | '/' => {
                    if !row.is_empty() || c == '/' {
                        widths.push(row_start);
                        rows.push(std::mem::take(&mut row));
                    }
                    row_start = i + 1;
                }
                ' ' | '\t' | '\r' | '\u{FE0E}' | '\u{FE0F}' => {}
                '.' => row.push(Some(Content::Empty)),
                '#' => row.push(None),
                c => row.push(Some(read_piece(c, &mut chars, i, pieces)?.0)),
            }
        }
        let _ = offset;
        if !row.is_empty() {
            widths.push(row_start);
            rows.push(row);
        }
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        for (r, start) in rows.iter().zip(&widths) {
            if r.len() != width {
                return Err(BoardError {
                    message: format!(
                        "rows differ in length ({} and {width} squares); pad short rows with `#`",
                        r.len()
                    ),
                    at: *start,
                });
            }
        }
        let height = rows.len() as i32;
        let mut g = Grid::off(Square::ORIGIN, width as i32, height);
        for (ri, r) in rows.iter().enumerate() {
            let y = height - 1 - ri as i32;
            for (x, c) in r.iter().enumerate() {
                g.put(Square::new(x as i32, y), *c);
            }
        }
        Ok(g)
    }

    /// A board drawn as a fragment: `.` and pieces are its squares, `#` and
    /// squares the fragment leaves out are off the board, in the fragment's
    /// bounding box.
    pub fn from_fragment(f: &crate::ir::Fragment) -> Result<Grid, NotABoard> {
        if f.is_empty() {
            return Err(NotABoard::Empty);
        }
        let min_x = f.cells().map(|(q, _)| q.x).min().unwrap();
        let max_x = f.cells().map(|(q, _)| q.x).max().unwrap();
        let min_y = f.cells().map(|(q, _)| q.y).min().unwrap();
        let max_y = f.cells().map(|(q, _)| q.y).max().unwrap();
        let (w, h) = (
            i64::from(max_x) - i64::from(min_x) + 1,
            i64::from(max_y) - i64::from(min_y) + 1,
        );
        if w * h > MAX_SQUARES {
            return Err(NotABoard::TooLarge { width: w, height: h });
        }
        let mut g = Grid::off(Square::new(min_x, min_y), w as i32, h as i32);
        for (q, c) in f.cells() {
            match c {
                crate::ir::Cell::Is(content) => g.put(q, Some(content)),
                crate::ir::Cell::Off => {}
                crate::ir::Cell::Poi => return Err(NotABoard::Poi),
            }
        }
        Ok(g)
    }

    /// The board as text rows, top to bottom, over its whole box.
    pub fn rows(&self, pieces: &Pieces) -> Vec<String> {
        (0..self.height)
            .rev()
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.get(Square::new(self.origin.x + x, self.origin.y + y)) {
                        None => "#".to_string(),
                        Some(c) => pieces.show(&c).to_string(),
                    })
                    .collect()
            })
            .collect()
    }

    /// The same board in the smallest box holding every on-board square.
    pub fn trimmed(&self) -> Grid {
        let on: Vec<Square> = self.squares().iter().filter(|q| self.get(*q).is_some()).collect();
        if on.is_empty() {
            return Grid::off(Square::ORIGIN, 0, 0);
        }
        let min_x = on.iter().map(|q| q.x).min().unwrap();
        let max_x = on.iter().map(|q| q.x).max().unwrap();
        let min_y = on.iter().map(|q| q.y).min().unwrap();
        let max_y = on.iter().map(|q| q.y).max().unwrap();
        let mut g = Grid::off(Square::new(min_x, min_y), max_x - min_x + 1, max_y - min_y + 1);
        for q in on {
            g.put(q, self.get(q));
        }
        g
    }

    /// The same board moved so that its box starts at `(0, 0)`.
    pub fn rebased(&self) -> Grid {
        let mut g = Grid::off(Square::ORIGIN, self.width, self.height);
        g.cells = self.cells.clone();
        g
    }

    /// What turns `self` into `other`, a board of the same box.
    pub fn change_to(&self, other: &Grid) -> Change {
        self.diff(other).into_iter().map(|q| (q, other.code(q))).collect()
    }

    /// Makes `c` on the board.
    pub fn apply(&mut self, c: &Change) {
        for &(q, v) in c {
            let i = self.index(q).expect("a change stays in the box");
            self.cells[i] = v;
        }
    }

    /// The code square `q` holds: `Code::OFF` off the board.
    pub fn code(&self, q: Square) -> u8 {
        self.index(q).map_or(Code::OFF, |i| self.cells[i])
    }

    /// Squares where `self` and `other` (boards of the same box) differ.
    pub fn diff(&self, other: &Grid) -> Vec<Square> {
        if (self.origin, self.width, self.height) != (other.origin, other.width, other.height) {
            return self
                .squares()
                .iter()
                .filter(|q| self.get(*q) != other.get(*q))
                .collect();
        }
        // One box: a cell's code is its content.
        let at = |i: usize| {
            Square::new(
                self.origin.x + i as i32 % self.width,
                self.origin.y + i as i32 / self.width,
            )
        };
        self.cells
            .iter()
            .zip(&other.cells)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| at(i))
            .collect()
    }
}

impl Grid {
    fn key(&self) -> (Square, i32, i32, &[u8]) {
        (self.origin, self.width, self.height, &self.cells)
    }
}

impl Grid {
    /// A random board of the given box, over `.`, `#` and the pieces random
    /// terms use (`ir::gen`): for property tests.
    pub fn random(g: &mut crate::rng::Rng, width: i32, height: i32) -> Grid {
        let mut b = Grid::off(Square::ORIGIN, width, height);
        for y in 0..height {
            for x in 0..width {
                let c = match g.below(5) {
                    0 => None,
                    _ => Some(crate::ir::gen::content(g)),
                };
                b.put(Square::new(x, y), c);
            }
        }
        b
    }
}

impl Clone for Grid {
    /// One copy of the cells (a derived clone would copy them one by one).
    fn clone(&self) -> Grid {
        Grid {
            origin: self.origin,
            width: self.width,
            height: self.height,
            cells: smallvec::SmallVec::from_slice(&self.cells),
        }
    }
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Grid {}

impl std::hash::Hash for Grid {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

impl PartialOrd for Grid {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Grid {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// Rows of codes, chess's pieces as glyphs and others as `<code>`: a
/// debug print has no registry.
impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chess = Pieces::chess();
        for y in (0..self.height).rev() {
            if y + 1 < self.height {
                f.write_str("/")?;
            }
            for x in 0..self.width {
                match Code::to_content(self.code(Square::new(self.origin.x + x, self.origin.y + y))) {
                    None => f.write_str("#")?,
                    Some(Content::Piece(p)) if p.index() >= chess.len() => write!(f, "<{}>", p.index() + 1)?,
                    Some(c) => c.show(&chess, f)?,
                }
            }
        }
        Ok(())
    }
}

/// The board text, a row a line.
impl Show for Grid {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.rows(pieces) {
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

impl Store for Grid {
    type Unknown = Infallible;
    type Value = u8;

    fn squares(&self) -> Rect {
        Rect::new(self.origin, self.width, self.height)
    }

    fn candidates(&self, c: Content) -> smallvec::SmallVec<[Square; 16]> {
        memchr::memchr_iter(Code::content(c), &self.cells)
            .map(|i| {
                Square::new(
                    self.origin.x + i as i32 % self.width,
                    self.origin.y + i as i32 / self.width,
                )
            })
            .collect()
    }

    #[inline]
    fn reads(&self, q: Square, set: &super::cell_set::CellSet) -> Result<bool, Infallible> {
        // Stored bytes are the set's codes: `.` 0, pieces 1.., `#` 255.
        Ok(set.contains_code(self.index(q).map_or(Code::OFF, |i| self.cells[i])))
    }

    #[inline]
    fn on_board(&self, q: Square) -> Result<bool, Infallible> {
        Ok(self.index(q).is_some_and(|i| self.cells[i] != Code::OFF))
    }

    #[inline]
    fn holds(&self, q: Square, c: Content) -> Result<bool, Infallible> {
        Ok(self.index(q).is_some_and(|i| self.cells[i] == Code::content(c)))
    }

    fn value(&self, q: Square) -> u8 {
        self.cells[self.index(q).expect("on the board")]
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
    use crate::ir::PieceId;

    fn chess() -> Pieces {
        Pieces::chess()
    }

    #[test]
    fn text_round_trips_and_bottom_left_is_origin() {
        let g = Grid::parse("♖..\n♙#♙", &chess()).unwrap();
        assert_eq!(g.rows(&chess()), vec!["♖..", "♙#♙"]);
        assert_eq!(
            g.get(Square::new(0, 0)),
            Some(Content::Piece(PieceId::chess("♙").unwrap()))
        );
        assert_eq!(g.get(Square::new(1, 0)), None);
        assert_eq!(g.size(), 5);
        assert_eq!(Grid::parse("♖../♙#♙", &chess()).unwrap(), g);
        assert_eq!(Grid::parse("'R../'P#'P", &chess()).unwrap(), g);
    }

    #[test]
    fn bad_text_is_rejected() {
        assert!(Grid::parse("♖..\n♙", &chess())
            .unwrap_err()
            .message
            .contains("differ in length"));
        assert!(Grid::parse("x", &chess())
            .unwrap_err()
            .message
            .contains("unknown piece"));
    }
}
