//! Tests merged. A ply that checks the king's safety attacker by attacker
//! (`not (%'K: rook_attack) not (%'K: bishop_attack) ...`) scans the board
//! for the king once per test and plans each test on its own; one test
//! over the union does it once. Tests side by side commute
//! (`not_commute`), `not M not N` is `not (M | N)` (`not_or`) and binders
//! on one cell join (`bind_alt`); where the union is what a definition
//! stands for, its name is written (union is associative, commutative and
//! idempotent), so the result reads `not ((%'K: attacked) | (%'Kc:
//! attacked))`: one test for both king cells, whose answer the engine
//! keeps between moves as it keeps rules/chess.alg's `not in_check`.

use crate::ir::{Node, Term};
use std::collections::{BTreeSet, HashMap};

/// The set of alternatives of a union, as written, for finding a
/// definition that stands for it.
pub(super) type Key = BTreeSet<String>;

/// The key of a union's alternatives: each as its debug text, which
/// names pieces by id and so needs no registry.
pub(super) fn key(t: &Term) -> Key {
    let mut v = vec![];
    t.push_alternatives(&mut v);
    v.iter().map(|a| format!("{a:?}")).collect()
}

/// `t` with each run of tests side by side merged into one test: a union
/// with one binder per cell, over what the tests bound there looked for.
/// `names` gives the definition that stands for a union, by its key.
pub(super) fn merge_tests(t: &Term, names: &HashMap<Key, Term>) -> Term {
    let t = Term::raw(t.node().map_children(|c| merge_tests(c, names)));
    if !matches!(t.node(), Node::Seq(_)) {
        return t;
    }
    let mut items = vec![];
    t.push_steps(&mut items);
    let mut out: Vec<Term> = vec![];
    let mut run: Vec<(Option<Term>, Vec<Term>)> = vec![];
    let named = |all: &[Term]| {
        let union = super::hoist::alternatives(all);
        names.get(&key(&union)).cloned().unwrap_or(union)
    };
    let flush = |run: &mut Vec<(Option<Term>, Vec<Term>)>, out: &mut Vec<Term>| {
        if run.is_empty() {
            return;
        }
        // One union per cell, then one test over them all.
        let cells: Vec<Term> = run
            .drain(..)
            .map(|(cell, bodies)| {
                let mut all = vec![];
                bodies.iter().for_each(|b| b.push_alternatives(&mut all));
                let union = named(&all);
                match cell {
                    Some(c) => Term::bind(&c, &union),
                    None => union,
                }
            })
            .collect();
        out.push(Term::not(&named(&cells)));
    };
    for item in items {
        match item.node() {
            Node::Not([m]) => {
                // Tests bound on one cell join; others join the unbound. A
                // test over a union (one merged already) is its parts.
                let mut parts = vec![];
                m.push_alternatives(&mut parts);
                for part in parts {
                    let (cell, body) = match part.node() {
                        Node::Bind([c, b]) => (Some(c.clone()), b.clone()),
                        _ => (None, part.clone()),
                    };
                    match run.iter_mut().find(|(c, _)| *c == cell) {
                        Some((_, v)) => v.push(body),
                        None => run.push((cell, vec![body])),
                    }
                }
            }
            _ => {
                flush(&mut run, &mut out);
                out.push(item);
            }
        }
    }
    flush(&mut run, &mut out);
    // Grouped to the right, as juxtaposition writes it.
    let (last, rest) = out.split_last().expect("a sequence has steps");
    rest.iter().rev().fold(last.clone(), |acc, s| Term::seq(s, &acc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Sort;

    #[test]
    fn tests_merge_into_one_over_the_named_union_per_cell() {
        let prog = crate::elab::Program::from_text(
            "t.alg",
            "
a = ♟ -> .
b = ♞ -> .
both = a | b
m = ♙ -> .
t = m not (%♔: b) not (%♔: a) not (%♕: a)
",
        )
        .unwrap();
        let t = prog.definition_over_names("t").unwrap();
        let both = Term::var("both", Sort::Move);
        let names = HashMap::from([(key(&prog.definition_over_names("both").unwrap()), both)]);
        let merged = merge_tests(&t, &names);
        assert_eq!(prog.pieces().show(&merged).to_string(), "m not ((%♔: both) | (%♕: a))");
        // Merging again, as the recursion does on each suffix, is the same.
        assert_eq!(merge_tests(&merged, &names), merged);
    }
}
