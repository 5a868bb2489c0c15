//! Naming squares and moves: files `a`, `b`, ... from the left and ranks
//! `1`, `2`, ... from the bottom, as in chess.

use crate::core::Content;
use crate::geometry::Square;
use crate::semantics::Grid;

/// `e2` for `(4, 1)`.
pub fn square_name(q: Square) -> String {
    let file = if (0..26).contains(&q.x) {
        ((b'a' + q.x as u8) as char).to_string()
    } else {
        format!("[{}]", q.x)
    };
    format!("{file}{}", q.y + 1)
}

/// A move named by what changed: `e2e4` when one piece moved to an empty
/// square or took there, `e7e8=♕` when it changed on the way; otherwise the
/// changed squares with what they now hold, `e1=. f1=♖ g1=♔ h1=.`.
pub fn describe(before: &Grid, after: &Grid) -> String {
    let changed = before.diff(after);
    let holds = |g: &Grid, q: Square| g.get(q).unwrap_or(Content::Empty);
    if let [a, b] = changed[..] {
        for (from, to) in [(a, b), (b, a)] {
            let moved = holds(before, from);
            if holds(after, from) == Content::Empty && moved != Content::Empty {
                let now = holds(after, to);
                let name = format!("{}{}", square_name(from), square_name(to));
                return if now == moved { name } else { format!("{name}={now}") };
            }
        }
    }
    changed
        .iter()
        .map(|q| format!("{}={}", square_name(*q), holds(after, *q)))
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
        assert_eq!(square_name(Square::new(4, 1)), "e2");
    }
}
