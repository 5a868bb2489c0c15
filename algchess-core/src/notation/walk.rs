//! The shared target of the Parlett and Betza front-ends: Parlett's move
//! sequences, each a list of squares the piece runs down in order, and the
//! grasshopper's hop. Each is written out as a move of the algebra, built
//! as its syntax tree.

use super::tree::{arrow, bar, call, cell, juxt, paren, plus, poi, post, star, word};
use crate::parse::ast::{CountArg, Expr, ExprKind, PostOp};

/// Which destinations a walk may end on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Mode {
    /// An empty square or an enemy piece.
    Both,
    /// An enemy piece only (Parlett's `capture-only`, Betza's `c`).
    Capture,
    /// An empty square only (`non-capture`, Betza's `m`).
    NonCapture,
}

/// Part of a walk: a leap by `jump` (over the squares `via`, which must be
/// empty: a lame leaper), then up to `more` steps by `step` (`None`: any
/// number). Every square landed on is a destination.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Leg {
    pub jump: (i32, i32),
    pub step: (i32, i32),
    pub more: Option<u32>,
    pub via: Vec<(i32, i32)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Kind {
    /// Legs one after the other (Parlett's `and-then`); only the last may
    /// be unlimited.
    Run(Vec<Leg>),
    /// Along `v` over empty squares, over one piece of either colour, and
    /// then: for a grasshopper onto the square just beyond it; for a cannon
    /// onto any square beyond it, over empty ones.
    Hop { v: (i32, i32), cannon: bool },
}

/// One move sequence of Parlett's language, with its flags.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Walk {
    pub kind: Kind,
    pub mode: Mode,
    /// Only from the piece's home rank (`on-initial`, Betza's `i`): the
    /// square two behind it is off the board, as in rules/chess.alg.
    pub initial: bool,
}

/// A vector as a word of movement letters: `(1, 2)` is `uur`.
pub(super) fn movement(v: (i32, i32)) -> String {
    if v == (0, 0) {
        return "1".into();
    }
    let (x, y) = v;
    let mut s = String::new();
    s.push_str(&(if y > 0 { "u" } else { "d" }).repeat(y.unsigned_abs() as usize));
    s.push_str(&(if x > 0 { "r" } else { "l" }).repeat(x.unsigned_abs() as usize));
    s
}

/// `cell`, `v` away from the POI: `u.`, `u enemy`, `u(. | enemy)`. The
/// front-ends never move by `(0, 0)`; if one did, the cell is the POI's.
fn at(v: (i32, i32), cell: Expr) -> Expr {
    if v == (0, 0) {
        return cell;
    }
    let m = movement(v);
    match cell.kind {
        ExprKind::Bar(..) => call(&m, cell),
        _ => juxt(vec![word(&m), cell]),
    }
}

/// What a destination square may hold.
fn target(mode: Mode) -> Expr {
    match mode {
        Mode::Both => bar([cell("."), word("enemy")]),
        Mode::Capture => word("enemy"),
        Mode::NonCapture => cell("."),
    }
}

/// `(% + v<what> + via. -> . + v%)`: the piece moves by `v` onto a square
/// `mode` allows, reading the empty squares `via` on the way.
pub(super) fn rule(v: (i32, i32), mode: Mode, via: &[(i32, i32)]) -> Expr {
    let read = [poi(), at(v, target(mode))]
        .into_iter()
        .chain(via.iter().map(|&q| at(q, cell("."))));
    paren(arrow(plus(read), plus([cell("."), at(v, poi())])))
}

/// A step onto an empty square, after which the walk goes on.
fn step(v: (i32, i32)) -> Expr {
    rule(v, Mode::NonCapture, &[])
}

/// `m` repeated from `lo` to `hi` times, as the terms it adds to a
/// sequence: none when `hi` is 0.
fn power(m: Expr, lo: u32, hi: u32) -> Option<Expr> {
    let n = |k: u32| CountArg::Num(k.into());
    match (lo, hi) {
        (_, 0) => None,
        (0, 1) => Some(post(m, PostOp::Opt)),
        (1, 1) => Some(m),
        (i, j) if i == j => Some(post(m, PostOp::Count(n(i)))),
        (i, j) => Some(post(m, PostOp::Range(n(i), n(j)))),
    }
}

/// The operands of a chain of `|`, left to right.
fn operands(mut e: Expr, out: &mut Vec<Expr>) {
    match std::mem::replace(&mut e.kind, ExprKind::Nil) {
        ExprKind::Bar(a, b) => {
            operands(*a, out);
            operands(*b, out);
        }
        kind => {
            e.kind = kind;
            out.push(e);
        }
    }
}

impl Walk {
    /// The walk as a move of the algebra, for white (forward is up).
    pub(super) fn expr(&self) -> Expr {
        let end = self.mode;
        // The move's alternatives, joined by `|` at the end.
        let mut alts: Vec<Expr> = vec![];
        match &self.kind {
            Kind::Run(legs) => {
                // The legs before the current one, as terms of a sequence.
                let mut prefix: Vec<Expr> = vec![];
                for leg in legs {
                    let land = rule(leg.jump, end, &leg.via);
                    let part = match leg.more {
                        Some(0) => vec![land],
                        None if leg.jump == leg.step && leg.via.is_empty() => {
                            vec![juxt(vec![star(step(leg.step)), rule(leg.step, end, &[])])]
                        }
                        more => {
                            let tail = match more {
                                None => Some(star(step(leg.step))),
                                Some(k) => power(step(leg.step), 0, k - 1),
                            };
                            let mid = std::iter::once(rule(leg.jump, Mode::NonCapture, &leg.via))
                                .chain(tail)
                                .chain([rule(leg.step, end, &[])]);
                            vec![land, juxt(mid.collect())]
                        }
                    };
                    if prefix.is_empty() {
                        alts.extend(part);
                    } else {
                        let mut seq = prefix.clone();
                        seq.push(paren(bar(part)));
                        alts.push(juxt(seq));
                    }
                    prefix.push(rule(leg.jump, Mode::NonCapture, &leg.via));
                    let k = leg.more.unwrap_or(0);
                    prefix.extend(power(step(leg.step), k, k));
                }
            }
            Kind::Hop { v, cannon } => {
                let two = (2 * v.0, 2 * v.1);
                let over = |mode: Mode| {
                    let read = [
                        poi(),
                        at(*v, bar([word("friend"), word("enemy")])),
                        at(two, target(mode)),
                    ];
                    paren(arrow(plus(read), plus([cell("."), at(two, poi())])))
                };
                let beyond = if *cannon {
                    let on = juxt(vec![over(Mode::NonCapture), star(step(*v)), rule(*v, end, &[])]);
                    paren(bar([over(end), on]))
                } else {
                    over(end)
                };
                alts.push(juxt(vec![star(step(*v)), beyond]));
            }
        }
        let body = bar(alts);
        if self.initial {
            // The square two behind is off the board: the home rank.
            let home = || plus([juxt(vec![word("dd"), cell("#")]), poi()]);
            juxt(vec![paren(arrow(home(), home())), paren(body)])
        } else {
            body
        }
    }
}

/// The union of the walks, each once, in a fixed order.
pub(super) fn union(walks: &[Walk]) -> Expr {
    let mut moves: Vec<Expr> = vec![];
    for w in walks {
        let e = w.expr();
        if !moves.contains(&e) {
            moves.push(e);
        }
    }
    // `|` is associative and binds loosest: one chain, as it is read.
    let mut alts = vec![];
    for e in moves {
        operands(e, &mut alts);
    }
    bar(alts)
}

/// The eight images of the leap `(a, b)` under the square's symmetries,
/// each once.
pub(super) fn leaps(a: i32, b: i32) -> Vec<(i32, i32)> {
    let mut out = vec![];
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let p = (sx * x, sy * y);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(jump: (i32, i32), more: Option<u32>) -> Walk {
        Walk {
            kind: Kind::Run(vec![Leg {
                jump,
                step: jump,
                more,
                via: vec![],
            }]),
            mode: Mode::Both,
            initial: false,
        }
    }

    fn text(w: &Walk) -> String {
        crate::parse::print_expr(&w.expr())
    }

    #[test]
    fn movements_are_words_of_letters() {
        assert_eq!(movement((1, 2)), "uur");
        assert_eq!(movement((-3, -1)), "dlll");
        assert_eq!(movement((0, 0)), "1");
    }

    #[test]
    fn a_rider_is_written_as_fairy_alg_writes_it() {
        assert_eq!(
            text(&run((0, 1), None)),
            "(% + u. -> . + u%)* (% + u(. | enemy) -> . + u%)"
        );
        assert_eq!(text(&run((1, 2), Some(0))), "(% + uur(. | enemy) -> . + uur%)");
    }

    #[test]
    fn leaps_are_deduplicated() {
        assert_eq!(leaps(1, 2).len(), 8);
        assert_eq!(leaps(0, 1).len(), 4);
        assert_eq!(leaps(2, 2).len(), 4);
    }
}
