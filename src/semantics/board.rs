//! Concrete boards: a dense grid over a bounding box, with the board text
//! format and FEN.
//!
//! Board text: rows from top to bottom, one character per square: `.` for
//! an empty square, a piece glyph (or an ASCII spelling such as `'R`), and
//! `#` for a square of the box that is off the board. The bottom-left square
//! is `(0, 0)`. Rows are separated by line breaks or `/`.

use super::store::Store;
use crate::core::{Content, PieceId};
use crate::geometry::Square;
use std::convert::Infallible;
use std::fmt;

const OFF: u8 = u8::MAX;
const EMPTY: u8 = 0;

fn encode(c: Content) -> u8 {
    match c {
        Content::Empty => EMPTY,
        Content::Piece(p) => p.index() as u8 + 1,
    }
}

fn decode(v: u8) -> Option<Content> {
    match v {
        OFF => None,
        EMPTY => Some(Content::Empty),
        v => Some(Content::Piece(PieceId(v - 1))),
    }
}

/// A concrete board over the box `[x0, x0 + width) × [y0, y0 + height)`.
/// Equality, order and hashing look at the box and the cells only; the
/// square list is derived from the box.
pub struct Grid {
    origin: Square,
    width: i32,
    height: i32,
    cells: smallvec::SmallVec<[u8; 64]>,
    squares: &'static [Square],
}

/// A malformed board text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub message: String,
    /// Byte offset in the text.
    pub at: usize,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Grid {
    /// A box of the given size with every square off the board.
    pub fn off(origin: Square, width: i32, height: i32) -> Grid {
        Grid {
            origin,
            width,
            height,
            cells: smallvec::smallvec![OFF; (width * height) as usize],
            squares: square_list(origin, width, height),
        }
    }

    fn index(&self, q: Square) -> Option<usize> {
        let (x, y) = (q.x - self.origin.x, q.y - self.origin.y);
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    /// What `q` holds, or `None` off the board.
    pub fn get(&self, q: Square) -> Option<Content> {
        self.index(q).and_then(|i| decode(self.cells[i]))
    }

    /// The letter of the piece on `q` (see [`PieceId::letter`]).
    pub fn letter(&self, q: Square) -> Option<char> {
        match self.get(q)? {
            Content::Piece(p) => p.letter(),
            Content::Empty => None,
        }
    }

    /// Puts `q` on the board with content `c`, or takes it off with `None`.
    /// `q` must lie in the box.
    pub fn put(&mut self, q: Square, c: Option<Content>) {
        let i = self.index(q).expect("square inside the box");
        self.cells[i] = c.map_or(OFF, encode);
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn origin(&self) -> Square {
        self.origin
    }

    /// Number of on-board squares.
    pub fn size(&self) -> usize {
        self.cells.iter().filter(|&&v| v != OFF).count()
    }

    /// Parses board text. Pieces must already be registered.
    pub fn parse(text: &str) -> Result<Grid, BoardError> {
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
                '\'' => {
                    let mut name = String::from("'");
                    while let Some(&(_, n)) = chars.peek() {
                        if n.is_ascii_alphanumeric() || n == '_' {
                            name.push(n);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    let p = PieceId::lookup(&name).ok_or_else(|| BoardError {
                        message: format!("unknown piece `{name}`"),
                        at: i,
                    })?;
                    row.push(Some(Content::Piece(p)));
                }
                c => {
                    let p = PieceId::lookup(&c.to_string()).ok_or_else(|| BoardError {
                        message: format!("unknown piece `{c}`"),
                        at: i,
                    })?;
                    row.push(Some(Content::Piece(p)));
                }
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

    /// Parses the piece-placement field of a FEN string (further fields are
    /// ignored here) into an 8×8 board; a1 is `(0, 0)`.
    pub fn from_fen(fen: &str) -> Result<Grid, BoardError> {
        let placement = fen.split_whitespace().next().unwrap_or("");
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(BoardError {
                message: format!("a FEN board has 8 ranks, this one has {}", ranks.len()),
                at: 0,
            });
        }
        let mut g = Grid::off(Square::ORIGIN, 8, 8);
        let mut at = 0;
        for (ri, rank) in ranks.iter().enumerate() {
            let rank_start = at;
            let y = 7 - ri as i32;
            let mut x = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    for _ in 0..d {
                        if x < 8 {
                            g.put(Square::new(x, y), Some(Content::Empty));
                        }
                        x += 1;
                    }
                } else {
                    let p = PieceId::lookup(&format!("'{c}"))
                        .filter(|_| "pnbrqkPNBRQK".contains(c))
                        .ok_or_else(|| BoardError {
                            message: format!("`{c}` is not a FEN piece letter"),
                            at,
                        })?;
                    if x < 8 {
                        g.put(Square::new(x, y), Some(Content::Piece(p)));
                    }
                    x += 1;
                }
                at += c.len_utf8();
            }
            if x != 8 {
                return Err(BoardError {
                    message: format!("FEN rank {} has {x} squares, not 8", 8 - ri),
                    at: rank_start,
                });
            }
            at += 1;
        }
        Ok(g)
    }

    /// A board drawn as a fragment: `.` and pieces are its squares, `#` and
    /// squares the fragment leaves out are off the board, in the fragment's
    /// bounding box.
    pub fn from_fragment(f: &crate::core::Fragment) -> Result<Grid, String> {
        if f.is_empty() {
            return Err("a board needs at least one square".into());
        }
        let min_x = f.cells().map(|(q, _)| q.x).min().unwrap();
        let max_x = f.cells().map(|(q, _)| q.x).max().unwrap();
        let min_y = f.cells().map(|(q, _)| q.y).min().unwrap();
        let max_y = f.cells().map(|(q, _)| q.y).max().unwrap();
        let mut g = Grid::off(Square::new(min_x, min_y), max_x - min_x + 1, max_y - min_y + 1);
        for (q, c) in f.cells() {
            match c {
                crate::core::Cell::Is(content) => g.put(q, Some(content)),
                crate::core::Cell::Off => {}
                crate::core::Cell::Poi => return Err("a board has no `%` cell".into()),
            }
        }
        Ok(g)
    }

    /// The castling rights or en passant square of a FEN that the loaded
    /// rules cannot hold, having declared no marker pieces: what
    /// `from_fen_state` leaves out.
    pub fn fen_state_dropped(fen: &str) -> Option<String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let dropped: Vec<&str> = fields.iter().skip(2).take(2).copied().filter(|f| *f != "-").collect();
        (Markers::declared().is_none() && !dropped.is_empty()).then(|| dropped.join(" "))
    }

    /// A FEN position: the placement, and, when a rule file has declared
    /// the marker pieces `'Kc 'Rc 'Pe` and their black twins, castling
    /// rights as kings and rooks that have not moved and the en passant
    /// square as the pawn that has just moved two squares. Returns the board
    /// and whether black is to move.
    pub fn from_fen_state(fen: &str) -> Result<(Grid, bool), BoardError> {
        let mut g = Grid::from_fen(fen)?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let black = match fields.get(1) {
            None | Some(&"w") => false,
            Some(&"b") => true,
            Some(s) => {
                return Err(BoardError {
                    message: format!("the side to move is `w` or `b`, not `{s}`"),
                    at: fen.find(s).unwrap_or(0),
                })
            }
        };
        let at = |field: usize| fields[..field].iter().map(|f| f.len() + 1).sum::<usize>();
        // Without marker pieces the rights have nowhere to go; callers
        // warn (`fen_rights_kept`).
        let Some(markers) = Markers::declared() else {
            return Ok((g, black));
        };
        let piece = |p: PieceId| Some(Content::Piece(p));
        if let Some(rights) = fields.get(2).filter(|r| **r != "-") {
            for (i, c) in rights.char_indices() {
                let (king, rook, y, rook_x) = match c {
                    'K' => (markers.king[0], markers.rook[0], 0, 7),
                    'Q' => (markers.king[0], markers.rook[0], 0, 0),
                    'k' => (markers.king[1], markers.rook[1], 7, 7),
                    'q' => (markers.king[1], markers.rook[1], 7, 0),
                    _ => {
                        return Err(BoardError {
                            message: format!("`{c}` is not a castling right (KQkq)"),
                            at: at(2) + i,
                        })
                    }
                };
                let colour = if y == 0 { 'K' } else { 'k' };
                let want = |x: i32, letter: char| -> Result<(), BoardError> {
                    if g.letter(Square::new(x, y)) != Some(letter) {
                        return Err(BoardError {
                            message: format!(
                                "castling right `{c}` needs a {} on {}",
                                if letter.eq_ignore_ascii_case(&'k') {
                                    "king"
                                } else {
                                    "rook"
                                },
                                Square::new(x, y).name()
                            ),
                            at: at(2) + i,
                        });
                    }
                    Ok(())
                };
                want(4, colour)?;
                want(rook_x, if y == 0 { 'R' } else { 'r' })?;
                g.put(Square::new(4, y), piece(king));
                g.put(Square::new(rook_x, y), piece(rook));
            }
        }
        if let Some(ep) = fields.get(3).filter(|e| **e != "-") {
            let bad = |m: String| BoardError { message: m, at: at(3) };
            // The square lies behind a pawn of the side that just moved.
            let (rank, side) = if black { (2, "black") } else { (5, "white") };
            let sq = Square::parse_prefix(ep)
                .filter(|(_, rest)| rest.is_empty())
                .map(|(q, _)| q)
                .filter(|q| q.y == rank && (0..8).contains(&q.x))
                .ok_or_else(|| {
                    bad(format!(
                        "`{ep}` is not an en passant square: with {side} to move it is on rank {}",
                        rank + 1
                    ))
                })?;
            // The pawn that moved two squares stands beyond the square.
            let (pawn, y, letter) = if sq.y == 2 {
                (markers.pawn[0], 3, 'P')
            } else {
                (markers.pawn[1], 4, 'p')
            };
            let q = Square::new(sq.x, y);
            if g.letter(q) != Some(letter) {
                return Err(bad(format!("en passant `{ep}` needs a pawn on {}", q.name())));
            }
            g.put(q, piece(pawn));
        }
        Ok((g, black))
    }

    /// The board in FEN (an 8×8 chess board), with castling rights and the
    /// en passant square read off the marker pieces.
    pub fn to_fen(&self, black_to_move: bool) -> Result<String, String> {
        if self.width != 8 || self.height != 8 {
            return Err("FEN describes 8×8 boards".into());
        }
        let letter = |c: Content| -> Result<Option<char>, String> {
            match c {
                Content::Empty => Ok(None),
                Content::Piece(p) => p
                    .letter()
                    .filter(|l| "pnbrqkPNBRQK".contains(*l))
                    .map(Some)
                    .ok_or_else(|| format!("{p} has no FEN letter")),
            }
        };
        let mut ranks = vec![];
        for y in (0..8).rev() {
            let mut rank = String::new();
            let mut empty = 0;
            for x in 0..8 {
                let q = Square::new(self.origin.x + x, self.origin.y + y);
                match self.get(q).map(letter).transpose()?.flatten() {
                    Some(l) => {
                        if empty > 0 {
                            rank.push_str(&empty.to_string());
                            empty = 0;
                        }
                        rank.push(l);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                rank.push_str(&empty.to_string());
            }
            ranks.push(rank);
        }
        let mut castling = String::new();
        let mut ep = "-".to_string();
        if let Some(m) = Markers::declared() {
            let at = |x: i32, y: i32| self.get(Square::new(self.origin.x + x, self.origin.y + y));
            let is = |x, y, p: PieceId| at(x, y) == Some(Content::Piece(p));
            for (right, k, r, y, rx) in [
                ('K', m.king[0], m.rook[0], 0, 7),
                ('Q', m.king[0], m.rook[0], 0, 0),
                ('k', m.king[1], m.rook[1], 7, 7),
                ('q', m.king[1], m.rook[1], 7, 0),
            ] {
                if is(4, y, k) && is(rx, y, r) {
                    castling.push(right);
                }
            }
            // Only the side that just moved can have a pawn to take en
            // passant: the other side's marker is cleared by its next ply.
            for x in 0..8 {
                if black_to_move && is(x, 3, m.pawn[0]) {
                    ep = Square::new(x, 2).name();
                }
                if !black_to_move && is(x, 4, m.pawn[1]) {
                    ep = Square::new(x, 5).name();
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if black_to_move { "b" } else { "w" };
        Ok(format!("{} {side} {castling} {ep} 0 1", ranks.join("/")))
    }

    /// The board as text rows, top to bottom, over its whole box.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .rev()
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.get(Square::new(self.origin.x + x, self.origin.y + y)) {
                        None => "#".to_string(),
                        Some(c) => c.to_string(),
                    })
                    .collect()
            })
            .collect()
    }

    /// The same board in the smallest box holding every on-board square.
    pub fn trimmed(&self) -> Grid {
        let on: Vec<Square> = self
            .squares
            .iter()
            .copied()
            .filter(|q| self.get(*q).is_some())
            .collect();
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

    /// Squares where `self` and `other` (boards of the same box) differ.
    pub fn diff(&self, other: &Grid) -> Vec<Square> {
        self.squares
            .iter()
            .copied()
            .filter(|q| self.get(*q) != other.get(*q))
            .collect()
    }
}

impl Grid {
    fn key(&self) -> (Square, i32, i32, &[u8]) {
        (self.origin, self.width, self.height, &self.cells)
    }
}

/// The squares of a box, row by row from the bottom. Boxes come in few
/// shapes, so each list is made once and shared for good: cloning a board
/// then copies its cells and nothing else.
fn square_list(origin: Square, width: i32, height: i32) -> &'static [Square] {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Key = (Square, i32, i32);
    static LISTS: OnceLock<Mutex<HashMap<Key, &'static [Square]>>> = OnceLock::new();
    let mut lists = LISTS.get_or_init(Default::default).lock().unwrap();
    lists.entry((origin, width, height)).or_insert_with(|| {
        let squares: Vec<Square> = (0..height)
            .flat_map(|y| (0..width).map(move |x| Square::new(origin.x + x, origin.y + y)))
            .collect();
        Box::leak(squares.into_boxed_slice())
    })
}

/// The marker pieces a chess rule file declares for what FEN records beyond
/// the placement: kings and rooks that may castle, and a pawn that may be
/// taken en passant; white's, then black's.
struct Markers {
    king: [PieceId; 2],
    rook: [PieceId; 2],
    pawn: [PieceId; 2],
}

impl Markers {
    fn declared() -> Option<Markers> {
        let id = |s: &str| PieceId::lookup(s);
        Some(Markers {
            king: [id("'Kc")?, id("'kc")?],
            rook: [id("'Rc")?, id("'rc")?],
            pawn: [id("'Pe")?, id("'pe")?],
        })
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
            squares: self.squares,
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

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rows().join("/"))
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.rows() {
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

impl Store for Grid {
    type Unknown = Infallible;
    type Value = u8;

    fn squares(&self) -> &[Square] {
        self.squares
    }

    fn candidates(&self, c: Content) -> smallvec::SmallVec<[Square; 16]> {
        memchr::memchr_iter(encode(c), &self.cells)
            .map(|i| self.squares[i])
            .collect()
    }

    #[inline]
    fn reads(&self, q: Square, set: &super::compile::CellSet) -> Result<bool, Infallible> {
        // Stored bytes are the set's codes: `.` 0, pieces 1.., `#` 255.
        Ok(set.contains_code(self.index(q).map_or(OFF, |i| self.cells[i])))
    }

    #[inline]
    fn on_board(&self, q: Square) -> Result<bool, Infallible> {
        Ok(self.index(q).is_some_and(|i| self.cells[i] != OFF))
    }

    #[inline]
    fn holds(&self, q: Square, c: Content) -> Result<bool, Infallible> {
        Ok(self.index(q).is_some_and(|i| self.cells[i] == encode(c)))
    }

    fn value(&self, q: Square) -> u8 {
        self.cells[self.index(q).expect("on the board")]
    }

    fn set(&mut self, q: Square, c: Content) {
        let i = self.index(q).expect("on the board");
        self.cells[i] = encode(c);
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
    fn text_round_trips_and_bottom_left_is_origin() {
        let g = Grid::parse("♖..\n♙#♙").unwrap();
        assert_eq!(g.rows(), vec!["♖..", "♙#♙"]);
        assert_eq!(
            g.get(Square::new(0, 0)),
            Some(Content::Piece(PieceId::lookup("♙").unwrap()))
        );
        assert_eq!(g.get(Square::new(1, 0)), None);
        assert_eq!(g.size(), 5);
        assert_eq!(Grid::parse("♖../♙#♙").unwrap(), g);
        assert_eq!(Grid::parse("'R../'P#'P").unwrap(), g);
    }

    #[test]
    fn bad_text_is_rejected() {
        assert!(Grid::parse("♖..\n♙").unwrap_err().message.contains("differ in length"));
        assert!(Grid::parse("x").unwrap_err().message.contains("unknown piece"));
    }

    #[test]
    fn fen_start_position() {
        let g = Grid::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(g.rows()[0], "♜♞♝♛♚♝♞♜");
        assert_eq!(g.rows()[7], "♖♘♗♕♔♗♘♖");
        assert!(Grid::from_fen("8/8").is_err());
        assert!(Grid::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR").is_err());
    }
}
