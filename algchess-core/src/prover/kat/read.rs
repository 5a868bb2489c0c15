//! A move read as a KAT term: its actions and its tests.
//!
//! `nil`, `fail`, sequence, choice and repetition are KAT's own; counted
//! repetition is written out (`M{2,4}` is `M M (1 + M (1 + M))`) and
//! `M*!` is `M* not M`. Guards become Boolean formulas over primitive tests
//! (`prim.rs`), `not T` of a test its complement, and `not M` of any other
//! move the complement of "`M` applies", read off `M` where it can be (a
//! rule applies where its guard holds and its write lands; a choice where
//! either side applies) and a primitive test of its own where not. Every
//! other move is an action, known by its term: a rule that writes (placed,
//! so translations of one rule are one action), a binder, a metavariable.

use super::prim::{placed, Prim};
use crate::geometry::{Movement, Square};
use crate::ir::{Cell, Fragment, Node, Term};
use crate::prover::decide::{all_off, as_guard, has_nil, is_test};
use std::collections::HashMap;

/// A Boolean formula over primitive tests, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Bool {
    True,
    False,
    Lit(usize),
    Not(Box<Bool>),
    And(Box<Bool>, Box<Bool>),
    Or(Box<Bool>, Box<Bool>),
}

impl Bool {
    fn and(a: Bool, b: Bool) -> Bool {
        match (a, b) {
            (Bool::True, x) | (x, Bool::True) => x,
            (Bool::False, _) | (_, Bool::False) => Bool::False,
            (a, b) => Bool::And(Box::new(a), Box::new(b)),
        }
    }

    fn or(a: Bool, b: Bool) -> Bool {
        match (a, b) {
            (Bool::False, x) | (x, Bool::False) => x,
            (Bool::True, _) | (_, Bool::True) => Bool::True,
            (a, b) => Bool::Or(Box::new(a), Box::new(b)),
        }
    }

    fn not(a: Bool) -> Bool {
        match a {
            Bool::True => Bool::False,
            Bool::False => Bool::True,
            Bool::Not(x) => *x,
            a => Bool::Not(Box::new(a)),
        }
    }

    /// The formula's value on an atom (a valuation of the primitive tests).
    pub(super) fn eval(&self, atom: u64) -> bool {
        match self {
            Bool::True => true,
            Bool::False => false,
            Bool::Lit(i) => atom >> i & 1 == 1,
            Bool::Not(a) => !a.eval(atom),
            Bool::And(a, b) => a.eval(atom) && b.eval(atom),
            Bool::Or(a, b) => a.eval(atom) || b.eval(atom),
        }
    }
}

/// A KAT term whose tests are formulas and whose actions are indices into
/// the alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Sym {
    Zero,
    One,
    Test(Bool),
    Act(usize),
    Seq(Box<Sym>, Box<Sym>),
    Alt(Box<Sym>, Box<Sym>),
    Star(Box<Sym>),
}

impl Sym {
    fn seq(a: Sym, b: Sym) -> Sym {
        match (a, b) {
            (Sym::One, x) | (x, Sym::One) => x,
            (Sym::Zero, _) | (_, Sym::Zero) => Sym::Zero,
            (a, b) => Sym::Seq(Box::new(a), Box::new(b)),
        }
    }

    fn alt(a: Sym, b: Sym) -> Sym {
        match (a, b) {
            (Sym::Zero, x) | (x, Sym::Zero) => x,
            (a, b) => Sym::Alt(Box::new(a), Box::new(b)),
        }
    }

    /// The formula of a term made of tests only.
    fn as_bool(&self) -> Option<Bool> {
        Some(match self {
            Sym::Zero => Bool::False,
            Sym::One | Sym::Star(_) => Bool::True,
            Sym::Test(b) => b.clone(),
            Sym::Act(_) => return None,
            Sym::Seq(a, b) => Bool::and(a.as_bool()?, b.as_bool()?),
            Sym::Alt(a, b) => Bool::or(a.as_bool()?, b.as_bool()?),
        })
    }

    fn size(&self) -> usize {
        match self {
            Sym::Seq(a, b) | Sym::Alt(a, b) => 1 + a.size() + b.size(),
            Sym::Star(a) => 1 + a.size(),
            _ => 1,
        }
    }
}

/// The letters two sides are spelled in: primitive tests and actions.
#[derive(Clone, Debug, Default)]
pub(super) struct Alphabet {
    pub prims: Vec<Prim>,
    pub acts: Vec<Term>,
    prim_index: HashMap<Prim, usize>,
    act_index: HashMap<Term, usize>,
}

impl Alphabet {
    pub(super) fn prim(&mut self, p: Prim) -> usize {
        if let Some(&i) = self.prim_index.get(&p) {
            return i;
        }
        // An anchored test needs the POI: `At` implies `Bound`.
        if matches!(p, Prim::At(..)) {
            self.prim(Prim::Bound);
        }
        let i = self.prims.len();
        self.prims.push(p.clone());
        self.prim_index.insert(p, i);
        i
    }

    pub(super) fn act(&mut self, t: Term) -> usize {
        if let Some(&i) = self.act_index.get(&t) {
            return i;
        }
        let i = self.acts.len();
        self.acts.push(t.clone());
        self.act_index.insert(t, i);
        i
    }

    pub(super) fn find_prim(&self, p: &Prim) -> Option<usize> {
        self.prim_index.get(p).copied()
    }

    pub(super) fn find_act(&self, t: &Term) -> Option<usize> {
        self.act_index.get(t).copied()
    }
}

/// A move that cannot be read: written out, a side would pass `MAX_SIZE`
/// nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Unwritable;

/// The most nodes a side may have once written out.
const MAX_SIZE: usize = 20_000;
/// The largest count written out; a larger one makes the repetition an
/// action of its own.
const MAX_COUNT: u32 = 64;

/// Reads moves into one alphabet.
#[derive(Default)]
pub(super) struct Reader {
    pub alphabet: Alphabet,
}

/// A rule between fragments, moved so that translations of one rule are
/// one action: the POI on the origin, or else the lowest square.
pub(super) fn placed_rule(f: &Fragment, g: &Fragment) -> Term {
    let low = f.poi().or_else(|| f.cells().chain(g.cells()).map(|(q, _)| q).min());
    let (f, g) = match low {
        Some(q) if q != Square::ORIGIN => {
            let t = Movement::translation(-q.x, -q.y);
            (f.shifted(&t), g.shifted(&t))
        }
        _ => (f.clone(), g.clone()),
    };
    Term::rule(&Term::fragment(f), &Term::fragment(g))
}

impl Reader {
    /// The move as a KAT term.
    pub(super) fn read(&mut self, t: &Term) -> Result<Sym, Unwritable> {
        let s = self.term(t)?;
        if s.size() > MAX_SIZE {
            return Err(Unwritable);
        }
        Ok(s)
    }

    fn term(&mut self, t: &Term) -> Result<Sym, Unwritable> {
        Ok(match t.node() {
            Node::Nil => Sym::One,
            Node::Fail => Sym::Zero,
            Node::Seq([a, b]) => Sym::seq(self.term(a)?, self.term(b)?),
            Node::Alt([a, b]) => Sym::alt(self.term(a)?, self.term(b)?),
            Node::Repeat([a, ..]) => match t.bounds() {
                Some(b) if b.lo <= MAX_COUNT && b.hi.is_none_or(|h| h - b.lo <= MAX_COUNT) => {
                    let x = self.term(a)?;
                    if x.size().saturating_mul(b.hi.unwrap_or(b.lo) as usize + 1) > MAX_SIZE {
                        return Err(Unwritable);
                    }
                    let tail = match b.hi {
                        None => Sym::Star(Box::new(x.clone())),
                        // `1 + x (1 + x (…))`, innermost first.
                        Some(h) => (0..h - b.lo).fold(Sym::One, |acc, _| Sym::alt(Sym::One, Sym::seq(x.clone(), acc))),
                    };
                    (0..b.lo).fold(tail, |acc, _| Sym::seq(x.clone(), acc))
                }
                _ => self.opaque(t),
            },
            Node::Greedy([a]) => {
                let body = self.term(a)?;
                let stop = Bool::not(self.applies(a)?);
                Sym::seq(Sym::Star(Box::new(body)), Sym::Test(stop))
            }
            Node::Not([a]) => Sym::Test(Bool::not(self.test_or_applies(a)?)),
            Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
                (Some(p), Some(q)) => {
                    let mut out = Sym::Zero;
                    for a in p.members() {
                        for b in q.members() {
                            out = Sym::alt(out, self.rule(a, b));
                        }
                    }
                    out
                }
                _ => self.opaque(t),
            },
            Node::Bind([_, body]) if matches!(body.node(), Node::Fail) => Sym::Zero,
            Node::Bind([_, body]) if is_test(body) => self.bind_test(t),
            Node::Var(_) | Node::Bind(..) => Sym::Act(self.alphabet.act(t.clone())),
            _ => self.opaque(t),
        })
    }

    /// A test or action known only by its term.
    fn opaque(&mut self, t: &Term) -> Sym {
        if is_test(t) {
            Sym::Test(Bool::Lit(self.alphabet.prim(Prim::Test(t.clone()))))
        } else {
            Sym::Act(self.alphabet.act(t.clone()))
        }
    }

    /// A binder whose body is a test: `%c: nil` asks for a square holding
    /// `c` (other than the POI's), any other body is a test of its own.
    fn bind_test(&mut self, t: &Term) -> Sym {
        let Node::Bind([c, body]) = t.node() else {
            unreachable!()
        };
        match (c.node(), body.node()) {
            (Node::Cell(c), Node::Nil) => Sym::Test(self.guard(&Fragment::single(Cell::Is(*c)))),
            _ => Sym::Test(Bool::Lit(self.alphabet.prim(Prim::Test(t.clone())))),
        }
    }

    fn rule(&mut self, f: &Fragment, g: &Fragment) -> Sym {
        if all_off(f) && all_off(g) {
            return Sym::One;
        }
        if crate::laws::fusion::contradictory(f, g) {
            return Sym::Zero;
        }
        match as_guard(f, g) {
            Some(h) => Sym::Test(self.guard(&h)),
            None => Sym::Act(self.alphabet.act(placed_rule(f, g))),
        }
    }

    /// The guard `h -> 0` as a formula.
    pub(super) fn guard(&mut self, h: &Fragment) -> Bool {
        if all_off(h) {
            // Some square is always off a finite board.
            return Bool::True;
        }
        match h.poi() {
            Some(s0) => h
                .cells()
                .filter(|(s, _)| *s != s0)
                .fold(Bool::Lit(self.alphabet.prim(Prim::Bound)), |acc, (s, c)| {
                    Bool::and(acc, Bool::Lit(self.alphabet.prim(Prim::At(s - s0, c))))
                }),
            None => Bool::Lit(self.alphabet.prim(Prim::Guard(placed(h)))),
        }
    }

    /// The formula of a test, or "the move applies" of any other move.
    fn test_or_applies(&mut self, t: &Term) -> Result<Bool, Unwritable> {
        if is_test(t) {
            if let Some(b) = self.term(t)?.as_bool() {
                return Ok(b);
            }
        }
        self.applies(t)
    }

    /// Where the move has a result.
    pub(super) fn applies(&mut self, t: &Term) -> Result<Bool, Unwritable> {
        if is_test(t) {
            if let Some(b) = self.term(t)?.as_bool() {
                return Ok(b);
            }
        }
        Ok(match t.node() {
            Node::Nil => Bool::True,
            Node::Fail => Bool::False,
            Node::Alt([a, b]) => Bool::or(self.applies(a)?, self.applies(b)?),
            Node::Seq(..) => {
                let mut steps = vec![];
                t.push_steps(&mut steps);
                // What follows and offers `nil` changes nothing of where
                // the move applies; leading tests are part of it.
                while steps.len() > 1 && steps.last().is_some_and(has_nil) {
                    steps.pop();
                }
                let mut first = Bool::True;
                while steps.len() > 1 && is_test(&steps[0]) {
                    first = Bool::and(first, self.test_or_applies(&steps[0])?);
                    steps.remove(0);
                }
                let rest = match &steps[..] {
                    [one] => self.applies(one)?,
                    _ => Bool::Lit(self.alphabet.prim(Prim::Applies(seq_of(&steps)))),
                };
                Bool::and(first, rest)
            }
            Node::Repeat([a, ..]) => match t.bounds() {
                Some(b) if b.lo == 0 => Bool::True,
                Some(b) if b.lo == 1 => self.applies(a)?,
                _ => self.applies_prim(t),
            },
            Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
                (Some(p), Some(q)) => {
                    let mut out = Bool::False;
                    for a in p.members() {
                        for b in q.members() {
                            let one = self.rule_applies(a, b);
                            out = Bool::or(out, one);
                        }
                    }
                    out
                }
                _ => self.applies_prim(t),
            },
            Node::Bind([c, body]) => match c.node() {
                Node::Cell(c) if has_nil(body) => self.guard(&Fragment::single(Cell::Is(*c))),
                _ => self.applies_prim(t),
            },
            _ => self.applies_prim(t),
        })
    }

    fn applies_prim(&mut self, t: &Term) -> Bool {
        Bool::Lit(self.alphabet.prim(Prim::Applies(t.clone())))
    }

    /// Where a rule between fragments applies: its guard holds and its
    /// write lands. Exact for anchored rules, whose squares are known
    /// relative to the POI, and for rules that write only what they read.
    fn rule_applies(&mut self, f: &Fragment, g: &Fragment) -> Bool {
        if all_off(f) && all_off(g) {
            return Bool::True;
        }
        if crate::laws::fusion::contradictory(f, g) {
            return Bool::False;
        }
        let outside: Vec<(Square, Cell)> = g.cells().filter(|(s, _)| f.get(*s).is_none()).collect();
        match f.poi() {
            Some(s0) => outside.into_iter().fold(self.guard(f), |acc, (s, c)| {
                let off = Bool::Lit(self.alphabet.prim(Prim::At(s - s0, Cell::Off)));
                Bool::and(acc, if c == Cell::Off { off } else { Bool::not(off) })
            }),
            None if outside.is_empty() => self.guard(f),
            None => self.applies_prim(&placed_rule(f, g)),
        }
    }
}

fn seq_of(steps: &[Term]) -> Term {
    let (last, rest) = steps.split_last().expect("at least one step");
    rest.iter().rev().fold(last.clone(), |acc, x| Term::seq(x, &acc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;

    /// The move `text`, metavariables allowed.
    fn def(text: &str) -> Term {
        Program::from_text("t.alg", &format!("theorem t: {text} = nil\n"))
            .unwrap()
            .claims()[0]
            .lhs
            .clone()
    }

    #[test]
    fn guards_become_formulas_and_writes_actions() {
        let mut r = Reader::default();
        let s = r.read(&def("(% + u. -> 0) (% + u. -> . + u%)")).unwrap();
        let Sym::Seq(t, a) = s else { panic!("{s:?}") };
        assert!(matches!(*t, Sym::Test(_)));
        assert_eq!(*a, Sym::Act(0));
        // Bound, then `u` reads `.`.
        assert_eq!(r.alphabet.prims.len(), 2);
        // Translations of one rule are one action.
        let mut r = Reader::default();
        r.read(&def("(♙ + u. -> . + u♙) | u(♙ + u. -> . + u♙)")).unwrap();
        assert_eq!(r.alphabet.acts.len(), 1);
    }

    #[test]
    fn counted_repetition_is_written_out() {
        let mut r = Reader::default();
        let s = r.read(&def("M{2,3}")).unwrap();
        let m = || Box::new(Sym::Act(0));
        let opt = Sym::Alt(Box::new(Sym::One), Box::new(Sym::Act(0)));
        assert_eq!(s, Sym::Seq(m(), Box::new(Sym::Seq(m(), Box::new(opt)))));
    }

    #[test]
    fn where_a_rule_applies() {
        let mut r = Reader::default();
        // An anchored rule applies where its guard holds: no new letter.
        let b = r.applies(&def("% + u. -> . + u%")).unwrap();
        assert_eq!(
            r.alphabet.prims,
            vec![Prim::Bound, Prim::At(Square::new(0, 1), Cell::EMPTY)]
        );
        assert!(b.eval(0b11) && !b.eval(0b01));
        // A rule writing a square it does not read needs it on the board.
        let mut r = Reader::default();
        r.applies(&def("♙ -> ♙ + u♕")).unwrap();
        assert!(matches!(r.alphabet.prims[..], [Prim::Applies(_)]));
    }
}
