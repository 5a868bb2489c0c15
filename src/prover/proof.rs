//! Proofs: egg's explanation as numbered steps, each replayed before it is
//! shown.
//!
//! A step rewrites one subterm. Replaying it matches the law's side against
//! the subterm before, checks sorts, decides the side conditions again
//! (egg's explanations leave them out), instantiates the other side and
//! requires the subterm after. A `normalise` step (the analysis folding
//! constants) must leave the folded form unchanged; a `choices` step must
//! leave the choices, taken as sets, unchanged. Everything outside the
//! rewritten subterm must stay as it was.

use super::analysis::NORMALISE;
use super::choices::{sorted, CHOICES};
use super::decide;
use super::lang::{node_of, term_of, with_children, ENode};
use super::rules::{LawRule, Rules};
use crate::core::{Node, Term};
use crate::laws::{conds, Laws};
use egg::{FlatTerm, Language};
use std::collections::BTreeMap;

/// How a step was justified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Constant folding by the analysis.
    Normalise,
    /// Choices regrouped, reordered or repeated, and rules placed:
    /// `alt_assoc`, `alt_comm`, `alt_idem` and `rule_place`.
    Choices,
    /// Both terms have one normal form (src/prover/decide.rs).
    Decided,
    /// A law, used left to right or right to left, with the side
    /// conditions that held.
    Law {
        name: String,
        location: String,
        reversed: bool,
        conditions: Vec<String>,
    },
}

/// One step of a proof: the whole term after it, and why.
#[derive(Clone, Debug)]
pub struct Step {
    pub term: Term,
    pub why: Option<Why>,
}

fn flat_term(f: &FlatTerm<ENode>) -> Term {
    let kids: Vec<Term> = f.children.iter().map(flat_term).collect();
    term_of(&f.node, &kids)
}

/// The path to the one rewritten subterm, its rule, and whether it runs
/// forward.
fn rewrite_at(f: &FlatTerm<ENode>) -> Option<(Vec<usize>, String, bool)> {
    if let Some(r) = &f.forward_rule {
        return Some((vec![], r.to_string(), true));
    }
    if let Some(r) = &f.backward_rule {
        return Some((vec![], r.to_string(), false));
    }
    f.children.iter().enumerate().find_map(|(i, c)| {
        let (mut path, r, fwd) = rewrite_at(c)?;
        path.insert(0, i);
        Some((path, r, fwd))
    })
}

fn at<'a>(t: &'a Term, path: &[usize]) -> &'a Term {
    path.iter().fold(t, |t, &i| t.children()[i])
}

fn replace(t: &Term, path: &[usize], new: &Term) -> Term {
    let Some((&i, rest)) = path.split_first() else {
        return new.clone();
    };
    let kids: Vec<Term> = t
        .children()
        .into_iter()
        .enumerate()
        .map(|(k, c)| if k == i { replace(c, rest, new) } else { c.clone() })
        .collect();
    with_children(t, &kids)
}

/// The folded form: rebuilt through the core constructors.
fn canonical(t: &Term) -> Option<Term> {
    t.substitute(&|_| None).ok()
}

/// Matches a law side against a term, binding metavariables.
fn matches(p: &Term, t: &Term, s: &mut BTreeMap<String, Term>) -> bool {
    if let Node::Var(m) = p.node() {
        if !t.sort().fits(m.sort) {
            return false;
        }
        return match s.get(&*m.name) {
            Some(bound) => bound == t,
            None => {
                s.insert(m.name.to_string(), t.clone());
                true
            }
        };
    }
    let (pn, tn) = (p.children(), t.children());
    let dummy = |n: usize| vec![egg::Id::from(0usize); n];
    node_of(p, &dummy(pn.len())).matches(&node_of(t, &dummy(tn.len())))
        && pn.len() == tn.len()
        && pn.iter().zip(&tn).all(|(a, b)| matches(a, b, s))
}

/// Replays one law rewrite from `a` to `b`: both sides match, and the side
/// conditions hold of what they matched. Returns the conditions, shown.
fn replay_law(rule: &LawRule, a: &Term, b: &Term) -> Result<Vec<String>, String> {
    let mut s = BTreeMap::new();
    if !matches(&rule.from, a, &mut s) {
        return Err(format!("`{}` does not match `{a}`", rule.from));
    }
    if !matches(&rule.to, b, &mut s) {
        return Err(format!("`{}` does not match `{b}`", rule.to));
    }
    let mut shown = vec![];
    for c in &rule.conds {
        let spec = conds::spec(&c.pred).expect("elaboration checked the name");
        let n = c.args.len() - spec.outputs;
        let values: Option<Vec<Term>> = c.args.iter().map(|m| s.get(&*m.name).and_then(canonical)).collect();
        let values = values.ok_or_else(|| format!("`{}` has an unbound argument", c.pred))?;
        if !conds::verify(&c.pred, &values[..n], &values[n..]) {
            return Err(format!("`{}` does not hold", c.pred));
        }
        let args: Vec<String> = c.args.iter().map(|m| s[&*m.name].to_string()).collect();
        shown.push(format!("{}({})", c.pred, args.join(", ")));
    }
    Ok(shown)
}

/// Turns egg's flat explanation into steps, replaying each one.
pub fn steps(flat: &[FlatTerm<ENode>], laws: &Laws, rules: &Rules) -> Result<Vec<Step>, String> {
    let mut out = vec![Step {
        term: flat_term(&flat[0]),
        why: None,
    }];
    for pair in flat.windows(2) {
        let (before, after) = (flat_term(&pair[0]), flat_term(&pair[1]));
        let (path, name, forward) = rewrite_at(&pair[1]).ok_or("a step without a rewrite")?;
        let (a, b) = (at(&before, &path), at(&after, &path));
        if replace(&before, &path, b) != after {
            return Err(format!("step {} changes more than the rewritten subterm", out.len()));
        }
        let why = if name == CHOICES {
            if sorted(a) != sorted(b) {
                return Err(format!("`{a}` and `{b}` are not the same set of choices"));
            }
            Why::Choices
        } else if name == decide::DECIDE {
            let (first, last) = (flat_term(&flat[0]), flat_term(&flat[flat.len() - 1]));
            decide::replay(&first, &last, &before, &path, a, b)?;
            Why::Decided
        } else if name == NORMALISE {
            if canonical(a).is_none() || canonical(a) != canonical(b) {
                return Err(format!("`{a}` and `{b}` do not fold to the same term"));
            }
            Why::Normalise
        } else {
            let rule = rules.get(&name).ok_or_else(|| format!("no rewrite named `{name}`"))?;
            let (x, y) = if forward { (a, b) } else { (b, a) };
            let conditions = replay_law(rule, x, y).map_err(|e| format!("step {} ({name}): {e}", out.len()))?;
            let law = &laws.laws[rule.law];
            Why::Law {
                name: law.name().to_string(),
                location: law.location(),
                // Used against its own direction when the step runs backward.
                reversed: rule.reversed == forward,
                conditions,
            }
        };
        out.push(Step {
            term: after,
            why: Some(why),
        });
    }
    Ok(out)
}

/// A proof as numbered lines.
pub fn render(steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        out.push_str(&format!("  {i:>3}. {}\n", s.term));
        match &s.why {
            None => {}
            Some(Why::Normalise) => out.push_str("         by normalisation\n"),
            Some(Why::Choices) => {
                out.push_str("         by choices as a set (alt_assoc, alt_comm, alt_idem, rule_place)\n")
            }
            Some(Why::Decided) => out.push_str("         by normal forms (src/prover/decide.rs)\n"),
            Some(Why::Law {
                name,
                location,
                reversed,
                conditions,
            }) => {
                let dir = if *reversed { " (right to left)" } else { "" };
                let conds = if conditions.is_empty() {
                    String::new()
                } else {
                    format!(", where {}", conditions.join(", "))
                };
                out.push_str(&format!("         by {name}{dir}, {location}{conds}\n"));
            }
        }
    }
    out
}
