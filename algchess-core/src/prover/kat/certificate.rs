//! Checking a certificate apart from the search that found it.
//!
//! The checker recomputes, from the facts alone, which steps between atoms
//! are allowed, and, from the expressions alone, every derivative and
//! every accepted one-atom string (its own recursion, none of the search's
//! caches). A bisimulation certificate must relate the two start states
//! for every start atom, agree on acceptance in every pair, and relate the
//! derivatives of every pair by every allowed step, up to the equivalence
//! its pairs generate. A simulation certificate must do the same with
//! acceptance on the left implying it on the right, and with the right's
//! steps closed under the undoing facts.

use super::bisim::{Certificate, State};
use super::error::CertificateError;
use super::expr::{Exprs, Id, Kat, ONE};
use super::facts::Fact;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

fn lit_holds(atom: u64, l: &super::prim::Lit) -> bool {
    (atom >> l.prim & 1 == 1) == l.holds
}

/// Whether the facts of one action allow the step `a p b`.
fn allowed(facts: &[&Fact], a: u64, b: u64) -> bool {
    facts.iter().all(|f| match f {
        Fact::Pre { lit, .. } => lit_holds(a, lit),
        Fact::Post { lit, .. } => lit_holds(b, lit),
        Fact::Carry { given, then, .. } => !lit_holds(a, given) || lit_holds(b, then),
        _ => true,
    })
}

/// The facts about each action, for `allowed`.
fn by_action(facts: &[Fact], actions: u32) -> Vec<Vec<&Fact>> {
    let mut out = vec![vec![]; actions as usize];
    for f in facts {
        if let Fact::Pre { act, .. } | Fact::Post { act, .. } | Fact::Carry { act, .. } = f {
            if let Some(v) = out.get_mut(*act) {
                v.push(f);
            }
        }
    }
    out
}

fn accepts(ex: &Exprs, e: Id, atom: usize) -> bool {
    match ex.node(e) {
        Kat::Zero | Kat::Act(_) => false,
        Kat::One | Kat::Star(_) => true,
        Kat::Test(s) => s.contains(atom),
        Kat::Seq(a, b) => accepts(ex, *a, atom) && accepts(ex, *b, atom),
        Kat::Alt(a, b) => accepts(ex, *a, atom) || accepts(ex, *b, atom),
    }
}

fn derive(ex: &mut Exprs, e: Id, atom: usize, p: u32, out: &mut Vec<Id>) {
    match ex.node(e).clone() {
        Kat::Act(q) if q == p => out.push(ONE),
        Kat::Seq(a, b) => {
            let mut first = vec![];
            derive(ex, a, atom, p, &mut first);
            for d in first {
                out.push(ex.seq(d, b));
            }
            if accepts(ex, a, atom) {
                derive(ex, b, atom, p, out);
            }
        }
        Kat::Alt(a, b) => {
            derive(ex, a, atom, p, out);
            derive(ex, b, atom, p, out);
        }
        Kat::Star(a) => {
            let mut first = vec![];
            derive(ex, a, atom, p, &mut first);
            for d in first {
                out.push(ex.seq(d, e));
            }
        }
        _ => {}
    }
}

fn step(ex: &mut Exprs, set: &[Id], atom: usize, p: u32) -> Vec<Id> {
    let mut out = vec![];
    for &e in set {
        derive(ex, e, atom, p, &mut out);
    }
    out.retain(|&x| x != super::expr::ZERO);
    out.sort_unstable();
    out.dedup();
    out
}

/// What the certificate is checked against: the atoms, the states claims
/// start in, the facts, and the number of actions.
pub(super) struct Ground<'a> {
    pub atoms: &'a [u64],
    pub start: &'a [u32],
    pub facts: &'a [Fact],
    pub actions: u32,
}

/// Checks that `cert` proves `l = r` (or, for a simulation, `l` within
/// `r`'s closure).
pub(super) fn check(ex: &mut Exprs, g: &Ground, l: Id, r: Id, cert: &Certificate) -> Result<(), CertificateError> {
    let n = g.atoms.len();
    let undo = |p: usize| -> Vec<u32> {
        g.facts
            .iter()
            .filter_map(|f| match f {
                Fact::Undo { act, by } if *act == p => Some(*by as u32),
                _ => None,
            })
            .collect()
    };
    // Each action's facts read once, and each step's allowed atoms found
    // once: a pair's derivatives are checked under every atom.
    let facts = by_action(g.facts, g.actions);
    let mut allowed_after: HashMap<(u32, usize), Rc<[u32]>> = HashMap::new();
    let mut next = |a: u32, p: usize| -> Rc<[u32]> {
        allowed_after
            .entry((a, p))
            .or_insert_with(|| {
                (0..n as u32)
                    .filter(|&b| allowed(&facts[p], g.atoms[a as usize], g.atoms[b as usize]))
                    .collect()
            })
            .clone()
    };
    if cert.inclusion {
        return check_inclusion(ex, g, (l, r), cert, &undo, &mut next);
    }
    check_equivalence(ex, g, (l, r), cert, &mut next)
}

/// Checks that `cert`, a simulation, proves `l` within the closure of `r`
/// under undoing moves (`undo`: the actions that undo an action).
fn check_inclusion(
    ex: &mut Exprs,
    g: &Ground,
    (l, r): (Id, Id),
    cert: &Certificate,
    undo: &impl Fn(usize) -> Vec<u32>,
    next: &mut impl FnMut(u32, usize) -> Rc<[u32]>,
) -> Result<(), CertificateError> {
    let related: HashSet<(State, State)> = cert.pairs.iter().cloned().collect();
    for &a in g.start {
        if !related.contains(&((vec![l], a), (vec![r], a))) {
            return Err(CertificateError::StartUnrelated(a));
        }
    }
    for (left, right) in &cert.pairs {
        let a = left.1;
        if left.1 != right.1 {
            return Err(CertificateError::TwoAtoms);
        }
        let acc = |ex: &Exprs, s: &[Id]| s.iter().any(|&e| accepts(ex, e, a as usize));
        if acc(ex, &left.0) && !acc(ex, &right.0) {
            return Err(CertificateError::LeftOnly);
        }
        for p in 0..g.actions {
            let dl = step(ex, &left.0, a as usize, p);
            if dl.is_empty() {
                continue;
            }
            let qs = undo(p as usize);
            for &b in next(a, p as usize).iter() {
                // The right's step, closed under undoing.
                let mut t = step(ex, &right.0, a as usize, p);
                loop {
                    let mut grown = t.clone();
                    for &q in &qs {
                        let back = step(ex, &t, b as usize, q);
                        grown.extend(step(ex, &back, a as usize, p));
                    }
                    grown.sort_unstable();
                    grown.dedup();
                    if grown == t {
                        break;
                    }
                    t = grown;
                }
                if !related.contains(&((dl.clone(), b), (t, b))) {
                    return Err(CertificateError::Leaves);
                }
            }
        }
    }
    Ok(())
}

/// Checks that `cert`, a bisimulation up to equivalence, proves `l = r`.
fn check_equivalence(
    ex: &mut Exprs,
    g: &Ground,
    (l, r): (Id, Id),
    cert: &Certificate,
    next: &mut impl FnMut(u32, usize) -> Rc<[u32]>,
) -> Result<(), CertificateError> {
    // Up to equivalence: the classes the pairs generate.
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut parent: Vec<usize> = vec![];
    let mut id = |s: &State, parent: &mut Vec<usize>| -> usize {
        let k = index.len();
        let i = *index.entry(s.clone()).or_insert(k);
        if i == parent.len() {
            parent.push(i);
        }
        i
    };
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (s, t) in &cert.pairs {
        let (x, y) = (id(s, &mut parent), id(t, &mut parent));
        let (x, y) = (root(&mut parent, x), root(&mut parent, y));
        parent[x] = y;
    }
    let mut same = |s: &State, t: &State, parent: &mut Vec<usize>| -> bool {
        if s == t {
            return true;
        }
        let (x, y) = (id(s, parent), id(t, parent));
        root(parent, x) == root(parent, y)
    };
    for &a in g.start {
        if !same(&(vec![l], a), &(vec![r], a), &mut parent) {
            return Err(CertificateError::StartUnrelated(a));
        }
    }
    for (s, t) in &cert.pairs {
        let a = s.1;
        if s.1 != t.1 {
            return Err(CertificateError::TwoAtoms);
        }
        let acc = |ex: &Exprs, set: &[Id]| set.iter().any(|&e| accepts(ex, e, a as usize));
        if acc(ex, &s.0) != acc(ex, &t.0) {
            return Err(CertificateError::Acceptance);
        }
        for p in 0..g.actions {
            let (ds, dt) = (step(ex, &s.0, a as usize, p), step(ex, &t.0, a as usize, p));
            if ds.is_empty() && dt.is_empty() {
                continue;
            }
            for &b in next(a, p as usize).iter() {
                if !same(&(ds.clone(), b), &(dt.clone(), b), &mut parent) {
                    return Err(CertificateError::Leaves);
                }
            }
        }
    }
    Ok(())
}
