//! FEN, chess's notation for positions, read and written for boards of
//! rule files: the piece placement, and, when a rule file declares the
//! marker pieces `'Kc 'Rc 'Pe` and their black twins, castling rights as
//! kings and rooks that have not moved and the en passant square as the
//! pawn that has just moved two squares.

use crate::core::{Content, PieceId};
use crate::geometry::Square;
use crate::semantics::{BoardError, Grid};

/// Parses the piece-placement field of a FEN string (further fields are
/// ignored here) into an 8×8 board; a1 is `(0, 0)`. A letter is a chess
/// piece's, or a piece declared with that one-letter spelling.
pub fn placement(fen: &str) -> Result<Grid, BoardError> {
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
                // Chess's letters, and any piece a rule file spells with one
                // ASCII letter (`piece 'A / 'a`).
                let p = PieceId::lookup(&format!("'{c}"))
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| BoardError {
                        message: format!("`{c}` is not a FEN piece letter, nor a piece declared as `'{c}`"),
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

/// The castling rights or en passant square of a FEN that the loaded
/// rules cannot hold, having declared no marker pieces: what
/// `read` leaves out.
pub fn dropped(fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let dropped: Vec<&str> = fields.iter().skip(2).take(2).copied().filter(|f| *f != "-").collect();
    (Markers::declared().is_none() && !dropped.is_empty()).then(|| dropped.join(" "))
}

/// A FEN position: the placement, and, when a rule file has declared
/// the marker pieces `'Kc 'Rc 'Pe` and their black twins, castling
/// rights as kings and rooks that have not moved and the en passant
/// square as the pawn that has just moved two squares. Returns the board
/// and whether black is to move.
pub fn read(fen: &str) -> Result<(Grid, bool), BoardError> {
    let mut g = placement(fen)?;
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
/// en passant square read off the marker pieces, and the move counters
/// `0 1` (see [`write_counted`]).
pub fn write(g: &Grid, black_to_move: bool) -> Result<String, String> {
    write_counted(g, black_to_move, 0, 1)
}

/// The half-move clock and the full-move number of a FEN: `0 1` when it
/// leaves them out.
pub fn counters(fen: &str) -> Result<(u32, u32), BoardError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut out = [0, 1];
    for (i, f) in fields.iter().enumerate().skip(4).take(2) {
        out[i - 4] = f
            .parse::<u32>()
            .ok()
            .filter(|n| i == 4 || *n >= 1)
            .ok_or_else(|| BoardError {
                message: format!(
                    "`{f}` is not a {}",
                    if i == 4 {
                        "half-move clock (0 or more)"
                    } else {
                        "full-move number (1 or more)"
                    }
                ),
                at: fields[..i].iter().map(|f| f.len() + 1).sum(),
            })?;
    }
    if fields.len() > 6 {
        return Err(BoardError {
            message: "a FEN has at most six fields".into(),
            at: fields[..6].iter().map(|f| f.len() + 1).sum(),
        });
    }
    Ok((out[0], out[1]))
}

/// The markers of a pawn that may be taken en passant, white's and
/// black's, when the rules declare them.
pub fn en_passant_markers() -> Option<[PieceId; 2]> {
    Markers::declared().map(|m| m.pawn)
}

/// [`write`] with the half-move clock and full-move number given.
pub fn write_counted(g: &Grid, black_to_move: bool, halfmove: u32, fullmove: u32) -> Result<String, String> {
    if g.width() != 8 || g.height() != 8 {
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
            let q = Square::new(g.origin().x + x, g.origin().y + y);
            match g.get(q).map(letter).transpose()?.flatten() {
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
        let at = |x: i32, y: i32| g.get(Square::new(g.origin().x + x, g.origin().y + y));
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
    Ok(format!(
        "{} {side} {castling} {ep} {halfmove} {fullmove}",
        ranks.join("/")
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_start_position() {
        let g = placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(g.rows()[0], "♜♞♝♛♚♝♞♜");
        assert_eq!(g.rows()[7], "♖♘♗♕♔♗♘♖");
        assert!(placement("8/8").is_err());
        assert!(placement("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR").is_err());
    }
}
