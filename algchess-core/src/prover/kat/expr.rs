//! KAT expressions over a fixed, finite set of atoms, hash-consed in an
//! arena, with their guarded-string derivatives.
//!
//! An atom is one valuation of every primitive test of a claim
//! (`atoms.rs`), so a test is a set of atoms and the Boolean algebra of
//! tests is set algebra. A guarded string `α0 p1 α1 … pn αn` alternates
//! atoms and actions; an expression denotes a set of them, and two
//! expressions are equal in every relational model (Kozen) iff they
//! denote the same set. Antimirov's partial derivatives give a finite
//! automaton for each expression: `accepts(e)` is the set of atoms `α`
//! whose one-atom string is in `e`, and `derive(e, α, p)` the expressions
//! that accept what may follow `α p` in `e`.

use fixedbitset::FixedBitSet;
use std::collections::HashMap;
use std::rc::Rc;

/// An expression, as an index into its arena.
pub(super) type Id = u32;

/// The expression `0` (no string).
pub(super) const ZERO: Id = 0;
/// The expression `1` (every one-atom string).
pub(super) const ONE: Id = 1;

/// One node of a KAT expression.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Kat {
    Zero,
    One,
    /// A test: the set of atoms it lets through.
    Test(FixedBitSet),
    /// An action, by its index in the claim's alphabet.
    Act(u32),
    Seq(Id, Id),
    Alt(Id, Id),
    Star(Id),
}

/// The arena of a claim's expressions, and what has been computed of them.
/// Derivatives build new expressions, so the arena grows during a search.
pub(super) struct Exprs {
    atoms: usize,
    nodes: Vec<Kat>,
    index: HashMap<Kat, Id>,
    accepts: Vec<Option<Rc<FixedBitSet>>>,
    derivs: HashMap<(Id, u32, u32), Rc<[Id]>>,
}

impl Exprs {
    /// An arena for expressions over `atoms` atoms.
    pub(super) fn new(atoms: usize) -> Exprs {
        let mut e = Exprs {
            atoms,
            nodes: vec![],
            index: HashMap::new(),
            accepts: vec![],
            derivs: HashMap::new(),
        };
        e.intern(Kat::Zero);
        e.intern(Kat::One);
        e
    }

    pub(super) fn node(&self, e: Id) -> &Kat {
        &self.nodes[e as usize]
    }

    fn intern(&mut self, k: Kat) -> Id {
        if let Some(&id) = self.index.get(&k) {
            return id;
        }
        let id = self.nodes.len() as Id;
        self.nodes.push(k.clone());
        self.accepts.push(None);
        self.index.insert(k, id);
        id
    }

    /// A set of atoms with nothing in it.
    pub(super) fn no_atoms(&self) -> FixedBitSet {
        FixedBitSet::with_capacity(self.atoms)
    }

    /// The test that lets `set` through.
    pub(super) fn test(&mut self, set: FixedBitSet) -> Id {
        match set.count_ones(..) {
            0 => ZERO,
            n if n == self.atoms => ONE,
            _ => self.intern(Kat::Test(set)),
        }
    }

    pub(super) fn act(&mut self, a: u32) -> Id {
        self.intern(Kat::Act(a))
    }

    /// `a b`, kept grouped to the right with adjacent tests merged.
    pub(super) fn seq(&mut self, a: Id, b: Id) -> Id {
        if a == ZERO || b == ZERO {
            return ZERO;
        }
        if a == ONE {
            return b;
        }
        if b == ONE {
            return a;
        }
        match (self.node(a).clone(), self.node(b).clone()) {
            (Kat::Seq(x, y), _) => {
                let rest = self.seq(y, b);
                self.seq(x, rest)
            }
            (Kat::Test(s), Kat::Test(t)) => {
                let mut both = s;
                both.intersect_with(&t);
                self.test(both)
            }
            (Kat::Test(s), Kat::Seq(x, y)) => match self.node(x).clone() {
                Kat::Test(t) => {
                    let mut both = s;
                    both.intersect_with(&t);
                    let first = self.test(both);
                    self.seq(first, y)
                }
                _ => self.intern(Kat::Seq(a, b)),
            },
            _ => self.intern(Kat::Seq(a, b)),
        }
    }

    /// `a | b`, with its two sides in a fixed order and tests merged.
    pub(super) fn alt(&mut self, a: Id, b: Id) -> Id {
        if a == ZERO || a == b {
            return b;
        }
        if b == ZERO {
            return a;
        }
        if let (Kat::Test(s), Kat::Test(t)) = (self.node(a), self.node(b)) {
            let mut either = s.clone();
            either.union_with(t);
            return self.test(either);
        }
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.intern(Kat::Alt(a, b))
    }

    /// `a*`: a test repeated is `1`.
    pub(super) fn star(&mut self, a: Id) -> Id {
        match self.node(a) {
            Kat::Zero | Kat::One | Kat::Test(_) => ONE,
            Kat::Star(_) => a,
            _ => self.intern(Kat::Star(a)),
        }
    }

    /// The atoms `α` for which the string `α` alone is in `e`.
    pub(super) fn accepts(&mut self, e: Id) -> Rc<FixedBitSet> {
        if let Some(s) = &self.accepts[e as usize] {
            return s.clone();
        }
        let set = match self.node(e).clone() {
            Kat::Zero | Kat::Act(_) => self.no_atoms(),
            Kat::One | Kat::Star(_) => {
                let mut all = self.no_atoms();
                all.insert_range(..);
                all
            }
            Kat::Test(s) => s,
            Kat::Seq(a, b) => {
                let mut s = (*self.accepts(a)).clone();
                s.intersect_with(&self.accepts(b));
                s
            }
            Kat::Alt(a, b) => {
                let mut s = (*self.accepts(a)).clone();
                s.union_with(&self.accepts(b));
                s
            }
        };
        let set = Rc::new(set);
        self.accepts[e as usize] = Some(set.clone());
        set
    }

    /// Antimirov's partial derivatives of `e` by atom `atom` and action
    /// `act`, sorted and without repeats.
    pub(super) fn derive(&mut self, e: Id, atom: u32, act: u32) -> Rc<[Id]> {
        if let Some(d) = self.derivs.get(&(e, atom, act)) {
            return d.clone();
        }
        let mut out = vec![];
        match self.node(e).clone() {
            Kat::Act(q) if q == act => out.push(ONE),
            Kat::Seq(a, b) => {
                for &d in self.derive(a, atom, act).iter() {
                    out.push(self.seq(d, b));
                }
                if self.accepts(a).contains(atom as usize) {
                    out.extend(self.derive(b, atom, act).iter());
                }
            }
            Kat::Alt(a, b) => {
                out.extend(self.derive(a, atom, act).iter());
                out.extend(self.derive(b, atom, act).iter());
            }
            Kat::Star(a) => {
                for &d in self.derive(a, atom, act).iter() {
                    out.push(self.seq(d, e));
                }
            }
            _ => {}
        }
        out.retain(|&x| x != ZERO);
        out.sort_unstable();
        out.dedup();
        let d: Rc<[Id]> = out.into();
        self.derivs.insert((e, atom, act), d.clone());
        d
    }

    /// The derivative of a set of expressions: the union of theirs.
    pub(super) fn derive_set(&mut self, set: &[Id], atom: u32, act: u32) -> Vec<Id> {
        let mut out = vec![];
        for &e in set {
            out.extend(self.derive(e, atom, act).iter());
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether some expression of the set accepts the one-atom string.
    pub(super) fn set_accepts(&mut self, set: &[Id], atom: u32) -> bool {
        set.iter().any(|&e| self.accepts(e).contains(atom as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(atoms: usize, bits: &[usize]) -> FixedBitSet {
        let mut s = FixedBitSet::with_capacity(atoms);
        for &b in bits {
            s.insert(b);
        }
        s
    }

    #[test]
    fn constructors_fold_units_and_tests() {
        let mut e = Exprs::new(2);
        let p = e.act(0);
        assert_eq!(e.seq(ONE, p), p);
        assert_eq!(e.seq(p, ZERO), ZERO);
        assert_eq!(e.alt(ZERO, p), p);
        assert_eq!(e.alt(p, p), p);
        let (t, u) = (e.test(set(2, &[0])), e.test(set(2, &[1])));
        assert_eq!(e.alt(t, u), ONE);
        assert_eq!(e.seq(t, u), ZERO);
        assert_eq!(e.star(t), ONE);
        let ps = e.star(p);
        assert_eq!(e.star(ps), ps);
        // Grouped to the right: (p t) p is p (t p).
        let pt = e.seq(p, t);
        let left = e.seq(pt, p);
        let tp = e.seq(t, p);
        assert_eq!(left, e.seq(p, tp));
    }

    /// `p*` accepts every atom alone; a derivative by `p` of `p*` is `p*`
    /// again, and by another action nothing.
    #[test]
    fn derivatives_of_a_star() {
        let mut e = Exprs::new(2);
        let p = e.act(0);
        let ps = e.star(p);
        assert_eq!(e.accepts(ps).count_ones(..), 2);
        assert_eq!(&*e.derive(ps, 1, 0), &[ps]);
        assert!(e.derive(ps, 1, 1).is_empty());
        // t p: the derivative by an atom outside t is empty.
        let t = e.test(set(2, &[0]));
        let tp = e.seq(t, p);
        assert_eq!(&*e.derive(tp, 0, 0), &[ONE]);
        assert!(e.derive(tp, 1, 0).is_empty());
    }
}
