//! Counting a leaf's results by fingerprint, most without making them: a
//! result of a rule or slide is counted from its writes (its fingerprint
//! the xor of their keys, its legality the kept test answer when nothing
//! it read changes). A repeated fingerprint stops the count, and the
//! caller then counts exactly.

use super::bits::{BitLeaps, BitRays, BitRule, BitTest, Bits, Landing, Stand, Stepped, Still};
use super::board::{Board, Squares};
use super::cache::Cache;
use super::exec::{Cut, Flow};
use super::leaf::{rays, Arm, Leaf};
use super::plan::{BitHop, FastRule, Op};
use super::results::Fingerprints;
use super::word::Word;
use crate::semantics::{CellSet, Code};
use smallvec::SmallVec;
use std::ops::ControlFlow::{Break, Continue};

/// How a leaf's results are counted (`Board::tally`): the test each must
/// pass with the answer kept for the board before the moves (`None`:
/// every result counts), the trail mark of that board, the mark the
/// fingerprints are taken from, the POI results keep, and the code each
/// result then writes on the POI's square (`relabel`).
#[derive(Clone, Copy)]
struct Dry<'a, W> {
    test: Option<(&'a BitTest<W>, &'a Still<W>)>,
    at: usize,
    mark: usize,
    outer: Option<usize>,
    relabel: Option<u8>,
    /// Nothing was counted before this count began: rules `apart` may be
    /// counted with no fingerprint.
    direct: bool,
}

impl<W> Dry<'_, W> {
    /// Whether a part marked `apart` is counted with no fingerprint here.
    fn direct(&self, apart: bool) -> bool {
        apart && self.direct && self.relabel.is_none()
    }
}

/// Whether `op` is moves of the POI alone (slides and anchored rules),
/// with no binder to move the POI elsewhere before a relabel.
fn plain<W>(op: &Op<W>) -> bool {
    match op {
        Op::Slide { .. } | Op::Rules(_) => true,
        Op::Alt(arms) => arms.iter().all(plain),
        _ => false,
    }
}

/// The most writes of a result tested on the bitboards alone
/// (`Board::counted_from`); a result with more is made.
const MADE: usize = 4;

/// Adds `fp` to `seen`; a repeat stops the count.
#[inline(always)]
fn count(seen: &mut Fingerprints, fp: u64) -> Flow {
    if seen.insert(fp) {
        Continue(())
    } else {
        Break(Cut::Enough)
    }
}

impl<W: Word> Board<W> {
    /// Adds the fingerprints (from `mark`) of `op`'s results to `seen`, as
    /// `run` with a continuation inserting each would; a repeat stops
    /// the count (`Cut::Enough`). A leaf's moves are counted without
    /// being made where that is exact: a rule's result is its writes, its
    /// fingerprint their keys, and its legality the answer kept for the
    /// board before it when no write changes what the test read (a
    /// move away from every line to the king); only the other moves are
    /// made and tested. `leaf`: the turn's union read off the plan
    /// (`leaf.rs`), for the count to use when it reaches it.
    pub(super) fn tally(
        &mut self,
        op: &Op<W>,
        leaf: Option<&Leaf<W>>,
        mark: usize,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        // Results counted with no fingerprint are apart from those of the
        // count they were in, not from another's (after another result of
        // a move before): the caller counts exactly.
        if seen.direct > 0 {
            return Break(Cut::Enough);
        }
        match op {
            Op::Seq(a, b) => match &**b {
                Op::NotBits(_, t) => {
                    let moves = !matches!(&**a, Op::Not { .. } | Op::NotBits(..) | Op::Probe { .. } | Op::Nil);
                    if let Some(s) = (moves && t.keeps()).then(|| self.still(t)).flatten() {
                        let at = self.mark();
                        let (test, outer) = (Some((&**t, &s)), self.poi);
                        let (relabel, direct) = (None, seen.len() == 0);
                        let d = Dry {
                            test,
                            at,
                            mark,
                            outer,
                            relabel,
                            direct,
                        };
                        return self.dry_union(a, leaf, &d, seen, cache);
                    }
                }
                _ if !matches!(&**a, Op::Not { .. } | Op::NotBits(..)) => {
                    return self.run(a, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
                        board.tally(b, leaf, mark, seen, cache)
                    });
                }
                _ => {}
            },
            Op::Alt(_) | Op::Bind(..) | Op::Rules(_) => {
                let (at, outer) = (self.mark(), self.poi);
                return self.dry_union(
                    op,
                    leaf,
                    &Dry {
                        test: None,
                        at,
                        mark,
                        outer,
                        relabel: None,
                        direct: seen.len() == 0,
                    },
                    seen,
                    cache,
                );
            }
            _ => {}
        }
        self.run(op, cache, &mut |board: &mut Board<W>, _: &mut Cache| {
            count(seen, board.fingerprint(mark))
        })
    }

    /// Whether the board reached is legal under `d`'s test, with the
    /// POI the results keep.
    #[inline]
    fn legal(&mut self, d: &Dry<'_, W>) -> bool {
        let Some((t, s)) = d.test else { return true };
        let inner = std::mem::replace(&mut self.poi, d.outer);
        let holds = if self.stands(t, s, d.at) {
            s.answer
        } else {
            self.bit_test(t)
        };
        self.poi = inner;
        !holds
    }

    /// The board reached counted into `seen`, when legal under `d`.
    #[inline]
    fn count_made(&mut self, d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        if let Some(x) = d.relabel {
            return self.count_relabelled(x, d, seen);
        }
        if self.legal(d) {
            count(seen, self.fingerprint(d.mark))
        } else {
            Continue(())
        }
    }

    /// The board reached counted as `count_made` counts it, or with no
    /// fingerprint (`direct`).
    #[inline]
    fn count_made_as(&mut self, d: &Dry<'_, W>, seen: &mut Fingerprints, direct: bool) -> Flow {
        if direct {
            seen.direct += usize::from(self.legal(d));
            Continue(())
        } else {
            self.count_made(d, seen)
        }
    }

    /// The board reached, with `x` written on the POI's square, counted
    /// into `seen` when legal under `d`; with no POI there is no result.
    #[inline(never)]
    fn count_relabelled(&mut self, x: u8, d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        let Some(p) = self.poi else { return Continue(()) };
        let mark = self.mark();
        self.write(p, x);
        let flow = self.count_made(&Dry { relabel: None, ..*d }, seen);
        self.undo(mark);
        flow
    }

    /// `op` counted as `dry` counts it, or, when it is the union `leaf`
    /// was read off, arm by arm as `leaf` says.
    fn dry_union(
        &mut self,
        op: &Op<W>,
        leaf: Option<&Leaf<W>>,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        match (op, leaf) {
            (Op::Alt(arms), Some(leaf)) if leaf.of(arms) => self.dry_arms(arms, &leaf.arms, d, seen, cache),
            _ => self.dry(op, d, seen, cache),
        }
    }

    /// The union `arms` counted as `dry` counts it, each arm as `how` says.
    fn dry_arms(
        &mut self,
        arms: &[Op<W>],
        how: &[Arm<W>],
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        arms.iter().zip(how).try_for_each(|(a, how)| match how {
            // As `dry` counts a binder of rays apart.
            Arm::Sliders(code, rays) if d.direct(true) => self.dry_sliders(*code, rays, d, seen),
            // As `dry_apart` counts them, with the steps read at once.
            Arm::Leaps(code, leaps) if d.direct(true) => self.dry_leaps(*code, leaps, d, seen),
            Arm::Rules(code) | Arm::Leaps(code, _) => {
                let Op::Bind(_, body) = a else {
                    unreachable!("read off a binder")
                };
                let Op::BitRules(rules, bits, apart) = &**body else {
                    unreachable!("read off rules on words")
                };
                self.dry_bit_rules(*code, (rules, bits, *apart), d, seen)
            }
            Arm::Union(how) => match a {
                Op::Alt(inner) => self.dry_arms(inner, how, d, seen, cache),
                _ => unreachable!("read off a union"),
            },
            _ => self.dry(a, d, seen, cache),
        })
    }

    /// Counts `op`'s results into `seen` as `tally` does, each tested by
    /// `d`; shapes it does not count without making them are run.
    fn dry(&mut self, op: &Op<W>, d: &Dry<'_, W>, seen: &mut Fingerprints, cache: &mut Cache) -> Flow {
        if let (Op::Bind(code, _), Squares::Words(b)) = (op, &self.squares) {
            // Most of a turn's binders have no piece on a leaf's board.
            if b.pieces(*code, self.poi).is_zero() {
                return Continue(());
            }
        }
        match op {
            Op::Alt(arms) => return arms.iter().try_for_each(|a| self.dry(a, d, seen, cache)),
            Op::Rules(rules) => return self.dry_rules(rules, d, seen, cache),
            Op::Slide {
                d: step,
                set,
                max,
                write,
                apart,
                ray,
            } if self.poi.is_some() && (d.relabel.is_none() || *write == Code::POI) => {
                if ray.is_some() && d.direct(*apart) {
                    return self.dry_rays(std::slice::from_ref(op), d, seen);
                }
                return self.dry_slide((*step, *set, *max, *write), d, seen, d.direct(*apart));
            }
            Op::Seq(a, b) if matches!(&**a, Op::Fits(..)) => {
                let Op::Fits(code, bits) = &**a else {
                    unreachable!("a gate")
                };
                return if self.fits_any(*code, bits) {
                    self.dry(b, d, seen, cache)
                } else {
                    Continue(())
                };
            }
            Op::Seq(a, b) if matches!(&**a, Op::NotBits(..)) => return self.dry_tested(a, b, d, seen, cache),
            // Moves, then the moved piece's code changed: each result
            // counted with the code it ends with.
            Op::Seq(a, b) if d.relabel.is_none() => {
                if let Some(x) = b.relabel().filter(|_| plain(a)) {
                    return self.dry_relabelled(a, x, d, seen, cache);
                }
                if let (Op::Seq(_, t), Op::Rules(rules)) = (&**a, &**b) {
                    if matches!(&**t, Op::NotBits(..)) {
                        return self.dry_last_rules(a, rules, d, seen, cache);
                    }
                }
            }
            Op::Bind(code, body) if matches!(&**body, Op::BitHops(_)) => {
                if let (Op::BitHops(hops), Squares::Words(_), None) = (&**body, &self.squares, d.relabel) {
                    return self.dry_hops(*code, hops, d, seen);
                }
            }
            Op::Bind(code, body) => {
                if let (Op::BitRules(rules, bits, apart), Squares::Words(_)) = (&**body, &self.squares) {
                    return self.dry_bit_rules(*code, (rules, bits, *apart), d, seen);
                }
                if d.direct(true) && rays(body) {
                    let arms = std::slice::from_ref(&**body);
                    return self.each_holder(*code, |board, _| board.dry_rays(arms, d, seen));
                }
                return self.each_holder(*code, |board, _| board.dry(body, d, seen, cache));
            }
            _ => {}
        }
        self.run(op, cache, &mut |board: &mut Board<W>, _: &mut Cache| {
            board.count_made(d, seen)
        })
    }

    /// `%code: rules` on words (`Op::BitRules`), counted as `dry` counts
    /// a binder's results: apart with no fingerprint where `d` allows.
    fn dry_bit_rules(
        &mut self,
        code: u8,
        (rules, bits, apart): (&[FastRule], &[BitRule<W>], bool),
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> Flow {
        // Most of a turn's binders have no piece on a leaf's board.
        if let Squares::Words(b) = &self.squares {
            if b.pieces(code, self.poi).is_zero() {
                return Continue(());
            }
        }
        if d.direct(apart) {
            return self.dry_apart(code, rules, bits, d, seen);
        }
        self.each_bit_rule(
            code,
            rules,
            bits,
            |_, m, _| m,
            |board, r, q| board.dry_rule(r, q, d, seen, false),
        )
    }

    /// `test` (a `not` before moves: castling's, the king not attacked),
    /// then `rest`'s results counted as `dry` counts them. As `run` does,
    /// the test is not made where the rules `rest` starts with fit
    /// nowhere.
    #[inline(never)]
    fn dry_tested(
        &mut self,
        test: &Op<W>,
        rest: &Op<W>,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        if !self.first_rules_fit(rest) {
            return Continue(());
        }
        let Op::NotBits(_, t) = test else {
            unreachable!("a test on bitboards")
        };
        if self.bit_test(t) {
            Continue(())
        } else {
            self.dry(rest, d, seen, cache)
        }
    }

    /// `first` (moves, then a test) made, then the results of `rules`
    /// from each board it reaches counted from their writes, tested on
    /// the words, as the kept answer was kept before `first`
    /// (castling's king step, then the rook put over).
    #[inline(never)]
    fn dry_last_rules(
        &mut self,
        first: &Op<W>,
        rules: &[FastRule],
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        self.run(first, cache, &mut |board: &mut Board<W>, cache: &mut Cache| {
            board.dry_rules(rules, d, seen, cache)
        })
    }

    /// `op`'s results counted as `dry` counts them, each with `x` then
    /// written on the POI's square.
    #[inline(never)]
    fn dry_relabelled(
        &mut self,
        op: &Op<W>,
        x: u8,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        cache: &mut Cache,
    ) -> Flow {
        self.dry(op, &Dry { relabel: Some(x), ..*d }, seen, cache)
    }

    /// `%code: rules` whose results no other result is (`apart.rs`),
    /// counted with no fingerprint: the pivots from which every write
    /// lands where the kept answer stands are counted by their number,
    /// the others one by one.
    fn dry_apart(
        &mut self,
        code: u8,
        rules: &[FastRule],
        bits: &[BitRule<W>],
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> Flow {
        let Squares::Words(b) = &self.squares else {
            unreachable!("bit rules run on bitboards")
        };
        let kept = kept(d, b, code);
        let poi = d.outer.and_then(|p| b.bit_of(p));
        let mut landed = 0;
        let mut steps = Steps::default();
        let flow = self.each_bit_rule(
            code,
            rules,
            bits,
            |bit, m, b| {
                let Some((l, t, stands)) = &kept else {
                    landed += m.count() as usize;
                    return W::ZERO;
                };
                let rest = match l {
                    Some(l) if !bit.touches(&t.bound) => {
                        let landing = bit.landing(m, l);
                        if *stands {
                            landed += landing.count() as usize;
                        }
                        m & !landing
                    }
                    _ => m,
                };
                // A step that may bear on the answer (a king's, a pinned
                // piece's) is tested on the words as they would be, once
                // every rule has been seen.
                match bit.step() {
                    Some((at, v)) if !rest.is_zero() => {
                        let v = if v == Code::POI { code } else { v };
                        let mut m = rest;
                        while !m.is_zero() {
                            let k = m.lowest();
                            m = m.clear_lowest();
                            landed += steps.add((k, v, W::bit(k.wrapping_add_signed(at))), t, b, poi);
                        }
                        W::ZERO
                    }
                    _ => rest,
                }
            },
            |board, r, q| board.dry_rule(r, q, d, seen, true),
        );
        if let (Some((_, t, _)), Squares::Words(b)) = (kept, &self.squares) {
            landed += steps.finish(t, b, poi);
        }
        seen.direct += landed;
        flow
    }

    /// `%code: steps` apart (`Arm::Leaps`), counted as `dry_apart` counts
    /// the rules they were read off, each piece's steps read at once.
    #[inline(never)]
    fn dry_leaps(&mut self, code: u8, leaps: &[BitLeaps<W>], d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        let Squares::Words(b) = &self.squares else {
            unreachable!("leaps are on bitboards")
        };
        let mut pieces = b.pieces(code, d.outer);
        if pieces.is_zero() {
            return Continue(());
        }
        let kept = kept(d, b, code);
        let poi = d.outer.and_then(|p| b.bit_of(p));
        let mut landed = 0;
        let mut steps = Steps::default();
        while !pieces.is_zero() {
            let k = pieces.lowest();
            pieces = pieces.clear_lowest();
            for g in leaps {
                let to = g.targets(b, k);
                let Some((l, t, stands)) = &kept else {
                    landed += to.count() as usize;
                    continue;
                };
                let v = if g.write == Code::POI { code } else { g.write };
                let rest = match l {
                    Some(l) if !g.touches(&t.bound) => {
                        let bulk = g.landing(k, to, l);
                        if *stands {
                            landed += bulk.count() as usize;
                        }
                        to & !bulk
                    }
                    _ => to,
                };
                if !rest.is_zero() {
                    landed += steps.add((k, v, rest), t, b, poi);
                }
            }
        }
        if let Some((_, t, _)) = kept {
            landed += steps.finish(t, b, poi);
        }
        seen.direct += landed;
        Continue(())
    }

    /// `%code: hops` on bitboards, each result counted from its writes
    /// (the walk's and the rule's, one per square, the last one made)
    /// where that is exact, else made, tested and unmade.
    #[inline(never)]
    fn dry_hops(&mut self, code: u8, hops: &[BitHop<W>], d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        let outer = self.poi;
        self.each_bit_hop(code, hops, |board, r, start, p| {
            let v = board.mailbox.cells[start];
            let mut writes: SmallVec<[(usize, u8); MADE]> = SmallVec::new();
            if p != start {
                writes.extend([(p, v), (start, Code::EMPTY)]);
            }
            for &(at, w) in &r.writes {
                let (i, w) = (p.wrapping_add_signed(at), if w == Code::POI { v } else { w });
                match writes.iter_mut().find(|x| x.0 == i) {
                    Some(x) => x.1 = w,
                    None => writes.push((i, w)),
                }
            }
            if let Some(flow) = board.counted_from(writes.into_iter(), d, seen, false) {
                return flow;
            }
            let mark = board.mark();
            board.walk_to(start, p);
            let flow = board.apply_rule(r, p, &mut |board: &mut Board<W>| board.count_made(d, seen));
            board.undo(mark);
            board.poi = outer;
            flow
        })
    }

    /// `rules` as `rules` runs them, each result counted by `dry_rule`.
    #[inline(never)]
    fn dry_rules(&mut self, rules: &[FastRule], d: &Dry<'_, W>, seen: &mut Fingerprints, cache: &mut Cache) -> Flow {
        self.each_rule(rules, |board, r, base| match base {
            Some(q) => board.dry_rule(r, q, d, seen, d.direct(r.apart)),
            None => board.rule(r, cache, &mut |board: &mut Board<W>, _: &mut Cache| {
                board.count_made(d, seen)
            }),
        })
    }

    /// Counts the result of rule `r` (which fits) at `base` from its
    /// writes, unless they write one square twice or may change the
    /// test's answer: then it is made, tested and unmade. `direct`: with
    /// no fingerprint, as no other result is this one (`apart.rs`).
    #[inline]
    fn dry_rule(&mut self, r: &FastRule, base: usize, d: &Dry<'_, W>, seen: &mut Fingerprints, direct: bool) -> Flow {
        let carried = match d.relabel {
            None => self.poi.map(|p| self.mailbox.cells[p]),
            // A relabel lands where the POI ends: on its one write.
            Some(x) => (self.poi.is_some() && r.writes.iter().filter(|w| w.1 == Code::POI).count() == 1).then_some(x),
        };
        if r.distinct && (carried.is_some() || (d.relabel.is_none() && r.writes.iter().all(|w| w.1 != Code::POI))) {
            let writes = r.writes.iter().map(|&(at, v)| {
                let i = base.wrapping_add_signed(at);
                (i, if v == Code::POI { carried.unwrap_or(v) } else { v })
            });
            if let Some(flow) = self.counted_from(writes, d, seen, direct) {
                return flow;
            }
        }
        let before = self.poi;
        let flow = self.apply_rule(r, base, &mut |board: &mut Board<W>| {
            board.count_made_as(d, seen, direct)
        });
        self.poi = before;
        flow
    }

    /// The POI slides as `slide` moves it, each result counted from its
    /// two writes where that is exact; `direct`: with no fingerprint, as
    /// no other result is this one (`apart.rs`).
    #[inline(never)]
    fn dry_slide(
        &mut self,
        (step, set, max, write): (isize, CellSet, u32, u8),
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        direct: bool,
    ) -> Flow {
        let Some(start) = self.poi else { return Continue(()) };
        let v = match write {
            Code::POI => d.relabel.unwrap_or(self.mailbox.cells[start]),
            w => w,
        };
        let mut q = start;
        for _ in 0..max {
            q = q.wrapping_add_signed(step);
            let c = self.mailbox.cells[q];
            if set.contains_code(c) {
                let writes = [(q, v), (start, Code::EMPTY)].into_iter();
                match self.counted_from(writes, d, seen, direct) {
                    Some(flow) => flow?,
                    None => self.slide_one((start, q, v, write), d, seen, direct)?,
                }
            }
            if c != Code::EMPTY {
                break;
            }
        }
        Continue(())
    }

    /// The POI's slides `arms` (slides with rays, or alternatives of
    /// them), whose results no other result is (`apart.rs`): counted with
    /// no fingerprint, those landing on an empty square the test did not
    /// read (when moving the piece away leaves its answer standing) by
    /// their number, the others one by one.
    fn dry_rays(&mut self, arms: &[Op<W>], d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        let Some(start) = self.poi else { return Continue(()) };
        let piece = self.slider(start, d);
        // Where each write lands, the rays of one write at once: no two
        // rays of a piece meet (`apart.rs`), so none is counted twice.
        let mut landings = None;
        self.gather_rays(arms, &piece, &mut landings, d, seen)?;
        match landings {
            Some(l) => self.count_landings(l, &piece, d, seen),
            None => Continue(()),
        }
    }

    /// The pieces of `code` (but the POI) as sliders along `rays`, counted
    /// as `dry_rays` counts them, each ray group's landings at once.
    #[inline(never)]
    fn dry_sliders(&mut self, code: u8, rays: &[BitRays<W>], d: &Dry<'_, W>, seen: &mut Fingerprints) -> Flow {
        let Squares::Words(b) = &self.squares else {
            unreachable!("rays are on bitboards")
        };
        let outer = self.poi;
        let mut pieces = b.pieces(code, outer);
        let mut flow = Continue(());
        while !pieces.is_zero() && flow.is_continue() {
            let k = pieces.lowest();
            pieces = pieces.clear_lowest();
            let Squares::Words(b) = &self.squares else {
                unreachable!("rays are on bitboards")
            };
            let start = b.index_of(k);
            self.poi = Some(start);
            let piece = self.slider(start, d);
            flow = rays.iter().try_for_each(|r| {
                let Squares::Words(b) = &self.squares else {
                    unreachable!("rays are on bitboards")
                };
                let (targets, firsts) = r.targets(b, k);
                self.count_landings((r.write, targets, firsts), &piece, d, seen)
            });
        }
        self.poi = outer;
        flow
    }

    /// The piece on `start` as a slider whose results `d` tests.
    #[inline]
    fn slider(&self, start: usize, d: &Dry<'_, W>) -> Slider {
        let Squares::Words(b) = &self.squares else {
            unreachable!("rays are on bitboards")
        };
        let k = b.bit_of(start).expect("the POI is on the box");
        let old = self.mailbox.cells[start];
        // Whether the piece may leave its square with the answer kept, and
        // whether the results that keep it are legal.
        let (away, legal) = match d.test {
            None => (true, true),
            Some((t, s)) => (
                s.poi == d.outer && t.change(s, b, start, old, Code::EMPTY).holds(),
                !s.answer,
            ),
        };
        Slider {
            start,
            k,
            old,
            away,
            legal,
        }
    }

    /// Adds to `landings` where each slide of `arms` (slides with rays, or
    /// alternatives of them) lands, and its first blocker, while the code
    /// written stays the same; counts them when it changes.
    fn gather_rays(
        &mut self,
        arms: &[Op<W>],
        piece: &Slider,
        landings: &mut Option<(u8, W, W)>,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> Flow {
        for a in arms {
            match a {
                Op::Slide {
                    write, ray: Some(ray), ..
                } => {
                    let Squares::Words(b) = &self.squares else {
                        unreachable!("rays are on bitboards")
                    };
                    let (targets, first) = ray.targets(b, piece.k);
                    match landings {
                        Some(l) if l.0 == *write => {
                            l.1 |= targets;
                            l.2 |= first;
                        }
                        _ => {
                            if let Some(l) = landings.replace((*write, targets, first)) {
                                self.count_landings(l, piece, d, seen)?;
                            }
                        }
                    }
                }
                Op::Alt(inner) => self.gather_rays(inner, piece, landings, d, seen)?,
                _ => unreachable!("only rays are counted by gather_rays"),
            }
        }
        Continue(())
    }

    /// Counts the slider's results writing `write` on the squares of
    /// `targets` (`firsts`: the first blockers along its rays): those
    /// that leave the kept answer standing by their number, the others
    /// one by one.
    fn count_landings(
        &mut self,
        (write, targets, firsts): (u8, W, W),
        piece: &Slider,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> Flow {
        let (start, v) = (piece.start, if write == Code::POI { piece.old } else { write });
        let bulk = match d.test {
            None => targets,
            Some(_) if !piece.away => W::ZERO,
            Some((t, s)) => targets & !firsts & t.lands_quietly(s, v),
        };
        if piece.legal {
            seen.direct += bulk.count() as usize;
        }
        let mut rest = targets & !bulk;
        while !rest.is_zero() {
            let q = match &self.squares {
                Squares::Words(b) => b.index_of(rest.lowest()),
                Squares::Sets(_) => unreachable!("rays are on bitboards"),
            };
            rest = rest.clear_lowest();
            let writes = [(q, v), (start, Code::EMPTY)].into_iter();
            match self.counted_from(writes, d, seen, true) {
                Some(flow) => flow?,
                None => self.slide_one((start, q, v, write), d, seen, true)?,
            }
        }
        Continue(())
    }

    /// One result of a slide made, tested, counted and unmade.
    #[cold]
    fn slide_one(
        &mut self,
        (start, q, v, write): (usize, usize, u8, u8),
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        direct: bool,
    ) -> Flow {
        let mark = self.mark();
        self.write(q, v);
        self.write(start, Code::EMPTY);
        self.poi = (write == Code::POI).then_some(q);
        let flow = self.count_made_as(d, seen, direct);
        self.undo(mark);
        self.poi = Some(start);
        flow
    }

    /// Counts the result that `writes` (to distinct squares) make: legal
    /// when the test's kept answer stands for them, else by the test run
    /// on the bitboards with the writes made there alone (no mailbox,
    /// trail or hash: a king's step is tested for the cost of the test).
    /// `None` when the result must be made to be tested.
    #[inline(always)]
    fn counted_from(
        &mut self,
        writes: impl Iterator<Item = (usize, u8)>,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
        direct: bool,
    ) -> Option<Flow> {
        let Squares::Words(b) = &self.squares else { return None };
        let mut hash = self.hash();
        let mut stand = Stand::default();
        // The writes, with what each square held, for the test on words.
        let mut made = [(0, Code::EMPTY, Code::EMPTY); MADE];
        let mut n = 0;
        for (i, v) in writes {
            let old = self.mailbox.cells[i];
            if !direct {
                hash ^= self.key(i, old) ^ self.key(i, v);
            }
            if let Some((t, s)) = d.test {
                stand = stand.with(t.change(s, b, i, old, v));
            }
            if n < MADE {
                made[n] = (i, old, v);
            }
            n += 1;
        }
        if let Some((t, s)) = d.test {
            // The kept answer vouches for `writes` alone, on the board it
            // was kept on.
            let holds = if stand.holds() && s.poi == d.outer && self.mark() == d.at {
                s.answer
            } else if n <= MADE {
                let Squares::Words(b) = &mut self.squares else {
                    return None;
                };
                // Only the set words the test reads are kept.
                let slots = t.slots();
                made[..n].iter().for_each(|&(i, old, v)| b.moved_in(i, old, v, slots));
                let holds = t.holds(b, d.outer.and_then(|p| b.bit_of(p)));
                made[..n]
                    .iter()
                    .rev()
                    .for_each(|&(i, old, v)| b.moved_in(i, v, old, slots));
                holds
            } else {
                return None;
            };
            if holds {
                return Some(Continue(()));
            }
        }
        if direct {
            seen.direct += 1;
            return Some(Continue(()));
        }
        Some(count(seen, hash ^ self.hash_at(d.mark)))
    }
}

/// A kept answer as a binder's moves read it: where their writes leave it
/// standing (none where the binder's pieces are among those the test
/// looks for, or the answer was kept with another POI), the test, and
/// whether the answer lets a move stand.
type Kept<'a, W> = (Option<Landing<'a, W>>, &'a BitTest<W>, bool);

/// The kept answer of `d`'s test as the moves of a binder of `code` read it.
fn kept<'a, W: Word>(d: &Dry<'a, W>, b: &Bits<W>, code: u8) -> Option<Kept<'a, W>> {
    d.test.map(|(t, s)| {
        let landing = (s.poi == d.outer && !t.bound.contains_code(code)).then(|| t.landing(s, b, code));
        (landing, t, !s.answer)
    })
}

/// How many steps a leaf gathers before it tests them (`Board::dry_apart`).
const STEPS: usize = 8;

/// Steps that may bear on a kept answer, by the bit left and the code put
/// down: where they land. Tested when full, and at the end.
struct Steps<W> {
    steps: [(u32, u8, W); STEPS],
    n: usize,
}

impl<W: Word> Default for Steps<W> {
    fn default() -> Steps<W> {
        Steps {
            steps: [(0, 0, W::ZERO); STEPS],
            n: 0,
        }
    }
}

impl<W: Word> Steps<W> {
    /// Adds the steps from bit `k` putting `v` down on the squares of
    /// `to`; how many of those gathered before are legal, when it had to
    /// test them to make room.
    #[inline]
    fn add(&mut self, (k, v, to): (u32, u8, W), t: &BitTest<W>, b: &Bits<W>, poi: Option<u32>) -> usize {
        if let Some(s) = self.steps[..self.n].iter_mut().find(|s| (s.0, s.1) == (k, v)) {
            s.2 |= to;
            return 0;
        }
        let mut legal = 0;
        if self.n == STEPS {
            legal = tested(t, b, poi, &self.steps);
            self.n = 0;
        }
        self.steps[self.n] = (k, v, to);
        self.n += 1;
        legal
    }

    /// How many of the steps gathered are legal.
    fn finish(&self, t: &BitTest<W>, b: &Bits<W>, poi: Option<u32>) -> usize {
        tested(t, b, poi, &self.steps[..self.n])
    }
}

/// How many of `steps` (by the bit left, the code put down and where
/// they land) are legal under `t`, as [`legal_steps`] counts them.
fn tested<W: Word>(t: &BitTest<W>, b: &Bits<W>, poi: Option<u32>, steps: &[(u32, u8, W)]) -> usize {
    steps
        .iter()
        .map(|&(from, v, to)| legal_steps(t, b, poi, from, v, to))
        .sum()
}

/// How many steps of the piece on bit `from` to the squares of `to`,
/// each putting down `v`, leave `t` not holding (`poi` as
/// [`BitTest::holds`] takes it): tested on the words one by one, or for
/// two or more where one probe decides the test, by the squares from
/// which it holds once the piece has left ([`BitProbe::holding`]).
fn legal_steps<W: Word>(t: &BitTest<W>, b: &Bits<W>, poi: Option<u32>, from: u32, v: u8, to: W) -> usize {
    if to.count() >= 2 && poi.is_none() {
        if let Some(holding) = t.decided_by(b, from, v).and_then(|p| p.holding(b, W::bit(from), to)) {
            return (to & !holding).count() as usize;
        }
    }
    let mut m = to;
    let mut legal = 0;
    while !m.is_zero() {
        legal += usize::from(!t.holds(&Stepped::new(b, from, m.lowest(), v), poi));
        m = m.clear_lowest();
    }
    legal
}

/// A slider whose rays a leaf counts (`Board::dry_rays`): its square as
/// a mailbox index and a bit, its code, whether it may leave its square
/// with the kept answer standing, and whether that answer lets a move
/// stand.
struct Slider {
    start: usize,
    k: u32,
    old: u8,
    away: bool,
    legal: bool,
}

/// How [`Board::tally`] counts a leaf's results of `op` on a board with
/// bitboards, and why (`perft --explain-plan`): the same choices, read
/// off the plan.
pub(super) fn explain<W: Word>(op: &Op<W>) -> String {
    match op {
        Op::Seq(a, b) => match &**b {
            Op::NotBits(_, t) => {
                if matches!(&**a, Op::Not { .. } | Op::NotBits(..) | Op::Probe { .. } | Op::Nil) {
                    "made one by one: a test after another test, not after moves".into()
                } else if !t.keeps() {
                    "made one by one: the test after the moves reads from the moved piece, so its answer is not kept"
                        .into()
                } else {
                    format!(
                        "bulk: results counted from their writes, the answer of the test after them kept; {} parts \
                         counted with no fingerprint",
                        apart_parts(a)
                    )
                }
            }
            _ if !matches!(&**a, Op::Not { .. } | Op::NotBits(..)) => format!("after its first moves, {}", explain(b)),
            _ => "made one by one: a test before the moves".into(),
        },
        Op::Alt(_) | Op::Bind(..) | Op::Rules(_) => format!(
            "bulk: results counted from their writes, with no test after them; {} parts counted with no fingerprint",
            apart_parts(op)
        ),
        _ => "made one by one: neither moves then a test nor moves alone".into(),
    }
}

/// How many parts of `op` a leaf counts with no fingerprint (`apart`).
fn apart_parts<W>(op: &Op<W>) -> usize {
    match op {
        Op::BitRules(_, _, apart) | Op::Slide { apart, .. } => usize::from(*apart),
        Op::Rules(rules) => usize::from(rules.iter().any(|r| r.apart)),
        Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) | Op::NotBits(m, _) => apart_parts(m),
        Op::Seq(a, b) => apart_parts(a) + apart_parts(b),
        Op::Alt(arms) => arms.iter().map(apart_parts).sum(),
        _ => 0,
    }
}
