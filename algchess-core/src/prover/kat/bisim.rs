//! Deciding language equality and inclusion of two expressions, with a
//! certificate.
//!
//! A state of the automaton is a set of Antimirov derivatives and the atom
//! the next letter is read under. Equality is Hopcroft and Karp's
//! bisimulation up to equivalence: pairs of states reached by the same
//! allowed steps are merged in a union-find, and two that differ in
//! accepting a one-atom string end the search with the guarded string that
//! tells them apart. Inclusion walks pairs the same way with a closed
//! right-hand side: where an action has an undoing action, the right side
//! may read `α p β` as `α p β (q α p β)*`. The related pairs are the
//! certificate, checked on its own by `certificate.rs`.

use super::expr::{Exprs, Id};
use super::spend::Spend;
use super::system::System;
use std::collections::{HashMap, VecDeque};

/// A set of expressions and the atom the next letter is read under.
pub(super) type State = (Vec<Id>, u32);

/// The related pairs of states that prove a claim.
#[derive(Clone, Debug)]
pub(super) struct Certificate {
    pub pairs: Vec<(State, State)>,
    /// Whether the pairs show the left language within the right's closure
    /// (a simulation), rather than the two equal (a bisimulation up to
    /// equivalence).
    pub inclusion: bool,
}

/// A guarded string that one side has and the other lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Witness {
    /// The atoms and actions read, in order.
    pub steps: Vec<(u32, u32)>,
    /// The last atom.
    pub last: u32,
}

/// How a search ended.
#[derive(Clone, Debug)]
pub(super) enum Search {
    Same(Certificate),
    Differ(Witness),
    /// Too many pairs, or the decision's work or time ran out.
    Limit,
}

/// The limits of one search: its own pairs, and the decision's work.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget<'a> {
    pub pairs: usize,
    pub spend: &'a Spend,
}

#[derive(Default)]
struct States {
    index: HashMap<State, usize>,
    all: Vec<State>,
}

impl States {
    fn id(&mut self, s: State) -> usize {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.all.len();
        self.all.push(s.clone());
        self.index.insert(s, i);
        i
    }
}

fn find(parent: &mut Vec<usize>, x: usize) -> usize {
    while parent.len() <= x {
        let n = parent.len();
        parent.push(n);
    }
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    let mut y = x;
    while parent[y] != r {
        let next = parent[y];
        parent[y] = r;
        y = next;
    }
    r
}

/// How each related pair was reached: from which pair, by which atom and
/// action, and its own atom.
type Trail = Vec<(Option<From>, u32)>;

/// The pair a step came from, and its atom and action.
type From = (usize, u32, u32);

/// A pair waiting to be related, and how it was reached.
struct Pending {
    left: usize,
    right: usize,
    from: Option<From>,
}

fn witness(trail: &Trail, mut at: usize) -> Witness {
    let last = trail[at].1;
    let mut steps = vec![];
    while let (Some((prev, a, p)), _) = trail[at] {
        steps.push((a, p));
        at = prev;
    }
    steps.reverse();
    Witness { steps, last }
}

/// Whether `l` and `r` denote the same guarded strings, among those whose
/// steps the system allows.
pub(super) fn equivalent(ex: &mut Exprs, sys: &mut System, l: Id, r: Id, budget: Budget) -> Search {
    let mut states = States::default();
    let mut parent = vec![];
    let mut pairs = vec![];
    let mut trail: Trail = vec![];
    let mut todo: VecDeque<Pending> = VecDeque::new();
    for &a in &sys.start.clone() {
        let (x, y) = (states.id((vec![l], a)), states.id((vec![r], a)));
        todo.push_back(Pending {
            left: x,
            right: y,
            from: None,
        });
    }
    while let Some(Pending { left, right, from }) = todo.pop_front() {
        let (x, y) = (find(&mut parent, left), find(&mut parent, right));
        if x == y {
            continue;
        }
        let (sl, a) = states.all[left].clone();
        let (sr, _) = states.all[right].clone();
        // A pair costs a derivative of each side's expressions by every
        // action.
        let cost = 1 + sys.actions() as u64 * (sl.len() + sr.len()) as u64;
        if pairs.len() >= budget.pairs || !budget.spend.take(cost) {
            return Search::Limit;
        }
        let here = trail.len();
        trail.push((from, a));
        if ex.set_accepts(&sl, a) != ex.set_accepts(&sr, a) {
            return Search::Differ(witness(&trail, here));
        }
        parent[x] = y;
        pairs.push((states.all[left].clone(), states.all[right].clone()));
        for p in 0..sys.actions() {
            let (dl, dr) = (ex.derive_set(&sl, a, p), ex.derive_set(&sr, a, p));
            if dl.is_empty() && dr.is_empty() {
                continue;
            }
            // Each transition makes a pair of the derivatives.
            let next = sys.next(a, p);
            if !budget.spend.take(next.len() as u64 * (1 + dl.len() + dr.len()) as u64) {
                return Search::Limit;
            }
            for &b in next.iter() {
                let (u, v) = (states.id((dl.clone(), b)), states.id((dr.clone(), b)));
                todo.push_back(Pending {
                    left: u,
                    right: v,
                    from: Some((here, a, p)),
                });
            }
        }
    }
    Search::Same(Certificate {
        pairs,
        inclusion: false,
    })
}

/// The right-hand side's step by `a p`, then `b`: its derivative, closed
/// under reading `b q a p` again for every action `q` that undoes `p`.
pub(super) fn closed_step(ex: &mut Exprs, undo: &[u32], set: &[Id], a: u32, p: u32, b: u32) -> Vec<Id> {
    let mut t = ex.derive_set(set, a, p);
    loop {
        let mut grown = t.clone();
        for &q in undo {
            let back = ex.derive_set(&t, b, q);
            grown.extend(ex.derive_set(&back, a, p));
        }
        grown.sort_unstable();
        grown.dedup();
        if grown == t {
            return t;
        }
        t = grown;
    }
}

/// Whether every allowed guarded string of `l` is one of `r`'s, with `r`
/// closed under the system's undoing actions.
pub(super) fn included(ex: &mut Exprs, sys: &mut System, l: Id, r: Id, budget: Budget) -> Search {
    let mut seen: HashMap<(State, State), usize> = HashMap::new();
    let mut pairs = vec![];
    let mut trail: Trail = vec![];
    let mut todo: VecDeque<(State, State, Option<From>)> = VecDeque::new();
    for &a in &sys.start.clone() {
        todo.push_back(((vec![l], a), (vec![r], a), None));
    }
    while let Some((left, right, from)) = todo.pop_front() {
        if left.0.is_empty() || seen.contains_key(&(left.clone(), right.clone())) {
            continue;
        }
        let cost = 1 + sys.actions() as u64 * (left.0.len() + right.0.len()) as u64;
        if pairs.len() >= budget.pairs || !budget.spend.take(cost) {
            return Search::Limit;
        }
        let a = left.1;
        let here = trail.len();
        trail.push((from, a));
        if ex.set_accepts(&left.0, a) && !ex.set_accepts(&right.0, a) {
            return Search::Differ(witness(&trail, here));
        }
        seen.insert((left.clone(), right.clone()), here);
        pairs.push((left.clone(), right.clone()));
        for p in 0..sys.actions() {
            let dl = ex.derive_set(&left.0, a, p);
            if dl.is_empty() {
                continue;
            }
            let undo = sys.undo[p as usize].clone();
            let next = sys.next(a, p);
            if !budget
                .spend
                .take(next.len() as u64 * (1 + dl.len() + right.0.len()) as u64)
            {
                return Search::Limit;
            }
            for &b in next.iter() {
                let dr = closed_step(ex, &undo, &right.0, a, p, b);
                todo.push_back(((dl.clone(), b), (dr, b), Some((here, a, p))));
            }
        }
    }
    Search::Same(Certificate { pairs, inclusion: true })
}
