//! Fusion: two rules anchored on the piece of interest, run one after the
//! other, as one rule.
//!
//! `(f1 -> g1)(f2 -> g2)`, with `%` in both `f1` and `f2`. The first rule
//! applies at the one translation that puts `f1`'s `%` on the POI; it leaves
//! the POI at `p1` (where `g1` writes `%`, or where it was). The second rule
//! then applies at the one translation that puts `f2`'s `%` on `p1`, so its
//! frame is fixed: shift it by `p1 - s2`. In the first rule's frame:
//!
//! - **Guard.** Each cell `c` of the shifted `f2` must read `c` after the
//!   first rule. On a square `g1` writes, the read is what `g1` wrote (`%` on
//!   `p1`); on `p1` it is `%`; on a square only `f1` reads, it is what `f1`
//!   matched. Any disagreement means the pair never applies: `fail`. Any
//!   other square adds `c` to the fused guard `f1 + ...`.
//! - **Write.** The fused write is `g1` overwritten by the shifted `g2`. A
//!   `#` of one on a square the other needs on the board is a clash: `fail`.
//! - **POI.** The fused rule must leave the POI where the pair does, with
//!   the same content. When it cannot (the POI's content would stand on two
//!   squares; the pair unbinds the POI but the fused rule would not; the
//!   second rule reads the POI's old square, whose content the fused guard
//!   cannot name), there is no fusion.

use crate::geometry::{Movement, Square};
use crate::ir::{Cell, Fragment};
use std::collections::BTreeMap;

/// What fusing two rules gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fusion {
    /// One rule, `f -> g`, with the same results.
    Rule(Fragment, Fragment),
    /// The pair never applies.
    Fail,
    /// No single rule says the same; the pair stays as it is.
    None,
}

fn on_board(c: Cell) -> bool {
    c != Cell::Off
}

/// Whether a rule's own cells contradict each other about the board: a
/// square `f` needs on the board and `g` needs off it, or the reverse.
pub(crate) fn contradictory(f: &Fragment, g: &Fragment) -> bool {
    g.cells()
        .any(|(s, c)| f.get(s).is_some_and(|r| on_board(r) != on_board(c)))
}

pub(crate) fn fuse(f1: &Fragment, g1: &Fragment, f2: &Fragment, g2: &Fragment) -> Fusion {
    let (Some(s1), Some(s2)) = (f1.poi(), f2.poi()) else {
        return Fusion::None;
    };
    if contradictory(f1, g1) {
        return Fusion::Fail;
    }
    // Where the first rule leaves the POI.
    let p1 = match g1.poi() {
        Some(q) => q,
        // Writing over the POI unbinds it, and the anchored second rule
        // then never applies.
        None if g1.get(s1).is_some() => return Fusion::Fail,
        None => s1,
    };
    let shift = Movement::translation(p1.x - s2.x, p1.y - s2.y);
    let (f2, g2) = (f2.shifted(&shift), g2.shifted(&shift));

    let mut guard: BTreeMap<Square, Cell> = f1.cells().collect();
    for (s, c) in f2.cells() {
        let after = if let Some(w) = g1.get(s) {
            Some(w)
        } else if s == p1 {
            Some(Cell::Poi)
        } else if s == s1 {
            // The POI moved away and left its content here: on the board,
            // neither `#` nor `%`, and otherwise unknown to a guard.
            match c {
                Cell::Off | Cell::Poi => return Fusion::Fail,
                Cell::Is(_) => return Fusion::None,
            }
        } else {
            f1.get(s)
        };
        match after {
            Some(a) if a != c => return Fusion::Fail,
            Some(_) => {}
            None => {
                guard.insert(s, c);
            }
        }
    }
    // What is known of each square's place on the board.
    let known = |s: Square| -> Option<bool> {
        if s == s1 || s == p1 {
            return Some(true);
        }
        g1.get(s).or_else(|| guard.get(&s).copied()).map(on_board)
    };
    for (s, c) in g2.cells() {
        if known(s).is_some_and(|on| on != on_board(c)) {
            return Fusion::Fail;
        }
    }
    // The POI after the pair, and the fused write.
    let mut write: BTreeMap<Square, Cell> = g1.cells().collect();
    for (s, c) in g2.cells() {
        write.insert(s, c);
    }
    match g2.poi() {
        Some(sp) => {
            // The pair's POI content stands only on `sp`, unless `g1` put a
            // copy on `p1` that `g2` leaves there.
            if g1.poi().is_some() && p1 != sp && g2.get(p1).is_none() {
                return Fusion::None;
            }
        }
        None => {
            if g2.get(p1).is_some() && p1 != s1 && g1.get(s1).is_none() {
                // The pair unbinds the POI; the fused rule, writing nothing
                // on the POI's square, would keep it.
                return Fusion::None;
            }
        }
    }
    let f = Fragment::from_cells(guard).expect("the guard has one `%`, from f1");
    match Fragment::from_cells(write) {
        Ok(g) => Fusion::Rule(f, g),
        // Two `%` cells: excluded above, but never a wrong answer.
        Err(_) => Fusion::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::ir::{gen, Node, Term};
    use crate::semantics::{compile, results, State, Store};

    fn frag(text: &str) -> Fragment {
        let t = Program::from_text("t", "").unwrap().expr("e", text).unwrap();
        match t.node() {
            Node::Frag(f) => f.clone(),
            _ => panic!("not a fragment: {text}"),
        }
    }

    #[test]
    fn appendix_a_steps_fuse_into_the_double_step() {
        let (f, g) = (frag("% + u."), frag(". + u%"));
        assert_eq!(
            fuse(&f, &g, &f, &g),
            Fusion::Rule(frag("% + u. + uu."), frag(". + u. + uu%"))
        );
    }

    #[test]
    fn inconsistent_pairs_fail() {
        // The first step empties the square the second step needs a pawn on.
        assert_eq!(
            fuse(&frag("% + u."), &frag(". + u%"), &frag("% + d♙"), &frag("%")),
            Fusion::Fail
        );
        // Writing over the POI unbinds it.
        assert_eq!(fuse(&frag("%"), &frag("."), &frag("%"), &frag("%")), Fusion::Fail);
    }

    /// On random anchored rules and random boards with every POI square,
    /// the fused rule gives exactly the pair's results.
    #[test]
    fn fusion_agrees_with_running_the_pair() {
        let mut fused = 0;
        for seed in 0..3000u64 {
            let mut g = crate::rng::Rng::new(seed);
            let anchored = |g: &mut crate::rng::Rng| {
                let f = gen::fragment(g, false);
                f.glue(&Fragment::single(Cell::Poi))
                    .unwrap_or_else(|_| Fragment::single(Cell::Poi))
            };
            let (f1, f2) = (anchored(&mut g), anchored(&mut g));
            let (g1, g2) = (gen::fragment(&mut g, true), gen::fragment(&mut g, true));
            let rule = |f: &Fragment, g: &Fragment| Term::rule(&Term::fragment(f.clone()), &Term::fragment(g.clone()));
            let pair = compile(&Term::seq(&rule(&f1, &g1), &rule(&f2, &g2))).unwrap();
            let one = match fuse(&f1, &g1, &f2, &g2) {
                Fusion::Rule(f, g) => {
                    fused += 1;
                    compile(&rule(&f, &g)).unwrap()
                }
                Fusion::Fail => compile(&Term::fail()).unwrap(),
                Fusion::None => continue,
            };
            let board = crate::semantics::Grid::random(&mut g, 3, 3);
            for q in board.squares().iter() {
                if board.get(q).is_none() {
                    continue;
                }
                let s = State {
                    board: board.clone(),
                    poi: Some(q),
                };
                let set = |p| {
                    results(p, &s)
                        .unwrap()
                        .into_iter()
                        .collect::<std::collections::BTreeSet<_>>()
                };
                assert_eq!(
                    set(&pair),
                    set(&one),
                    "{f1:?} -> {g1:?} then {f2:?} -> {g2:?} on\n{:?} POI {q}",
                    s.board
                );
            }
        }
        assert!(fused > 300, "only {fused} pairs fused");
    }
}
