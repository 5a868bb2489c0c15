//! Hypotheses read off the meaning of a claim's letters.
//!
//! KAT alone knows nothing of what a rule does. These facts say it, each
//! an equation of the algebra (`claim`) that holds on every state; the
//! tests check every kind against the evaluator by enumeration. They are
//! all of the form "this guarded string has no result" (`α p β = 0`), which
//! KAT decides by dropping such strings (Kozen's hypotheses `r = 0`), or
//! "`q` undoes `p`" (`p ≤ p q p`), which closes the right-hand language
//! under inserting `q p` after `p`.
//!
//! - **Static**: `At` tests of one square exclude each other and need a
//!   POI; a guard implies the guards it contains; squares known around the
//!   POI imply the guards they spell.
//! - **Before**: a rule applies only where its guard holds.
//! - **After**: where a rule wrote, the squares read as written; an
//!   anchored rule carries the squares it did not touch along with the POI.
//! - **Frames**: a test whose read values a move cannot change keeps its
//!   value (`effects.rs`); a guard whose values a move only adds keeps
//!   holding, one whose values it only removes keeps failing.
//! - **Undo**: a rule that writes only squares it reads is undone by the
//!   rule with guard and write swapped; a binder of such rules, closed
//!   under undoing, undoes itself (with no POI bound outside).

use super::effects::{Effects, Vals};
use super::prim::{Lit, Prim};
use super::read::{placed_rule, Alphabet};
use crate::geometry::Square;
use crate::ir::{Cell, Fragment, Node, Pieces, Term};
use crate::prover::decide::{implies, PoiKnown};
use std::collections::BTreeSet;

/// One hypothesis, over the letters of an alphabet.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Fact {
    /// Wherever every literal of `given` holds, `then` holds.
    Implies { given: Vec<Lit>, then: Lit },
    /// Action `act` has a result only where `lit` holds.
    Pre { act: usize, lit: Lit },
    /// After action `act`, `lit` holds.
    Post { act: usize, lit: Lit },
    /// If `given` holds before action `act`, `then` holds after it.
    Carry { act: usize, given: Lit, then: Lit },
    /// Action `by` undoes action `act`: `act ≤ act by act`.
    Undo { act: usize, by: usize },
}

#[cfg(test)]
fn seq_of(items: Vec<Term>) -> Term {
    let mut it = items.into_iter().rev();
    let last = it.next().unwrap_or_else(Term::nil);
    it.fold(last, |acc, x| Term::seq(&x, &acc))
}

impl Fact {
    /// The fact as an equation of the algebra that holds on every state:
    /// what the tests check against the evaluator.
    #[cfg(test)]
    pub(super) fn claim(&self, a: &Alphabet) -> (Term, Term) {
        let lit = |l: &Lit| l.term(&a.prims);
        let not = |l: &Lit| Lit { holds: !l.holds, ..*l }.term(&a.prims);
        let act = |i: &usize| a.acts[*i].clone();
        let fail = Term::fail();
        match self {
            Fact::Implies { given, then } => {
                let mut items: Vec<Term> = given.iter().map(lit).collect();
                items.push(not(then));
                (seq_of(items), fail)
            }
            Fact::Pre { act: p, lit: l } => (seq_of(vec![not(l), act(p)]), fail),
            Fact::Post { act: p, lit: l } => (seq_of(vec![act(p), not(l)]), fail),
            Fact::Carry { act: p, given, then } => (seq_of(vec![lit(given), act(p), not(then)]), fail),
            Fact::Undo { act: p, by } => {
                let pqp = seq_of(vec![act(p), act(by), act(p)]);
                (Term::alt(&act(p), &pqp), pqp)
            }
        }
    }

    /// The fact in words, for proofs.
    pub(super) fn describe(&self, a: &Alphabet, pieces: &Pieces) -> String {
        let lit = |l: &Lit| {
            let t = a.prims[l.prim].term();
            if l.holds {
                format!("`{}`", pieces.show(&t))
            } else {
                format!("`not {}`", pieces.show(&t))
            }
        };
        let act = |i: &usize| format!("`{}`", pieces.show(&a.acts[*i]));
        match self {
            Fact::Implies { given, then } => {
                let g: Vec<String> = given.iter().map(lit).collect();
                format!("{} implies {}", g.join(" and "), lit(then))
            }
            Fact::Pre { act: p, lit: l } => format!("{} runs only where {} holds", act(p), lit(l)),
            Fact::Post { act: p, lit: l } => format!("after {}, {} holds", act(p), lit(l)),
            Fact::Carry { act: p, given, then } if given.prim == then.prim => {
                format!("{} keeps {}", act(p), lit(given))
            }
            Fact::Carry { act: p, given, then } => {
                format!("{} before {} gives {} after it", lit(given), act(p), lit(then))
            }
            Fact::Undo { act: p, by } if p == by => format!("{} undoes itself", act(p)),
            Fact::Undo { act: p, by } => format!("{} undoes {}", act(by), act(p)),
        }
    }
}

/// A rule between fragments, if the action is one.
fn rule_of(t: &Term) -> Option<(Fragment, Fragment)> {
    let Node::Rule([f, g]) = t.node() else { return None };
    match (f.node(), g.node()) {
        (Node::Frag(f), Node::Frag(g)) => Some((f.clone(), g.clone())),
        _ => None,
    }
}

/// What a rule leaves around where it applied: the squares it wrote, the
/// squares it read and left, and the POI, as one fragment in the rule's
/// frame (a square whose content is unknown left out); and whether it
/// unbinds the POI.
fn after(f: &Fragment, g: &Fragment) -> (Fragment, bool) {
    let moved_from = match (f.poi(), g.poi()) {
        (Some(s0), Some(s1)) if s0 != s1 && g.get(s0).is_none() => Some(s0),
        _ => None,
    };
    let squares: BTreeSet<Square> = f.cells().chain(g.cells()).map(|(q, _)| q).collect();
    let cells = squares.into_iter().filter_map(|q| {
        if Some(q) == moved_from {
            return None;
        }
        match (f.get(q), g.get(q)) {
            (r, Some(Cell::Off)) => Some((q, r.unwrap_or(Cell::Off))),
            (_, Some(w)) => Some((q, w)),
            (r, None) => r.map(|r| (q, r)),
        }
    });
    let k = Fragment::from_cells(cells).unwrap_or_default();
    let unbinds = f.poi().is_some_and(|s0| g.poi().is_none() && g.get(s0).is_some());
    (k, unbinds)
}

/// The rule undoing `f -> g`, when it writes only squares it reads and
/// leaves no POI content behind.
fn inverse(f: &Fragment, g: &Fragment) -> Option<Term> {
    if g.cells().any(|(q, c)| c != Cell::Off && f.get(q).is_none()) {
        return None;
    }
    if let (Some(s0), Some(_)) = (f.poi(), g.poi()) {
        g.get(s0)?;
    }
    let (k, unbinds) = after(f, g);
    if unbinds {
        return None;
    }
    let back = Fragment::from_cells(
        g.cells()
            .filter(|(_, c)| *c != Cell::Off)
            .filter_map(|(q, _)| Some((q, f.get(q)?))),
    )
    .ok()?;
    if k.len() != f.len() {
        return None;
    }
    Some(placed_rule(&k, &back))
}

/// The placed rules of a binder's body, when it is a choice of rules.
fn body_rules(body: &Term) -> Option<BTreeSet<Term>> {
    let mut arms = vec![];
    body.push_alternatives(&mut arms);
    let mut out = BTreeSet::new();
    for a in arms {
        let (f, g) = rule_of(&a).or_else(|| {
            let Node::Rule([f, g]) = a.node() else { return None };
            Some((
                f.as_pattern()?.as_fragment()?.clone(),
                g.as_pattern()?.as_fragment()?.clone(),
            ))
        })?;
        out.insert(placed_rule(&f, &g));
    }
    Some(out)
}

/// Whether a binder of a choice of rules undoes itself: every rule's
/// undoing is among them, and each keeps the POI (moves it with its
/// content, or leaves it).
fn binder_undoes_itself(t: &Term) -> bool {
    let Node::Bind([c, body]) = t.node() else { return false };
    if !matches!(c.node(), Node::Cell(_)) {
        return false;
    }
    let Some(rules) = body_rules(body) else { return false };
    rules.iter().all(|r| {
        let Some((f, g)) = rule_of(r) else { return false };
        f.poi().is_some() && inverse(&f, &g).is_some_and(|inv| rules.contains(&inv))
    })
}

/// Every fact about the letters of `a`; `ctx` is what is known of the POI
/// at the top of the claim (binders undo themselves only with none bound).
pub(super) fn facts(a: &Alphabet, ctx: PoiKnown) -> Vec<Fact> {
    let mut out = BTreeSet::new();
    statics(a, &mut out);
    for (p, t) in a.acts.iter().enumerate() {
        acts(a, p, t, ctx, &mut out);
    }
    out.into_iter().collect()
}

fn statics(a: &Alphabet, out: &mut BTreeSet<Fact>) {
    let bound = a.find_prim(&Prim::Bound);
    for (i, p) in a.prims.iter().enumerate() {
        match p {
            Prim::At(d, c) => {
                if let Some(b) = bound {
                    out.insert(Fact::Implies {
                        given: vec![Lit::yes(i)],
                        then: Lit::yes(b),
                    });
                }
                for (j, q) in a.prims.iter().enumerate() {
                    if matches!(q, Prim::At(e, x) if e == d && x != c) {
                        out.insert(Fact::Implies {
                            given: vec![Lit::yes(i)],
                            then: Lit::no(j),
                        });
                    }
                }
            }
            Prim::Guard(h) => {
                for (j, q) in a.prims.iter().enumerate() {
                    if let Prim::Guard(h2) = q {
                        if i != j && implies(h, h2) {
                            out.insert(Fact::Implies {
                                given: vec![Lit::yes(i)],
                                then: Lit::yes(j),
                            });
                        }
                    }
                }
                spelled(a, i, h, out);
            }
            Prim::Test(t) | Prim::Applies(t) => {
                // A binder needs a square holding its piece; an unanchored
                // rule needs its guard.
                let needs = match t.node() {
                    Node::Bind([c, _]) => match c.node() {
                        Node::Cell(c) => Some(Fragment::single(Cell::Is(*c))),
                        _ => None,
                    },
                    _ => rule_of(t).filter(|(f, _)| f.poi().is_none()).map(|(f, _)| f),
                };
                if let Some(f) = needs {
                    for (j, q) in a.prims.iter().enumerate() {
                        if matches!(q, Prim::Guard(h) if implies(&f, h)) {
                            out.insert(Fact::Implies {
                                given: vec![Lit::yes(i)],
                                then: Lit::yes(j),
                            });
                        }
                    }
                }
            }
            Prim::Bound => {}
        }
    }
}

/// Squares known around the POI that spell guard `h` (prim `i`): each
/// placement of `h` on `At` letters, off the POI's own square.
fn spelled(a: &Alphabet, i: usize, h: &Fragment, out: &mut BTreeSet<Fact>) {
    let Some((q0, v0)) = h.cells().next() else { return };
    for p in &a.prims {
        let Prim::At(d, v) = p else { continue };
        if *v != v0 {
            continue;
        }
        let t = *d - q0;
        let given: Option<Vec<Lit>> = h
            .cells()
            .map(|(q, c)| {
                let at = q + t;
                (at != Square::ORIGIN).then_some(())?;
                a.find_prim(&Prim::At(at, c)).map(Lit::yes)
            })
            .collect();
        if let Some(given) = given {
            out.insert(Fact::Implies {
                given,
                then: Lit::yes(i),
            });
        }
    }
}

fn acts(a: &Alphabet, p: usize, t: &Term, ctx: PoiKnown, out: &mut BTreeSet<Fact>) {
    if let Some(i) = a.find_prim(&Prim::Applies(t.clone())) {
        out.insert(Fact::Pre {
            act: p,
            lit: Lit::yes(i),
        });
    }
    let mut posted = BTreeSet::new();
    if let Some((f, g)) = rule_of(t) {
        rule_facts(a, p, &f, &g, out, &mut posted);
        if let Some(inv) = inverse(&f, &g) {
            if let Some(q) = a.find_act(&inv) {
                out.insert(Fact::Undo { act: p, by: q });
            }
        }
    }
    if let Node::Bind([c, _]) = t.node() {
        if let Node::Cell(c) = c.node() {
            let h = Fragment::single(Cell::Is(*c));
            for (j, q) in a.prims.iter().enumerate() {
                if matches!(q, Prim::Guard(g) if implies(&h, g)) {
                    out.insert(Fact::Pre {
                        act: p,
                        lit: Lit::yes(j),
                    });
                }
            }
        }
        if ctx == PoiKnown::Unbound && binder_undoes_itself(t) {
            out.insert(Fact::Undo { act: p, by: p });
        }
    }
    // Frames.
    let e = Effects::of(t, None);
    for (i, q) in a.prims.iter().enumerate() {
        if posted.contains(&i) {
            continue;
        }
        let seen = q.effects();
        let reads = &seen.reads;
        let (keeps_true, keeps_false) = match q {
            Prim::Guard(_) => (!reads.meets(&e.before), !reads.meets(&e.after)),
            _ => {
                // A test that sees the POI's content changes when the POI
                // moves or is unbound.
                let moves_poi = e.changes().meets(&Vals::of([Cell::Poi]));
                let kept = e.is_known() && !reads.meets(&e.changes()) && !(seen.sees_poi && moves_poi);
                (kept, kept)
            }
        };
        if keeps_true {
            out.insert(Fact::Carry {
                act: p,
                given: Lit::yes(i),
                then: Lit::yes(i),
            });
        }
        if keeps_false {
            out.insert(Fact::Carry {
                act: p,
                given: Lit::no(i),
                then: Lit::no(i),
            });
        }
    }
}

/// What a rule asks before and leaves after. `posted` collects the tests
/// whose value after the rule is fixed.
fn rule_facts(
    a: &Alphabet,
    p: usize,
    f: &Fragment,
    g: &Fragment,
    out: &mut BTreeSet<Fact>,
    posted: &mut BTreeSet<usize>,
) {
    let guards = |k: &Fragment| -> Vec<usize> {
        (a.prims.iter().enumerate())
            .filter(|(_, q)| matches!(q, Prim::Guard(h) if implies(k, h)))
            .map(|(j, _)| j)
            .collect()
    };
    // Before: the guard.
    for j in guards(f) {
        out.insert(Fact::Pre {
            act: p,
            lit: Lit::yes(j),
        });
    }
    if let Some(s0) = f.poi() {
        if let Some(b) = a.find_prim(&Prim::Bound) {
            out.insert(Fact::Pre {
                act: p,
                lit: Lit::yes(b),
            });
        }
        for (s, c) in f.cells().filter(|(s, _)| *s != s0) {
            if let Some(j) = a.find_prim(&Prim::At(s - s0, c)) {
                out.insert(Fact::Pre {
                    act: p,
                    lit: Lit::yes(j),
                });
            }
        }
        for (s, c) in g.cells().filter(|(s, _)| f.get(*s).is_none()) {
            if let Some(j) = a.find_prim(&Prim::At(s - s0, Cell::Off)) {
                let lit = Lit {
                    prim: j,
                    holds: c == Cell::Off,
                };
                out.insert(Fact::Pre { act: p, lit });
            }
        }
    }
    // After.
    let (k, unbinds) = after(f, g);
    let post = |lit: Lit, out: &mut BTreeSet<Fact>, posted: &mut BTreeSet<usize>| {
        posted.insert(lit.prim);
        out.insert(Fact::Post { act: p, lit });
    };
    for j in guards(&k) {
        post(Lit::yes(j), out, posted);
    }
    let bound = a.find_prim(&Prim::Bound);
    if unbinds {
        if let Some(b) = bound {
            post(Lit::no(b), out, posted);
        }
    }
    let Some(s1) = k.poi() else { return };
    if let Some(b) = bound {
        post(Lit::yes(b), out, posted);
    }
    let Some(s0) = f.poi() else { return };
    let moved_from = (s0 != s1 && g.get(s0).is_none()).then_some(s0);
    for (i, q) in a.prims.iter().enumerate() {
        let Prim::At(d, c) = q else { continue };
        let at = s1 + *d;
        match k.get(at) {
            Some(w) => post(
                Lit {
                    prim: i,
                    holds: w == *c,
                },
                out,
                posted,
            ),
            None if Some(at) == moved_from => {}
            // Untouched: it read, before the rule, what it reads now.
            None => {
                if let Some(j) = a.find_prim(&Prim::At(at - s0, *c)) {
                    posted.insert(i);
                    out.insert(Fact::Carry {
                        act: p,
                        given: Lit::yes(j),
                        then: Lit::yes(i),
                    });
                    out.insert(Fact::Carry {
                        act: p,
                        given: Lit::no(j),
                        then: Lit::no(i),
                    });
                } else {
                    // Untracked before: nothing is known, and no frame may
                    // claim otherwise.
                    posted.insert(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::kat::read::Reader;
    use crate::prover::kat::sample::{self, holds};
    use crate::rng::Rng;
    use std::collections::BTreeMap;

    fn kind(f: &Fact) -> &'static str {
        match f {
            Fact::Implies { .. } => "implies",
            Fact::Pre { .. } => "pre",
            Fact::Post { .. } => "post",
            Fact::Carry { given, then, .. } if given.prim == then.prim => "frame",
            Fact::Carry { .. } => "carry",
            Fact::Undo { .. } => "undo",
        }
    }

    /// Checks up to `most` facts of each kind of an alphabet, picked at
    /// random, on small boards; `counts` tallies the kinds checked.
    fn check_some(
        a: &Alphabet,
        ctx: PoiKnown,
        g: &mut Rng,
        most: usize,
        counts: &mut BTreeMap<&'static str, usize>,
    ) -> Vec<String> {
        let mut by_kind: BTreeMap<&'static str, Vec<Fact>> = BTreeMap::new();
        for f in facts(a, ctx) {
            by_kind.entry(kind(&f)).or_default().push(f);
        }
        let mut failures = vec![];
        for (k, mut fs) in by_kind {
            for _ in 0..most.min(fs.len()) {
                let i = g.below(fs.len() as u32) as usize;
                let f = fs.swap_remove(i);
                *counts.entry(k).or_default() += 1;
                let (l, r) = f.claim(a);
                if let Err(e) = holds(&l, &r, ctx != PoiKnown::Unbound) {
                    failures.push(format!("{}: {e}", f.describe(a, &Pieces::chess())));
                }
            }
        }
        failures
    }

    /// Every kind of fact, read off random moves, holds on every board of
    /// up to five squares, with and without a POI.
    #[test]
    fn facts_hold_on_boards() {
        let mut counts = BTreeMap::new();
        let mut failures = vec![];
        for seed in 0..400 {
            let mut g = crate::rng::Rng::new(seed);
            let (l, r) = (sample::a_move(&mut g, 2), sample::a_move(&mut g, 2));
            // Guards at several squares around the POI, so that a step
            // carries what one read to another.
            let around = (0..3).fold(Term::nil(), |acc, _| Term::seq(&acc, &sample::anchored_guard(&mut g)));
            let mut reader = Reader::default();
            if [l, r, around].iter().any(|t| reader.read(t).is_err()) {
                continue;
            }
            failures.extend(check_some(&reader.alphabet, PoiKnown::Bound, &mut g, 2, &mut counts));
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        eprintln!("{counts:?}");
        for k in ["implies", "pre", "post", "frame", "carry"] {
            assert!(counts.get(k).copied().unwrap_or(0) >= 10, "{k}: {counts:?}");
        }
    }

    /// Rules and their undoing rules, and binders of steps closed under
    /// undoing: each `p ≤ p q p` holds (binders with no POI outside).
    #[test]
    fn undoing_facts_hold_on_boards() {
        let mut checked = 0;
        let mut failures = vec![];
        for seed in 0..80 {
            let mut g = crate::rng::Rng::new(seed);
            let p = sample::rule(&mut g);
            let Some((f, g2)) = rule_of(&p) else { continue };
            let Some(q) = inverse(&f, &g2) else { continue };
            let both = Term::alt(&p, &q);
            let bind = Term::bind(&Term::content(crate::ir::Content::Empty), &both);
            for (t, ctx) in [(both, PoiKnown::Bound), (bind, PoiKnown::Unbound)] {
                let mut reader = Reader::default();
                reader.read(&t).unwrap();
                for fact in facts(&reader.alphabet, ctx).iter().filter(|f| kind(f) == "undo") {
                    checked += 1;
                    let (l, r) = fact.claim(&reader.alphabet);
                    if let Err(e) = holds(&l, &r, ctx != PoiKnown::Unbound) {
                        failures.push(format!("{}: {e}", fact.describe(&reader.alphabet, &Pieces::chess())));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(checked >= 20, "only {checked} undoing facts");
    }

    /// A piece's step to an empty square is undone by the step back; a
    /// pawn's capture is undone by nothing.
    #[test]
    fn undoing_rules() {
        let def = crate::testing::term;
        let (f, g) = rule_of(&def("% + u. -> . + u%")).unwrap();
        assert_eq!(inverse(&f, &g), Some(def("% + d. -> . + d%")));
        let (f, g) = rule_of(&def("♙ + ur♟ -> . + ur♙")).unwrap();
        assert_eq!(
            inverse(&f, &g),
            Some(placed_rule(&def_frag("ur♙ + .", &def), &def_frag("ur♟ + ♙", &def)))
        );
        let (f, g) = rule_of(&def("♙ -> ♙ + u♕")).unwrap();
        assert_eq!(inverse(&f, &g), None);
        assert!(binder_undoes_itself(&def(
            "%♔: (% + u. -> . + u%) | (% + d. -> . + d%)"
        )));
        assert!(!binder_undoes_itself(&def("%♔: (% + u. -> . + u%)")));
    }

    fn def_frag(t: &str, def: &dyn Fn(&str) -> Term) -> Fragment {
        match def(&format!("{t} -> 0")).node() {
            Node::Rule([f, _]) => match f.node() {
                Node::Frag(f) => f.clone(),
                _ => panic!(),
            },
            _ => panic!(),
        }
    }
}
