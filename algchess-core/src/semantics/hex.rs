//! Hex boards as text: a drawing that reads back.
//!
//! Hex cell `(x, y)` (axial coordinates, see `geometry::Tiling`) is drawn in
//! text column `2x` and on a line that goes down by one for each half cell
//! of height: line `top - (2y + x)`. Neighbours in a column are two lines
//! apart, and the next column sits half a cell up or down, so the text is a
//! picture of the flat-topped hexagons' centres:
//!
//! ```text
//!   ♚
//! .   .
//!   ♔
//! ```
//!
//! Blanks are off the board. A piece spelled in ASCII (`'Pe`) starts at its
//! cell's column; cells on one line are four columns apart, so it fits.
//! The leftmost column is `x = 0` and the lowest cell `y = 0`.

use super::board::{read_piece, BoardError, Grid};
use super::store::Store;
use crate::geometry::{Square, Tiling};
use crate::ir::{Content, Pieces};

/// File letters, as Gliński's board names them: `j` is left out.
const FILES: &[u8] = b"abcdefghiklmnopqrstuvwxyz";

impl Grid {
    /// Reads a hex board drawing.
    pub fn parse_hex(text: &str, pieces: &Pieces) -> Result<Grid, BoardError> {
        // (line, column, content, byte offset) of each cell drawn.
        let mut cells: Vec<(i32, i32, Option<Content>, usize)> = vec![];
        let mut offset = 0;
        for (li, line) in text.split(['\n', '/']).enumerate() {
            let mut chars = line.char_indices().peekable();
            let mut col = 0;
            while let Some((i, c)) = chars.next() {
                let at = offset + i;
                let start = col;
                col += 1;
                let content = match c {
                    ' ' | '\t' | '\r' | '\u{FE0E}' | '\u{FE0F}' => continue,
                    '.' => Some(Content::Empty),
                    '#' => None,
                    c => {
                        let (piece, taken) = read_piece(c, &mut chars, at, pieces)?;
                        col += taken;
                        Some(piece)
                    }
                };
                cells.push((li as i32, start, content, at));
            }
            offset += line.len() + 1;
        }
        let Some(min_col) = cells.iter().map(|c| c.1).min() else {
            return Ok(Grid::off(Square::ORIGIN, 0, 0));
        };
        let last = cells.iter().map(|c| c.0).max().unwrap();
        let mut placed = vec![];
        let mut parity = None;
        for &(line, col, content, at) in &cells {
            if (col - min_col) % 2 != 0 {
                return Err(BoardError {
                    message: "hex cells sit in every other text column; this one is between two".into(),
                    at,
                });
            }
            let x = (col - min_col) / 2;
            // 2y + x counts half cells up from the bottom line.
            let k = last - line - x;
            if *parity.get_or_insert(k.rem_euclid(2)) != k.rem_euclid(2) {
                return Err(BoardError {
                    message: "this cell is half a row off: a column's cells are two lines apart, \
                              and the next column's half way between"
                        .into(),
                    at,
                });
            }
            placed.push((Square::new(x, k.div_euclid(2)), content, at));
        }
        let min_y = placed.iter().map(|c| c.0.y).min().unwrap();
        let max_x = placed.iter().map(|c| c.0.x).max().unwrap();
        let max_y = placed.iter().map(|c| c.0.y).max().unwrap();
        let mut g = Grid::off(Square::ORIGIN, max_x + 1, max_y - min_y + 1);
        let mut seen = std::collections::HashSet::new();
        for (q, content, at) in placed {
            let q = Square::new(q.x, q.y - min_y);
            if !seen.insert(q) {
                return Err(BoardError {
                    message: "two cells drawn on one hex".into(),
                    at,
                });
            }
            g.put(q, content);
        }
        Ok(g.trimmed().rebased())
    }

    /// The board as text on `tiling`: square rows, or the hex drawing.
    pub fn lines_on(&self, tiling: Tiling, pieces: &Pieces) -> Vec<String> {
        match tiling {
            Tiling::Square => self.rows(pieces),
            Tiling::Hex => self.hex_lines(pieces),
        }
    }

    /// Reads board text on `tiling`.
    pub fn parse_on(text: &str, tiling: Tiling, pieces: &Pieces) -> Result<Grid, BoardError> {
        match tiling {
            Tiling::Square => Grid::parse(text, pieces),
            Tiling::Hex => Grid::parse_hex(text, pieces),
        }
    }

    /// The board drawn as hexes, one line of text per half cell of height,
    /// with no trailing blanks; `parse_hex` reads it back.
    pub fn hex_lines(&self, pieces: &Pieces) -> Vec<String> {
        self.hex_lines_with(|_, c| {
            let s = pieces.show(&c).to_string();
            let n = s.chars().count();
            (s, n)
        })
    }

    /// The hex drawing with each cell written by `show`, which gives its
    /// text and the columns the text takes on screen (escape codes take
    /// none).
    pub fn hex_lines_with(&self, show: impl Fn(Square, Content) -> (String, usize)) -> Vec<String> {
        let on: Vec<(Square, Content)> = self
            .squares()
            .iter()
            .filter_map(|q| self.get(q).map(|c| (q, c)))
            .collect();
        let Some(min_x) = on.iter().map(|(q, _)| q.x).min() else {
            return vec![];
        };
        let level = |q: Square| 2 * q.y + q.x;
        let top = on.iter().map(|&(q, _)| level(q)).max().unwrap();
        let bottom = on.iter().map(|&(q, _)| level(q)).min().unwrap();
        let mut lines: Vec<Vec<(i32, (String, usize))>> = vec![vec![]; (top - bottom + 1) as usize];
        for (q, c) in on {
            lines[(top - level(q)) as usize].push((2 * (q.x - min_x), show(q, c)));
        }
        lines
            .into_iter()
            .map(|mut cells| {
                cells.sort();
                let mut s = String::new();
                let mut col = 0;
                for (at, (text, width)) in cells {
                    while col < at {
                        s.push(' ');
                        col += 1;
                    }
                    col += width as i32;
                    s.push_str(&text);
                }
                s
            })
            .collect()
    }

    /// The lowest on-board cell of column `x`.
    fn column_foot(&self, x: i32) -> Option<i32> {
        (self.origin().y..self.origin().y + self.height()).find(|&y| self.get(Square::new(x, y)).is_some())
    }

    /// A hex cell's name: the column's letter (`a` for the leftmost, no `j`,
    /// as on Gliński's board) and the rank counted from the column's lowest
    /// cell on this board, so `f1` is the bottom of the sixth column.
    pub fn hex_name(&self, q: Square) -> String {
        let file = (q.x - self.origin().x) as usize;
        let rank = self.column_foot(q.x).map_or(q.y, |foot| q.y - foot);
        match FILES.get(file) {
            Some(&c) => format!("{}{}", c as char, rank + 1),
            None => format!("[{file}]{}", rank + 1),
        }
    }

    /// The cell a name (`f5`, as `hex_name` writes it) stands for, and the
    /// rest of the text after it.
    pub fn hex_cell_prefix<'s>(&self, s: &'s str) -> Option<(Square, &'s str)> {
        let c = s.chars().next()?;
        let file = FILES.iter().position(|&f| f as char == c)? as i32;
        let digits = s[1..].find(|c: char| !c.is_ascii_digit()).map_or(s.len() - 1, |n| n);
        let rank: i32 = s[1..1 + digits].parse().ok()?;
        let x = self.origin().x + file;
        let q = Square::new(x, self.column_foot(x)? + rank - 1);
        self.get(q).is_some().then_some((q, &s[1 + digits..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::PieceId;

    /// Gliński's 91-cell board, empty: columns of 6 to 11 cells.
    pub(crate) fn glinski_empty() -> Grid {
        let mut g = Grid::off(Square::ORIGIN, 11, 11);
        for x in 0..11i32 {
            for y in 0..11i32 {
                let (dx, dy) = (x - 5, y - 5);
                if dx.abs().max(dy.abs()).max((dx + dy).abs()) <= 5 {
                    g.put(Square::new(x, y), Some(Content::Empty));
                }
            }
        }
        g
    }

    #[test]
    fn hex_text_round_trips() {
        let g = glinski_empty();
        assert_eq!(g.size(), 91);
        let text = g.hex_lines(&Pieces::chess()).join("\n");
        assert_eq!(text.lines().count(), 21);
        assert_eq!(text.lines().next().unwrap(), "          .");
        let back = Grid::parse_hex(&text, &Pieces::chess()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.hex_lines(&Pieces::chess()).join("\n"), text);
        let small = "  ♚\n.   ♞\n  ♔";
        let b = Grid::parse_hex(small, &Pieces::chess()).unwrap();
        assert_eq!(b.size(), 4);
        assert_eq!(b.hex_lines(&Pieces::chess()).join("\n"), small);
        // Column 0 holds one cell, column 1 two, one above the other.
        assert_eq!(
            b.get(Square::new(1, 1)),
            Some(Content::Piece(PieceId::chess("♚").unwrap()))
        );
    }

    #[test]
    fn bad_hex_text_is_an_error() {
        assert!(Grid::parse_hex(". .", &Pieces::chess()).is_err());
        assert!(Grid::parse_hex(".\n\n  .", &Pieces::chess()).is_err());
        assert!(Grid::parse_hex(".\n  .", &Pieces::chess()).is_ok());
        assert!(Grid::parse_hex("  ?", &Pieces::chess()).is_err());
    }

    #[test]
    fn cells_are_named_by_column_and_rank() {
        let g = glinski_empty();
        let named = |n: &str| g.hex_cell_prefix(n).map(|(q, _)| q);
        assert_eq!(named("a1"), Some(Square::new(0, 5)));
        assert_eq!(named("f1"), Some(Square::new(5, 0)));
        assert_eq!(named("f11"), Some(Square::new(5, 10)));
        assert_eq!(named("l6"), Some(Square::new(10, 5)));
        assert_eq!(named("a7"), None);
        for q in g.squares().iter().filter(|q| g.get(*q).is_some()) {
            assert_eq!(named(&g.hex_name(q)), Some(q));
        }
    }
}
