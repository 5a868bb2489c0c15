//! Kleene algebra with tests: deciding a claim's KAT shape.
//!
//! Both sides are read as KAT terms (`read.rs`): rules that write, binders
//! and metavariables are actions; guards and `not` are tests over
//! primitive tests (`prim.rs`). Every KAT equation holds of moves, which
//! are relations between states with tests below the identity, so two
//! sides equal as guarded-string languages are equal moves. What KAT
//! cannot know about rules comes in as facts (`facts.rs`), each an
//! equation that holds on every state, validated against the evaluator in
//! the tests; they drop guarded strings that have no result (`system.rs`)
//! or close a language under undoing moves. Equality is decided on
//! Antimirov automata by bisimulation (`bisim.rs`), and the related pairs
//! are a certificate that an independent checker verifies
//! (`certificate.rs`) before a proof says so.
//!
//! Binders whose bodies are equal (by KAT, recursively, with the POI
//! bound) are one action. Different languages do not refute a claim: the
//! moves may still agree on every board, so the caller falls back to
//! enumeration.

mod bisim;
mod certificate;
mod effects;
mod error;
mod expr;
mod facts;
mod prim;
mod read;
#[cfg(test)]
pub(crate) mod sample;
mod spend;
mod system;
mod view;

use super::decide::PoiKnown;
use crate::clock::Timer;
use crate::ir::{Node, Pieces, Term};
use bisim::{Budget, Certificate, Search};
pub use error::{CertificateError, KatError};
use expr::{Exprs, Id};
use facts::Fact;
use prim::Prim;
use read::{Alphabet, Reader, Sym};
pub(crate) use spend::{Exhausted, Spend};
use std::collections::HashMap;
use std::time::Duration;
use system::System;

/// The limits of one decision. Work, not time, bounds it by default, so a
/// claim is decided the same way on a fast idle machine and a slow busy
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KatLimits {
    /// The most atoms (tests and actions) a decision may name.
    pub atoms: usize,
    /// The most pairs of states one search may compare.
    pub pairs: usize,
    /// The most steps the whole decision may take: pairs compared and
    /// transitions followed, over every search it makes (both views,
    /// binders compared by their bodies, facts dropped from the proof).
    pub work: u64,
    /// An optional cap on time, on the caller's clock, reported apart
    /// from work.
    pub time: Timer,
    /// How deep binders are compared by their bodies.
    pub depth: u32,
}

impl Default for KatLimits {
    fn default() -> Self {
        KatLimits {
            atoms: 4096,
            pairs: 50_000,
            work: 400_000,
            time: Timer::NONE,
            depth: 2,
        }
    }
}

impl KatLimits {
    /// Whether the limits leave a decision anything to do.
    pub fn enabled(&self) -> bool {
        self.work > 0 && self.time.limit() != Some(Duration::ZERO)
    }

    /// Why a search stopped, in words.
    fn stopped(&self, spend: &Spend) -> String {
        match spend.out() {
            Some(Exhausted::Time) => format!(
                "the KAT search reached its time limit ({} s)",
                self.time.limit().unwrap_or_default().as_secs_f64()
            ),
            Some(Exhausted::Work) => format!("the KAT search reached its work limit ({} steps)", self.work),
            None => format!("the KAT search reached its limit of {} pairs", self.pairs),
        }
    }
}

/// A KAT proof: the hypotheses it needs, in words, and what replay needs
/// to find them again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct KatProof {
    /// The hypotheses, described.
    pub hypotheses: Vec<String>,
    facts: Vec<Fact>,
    /// Binders whose bodies proved equal, as pairs of terms.
    merged: Vec<(Term, Term)>,
    /// The rewrites of the view the sides were decided in, if any.
    lemmas: Vec<view::Lemma>,
    /// Related pairs in the certificate.
    pub pairs: usize,
    /// The limits it was found within, which its replay keeps.
    pub limits: KatLimits,
}

/// How a decision ended.
#[derive(Clone, Debug)]
pub(crate) enum Outcome {
    Proved(KatProof),
    /// The two differ as guarded-string languages (not a refutation).
    Differ(String),
    /// A limit stopped it, or the claim has no KAT shape.
    Unknown(String),
}

/// The two sides read into one alphabet, with merged binders as one
/// letter.
struct Reading {
    alphabet: Alphabet,
    sides: [Sym; 2],
}

fn read(lhs: &Term, rhs: &Term, aliases: &HashMap<Term, Term>) -> Result<Reading, KatError> {
    let alias = |t: &Term| rename(t, aliases);
    let mut r = Reader::default();
    let l = r.read(&alias(lhs)).map_err(|_| KatError::TooLarge)?;
    let rr = r.read(&alias(rhs)).map_err(|_| KatError::TooLarge)?;
    Ok(Reading {
        alphabet: r.alphabet,
        sides: [l, rr],
    })
}

/// `t` with every binder found in `aliases` replaced by its alias.
fn rename(t: &Term, aliases: &HashMap<Term, Term>) -> Term {
    if aliases.is_empty() {
        return t.clone();
    }
    if let Some(a) = aliases.get(t) {
        return a.clone();
    }
    if t.children().is_empty() {
        return t.clone();
    }
    Term::raw(t.node().map_children(|c| rename(c, aliases)))
}

/// The binder letters of a reading, as (piece, body, term).
fn binders(a: &Alphabet) -> Vec<Term> {
    let mut out: Vec<Term> = a
        .acts
        .iter()
        .filter(|t| matches!(t.node(), Node::Bind(..)))
        .cloned()
        .collect();
    out.extend(a.prims.iter().filter_map(|p| match p {
        Prim::Test(t) if matches!(t.node(), Node::Bind(..)) => Some(t.clone()),
        _ => None,
    }));
    out
}

/// Binders of one piece whose bodies KAT proves equal, each mapped to the
/// first of its class, or to `%c: fail` or `%c: nil`; with the merges
/// described.
fn merges(pieces: &Pieces, a: &Alphabet, limits: &KatLimits, spend: &Spend) -> (Vec<(Term, Term)>, Vec<String>) {
    let mut said = vec![];
    if limits.depth == 0 {
        return (vec![], said);
    }
    let all = binders(a);
    let inner = KatLimits {
        depth: limits.depth - 1,
        ..*limits
    };
    let mut out: Vec<(Term, Term)> = vec![];
    for (j, t) in all.iter().enumerate() {
        let Node::Bind([c, body]) = t.node() else { continue };
        // A body that never has a result, or always gives the state
        // itself: `%c: fail` is `fail`, `%c: nil` asks for a `c`.
        let mut merged = |to: Term, proof: KatProof, out: &mut Vec<(Term, Term)>| {
            let why = match proof.hypotheses.is_empty() {
                true => String::new(),
                false => format!(", since {}", proof.hypotheses.join("; ")),
            };
            said.push(format!("`{}` is `{}`{why}", pieces.show(t), pieces.show(&to)));
            out.push((t.clone(), to));
        };
        let found = [Term::fail(), Term::nil()].into_iter().find_map(|unit| {
            if spend.out().is_some() {
                return None;
            }
            match prove_within(pieces, &unit, body, PoiKnown::Bound, &inner, spend) {
                Outcome::Proved(p) => Some((unit, p)),
                _ => None,
            }
        });
        if let Some((unit, proof)) = found {
            merged(Term::bind(c, &unit), proof, &mut out);
            continue;
        }
        for s in &all[..j] {
            if out.iter().any(|(x, _)| x == s) {
                continue;
            }
            let Node::Bind([d, other]) = s.node() else { continue };
            if c != d || spend.out().is_some() {
                continue;
            }
            if let Outcome::Proved(p) = prove_within(pieces, other, body, PoiKnown::Bound, &inner, spend) {
                merged(s.clone(), p, &mut out);
                break;
            }
        }
    }
    (out, said)
}

/// The start atoms of a claim in context `ctx`.
fn starts(a: &Alphabet, ctx: PoiKnown) -> impl Fn(u64) -> bool {
    let bound = a.find_prim(&Prim::Bound);
    move |atom: u64| match (bound, ctx) {
        (Some(b), PoiKnown::Bound) => atom >> b & 1 == 1,
        (Some(b), PoiKnown::Unbound) => atom >> b & 1 == 0,
        _ => true,
    }
}

fn compile(ex: &mut Exprs, atoms: &[u64], s: &Sym) -> Id {
    match s {
        Sym::Zero => expr::ZERO,
        Sym::One => expr::ONE,
        Sym::Test(b) => {
            let mut set = ex.no_atoms();
            for (i, &a) in atoms.iter().enumerate() {
                set.set(i, b.eval(a));
            }
            ex.test(set)
        }
        Sym::Act(p) => ex.act(*p as u32),
        Sym::Seq(a, b) => {
            let (x, y) = (compile(ex, atoms, a), compile(ex, atoms, b));
            ex.seq(x, y)
        }
        Sym::Alt(a, b) => {
            let (x, y) = (compile(ex, atoms, a), compile(ex, atoms, b));
            ex.alt(x, y)
        }
        Sym::Star(a) => {
            let x = compile(ex, atoms, a);
            ex.star(x)
        }
    }
}

/// One search with a given set of facts: the certificate, or why not.
struct Run {
    ex: Exprs,
    sys: System,
    sides: [Id; 2],
}

fn setup(reading: &Reading, facts: &[Fact], ctx: PoiKnown, limits: &KatLimits) -> Result<Run, KatError> {
    let a = &reading.alphabet;
    let sys = System::new(a.prims.len(), a.acts.len(), facts, starts(a, ctx), limits.atoms).map_err(|e| match e {
        system::Overflow::Prims(n) => KatError::TooManyPrims(n),
        system::Overflow::Atoms(n) => KatError::TooManyAtoms(n),
    })?;
    let mut ex = Exprs::new(sys.atoms.len());
    let l = compile(&mut ex, &sys.atoms, &reading.sides[0]);
    let r = compile(&mut ex, &sys.atoms, &reading.sides[1]);
    Ok(Run { ex, sys, sides: [l, r] })
}

/// Searches for a certificate: equality, or, with undoing facts, inclusion
/// both ways.
fn search(run: &mut Run, budget: Budget) -> Result<Vec<Certificate>, Search> {
    let [l, r] = run.sides;
    match bisim::equivalent(&mut run.ex, &mut run.sys, l, r, budget) {
        Search::Same(c) => Ok(vec![c]),
        other if run.sys.undo.iter().all(Vec::is_empty) => Err(other),
        _ => {
            let there = bisim::included(&mut run.ex, &mut run.sys, l, r, budget);
            let back = bisim::included(&mut run.ex, &mut run.sys, r, l, budget);
            match (there, back) {
                (Search::Same(a), Search::Same(b)) => Ok(vec![a, b]),
                (Search::Same(_), other) | (other, _) => Err(other),
            }
        }
    }
}

fn verify(run: &mut Run, facts: &[Fact], certs: &[Certificate]) -> Result<(), CertificateError> {
    let ground = certificate::Ground {
        atoms: &run.sys.atoms,
        start: &run.sys.start,
        facts,
        actions: run.sys.actions(),
    };
    let [l, r] = run.sides;
    for (k, c) in certs.iter().enumerate() {
        let (x, y) = if k == 1 { (r, l) } else { (l, r) };
        certificate::check(&mut run.ex, &ground, x, y, c)?;
    }
    Ok(())
}

/// Decides `lhs = rhs` in context `ctx` by KAT with the facts of their
/// letters: as written, then, if that fails, with commuting moves in one
/// order and blind steps out of binders (`view.rs`).
pub(crate) fn prove(pieces: &Pieces, lhs: &Term, rhs: &Term, ctx: PoiKnown, limits: &KatLimits) -> Outcome {
    prove_within(pieces, lhs, rhs, ctx, limits, &Spend::new(limits.work, limits.time))
}

/// `prove`, spending from a budget shared with the caller.
pub(crate) fn prove_within(
    pieces: &Pieces,
    lhs: &Term,
    rhs: &Term,
    ctx: PoiKnown,
    limits: &KatLimits,
    spend: &Spend,
) -> Outcome {
    let first = decide_sides(pieces, lhs, rhs, ctx, limits, spend);
    if !matches!(first, Outcome::Differ(_)) {
        return first;
    }
    let mut v = view::Viewer::default();
    let (l, r) = (v.view(lhs, ctx), v.view(rhs, ctx));
    if (&l, &r) == (lhs, rhs) {
        return first;
    }
    match decide_sides(pieces, &l, &r, ctx, limits, spend) {
        Outcome::Proved(mut p) => {
            p.lemmas = v.lemmas.into_iter().collect();
            p.hypotheses = p
                .lemmas
                .iter()
                .map(|l| l.describe(pieces))
                .chain(p.hypotheses)
                .collect();
            Outcome::Proved(p)
        }
        Outcome::Differ(_) => first,
        other => other,
    }
}

fn decide_sides(pieces: &Pieces, lhs: &Term, rhs: &Term, ctx: PoiKnown, limits: &KatLimits, spend: &Spend) -> Outcome {
    let first = match read(lhs, rhs, &HashMap::new()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e.to_string()),
    };
    let (merged, said) = merges(pieces, &first.alphabet, limits, spend);
    let reading = if merged.is_empty() {
        first
    } else {
        match read(lhs, rhs, &merged.iter().cloned().collect()) {
            Ok(r) => r,
            Err(e) => return Outcome::Unknown(e.to_string()),
        }
    };
    let all = facts::facts(&reading.alphabet, ctx);
    let budget = Budget {
        pairs: limits.pairs,
        spend,
    };
    let mut run = match setup(&reading, &all, ctx, limits) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e.to_string()),
    };
    let before = spend.left();
    let certs = match search(&mut run, budget) {
        Ok(c) => c,
        Err(Search::Differ(w)) => return Outcome::Differ(describe(pieces, &reading.alphabet, &run.sys, &w)),
        Err(_) => return Outcome::Unknown(limits.stopped(spend)),
    };
    // Only the facts the proof needs: drop each that can go, spending at
    // most what finding the proof took (or a little, for a quick one), so
    // a proof with many facts does not cost many times its search.
    let given = (before - spend.left()).max(20_000).min(spend.left());
    let trim = spend.part(given);
    let trimming = Budget {
        pairs: limits.pairs,
        spend: &trim,
    };
    let mut used = all.clone();
    let mut best = (run, certs);
    let mut i = 0;
    while i < used.len() && trim.out().is_none() {
        let mut fewer = used.clone();
        fewer.remove(i);
        let attempt = setup(&reading, &fewer, ctx, limits).ok().and_then(|mut r| {
            let c = search(&mut r, trimming).ok()?;
            Some((r, c))
        });
        match attempt {
            Some(found) => {
                used = fewer;
                best = found;
            }
            None => i += 1,
        }
    }
    spend.take(given - trim.left());
    let (mut run, certs) = best;
    if let Err(e) = verify(&mut run, &used, &certs) {
        return Outcome::Unknown(format!("the KAT certificate did not check: {e}"));
    }
    Outcome::Proved(KatProof {
        hypotheses: said
            .into_iter()
            .chain(used.iter().map(|f| f.describe(&reading.alphabet, pieces)))
            .collect(),
        facts: used,
        merged,
        lemmas: vec![],
        pairs: certs.iter().map(|c| c.pairs.len()).sum(),
        limits: *limits,
    })
}

/// Checks a KAT proof again: its binder merges, its facts among those the
/// letters give, and a certificate found with those facts alone.
pub(crate) fn replay(
    pieces: &Pieces,
    lhs: &Term,
    rhs: &Term,
    ctx: PoiKnown,
    proof: &KatProof,
    limits: &KatLimits,
) -> Result<(), KatError> {
    if !proof.lemmas.is_empty() {
        let mut v = view::Viewer::default();
        let (l, r) = (v.view(lhs, ctx), v.view(rhs, ctx));
        if v.lemmas.into_iter().collect::<Vec<_>>() != proof.lemmas {
            return Err(KatError::ViewDiffers);
        }
        let plain = KatProof {
            lemmas: vec![],
            ..proof.clone()
        };
        return replay(pieces, &l, &r, ctx, &plain, limits);
    }
    let spend = Spend::new(limits.work, limits.time);
    let inner = KatLimits {
        depth: limits.depth.saturating_sub(1),
        ..*limits
    };
    for (t, s) in &proof.merged {
        let (Node::Bind([c, body]), Node::Bind([d, other])) = (t.node(), s.node()) else {
            return Err(KatError::MergedNotBinder);
        };
        if c != d {
            return Err(KatError::MergedPieces);
        }
        replay_bodies(pieces, other, body, &inner)?;
    }
    let reading = read(lhs, rhs, &proof.merged.iter().cloned().collect())?;
    let all = facts::facts(&reading.alphabet, ctx);
    if let Some(f) = proof.facts.iter().find(|f| !all.contains(f)) {
        return Err(KatError::NotAFact(f.describe(&reading.alphabet, pieces)));
    }
    let mut run = setup(&reading, &proof.facts, ctx, limits)?;
    let budget = Budget {
        pairs: limits.pairs,
        spend: &spend,
    };
    let certs = search(&mut run, budget).map_err(|_| KatError::NoCertificate)?;
    Ok(verify(&mut run, &proof.facts, &certs)?)
}

fn replay_bodies(pieces: &Pieces, a: &Term, b: &Term, limits: &KatLimits) -> Result<(), KatError> {
    match prove(pieces, a, b, PoiKnown::Bound, limits) {
        Outcome::Proved(p) => replay(pieces, a, b, PoiKnown::Bound, &p, limits),
        _ => Err(KatError::BodiesDiffer(
            pieces.show(a).to_string(),
            pieces.show(b).to_string(),
        )),
    }
}

/// A guarded string one side has and the other lacks, in words.
fn describe(pieces: &Pieces, a: &Alphabet, sys: &System, w: &bisim::Witness) -> String {
    let atom = |i: u32| {
        let v = sys.atoms[i as usize];
        let lits: Vec<String> = (0..a.prims.len())
            .map(|k| {
                let t = a.prims[k].term();
                if v >> k & 1 == 1 {
                    pieces.show(&t).to_string()
                } else {
                    format!("not {}", pieces.show(&t))
                }
            })
            .collect();
        if lits.is_empty() {
            "nil".to_string()
        } else {
            format!("[{}]", lits.join(", "))
        }
    };
    let mut parts = vec![];
    for &(x, p) in &w.steps {
        parts.push(atom(x));
        parts.push(pieces.show(&a.acts[p as usize]).to_string());
    }
    parts.push(atom(w.last));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::prover::decide::top;

    fn outcome(text: &str) -> Outcome {
        let p = Program::from_text("t.alg", &format!("A = (% + u. -> . + u%)\ntheorem t: {text}\n")).unwrap();
        let c = &p.claims()[0];
        prove(
            &Pieces::chess(),
            &c.lhs,
            &c.rhs,
            top(&c.lhs, &c.rhs),
            &KatLimits::default(),
        )
    }

    fn proved(text: &str) -> KatProof {
        match outcome(text) {
            Outcome::Proved(p) => p,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn kleene_algebra_is_decided() {
        for t in [
            "M{2,3} M{1,4} = M{3,7}",
            "(M | N)* = M* (N M*)*",
            "(M{2})* | (M{2})* M = M*",
        ] {
            assert!(proved(t).hypotheses.is_empty(), "{t}");
        }
        assert!(matches!(outcome("(M | N)* = M* N*"), Outcome::Differ(_)));
    }

    /// A postcondition needs its hypothesis, and the proof names it.
    #[test]
    fn hypotheses_are_the_ones_needed() {
        let p = proved("%♖: A (% + d♟ -> 0) = fail");
        assert_eq!(p.hypotheses.len(), 1, "{:?}", p.hypotheses);
        assert!(
            p.hypotheses[0].contains("is `%♖: fail`, since after"),
            "{:?}",
            p.hypotheses
        );
        let c = proved("(♙ -> ♟) (♘ -> ♞) = (♘ -> ♞) (♙ -> ♟)");
        assert!(c.hypotheses.iter().any(|h| h.contains("commute")), "{:?}", c.hypotheses);
    }

    /// Replay accepts a proof and rejects one with a forged fact list.
    #[test]
    fn proofs_replay_and_forgeries_do_not() {
        let p = Program::from_text(
            "t.alg",
            "A = (% + u. -> . + u%)\ntheorem t: %♖: A not (% + d. -> 0) = fail\n",
        )
        .unwrap();
        let c = &p.claims()[0];
        let ctx = top(&c.lhs, &c.rhs);
        let Outcome::Proved(proof) = prove(&Pieces::chess(), &c.lhs, &c.rhs, ctx, &KatLimits::default()) else {
            panic!()
        };
        assert_eq!(
            replay(&Pieces::chess(), &c.lhs, &c.rhs, ctx, &proof, &KatLimits::default()),
            Ok(())
        );
        let bare = KatProof {
            facts: vec![],
            merged: vec![],
            ..proof.clone()
        };
        assert!(replay(&Pieces::chess(), &c.lhs, &c.rhs, ctx, &bare, &KatLimits::default()).is_err());
    }

    /// Claims of the shapes the facts and views serve, between random
    /// moves: whenever KAT proves one, it holds on every board of up to
    /// five squares.
    #[test]
    fn proofs_hold_on_boards() {
        use super::sample::{self, holds};
        let mut proved = 0;
        let mut failures = vec![];
        for seed in 0..1200 {
            let mut g = crate::rng::Rng::new(seed);
            let (m, n) = (sample::a_move(&mut g, 1), sample::a_move(&mut g, 1));
            let (t, u) = (sample::rule(&mut g), sample::anchored_guard(&mut g));
            let c = Term::content(crate::ir::Content::Empty);
            let (l, r) = match seed % 7 {
                0 => (Term::seq(&m, &t), m.clone()),
                1 => (seq_of3(&t, &m, &u), Term::fail()),
                2 => (Term::seq(&m, &n), Term::seq(&n, &m)),
                3 => (
                    Term::repeat(&m, crate::ir::Bounds { lo: 1, hi: Some(3) }),
                    Term::repeat(&m, crate::ir::Bounds { lo: 2, hi: Some(3) }),
                ),
                4 => (Term::bind(&c, &Term::seq(&m, &t)), Term::seq(&Term::bind(&c, &m), &t)),
                5 => (Term::not(&Term::not(&m)), t.clone()),
                _ => (Term::bind(&c, &seq_of3(&u, &m, &t)), Term::bind(&c, &Term::seq(&m, &t))),
            };
            let ctx = top(&l, &r);
            if let Outcome::Proved(_) = prove(&Pieces::chess(), &l, &r, ctx, &KatLimits::default()) {
                proved += 1;
                if let Err(e) = holds(&l, &r, false) {
                    failures.push(e.to_string());
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(proved >= 150, "only {proved} proved");
    }

    fn seq_of3(a: &Term, b: &Term, c: &Term) -> Term {
        Term::seq(a, &Term::seq(b, c))
    }

    /// The checker accepts the search's certificate and rejects one with a
    /// pair dropped, or one offered for other sides.
    #[test]
    fn certificates_are_checked() {
        let p = Program::from_text(
            "t.alg",
            "theorem t: M{2,3} M{1,4} = M{3,7}\ntheorem u: M{2,3} M{1,4} = M{3,8}\n",
        )
        .unwrap();
        let [c, d] = p.claims() else { panic!() };
        let reading = read(&c.lhs, &c.rhs, &HashMap::new()).unwrap();
        let facts = facts::facts(&reading.alphabet, PoiKnown::Unbound);
        let mut run = setup(&reading, &facts, PoiKnown::Unbound, &KatLimits::default()).unwrap();
        let spend = Spend::new(u64::MAX, Timer::NONE);
        let budget = Budget {
            pairs: 10_000,
            spend: &spend,
        };
        let certs = search(&mut run, budget).unwrap();
        assert_eq!(verify(&mut run, &facts, &certs), Ok(()));
        let mut short = certs.clone();
        short[0].pairs.pop();
        assert!(verify(&mut run, &facts, &short).is_err());
        // The same certificate for `M{3,8}` on the right.
        let other = read(&d.lhs, &d.rhs, &HashMap::new()).unwrap();
        let mut wrong = setup(&other, &facts, PoiKnown::Unbound, &KatLimits::default()).unwrap();
        assert!(verify(&mut wrong, &facts, &certs).is_err());
    }
}
