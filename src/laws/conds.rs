//! Side conditions of laws, such as `translation(t)` or
//! `fuse(f_1, g_1, f_2, g_2, f, g)`.
//!
//! A condition looks at closed values (the analysis data of an e-class, or
//! an instance of a law) and either fails or holds; some also compute the
//! values of further metavariables, the last `outputs` arguments. Only
//! monotone facts are used: a condition that holds keeps holding as the
//! e-graph grows.

use super::fusion::{fuse, Fusion};
use crate::core::{Node, Sort, Term};

/// A side condition a law may state.
pub struct CondSpec {
    pub name: &'static str,
    pub args: &'static [Sort],
    /// How many of the last arguments the condition computes.
    pub outputs: usize,
    pub doc: &'static str,
}

use Sort::{Cell, Count, Fragment, Move, Movement, Pattern};

pub const CONDITIONS: [CondSpec; 11] = [
    CondSpec {
        name: "translation",
        args: &[Movement],
        outputs: 0,
        doc: "the movement is a pure translation",
    },
    CondSpec {
        name: "moved",
        args: &[Movement, Cell, Cell],
        outputs: 1,
        doc: "the third is the piece the movement makes of the second",
    },
    CondSpec {
        name: "succ",
        args: &[Count, Count],
        outputs: 1,
        doc: "the second count is the first plus one",
    },
    CondSpec {
        name: "pred",
        args: &[Count, Count],
        outputs: 1,
        doc: "the first count is positive and the second is one less",
    },
    CondSpec {
        name: "less",
        args: &[Count, Count],
        outputs: 0,
        doc: "the first count is less than the second",
    },
    CondSpec {
        name: "placed",
        args: &[Pattern, Pattern, Movement],
        outputs: 1,
        doc: "the translation t moves the rule P -> Q so that its lowest, leftmost cell is on (0, 0); \
              it fails when the rule is there already",
    },
    CondSpec {
        name: "before",
        args: &[Move, Move],
        outputs: 0,
        doc: "M comes before N in a fixed order of terms (of e-classes, in the prover); it only decides \
              which way to sort a chain of `|`, and bears on no law's truth",
    },
    CondSpec {
        name: "never",
        args: &[Fragment, Fragment],
        outputs: 0,
        doc: "the rule f -> g never applies: a square f needs on the board g needs off it, or the reverse",
    },
    CondSpec {
        name: "fuse",
        args: &[Fragment, Fragment, Fragment, Fragment, Fragment, Fragment],
        outputs: 2,
        doc: "the anchored rules f_1 -> g_1 then f_2 -> g_2 are the one rule f -> g (src/laws/fusion.rs)",
    },
    CondSpec {
        name: "guard",
        args: &[Fragment, Fragment, Fragment],
        outputs: 1,
        doc: "the rule f -> g writes back only what f reads, and asks off the board only for squares f does not \
              name: it is the guard h -> 0, where h is f with g's `#` cells; it fails when g is `0` already",
    },
    CondSpec {
        name: "off_only",
        args: &[Fragment, Fragment],
        outputs: 0,
        doc: "f and g hold only `#` cells (or none): the rule f -> g is the identity (§6)",
    },
];

/// A seventh condition, kept apart because it only fails: the fused pair
/// never applies.
pub const CLASH: CondSpec = CondSpec {
    name: "clash",
    args: &[Fragment, Fragment, Fragment, Fragment],
    outputs: 0,
    doc: "the anchored rules f_1 -> g_1 then f_2 -> g_2 never apply together (src/laws/fusion.rs)",
};

pub fn spec(name: &str) -> Option<&'static CondSpec> {
    CONDITIONS
        .iter()
        .chain(std::iter::once(&CLASH))
        .find(|c| c.name == name)
}

/// Every condition's name, for messages.
pub fn names() -> Vec<&'static str> {
    CONDITIONS
        .iter()
        .chain(std::iter::once(&CLASH))
        .map(|c| c.name)
        .collect()
}

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
pub fn decide(name: &str, inputs: &[Term]) -> Option<Vec<Term>> {
    let frag = |i: usize| match inputs[i].node() {
        Node::Frag(f) => Some(f.clone()),
        _ => None,
    };
    match name {
        "translation" => match inputs[0].node() {
            Node::Mov(m) if m.is_translation() => Some(vec![]),
            _ => None,
        },
        "moved" => match (inputs[0].node(), inputs[1].node()) {
            (Node::Mov(m), Node::Cell(c)) => Some(vec![Term::content(c.moved(m))]),
            _ => None,
        },
        "succ" => count(&inputs[0]).and_then(|i| i.checked_add(1)).map(|j| vec![num(j)]),
        "pred" => count(&inputs[0]).and_then(|i| i.checked_sub(1)).map(|j| vec![num(j)]),
        "less" => (count(&inputs[0])? < count(&inputs[1])?).then(Vec::new),
        "placed" => {
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
        "before" => (inputs[0] < inputs[1]).then(Vec::new),
        "never" => super::fusion::contradictory(&frag(0)?, &frag(1)?).then(Vec::new),
        "fuse" => match fuse(&frag(0)?, &frag(1)?, &frag(2)?, &frag(3)?) {
            Fusion::Rule(f, g) => Some(vec![Term::fragment(f), Term::fragment(g)]),
            _ => None,
        },
        "guard" => {
            let (f, g) = (frag(0)?, frag(1)?);
            if g.is_empty() {
                return None;
            }
            let mut h = f.clone();
            for (s, c) in g.cells() {
                match f.get(s) {
                    Some(r) if r == c => {}
                    None if c == crate::core::Cell::Off => {
                        h = h.glue(&crate::core::Fragment::from_cells([(s, c)]).ok()?).ok()?
                    }
                    _ => return None,
                }
            }
            Some(vec![Term::fragment(h)])
        }
        "off_only" => {
            let off = |f: &crate::core::Fragment| f.cells().all(|(_, c)| c == crate::core::Cell::Off);
            (off(&frag(0)?) && off(&frag(1)?)).then(Vec::new)
        }
        "clash" => (fuse(&frag(0)?, &frag(1)?, &frag(2)?, &frag(3)?) == Fusion::Fail).then(Vec::new),
        _ => None,
    }
}

/// Whether a condition holds with these inputs and outputs, as a proof step
/// claims: the outputs must be what `decide` computes. `before` is only an
/// order for sorting (the prover's is by e-class, not by term), so any step
/// may claim it.
pub fn verify(name: &str, inputs: &[Term], outputs: &[Term]) -> bool {
    name == "before" || decide(name, inputs).is_some_and(|o| o == outputs)
}

/// A random input for argument `arg` of a condition, drawn so that the
/// condition is likely to hold, for checking laws on instances; `None`
/// leaves the argument to the generator of its sort.
pub fn sample_input(name: &str, arg: usize, g: &mut quickcheck::Gen) -> Option<Term> {
    use crate::core::{gen, Cell as C, Fragment as F};
    use crate::geometry::Square;
    match (name, arg) {
        ("translation", 0) => {
            let m = gen::movement(g);
            Some(Term::movement(crate::geometry::Movement::translation(
                m.shift.x, m.shift.y,
            )))
        }
        // A square the guard needs on the board and the write off it.
        ("never", 0) => Some(Term::fragment(gen::fragment(g, true).glue(&F::single(C::EMPTY)).ok()?)),
        ("never", 1) => Some(Term::fragment(gen::fragment(g, true).glue(&F::single(C::Off)).ok()?)),
        // A guard: `f` reads three known cells beside random ones, and `g`
        // writes back some of them or asks for a square off the board.
        ("guard", 0 | 1) => {
            let [_, pawn] = gen::palette();
            let known = [
                (Square::new(2, 0), C::EMPTY),
                (Square::new(2, 1), C::Is(crate::core::Content::Piece(pawn))),
                (Square::new(2, -1), C::Poi),
                (Square::new(3, 0), C::Off),
            ];
            if arg == 0 {
                let extra = F::from_cells(known[..3].iter().copied()).ok()?;
                return Some(Term::fragment(gen::fragment(g, false).glue(&extra).ok()?));
            }
            let bits = 1 + <u8 as quickcheck::Arbitrary>::arbitrary(g) % 15;
            let chosen = known.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0);
            Some(Term::fragment(F::from_cells(chosen.map(|(_, c)| *c)).ok()?))
        }
        ("off_only", _) => {
            let n = gen::fragment(g, false).len();
            Some(Term::fragment(
                F::from_cells((0..n as i32).map(|x| (Square::new(x, 0), C::Off))).ok()?,
            ))
        }
        ("fuse" | "clash", 0 | 2) => {
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
        assert!(decide("translation", &[Term::movement(Mv::U)]).is_some());
        assert!(decide("translation", &[Term::movement(Mv::ROTATE)]).is_none());
        assert_eq!(decide("pred", &[num(3)]), Some(vec![num(2)]));
        assert_eq!(decide("pred", &[num(0)]), None);
        assert_eq!(decide("succ", &[num(3)]), Some(vec![num(4)]));
        assert!(decide("less", &[num(1), num(2)]).is_some());
        assert!(decide("less", &[num(2), num(2)]).is_none());
        for c in CONDITIONS.iter().chain(std::iter::once(&CLASH)) {
            assert!(c.outputs < c.args.len() || c.args.is_empty());
        }
    }
}
