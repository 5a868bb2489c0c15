//! Runs a plan on one board, in place. Every result is made on the board,
//! handed to a continuation, and unmade: a rule writes a few squares and
//! records what they held, so nothing is cloned. A continuation returns
//! `true` to stop the search (an existence test needs one result).

use super::mailbox::Mailbox;
use super::plan::{FastBranch, FastRule, Find, Op};
use crate::semantics::{Code, Eval, Halt, State};
use rustc_hash::FxHashSet;
use smallvec::SmallVec;

/// A board as it differs from where a search started: changed squares by
/// index, in order, with what they now hold.
pub type Diff = SmallVec<[(u32, u8); 6]>;

pub type Cont<'k> = dyn FnMut(&mut Ctx) -> bool + 'k;

pub struct Ctx {
    pub board: Mailbox,
    pub poi: Option<usize>,
    /// Squares written, with what they held before, oldest first.
    trail: Vec<(u32, u8)>,
    /// A move handed to the interpreter made more states than its budget.
    pub too_big: Option<usize>,
}

/// States seen by a search: a short list, then a hash set.
#[derive(Default)]
struct Seen {
    few: Vec<(Diff, Option<usize>)>,
    many: FxHashSet<(Diff, Option<usize>)>,
}

impl Seen {
    fn insert(&mut self, k: (Diff, Option<usize>)) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&k) {
                return false;
            }
            if self.few.len() < 16 {
                self.few.push(k);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(k)
    }
}

impl Ctx {
    pub fn new(board: Mailbox) -> Ctx {
        Ctx {
            board,
            poi: None,
            trail: Vec::with_capacity(64),
            too_big: None,
        }
    }

    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Restores every square written since `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (i, v) = self.trail.pop().expect("above the mark");
            self.board.cells[i as usize] = v;
        }
    }

    #[inline]
    fn write(&mut self, i: usize, v: u8) {
        self.trail.push((i as u32, self.board.cells[i]));
        self.board.cells[i] = v;
    }

    /// Applies a diff made by `diff`, to be undone with `undo`.
    pub fn apply(&mut self, d: &Diff) {
        for &(i, v) in d {
            self.write(i as usize, v);
        }
    }

    /// How the board differs from what it was at `mark`.
    pub fn diff(&self, mark: usize) -> Diff {
        let mut d: Diff = SmallVec::new();
        for &(i, _) in &self.trail[mark..] {
            if !d.iter().any(|(j, _)| *j == i) {
                d.push((i, 0));
            }
        }
        // A square's value at the mark is the oldest record of it.
        d.retain(|(i, v)| {
            let before = self.trail[mark..].iter().find(|(j, _)| j == i).expect("written").1;
            *v = self.board.cells[*i as usize];
            *v != before
        });
        d.sort_unstable();
        d
    }

    /// What square `i` reads: `%` on the POI's square.
    #[inline]
    fn read(&self, i: usize) -> u8 {
        if Some(i) == self.poi {
            Code::POI
        } else {
            self.board.cells[i]
        }
    }

    #[inline]
    fn fits(&self, r: &FastRule, base: usize) -> bool {
        let at = |d: isize| base.wrapping_add_signed(d);
        r.reads.iter().all(|&(d, set)| set.contains_code(self.read(at(d))))
            && r.offs.iter().all(|&d| self.board.cells[at(d)] == Code::OFF)
            && r.writes.iter().all(|&(d, _)| self.board.cells[at(d)] != Code::OFF)
    }

    /// Applies `r` at `base`, runs `k`, and unmakes it.
    fn apply_rule(&mut self, r: &FastRule, base: usize, k: &mut Cont) -> bool {
        let mark = self.mark();
        let before = self.poi;
        let carried = before.map(|p| self.board.cells[p]);
        let (mut moved, mut cleared) = (None, false);
        for &(d, v) in &r.writes {
            let i = base.wrapping_add_signed(d);
            if v == Code::POI {
                self.write(i, carried.expect("a rule that writes `%` runs only with a POI"));
                moved = Some(i);
            } else {
                self.write(i, v);
                cleared |= Some(i) == before;
            }
        }
        self.poi = moved.or(if cleared { None } else { before });
        let stop = k(self);
        self.undo(mark);
        self.poi = before;
        stop
    }

    /// The squares holding `code`, the POI's excepted.
    fn holding(&self, code: u8) -> SmallVec<[usize; 16]> {
        memchr::memchr_iter(code, &self.board.cells)
            .filter(|i| Some(*i) != self.poi)
            .collect()
    }

    /// Calls `each` on every base at which `r` may apply, until it stops.
    fn bases(&mut self, r: &FastRule, each: &mut dyn FnMut(&mut Ctx, usize) -> bool) -> bool {
        if r.needs_poi && self.poi.is_none() {
            return false;
        }
        match r.find {
            Find::Identity => unreachable!("identity rules have no bases"),
            Find::Anchor => match self.poi {
                Some(p) => each(self, p),
                None => false,
            },
            Find::Guard(code) => {
                for q in self.holding(code) {
                    if each(self, q) {
                        return true;
                    }
                }
                false
            }
            Find::GuardAny(set) => {
                let qs: SmallVec<[usize; 64]> = (0..self.board.cells.len())
                    .filter(|&i| Some(i) != self.poi && self.board.cells[i] != Code::OFF)
                    .filter(|&i| set.contains_code(self.board.cells[i]))
                    .collect();
                qs.into_iter().any(|q| each(self, q))
            }
            Find::Write => {
                let qs: SmallVec<[usize; 64]> = (0..self.board.cells.len())
                    .filter(|&i| self.board.cells[i] != Code::OFF)
                    .collect();
                qs.into_iter().any(|q| each(self, q))
            }
        }
    }

    fn rule(&mut self, r: &FastRule, k: &mut Cont) -> bool {
        if let Find::Identity = r.find {
            return (!r.needs_poi || self.poi.is_some()) && k(self);
        }
        self.bases(r, &mut |c, base| c.fits(r, base) && c.apply_rule(r, base, k))
    }

    fn rule_applies(&mut self, r: &FastRule) -> bool {
        if let Find::Identity = r.find {
            return !r.needs_poi || self.poi.is_some();
        }
        self.bases(r, &mut |c, base| c.fits(r, base))
    }

    fn probe(&self, bs: &[FastBranch], p: usize) -> bool {
        bs.iter().any(|b| {
            b.set.contains_code(self.board.cells[p.wrapping_add_signed(b.at)]) && (b.done || self.probe(&b.then, p))
        })
    }

    /// Runs `op`, calling `k` on each result (possibly repeated) until it
    /// says to stop; whether it stopped.
    pub fn run(&mut self, op: &Op, k: &mut Cont) -> bool {
        if self.too_big.is_some() {
            return true;
        }
        match op {
            Op::Nil => k(self),
            Op::Fail => false,
            Op::Rules(rules) => rules.iter().any(|r| self.rule(r, k)),
            Op::Walk(d) => {
                let Some(start) = self.poi else { return false };
                let mark = self.mark();
                let mut stop = k(self);
                let mut p = start;
                while !stop {
                    let q = p.wrapping_add_signed(*d);
                    if self.board.cells[q] != Code::EMPTY {
                        break;
                    }
                    let v = self.board.cells[p];
                    self.write(q, v);
                    self.write(p, Code::EMPTY);
                    self.poi = Some(q);
                    p = q;
                    stop = k(self);
                }
                self.undo(mark);
                self.poi = Some(start);
                stop
            }
            Op::Bind(code, body) => {
                let outer = self.poi;
                let mut stop = false;
                for q in self.holding(*code) {
                    self.poi = Some(q);
                    // Results keep the enclosing binder's POI.
                    stop = self.run(body, &mut |c: &mut Ctx| {
                        let inner = c.poi;
                        c.poi = outer;
                        let s = k(c);
                        c.poi = inner;
                        s
                    });
                    if stop {
                        break;
                    }
                }
                self.poi = outer;
                stop
            }
            Op::Seq(a, b) => self.run(a, &mut |c: &mut Ctx| c.run(b, k)),
            Op::Alt(arms) => arms.iter().any(|a| self.run(a, k)),
            Op::Star(m) => {
                let mark = self.mark();
                self.star(m, mark, &mut Seen::default(), k)
            }
            Op::Greedy(m) => {
                if !self.exists(m) {
                    return k(self);
                }
                let mark = self.mark();
                self.greedy(m, mark, &mut Seen::default(), k)
            }
            Op::Not(m) => !self.exists(m) && k(self),
            Op::Probe(m, ..) => self.run(m, k),
            Op::Interpret(prog) => self.interpret(prog, k),
        }
    }

    /// Every state `m*` reaches from here that was not seen before.
    fn star(&mut self, m: &Op, mark: usize, seen: &mut Seen, k: &mut Cont) -> bool {
        if !seen.insert((self.diff(mark), self.poi)) {
            return false;
        }
        k(self) || self.run(m, &mut |c: &mut Ctx| c.star(m, mark, seen, k))
    }

    /// The states `m*` reaches from here on which `m` has no result.
    fn greedy(&mut self, m: &Op, mark: usize, seen: &mut Seen, k: &mut Cont) -> bool {
        if !seen.insert((self.diff(mark), self.poi)) {
            return false;
        }
        let mut any = false;
        let stop = self.run(m, &mut |c: &mut Ctx| {
            any = true;
            c.greedy(m, mark, seen, k)
        });
        stop || (!any && k(self))
    }

    /// Whether `op` has a result here.
    pub fn exists(&mut self, op: &Op) -> bool {
        match op {
            Op::Nil => true,
            Op::Fail => false,
            Op::Rules(rules) => rules.iter().any(|r| self.rule_applies(r)),
            Op::Probe(_, always, bs) => match self.poi {
                Some(p) => *always || self.probe(bs, p),
                None => false,
            },
            Op::Bind(code, body) => {
                let outer = self.poi;
                let mut found = false;
                for q in self.holding(*code) {
                    self.poi = Some(q);
                    if self.exists(body) {
                        found = true;
                        break;
                    }
                }
                self.poi = outer;
                found
            }
            Op::Alt(arms) => arms.iter().any(|a| self.exists(a)),
            Op::Not(m) => !self.exists(m),
            Op::Walk(_) | Op::Star(_) => true,
            _ => self.run(op, &mut |_| true),
        }
    }

    /// Hands `prog` to the interpreter on a copy of the board, and makes
    /// each of its results here in turn.
    fn interpret(&mut self, prog: &crate::semantics::Prog, k: &mut Cont) -> bool {
        let state = State {
            board: self.board.clone(),
            poi: self.poi.map(|i| self.board.square(i)),
        };
        let results = match Eval::default().run(prog, &state) {
            Ok(r) => r,
            Err(Halt::Budget(n)) => {
                self.too_big = Some(n);
                return true;
            }
            Err(Halt::Unknown(never)) => match never {},
            Err(Halt::Memory(_)) => unreachable!("the engine runs without a memory limit"),
        };
        let before = self.poi;
        for r in results {
            let mark = self.mark();
            for i in 0..r.board.cells.len() {
                if r.board.cells[i] != self.board.cells[i] {
                    self.write(i, r.board.cells[i]);
                }
            }
            self.poi = r.poi.map(|q| self.board.index(q).expect("on the board"));
            let stop = k(self);
            self.undo(mark);
            self.poi = before;
            if stop {
                return true;
            }
        }
        false
    }
}
