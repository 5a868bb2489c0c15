//! What the side conditions of laws decide. Their names and signatures
//! are `elab::Predicate`'s, which elaboration resolves.
//!
//! A condition looks at closed values (the analysis data of an e-class, or
//! an instance of a law) and either fails or holds; some also compute the
//! values of further metavariables, the last `outputs` arguments. Only
//! monotone facts are used: a condition that holds keeps holding as the
//! e-graph grows.

use super::fusion::{fuse, Fusion};
use crate::elab::Predicate;
use crate::ir::{Node, Pieces, Term};

fn count(t: &Term) -> Option<u32> {
    match t.node() {
        Node::Num(n) => Some(*n),
        _ => None,
    }
}

fn num(n: u32) -> Term {
    Term::raw(Node::Num(n))
}

/// Decides a condition on closed inputs (its arguments but the outputs):
/// the outputs when it holds, `None` when it fails or cannot be decided.
pub(crate) fn decide(pred: Predicate, inputs: &[Term], pieces: &Pieces) -> Option<Vec<Term>> {
    let frag = |i: usize| match inputs[i].node() {
        Node::Frag(f) => Some(f.clone()),
        _ => None,
    };
    match pred {
        Predicate::Translation => match inputs[0].node() {
            Node::Mov(m) if m.is_translation() => Some(vec![]),
            _ => None,
        },
        Predicate::Moved => match (inputs[0].node(), inputs[1].node()) {
            (Node::Mov(m), Node::Cell(c)) => Some(vec![Term::content(c.moved(m, pieces))]),
            _ => None,
        },
        Predicate::Succ => count(&inputs[0]).and_then(|i| i.checked_add(1)).map(|j| vec![num(j)]),
        Predicate::Pred => count(&inputs[0]).and_then(|i| i.checked_sub(1)).map(|j| vec![num(j)]),
        Predicate::Less => (count(&inputs[0])? < count(&inputs[1])?).then(Vec::new),
        Predicate::Placed => {
            let cells = |t: &Term| -> Option<Vec<crate::geometry::Square>> {
                let p = t.as_pattern()?;
                Some(
                    p.members()
                        .flat_map(|f| f.cells().map(|(q, _)| q).collect::<Vec<_>>())
                        .collect(),
                )
            };
            let mut all = cells(&inputs[0])?;
            all.extend(cells(&inputs[1])?);
            let low = all.into_iter().min()?;
            let t = crate::geometry::Movement::translation(-low.x, -low.y);
            (!t.is_identity()).then(|| vec![Term::movement(t)])
        }
        Predicate::Before => (inputs[0] < inputs[1]).then(Vec::new),
        Predicate::Never => super::fusion::contradictory(&frag(0)?, &frag(1)?).then(Vec::new),
        Predicate::Fuse => match fuse(&frag(0)?, &frag(1)?, &frag(2)?, &frag(3)?) {
            Fusion::Rule(f, g) => Some(vec![Term::fragment(f), Term::fragment(g)]),
            _ => None,
        },
        Predicate::Guard => {
            let (f, g) = (frag(0)?, frag(1)?);
            if g.is_empty() {
                return None;
            }
            let mut h = f.clone();
            for (s, c) in g.cells() {
                match f.get(s) {
                    Some(r) if r == c => {}
                    None if c == crate::ir::Cell::Off => {
                        h = h.glue(&crate::ir::Fragment::from_cells([(s, c)]).ok()?).ok()?
                    }
                    _ => return None,
                }
            }
            Some(vec![Term::fragment(h)])
        }
        Predicate::OffOnly => {
            let off = |f: &crate::ir::Fragment| f.cells().all(|(_, c)| c == crate::ir::Cell::Off);
            (off(&frag(0)?) && off(&frag(1)?)).then(Vec::new)
        }
        Predicate::Clash => (fuse(&frag(0)?, &frag(1)?, &frag(2)?, &frag(3)?) == Fusion::Fail).then(Vec::new),
    }
}

/// Whether a condition holds with these inputs and outputs, as a proof step
/// claims: the outputs must be what `decide` computes. `before` is only an
/// order for sorting (the prover's is by e-class, not by term), so any step
/// may claim it.
pub(crate) fn verify(pred: Predicate, inputs: &[Term], outputs: &[Term], pieces: &Pieces) -> bool {
    pred == Predicate::Before || decide(pred, inputs, pieces).is_some_and(|o| o == outputs)
}

/// A random input for argument `arg` of a condition, drawn so that the
/// condition is likely to hold, for checking laws on instances; `None`
/// leaves the argument to the generator of its sort.
pub(crate) fn sample_input(pred: Predicate, arg: usize, g: &mut crate::rng::Rng) -> Option<Term> {
    use crate::geometry::Square;
    use crate::ir::{gen, Cell as C, Fragment as F};
    match (pred, arg) {
        (Predicate::Translation, 0) => {
            let m = gen::movement(g);
            Some(Term::movement(crate::geometry::Movement::translation(
                m.shift.x, m.shift.y,
            )))
        }
        // A square the guard needs on the board and the write off it.
        (Predicate::Never, 0) => Some(Term::fragment(gen::fragment(g, true).glue(&F::single(C::EMPTY)).ok()?)),
        (Predicate::Never, 1) => Some(Term::fragment(gen::fragment(g, true).glue(&F::single(C::Off)).ok()?)),
        // A guard: `f` reads three known cells beside random ones, and `g`
        // writes back some of them or asks for a square off the board.
        (Predicate::Guard, 0 | 1) => {
            let [_, pawn] = gen::palette();
            let known = [
                (Square::new(2, 0), C::EMPTY),
                (Square::new(2, 1), C::Is(crate::ir::Content::Piece(pawn))),
                (Square::new(2, -1), C::Poi),
                (Square::new(3, 0), C::Off),
            ];
            if arg == 0 {
                let extra = F::from_cells(known[..3].iter().copied()).ok()?;
                return Some(Term::fragment(gen::fragment(g, false).glue(&extra).ok()?));
            }
            let bits = 1 + (g.below(15) as u8);
            let chosen = known.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0);
            Some(Term::fragment(F::from_cells(chosen.map(|(_, c)| *c)).ok()?))
        }
        (Predicate::OffOnly, _) => {
            let n = gen::fragment(g, false).len();
            Some(Term::fragment(
                F::from_cells((0..n as i32).map(|x| (Square::new(x, 0), C::Off))).ok()?,
            ))
        }
        (Predicate::Fuse | Predicate::Clash, 0 | 2) => {
            let f = gen::fragment(g, false);
            Some(Term::fragment(
                f.glue(&F::single(C::Poi)).unwrap_or_else(|_| F::single(C::Poi)),
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Movement as Mv;

    #[test]
    fn conditions_decide() {
        assert!(decide(Predicate::Translation, &[Term::movement(Mv::U)], &Pieces::chess()).is_some());
        assert!(decide(Predicate::Translation, &[Term::movement(Mv::ROTATE)], &Pieces::chess()).is_none());
        assert_eq!(decide(Predicate::Pred, &[num(3)], &Pieces::chess()), Some(vec![num(2)]));
        assert_eq!(decide(Predicate::Pred, &[num(0)], &Pieces::chess()), None);
        assert_eq!(decide(Predicate::Succ, &[num(3)], &Pieces::chess()), Some(vec![num(4)]));
        assert!(decide(Predicate::Less, &[num(1), num(2)], &Pieces::chess()).is_some());
        assert!(decide(Predicate::Less, &[num(2), num(2)], &Pieces::chess()).is_none());
    }
}
