//! How a game ends, as its rule file declares it with
//! `game NAME KIND: A, B, ...` after `game NAME(BOARD) = ...`:
//!
//! - `check: T_1, ..., T_n`: the side to move is in check when its test
//!   (one per turn, or one for all) has a result on the position;
//! - `lost: T_1, ..., T_n`: the side to move has lost when its test holds
//!   (tic-tac-toe: the other side has made a line);
//! - `stuck: E, ...`: what a side with no legal move means, the first that
//!   applies: `checkmate` (in check: a loss), `stalemate` (not in check: a
//!   draw), `stalemate(A, B)` (not in check: the point is split `A` to `B`
//!   between the side that gave stalemate and the side stuck, so
//!   Gliński's `stalemate(3, 1)` scores 3/4-1/4, `stalemate(1, 1)` is a
//!   draw and `stalemate(1, 0)` a win), `pass` (the turn passes, unless the
//!   next side is stuck too), `most_pieces` (the side with more pieces
//!   wins), `loss`, `draw`;
//! - `draws: R, ...`: the draw rules: `fifty_moves(P, ...)` (50 moves
//!   without a capture or a move of a piece `P` may be claimed, 75 end the
//!   game), `repetition` (a third occurrence of a position may be claimed, a
//!   fifth ends the game), `insufficient_material` (chess's: no mate can
//!   follow).

use super::expr::{Elab, Scope, Stop};
use crate::core::{PieceId, Sort, Term};
use crate::diag::{Diag, Source};
use crate::parse::ast::{Expr, ExprKind, Ident};

/// What a side with no legal move means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    Checkmate,
    /// Not in check: the point split between the side that gave stalemate
    /// and the side stuck.
    Stalemate(Split),
    Pass,
    MostPieces,
    Loss,
    Draw,
}

/// A point split `A` to `B` between two sides: each gets its part of
/// `A + B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split(pub u32, pub u32);

impl Split {
    /// An even split.
    pub const DRAW: Split = Split(1, 1);

    /// The parts as fractions of the point in lowest terms, `(numerator,
    /// denominator)` each: `3, 1` is `(3, 4)` and `(1, 4)`.
    pub fn fractions(self) -> [(u32, u32); 2] {
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let total = self.0 + self.1;
        [self.0, self.1].map(|part| {
            let g = gcd(part, total).max(1);
            (part / g, total / g)
        })
    }
}

/// The largest part of a split: keeps the sum far from overflow.
const MAX_PART: i64 = 1000;

/// A game's end declarations, elaborated.
#[derive(Clone, Debug, Default)]
pub struct Ends {
    /// Per turn: the side to move is in check.
    pub check: Option<Vec<Term>>,
    /// Per turn: the side to move has lost.
    pub lost: Option<Vec<Term>>,
    pub stuck: Vec<Stuck>,
    /// The pieces whose moves reset the fifty-move count, when the rule
    /// applies.
    pub fifty_moves: Option<Vec<PieceId>>,
    pub repetition: bool,
    pub insufficient_material: bool,
}

const STUCK: [(&str, Stuck); 6] = [
    ("checkmate", Stuck::Checkmate),
    ("stalemate", Stuck::Stalemate(Split::DRAW)),
    ("pass", Stuck::Pass),
    ("most_pieces", Stuck::MostPieces),
    ("loss", Stuck::Loss),
    ("draw", Stuck::Draw),
];

fn word(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Word(w) => Some(w),
        ExprKind::Paren(e) => word(e),
        _ => None,
    }
}

/// The split of `stalemate(A, B)`: two whole numbers, not both 0.
fn split(parts: &[Expr]) -> Result<Split, String> {
    let nums: Vec<i64> = parts
        .iter()
        .filter_map(|p| match p.kind {
            ExprKind::Num(n) => Some(n),
            _ => None,
        })
        .collect();
    match nums[..] {
        [a, b]
            if nums.len() == parts.len() && (0..=MAX_PART).contains(&a) && (0..=MAX_PART).contains(&b) && a + b > 0 =>
        {
            Ok(Split(a as u32, b as u32))
        }
        _ => Err(format!(
            "`stalemate(A, B)` splits the point A to B between the side that gave stalemate and the side stuck: \
             two whole numbers from 0 to {MAX_PART}, not both 0, as in `stalemate(3, 1)`"
        )),
    }
}

/// Adds declaration `kind: args` to `ends`, for a game of `turns` turns.
pub(crate) fn declare(
    el: &Elab,
    (src, source): (usize, &Source),
    ends: &mut Ends,
    turns: usize,
    kind: &Ident,
    args: &[Expr],
) -> Result<(), Stop> {
    let bad = |e: &Expr, m: String| -> Stop { Diag::new(source, e.span, m).into() };
    match kind.name.as_str() {
        "check" | "lost" => {
            if args.len() != 1 && args.len() != turns {
                return Err(Diag::new(
                    source,
                    kind.span,
                    format!(
                        "`{}` takes one test for every turn, or one for all: {turns} or 1, not {}",
                        kind.name,
                        args.len()
                    ),
                )
                .into());
            }
            let sc = Scope {
                src,
                vars: im::HashMap::new(),
                metas: false,
            };
            let mut tests = vec![];
            for a in args {
                let t = el.expr(&sc, a)?;
                if t.sort() != Sort::Move || t.is_open() {
                    return Err(bad(
                        a,
                        format!("a `{}` test is a closed move, not a {}", kind.name, t.sort()),
                    ));
                }
                tests.push(t);
            }
            let tests = if tests.len() == 1 {
                vec![tests[0].clone(); turns]
            } else {
                tests
            };
            if kind.name == "check" {
                ends.check = Some(tests);
            } else {
                ends.lost = Some(tests);
            }
        }
        "stuck" => {
            for a in args {
                let (w, s) = match &a.kind {
                    ExprKind::Call(f, parts) if f.name == "stalemate" => {
                        ("stalemate", Stuck::Stalemate(split(parts).map_err(|m| bad(a, m))?))
                    }
                    _ => {
                        let w = word(a).unwrap_or("");
                        let Some((_, s)) = STUCK.iter().find(|(n, _)| *n == w) else {
                            let names: Vec<&str> = STUCK.iter().map(|(n, _)| *n).collect();
                            return Err(bad(
                                a,
                                format!("a `stuck` end is one of {}, or `stalemate(A, B)`", names.join(", ")),
                            ));
                        };
                        (w, *s)
                    }
                };
                if matches!(s, Stuck::Checkmate | Stuck::Stalemate(_)) && ends.check.is_none() {
                    return Err(bad(a, format!("`{w}` needs the game's `check` declared before it")));
                }
                ends.stuck.push(s);
            }
        }
        "draws" => {
            for a in args {
                match &a.kind {
                    ExprKind::Call(f, pieces) if f.name == "fifty_moves" => {
                        let mut ids = vec![];
                        for p in pieces {
                            let ExprKind::Piece(name) = &p.kind else {
                                return Err(bad(
                                    p,
                                    "`fifty_moves` takes the pieces whose moves reset its count".into(),
                                ));
                            };
                            ids.push(PieceId::lookup(name).ok_or_else(|| bad(p, format!("`{name}` is not a piece")))?);
                        }
                        ends.fifty_moves = Some(ids);
                    }
                    _ => match word(a) {
                        Some("repetition") => ends.repetition = true,
                        Some("insufficient_material") => ends.insufficient_material = true,
                        _ => {
                            return Err(bad(
                                a,
                                "a draw rule is `fifty_moves(PIECES)`, `repetition` or `insufficient_material`".into(),
                            ))
                        }
                    },
                }
            }
        }
        other => {
            return Err(Diag::new(
                source,
                kind.span,
                format!("`game NAME {other}:` is not an end declaration: use check, lost, stuck or draws"),
            )
            .into())
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::elab::{Program, Split, Stuck};

    const GAME: &str = "b = ♙;.\nstep = %♙: (% + u. -> . + u%)\ngame g(b) = step, step\n";

    fn error(decl: &str) -> String {
        match Program::from_text("ends.alg", &format!("{GAME}{decl}\n")) {
            Ok(_) => panic!("{decl} accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn end_declarations_are_read() {
        let text = format!(
            "{GAME}game g check: step\ngame g stuck: checkmate, stalemate\ngame g draws: fifty_moves(♙), repetition\n"
        );
        let prog = Program::from_text("ends.alg", &text).unwrap();
        let ends = &prog.games()[0].ends;
        assert_eq!(ends.check.as_ref().map(Vec::len), Some(2));
        assert_eq!(ends.stuck, [Stuck::Checkmate, Stuck::Stalemate(Split::DRAW)]);
        assert_eq!(ends.fifty_moves.as_ref().map(Vec::len), Some(1));
        assert!(ends.repetition && !ends.insufficient_material);
    }

    #[test]
    fn a_stalemate_may_split_the_point() {
        let text = format!("{GAME}game g check: step\ngame g stuck: checkmate, stalemate(3, 1)\n");
        let prog = Program::from_text("ends.alg", &text).unwrap();
        assert_eq!(
            prog.games()[0].ends.stuck,
            [Stuck::Checkmate, Stuck::Stalemate(Split(3, 1))]
        );
        assert_eq!(Split(3, 1).fractions(), [(3, 4), (1, 4)]);
        assert_eq!(Split(2, 2).fractions(), [(1, 2), (1, 2)]);
        assert_eq!(Split(1, 0).fractions(), [(1, 1), (0, 1)]);
    }

    #[test]
    fn bad_end_declarations_are_errors() {
        assert!(error("game h stuck: draw").contains("no game `h`"));
        assert!(error("game g wins: step").contains("not an end declaration"));
        assert!(error("game g check: step, step, step").contains("one test for every turn"));
        assert!(error("game g check: ♙").contains("closed move"));
        assert!(error("game g stuck: resign").contains("a `stuck` end is one of"));
        assert!(error("game g stuck: checkmate").contains("needs the game's `check`"));
        assert!(error("game g stuck: stalemate(3, 1)").contains("needs the game's `check`"));
        for bad in [
            "stalemate(3)",
            "stalemate(0, 0)",
            "stalemate(3, ♙)",
            "stalemate(1, 1001)",
            "stalemate(1, 2, 3)",
        ] {
            assert!(
                error(&format!("game g check: step\ngame g stuck: {bad}")).contains("two whole numbers"),
                "{bad}"
            );
        }
        assert!(error("game g draws: fifty_moves(step)").contains("pieces whose moves reset"));
        assert!(error("game g draws: often").contains("a draw rule is"));
    }
}
