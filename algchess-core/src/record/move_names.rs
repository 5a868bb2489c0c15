//! Naming squares and moves: files `a`, `b`, ... from the left and ranks
//! `1`, `2`, ... from the bottom, as in chess. On a hex grid, cells are
//! named as on Gliński's board: files `a`-`l` without `j`, each ranked from
//! its lowest cell (`f1` the bottom of the sixth file; see
//! `Grid::hex_name`).

use crate::geometry::{Square, Tiling};
use crate::ir::{Content, Pieces};
use crate::semantics::{Change, Code, Grid};

/// The name of cell `q` of `board` on `tiling`: `e4`, or on hex `f5`.
pub fn cell_name(board: &Grid, tiling: Tiling, q: Square) -> String {
    match tiling {
        Tiling::Square => q.name(),
        Tiling::Hex => board.hex_name(q),
    }
}

/// The cell of `board` whose name starts `s`, and the rest of `s`.
pub fn cell_prefix<'s>(board: &Grid, tiling: Tiling, s: &'s str) -> Option<(Square, &'s str)> {
    match tiling {
        Tiling::Square => Square::parse_prefix(s),
        Tiling::Hex => board.hex_cell_prefix(s),
    }
}

/// What a square is drawn as (see [`Pieces::looks_like`]).
pub fn looks(c: Content, pieces: &Pieces) -> Content {
    match c {
        Content::Piece(p) => Content::Piece(pieces.looks_like(p)),
        Content::Empty => c,
    }
}

/// A chess move in the notation engines use (`e2e4`, `e7e8q`, castling as
/// the king's move `e1g1`), read off the two boards; `None` when the change
/// is not one piece moving. Pieces are told apart by the letter of their
/// ASCII spelling (`'P`, and a marker such as `'Pe` is a pawn too).
pub fn uci(before: &Grid, after: &Grid, pieces: &Pieces) -> Option<String> {
    uci_on(before, after, Tiling::Square, pieces)
}

/// [`uci`] with cells named on `tiling`: `f5f6` on Gliński's board.
pub fn uci_on(before: &Grid, after: &Grid, tiling: Tiling, pieces: &Pieces) -> Option<String> {
    let name = |q: Square| cell_name(before, tiling, q);
    let (from, to, promotion) = moved(before, after, pieces)?;
    let promotion = promotion.map(|p| p.to_string()).unwrap_or_default();
    Some(format!("{}{}{promotion}", name(from), name(to)))
}

/// The one piece a move moves, as UCI names it: from, to, and the piece
/// it becomes (lowercase) when it changes on the way.
pub fn moved(before: &Grid, after: &Grid, pieces: &Pieces) -> Option<(Square, Square, Option<char>)> {
    let letter = |v: u8| match Code::to_content(v) {
        Some(Content::Piece(p)) => pieces.letter(p),
        _ => None,
    };
    moved_by(before, &before.change_to(after), letter)
}

/// [`moved`] for the move that makes `change` on `before`, with `letter`
/// the letter of a code's piece.
pub fn moved_by(
    before: &Grid,
    change: &Change,
    letter: impl Fn(u8) -> Option<char>,
) -> Option<(Square, Square, Option<char>)> {
    let was = |q: Square| letter(before.code(q));
    // In the board's order, so that ties go as on the board.
    let mut change = change.clone();
    change.sort_unstable_by_key(|(q, _)| (q.y, q.x));
    // A square whose piece only lost a marker (`'Pe` to `'P`) did not move.
    let filled = || {
        change
            .iter()
            .filter_map(|&(q, v)| letter(v).filter(|l| Some(*l) != was(q)).map(|l| (q, l)))
    };
    // The moving piece: the king when castling, else the one piece that
    // arrives somewhere.
    let (to, piece) = filled().min_by_key(|(_, k)| if k.eq_ignore_ascii_case(&'k') { 0 } else { 1 })?;
    let from = change
        .iter()
        .filter(|(_, v)| letter(*v).is_none())
        .map(|c| c.0)
        .find(|q| {
            let k = was(*q);
            k == Some(piece)
                || (k.is_some_and(|k| k.eq_ignore_ascii_case(&'p'))
                    && k.map(|k| k.is_uppercase()) == Some(piece.is_uppercase()))
        })?;
    let moved = was(from)?;
    Some((from, to, (moved != piece).then(|| piece.to_ascii_lowercase())))
}

/// A move named by what changed: `e2e4` when one piece moved to an empty
/// square or took there, `e7e8=♕` when it changed on the way; otherwise the
/// changed squares with what they now hold, `e1=. f1=♖ g1=♔ h1=.`.
pub fn describe(before: &Grid, after: &Grid, pieces: &Pieces) -> String {
    describe_on(before, after, Tiling::Square, pieces)
}

/// [`describe`] with cells named on `tiling`.
pub fn describe_on(before: &Grid, after: &Grid, tiling: Tiling, pieces: &Pieces) -> String {
    let name = |q: Square| cell_name(before, tiling, q);
    let holds = |g: &Grid, q: Square| g.get(q).unwrap_or(Content::Empty);
    let looks = |c: Content| looks(c, pieces);
    // Squares whose piece only gained or lost a marker (`♙` to `'Pe`) are
    // left out while anything else changed.
    let all = before.diff(after);
    let seen: Vec<Square> = all
        .iter()
        .copied()
        .filter(|q| looks(holds(before, *q)) != looks(holds(after, *q)))
        .collect();
    let changed = if seen.is_empty() { all } else { seen };
    if let [a, b] = changed[..] {
        for (from, to) in [(a, b), (b, a)] {
            let moved = holds(before, from);
            if holds(after, from) == Content::Empty && moved != Content::Empty {
                let now = holds(after, to);
                let named = format!("{}{}", name(from), name(to));
                return if looks(now) == looks(moved) {
                    named
                } else {
                    format!("{named}={}", pieces.show(&looks(now)))
                };
            }
        }
    }
    changed
        .iter()
        .map(|q| format!("{}={}", name(*q), pieces.show(&looks(holds(after, *q)))))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_named_by_their_squares() {
        let chess = Pieces::chess();
        let before = Grid::parse("..\n♙.", &chess).unwrap();
        let step = Grid::parse("♙.\n..", &chess).unwrap();
        assert_eq!(describe(&before, &step, &chess), "a1a2");
        let promoted = Grid::parse("♕.\n..", &chess).unwrap();
        assert_eq!(describe(&before, &promoted, &chess), "a1a2=♕");
        let both = Grid::parse("♙♙\n..", &chess).unwrap();
        assert_eq!(describe(&before, &both, &chess), "a1=. a2=♙ b2=♙");
    }

    #[test]
    fn hex_moves_are_named_as_on_glinskis_board() {
        let chess = Pieces::chess();
        // Two files: a (one cell, lowest at y = 1) and b (two cells).
        let before = Grid::parse_hex("  .\n♙\n  .", &chess).unwrap();
        let after = Grid::parse_hex("  .\n.\n  ♙", &chess).unwrap();
        assert_eq!(describe_on(&before, &after, Tiling::Hex, &chess), "a1b1");
        assert_eq!(uci_on(&before, &after, Tiling::Hex, &chess).as_deref(), Some("a1b1"));
        assert_eq!(describe(&before, &after, &chess), "a2b1");
        let b1 = cell_prefix(&before, Tiling::Hex, "b1x").unwrap();
        assert_eq!((cell_name(&before, Tiling::Hex, b1.0).as_str(), b1.1), ("b1", "x"));
    }

    #[test]
    fn engine_names_cover_promotion_and_castling() {
        let chess = Pieces::chess();
        let before = Grid::parse("....\n♙...", &chess).unwrap();
        let promoted = Grid::parse("♕...\n....", &chess).unwrap();
        assert_eq!(uci(&before, &promoted, &chess).as_deref(), Some("a1a2q"));
        let castle = Grid::parse("♖..♔", &chess).unwrap();
        let castled = Grid::parse(".♔♖.", &chess).unwrap();
        assert_eq!(uci(&castle, &castled, &chess).as_deref(), Some("d1b1"));
        assert_eq!(uci(&castle, &castle, &chess), None);
    }
}
