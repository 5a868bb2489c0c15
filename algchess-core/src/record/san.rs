//! Standard Algebraic Notation, read and written for the moves of a chess
//! position: `Nf3`, `exd5`, `Rae1`, `e8=Q`, `O-O`; and UCI's long
//! algebraic notation (`g1f3`, `e7e8q`) read too. A move is told by what
//! changes between the boards (see [`super::move_names::uci`]), so this
//! works for any rules whose pieces have one-letter spellings (`'A` is
//! `A`) and boards up to 26 squares wide and tall.

use super::error::MoveError;
use super::move_names;
use crate::geometry::Square;
use crate::play::game::Unchecked;
use crate::play::pieces::CodeTable;
use crate::play::Rules;
use crate::semantics::{Change, Grid};

/// One piece's move, as SAN sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    /// `P N B R Q K`.
    piece: char,
    from: Square,
    to: Square,
    capture: bool,
    /// The piece a pawn becomes, uppercase.
    promotion: Option<char>,
    /// Castling: `Some(true)` short, `Some(false)` long.
    castle: Option<bool>,
    /// Castling: where the rook stood (UCI's Chess960 castling names the
    /// king's move onto it: `e1h1`).
    rook: Option<Square>,
}

/// A king and a rook of one side moving together, the rook ending on the
/// king's other side: castling, however far each goes (Chess960's king
/// may stay put, or swap squares with its rook).
fn castling(before: &Grid, change: &Change, pieces: &CodeTable) -> Option<Parts> {
    if !(2..=4).contains(&change.len()) {
        return None;
    }
    // Each changed square's letter before and after, read once, in the
    // board's order.
    type Cell = (Square, Option<char>, Option<char>);
    let mut cells: smallvec::SmallVec<[Cell; 4]> = change
        .iter()
        .map(|&(q, v)| (q, pieces.letter(before.code(q)), pieces.letter(v)))
        .collect();
    cells.sort_unstable_by_key(|c| (c.0.y, c.0.x));
    let (k, r) = match cells.iter().find_map(|c| c.1.filter(|l| matches!(l, 'R' | 'r'))) {
        Some('R') => ('K', 'R'),
        Some(_) => ('k', 'r'),
        None => return None,
    };
    let moved = || cells.iter().filter(|c| c.1 != c.2);
    // The rook moves; the king moves too, or only loses its right.
    let only = |l: Option<char>| l.is_none() || l == Some(k) || l == Some(r);
    if !moved().all(|c| only(c.1) && only(c.2)) {
        return None;
    }
    let from = cells.iter().find(|c| c.1 == Some(k))?.0;
    let to = cells.iter().find(|c| c.2 == Some(k))?.0;
    let rook_from = moved().find(|c| c.1 == Some(r))?.0;
    let rook_to = moved().find(|c| c.2 == Some(r))?.0;
    if rook_from == rook_to || from.y != to.y || rook_to.y != to.y {
        return None;
    }
    Some(Parts {
        piece: 'K',
        from,
        to,
        capture: false,
        promotion: None,
        castle: Some(rook_to.x < to.x),
        rook: Some(rook_from),
    })
}

fn parts(before: &Grid, change: &Change, pieces: &CodeTable) -> Option<Parts> {
    if let Some(p) = castling(before, change, pieces) {
        return Some(p);
    }
    let (from, to, promo) = move_names::moved_by(before, change, |v| pieces.letter(v))?;
    let piece = pieces.letter(before.code(from))?.to_ascii_uppercase();
    // A king going two squares or more along its rank castles.
    let castle = (piece == 'K' && to.y == from.y && (to.x - from.x).abs() >= 2).then_some(to.x > from.x);
    Some(Parts {
        piece,
        from,
        to,
        capture: pieces.letter(before.code(to)).is_some() || (piece == 'P' && from.x != to.x),
        promotion: promo.map(|c| c.to_ascii_uppercase()),
        castle,
        rook: None,
    })
}

fn file(q: Square) -> char {
    (b'a' + q.x as u8) as char
}

/// `q`'s rank, from 1, as SAN writes it.
fn push_rank(s: &mut String, q: Square) {
    use std::fmt::Write;
    let _ = write!(s, "{}", q.y + 1);
}

/// `q`'s name, as SAN writes it: `e4`.
fn push_square(s: &mut String, q: Square) {
    s.push(file(q));
    push_rank(s, q);
}

/// The parts of the moves that write square `q`, with their indices:
/// every move that could go there, or take a rook that stands there.
fn writing<'a>(
    before: &'a Grid,
    moves: &'a [Change],
    pieces: &'a CodeTable,
    q: Square,
) -> impl Iterator<Item = (usize, Parts)> + 'a {
    moves
        .iter()
        .enumerate()
        .filter(move |(_, c)| c.iter().any(|w| w.0 == q))
        .filter_map(move |(i, c)| Some((i, parts(before, c, pieces)?)))
}

/// Move `i` of `moves` (the changes legal on `before`) in SAN, without
/// the check mark; disambiguated by file, rank or square only as needed.
/// A move that is not one piece moving is named by its squares.
pub(crate) fn write(before: &Grid, moves: &[Change], rules: &Rules, i: usize) -> String {
    let pieces = &rules.codes;
    let Some(p) = parts(before, &moves[i], pieces) else {
        let mut after = before.clone();
        after.apply(&moves[i]);
        return move_names::describe(before, &after, &rules.pieces);
    };
    let rivals: Vec<Parts> = match (p.castle, p.piece) {
        (None, 'P') | (Some(_), _) => vec![],
        _ => writing(before, moves, pieces, p.to).map(|(_, q)| q).collect(),
    };
    name(&p, &rivals)
}

/// The SAN of the move `p` among the moves `among` that write its square
/// (itself among them or not).
fn name(p: &Parts, among: &[Parts]) -> String {
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
        let rivals: smallvec::SmallVec<[&Parts; 4]> = among
            .iter()
            .filter(|q| q.piece == p.piece && q.to == p.to && q.from != p.from)
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|r| r.from.x == p.from.x);
            let same_rank = rivals.iter().any(|r| r.from.y == p.from.y);
            if !same_file {
                s.push(file(p.from));
            } else if !same_rank {
                push_rank(&mut s, p.from);
            } else {
                push_square(&mut s, p.from);
            }
        }
        if p.capture {
            s.push('x');
        }
    }
    push_square(&mut s, p.to);
    if let Some(q) = p.promotion {
        s.push('=');
        s.push(q);
    }
    s
}

/// What a SAN or UCI text asks for.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wanted {
    piece: char,
    from_file: Option<i32>,
    from_rank: Option<i32>,
    to: Option<Square>,
    promotion: Option<char>,
    castle: Option<bool>,
}

/// The text without check marks and annotations (`+ # ! ? e.p.`), with
/// `0-0` read as `O-O`.
fn clean(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_suffix("e.p.").unwrap_or(t).trim_end();
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    match t {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        _ => t,
    }
}

fn wanted(text: &str) -> Option<Wanted> {
    let t = clean(text);
    match t {
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
    if !t.is_ascii() || t.is_empty() {
        return None;
    }
    let b = t.as_bytes();
    // A square at `at`: a file letter and a rank of one or two digits
    // (boards up to 26 wide and tall), and where it ends.
    let square = |at: usize| -> Option<(Square, usize)> {
        let f = *b.get(at).filter(|f| f.is_ascii_lowercase())?;
        let digits = b[at + 1..].iter().take(2).take_while(|d| d.is_ascii_digit()).count();
        let rank: i32 = t
            .get(at + 1..at + 1 + digits)?
            .parse()
            .ok()
            .filter(|r| (1..=26).contains(r))?;
        Some((Square::new(i32::from(f - b'a'), rank - 1), at + 1 + digits))
    };
    // UCI: two squares, and a promotion letter.
    if let Some((from, end)) = square(0) {
        if let Some((to, end)) = square(end) {
            let promotion = match &b[end..] {
                [] => None,
                [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase() as char),
                _ => return None,
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
    // SAN: a piece's capital (none for a pawn), what tells it from its
    // rivals, the square it goes to, and what a pawn becomes.
    let (piece, mut rest) = match b[0] {
        c if c.is_ascii_uppercase() => (c as char, &t[1..]),
        _ => ('P', t),
    };
    let offset = t.len() - rest.len();
    let mut promotion = None;
    let r = rest.as_bytes();
    if r.len() >= 3 && r[r.len() - 1].is_ascii_alphabetic() && matches!(r[r.len() - 2], b'0'..=b'9' | b'=') {
        promotion = Some(r[r.len() - 1].to_ascii_uppercase() as char);
        rest = rest[..rest.len() - 1].trim_end_matches('=');
    }
    let r = rest.as_bytes();
    // The destination: the last file letter, and the digits after it.
    let at = r.iter().rposition(|c| c.is_ascii_lowercase() && *c != b'x')?;
    let (to, end) = square(offset + at)?;
    if end != offset + r.len() {
        return None;
    }
    let mut w = Wanted {
        piece,
        to: Some(to),
        promotion,
        ..Wanted::default()
    };
    let mut k = 0;
    while k < at {
        match r[k] {
            b'x' | b'-' | b':' => k += 1,
            c if c.is_ascii_lowercase() && w.from_file.is_none() => {
                w.from_file = Some(i32::from(c - b'a'));
                k += 1;
            }
            c if c.is_ascii_digit() && w.from_rank.is_none() => {
                let digits = r[k..at].iter().take_while(|d| d.is_ascii_digit()).count();
                w.from_rank = Some(rest[k..k + digits].parse::<i32>().ok()? - 1);
                k += digits;
            }
            _ => return None,
        }
    }
    Some(w)
}

impl Wanted {
    /// What `text` asks for, when it is SAN or UCI.
    pub(crate) fn parse(text: &str) -> Option<Wanted> {
        wanted(text)
    }

    /// The letter of the piece a SAN moves (`P` for a pawn's, `K` for
    /// castling) and the square it goes to (none for castling); `None`
    /// for UCI.
    pub(crate) fn piece_move(&self) -> Option<(char, Option<Square>)> {
        (self.piece != '?').then_some((self.piece, self.to))
    }
}

/// The legal move (an index into `moves`, the changes legal on `before`)
/// that `w`, read from a SAN, names, with its SAN as [`write`] writes it:
/// `None` when it names none or several. For SAN, the moves that write
/// its square are all a move's rivals, so each is looked at once.
pub(crate) fn read_named(w: &Wanted, before: &Grid, moves: &[Change], pieces: &CodeTable) -> Option<(usize, String)> {
    if w.piece == '?' {
        return None;
    }
    let all: smallvec::SmallVec<[(usize, Parts); 4]> = match w.to {
        Some(q) => writing(before, moves, pieces, q).collect(),
        None => (0..moves.len())
            .filter(|&i| moves[i].len() >= 2)
            .filter_map(|i| Some((i, parts(before, &moves[i], pieces)?)))
            .collect(),
    };
    let mut found = all.iter().filter(|(_, p)| fits(w, p));
    let (i, p) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let among: smallvec::SmallVec<[Parts; 4]> = all.iter().map(|(_, q)| *q).collect();
    Some((*i, name(p, &among)))
}

/// Whether move `p` is what `w` asks for.
fn fits(w: &Wanted, p: &Parts) -> bool {
    if let Some(c) = w.castle {
        return p.castle == Some(c);
    }
    // UCI names castling by the king's move, or (Chess960) by the
    // king's move onto its rook.
    let to = Some(p.to) == w.to || (w.piece == '?' && p.rook.is_some() && p.rook == w.to);
    (w.piece == '?' || p.piece == w.piece)
        && to
        && w.from_file.is_none_or(|f| f == p.from.x)
        && w.from_rank.is_none_or(|r| r == p.from.y)
        && p.promotion == w.promotion
}

/// The legal move (an index into `moves`, the changes legal on `before`)
/// that `text` names, in SAN or UCI; an error that says why when it
/// names none or several.
pub(crate) fn read(text: &str, before: &Grid, moves: &[Change], rules: &Rules) -> Result<usize, MoveError> {
    let pieces = &rules.codes;
    let w = wanted(text).ok_or_else(|| MoveError::NotSan(text.trim().to_string()))?;
    if let Some(to) = w.to.filter(|&q| before.get(q).is_none()) {
        return Err(MoveError::OffBoard {
            text: text.trim().to_string(),
            square: format!("{}{}", file(to), to.y + 1),
        });
    }
    let fits = |p: &Parts| fits(&w, p);
    // A move goes to the square named, or takes the rook there (UCI's
    // Chess960 castling); castling moves a king and a rook.
    let found: smallvec::SmallVec<[usize; 2]> = match w.to {
        Some(q) => writing(before, moves, pieces, q)
            .filter(|(_, p)| fits(p))
            .map(|(i, _)| i)
            .collect(),
        None => (0..moves.len())
            .filter(|&i| moves[i].len() >= 2 && parts(before, &moves[i], pieces).is_some_and(|p| fits(&p)))
            .collect(),
    };
    // In Chess960 a king's step may land where castling puts it: UCI
    // names that castling by the king's move onto its rook, so the text
    // names the step.
    let found: smallvec::SmallVec<[usize; 2]> = if found.len() > 1 && w.piece == '?' {
        let by_landing =
            |i: usize| parts(before, &moves[i], pieces).is_some_and(|p| p.rook.is_some_and(|r| Some(r) != w.to));
        let kept: smallvec::SmallVec<[usize; 2]> = found.iter().copied().filter(|&i| !by_landing(i)).collect();
        if kept.is_empty() {
            found
        } else {
            kept
        }
    } else {
        found
    };
    match found[..] {
        [i] => Ok(i),
        [] => Err(MoveError::NotLegal(text.trim().to_string())),
        _ => {
            let mut names: Vec<String> = found.iter().map(|&i| write(before, moves, rules, i)).collect();
            names.sort();
            Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                could_be: names,
            })
        }
    }
}

/// The moves of `moves` (changes on `before`) that `w` asks for.
fn fitting(w: &Wanted, before: &Grid, moves: &[Change], pieces: &CodeTable) -> Vec<usize> {
    match w.to {
        Some(q) => writing(before, moves, pieces, q)
            .filter(|(_, p)| fits(w, p))
            .map(|(i, _)| i)
            .collect(),
        None => (0..moves.len())
            .filter(|&i| moves[i].len() >= 2 && parts(before, &moves[i], pieces).is_some_and(|p| fits(w, &p)))
            .collect(),
    }
}

/// A piece by its SAN letter, as chess names it.
fn piece_name(letter: char) -> String {
    match letter {
        'K' => "king".into(),
        'Q' => "queen".into(),
        'R' => "rook".into(),
        'B' => "bishop".into(),
        'N' => "knight".into(),
        'P' => "pawn".into(),
        other => format!("`{other}`"),
    }
}

fn square_name(q: Square) -> String {
    let mut s = String::new();
    push_square(&mut s, q);
    s
}

/// Why no legal move (`legal`, the changes legal on `before`) is the one
/// `text` names, where it can be told: the side to move has no such piece,
/// castling out of, through or into check, a move that would leave the
/// king in check, a pawn that must promote or cannot, or a piece that
/// cannot reach the square. `unchecked(Check)` gives the moves the turn
/// makes without its check test, `unchecked(Every)` without any test; the
/// side to move is in check when `in_check`. `None` when the text is no
/// SAN or UCI, or nothing can be told.
pub(crate) fn why_not(
    text: &str,
    before: &Grid,
    legal: &[Change],
    unchecked: &mut dyn FnMut(Unchecked) -> Option<Vec<Change>>,
    in_check: bool,
    pieces: &CodeTable,
) -> Option<String> {
    let w = wanted(text)?;
    let letter = |q: Square| pieces.letter(before.code(q));
    // The side to move, by the case of the pieces its legal moves move.
    let white = legal.iter().find_map(|c| {
        let (from, _, _) = move_names::moved_by(before, c, |v| pieces.letter(v))?;
        Some(letter(from)?.is_ascii_uppercase())
    })?;
    let side = if white { "white" } else { "black" };
    let ours = |q: Square| letter(q).filter(|l| l.is_ascii_uppercase() == white);
    if let Some(short) = w.castle {
        return Some(why_no_castling(&w, short, side, in_check, before, unchecked, pieces));
    }
    let to = w.to?;
    let dest = square_name(to);
    // The pieces the text can mean.
    let from_squares: Vec<Square> = {
        let o = before.origin();
        (0..before.height())
            .flat_map(|y| (0..before.width()).map(move |x| Square::new(o.x + x, o.y + y)))
            .filter(|&q| w.from_file.is_none_or(|f| f == q.x) && w.from_rank.is_none_or(|r| r == q.y))
            .collect()
    };
    let movers: Vec<Square> = if w.piece == '?' {
        let from = *from_squares.first()?;
        match letter(from) {
            None => return Some(format!("there is no piece on {}", square_name(from))),
            Some(l) if l.is_ascii_uppercase() != white => {
                return Some(format!(
                    "the {} on {} is {}'s, and {side} is to move",
                    piece_name(l.to_ascii_uppercase()),
                    square_name(from),
                    if white { "black" } else { "white" }
                ))
            }
            Some(_) => vec![from],
        }
    } else {
        let found: Vec<Square> = from_squares
            .into_iter()
            .filter(|&q| ours(q).is_some_and(|l| l.to_ascii_uppercase() == w.piece))
            .collect();
        if found.is_empty() {
            let on = match (w.from_file, w.from_rank) {
                (Some(f), Some(r)) => format!(" on {}", square_name(Square::new(f, r))),
                (Some(f), None) => format!(" on the {}-file", (b'a' + f as u8) as char),
                (None, Some(r)) => format!(" on rank {}", r + 1),
                (None, None) => " on the board".into(),
            };
            return Some(format!("{side} has no {}{on}", piece_name(w.piece)));
        }
        found
    };
    let what = match movers[..] {
        [q] => format!(
            "the {} on {}",
            piece_name(ours(q).map_or('?', |l| l.to_ascii_uppercase())),
            square_name(q)
        ),
        _ => format!("no {side} {}", piece_name(w.piece)),
    };
    if let Some(m) = unchecked(Unchecked::Check) {
        let found = fitting(&w, before, &m, pieces);
        if let Some(&i) = found.first() {
            let pinned = parts(before, &m[i], pieces).map(|p| p.from);
            return Some(if in_check {
                "the king is in check, and this move does not get it out of check".to_string()
            } else if w.piece == 'K' || movers.iter().all(|&q| ours(q) == Some('K')) {
                format!("the king would move into check on {dest}")
            } else if let Some(q) = pinned {
                format!(
                    "it would leave the king in check (the {} on {} is pinned)",
                    piece_name(ours(q).map_or('?', |l| l.to_ascii_uppercase())),
                    square_name(q)
                )
            } else {
                "it would leave the king in check".to_string()
            });
        }
    }
    if let Some(why) = why_promotion(&w, before, legal, pieces, to, &dest) {
        return Some(why);
    }
    let how = if matches!(movers[..], [_]) { "cannot" } else { "can" };
    Some(format!("{what} {how} move to {dest}"))
}

/// Why castling (`short` or long) is not legal for `side`: out of check,
/// into check, through check, or rights and squares that do not allow it.
fn why_no_castling(
    w: &Wanted,
    short: bool,
    side: &str,
    in_check: bool,
    before: &Grid,
    unchecked: &mut dyn FnMut(Unchecked) -> Option<Vec<Change>>,
    pieces: &CodeTable,
) -> String {
    let name = if short { "O-O" } else { "O-O-O" };
    if in_check {
        return "the king is in check, and a king may not castle out of check".to_string();
    }
    let fits = |moves: Option<Vec<Change>>| moves.is_some_and(|m| !fitting(w, before, &m, pieces).is_empty());
    if fits(unchecked(Unchecked::Check)) {
        return format!("the king would castle into check ({name})");
    }
    if fits(unchecked(Unchecked::Every)) {
        return "the king would pass through check: a square it crosses is attacked".to_string();
    }
    format!(
        "{side} cannot castle {} here: the king or that rook has moved, or a square between them is taken",
        if short { "short" } else { "long" }
    )
}

/// Why a pawn's move to `to` (`dest`) is not legal as written: a
/// promotion left out, asked for off the last rank, or to a piece it may
/// not become; `None` when no legal move to `to` fits `w` but for its
/// promotion.
fn why_promotion(
    w: &Wanted,
    before: &Grid,
    legal: &[Change],
    pieces: &CodeTable,
    to: Square,
    dest: &str,
) -> Option<String> {
    // A pawn's promotion asked for where none is, or left out.
    let any_promotion = Wanted {
        piece: w.piece,
        from_file: w.from_file,
        from_rank: w.from_rank,
        to: w.to,
        promotion: None,
        castle: None,
    };
    let loose: Vec<Parts> = writing(before, legal, pieces, to)
        .map(|(_, p)| p)
        .filter(|p| {
            fits(
                &Wanted {
                    promotion: p.promotion,
                    ..any_promotion.clone()
                },
                p,
            )
        })
        .collect();
    if loose.is_empty() {
        return None;
    }
    let mut can: Vec<char> = loose.iter().filter_map(|p| p.promotion).collect();
    can.dedup();
    let can: Vec<String> = can.iter().map(|c| c.to_string()).collect();
    Some(match w.promotion {
        None => format!(
            "a pawn that reaches {dest} must promote: write `={}`",
            can.join("`, `=")
        ),
        Some(_) if can.is_empty() => format!("a pawn promotes only on the last rank, and {dest} is not on it"),
        Some(c) => format!(
            "a pawn cannot become {}: it may become {}",
            piece_name(c),
            can.join(", ")
        ),
    })
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
        assert!(wanted("N9").is_none());
        // Declared pieces' capitals, and boards past 8×8.
        let w = wanted("Ah5").unwrap();
        assert_eq!((w.piece, w.to), ('A', Some(Square::new(7, 4))));
        let w = wanted("Cbxj10").unwrap();
        assert_eq!((w.piece, w.from_file, w.to), ('C', Some(1), Some(Square::new(9, 9))));
        let w = wanted("R10a9").unwrap();
        assert_eq!((w.from_rank, w.to), (Some(9), Some(Square::new(0, 8))));
        let w = wanted("e8=A").unwrap();
        assert_eq!((w.piece, w.promotion), ('P', Some('A')));
        let w = wanted("a10a9").unwrap();
        assert_eq!((w.piece, w.from_rank, w.to), ('?', Some(9), Some(Square::new(0, 8))));
        assert!(wanted("hello").is_none());
        assert!(wanted("").is_none());
    }
}
