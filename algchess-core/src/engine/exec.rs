//! Runs a plan on a board, in place. Every result is made on the board,
//! handed to a continuation, and unmade. The plan is only read; what the
//! search keeps between calls is in the `Cache` passed along. A
//! continuation says whether the search goes on (`Flow`), and a search
//! cut short says why (`Cut`), so a move that outgrows the interpreter's
//! budget cannot go unseen.

use super::bits::{BitRule, Bits, Codes};
use super::board::{Board, Squares};
use super::cache::Cache;
use super::ids::MemoId;
use super::plan::{BitHop, FastRule, Find, Op};
use super::results::Seen;
use super::word::Word;
use super::TooBig;
use crate::semantics::{CellSet, Code, Eval, State};
use smallvec::SmallVec;
use std::ops::ControlFlow::{self, Break, Continue};

/// Why a search stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// The continuation has what it needs (a result, a repeat).
    Enough,
    /// A move could not be found within its limits.
    Over(TooBig),
}

/// States the interpreter may make for one move handed to it (the
/// evaluator's default), named so that an overflow can say it.
pub(super) const BUDGET: usize = Eval::DEFAULT_BUDGET;

/// What a continuation, and a search, says: go on, or stop.
pub(super) type Flow = ControlFlow<Cut>;

/// Whether a search stopped because its continuation had enough; the
/// overflow, when that stopped it.
pub(super) fn stopped(flow: Flow) -> Result<bool, TooBig> {
    match flow {
        Continue(()) => Ok(false),
        Break(Cut::Enough) => Ok(true),
        Break(Cut::Over(e)) => Err(e),
    }
}

/// Runs `k` unless `found` (the answer of a `not`'s test) is true; an
/// overflow in the test stops the search.
#[inline(always)]
fn unless(found: Result<bool, TooBig>, k: impl FnOnce() -> Flow) -> Flow {
    match found {
        Ok(false) => k(),
        Ok(true) => Continue(()),
        Err(e) => Break(Cut::Over(e)),
    }
}

/// What is called on each result.
pub(super) type Cont<'k, W> = dyn FnMut(&mut Board<W>, &mut Cache) -> Flow + 'k;

/// `k` for a binder's body: results keep the enclosing binder's POI.
fn at_outer<'a, 'b, W: Word>(
    outer: Option<usize>,
    k: &'a mut Cont<'b, W>,
) -> impl FnMut(&mut Board<W>, &mut Cache) -> Flow + use<'a, 'b, W> {
    move |board: &mut Board<W>, cache: &mut Cache| {
        let inner = board.poi;
        board.poi = outer;
        let flow = k(board, cache);
        board.poi = inner;
        flow
    }
}

/// The rules `op` runs first, if it starts with rules.
fn first_rules<W: Word>(op: &Op<W>) -> Option<&[FastRule]> {
    match op {
        Op::Rules(rules) => Some(rules),
        Op::Seq(a, _) => first_rules(a),
        _ => None,
    }
}

impl<W: Word> Board<W> {
    /// Runs `op`, calling `k` on each result (possibly repeated) until it
    /// says to stop.
    pub(super) fn run(&mut self, op: &Op<W>, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        match op {
            Op::Nil => k(self, cache),
            Op::Fail => Continue(()),
            Op::Rules(rules) | Op::BitRules(rules, ..) => self.rules(rules, cache, k),
            Op::Slide { d, set, max, write, .. } => self.slide(*d, *set, *max, *write, cache, k),
            Op::Walk(d) => {
                let Some(start) = self.poi else { return Continue(()) };
                let mark = self.mark();
                let mut flow = k(self, cache);
                let mut p = start;
                while flow.is_continue() {
                    let q = p.wrapping_add_signed(*d);
                    if self.mailbox.cells[q] != Code::EMPTY {
                        break;
                    }
                    let v = self.mailbox.cells[p];
                    self.write(q, v);
                    self.write(p, Code::EMPTY);
                    self.poi = Some(q);
                    p = q;
                    flow = k(self, cache);
                }
                self.undo(mark);
                self.poi = Some(start);
                flow
            }
            Op::Hop(d, rules) => self.hop(*d, rules, cache, k),
            Op::BitHops(hops) => hops.iter().try_for_each(|h| self.hop(h.d, &h.rules, cache, k)),
            Op::Bind(code, body) => {
                match (&**body, &self.squares) {
                    (Op::BitRules(rules, bits, _), Squares::Words(_)) => {
                        return self.bit_rules(*code, rules, bits, cache, k)
                    }
                    (Op::BitHops(hops), Squares::Words(_)) => return self.bit_hops(*code, hops, cache, k),
                    _ => {}
                }
                self.each_holder(*code, |board, outer| board.run(body, cache, &mut at_outer(outer, k)))
            }
            Op::Fits(code, bits) => {
                if self.fits_any(*code, bits) {
                    k(self, cache)
                } else {
                    Continue(())
                }
            }
            Op::Count(codes, n) => {
                if self.at_least(codes, *n) {
                    k(self, cache)
                } else {
                    Continue(())
                }
            }
            Op::Seq(a, b) => self.seq(a, b, cache, k),
            Op::Alt(arms) => arms.iter().try_for_each(|a| self.run(a, cache, k)),
            Op::Star(m) => {
                let mark = self.mark();
                self.star(m, mark, &mut Seen::default(), cache, k)
            }
            Op::Greedy(m) => match m.relabels_every() {
                Some((c, x)) => self.relabel_every(c, x, cache, k),
                None => match self.exists(m, cache) {
                    Ok(false) => k(self, cache),
                    Ok(true) => {
                        let mark = self.mark();
                        self.greedy(m, mark, &mut Seen::default(), cache, k)
                    }
                    Err(e) => Break(Cut::Over(e)),
                },
            },
            Op::Not { test, memo } => {
                let found = self.exists_memo(test, *memo, cache);
                unless(found, || k(self, cache))
            }
            Op::NotBits(_, t) => {
                if self.bit_test(t) {
                    Continue(())
                } else {
                    k(self, cache)
                }
            }
            Op::Probe { rules: m, .. } => self.run(m, cache, k),
            Op::Interpret(h) => self.interpret(&h.prog, &h.budget, cache, k),
        }
    }

    /// `a` then `b`, with shortcuts for tests next to moves.
    #[inline]
    fn seq(&mut self, a: &Op<W>, b: &Op<W>, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        if matches!(a, Op::Not { .. } | Op::NotBits(..)) && !self.first_rules_fit(b) {
            // `not A` then rules (castling: the king not attacked,
            // then the squares between empty): when no rule
            // applies there is no result, and A need not be tested.
            return Continue(());
        }
        if let Op::NotBits(_, t) = b {
            // The legality test after each move, without a call of
            // `run`, and not made again where the move changed
            // nothing it read (a king far from the move).
            let mark = self.mark();
            let moves = !matches!(a, Op::Not { .. } | Op::NotBits(..) | Op::Probe { .. } | Op::Nil);
            if let Some(s) = (moves && t.keeps()).then(|| self.still(t)).flatten() {
                return self.run(a, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
                    let holds = if board.stands(t, &s, mark) {
                        s.answer
                    } else {
                        board.bit_test(t)
                    };
                    if holds {
                        Continue(())
                    } else {
                        k(board, cache)
                    }
                });
            }
            return self.run(a, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
                if board.bit_test(t) {
                    Continue(())
                } else {
                    k(board, cache)
                }
            });
        }
        self.run(a, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
            board.run(b, cache, k)
        })
    }

    /// Whether one of the rules `op` starts with fits somewhere (true
    /// when it starts with none): where none does, `op` has no result.
    pub(super) fn first_rules_fit(&mut self, op: &Op<W>) -> bool {
        first_rules(op).is_none_or(|rules| rules.iter().any(|r| self.rule_applies(r)))
    }

    /// Whether `op` has a result here.
    pub(super) fn exists(&mut self, op: &Op<W>, cache: &mut Cache) -> Result<bool, TooBig> {
        Ok(match op {
            Op::Nil => true,
            Op::Fail => false,
            Op::Rules(rules) => rules.iter().any(|r| self.rule_applies(r)),
            Op::Probe {
                always,
                reads: bs,
                bits,
                ..
            } => match self.poi {
                Some(p) => {
                    *always
                        || match (bits, &self.squares) {
                            (Some(probe), Squares::Words(b)) => {
                                probe.holds(b, b.bit_of(p).expect("the POI is on the board"))
                            }
                            _ => self.probe(bs, p),
                        }
                }
                None => false,
            },
            Op::Bind(code, body) => {
                let outer = self.poi;
                let mut found = Ok(false);
                let mut at = 0;
                while let Some(q) = self.next_holding(*code, at, outer) {
                    at = q + 1;
                    self.poi = Some(q);
                    found = self.exists(body, cache);
                    if found != Ok(false) {
                        break;
                    }
                }
                self.poi = outer;
                return found;
            }
            Op::Alt(arms) => {
                for a in arms {
                    if self.exists(a, cache)? {
                        return Ok(true);
                    }
                }
                false
            }
            Op::Not { test: m, .. } => !self.exists(m, cache)?,
            Op::NotBits(_, t) => !self.bit_test(t),
            Op::Count(codes, n) => self.at_least(codes, *n),
            // A test first changes nothing: the rest runs on this board.
            Op::Seq(a, b) if matches!(**a, Op::Not { .. } | Op::NotBits(..) | Op::Count(..)) => {
                self.exists(a, cache)? && self.exists(b, cache)?
            }
            Op::Walk(_) | Op::Star(_) => true,
            _ => return stopped(self.run(op, cache, &mut |_, _| Break(Cut::Enough))),
        })
    }

    /// Whether `test`, a `not`'s numbered `memo`, has a result, from its
    /// memo where one applies.
    fn exists_memo(&mut self, test: &Op<W>, memo: MemoId, cache: &mut Cache) -> Result<bool, TooBig> {
        match cache.recall(self, test, memo) {
            Some(answer) => Ok(answer),
            None => self.exists(test, cache),
        }
    }

    /// Applies `r` at `base`, runs `k`, and unmakes it.
    pub(super) fn apply_rule(&mut self, r: &FastRule, base: usize, k: &mut dyn FnMut(&mut Board<W>) -> Flow) -> Flow {
        let mark = self.mark();
        let before = self.poi;
        let carried = before.map(|p| self.mailbox.cells[p]);
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
        let flow = k(self);
        self.undo(mark);
        self.poi = before;
        flow
    }

    /// Calls `each` on every base at which `r` may apply, until it breaks.
    fn bases<B>(
        &mut self,
        r: &FastRule,
        each: &mut dyn FnMut(&mut Board<W>, usize) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if r.needs_poi && self.poi.is_none() {
            return Continue(());
        }
        match r.find {
            Find::Identity => unreachable!("identity rules have no bases"),
            Find::Anchor => match self.poi {
                Some(p) => each(self, p),
                None => Continue(()),
            },
            Find::Guard(code) => {
                let (mut at, poi) = (0, self.poi);
                while let Some(q) = self.next_holding(code, at, poi) {
                    at = q + 1;
                    each(self, q)?;
                }
                Continue(())
            }
            Find::GuardAny(set) => {
                let qs: SmallVec<[usize; 64]> = match &self.squares {
                    // The squares of the set's codes off their words, in
                    // the board's order (bit numbers grow with indices).
                    Squares::Words(b) => {
                        let mut w = set
                            .codes()
                            .filter(|&c| c != Code::OFF)
                            .fold(W::ZERO, |m, c| m | b.pieces(c, self.poi));
                        let mut qs = SmallVec::new();
                        while !w.is_zero() {
                            qs.push(b.index_of(w.lowest()));
                            w = w.clear_lowest();
                        }
                        qs
                    }
                    Squares::Sets(_) => {
                        let (lo, hi) = self.mailbox.rows();
                        (lo..hi)
                            .filter(|&i| Some(i) != self.poi && self.mailbox.cells[i] != Code::OFF)
                            .filter(|&i| set.contains_code(self.mailbox.cells[i]))
                            .collect()
                    }
                };
                qs.into_iter().try_for_each(|q| each(self, q))
            }
            Find::Write => {
                let (lo, hi) = self.mailbox.rows();
                let qs: SmallVec<[usize; 64]> = (lo..hi).filter(|&i| self.mailbox.cells[i] != Code::OFF).collect();
                qs.into_iter().try_for_each(|q| each(self, q))
            }
        }
    }

    /// Runs rule `r` on every base where it fits.
    pub(super) fn rule(&mut self, r: &FastRule, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        match (r.find, self.poi) {
            (Find::Identity, poi) => {
                return if !r.needs_poi || poi.is_some() {
                    k(self, cache)
                } else {
                    Continue(())
                }
            }
            (Find::Anchor, Some(p)) => {
                return if self.fits(r, p) {
                    self.apply_rule(r, p, &mut |board: &mut Board<W>| k(board, cache))
                } else {
                    Continue(())
                }
            }
            (Find::Anchor, None) => return Continue(()),
            _ => {}
        }
        self.bases(r, &mut |board, base| {
            if board.fits(r, base) {
                board.apply_rule(r, base, &mut |board: &mut Board<W>| k(board, cache))
            } else {
                Continue(())
            }
        })
    }

    /// Whether rule `r` fits somewhere.
    fn rule_applies(&mut self, r: &FastRule) -> bool {
        if let Find::Identity = r.find {
            return !r.needs_poi || self.poi.is_some();
        }
        self.bases(r, &mut |board, base| {
            if board.fits(r, base) {
                Break(())
            } else {
                Continue(())
            }
        })
        .is_break()
    }

    /// Calls `at` with the POI on each square holding `code` (the square
    /// the POI was on left out) and the POI before, until it breaks. The
    /// binder's loop, shared by `run` and `dry`.
    #[inline(always)]
    pub(super) fn each_holder(&mut self, code: u8, mut at: impl FnMut(&mut Board<W>, Option<usize>) -> Flow) -> Flow {
        let outer = self.poi;
        let mut flow = Continue(());
        let mut from = 0;
        while let Some(q) = self.next_holding(code, from, outer) {
            from = q + 1;
            self.poi = Some(q);
            flow = at(self, outer);
            if flow.is_break() {
                break;
            }
        }
        self.poi = outer;
        flow
    }

    /// `%code: rules` on bitboards: each rule's bases for all the pieces
    /// at once, then each result made as the binder makes it.
    fn bit_rules(
        &mut self,
        code: u8,
        rules: &[FastRule],
        bits: &[BitRule<W>],
        cache: &mut Cache,
        k: &mut Cont<'_, W>,
    ) -> Flow {
        let outer = self.poi;
        self.each_bit_rule(
            code,
            rules,
            bits,
            |_, m, _| m,
            |board, r, q| board.apply_rule(r, q, &mut |board: &mut Board<W>| at_outer(outer, k)(board, cache)),
        )
    }

    /// Calls `at` with each rule of `%code: rules` and each base where it
    /// fits, found for all the pieces at once on the bitboards, the POI on
    /// the base, until it breaks; `keep` first takes each rule's bases
    /// (and the board's words) and gives back those `at` is to see (a leaf
    /// counts the others at once).
    /// Shared by `bit_rules` and `dry`.
    #[inline(always)]
    pub(super) fn each_bit_rule(
        &mut self,
        code: u8,
        rules: &[FastRule],
        bits: &[BitRule<W>],
        mut keep: impl FnMut(&BitRule<W>, W, &Bits<W>) -> W,
        mut at: impl FnMut(&mut Board<W>, &FastRule, usize) -> Flow,
    ) -> Flow {
        let Squares::Words(b) = &self.squares else {
            unreachable!("bit rules run on bitboards")
        };
        let outer = self.poi;
        let pieces = b.pieces(code, outer);
        if pieces.is_zero() {
            return Continue(());
        }
        // Each rule's bases are found on the board before its results:
        // every result is unmade before the next. A rule that reads what
        // the one before it reads (a promotion's pieces) fits where that
        // one does.
        let mut fit = W::ZERO;
        let mut flow = Continue(());
        'rules: for (r, bit) in rules.iter().zip(bits) {
            if !r.as_before {
                fit = match &self.squares {
                    Squares::Words(b) => bit.bases(b, pieces),
                    Squares::Sets(_) => unreachable!("bit rules run on bitboards"),
                };
            }
            if fit.is_zero() {
                continue;
            }
            let mut m = match &self.squares {
                Squares::Words(b) => keep(bit, fit, b),
                Squares::Sets(_) => unreachable!("bit rules run on bitboards"),
            };
            while !m.is_zero() {
                let q = match &self.squares {
                    Squares::Words(b) => b.index_of(m.lowest()),
                    Squares::Sets(_) => unreachable!("bit rules run on bitboards"),
                };
                m = m.clear_lowest();
                self.poi = Some(q);
                flow = at(self, r, q);
                if flow.is_break() {
                    break 'rules;
                }
            }
        }
        self.poi = outer;
        flow
    }

    /// Whether at least `n` squares, the POI's aside, hold a code of
    /// `set` ([`Op::Count`]): counted on words, or square by square.
    pub(super) fn at_least(&self, codes: &Codes, n: u32) -> bool {
        match &self.squares {
            Squares::Words(b) => b.count_of(codes, self.poi) >= n,
            Squares::Sets(_) => {
                let set = codes.set();
                let (lo, hi) = self.mailbox.rows();
                let cells = &self.mailbox.cells;
                let found = (lo..hi)
                    .filter(|&i| Some(i) != self.poi && cells[i] != Code::OFF && set.contains_code(cells[i]))
                    .take(n as usize)
                    .count();
                found as u32 >= n
            }
        }
    }

    /// Whether one of `bits` fits a piece of `code` but the POI
    /// ([`Op::Fits`]); off bitboards, true.
    pub(super) fn fits_any(&self, code: u8, bits: &[BitRule<W>]) -> bool {
        let Squares::Words(b) = &self.squares else { return true };
        let pieces = b.pieces(code, self.poi);
        !pieces.is_zero() && bits.iter().any(|r| !r.bases(b, pieces).is_zero())
    }

    /// `%code: hops` on bitboards: each result made as the walk and the
    /// rule make it.
    fn bit_hops(&mut self, code: u8, hops: &[BitHop<W>], cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        let outer = self.poi;
        let flow = self.each_bit_hop(code, hops, |board, r, start, p| {
            let mark = board.mark();
            board.walk_to(start, p);
            let flow = board.apply_rule(r, p, &mut |board: &mut Board<W>| at_outer(outer, k)(board, cache));
            board.undo(mark);
            flow
        });
        self.poi = outer;
        flow
    }

    /// Where each of `hops`' rules fits at the end of its walk, for all
    /// the pieces of `code` at once (but the POI's): calls `each` with
    /// the rule, the piece's square and the walk's last square, until it
    /// breaks.
    pub(super) fn each_bit_hop(
        &mut self,
        code: u8,
        hops: &[BitHop<W>],
        mut each: impl FnMut(&mut Board<W>, &FastRule, usize, usize) -> Flow,
    ) -> Flow {
        let Squares::Words(b) = &self.squares else {
            unreachable!("bit hops run on bitboards")
        };
        let pieces = b.pieces(code, self.poi);
        if pieces.is_zero() {
            return Continue(());
        }
        for h in hops {
            let Squares::Words(b) = &self.squares else {
                unreachable!("bit hops run on bitboards")
            };
            let ends = h.walk.ends(b, pieces);
            // Each rule's bases are found on the board before its results:
            // every result is unmade before the next.
            for (r, bit) in h.rules.iter().zip(&h.bits) {
                let mut m = match &self.squares {
                    Squares::Words(b) => bit.bases(b, ends),
                    Squares::Sets(_) => unreachable!("bit hops run on bitboards"),
                };
                while !m.is_zero() {
                    let p = match &self.squares {
                        Squares::Words(b) => b.index_of(m.lowest()),
                        Squares::Sets(_) => unreachable!("bit hops run on bitboards"),
                    };
                    m = m.clear_lowest();
                    // The piece is the first square behind that is not empty.
                    let mut start = p;
                    while self.mailbox.cells[start] == Code::EMPTY {
                        start = start.wrapping_add_signed(-h.d);
                    }
                    each(self, r, start, p)?;
                }
            }
        }
        Continue(())
    }

    /// A walk along `d` over empty squares, then anchored rules from its
    /// last square (`Op::Hop`).
    fn hop(&mut self, d: isize, rules: &[FastRule], cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        let Some(start) = self.poi else { return Continue(()) };
        let mut p = start;
        while self.mailbox.cells[p.wrapping_add_signed(d)] == Code::EMPTY {
            p = p.wrapping_add_signed(d);
        }
        // Most hops land nowhere (off the board, on a friend). Anchored
        // rules read only the squares, so which fit is seen with the walk
        // made on the squares alone, before writes that keep the
        // bitboards and the hash.
        let v = self.mailbox.cells[start];
        self.mailbox.cells[start] = Code::EMPTY;
        self.mailbox.cells[p] = v;
        self.poi = Some(p);
        let lands = rules.iter().any(|r| self.fits(r, p));
        self.mailbox.cells[p] = Code::EMPTY;
        self.mailbox.cells[start] = v;
        self.poi = Some(start);
        if !lands {
            return Continue(());
        }
        let mark = self.mark();
        self.walk_to(start, p);
        let flow = rules.iter().try_for_each(|r| {
            if self.fits(r, p) {
                self.apply_rule(r, p, &mut |board: &mut Board<W>| k(board, cache))
            } else {
                Continue(())
            }
        });
        self.undo(mark);
        self.poi = Some(start);
        flow
    }

    /// Runs rules in order, each on every base where it fits.
    fn rules(&mut self, rules: &[FastRule], cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        self.each_rule(rules, |board, r, base| match base {
            Some(q) => board.apply_rule(r, q, &mut |board: &mut Board<W>| k(board, cache)),
            None => board.rule(r, cache, k),
        })
    }

    /// Calls `at` with each rule of `rules`, in order, and each base where
    /// it fits (`None`: a rule that finds its own bases, for `rule`),
    /// until it breaks. Shared by `rules` and `dry_rules`.
    #[inline(always)]
    pub(super) fn each_rule(
        &mut self,
        rules: &[FastRule],
        mut at: impl FnMut(&mut Board<W>, &FastRule, Option<usize>) -> Flow,
    ) -> Flow {
        // Rules pivoting on one piece (a knight's eight leaps) share the
        // squares found for it: the board is the same for each.
        let poi = self.poi;
        let mut fit = false;
        let mut i = 0;
        while i < rules.len() {
            let r = &rules[i];
            i += 1;
            match r.find {
                Find::Anchor => {
                    let Some(p) = poi else { continue };
                    // Rules that differ only in what they write (a
                    // promotion's pieces) check the board once.
                    if !r.as_before {
                        fit = self.fits(r, p);
                    }
                    if fit {
                        at(self, r, Some(p))?;
                    }
                }
                Find::Guard(code) => {
                    // The rules after it guarding on the same code are
                    // tried on each square found, which is found once.
                    let same =
                        |s: &FastRule| matches!(s.find, Find::Guard(c) if c == code) && s.needs_poi == r.needs_poi;
                    let group = &rules[i - 1..i + rules[i..].iter().take_while(|s| same(s)).count()];
                    i += group.len() - 1;
                    if r.needs_poi && poi.is_none() {
                        continue;
                    }
                    let mut from = 0;
                    while let Some(q) = self.next_holding(code, from, poi) {
                        from = q + 1;
                        for g in group {
                            if self.fits(g, q) {
                                at(self, g, Some(q))?;
                            }
                        }
                    }
                }
                _ => at(self, r, None)?,
            }
        }
        Continue(())
    }

    /// The POI slides along `d` to squares reading `set`, at most `max`.
    fn slide(&mut self, d: isize, set: CellSet, max: u32, write: u8, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        let Some(start) = self.poi else { return Continue(()) };
        let (v, moves) = match write {
            Code::POI => (self.mailbox.cells[start], true),
            w => (w, false),
        };
        let mut q = start;
        for _ in 0..max {
            q = q.wrapping_add_signed(d);
            let c = self.mailbox.cells[q];
            if set.contains_code(c) {
                let mark = self.mark();
                self.write(q, v);
                self.write(start, Code::EMPTY);
                // Writing over the POI's square without `%` ends the POI.
                self.poi = moves.then_some(q);
                let flow = k(self, cache);
                self.undo(mark);
                self.poi = Some(start);
                flow?;
            }
            // The walk goes on over empty squares only.
            if c != Code::EMPTY {
                break;
            }
        }
        Continue(())
    }

    /// Every state `m*` reaches from here that was not seen before.
    #[inline(never)]
    fn star(&mut self, m: &Op<W>, mark: usize, seen: &mut Seen, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        if !seen.insert((self.diff(mark), self.poi)) {
            return Continue(());
        }
        self.within(seen)?;
        k(self, cache)?;
        self.run(m, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
            board.star(m, mark, seen, cache, k)
        })
    }

    /// Whether a repetition that has reached the states of `seen` may go
    /// on: as many as the interpreter may make, within the board's budget
    /// (read every 1,024 states).
    fn within(&self, seen: &Seen) -> Flow {
        let n = seen.len();
        if n > BUDGET {
            return Break(Cut::Over(TooBig::States(BUDGET)));
        }
        match n.is_multiple_of(1024).then(|| self.budget.spent()).flatten() {
            Some(s) => Break(Cut::Over(s.into())),
            None => Continue(()),
        }
    }

    /// `(%c: % -> x)*!`: every piece of `c` but the POI's becomes `x`, the
    /// one state the loop reaches, made at once.
    fn relabel_every(&mut self, c: u8, x: u8, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        let mark = self.mark();
        let mut from = 0;
        while let Some(q) = self.next_holding(c, from, self.poi) {
            from = q + 1;
            self.write(q, x);
        }
        let flow = k(self, cache);
        self.undo(mark);
        flow
    }

    /// The states `m*` reaches from here on which `m` has no result.
    #[inline(never)]
    fn greedy(&mut self, m: &Op<W>, mark: usize, seen: &mut Seen, cache: &mut Cache, k: &mut Cont<'_, W>) -> Flow {
        if !seen.insert((self.diff(mark), self.poi)) {
            return Continue(());
        }
        self.within(seen)?;
        let mut any = false;
        self.run(m, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
            any = true;
            board.greedy(m, mark, seen, cache, k)
        })?;
        if any {
            Continue(())
        } else {
            k(self, cache)
        }
    }

    /// Hands `prog` to the interpreter on a copy of the board, and makes
    /// each of its results here in turn.
    #[inline(never)]
    fn interpret(
        &mut self,
        prog: &crate::semantics::Prog,
        budget: &crate::memory::Budget,
        cache: &mut Cache,
        k: &mut Cont<'_, W>,
    ) -> Flow {
        let state = State {
            board: self.mailbox.clone(),
            poi: self.poi.map(|i| self.mailbox.square(i)),
        };
        let results = match Eval::new(BUDGET).within(budget).run(prog, &state) {
            Ok(r) => r,
            Err(h) => return Break(Cut::Over(h.into())),
        };
        let before = self.poi;
        for r in results {
            let mark = self.mark();
            for i in 0..r.board.cells.len() {
                if r.board.cells[i] != self.mailbox.cells[i] {
                    self.write(i, r.board.cells[i]);
                }
            }
            self.poi = r.poi.map(|q| self.mailbox.index(q).expect("on the board"));
            let flow = k(self, cache);
            self.undo(mark);
            self.poi = before;
            flow?;
        }
        Continue(())
    }
}
