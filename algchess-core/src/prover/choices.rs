//! Choices as sets: every chain of `|` between moves flattened, sorted and
//! without repeats, and every closed rule placed on `(0, 0)`.
//!
//! Associativity and commutativity rewrites blow an e-graph up on long
//! chains (a chess rule has dozens of choices), so the prover puts each
//! claim side in this form before saturation and unites the two. The step
//! is justified by the laws `alt_assoc`, `alt_comm`, `alt_idem` and
//! `rule_place` (mirrored rules differ from the originals by a
//! translation), and a proof replays it by computing the form again on both
//! terms.

use crate::elab::Predicate;
use crate::ir::{Node, Pieces, Term};
use crate::laws::conds;

/// The name proof steps give the union of a term with its sorted form.
pub(super) const CHOICES: &str = "choices as a set";

fn leaves(pieces: &Pieces, t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Alt([a, b]) => {
            leaves(pieces, a, out);
            leaves(pieces, b, out);
        }
        _ => out.push(sorted(pieces, t)),
    }
}

/// `t` with every chain of move choices as `a | (b | (... | z))`, its
/// members sorted by the term order and each once, and its closed rules
/// placed.
pub(super) fn sorted(pieces: &Pieces, t: &Term) -> Term {
    if let Node::Alt(..) = t.node() {
        let mut all = vec![];
        leaves(pieces, t, &mut all);
        all.sort();
        all.dedup();
        let last = all.pop().expect("a choice has members");
        return all.into_iter().rev().fold(last, |rest, a| Term::alt(&a, &rest));
    }
    if let Node::Rule([p, q]) = t.node() {
        if let Some(moved) = conds::decide(Predicate::Placed, &[p.clone(), q.clone()], pieces) {
            return Term::rule(&Term::apply(&moved[0], p, pieces), &Term::apply(&moved[0], q, pieces));
        }
    }
    if t.children().is_empty() {
        return t.clone();
    }
    Term::raw(t.node().map_children(|c| sorted(pieces, c)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;

    fn term(text: &str) -> Term {
        let prog = Program::from_text(
            "t.alg",
            &format!("A = (% + u. -> . + u%)\nB = (% + r. -> . + r%)\nD = (% + d. -> . + d%)\nx = {text}"),
        )
        .unwrap();
        prog.definition("x").unwrap().clone()
    }

    #[test]
    fn order_grouping_and_repeats_do_not_matter() {
        let a = sorted(&Pieces::chess(), &term("A | (B | D)"));
        assert_eq!(a, sorted(&Pieces::chess(), &term("(D | A) | B")));
        assert_eq!(a, sorted(&Pieces::chess(), &term("B | D | A | D | B")));
        assert_ne!(a, sorted(&Pieces::chess(), &term("A | B")));
        // Sorting is the identity on its own results.
        assert_eq!(a, sorted(&Pieces::chess(), &a));
    }

    #[test]
    fn mirrored_choices_meet_once_placed() {
        // `F` turns `r` into `l` about the centre, a translation away from
        // the rule written with `l`.
        assert_eq!(
            sorted(&Pieces::chess(), &term("F (A | B)")),
            sorted(&Pieces::chess(), &term("(% + l. -> . + l%) | A"))
        );
        assert_ne!(
            sorted(&Pieces::chess(), &term("F (A | B)")),
            sorted(&Pieces::chess(), &term("A | B"))
        );
    }

    /// The form means what the term means: random moves and their sorted
    /// forms agree on every board of up to 6 squares.
    #[test]
    fn sorted_forms_keep_meaning() {
        use crate::checker::{check_claim, ClaimOptions, EnumerationOptions, Finding};
        let template = Program::from_text("t.alg", "theorem t: nil = nil\n").unwrap();
        let options = ClaimOptions {
            search: EnumerationOptions {
                max_cells: 6,
                ..EnumerationOptions::default()
            },
            ..ClaimOptions::default()
        };
        let mut changed = 0;
        for seed in 0..40 {
            let mut g = crate::rng::Rng::new(seed);
            let t = Term::alt(&crate::ir::gen::a_move(&mut g, 2), &crate::ir::gen::a_move(&mut g, 2));
            let t = Term::alt(&t, &crate::ir::gen::a_move(&mut g, 1));
            let mut claim = template.claims()[0].clone();
            claim.rhs = sorted(&Pieces::chess(), &t);
            changed += (claim.rhs != t) as usize;
            claim.lhs = t;
            let r = check_claim(&claim, &options, &|_, _, _| {});
            assert_eq!(
                r.verdict,
                Finding::HoldsUpTo,
                "{} vs {}",
                claim.pieces.show(&claim.lhs),
                claim.pieces.show(&claim.rhs)
            );
        }
        assert!(changed >= 20, "most random choices get reordered: {changed}");
    }

    #[test]
    fn choices_inside_other_moves_are_sorted_too() {
        assert_eq!(
            sorted(&Pieces::chess(), &term("not (A | B) D*")),
            sorted(&Pieces::chess(), &term("not (B | A) D*"))
        );
        assert_ne!(
            sorted(&Pieces::chess(), &term("(A | B) D")),
            sorted(&Pieces::chess(), &term("D (A | B)"))
        );
    }
}
