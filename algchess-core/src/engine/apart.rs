//! Which binders' rules make results no other part of a turn can make,
//! so that a leaf counts them with no fingerprint (`Op::BitRules`'s
//! `apart`).
//!
//! A result of `%c: rules`, each rule writing `.` on its pivot, empties a
//! square holding `c`. Another result equal to it empties that square too,
//! so it comes from a part of the turn that may empty a square holding `c`.
//! When no other part may, and no two of the binder's rules change the
//! same squares to the same codes from different pivots (their changes
//! are not translates of each other), the binder's results are distinct
//! from each other and from every other result of the turn.
//!
//! What a part may empty is over-approximated: a write of `.` (or of the
//! POI's content, where it may be `.`) empties what its square was read
//! to hold, or anything where it was not read; the interpreter may empty
//! anything.

use super::plan::{FastRule, Find, Op};
use crate::semantics::{CellSet, Code};

/// Sets `apart` on each `%c: rules` of `turn` that a leaf may count
/// with no fingerprint: one reached from where a count starts through
/// alternatives alone (so it runs once per count), whose rules each
/// change squares in a fixed way, and whose code no other part empties.
pub(super) fn certify<W>(turn: &mut Op<W>) {
    let mut found = vec![];
    roots(turn, &mut |root| tops(root, &mut found));
    let apart: Vec<*const Op<W>> = found
        .into_iter()
        .filter(|&(node, code, rules)| {
            let mut others = CellSet::default();
            may_empty(turn, Ctx::Any, node, &mut others);
            !others.contains_code(code) && changes_apart(code, rules)
        })
        .map(|(node, _, _)| node)
        .collect();
    mark(turn, &apart);
}

/// What the POI holds where a part runs: a binder's code, or anything.
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    Code(u8),
    Any,
}

/// Calls `each` on the ops a leaf's count (`Board::tally`) starts counting
/// from: the moves before a kept test, or a turn of alternatives.
fn roots<'a, W>(op: &'a Op<W>, each: &mut impl FnMut(&'a Op<W>)) {
    match op {
        Op::Seq(a, b) => match &**b {
            Op::NotBits(..) => each(a),
            _ => roots(b, each),
        },
        Op::Alt(_) | Op::Bind(..) | Op::Rules(_) => each(op),
        _ => {}
    }
}

type Found<'a, W> = (*const Op<W>, u8, &'a [FastRule]);

/// The binders on bit rules, and the rules guarding on one code (a
/// knight's leaps), reached from `op` through alternatives.
fn tops<'a, W>(op: &'a Op<W>, out: &mut Vec<Found<'a, W>>) {
    match op {
        Op::Alt(arms) => arms.iter().for_each(|a| tops(a, out)),
        Op::Bind(code, body) => {
            if let Op::BitRules(rules, ..) = &**body {
                out.push((op as *const Op<W>, *code, rules));
            }
        }
        Op::Rules(rules) => {
            if let Some(Find::Guard(code)) = rules.first().map(|r| &r.find) {
                if rules
                    .iter()
                    .all(|r| matches!(r.find, Find::Guard(c) if c == *code) && !r.needs_poi)
                {
                    out.push((op as *const Op<W>, *code, rules));
                }
            }
        }
        _ => {}
    }
}

/// Sets `apart` on the bit rules of the binders in `apart`, and on the
/// guards' rules in it.
fn mark<W>(op: &mut Op<W>, apart: &[*const Op<W>]) {
    let this = op as *const Op<W>;
    match op {
        Op::Rules(rules) => {
            let flag = apart.contains(&this);
            rules.iter_mut().for_each(|r| r.apart = flag);
        }
        Op::Bind(_, body) => {
            if let Op::BitRules(_, _, flag) = &mut **body {
                *flag = apart.contains(&this);
            }
            mark(body, apart);
        }
        Op::Seq(a, b) => {
            mark(a, apart);
            mark(b, apart);
        }
        Op::Alt(arms) => arms.iter_mut().for_each(|a| mark(a, apart)),
        _ => {}
    }
}

/// Adds to `out` the codes `op` (but the part `skip`) may empty, with the
/// POI holding `ctx`.
fn may_empty<W>(op: &Op<W>, ctx: Ctx, skip: *const Op<W>, out: &mut CellSet) {
    if std::ptr::eq(op, skip) {
        return;
    }
    let any = |out: &mut CellSet| *out = CellSet::default().complement();
    let poi = |out: &mut CellSet| match ctx {
        Ctx::Code(c) => out.insert_code(c),
        Ctx::Any => any(out),
    };
    match op {
        Op::Nil | Op::Fail | Op::Not { .. } | Op::NotBits(..) => {}
        Op::Rules(rules) | Op::BitRules(rules, ..) => rules.iter().for_each(|r| rule_empties(r, ctx, out)),
        Op::Walk(_) => poi(out),
        Op::Hop(_, rules) => {
            poi(out);
            rules.iter().for_each(|r| rule_empties(r, Ctx::Any, out));
        }
        Op::BitHops(hops) => {
            poi(out);
            hops.iter()
                .flat_map(|h| &h.rules)
                .for_each(|r| rule_empties(r, Ctx::Any, out));
        }
        Op::Slide { set, write, .. } => {
            poi(out);
            if *write == Code::EMPTY || (*write == Code::POI && matches!(ctx, Ctx::Any)) {
                *out = out.union(set);
            }
        }
        Op::Bind(c, body) => may_empty(body, Ctx::Code(*c), skip, out),
        Op::Seq(a, b) => {
            may_empty(a, ctx, skip, out);
            may_empty(b, after(a, ctx), skip, out);
        }
        Op::Alt(arms) => arms.iter().for_each(|a| may_empty(a, ctx, skip, out)),
        Op::Star(m) | Op::Greedy(m) => may_empty(m, Ctx::Any, skip, out),
        Op::Probe { rules, .. } => may_empty(rules, ctx, skip, out),
        Op::Interpret(_) => any(out),
    }
}

/// What the POI holds after `op`, where it held `ctx`: the same where
/// `op` only tests or carries the POI's piece along with it.
fn after<W>(op: &Op<W>, ctx: Ctx) -> Ctx {
    let carries = |r: &FastRule| r.writes.iter().filter(|w| w.1 == Code::POI).count() == 1;
    let same = match op {
        Op::Nil | Op::Not { .. } | Op::NotBits(..) | Op::Walk(_) => true,
        Op::Slide { write, .. } => *write == Code::POI,
        Op::Rules(rules) | Op::BitRules(rules, ..) => rules.iter().all(carries),
        Op::Seq(a, b) => return after(b, after(a, ctx)),
        Op::Alt(arms) => arms.iter().all(|a| after(a, ctx) == ctx),
        _ => false,
    };
    if same {
        ctx
    } else {
        Ctx::Any
    }
}

/// What square `at` from `r`'s pivot was read to hold, with the POI
/// holding `ctx`; `None`: not read (anything).
fn read_at(r: &FastRule, at: isize, ctx: Ctx) -> Option<CellSet> {
    if at == 0 {
        let one = |c: u8| {
            let mut s = CellSet::default();
            s.insert_code(c);
            Some(s)
        };
        return match (&r.find, ctx) {
            (Find::Anchor, Ctx::Code(c)) => one(c),
            (Find::Guard(c), _) => one(*c),
            (Find::GuardAny(set), _) => Some(*set),
            _ => None,
        };
    }
    r.reads.iter().find(|(d, _)| *d == at).map(|(_, s)| *s)
}

/// Adds to `out` the codes rule `r` may empty.
fn rule_empties(r: &FastRule, ctx: Ctx, out: &mut CellSet) {
    for &(at, v) in &r.writes {
        let empties = v == Code::EMPTY || (v == Code::POI && matches!(ctx, Ctx::Any));
        if empties {
            match read_at(r, at, ctx) {
                Some(set) => *out = out.union(&set),
                None => *out = CellSet::default().complement(),
            }
        }
    }
}

/// The squares rule `r` of `%code:` changes, from its pivot, with what
/// they then hold, when that is fixed: each write changes its square
/// whenever the rule fits, or never does; and it empties its pivot.
fn changes(code: u8, r: &FastRule) -> Option<Vec<(isize, u8)>> {
    let pivot = match r.find {
        Find::Anchor => true,
        Find::Guard(c) => c == code,
        _ => false,
    };
    if !r.distinct || !pivot || code == Code::EMPTY {
        return None;
    }
    let mut out = vec![];
    for &(at, v) in &r.writes {
        // A guard's POI is elsewhere, holding anything.
        if v == Code::POI && !matches!(r.find, Find::Anchor) {
            return None;
        }
        let v = if v == Code::POI { code } else { v };
        let read = read_at(r, at, Ctx::Code(code))?;
        if !read.contains_code(v) {
            out.push((at, v));
        } else if (0..=u8::MAX).any(|c| c != v && read.contains_code(c)) {
            // Changes on some boards and not on others.
            return None;
        }
    }
    out.contains(&(0, Code::EMPTY)).then_some(out)
}

/// Whether every rule of `%code: rules` changes squares in a fixed way,
/// emptying its pivot, and no two rules' changes are translates of each
/// other (the same board from two pivots).
fn changes_apart(code: u8, rules: &[FastRule]) -> bool {
    let Some(all) = rules.iter().map(|r| changes(code, r)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let same = |a: &[(isize, u8)], b: &[(isize, u8)], shift: isize| {
        a.len() == b.len() && b.iter().all(|&(at, v)| a.contains(&(at + shift, v)))
    };
    all.iter().enumerate().all(|(i, a)| {
        all[i + 1..].iter().all(|b| {
            // Pivots `shift` apart would have to line up the emptied pivots.
            !a.iter().filter(|w| w.1 == Code::EMPTY).any(|&(at, _)| same(a, b, at))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(reads: &[(isize, u8)], writes: &[(isize, u8)]) -> FastRule {
        let set = |c: u8| {
            let mut s = CellSet::default();
            s.insert_code(c);
            s
        };
        FastRule {
            find: Find::Anchor,
            reads: reads.iter().map(|&(d, c)| (d, set(c))).collect(),
            offs: vec![],
            writes: writes.to_vec(),
            ons: vec![],
            one: None,
            as_before: false,
            needs_poi: true,
            distinct: true,
            apart: false,
        }
    }

    const PIECE: u8 = 7;

    /// Steps to different squares are apart; the same step twice, or a
    /// step whose square may already hold what it writes, is not.
    #[test]
    fn steps_apart_and_not() {
        let step = |d| rule(&[(d, Code::EMPTY)], &[(0, Code::EMPTY), (d, Code::POI)]);
        assert!(changes_apart(PIECE, &[step(1), step(-1), step(10)]));
        assert!(!changes_apart(PIECE, &[step(1), step(1)]));
        // Writes its own code where it may already stand.
        let onto = rule(&[(1, PIECE)], &[(0, Code::EMPTY), (1, Code::POI)]);
        assert!(
            changes_apart(PIECE, std::slice::from_ref(&onto)),
            "never changes the square: only empties"
        );
        let maybe = FastRule {
            reads: vec![(1, {
                let mut s = CellSet::default();
                s.insert_code(PIECE);
                s.insert_code(Code::EMPTY);
                s
            })],
            ..onto
        };
        assert!(!changes_apart(PIECE, &[maybe]));
        // Not emptying its pivot.
        assert!(!changes_apart(PIECE, &[rule(&[(1, Code::EMPTY)], &[(1, 9)])]));
    }

    /// A part that may empty the binder's code takes its rules out of
    /// counting apart; a part emptying other codes does not.
    #[test]
    fn another_part_emptying_the_code() {
        let step = |d| rule(&[(d, Code::EMPTY)], &[(0, Code::EMPTY), (d, Code::POI)]);
        let binder = |c: u8| Op::<u64>::Bind(c, Box::new(Op::BitRules(vec![step(1)], vec![], false)));
        let flags = |turn: &Op<u64>| {
            let Op::Alt(arms) = turn else { unreachable!() };
            arms.iter()
                .map(|a| match a {
                    Op::Bind(_, body) => matches!(&**body, Op::BitRules(_, _, true)),
                    _ => false,
                })
                .collect::<Vec<_>>()
        };
        let mut turn = Op::Alt(vec![binder(PIECE), binder(PIECE + 1)]);
        certify(&mut turn);
        assert_eq!(flags(&turn), [true, true]);
        let mut twice = Op::Alt(vec![binder(PIECE), binder(PIECE)]);
        certify(&mut twice);
        assert_eq!(flags(&twice), [false, false]);
        let mut interpreted = Op::Alt(vec![
            binder(PIECE),
            Op::Interpret(Box::new(crate::semantics::Prog::Nil)),
        ]);
        certify(&mut interpreted);
        assert_eq!(flags(&interpreted), [false, false]);
    }
}
