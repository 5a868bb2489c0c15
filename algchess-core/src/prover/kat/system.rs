//! The atoms of a claim and the steps between them that the facts allow.
//!
//! An atom is a valuation of every primitive test that no static fact
//! rules out; a step `α p β` is allowed when `p` may run from `α` and its
//! facts allow `β` after it. A guarded string with a step that is not
//! allowed has no result on any state, so two expressions are equal when
//! they agree on the strings all of whose steps are allowed.

use super::facts::Fact;
use super::prim::{Conj, Lit};
use std::collections::HashMap;
use std::rc::Rc;

/// Why a system could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Overflow {
    /// More primitive tests than an atom can hold.
    Prims(usize),
    /// More atoms than the limit.
    Atoms(usize),
}

/// What the facts say of one action.
#[derive(Clone, Debug, Default)]
struct ActionFacts {
    /// Where the action may run.
    pre: Conj,
    /// What holds after it.
    post: Conj,
    /// What it carries over.
    carries: Vec<(Lit, Lit)>,
    /// Whether a fact contradicts itself, so the action never runs.
    never: bool,
}

/// The atoms and the allowed steps of a claim.
pub(super) struct System {
    pub atoms: Vec<u64>,
    /// The atoms a claim's states may start in.
    pub start: Vec<u32>,
    steps: Vec<ActionFacts>,
    /// For each action, the actions that undo it.
    pub undo: Vec<Vec<u32>>,
    next: HashMap<(u32, u32), Rc<[u32]>>,
}

/// The static facts as clauses, each checked once its last primitive test
/// has a value.
fn clauses(facts: &[Fact]) -> Vec<(usize, Conj, Lit)> {
    facts
        .iter()
        .filter_map(|f| match f {
            Fact::Implies { given, then } => {
                let last = given.iter().map(|l| l.prim).chain([then.prim]).max()?;
                Some((last, Conj::of(given)?, *then))
            }
            _ => None,
        })
        .collect()
}

/// Every atom over `prims` primitive tests that the static facts allow,
/// in order; at most `limit`.
pub(super) fn atoms(prims: usize, facts: &[Fact], limit: usize) -> Result<Vec<u64>, Overflow> {
    if prims > 64 {
        return Err(Overflow::Prims(prims));
    }
    let clauses = clauses(facts);
    let mut by_last: Vec<Vec<(Conj, Lit)>> = vec![vec![]; prims];
    for (last, given, then) in clauses {
        by_last[last].push((given, then));
    }
    let mut out = vec![];
    // Depth-first over the tests, each clause checked at its last test.
    let mut stack = vec![(0usize, 0u64)];
    while let Some((i, atom)) = stack.pop() {
        if i == prims {
            out.push(atom);
            if out.len() > limit {
                return Err(Overflow::Atoms(limit));
            }
            continue;
        }
        for v in [true, false] {
            let a = if v { atom | 1 << i } else { atom };
            let ok = by_last[i]
                .iter()
                .all(|(given, then)| !given.holds(a) || (a >> then.prim & 1 == 1) == then.holds);
            if ok {
                stack.push((i + 1, a));
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

impl System {
    /// The system of `acts` actions over `prims` primitive tests; `start`
    /// says which atoms a claim's states start in.
    pub(super) fn new(
        prims: usize,
        acts: usize,
        facts: &[Fact],
        start: impl Fn(u64) -> bool,
        limit: usize,
    ) -> Result<System, Overflow> {
        let atoms = atoms(prims, facts, limit)?;
        let mut steps = vec![ActionFacts::default(); acts];
        let mut undo = vec![vec![]; acts];
        for f in facts {
            match f {
                Fact::Implies { .. } => {}
                Fact::Pre { act, lit } => match steps[*act].pre.and(*lit) {
                    Some(c) => steps[*act].pre = c,
                    None => steps[*act].never = true,
                },
                Fact::Post { act, lit } => match steps[*act].post.and(*lit) {
                    Some(c) => steps[*act].post = c,
                    None => steps[*act].never = true,
                },
                Fact::Carry { act, given, then } => steps[*act].carries.push((*given, *then)),
                Fact::Undo { act, by } => undo[*act].push(*by as u32),
            }
        }
        let start = (0..atoms.len() as u32).filter(|&i| start(atoms[i as usize])).collect();
        Ok(System {
            atoms,
            start,
            steps,
            undo,
            next: HashMap::new(),
        })
    }

    /// The atoms that may follow atom `a` and action `p`.
    pub(super) fn next(&mut self, a: u32, p: u32) -> Rc<[u32]> {
        if let Some(n) = self.next.get(&(a, p)) {
            return n.clone();
        }
        let atom = self.atoms[a as usize];
        let step = &self.steps[p as usize];
        let mut out: Vec<u32> = vec![];
        if !step.never && step.pre.holds(atom) {
            let mut want = Some(step.post);
            for (given, then) in &step.carries {
                if (atom >> given.prim & 1 == 1) == given.holds {
                    want = want.and_then(|w| w.and(*then));
                }
            }
            if let Some(w) = want {
                out = (0..self.atoms.len() as u32)
                    .filter(|&b| w.holds(self.atoms[b as usize]))
                    .collect();
            }
        }
        let out: Rc<[u32]> = out.into();
        self.next.insert((a, p), out.clone());
        out
    }

    pub(super) fn actions(&self) -> u32 {
        self.steps.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_facts_prune_atoms() {
        // 0 implies 1; 0 and 2 exclude each other.
        let facts = vec![
            Fact::Implies {
                given: vec![Lit::yes(0)],
                then: Lit::yes(1),
            },
            Fact::Implies {
                given: vec![Lit::yes(0)],
                then: Lit::no(2),
            },
        ];
        let a = atoms(3, &facts, 100).unwrap();
        assert_eq!(a, vec![0b000, 0b010, 0b011, 0b100, 0b110]);
        assert_eq!(atoms(3, &facts, 2), Err(Overflow::Atoms(2)));
    }

    #[test]
    fn steps_follow_pre_post_and_carries() {
        let facts = vec![
            Fact::Pre {
                act: 0,
                lit: Lit::yes(0),
            },
            Fact::Post {
                act: 0,
                lit: Lit::no(0),
            },
            Fact::Carry {
                act: 0,
                given: Lit::yes(1),
                then: Lit::yes(1),
            },
        ];
        let mut s = System::new(2, 1, &facts, |_| true, 100).unwrap();
        // atoms: 00 01 10 11 (bit 0 = prim 0).
        assert_eq!(s.atoms, vec![0, 1, 2, 3]);
        assert!(s.next(0, 0).is_empty());
        assert_eq!(&*s.next(1, 0), &[0, 2]);
        assert_eq!(&*s.next(3, 0), &[2]);
    }
}
