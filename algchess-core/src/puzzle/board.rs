//! A puzzle's board: its squares numbered, the symmetries that map it
//! onto itself, and boards written briefly (`8x8`, `8x8-a1-h8`, `hex6`).

use super::PuzzleError;
use crate::geometry::{Movement, Square, Tiling};
use crate::ir::{Content, PieceId};
use crate::semantics::{Grid, Store};

/// The most squares a brief board may have: as many as a board's box may
/// hold.
const MAX_BRIEF: u64 = 1 << 20;

/// The squares of a puzzle's board, numbered row by row from the
/// bottom-left; the board drawn empty.
#[derive(Clone, Debug)]
pub struct Board {
    grid: Grid,
    tiling: Tiling,
    squares: Vec<Square>,
    /// The number of each square of the box, `u32::MAX` off the board.
    numbers: Vec<u32>,
}

impl Board {
    /// The on-board squares of `grid` (what they hold is left out), on
    /// `tiling`.
    pub fn new(grid: &Grid, tiling: Tiling) -> Result<Board, PuzzleError> {
        let rect = grid.squares();
        let mut empty = Grid::off(rect.origin, rect.width, rect.height);
        let mut squares = vec![];
        let mut numbers = vec![u32::MAX; rect.len()];
        for (i, q) in rect.iter().enumerate() {
            if grid.get(q).is_some() {
                numbers[i] = squares.len() as u32;
                squares.push(q);
                empty.put(q, Some(Content::Empty));
            }
        }
        if squares.is_empty() {
            return Err(PuzzleError::NoSquares);
        }
        Ok(Board {
            grid: empty,
            tiling,
            squares,
            numbers,
        })
    }

    /// How many squares the board has.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Never: a board has a square.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The grid the board is on.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// The squares, by number.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The board with nothing on it.
    pub fn empty(&self) -> &Grid {
        &self.grid
    }

    /// The number of square `q`, if it is on the board.
    pub fn number(&self, q: Square) -> Option<usize> {
        let rect = self.grid.squares();
        if !rect.contains(q) {
            return None;
        }
        let i = ((q.y - rect.origin.y) * rect.width + (q.x - rect.origin.x)) as usize;
        (self.numbers[i] != u32::MAX).then_some(self.numbers[i] as usize)
    }

    /// The name of square number `i`: `e2`, or on hex its cell's name
    /// (`f1`, counted up each column from its lowest cell).
    pub fn name(&self, i: usize) -> String {
        match self.tiling {
            Tiling::Square => self.squares[i].name(),
            Tiling::Hex => self.grid.hex_name(self.squares[i]),
        }
    }

    /// The board with `piece` on the squares numbered `at`.
    pub fn with(&self, at: impl IntoIterator<Item = (usize, PieceId)>) -> Grid {
        let mut g = self.grid.clone();
        for (i, p) in at {
            g.put(self.squares[i], Some(Content::Piece(p)));
        }
        g
    }

    /// The turns and mirrors of the grid that map the board onto itself
    /// (moved back into place), as permutations of the square numbers;
    /// the identity first.
    pub fn symmetries(&self) -> Vec<Vec<u32>> {
        let mut out = vec![];
        for flip in [false, true] {
            for rot in 0..self.tiling.turns() {
                let m = Movement {
                    rot,
                    flip,
                    tiling: self.tiling,
                    ..Movement::IDENTITY
                };
                let image: Vec<Square> = self.squares.iter().map(|q| m.apply(*q)).collect();
                // The image's lowest square (in the squares' order) goes
                // where the board's lowest square is.
                let low = image.iter().min().copied().expect("a board has a square");
                let shift = self.squares[0] - low;
                let perm: Option<Vec<u32>> = image
                    .iter()
                    .map(|q| self.number(*q + shift).map(|n| n as u32))
                    .collect();
                if let Some(p) = perm {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }
}

/// Why a brief board cannot be read: the message and the byte range of
/// the text it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BriefError {
    /// What is wrong.
    pub message: String,
    /// Where in the text, as a byte range.
    pub at: std::ops::Range<usize>,
}

impl std::fmt::Display for BriefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (bytes {}..{})", self.message, self.at.start, self.at.end)
    }
}

impl std::error::Error for BriefError {}

/// A board written briefly: `WxH` (a box of W files and H ranks; on hex a
/// box of axial cells), `hexN` (on hex, the hexagon of N cells a side:
/// Gliński's board is `hex6`), each followed by squares taken out of it,
/// `-a1-h8`. `None` when `text` is not written so, so that it may be read
/// as board text instead.
pub fn brief(text: &str, tiling: Tiling) -> Option<Result<Grid, BriefError>> {
    let t = text.trim_end();
    let (shape, holes) = match t.find('-') {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let err = |message: String, at: std::ops::Range<usize>| Some(Err(BriefError { message, at }));
    let number = |s: &str, at: usize| -> Result<u64, BriefError> {
        s.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| BriefError {
            message: "expected a number of squares, at least 1".into(),
            at: at..at + s.len(),
        })
    };
    let mut grid = if let Some(side) = shape.strip_prefix("hex").filter(|s| digits(s)) {
        if tiling != Tiling::Hex {
            return err(
                "a hexagon is a board of the hex grid: add `--grid hex`".into(),
                0..shape.len(),
            );
        }
        let n = match number(side, 3) {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let d = 2 * n - 1;
        if d * d > MAX_BRIEF {
            return err(format!("a board may span at most {MAX_BRIEF} squares"), 0..shape.len());
        }
        let (d, r) = (d as i32, n as i32 - 1);
        let mut g = Grid::off(Square::ORIGIN, d, d);
        for q in g.squares().iter().collect::<Vec<_>>() {
            let (dx, dy) = (q.x - r, q.y - r);
            if dx.abs().max(dy.abs()).max((dx + dy).abs()) <= r {
                g.put(q, Some(Content::Empty));
            }
        }
        g
    } else {
        let (w, h) = shape.split_once('x')?;
        if !digits(w) || !digits(h) {
            return None;
        }
        let (w, h) = match (number(w, 0), number(h, w.len() + 1)) {
            (Ok(w), Ok(h)) => (w, h),
            (Err(e), _) | (_, Err(e)) => return Some(Err(e)),
        };
        if w.saturating_mul(h) > MAX_BRIEF {
            return err(
                format!("a board may span at most {MAX_BRIEF} squares; this one is {w} by {h}"),
                0..shape.len(),
            );
        }
        let mut g = Grid::off(Square::ORIGIN, w as i32, h as i32);
        for q in g.squares().iter().collect::<Vec<_>>() {
            g.put(q, Some(Content::Empty));
        }
        g
    };
    let mut at = shape.len();
    for name in holes.split('-').skip(1) {
        let start = at + 1;
        at = start + name.len();
        let q = match tiling {
            Tiling::Square => name.parse::<Square>().ok(),
            Tiling::Hex => grid
                .hex_cell_prefix(name)
                .filter(|(_, rest)| rest.is_empty())
                .map(|(q, _)| q),
        };
        match q {
            Some(q) if grid.get(q).is_some() => grid.put(q, None),
            Some(_) => return err(format!("`{name}` is not a square of this board"), start..at),
            None => return err(format!("`{name}` names no square"), start..at),
        }
    }
    Some(Ok(grid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str, tiling: Tiling) -> Board {
        Board::new(&brief(text, tiling).unwrap().unwrap(), tiling).unwrap()
    }

    #[test]
    fn brief_boards_read_with_their_holes() {
        let b = board("8x8-a1-h8", Tiling::Square);
        assert_eq!(b.len(), 62);
        assert_eq!(b.name(0), "b1");
        assert_eq!(b.number(Square::new(0, 0)), None);
        assert_eq!(b.number(Square::new(1, 0)), Some(0));
        assert_eq!(board("3x2", Tiling::Square).len(), 6);
        assert_eq!(board("hex6", Tiling::Hex).len(), 91);
        assert_eq!(board("hex2-a1", Tiling::Hex).len(), 6);
        // Not brief: read as board text instead.
        assert!(brief("..../....", Tiling::Square).is_none());
        assert!(brief("x8", Tiling::Square).is_none());
        let e = brief("8x8-z9", Tiling::Square).unwrap().unwrap_err();
        assert_eq!(e.at, 4..6, "{e:?}");
        assert!(e.message.contains("not a square of this board"), "{e:?}");
        let e = brief("0x8", Tiling::Square).unwrap().unwrap_err();
        assert_eq!(e.at, 0..1);
        assert!(brief("2000x2000", Tiling::Square).unwrap().is_err());
        assert!(brief("hex3", Tiling::Square).unwrap().is_err());
        // A board with no square left.
        let g = brief("1x1-a1", Tiling::Square).unwrap().unwrap();
        assert_eq!(Board::new(&g, Tiling::Square).unwrap_err(), PuzzleError::NoSquares);
    }

    #[test]
    fn a_board_maps_onto_itself_by_the_symmetries_of_its_shape() {
        assert_eq!(board("8x8", Tiling::Square).symmetries().len(), 8);
        // A 2×3 box keeps its half turn and two mirrors.
        assert_eq!(board("3x2", Tiling::Square).symmetries().len(), 4);
        // Two opposite corners out: the diagonal mirrors and the half turn.
        assert_eq!(board("8x8-a1-h8", Tiling::Square).symmetries().len(), 4);
        assert_eq!(board("hex6", Tiling::Hex).symmetries().len(), 12);
        let b = board("8x8", Tiling::Square);
        for p in b.symmetries() {
            let mut seen = p.clone();
            seen.sort();
            assert_eq!(seen, (0..64).collect::<Vec<u32>>());
        }
        assert_eq!(b.symmetries()[0], (0..64).collect::<Vec<u32>>());
    }
}
