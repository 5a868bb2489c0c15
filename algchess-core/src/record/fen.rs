//! FEN, chess's notation for positions, read and written for boards of
//! rule files: the piece placement, and, when a rule file declares the
//! marker pieces `'Kc 'Rc 'Pe` and their black twins, castling rights as
//! kings and rooks that have not moved and the en passant square as the
//! pawn that has just moved two squares.

use crate::geometry::Square;
use crate::ir::{Content, PieceId, Pieces};
use crate::play::markers::{rights, Markers, MAX_SIDE};
use crate::semantics::{BoardError, Grid};

/// Parses the piece-placement field of a FEN string (further fields are
/// ignored here) into a board as wide as its ranks and as tall as their
/// number, as Fairy-Stockfish writes boards other than 8×8 (`10` for ten
/// empty squares); a1 is `(0, 0)`. A letter is a chess piece's, or a
/// piece `pieces` declares with that one-letter spelling.
pub fn placement(fen: &str, pieces: &Pieces) -> Result<Grid, BoardError> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() < 2 || ranks.len() > MAX_SIDE {
        return Err(BoardError {
            message: format!(
                "a FEN board has 2 to {MAX_SIDE} ranks separated by `/`, this one has {}",
                ranks.len()
            ),
            at: 0,
        });
    }
    // Each rank as its squares: `None` empty, or a piece.
    let mut rows: Vec<Vec<Option<PieceId>>> = vec![];
    let mut at = 0;
    for (ri, rank) in ranks.iter().enumerate() {
        let rank_start = at;
        let mut row = vec![];
        let mut chars = rank.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c.is_ascii_digit() {
                // Saturating: a run of digits longer than any board is
                // refused below, however long.
                let mut n = c.to_digit(10).expect("a digit") as usize;
                let mut end = i + 1;
                while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(d.to_digit(10).expect("a digit") as usize);
                    end = j + 1;
                    chars.next();
                }
                if n == 0 || row.len().saturating_add(n) > MAX_SIDE {
                    let n = &rank[i..end];
                    return Err(BoardError {
                        message: format!("`{n}` empty squares do not fit a FEN rank of at most {MAX_SIDE}"),
                        at: at + i,
                    });
                }
                row.extend(std::iter::repeat_n(None, n));
            } else {
                // Chess's letters, and any piece a rule file spells with one
                // ASCII letter (`piece 'A / 'a`).
                let p = pieces
                    .lookup(&format!("'{c}"))
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| BoardError {
                        message: format!("`{c}` is not a FEN piece letter, nor a piece declared as `'{c}`"),
                        at: at + i,
                    })?;
                row.push(Some(p));
            }
        }
        if let Some(first) = rows.first().map(Vec::len).filter(|w| *w != row.len()) {
            return Err(BoardError {
                message: format!(
                    "FEN rank {} has {} squares, and rank {} has {first}",
                    ranks.len() - ri,
                    row.len(),
                    ranks.len()
                ),
                at: rank_start,
            });
        }
        if row.is_empty() {
            return Err(BoardError {
                message: format!("FEN rank {} is empty", ranks.len() - ri),
                at: rank_start,
            });
        }
        rows.push(row);
        at += rank.len() + 1;
    }
    let (width, height) = (rows[0].len() as i32, rows.len() as i32);
    let mut g = Grid::off(Square::ORIGIN, width, height);
    for (ri, row) in rows.iter().enumerate() {
        let y = height - 1 - ri as i32;
        for (x, p) in row.iter().enumerate() {
            g.put(Square::new(x as i32, y), Some(p.map_or(Content::Empty, Content::Piece)));
        }
    }
    Ok(g)
}

/// The castling rights or en passant square of a FEN that the loaded
/// rules cannot hold, having declared no marker pieces: what
/// `read` leaves out.
pub fn dropped(fen: &str, pieces: &Pieces) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let dropped: Vec<&str> = fields.iter().skip(2).take(2).copied().filter(|f| *f != "-").collect();
    (Markers::declared(pieces).is_none() && !dropped.is_empty()).then(|| dropped.join(" "))
}

/// A FEN position: the placement, and, when a rule file has declared
/// the marker pieces `'Kc 'Rc 'Pe` and their black twins, castling
/// rights as kings and rooks that have not moved and the en passant
/// square as the pawn that has just moved two squares. Returns the board
/// and whether black is to move.
pub fn read(fen: &str, pieces: &Pieces) -> Result<(Grid, bool), BoardError> {
    let mut g = placement(fen, pieces)?;
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
    let Some(markers) = Markers::declared(pieces) else {
        return Ok((g, black));
    };
    let piece = |p: PieceId| Some(Content::Piece(p));
    let (width, top) = (g.width(), g.height() - 1);
    if let Some(rights) = fields.get(2).filter(|r| **r != "-") {
        for (i, c) in rights.char_indices() {
            // A file letter names the rook (Shredder-FEN, and X-FEN for a
            // rook that is not the outermost).
            let file = (c.to_ascii_lowercase() as i32) - ('a' as i32);
            // `K` and `Q` stand for the outermost rook even on boards with
            // a k- or q-file.
            let outermost = matches!(c, 'K' | 'Q' | 'k' | 'q');
            let named = (!outermost && c.is_ascii_alphabetic() && (0..width).contains(&file)).then_some(file);
            let (king, rook, y, short) = match c {
                'K' => (markers.king[0], markers.rook[0], 0, true),
                'Q' => (markers.king[0], markers.rook[0], 0, false),
                'k' => (markers.king[1], markers.rook[1], top, true),
                'q' => (markers.king[1], markers.rook[1], top, false),
                c if named.is_some() && c.is_ascii_uppercase() => (markers.king[0], markers.rook[0], 0, true),
                _ if named.is_some() => (markers.king[1], markers.rook[1], top, true),
                _ => {
                    return Err(BoardError {
                        message: format!("`{c}` is not a castling right (KQkq, or a rook's file)"),
                        at: at(2) + i,
                    })
                }
            };
            let (k, r) = if y == 0 { ('K', 'R') } else { ('k', 'r') };
            let on_rank = |letter: char| -> Vec<i32> {
                (0..width)
                    .filter(|x| g.letter(Square::new(*x, y), pieces) == Some(letter))
                    .collect()
            };
            let missing = |what: &str| BoardError {
                message: format!("castling right `{c}` needs a {what} on rank {}", y + 1),
                at: at(2) + i,
            };
            // The king, and the outermost rook on the side the right names.
            let king_x = *on_rank(k).first().ok_or_else(|| missing("king"))?;
            let rooks = on_rank(r);
            let rook_x = if let Some(x) = named {
                rooks.into_iter().find(|r| *r == x)
            } else if short {
                rooks.into_iter().rfind(|x| *x > king_x)
            } else {
                rooks.into_iter().find(|x| *x < king_x)
            };
            let rook_x = rook_x.ok_or_else(|| {
                missing(if named.is_some() {
                    "rook on the file it names"
                } else if short {
                    "rook right of the king"
                } else {
                    "rook left of the king"
                })
            })?;
            g.put(Square::new(king_x, y), piece(king));
            g.put(Square::new(rook_x, y), piece(rook));
        }
    }
    if let Some(ep) = fields.get(3).filter(|e| **e != "-") {
        let bad = |m: String| BoardError { message: m, at: at(3) };
        // The square lies behind a pawn of the side that just moved.
        let (rank, side) = if black { (2, "black") } else { (top - 2, "white") };
        let sq = Square::parse_prefix(ep)
            .filter(|(_, rest)| rest.is_empty())
            .map(|(q, _)| q)
            .filter(|q| q.y == rank && (0..width).contains(&q.x))
            .ok_or_else(|| {
                bad(format!(
                    "`{ep}` is not an en passant square: with {side} to move it is on rank {}",
                    rank + 1
                ))
            })?;
        // The pawn that moved two squares stands beyond the square.
        let (pawn, y, letter) = if black {
            (markers.pawn[0], 3, 'P')
        } else {
            (markers.pawn[1], top - 3, 'p')
        };
        let q = Square::new(sq.x, y);
        if g.letter(q, pieces) != Some(letter) {
            return Err(bad(format!("en passant `{ep}` needs a pawn on {}", q.name())));
        }
        g.put(q, piece(pawn));
    }
    Ok((g, black))
}

/// Why a board cannot be written in FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The board has more files or ranks than FEN can name.
    TooLarge,
    /// A piece on the board (its glyph) has no one-letter ASCII spelling.
    NoLetter(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::TooLarge => write!(f, "FEN boards have at most {MAX_SIDE} files and ranks"),
            WriteError::NoLetter(p) => write!(f, "{p} has no FEN letter (declare it with one: `piece 'A / 'a`)"),
        }
    }
}

impl std::error::Error for WriteError {}

/// The board in FEN (any size, as Fairy-Stockfish writes it), with castling rights and the
/// en passant square read off the marker pieces, and the move counters
/// `0 1` (see [`write_counted`]).
pub fn write(g: &Grid, black_to_move: bool, pieces: &Pieces) -> Result<String, WriteError> {
    write_counted(g, black_to_move, 0, 1, pieces)
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
pub fn en_passant_markers(pieces: &Pieces) -> Option<[PieceId; 2]> {
    Markers::declared(pieces).map(|m| m.pawn)
}

/// [`write()`] with the half-move clock and full-move number given.
pub fn write_counted(
    g: &Grid,
    black_to_move: bool,
    halfmove: u32,
    fullmove: u32,
    pieces: &Pieces,
) -> Result<String, WriteError> {
    let (width, height) = (g.width(), g.height());
    if width as usize > MAX_SIDE || height as usize > MAX_SIDE {
        return Err(WriteError::TooLarge);
    }
    // A piece spelled with one letter (`'A`), or a marker that extends
    // one (`'Kc` is a `K`).
    let letter = |c: Content| -> Result<Option<char>, WriteError> {
        match c {
            Content::Empty => Ok(None),
            Content::Piece(p) => pieces
                .ascii(pieces.looks_like(p))
                .filter(|a| a.len() == 2 && a.chars().nth(1).is_some_and(|l| l.is_ascii_alphabetic()))
                .and_then(|a| a.chars().nth(1))
                .map(Some)
                .ok_or_else(|| WriteError::NoLetter(pieces.glyph(p).to_string())),
        }
    };
    let mut ranks = vec![];
    for y in (0..height).rev() {
        let mut rank = String::new();
        let mut empty = 0;
        for x in 0..width {
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
    if let Some(m) = Markers::declared(pieces) {
        let r = rights(g, &m, black_to_move, pieces);
        for c in &r.castling {
            let letter = match (c.outermost, c.short) {
                (true, true) => 'K',
                (true, false) => 'Q',
                (false, _) => (b'A' + c.rook.x as u8) as char,
            };
            castling.push(if c.white { letter } else { letter.to_ascii_lowercase() });
        }
        if let Some(q) = r.en_passant {
            ep = q.name();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_start_position() {
        let chess = Pieces::chess();
        let g = placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &chess).unwrap();
        assert_eq!(g.rows(&chess)[0], "♜♞♝♛♚♝♞♜");
        assert_eq!(g.rows(&chess)[7], "♖♘♗♕♔♗♘♖");
        assert!(placement("8", &chess).is_err());
        assert!(placement("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR", &chess).is_err());
    }

    fn declare(text: &str) -> Pieces {
        crate::elab::Program::from_text("t.alg", text).unwrap().pieces().clone()
    }

    #[test]
    fn boards_of_any_size_round_trip() {
        let pieces = declare("piece 'Kc / 'kc\npiece 'Rc / 'rc\npiece 'Pe / 'pe\npiece 'A / 'a\npiece 'C / 'c\n");
        for fen in [
            // Capablanca's start, and a position of it with black to take
            // en passant and one right left on each side.
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "r4kbcnr/pppp1ppppp/10/10/3pP5/10/PPPP1PPPPP/RNABQK3R b Kq e3 0 1",
            // Los Alamos (6×6), and a board twelve squares wide.
            "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
            "r4k5r/12/12/12/12/12/12/12/12/12/12/R4K5R w KQkq - 0 1",
        ] {
            let (g, black) = read(fen, &pieces).unwrap();
            assert_eq!(write(&g, black, &pieces).unwrap(), fen);
        }
        let (g, _) = read(
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            &pieces,
        )
        .unwrap();
        assert_eq!((g.width(), g.height()), (10, 8));
        assert_eq!(g.rows(&pieces)[7], "'Rc♘'A♗♕'Kc♗'C♘'Rc");
    }

    #[test]
    fn bad_boards_are_named() {
        let chess = Pieces::chess();
        let e = placement("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR", &chess).unwrap_err();
        assert!(
            e.message.contains("rank 6 has 9 squares, and rank 8 has 8"),
            "{}",
            e.message
        );
        assert_eq!(e.at, 18);
        assert!(placement("8", &chess).is_err());
        let e = placement("8/0/8", &chess).unwrap_err();
        assert!(e.message.contains("`0` empty squares"), "{}", e.message);
        let e = placement("99/99", &chess).unwrap_err();
        assert!(e.message.contains("do not fit"), "{}", e.message);
        let e = placement("8/7?", &chess).unwrap_err();
        assert!(e.message.contains("`?` is not a FEN piece letter"), "{}", e.message);
        assert_eq!(e.at, 3);
    }
}
