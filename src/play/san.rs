//! Standard Algebraic Notation, read and written for the moves of a chess
//! position: `Nf3`, `exd5`, `Rae1`, `e8=Q`, `O-O`; and UCI's long
//! algebraic notation (`g1f3`, `e7e8q`) read too. A move is told by what
//! changes between the boards (see [`super::notation::uci`]), so this
//! works for any rules whose pieces have chess's letters.

use super::notation;
use super::Position;
use crate::geometry::Square;
use crate::semantics::Grid;

/// One piece's move, as SAN sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    /// `P N B R Q K`.
    piece: char,
    from: Square,
    to: Square,
    capture: bool,
    /// The piece a pawn becomes, uppercase.
    promotion: Option<char>,
    /// Castling: `Some(true)` short, `Some(false)` long.
    castle: Option<bool>,
}

fn parts(before: &Grid, after: &Grid) -> Option<Parts> {
    let uci = notation::uci(before, after)?;
    let (from, rest) = Square::parse_prefix(&uci)?;
    let (to, promo) = Square::parse_prefix(rest)?;
    let piece = before.letter(from)?.to_ascii_uppercase();
    let castle = (piece == 'K' && (to.x - from.x).abs() == 2).then_some(to.x > from.x);
    Some(Parts {
        piece,
        from,
        to,
        capture: before.letter(to).is_some() || (piece == 'P' && from.x != to.x),
        promotion: promo.chars().next().map(|c| c.to_ascii_uppercase()),
        castle,
    })
}

fn file(q: Square) -> char {
    (b'a' + q.x as u8) as char
}

/// Move `i` of `legal` (the positions reachable from `before`) in SAN,
/// without the check mark; disambiguated by file, rank or square only as
/// needed. A move that is not one piece moving is named by its squares.
pub fn write(before: &Grid, legal: &[Position], i: usize) -> String {
    let after = &legal[i].board;
    let Some(p) = parts(before, after) else {
        return notation::describe(before, after);
    };
    if let Some(short) = p.castle {
        return if short { "O-O" } else { "O-O-O" }.into();
    }
    let mut s = String::new();
    if p.piece == 'P' {
        if p.capture {
            s.push(file(p.from));
            s.push('x');
        }
    } else {
        s.push(p.piece);
        let rivals: Vec<Parts> = legal
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .filter_map(|(_, q)| parts(before, &q.board))
            .filter(|q| q.piece == p.piece && q.to == p.to && q.from != p.from)
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|r| r.from.x == p.from.x);
            let same_rank = rivals.iter().any(|r| r.from.y == p.from.y);
            if !same_file {
                s.push(file(p.from));
            } else if !same_rank {
                s.push_str(&(p.from.y + 1).to_string());
            } else {
                s.push_str(&p.from.name());
            }
        }
        if p.capture {
            s.push('x');
        }
    }
    s.push_str(&p.to.name());
    if let Some(q) = p.promotion {
        s.push('=');
        s.push(q);
    }
    s
}

/// What a SAN or UCI text asks for.
#[derive(Debug, Default)]
struct Wanted {
    piece: char,
    from_file: Option<i32>,
    from_rank: Option<i32>,
    to: Option<Square>,
    promotion: Option<char>,
    castle: Option<bool>,
}

/// The text without check marks and annotations (`+ # ! ? e.p.`), with
/// `0-0` read as `O-O`.
fn clean(text: &str) -> String {
    let t = text.trim();
    let t = t.strip_suffix("e.p.").unwrap_or(t).trim_end();
    t.trim_end_matches(['+', '#', '!', '?']).replace('0', "O")
}

fn wanted(text: &str) -> Option<Wanted> {
    let t = clean(text);
    match t.as_str() {
        "O-O" => {
            return Some(Wanted {
                piece: 'K',
                castle: Some(true),
                ..Wanted::default()
            })
        }
        "O-O-O" => {
            return Some(Wanted {
                piece: 'K',
                castle: Some(false),
                ..Wanted::default()
            })
        }
        _ => {}
    }
    let b = t.as_bytes();
    let square = |f: u8, r: u8| {
        ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
            .then(|| Square::new(i32::from(f - b'a'), i32::from(r - b'1')))
    };
    // UCI: two squares, and a promotion letter.
    if (b.len() == 4 || b.len() == 5) && t.is_ascii() {
        if let (Some(from), Some(to)) = (square(b[0], b[1]), square(b[2], b[3])) {
            let promotion = match b.get(4) {
                None => None,
                Some(c) if b"qrbnQRBN".contains(c) => Some(c.to_ascii_uppercase() as char),
                Some(_) => return None,
            };
            return Some(Wanted {
                piece: '?',
                from_file: Some(from.x),
                from_rank: Some(from.y),
                to: Some(to),
                promotion,
                castle: None,
            });
        }
    }
    if !t.is_ascii() || t.is_empty() {
        return None;
    }
    let (piece, mut rest) = match b[0] {
        c @ (b'N' | b'B' | b'R' | b'Q' | b'K') => (c as char, &t[1..]),
        b'P' => ('P', &t[1..]),
        _ => ('P', &t[..]),
    };
    let mut promotion = None;
    if let Some(last) = rest.chars().last().filter(|c| "QRBNqrbn".contains(*c)) {
        promotion = Some(last.to_ascii_uppercase());
        rest = rest[..rest.len() - 1].trim_end_matches('=');
    }
    let r = rest.as_bytes();
    if r.len() < 2 {
        return None;
    }
    let to = square(r[r.len() - 2], r[r.len() - 1])?;
    let mut w = Wanted {
        piece,
        to: Some(to),
        promotion,
        ..Wanted::default()
    };
    for &c in &r[..r.len() - 2] {
        match c {
            b'a'..=b'h' if w.from_file.is_none() => w.from_file = Some(i32::from(c - b'a')),
            b'1'..=b'8' if w.from_rank.is_none() => w.from_rank = Some(i32::from(c - b'1')),
            b'x' | b'-' | b':' => {}
            _ => return None,
        }
    }
    Some(w)
}

/// The legal move (an index into `legal`) that `text` names, in SAN or UCI;
/// an error that says why when it names none or several.
pub fn read(text: &str, before: &Grid, legal: &[Position]) -> Result<usize, String> {
    let w = wanted(text).ok_or_else(|| {
        format!(
            "`{}` is not a move in SAN (`Nf3`, `exd5`, `O-O`) or UCI (`g1f3`)",
            text.trim()
        )
    })?;
    let fits = |p: &Parts| {
        if let Some(c) = w.castle {
            return p.castle == Some(c);
        }
        (w.piece == '?' || p.piece == w.piece)
            && Some(p.to) == w.to
            && w.from_file.is_none_or(|f| f == p.from.x)
            && w.from_rank.is_none_or(|r| r == p.from.y)
            && p.promotion == w.promotion
    };
    let found: Vec<usize> = (0..legal.len())
        .filter(|&i| parts(before, &legal[i].board).is_some_and(|p| fits(&p)))
        .collect();
    match found[..] {
        [i] => Ok(i),
        [] => Err(format!("`{}` is not a legal move here", text.trim())),
        _ => {
            let mut names: Vec<String> = found.iter().map(|&i| write(before, legal, i)).collect();
            names.sort();
            Err(format!(
                "`{}` is ambiguous: it could be {}",
                text.trim(),
                names.join(" or ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_and_spellings_are_read() {
        let w = wanted("exd8=Q+!?").unwrap();
        assert_eq!(
            (w.piece, w.from_file, w.to, w.promotion),
            ('P', Some(4), Some(Square::new(3, 7)), Some('Q'))
        );
        let w = wanted("e8Q").unwrap();
        assert_eq!((w.to, w.promotion), (Some(Square::new(4, 7)), Some('Q')));
        assert_eq!(wanted("0-0-0#").unwrap().castle, Some(false));
        assert_eq!(wanted("O-O??").unwrap().castle, Some(true));
        let w = wanted("Nb1d2").unwrap();
        assert_eq!((w.piece, w.from_file, w.from_rank), ('N', Some(1), Some(0)));
        let w = wanted("e7e8n").unwrap();
        assert_eq!((w.piece, w.promotion), ('?', Some('N')));
        assert!(wanted("Nz9").is_none());
        assert!(wanted("hello").is_none());
        assert!(wanted("").is_none());
    }
}
