//! Proofs: egg's explanation as numbered steps, each replayed before it is
//! shown.
//!
//! A step rewrites one subterm. Replaying it matches the law's side against
//! the subterm before, checks sorts, decides the side conditions again
//! (egg's explanations leave them out), instantiates the other side and
//! requires the subterm after. A `normalise` step (the analysis folding
//! constants) may change only values (movements, cells, fragments,
//! patterns and counts), each to one that folds to the same value; a
//! `choices` step must leave the choices, taken as sets, unchanged.
//! Everything outside the rewritten subterm must stay as it was.
//!
//! egg's explanations wander: they climb to a term and back down, visit one
//! term twice, and fold, unfold into `first | rest` and fold again. Once
//! egg's steps have replayed, the proof is shortened (`shortest.rs` finds
//! the cheapest path through the equations they used; then every stretch
//! that returns to a term seen before is cut out, every stretch whose ends
//! differ only in values that fold alike becomes one `normalise` step, and
//! every run of `choices` steps one `choices` step). The shortened proof is replayed again, by the same rules, before
//! it is shown; a `normalise` step that leaves the printed term as it was
//! is not shown.

mod error;
mod explain;
mod shortest;

use super::analysis::NORMALISE;
use super::choices::{sorted, CHOICES};
use super::decide;
use super::kat::{self, KatProof};
use super::lang::ENode;
use super::rules::{LawRule, Rewrites};
use crate::ir::{Node, Pieces, Sort, Term};
use crate::laws::{conds, Laws};
use egg::FlatTerm;
pub(super) use error::KatMiss;
pub use error::{LawError, ReplayError, StepError};
pub use explain::{explain, ProofNames};
use std::collections::{BTreeMap, HashMap};

/// How a step was justified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Constant folding by the analysis.
    Normalise,
    /// Choices regrouped, reordered or repeated, and rules placed:
    /// `alt_assoc`, `alt_comm`, `alt_idem` and `rule_place`.
    Choices,
    /// Both terms have one normal form (the prover's `decide`).
    Decided,
    /// Equal in Kleene algebra with tests, given hypotheses about the
    /// moves' letters (the prover's `kat`), each shown.
    Kat {
        /// Each hypothesis, printed.
        hypotheses: Vec<String>,
    },
    /// Equal on every board of a box around both sides' windows: moves
    /// anchored on the POI, by the small-model bound (the checker's
    /// `window`).
    Window(crate::checker::Bound),
    /// A law, used left to right or right to left, with the side
    /// conditions that held.
    Law {
        /// The law's name.
        name: String,
        /// `file:line` of the law.
        location: String,
        /// Used right to left.
        reversed: bool,
        /// Each side condition, printed.
        conditions: Vec<String>,
    },
}

impl Why {
    /// The justification as a proof's text gives it, below its step:
    /// indented `by ...` lines, each hypothesis or side condition written
    /// by `shown` (the plain text, or clipped).
    pub(crate) fn lines(&self, shown: &dyn Fn(&str) -> String) -> String {
        match self {
            Why::Normalise => "         by normalisation\n".into(),
            Why::Choices => "         by choices as a set (alt_assoc, alt_comm, alt_idem, rule_place)\n".into(),
            Why::Decided => "         by normal forms\n".into(),
            Why::Kat { hypotheses } if hypotheses.is_empty() => "         by KAT\n".into(),
            Why::Kat { hypotheses } => {
                let mut out = "         by KAT, with hypotheses\n".to_string();
                for (i, h) in hypotheses.iter().enumerate() {
                    out.push_str(&format!("           H{}. {}\n", i + 1, shown(h)));
                }
                out
            }
            Why::Window(b) => format!(
                "         by enumeration: decided on every board of up to {} squares ({}×{}; bound from windows of {} and {} squares)\n",
                b.squares(),
                b.width,
                b.height,
                b.windows[0],
                b.windows[1]
            ),
            Why::Law {
                name,
                location,
                reversed,
                conditions,
            } => {
                let dir = if *reversed { " (right to left)" } else { "" };
                let conds = if conditions.is_empty() {
                    String::new()
                } else {
                    let c: Vec<String> = conditions.iter().map(|c| shown(c)).collect();
                    format!(", where {}", c.join(", "))
                };
                format!("         by {name}{dir}, {location}{conds}\n")
            }
        }
    }
}

/// One step of a proof: the whole term after it, and why.
#[derive(Clone, Debug)]
pub struct Step {
    /// The whole term after the step.
    pub term: Term,
    /// The step's justification; `None` for the first term.
    pub why: Option<Why>,
}

/// What a step claims, before it is checked: the rewrite named by egg, or
/// folding, or choices as sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum By {
    Normalise,
    Choices,
    /// Both sides have one normal form where they stand (`decide.rs`).
    Decided,
    /// Equal by KAT where they stand, with the proof's hypotheses.
    Kat(KatProof),
    /// A rewrite of `Rewrites`, run forward (its `from` to its `to`) or
    /// backward.
    Rewrite {
        name: String,
        forward: bool,
    },
}

impl By {
    /// The same justification, read from the other end.
    fn reversed(&self) -> By {
        match self {
            By::Rewrite { name, forward } => By::Rewrite {
                name: name.clone(),
                forward: !forward,
            },
            other => other.clone(),
        }
    }
}

/// A proof before it is checked: `terms[k + 1]` is `terms[k]` with the
/// subterm at `rewrites[k].0` rewritten as `rewrites[k].1` says.
#[derive(Clone, Debug)]
struct Draft {
    terms: Vec<Term>,
    rewrites: Vec<(Vec<usize>, By)>,
}

fn flat_term(f: &FlatTerm<ENode>) -> Term {
    let mut kids = f.children.iter();
    Term::raw(
        f.node
            .map_children(|_| flat_term(kids.next().expect("one flat term per child"))),
    )
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
    path.iter().fold(t, |t, &i| &t.children()[i])
}

fn replace(t: &Term, path: &[usize], new: &Term) -> Term {
    let Some((&i, rest)) = path.split_first() else {
        return new.clone();
    };
    let mut node = t.node().clone();
    let kid = &mut node.children_mut()[i];
    *kid = replace(kid, rest, new);
    Term::raw(node)
}

/// The folded form: rebuilt through the core constructors.
fn canonical(pieces: &Pieces, t: &Term) -> Option<Term> {
    t.substitute(&|_| None, pieces).ok()
}

/// Whether a term is a value the analysis folds (a movement, cell,
/// fragment, pattern or count), not a move.
fn is_value(t: &Term) -> bool {
    t.sort() != Sort::Move
}

/// The term with every largest value in it folded and the moves around
/// them left as they are. Two terms with the same key differ only in
/// values that fold alike, so a `normalise` step leads from one to the
/// other.
fn folded_values(pieces: &Pieces, t: &Term) -> Term {
    if is_value(t) {
        return canonical(pieces, t).unwrap_or_else(|| t.clone());
    }
    if t.children().is_empty() {
        return t.clone();
    }
    // The move is rebuilt as it is, without folding.
    Term::raw(t.node().map_children(|c| folded_values(pieces, c)))
}

/// Larger terms are compared as they are, not by folded values or by
/// choices as sets: computing those forms costs more than the steps it
/// might save, and large terms differ in more than values anyway.
const MAX_KEYED: usize = 200;

/// `folded_values` of a term of at most `MAX_KEYED` nodes, or the term.
fn fold_key(pieces: &Pieces, t: &Term) -> Term {
    if t.size() <= MAX_KEYED {
        folded_values(pieces, t)
    } else {
        t.clone()
    }
}

/// Matches a law side against a term, binding metavariables.
fn matches(p: &Term, t: &Term, s: &mut BTreeMap<String, Term>) -> bool {
    if let Node::Var(m) = p.node() {
        // As in the rewrites: a count is a number, never `∞`.
        if !t.sort().fits(m.sort) || (m.sort == Sort::Count && matches!(t.node(), Node::Inf)) {
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
    p.same_op(t) && p.children().iter().zip(t.children()).all(|(a, b)| matches(a, b, s))
}

/// Replays one law rewrite from `a` to `b`: both sides match, and the side
/// conditions hold of what they matched. Returns the conditions, shown.
fn replay_law(pieces: &Pieces, rule: &LawRule, a: &Term, b: &Term) -> Result<Vec<String>, LawError> {
    let mut s = BTreeMap::new();
    for (pattern, term) in [(&rule.from, a), (&rule.to, b)] {
        if !matches(pattern, term, &mut s) {
            return Err(LawError::NoMatch {
                pattern: pieces.show(pattern).to_string(),
                term: pieces.show(term).to_string(),
            });
        }
    }
    let mut shown = vec![];
    for c in &rule.conds {
        let n = c.inputs().len();
        let values: Option<Vec<Term>> = c
            .args
            .iter()
            .map(|m| s.get(&*m.name).and_then(|t| canonical(pieces, t)))
            .collect();
        let values = values.ok_or(LawError::Unbound(c.pred))?;
        if !conds::verify(c.pred, &values[..n], &values[n..], pieces) {
            return Err(LawError::Fails(c.pred));
        }
        let args: Vec<String> = c.args.iter().map(|m| pieces.show(&s[&*m.name]).to_string()).collect();
        shown.push(format!("{}({})", c.pred, args.join(", ")));
    }
    Ok(shown)
}

/// Checks that `by` rewrites `a` to `b`, and says why in the terms of the
/// laws.
/// The claim's two sides, the whole term before the step and the path to
/// the rewritten subterm: where a step stands, which a `decide` step needs.
type Site<'a> = (&'a Term, &'a Term, &'a Term, &'a [usize]);

fn justify(
    pieces: &Pieces,
    a: &Term,
    b: &Term,
    by: &By,
    site: Site,
    laws: &Laws,
    rules: &Rewrites,
) -> Result<Why, StepError> {
    match by {
        By::Choices => {
            if sorted(pieces, a) != sorted(pieces, b) {
                return Err(StepError::NotSameChoices(
                    pieces.show(a).to_string(),
                    pieces.show(b).to_string(),
                ));
            }
            Ok(Why::Choices)
        }
        By::Decided => {
            let (first, last, before, path) = site;
            if !decide::replays(pieces, first, last, before, path, a, b) {
                return Err(StepError::Decided(
                    pieces.show(a).to_string(),
                    pieces.show(b).to_string(),
                ));
            }
            Ok(Why::Decided)
        }
        By::Kat(proof) => {
            let (first, last, before, path) = site;
            let ctx = decide::context_at(before, path, decide::top(first, last));
            kat::replay(pieces, a, b, ctx, proof, &proof.limits).map_err(StepError::Kat)?;
            Ok(Why::Kat {
                hypotheses: proof.hypotheses.clone(),
            })
        }
        By::Normalise => {
            if folded_values(pieces, a) != folded_values(pieces, b) {
                return Err(StepError::NotSameFold(
                    pieces.show(a).to_string(),
                    pieces.show(b).to_string(),
                ));
            }
            Ok(Why::Normalise)
        }
        By::Rewrite { name, forward } => {
            let rule = rules.get(name).ok_or_else(|| StepError::UnknownRewrite(name.clone()))?;
            let (x, y) = if *forward { (a, b) } else { (b, a) };
            let conditions = replay_law(pieces, rule, x, y).map_err(|why| StepError::Law {
                name: name.clone(),
                why,
            })?;
            let law = &laws.laws[rule.law];
            Ok(Why::Law {
                name: law.name().to_string(),
                location: law.location(),
                // Used against its own direction when the step runs backward.
                reversed: rule.reversed == *forward,
                conditions,
            })
        }
    }
}

/// Replays every step of a draft: each changes only the subterm it names,
/// as its justification allows.
fn replay(pieces: &Pieces, draft: &Draft, laws: &Laws, rules: &Rewrites) -> Result<Vec<Step>, ReplayError> {
    let mut out = vec![Step {
        term: draft.terms[0].clone(),
        why: None,
    }];
    for (k, (path, by)) in draft.rewrites.iter().enumerate() {
        let (before, after) = (&draft.terms[k], &draft.terms[k + 1]);
        let (a, b) = (at(before, path), at(after, path));
        if replace(before, path, b) != *after {
            return Err(ReplayError::Outside { step: k + 1 });
        }
        let site = (&draft.terms[0], &draft.terms[draft.terms.len() - 1], before, &path[..]);
        let why = justify(pieces, a, b, by, site, laws, rules).map_err(|why| ReplayError::Step { step: k + 1, why })?;
        out.push(Step {
            term: after.clone(),
            why: Some(why),
        });
    }
    Ok(out)
}

/// egg's flat explanation as a draft.
fn draft(flat: &[FlatTerm<ENode>]) -> Result<Draft, ReplayError> {
    let mut rewrites = vec![];
    for f in &flat[1..] {
        let (path, name, forward) = rewrite_at(f).ok_or(ReplayError::NoRewrite)?;
        let by = match name.as_str() {
            CHOICES => By::Choices,
            NORMALISE => By::Normalise,
            decide::DECIDE => By::Decided,
            _ => By::Rewrite { name, forward },
        };
        rewrites.push((path, by));
    }
    Ok(Draft {
        terms: flat.iter().map(flat_term).collect(),
        rewrites,
    })
}

/// The draft without detours. From each term it goes straight to the last
/// step that is the same term (cutting out the loop), or else to the last
/// step that differs from it only in values that fold alike (one
/// `normalise` step for the stretch), or else takes the next step as it is.
/// Runs of `choices` steps then become one where they can.
fn without_detours(pieces: &Pieces, d: &Draft) -> Draft {
    let keys: Vec<Term> = d.terms.iter().map(|t| fold_key(pieces, t)).collect();
    let (mut last_same, mut last_fold) = (HashMap::new(), HashMap::new());
    for (k, t) in d.terms.iter().enumerate() {
        last_same.insert(t, k);
        last_fold.insert(&keys[k], k);
    }
    let mut out = Draft {
        terms: vec![d.terms[0].clone()],
        rewrites: vec![],
    };
    let mut i = 0;
    while i + 1 < d.terms.len() {
        let (same, fold) = (last_same[&d.terms[i]], last_fold[&keys[i]]);
        if same > i {
            i = same;
            continue;
        }
        let (next, rewrite) = if fold > i + 1 {
            (fold, (vec![], By::Normalise))
        } else {
            (i + 1, d.rewrites[i].clone())
        };
        out.terms.push(d.terms[next].clone());
        out.rewrites.push(rewrite);
        i = next;
    }
    choices_merged(pieces, &out)
}

/// The draft with each run of `choices` steps made one step, when its ends
/// are the same choices as sets.
fn choices_merged(pieces: &Pieces, d: &Draft) -> Draft {
    let mut out = Draft {
        terms: vec![d.terms[0].clone()],
        rewrites: vec![],
    };
    let mut i = 0;
    while i < d.rewrites.len() {
        let run = d.rewrites[i..].iter().take_while(|(_, by)| *by == By::Choices).count();
        if run > 1 && sorted(pieces, &d.terms[i]) == sorted(pieces, &d.terms[i + run]) {
            out.terms.push(d.terms[i + run].clone());
            out.rewrites.push((vec![], By::Choices));
            i += run;
        } else {
            out.terms.push(d.terms[i + 1].clone());
            out.rewrites.push(d.rewrites[i].clone());
            i += 1;
        }
    }
    out
}

/// Turns egg's flat explanation into steps: every step egg gave is
/// replayed, then the proof is shortened and the short proof replayed.
pub(super) fn steps(
    pieces: &Pieces,
    flat: &[FlatTerm<ENode>],
    laws: &Laws,
    rules: &Rewrites,
) -> Result<Vec<Step>, ReplayError> {
    let given = draft(flat)?;
    let replayed = replay(pieces, &given, laws, rules)?;
    // A `decide` step holds where it stands, so a shorter path that moves
    // one elsewhere may not replay; then the proof is shortened less.
    let shortest = shortest::path(pieces, &given, rules)
        .filter(|found| found.rewrites.len() <= given.rewrites.len())
        .map(|found| without_detours(pieces, &found));
    let checked = shortest
        .and_then(|d| replay(pieces, &d, laws, rules).ok())
        .or_else(|| replay(pieces, &without_detours(pieces, &given), laws, rules).ok())
        .unwrap_or(replayed);
    Ok(visible(pieces, checked))
}

/// A proof of `lhs = rhs` by KAT, as replayed steps: the sides, or their
/// normal forms, equal by KAT, each normal form reached in one step. Else
/// what KAT found: the sides differ as guarded strings (not a refutation:
/// the moves may still agree on every board), or a limit.
pub(super) fn by_kat(
    pieces: &Pieces,
    lhs: &Term,
    rhs: &Term,
    laws: &Laws,
    rules: &Rewrites,
    limits: &kat::KatLimits,
) -> Result<Vec<Step>, KatMiss> {
    if !limits.enabled() {
        return Err(KatMiss::NotTried);
    }
    let ctx = decide::top(lhs, rhs);
    let views = [
        (lhs.clone(), rhs.clone()),
        (decide::normal(pieces, lhs, ctx), decide::normal(pieces, rhs, ctx)),
    ];
    // Both views spend from one budget.
    let spend = kat::Spend::new(limits.work, limits.time);
    let mut why = KatMiss::Unknown(String::new());
    for (k, (l, r)) in views.iter().enumerate() {
        if k > 0 && (l, r) == (&views[0].0, &views[0].1) {
            continue;
        }
        let proof = match kat::prove_within(pieces, l, r, ctx, limits, &spend) {
            kat::Outcome::Proved(p) => p,
            kat::Outcome::Differ(w) => {
                why = KatMiss::Differ(w);
                continue;
            }
            kat::Outcome::Unknown(e) => {
                why = KatMiss::Unknown(e);
                continue;
            }
        };
        let mut draft = Draft {
            terms: vec![lhs.clone()],
            rewrites: vec![],
        };
        let mut go = |t: &Term, by: By| {
            if draft.terms.last() != Some(t) {
                draft.terms.push(t.clone());
                draft.rewrites.push((vec![], by));
            }
        };
        go(l, By::Decided);
        go(r, By::Kat(proof));
        go(rhs, By::Decided);
        return replay(pieces, &draft, laws, rules).map_err(KatMiss::Replay);
    }
    Err(why)
}

/// The steps a reader can see. A `normalise` step that only changes how a
/// value is built (a pattern read as `first | rest`, say), so that the term
/// prints as before, is left out: it replayed, and the printed step next to
/// it reads the same either way.
fn visible(pieces: &Pieces, steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = vec![];
    for s in steps {
        if let Some(last) = out.last() {
            if s.why == Some(Why::Normalise) && pieces.show(&s.term).to_string() == pieces.show(&last.term).to_string()
            {
                continue;
            }
        }
        out.push(s);
    }
    out
}

/// A proof as numbered lines.
pub fn render(pieces: &Pieces, steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        out.push_str(&format!("  {i:>3}. {}\n", pieces.show(&s.term)));
        if let Some(why) = &s.why {
            out.push_str(&why.lines(&|t| t.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::prover::{saturate, ProveOptions};

    fn setup() -> (Laws, Rewrites) {
        let laws = Laws::bundled();
        let rules = Rewrites::new(&laws);
        (laws, rules)
    }

    /// The definitions of `text`, elaborated (values folded).
    fn defs(text: &str) -> Program {
        Program::from_text("t.alg", text).unwrap()
    }

    fn def(p: &Program, name: &str) -> Term {
        p.definition(name).unwrap().clone()
    }

    /// The proof of a claim, as `prove` would show it.
    fn proof(claim: &str) -> Vec<Step> {
        let (laws, rules) = setup();
        let p = defs(&format!("theorem t: {claim}\n"));
        let sat = saturate(&p.claims()[0], &laws, &rules, &ProveOptions::default());
        let steps = sat.proof.expect("the sides meet").expect("the proof replays");
        assert_eq!(steps[0].term, p.claims()[0].lhs);
        assert_eq!(steps.last().unwrap().term, p.claims()[0].rhs);
        steps
    }

    fn assert_no_term_twice(steps: &[Step]) {
        let mut seen = std::collections::HashSet::new();
        for s in steps {
            assert!(
                seen.insert(Pieces::chess().show(&s.term).to_string()),
                "`{}` twice in\n{}",
                Pieces::chess().show(&s.term),
                render(&Pieces::chess(), steps)
            );
        }
    }

    /// Claims whose explanations wandered for dozens of steps (31, 37, 21
    /// and 36 before shortening) have short proofs.
    #[test]
    fn known_short_proofs_are_short() {
        let claims = [
            ("fail*!{2} = fail*! fail*!", 10),
            ("(♟ -> #)*!{2} = (♟ -> #)*! (♟ -> #)*!", 6),
            (
                "(nil | fail | fail nil) nil (d(0.;.) -> l(0♖.;.)) = \
                 (nil | fail) nil (d(0.;.) -> l(0♖.;.)) | (fail nil) nil (d(0.;.) -> l(0♖.;.))",
                3,
            ),
            (
                "(nil (l(0 0 0%;.) -> dl(♖;0♖))){2} = \
                 (nil (l(0 0 0%;.) -> dl(♖;0♖))) nil (l(0 0 0%;.) -> dl(♖;0♖))",
                6,
            ),
            ("M? | nil = M?", 6),
        ];
        for (claim, most) in claims {
            let steps = proof(claim);
            assert!(
                steps.len() - 1 <= most,
                "{claim}: more than {most} steps:\n{}",
                render(&Pieces::chess(), &steps)
            );
            assert_no_term_twice(&steps);
        }
    }

    /// Proofs of random instances of `M{2} = M M`, whose explanations
    /// are often long, replay after shortening and never show a term twice.
    #[test]
    fn shortened_random_proofs_replay_without_repeats() {
        let (laws, rules) = setup();
        let template = defs("theorem t: M{2} = M M\n");
        let mut proved = 0;
        for seed in 0..60 {
            let mut g = crate::rng::Rng::new(seed);
            let m = crate::ir::gen::a_move(&mut g, 1);
            let s = |_: &crate::ir::Meta| Some(m.clone());
            let mut claim = template.claims()[0].clone();
            claim.lhs = claim.lhs.substitute(&s, &Pieces::chess()).unwrap();
            claim.rhs = claim.rhs.substitute(&s, &Pieces::chess()).unwrap();
            let sat = saturate(&claim, &laws, &rules, &ProveOptions::default());
            if let Some(p) = sat.proof {
                let steps = p.unwrap_or_else(|e| {
                    panic!(
                        "{} = {}: {e}",
                        claim.pieces.show(&claim.lhs),
                        claim.pieces.show(&claim.rhs)
                    )
                });
                assert_no_term_twice(&steps);
                proved += 1;
            }
        }
        assert!(proved >= 50, "only {proved} of 60 proved");
    }

    #[test]
    fn loops_are_cut_and_runs_of_folding_or_choices_merged() {
        let p = defs("a = nil\nb = fail\nc = nil nil\nx = ♙ + u. -> .\n");
        let (a, b, c, x) = (def(&p, "a"), def(&p, "b"), def(&p, "c"), def(&p, "x"));
        let law = |name: &str| {
            (
                vec![],
                By::Rewrite {
                    name: name.into(),
                    forward: true,
                },
            )
        };
        // a b a c: the loop through `b` goes.
        let d = Draft {
            terms: vec![a.clone(), b.clone(), a.clone(), c.clone()],
            rewrites: vec![law("p"), law("q"), law("r")],
        };
        let short = without_detours(&Pieces::chess(), &d);
        assert_eq!(short.terms, vec![a.clone(), c.clone()]);
        assert_eq!(short.rewrites, vec![law("r")]);
        // A fragment built by gluing, then folded: the two ends fold alike,
        // so the stretch is one `normalise` step.
        let Node::Rule([f, g]) = x.node() else { panic!("{x:?}") };
        let glued = Term::raw(Node::Glue([def(&defs("y = ♙\n"), "y"), def(&defs("y = u.\n"), "y")]));
        let unfolded = Term::rule(&glued, g);
        assert_ne!(&glued, f);
        let d = Draft {
            terms: vec![unfolded.clone(), a.clone(), x.clone(), b.clone()],
            rewrites: vec![law("p"), law("q"), law("r")],
        };
        let short = without_detours(&Pieces::chess(), &d);
        assert_eq!(short.terms, vec![unfolded, x, b]);
        assert_eq!(short.rewrites, vec![(vec![], By::Normalise), law("r")]);
        // Two regroupings of one set of choices are one step.
        let p = defs("A = (♙ -> .)\nB = (♘ -> .)\nD = (♗ -> .)\nx = A | (B | D)\ny = (A | B) | D\nz = D | (B | A)\n");
        let choices = (vec![], By::Choices);
        let d = Draft {
            terms: vec![def(&p, "x"), def(&p, "y"), def(&p, "z")],
            rewrites: vec![choices.clone(), choices.clone()],
        };
        let short = without_detours(&Pieces::chess(), &d);
        assert_eq!(short.terms, vec![def(&p, "x"), def(&p, "z")]);
        assert_eq!(short.rewrites, vec![choices]);
    }

    /// A `normalise` step may change values only, each to one that folds
    /// alike; the moves around them must stay as they are.
    #[test]
    fn normalise_steps_are_checked() {
        let (laws, rules) = setup();
        let p = defs("x = ♙ + u. -> .\ny = ♙ + u. -> ♘\nturn = R\nstep = ♙ -> .\nw = R♙ -> R.\nv = u♙ -> .\n");
        let Node::Rule([f, g]) = def(&p, "x").node().clone() else {
            panic!()
        };
        let glued = Term::raw(Node::Glue([def(&defs("y = ♙\n"), "y"), def(&defs("y = u.\n"), "y")]));
        let check = |a: &Term, b: &Term| justify(&Pieces::chess(), a, b, &By::Normalise, (a, b, a, &[]), &laws, &rules);
        assert_eq!(check(&Term::rule(&glued, &g), &Term::rule(&f, &g)), Ok(Why::Normalise));
        // Different values.
        assert!(check(&def(&p, "x"), &def(&p, "y")).is_err());
        assert!(check(&def(&p, "x"), &def(&p, "v")).is_err());
        // Equal moves, but a movement pushed into a rule is not folding.
        let turned = Term::raw(Node::Apply([def(&p, "turn"), def(&p, "step")]));
        assert_eq!(canonical(&Pieces::chess(), &turned).as_ref(), Some(&def(&p, "w")));
        assert!(check(&turned, &def(&p, "w")).is_err());
        // A whole draft with a forged step does not replay.
        let forged = Draft {
            terms: vec![def(&p, "x"), def(&p, "y")],
            rewrites: vec![(vec![], By::Normalise)],
        };
        assert!(replay(&Pieces::chess(), &forged, &laws, &rules).is_err());
    }

    #[test]
    fn steps_that_print_alike_are_not_shown() {
        let p = defs("a = nil\nb = fail\n");
        let (a, b) = (def(&p, "a"), def(&p, "b"));
        let twin = Term::raw(Node::Seq([a.clone(), b.clone()]));
        let law = Some(Why::Choices);
        let step = |term: &Term, why: Option<Why>| Step {
            term: term.clone(),
            why,
        };
        let shown = visible(
            &Pieces::chess(),
            vec![
                step(&a, None),
                step(&twin, law.clone()),
                step(&twin, Some(Why::Normalise)),
                step(&b, Some(Why::Normalise)),
            ],
        );
        let terms: Vec<&Term> = shown.iter().map(|s| &s.term).collect();
        assert_eq!(terms, vec![&a, &twin, &b]);
    }
}
