//! Naming squares and moves: files `a`, `b`, ... from the left and ranks
//! `1`, `2`, ... from the bottom, as in chess.

use crate::core::Content;
use crate::geometry::Square;
use crate::semantics::Grid;

/// What a square is drawn as (see [`crate::core::PieceId::looks_like`]).
pub fn looks(c: Content) -> Content {
    match c {
        Content::Piece(p) => Content::Piece(p.looks_like()),
        Content::Empty => c,
    }
}

/// A chess move in the notation engines use (`e2e4`, `e7e8q`, castling as
/// the king's move `e1g1`), read off the two boards; `None` when the change
/// is not one piece moving. Pieces are told apart by the letter of their
/// ASCII spelling (`'P`, and a marker such as `'Pe` is a pawn too).
pub fn uci(before: &Grid, after: &Grid) -> Option<String> {
    let changed = before.diff(after);
    let emptied: Vec<Square> = changed.iter().copied().filter(|q| after.letter(*q).is_none()).collect();
    // A square whose piece only lost a marker (`'Pe` to `'P`) did not move.
    let filled: Vec<Square> = changed
        .iter()
        .copied()
        .filter(|q| after.letter(*q).is_some() && after.letter(*q) != before.letter(*q))
        .collect();
    // The moving piece: the king when castling, else the one piece that
    // arrives somewhere.
    let (to, piece) = filled
        .iter()
        .filter_map(|q| Some((*q, after.letter(*q)?)))
        .min_by_key(|(_, k)| if k.eq_ignore_ascii_case(&'k') { 0 } else { 1 })?;
    let from = emptied.into_iter().find(|q| {
        let k = before.letter(*q);
        k == Some(piece)
            || (k.is_some_and(|k| k.eq_ignore_ascii_case(&'p'))
                && k.map(|k| k.is_uppercase()) == Some(piece.is_uppercase()))
    })?;
    let moved = before.letter(from)?;
    let promotion = if moved != piece {
        piece.to_ascii_lowercase().to_string()
    } else {
        String::new()
    };
    Some(format!("{}{}{promotion}", from.name(), to.name()))
}

/// A move named by what changed: `e2e4` when one piece moved to an empty
/// square or took there, `e7e8=♕` when it changed on the way; otherwise the
/// changed squares with what they now hold, `e1=. f1=♖ g1=♔ h1=.`.
pub fn describe(before: &Grid, after: &Grid) -> String {
    let holds = |g: &Grid, q: Square| g.get(q).unwrap_or(Content::Empty);
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
                let name = format!("{}{}", from.name(), to.name());
                return if looks(now) == looks(moved) {
                    name
                } else {
                    format!("{name}={}", looks(now))
                };
            }
        }
    }
    changed
        .iter()
        .map(|q| format!("{}={}", q.name(), looks(holds(after, *q))))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_named_by_their_squares() {
        let before = Grid::parse("..\n♙.").unwrap();
        let step = Grid::parse("♙.\n..").unwrap();
        assert_eq!(describe(&before, &step), "a1a2");
        let promoted = Grid::parse("♕.\n..").unwrap();
        assert_eq!(describe(&before, &promoted), "a1a2=♕");
        let both = Grid::parse("♙♙\n..").unwrap();
        assert_eq!(describe(&before, &both), "a1=. a2=♙ b2=♙");
    }

    #[test]
    fn engine_names_cover_promotion_and_castling() {
        let before = Grid::parse("....\n♙...").unwrap();
        let promoted = Grid::parse("♕...\n....").unwrap();
        assert_eq!(uci(&before, &promoted).as_deref(), Some("a1a2q"));
        let castle = Grid::parse("♖..♔").unwrap();
        let castled = Grid::parse(".♔♖.").unwrap();
        assert_eq!(uci(&castle, &castled).as_deref(), Some("d1b1"));
        assert_eq!(uci(&castle, &castle), None);
    }
}
