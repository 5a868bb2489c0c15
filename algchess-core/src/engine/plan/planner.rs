//! The planner: how each part of a `Prog` runs on the engine's board,
//! on words where the box and the shape allow, in the interpreter where
//! nothing faster fits.

use super::{alt, relabelled, rules_op, seq, split, BitHop, FastRule, Find, Handed, Op, ReadNode};
use crate::engine::bits::{BitProbe, BitRay, BitRule, BitWalk, BoxShape, Codes};
use crate::engine::ids::Ids;
use crate::engine::mailbox::Mailbox;
use crate::engine::word::Word;
use crate::geometry::Square;
use crate::ir::{Bounds, Cell};
use crate::memory::Budget;
use crate::semantics::{Branch, CellSet, Code, Pivot, Prog, Rule};

/// Squares a rule may reach from its pivot for the plan to index it
/// directly; a farther reach runs in the interpreter.
const MAX_PAD: i32 = 16;

/// A bounded repetition `M{i,j}` is unrolled into a union of powers when
/// `j` is at most this; larger ones run in the interpreter.
const MAX_UNROLL: u32 = 4;

/// The one read of a probe that reads one square (`holds(% + d#)`).
fn one_read(m: &Prog) -> Option<&Branch> {
    let Prog::Probe(_, probe) = m else { return None };
    if probe.has_lines() {
        return None;
    }
    let (false, [b]) = probe.parts() else { return None };
    (b.done && b.then.is_empty()).then_some(b)
}

/// The farthest a rule reaches from its pivot, in squares.
fn reach(r: &Rule) -> i32 {
    let pivot = pivot_square(r);
    r.guard
        .iter()
        .map(|(q, _)| *q)
        .chain(r.offs.iter().copied())
        .chain(r.writes.iter().map(|(q, _)| *q))
        .map(|q| (q.x - pivot.x).abs().max((q.y - pivot.y).abs()))
        .max()
        .unwrap_or(0)
}

fn pivot_square(r: &Rule) -> Square {
    match r.pivot {
        Pivot::Anchor(q) | Pivot::Guard(q, _) | Pivot::GuardAny(q) | Pivot::Write(q) => q,
        Pivot::Identity => Square::ORIGIN,
    }
}

/// Whether every read of the tree is at most `pad` from a square known to
/// be on the board (`anchor`, or a read that excludes `#`), so inside a
/// mailbox with that border: a line written out to the board's length
/// reads one square past its edge at most.
fn within(bs: &[Branch], anchor: Square, pad: i32) -> bool {
    bs.iter().all(|b| {
        let d = b.at - anchor;
        let next = if b.set.contains(Cell::Off) { anchor } else { b.at };
        d.x.abs().max(d.y.abs()) <= pad && within(&b.then, next, pad)
    })
}

/// The border the plan of `p` needs: the farthest reach of the rules it
/// indexes directly.
pub(in crate::engine) fn pad(p: &Prog) -> i32 {
    let here = match p {
        Prog::Rules(rules) => rules.iter().map(reach).filter(|&r| r <= MAX_PAD).max().unwrap_or(0),
        Prog::Probe(_, probe) => {
            let r = probe.reach();
            if r <= MAX_PAD {
                r
            } else {
                0
            }
        }
        _ => 0,
    };
    let inner = match p {
        Prog::Nil | Prog::Fail | Prog::Rules(_) => 0,
        Prog::Bind(_, m) | Prog::Repeat(m, _) | Prog::Not(m) | Prog::Greedy(m) | Prog::Probe(m, _) => pad(m),
        // A count reads the box's squares alone.
        Prog::Count(..) => 0,
        Prog::Seq(a, b) => pad(a).max(pad(b)),
        Prog::Alt(arms) => arms.iter().map(pad).max().unwrap_or(0),
    };
    here.max(inner)
}

/// The most reads a probe's lines may be written out to.
const MAX_UNROLLED_READS: u64 = 1 << 16;

/// Compiles for a board whose rows are `stride` cells apart and whose
/// border is `pad` wide.
pub(in crate::engine) struct Planner {
    pub stride: i32,
    pub pad: i32,
    /// The box, when its squares fit in a bitboard.
    pub shape: Option<BoxShape>,
    /// The box's size: lines of any length are written out to it.
    pub width: i32,
    pub height: i32,
    /// Numbers for the `not` tests and probes it plans.
    pub ids: Ids,
    /// What a move handed to the interpreter may spend.
    pub budget: Budget,
}

impl Planner {
    fn delta(&self, d: Square) -> isize {
        Mailbox::delta(self.stride, d)
    }

    /// A slide's line along `d`, `max` long, to squares holding `set`, on
    /// bitboards of the box.
    fn ray<W: Word>(&self, d: Square, max: u32, set: CellSet) -> Option<Box<BitRay<W>>> {
        self.shape.and_then(|s| BitRay::new(d, max, set, s)).map(Box::new)
    }

    fn rule(&self, r: &Rule) -> FastRule {
        let pivot = pivot_square(r);
        let (find, skip) = match r.pivot {
            Pivot::Anchor(_) => (Find::Anchor, true),
            Pivot::Guard(_, c) => (Find::Guard(Code::content(c)), true),
            Pivot::GuardAny(_) => (Find::GuardAny(r.guard[0].1), true),
            Pivot::Write(_) => (Find::Write, false),
            Pivot::Identity => (Find::Identity, false),
        };
        let reads: Vec<(isize, CellSet)> = r
            .guard
            .iter()
            .skip(skip as usize)
            .map(|(q, s)| (self.delta(*q - pivot), *s))
            .collect();
        let shown = |d: isize| d == 0 || reads.iter().any(|(e, s)| *e == d && !s.contains(Cell::Off));
        let ons: Vec<isize> = r
            .writes
            .iter()
            .map(|(q, _)| self.delta(*q - pivot))
            .filter(|&d| !shown(d))
            .collect();
        // A write of what its square is read to hold changes nothing:
        // left out, a pawn's double step changes two squares, not three,
        // and a leaf need not ask whether the square it passes over bears
        // on the king.
        let same = |q: Square, c: Cell| c != Cell::Poi && r.guard.iter().any(|&(g, s)| g == q && s.only() == Some(c));
        let writes: Vec<(isize, u8)> = r
            .writes
            .iter()
            .filter(|&&(q, c)| q == pivot || !same(q, c))
            .map(|(q, c)| (self.delta(*q - pivot), Code::cell(*c)))
            .collect();
        FastRule {
            find,
            distinct: writes
                .iter()
                .enumerate()
                .all(|(k, w)| writes[..k].iter().all(|v| v.0 != w.0)),
            one: match &reads[..] {
                [one] if ons.is_empty() && r.offs.is_empty() => Some(*one),
                _ => None,
            },
            ons,
            reads,
            as_before: false,
            offs: r.offs.iter().map(|q| self.delta(*q - pivot)).collect(),
            writes,
            needs_poi: r.needs_poi,
            apart: false,
        }
    }

    /// Lays out `bs` in preorder after `out`, failing over to `fail`.
    fn branches(&self, bs: &[Branch], fail: u32, out: &mut Vec<ReadNode>) {
        for (k, b) in bs.iter().enumerate() {
            let me = out.len();
            out.push(ReadNode {
                at: self.delta(b.at),
                set: b.set,
                done: b.done,
                has_children: !b.then.is_empty(),
                fail,
            });
            // The subtree's failures go to the next sibling, placed after it.
            let last = k + 1 == bs.len();
            let mut sub = vec![];
            self.branches(&b.then, u32::MAX, &mut sub);
            let next = (me + 1 + sub.len()) as u32;
            for n in &mut sub {
                n.fail = match n.fail {
                    u32::MAX if last => fail,
                    u32::MAX => next,
                    f => f + me as u32 + 1,
                };
            }
            if !last {
                out[me].fail = next;
            }
            out.extend(sub);
        }
    }

    /// `M* N`, when `M` is a walk's step along `d` and `N` a last step
    /// along `d` to a set without `#`: the slide along `d`.
    fn slide<W: Word>(&self, walk: &Prog, last: &Prog) -> Option<Op<W>> {
        let Prog::Repeat(m, Bounds::STAR) = walk else {
            return None;
        };
        self.slide_after(m, last)
    }

    /// `M* N` for the step `M` repeated: see [`Planner::slide`].
    fn slide_after<W: Word>(&self, step: &Prog, last: &Prog) -> Option<Op<W>> {
        let (Prog::Rules(walk), Prog::Rules(last)) = (step, last) else {
            return None;
        };
        let [last] = &last[..] else {
            return None;
        };
        let d = match &walk[..] {
            [w] => w.walk_step().filter(|d| self.fits(*d))?,
            _ => return None,
        };
        let (e, set) = last.step()?;
        (e == d && !set.contains(Cell::Off)).then(|| Op::Slide {
            d: self.delta(d),
            set,
            max: u32::MAX,
            write: Code::POI,
            apart: false,
            ray: self.ray(d, u32::MAX, set),
        })
    }

    /// A rule moving the anchored POI `k` squares along a line over empty
    /// squares to one reading a set: `% + d. + ... + (k-1)d. + kd S -> . +
    /// d. + ... + kd W`, as `(d, k, S, W)`.
    fn line_rule(r: &Rule) -> Option<(Square, u32, CellSet, Cell)> {
        let Pivot::Anchor(a) = r.pivot else { return None };
        if !r.offs.is_empty() || r.guard.len() < 2 || r.guard.len() != r.writes.len() || r.guard[0].0 != a {
            return None;
        }
        let k = r.guard.len() - 1;
        let mut reads = r.guard[1..].to_vec();
        reads.sort_by_key(|(q, _)| (q.x - a.x).abs().max((q.y - a.y).abs()));
        let far = reads[k - 1].0 - a;
        let (dx, dy) = (far.x / k as i32, far.y / k as i32);
        if (dx, dy) == (0, 0) || dx * k as i32 != far.x || dy * k as i32 != far.y {
            return None;
        }
        let d = Square::new(dx, dy);
        let at = |i: usize| Square::new(a.x + dx * i as i32, a.y + dy * i as i32);
        let empty = CellSet::single(Cell::EMPTY);
        for (i, (q, set)) in reads.iter().enumerate() {
            if *q != at(i + 1) || (i + 1 < k && *set != empty) {
                return None;
            }
        }
        let write_of = |q: Square| r.writes.iter().find(|(w, _)| *w == q).map(|(_, c)| *c);
        if write_of(a) != Some(Cell::EMPTY) || (1..k).any(|i| write_of(at(i)) != Some(Cell::EMPTY)) {
            return None;
        }
        let w = write_of(at(k))?;
        let set = reads[k - 1].1;
        (w != Cell::Off && !set.contains(Cell::Off)).then_some((d, k as u32, set, w))
    }

    /// Rules (each within the pad) that together are a slide written out
    /// length by length, each length from 1 to the longest there once (at
    /// least two), planned as slides, the other rules after them; `None`
    /// when there is no such slide.
    fn line_rules<W: Word>(&self, rules: &[Rule]) -> Option<Vec<Op<W>>> {
        let lines: Vec<_> = rules.iter().map(Self::line_rule).collect();
        let mut used = vec![false; rules.len()];
        let mut slides = vec![];
        for (i, line) in lines.iter().enumerate() {
            let Some((d, 1, set, w)) = *line else { continue };
            if used[i] {
                continue;
            }
            let mut chain = vec![i];
            while let Some(j) =
                (0..rules.len()).find(|&j| !used[j] && lines[j] == Some((d, chain.len() as u32 + 1, set, w)))
            {
                chain.push(j);
            }
            if chain.len() < 2 {
                continue;
            }
            chain.iter().for_each(|&j| used[j] = true);
            slides.push(Op::Slide {
                d: self.delta(d),
                set,
                max: chain.len() as u32,
                write: Code::cell(w),
                apart: false,
                ray: self.ray(d, chain.len() as u32, set),
            });
        }
        if slides.is_empty() {
            return None;
        }
        let rest: Vec<Rule> = rules
            .iter()
            .zip(&used)
            .filter(|(_, u)| !**u)
            .map(|(r, _)| r.clone())
            .collect();
        if !rest.is_empty() {
            slides.push(self.plan(&Prog::Rules(rest)));
        }
        Some(slides)
    }

    /// Anchored rules that each move the POI, then `not` a test of one
    /// square near where it lands (a pawn not on the last rank): the
    /// rules, each reading that square as not in the test's set. The
    /// square is one no rule writes and not the POI's, so it reads the
    /// same before the move as after it.
    fn fuse<W: Word>(&self, x: &Prog, y: &Prog) -> Option<Op<W>> {
        if let (Prog::Not(m), Prog::Rules(rules)) = (x, y) {
            return self.fuse_before(m, rules);
        }
        let (Prog::Rules(rules), Prog::Not(m)) = (x, y) else {
            return None;
        };
        let b = one_read(m)?;
        let mut out = vec![];
        for r in rules {
            let Pivot::Anchor(a) = r.pivot else { return None };
            let [t] = r
                .writes
                .iter()
                .filter(|(_, c)| *c == Cell::Poi)
                .map(|(q, _)| *q)
                .collect::<Vec<_>>()[..]
            else {
                return None;
            };
            let at = t + b.at;
            let far = (at.x - a.x).abs().max((at.y - a.y).abs());
            if at == a || at == t || far > self.pad || reach(r) > self.pad || r.writes.iter().any(|(q, _)| *q == at) {
                return None;
            }
            let mut f = self.rule(r);
            f.reads.push((self.delta(at - a), b.set.complement()));
            f.one = None;
            out.push(f);
        }
        Some(rules_op(out))
    }

    /// `not` a test of one square near the POI, then anchored rules (a
    /// pawn that is not on its first rank moves two squares): the rules,
    /// each reading that square, from their anchor, as not in the test's
    /// set. The test reads the board the rules read.
    fn fuse_before<W: Word>(&self, m: &Prog, rules: &[Rule]) -> Option<Op<W>> {
        let b = one_read(m)?;
        if b.at == Square::ORIGIN || !self.fits(b.at) {
            return None;
        }
        let mut out = vec![];
        for r in rules {
            let Pivot::Anchor(_) = r.pivot else { return None };
            if reach(r) > self.pad {
                return None;
            }
            let mut f = self.rule(r);
            f.reads.push((self.delta(b.at), b.set.complement()));
            f.one = None;
            out.push(f);
        }
        Some(rules_op(out))
    }

    /// An anchored rule's reads as words, what it must find off and on
    /// the board too.
    fn bit_rule<W: Word>(&self, r: &FastRule, shape: BoxShape) -> Option<BitRule<W>> {
        if !matches!(r.find, Find::Anchor) {
            return None;
        }
        let off = CellSet::single(Cell::Off);
        let reads: Vec<(Square, CellSet)> = r
            .reads
            .iter()
            .map(|&(d, set)| (Mailbox::step(self.stride, self.pad, d), set))
            .chain(r.offs.iter().map(|&d| (Mailbox::step(self.stride, self.pad, d), off)))
            .chain(
                r.ons
                    .iter()
                    .map(|&d| (Mailbox::step(self.stride, self.pad, d), off.complement())),
            )
            .collect();
        let writes: Vec<(Square, u8)> = r
            .writes
            .iter()
            .map(|&(d, v)| (Mailbox::step(self.stride, self.pad, d), v))
            .collect();
        BitRule::new(&reads, &writes, shape)
    }

    /// The rules a binder's `body` runs first after its tests, as words,
    /// when it begins with a test ([`Op::Fits`]); a test repeated a
    /// number of times (`(not attacked step){2}`) begins with one too.
    fn gate<W: Word>(&self, body: &Op<W>) -> Option<Vec<BitRule<W>>> {
        fn test<W>(op: &Op<W>) -> bool {
            matches!(op, Op::Not { .. } | Op::NotBits(..))
        }
        /// Whether `op` only tests, or does nothing.
        fn passes<W>(op: &Op<W>) -> bool {
            match op {
                Op::Nil => true,
                Op::Seq(a, b) => passes(a) && passes(b),
                Op::Alt(arms) => matches!(&arms[..], [one] if passes(one)),
                op => test(op),
            }
        }
        /// The rules `op` runs first, and whether a test comes before.
        fn first<'a, W>(op: &'a Op<W>, tested: &mut bool) -> Option<&'a [FastRule]> {
            match op {
                Op::Rules(rules) => Some(rules),
                Op::Alt(arms) => match &arms[..] {
                    [one] => first(one, tested),
                    _ => None,
                },
                Op::Seq(a, b) if passes(a) => {
                    *tested |= !matches!(**a, Op::Nil);
                    first(b, tested)
                }
                Op::Seq(a, _) => first(a, tested),
                _ => None,
            }
        }
        let shape = self.shape?;
        let mut tested = false;
        let rules = first(body, &mut tested)?;
        if !tested {
            return None;
        }
        rules.iter().map(|r| self.bit_rule(r, shape)).collect()
    }

    /// Guards' rules on one code (a knight's leaps) in `op`, as a binder
    /// of that code with the rules anchored on words: the pieces found
    /// by their word, each rule's pivots for all of them at once. The
    /// results are the same: a binder's keep the POI before it, as a
    /// guard's do, and it passes over the POI's square, as a guard does.
    pub(in crate::engine) fn guards_on_words<W: Word>(&self, op: &mut Op<W>) {
        match op {
            Op::Rules(rules) => {
                if let Some(split) = self.guard_binders(rules) {
                    *op = split;
                }
            }
            Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) => self.guards_on_words(m),
            Op::Seq(a, b) => {
                self.guards_on_words(a);
                self.guards_on_words(b);
            }
            Op::Alt(arms) => arms.iter_mut().for_each(|a| self.guards_on_words(a)),
            _ => {}
        }
    }

    /// `rules` with each run of guards on one code that plans on words
    /// as a binder ([`Planner::guards_on_words`]); `None` when there is
    /// none.
    fn guard_binders<W: Word>(&self, rules: &[FastRule]) -> Option<Op<W>> {
        let shape = self.shape?;
        let guard = |r: &FastRule| match r.find {
            Find::Guard(c) if !r.needs_poi && r.writes.iter().all(|w| w.1 != Code::POI) => Some(c),
            _ => None,
        };
        let (mut arms, mut plain) = (vec![], vec![]);
        let mut i = 0;
        while i < rules.len() {
            if let Some(c) = guard(&rules[i]) {
                let n = rules[i..].iter().take_while(|r| guard(r) == Some(c)).count();
                let anchored: Vec<FastRule> = rules[i..i + n]
                    .iter()
                    .map(|r| FastRule {
                        find: Find::Anchor,
                        ..r.clone()
                    })
                    .collect();
                let Op::Rules(anchored) = rules_op::<W>(anchored) else {
                    unreachable!("rules_op makes rules")
                };
                let bits: Option<Vec<BitRule<W>>> = anchored.iter().map(|r| self.bit_rule(r, shape)).collect();
                if let Some(bits) = bits {
                    if !plain.is_empty() {
                        arms.push(rules_op(std::mem::take(&mut plain)));
                    }
                    arms.push(Op::Bind(c, Box::new(Op::BitRules(anchored, bits, false))));
                    i += n;
                    continue;
                }
            }
            plain.push(rules[i].clone());
            i += 1;
        }
        if arms.is_empty() {
            return None;
        }
        if !plain.is_empty() {
            arms.push(rules_op(plain));
        }
        Some(match arms.len() {
            1 => arms.pop().expect("one arm"),
            _ => Op::Alt(arms),
        })
    }

    /// `body` as `Op::BitHops` if it is hops that all plan on words.
    fn bit_hops<W: Word>(&self, body: Op<W>) -> Op<W> {
        let Some(shape) = self.shape else { return body };
        let hops = match &body {
            Op::Hop(..) => std::slice::from_ref(&body),
            Op::Alt(arms) => &arms[..],
            _ => return body,
        };
        let bit_hop = |h: &Op<W>| {
            let Op::Hop(d, rules) = h else { return None };
            let step = Mailbox::step(self.stride, self.pad, *d);
            // Each result's walk is found again by walking back from
            // where it ends, so no rule may read a square behind.
            let behind = |e: isize| {
                let e = Mailbox::step(self.stride, self.pad, e);
                (1..=self.width.max(self.height)).any(|k| (e.x, e.y) == (-k * step.x, -k * step.y))
            };
            let reads_behind = |r: &FastRule| {
                r.reads
                    .iter()
                    .map(|x| x.0)
                    .chain(r.offs.iter().copied())
                    .chain(r.ons.iter().copied())
                    .any(behind)
            };
            if rules.iter().any(reads_behind) {
                return None;
            }
            Some(BitHop {
                d: *d,
                walk: BitWalk::new(step, shape)?,
                rules: rules.clone(),
                bits: rules.iter().map(|r| self.bit_rule(r, shape)).collect::<Option<_>>()?,
            })
        };
        match hops.iter().map(bit_hop).collect::<Option<Vec<_>>>() {
            Some(bits) => Op::BitHops(bits),
            None => body,
        }
    }

    fn fits(&self, d: Square) -> bool {
        d.x.abs().max(d.y.abs()) <= self.pad
    }

    /// `%code: body`, its rules found on words where they plan there,
    /// gated when it tests before its rules ([`Op::Fits`]).
    fn binder<W: Word>(&self, code: u8, body: Op<W>) -> Op<W> {
        let bits = match (&body, self.shape) {
            (Op::Rules(rules), Some(shape)) => rules
                .iter()
                .map(|r| self.bit_rule(r, shape))
                .collect::<Option<Vec<BitRule<W>>>>(),
            _ => None,
        };
        let body = match (body, bits) {
            (Op::Rules(rules), Some(bits)) => Op::BitRules(rules, bits, false),
            (body, _) => self.bit_hops(body),
        };
        match self.gate(&body) {
            Some(gate) => Op::Seq(Box::new(Op::Fits(code, gate)), Box::new(Op::Bind(code, Box::new(body)))),
            None => Op::Bind(code, Box::new(body)),
        }
    }

    /// `x y`: a slide, a rule fused with the test after it, or the two
    /// planned apart.
    fn plan_seq<W: Word>(&self, x: &Prog, y: &Prog) -> Op<W> {
        if let Some(s) = self.slide(x, y) {
            return s;
        }
        if let Prog::Seq(y1, rest) = y {
            if let Some(s) = self.slide(x, y1) {
                return Op::Seq(Box::new(s), Box::new(self.plan(rest)));
            }
        }
        if let Some(fused) = self.fuse(x, y) {
            return fused;
        }
        // `(A | B) not T` is `A not T | B not T`, and each arm may
        // then fuse with a test of one square, as when the arms are
        // written apart (a pawn's steps and takes, then whether it
        // stands on its last rank).
        if let (Prog::Alt(arms), Prog::Not(t)) = (x, y) {
            if one_read(t).is_some() {
                let arm = |a: &Prog| Prog::Seq(Box::new(a.clone()), Box::new(y.clone()));
                return self.plan(&Prog::Alt(arms.iter().map(arm).collect()));
            }
        }
        seq(self.plan(x), self.plan(y))
    }

    pub(in crate::engine) fn plan<W: Word>(&self, p: &Prog) -> Op<W> {
        let interpret = || {
            Op::Interpret(Box::new(Handed {
                prog: p.clone(),
                budget: self.budget.clone(),
            }))
        };
        let b = |m: &Prog| Box::new(self.plan(m));
        match p {
            Prog::Nil => Op::Nil,
            Prog::Fail => Op::Fail,
            Prog::Rules(rules) => {
                if rules.iter().any(|r| reach(r) > self.pad) {
                    return interpret();
                }
                if let Some(slides) = self.line_rules(rules) {
                    return Op::Alt(slides);
                }
                rules_op(rules.iter().map(|r| self.rule(r)).collect())
            }
            Prog::Bind(c, m) => {
                let code = Code::content(*c);
                let body = relabelled(self.plan(m));
                match split(body) {
                    Ok(parts) => alt(parts.into_iter().map(|p| self.binder(code, p)).collect()),
                    Err(body) => self.binder(code, body),
                }
            }
            Prog::Seq(x, y) => self.plan_seq(x, y),
            Prog::Alt(arms) => {
                // Rules in separate arms may together be a written-out slide.
                let planned = |a: &Prog| matches!(a, Prog::Rules(rs) if rs.iter().all(|r| reach(r) <= self.pad));
                let rules: Vec<Rule> = arms
                    .iter()
                    .filter(|a| planned(a))
                    .flat_map(|a| match a {
                        Prog::Rules(rs) => rs.clone(),
                        _ => vec![],
                    })
                    .collect();
                let Some(mut out) = self.line_rules(&rules) else {
                    return alt(arms.iter().map(|a| self.plan(a)).collect());
                };
                out.extend(arms.iter().filter(|a| !planned(a)).map(|a| self.plan(a)));
                alt(out)
            }
            Prog::Repeat(m, bounds) => {
                // `W+` of a walk's step is `W* W`: the slide over empty
                // squares, every square a result (a quiet move forward).
                if (bounds.lo, bounds.hi) == (1, None) {
                    if let Some(s) = self.slide_after(m, m) {
                        return s;
                    }
                }
                if let (Prog::Rules(rules), Bounds::STAR) = (&**m, *bounds) {
                    if let [r] = &rules[..] {
                        if let Some(d) = r.walk_step().filter(|d| self.fits(*d)) {
                            return Op::Walk(self.delta(d));
                        }
                    }
                }
                let power = |k: u32| (0..k).fold(Op::Nil, |acc, _| Op::Seq(Box::new(acc), b(m)));
                match (bounds.lo, bounds.hi) {
                    (0, None) => Op::Star(b(m)),
                    (lo, None) if lo <= MAX_UNROLL => Op::Seq(Box::new(power(lo)), Box::new(Op::Star(b(m)))),
                    (lo, Some(hi)) if hi <= MAX_UNROLL => Op::Alt((lo..=hi).map(power).collect()),
                    _ => interpret(),
                }
            }
            Prog::Not(m) => {
                let m = b(m);
                match m.bit_test() {
                    Some(t) => Op::NotBits(m, Box::new(t)),
                    None => Op::Not {
                        test: m,
                        memo: self.ids.memo(),
                    },
                }
            }
            Prog::Greedy(m) => Op::Greedy(b(m)),
            Prog::Count(_, set, n) => Op::Count(Codes::of(*set), *n),
            Prog::Probe(m, probe) => {
                // Lines written out on a long board would be reads by the
                // billion: its test runs as written instead.
                if probe.unrolled_reads(self.width, self.height) > MAX_UNROLLED_READS {
                    return self.plan(m);
                }
                let probe = probe.unrolled(self.width, self.height);
                let (always, bs) = probe.parts();
                if !within(bs, Square::ORIGIN, self.pad) {
                    return self.plan(m);
                }
                let mut nodes = vec![];
                self.branches(bs, u32::MAX, &mut nodes);
                let bits = self.shape.and_then(|shape| BitProbe::new(bs, shape)).map(Box::new);
                Op::Probe {
                    rules: b(m),
                    always,
                    reads: nodes,
                    bits,
                    id: self.ids.probe(),
                }
            }
        }
    }
}
