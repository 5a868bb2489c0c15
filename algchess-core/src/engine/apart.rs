//! Which parts of a turn (a binder's rules or slides, a guard's rules)
//! make results no other part can make, so that a leaf counts them with
//! no fingerprint (the `apart` flags of `Op::BitRules`, `Op::Slide` and
//! `FastRule`; a count that starts again after a move with several
//! results counts exactly instead, `Board::tally`).
//!
//! A result of `%c: rules`, each rule writing `.` on its pivot, empties a
//! square holding `c`. Another result equal to it empties that square too,
//! so it comes from a part of the turn that may empty a square holding `c`.
//! When no other part may, and no two of the binder's rules change the
//! same squares to the same codes from different pivots (their changes
//! are not translates of each other), the binder's results are distinct
//! from each other and from every other result of the turn.
//!
//! Another part that may empty such a square still makes none of the
//! binder's results when every result of the two differs in how many
//! squares hold some code (castling empties the square of a king that
//! may castle, as that king's steps do, but also turns a rook that may
//! castle into one that may not), or when it is a binder of the same
//! code whose fixed changes are no translate of the binder's (a piece's
//! leaps, which never land on its lines).
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
/// So for a guard's rules, and for `%c:` slides along lines that never
/// meet on a box at most `span` squares wide and high.
pub(super) fn certify<W>(turn: &mut Op<W>, span: i32) {
    let (mut found, mut arms) = (vec![], vec![]);
    let mut root = std::ptr::null();
    roots(turn, &mut |r| {
        root = r as *const Op<W>;
        tops(r, &mut found);
        flat(r, &mut arms);
    });
    // Outside the count's alternatives nothing may empty a part's code;
    // an alternative that may must differ from the part in how many
    // pieces of some code each result leaves.
    let mut outside = CellSet::default();
    if !found.is_empty() {
        may_empty(turn, Ctx::Any, root, &mut outside);
    }
    let apart: Vec<*const Op<W>> = found
        .into_iter()
        .filter(|(node, code, moves)| {
            !outside.contains_code(*code)
                && arms.iter().filter(|q| !std::ptr::eq(**q, *node)).all(|q| {
                    let mut empties = CellSet::default();
                    may_empty(q, Ctx::Any, *node, &mut empties);
                    !empties.contains_code(*code) || counted_apart(*node, q) || pieces_apart(*node, q, span)
                })
                && match moves {
                    Moves::Rules(rules) => changes_apart(*code, rules),
                    Moves::Slides(slides) => slides_apart(*code, slides, span),
                }
        })
        .map(|(node, _, _)| node as *const Op<W>)
        .collect();
    mark(turn, &apart);
}

/// The code a write of a `%code:` part puts down: the piece's own for
/// the POI's content.
fn written(write: u8, code: u8) -> u8 {
    if write == Code::POI {
        code
    } else {
        write
    }
}

/// The alternatives of `op`, nested ones flattened.
fn flat<'a, W>(op: &'a Op<W>, out: &mut Vec<&'a Op<W>>) {
    match op {
        Op::Alt(arms) => arms.iter().for_each(|a| flat(a, out)),
        _ => out.push(op),
    }
}

/// Whether every result of `p` and every result of `q` differ in how
/// many squares hold some code: then no result of one is a result of the
/// other (castling, which empties a square of a king that may castle,
/// and that king's steps: castling also empties a rook's square).
fn counted_apart<W>(p: &Op<W>, q: &Op<W>) -> bool {
    (0..=u8::MAX).any(|k| match (delta(p, Ctx::Any, k), delta(q, Ctx::Any, k)) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    })
}

/// How many more squares hold code `k` after each result of `op`, with
/// the POI holding `ctx`, when that is the same for every result.
fn delta<W>(op: &Op<W>, ctx: Ctx, k: u8) -> Option<i64> {
    match op {
        Op::Nil | Op::Not { .. } | Op::NotBits(..) | Op::Fits(..) | Op::Count(..) => Some(0),
        Op::Probe { rules, .. } => delta(rules, ctx, k),
        Op::Rules(rules) | Op::BitRules(rules, ..) => same(rules.iter().map(|r| rule_delta(r, ctx, k))),
        Op::Slide { set, write, .. } => {
            let Ctx::Code(c) = ctx else { return None };
            let v = written(*write, c);
            let start = i64::from(k == Code::EMPTY) - i64::from(k == c);
            Some(start + write_delta(*set, v, k)?)
        }
        Op::Bind(c, body) => delta(body, Ctx::Code(*c), k),
        Op::Seq(a, b) => Some(delta(a, ctx, k)? + delta(b, after(a, ctx), k)?),
        Op::Alt(arms) => same(arms.iter().map(|a| delta(a, ctx, k))),
        _ => None,
    }
}

/// The one value of `each`, if they are all one.
fn same(mut each: impl Iterator<Item = Option<i64>>) -> Option<i64> {
    let first = each.next()??;
    each.all(|d| d == Some(first)).then_some(first)
}

/// How many more squares hold `k` after rule `r`, with the POI holding
/// `ctx`, when fixed: each write's square read to hold one code or none
/// that matters to `k`.
fn rule_delta(r: &FastRule, ctx: Ctx, k: u8) -> Option<i64> {
    if !r.distinct {
        return None;
    }
    r.writes.iter().try_fold(0, |sum, &(at, v)| {
        let v = match (v, ctx) {
            (Code::POI, Ctx::Code(c)) => c,
            (Code::POI, Ctx::Any) => return None,
            (v, _) => v,
        };
        Some(sum + write_delta(read_at(r, at, ctx)?, v, k)?)
    })
}

/// How many more squares hold `k` after `v` is written over a square
/// holding one of `read`, when that is fixed.
fn write_delta(read: CellSet, v: u8, k: u8) -> Option<i64> {
    let only_k = read.contains_code(k) && (0..=u8::MAX).all(|c| c == k || !read.contains_code(c));
    let had = if only_k {
        1
    } else if !read.contains_code(k) {
        0
    } else {
        return None;
    };
    Some(i64::from(v == k) - had)
}

/// The moves of a part that may be counted apart.
enum Moves<'a> {
    Rules(&'a [FastRule]),
    /// Each slide's step, longest length, the codes it may land on, and
    /// what it writes.
    Slides(Vec<(isize, u32, CellSet, u8)>),
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

type Found<'a, W> = (&'a Op<W>, u8, Moves<'a>);

/// The slides of `op`, one or alternatives.
fn slides<W>(op: &Op<W>) -> Option<Vec<(isize, u32, CellSet, u8)>> {
    match op {
        Op::Slide { d, set, max, write, .. } => Some(vec![(*d, *max, *set, *write)]),
        Op::Alt(arms) => arms.iter().map(slides).collect::<Option<Vec<_>>>().map(|v| v.concat()),
        _ => None,
    }
}

/// The binders on bit rules or slides, and the rules guarding on one
/// code (a knight's leaps), reached from `op` through alternatives.
fn tops<'a, W>(op: &'a Op<W>, out: &mut Vec<Found<'a, W>>) {
    let this = op;
    match op {
        Op::Alt(arms) => arms.iter().for_each(|a| tops(a, out)),
        Op::Bind(code, body) => {
            if let Op::BitRules(rules, ..) = &**body {
                out.push((this, *code, Moves::Rules(rules)));
            } else if let Some(s) = slides(body) {
                out.push((this, *code, Moves::Slides(s)));
            }
        }
        Op::Rules(rules) => {
            if let Some(Find::Guard(code)) = rules.first().map(|r| &r.find) {
                if rules
                    .iter()
                    .all(|r| matches!(r.find, Find::Guard(c) if c == *code) && !r.needs_poi)
                {
                    out.push((this, *code, Moves::Rules(rules)));
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
            let flag = apart.contains(&this);
            if let Op::BitRules(_, _, apart) = &mut **body {
                *apart = flag;
            }
            set_slides(body, flag);
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

/// Sets `apart` on the slides of `op`, one or alternatives.
fn set_slides<W>(op: &mut Op<W>, flag: bool) {
    match op {
        Op::Slide { apart, .. } => *apart = flag,
        Op::Alt(arms) => arms.iter_mut().for_each(|a| set_slides(a, flag)),
        _ => {}
    }
}

/// Whether `%code:` slides (step, longest length, codes landed on, code
/// written) make no result twice on a box at most `span` squares wide
/// and high: each leaves its start empty and puts a piece where it
/// was not, never on a square of `code`, and no two lines from one square meet (`k1·d1 = k2·d2` for
/// lengths a box allows) unless they land on different codes (a quiet
/// move forward and a take along one line: the square they would share
/// holds one code, which only one of them lands on).
fn slides_apart(code: u8, slides: &[(isize, u32, CellSet, u8)], span: i32) -> bool {
    // The piece lands where its square changes: what it writes is not
    // what the square held, nor empty.
    let lands = |&(_, _, set, write): &(isize, u32, CellSet, u8)| {
        let v = written(write, code);
        v != Code::EMPTY && !set.contains_code(v) && !set.contains_code(code)
    };
    let longest = |max: u32| i64::from(max.min(span.max(0) as u32));
    code != Code::EMPTY
        && slides.iter().all(lands)
        && slides.iter().enumerate().all(|(i, &(d1, m1, s1, _))| {
            slides[i + 1..].iter().all(|&(d2, m2, s2, _)| {
                let (d1, d2) = (d1 as i64, d2 as i64);
                // The shortest lengths at which the lines meet, if they
                // point the same way.
                let g = gcd(d1.abs(), d2.abs());
                (d1 > 0) != (d2 > 0)
                    || g == 0
                    || d2.abs() / g > longest(m1)
                    || d1.abs() / g > longest(m2)
                    || s1.intersection(&s2).is_empty()
            })
        })
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
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
        Op::Nil | Op::Fail | Op::Not { .. } | Op::NotBits(..) | Op::Fits(..) | Op::Count(..) => {}
        Op::Rules(rules) | Op::BitRules(rules, ..) => rules.iter().for_each(|r| rule_empties(r, ctx, out)),
        Op::Walk(_) => poi(out),
        // A walk carries the POI's piece along: its rules find it there.
        Op::Hop(_, rules) => {
            poi(out);
            rules.iter().for_each(|r| rule_empties(r, ctx, out));
        }
        Op::BitHops(hops) => {
            poi(out);
            hops.iter()
                .flat_map(|h| &h.rules)
                .for_each(|r| rule_empties(r, ctx, out));
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
        // A repetition that carries the POI's piece along (a king's walk
        // square by square, tested at each) starts every round with it.
        Op::Star(m) | Op::Greedy(m) => {
            let each = if after(m, ctx) == ctx { ctx } else { Ctx::Any };
            may_empty(m, each, skip, out)
        }
        Op::Probe { rules, .. } => may_empty(rules, ctx, skip, out),
        Op::Interpret(_) => any(out),
    }
}

/// What the POI holds after `op`, where it held `ctx`: the same where
/// `op` only tests or carries the POI's piece along with it.
fn after<W>(op: &Op<W>, ctx: Ctx) -> Ctx {
    let carries = |r: &FastRule| r.writes.iter().filter(|w| w.1 == Code::POI).count() == 1;
    let same = match op {
        Op::Nil | Op::Not { .. } | Op::NotBits(..) | Op::Fits(..) | Op::Count(..) | Op::Walk(_) => true,
        Op::Slide { write, .. } => *write == Code::POI,
        Op::Rules(rules) | Op::BitRules(rules, ..) => rules.iter().all(carries),
        Op::Seq(a, b) => return after(b, after(a, ctx)),
        Op::Alt(arms) => arms.iter().all(|a| after(a, ctx) == ctx),
        Op::Star(m) | Op::Greedy(m) => after(m, ctx) == ctx,
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
        let v = written(v, code);
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

/// The squares a result changes, from its pivot, with what each then holds.
type Changes = Vec<(isize, u8)>;

/// The changes from its pivot of each result of `op`, a binder's bit
/// rules or slides or a guard's rules, when they are fixed (a slide's at
/// each length a box `span` wide allows), with the code of its pieces.
fn part_changes<W>(op: &Op<W>, span: i32) -> Option<(u8, Vec<Changes>)> {
    match op {
        Op::Bind(c, body) => match &**body {
            Op::BitRules(rules, ..) => Some((*c, rules.iter().map(|r| changes(*c, r)).collect::<Option<_>>()?)),
            body => {
                let mut out = vec![];
                for (d, max, set, write) in slides(body)? {
                    let v = written(write, *c);
                    if v == Code::EMPTY || set.contains_code(v) || *c == Code::EMPTY {
                        return None;
                    }
                    let longest = max.min(span.max(0) as u32) as isize;
                    out.extend((1..=longest).map(|k| vec![(0, Code::EMPTY), (k * d, v)]));
                }
                Some((*c, out))
            }
        },
        Op::Rules(rules) => match rules.first()?.find {
            Find::Guard(c) => Some((c, rules.iter().map(|r| changes(c, r)).collect::<Option<_>>()?)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether parts `p` and `q` move pieces of one code, changing squares
/// in fixed ways of which none of one is a translate of one of the
/// other's (an archbishop's lines and its leaps): their results differ.
fn pieces_apart<W>(p: &Op<W>, q: &Op<W>, span: i32) -> bool {
    match (part_changes(p, span), part_changes(q, span)) {
        (Some((c, a)), Some((d, b))) if c == d => a.iter().all(|x| b.iter().all(|y| !translates(x, y))),
        _ => false,
    }
}

/// Whether changes `b` from some pivot are changes `a` from another (or
/// the same): the pivots line up on a square `a` empties.
fn translates(a: &[(isize, u8)], b: &[(isize, u8)]) -> bool {
    let same = |shift: isize| a.len() == b.len() && b.iter().all(|&(at, v)| a.contains(&(at + shift, v)));
    a.iter().filter(|w| w.1 == Code::EMPTY).any(|&(at, _)| same(at))
}

/// Whether every rule of `%code: rules` changes squares in a fixed way,
/// emptying its pivot, and no two rules' changes are translates of each
/// other (the same board from two pivots).
fn changes_apart(code: u8, rules: &[FastRule]) -> bool {
    let Some(all) = rules.iter().map(|r| changes(code, r)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    all.iter()
        .enumerate()
        .all(|(i, a)| all[i + 1..].iter().all(|b| !translates(a, b)))
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

    /// Slides along different lines from one square never land on one
    /// square, unless one line runs along the other (a step of 2 and one
    /// of 3 meet six squares on, on a box that wide); a slide landing
    /// where its own piece may stand, or not carrying its piece, is not
    /// apart.
    #[test]
    fn slides_apart_and_not() {
        let free = {
            let mut s = CellSet::default();
            s.insert_code(Code::EMPTY);
            s.insert_code(9);
            s
        };
        let slide = |d: isize| (d, u32::MAX, free, Code::POI);
        // A rook's four lines on a 12-wide mailbox, 8 squares across.
        let rook = [slide(12), slide(-12), slide(1), slide(-1)];
        assert!(slides_apart(PIECE, &rook, 8));
        assert!(!slides_apart(PIECE, &[slide(1), slide(1)], 8));
        assert!(!slides_apart(PIECE, &[slide(2), slide(3)], 8));
        // Too short to meet: three steps of 2 and two of 3 reach 6.
        assert!(slides_apart(PIECE, &[(2, 2, free, Code::POI), slide(3)], 8));
        assert!(!slides_apart(9, &[slide(1)], 8), "lands on its own code");
        // Writing another code (a rook that loses its right to castle):
        // apart where that code is not landed on, nor empty.
        assert!(slides_apart(PIECE, &[(1, 8, free, 3)], 8));
        assert!(!slides_apart(PIECE, &[(1, 8, free, 9)], 8), "writes what it lands on");
        assert!(!slides_apart(PIECE, &[(1, 8, free, Code::EMPTY)], 8), "writes empty");
        // A quiet move and a take along one line (Irreversible Chess's
        // rook going forward): they land on different codes.
        let one = |c: u8| {
            let mut s = CellSet::default();
            s.insert_code(c);
            s
        };
        let (quiet, take) = (
            (12, u32::MAX, one(Code::EMPTY), Code::POI),
            (12, u32::MAX, one(9), Code::POI),
        );
        assert!(slides_apart(PIECE, &[quiet, take], 8));
        assert!(
            !slides_apart(PIECE, &[quiet, slide(12)], 8),
            "both land on empty squares"
        );
    }

    /// Another part that may empty the binder's code leaves it apart when
    /// every result of the two differs in how many squares hold some
    /// code: a king's steps and its castling, which also turns a rook
    /// that may castle into one that may not; not a second set of steps.
    #[test]
    fn a_part_leaving_other_counts() {
        const ROOK: u8 = PIECE + 1;
        let step = |d| rule(&[(d, Code::EMPTY)], &[(0, Code::EMPTY), (d, Code::POI)]);
        let steps = Op::<u64>::Bind(PIECE, Box::new(Op::BitRules(vec![step(1), step(-1)], vec![], false)));
        let castle = Op::<u64>::Bind(
            PIECE,
            Box::new(Op::Rules(vec![rule(
                &[(1, Code::EMPTY), (2, ROOK)],
                &[(0, Code::EMPTY), (1, ROOK + 1), (2, Code::POI)],
            )])),
        );
        let apart = |turn: &Op<u64>| match turn {
            Op::Alt(arms) => matches!(&arms[0], Op::Bind(_, body) if matches!(&**body, Op::BitRules(_, _, true))),
            _ => unreachable!(),
        };
        let mut turn = Op::Alt(vec![steps.clone(), castle]);
        certify(&mut turn, 8);
        assert!(apart(&turn), "castling takes a rook away");
        let other = Op::<u64>::Bind(PIECE, Box::new(Op::Rules(vec![step(2)])));
        let mut turn = Op::Alt(vec![steps, other]);
        certify(&mut turn, 8);
        assert!(!apart(&turn), "the same counts");
    }

    /// A piece's lines and its leaps, two binders of one code, are apart
    /// when no leap lands on a line; a leap that does is not.
    #[test]
    fn lines_and_leaps_of_one_piece() {
        let free = {
            let mut s = CellSet::default();
            s.insert_code(Code::EMPTY);
            s
        };
        let slide = |d: isize| Op::<u64>::Slide {
            d,
            set: free,
            max: u32::MAX,
            write: Code::POI,
            apart: false,
            ray: None,
        };
        let step = |d| rule(&[(d, Code::EMPTY)], &[(0, Code::EMPTY), (d, Code::POI)]);
        let flags = |turn: &Op<u64>| {
            let mut out = vec![];
            let Op::Alt(arms) = turn else { unreachable!() };
            for a in arms {
                match a {
                    Op::Bind(_, body) => match &**body {
                        Op::BitRules(_, _, f) => out.push(*f),
                        Op::Alt(slides) => {
                            out.extend(slides.iter().map(|s| matches!(s, Op::Slide { apart: true, .. })))
                        }
                        _ => unreachable!(),
                    },
                    _ => unreachable!(),
                }
            }
            out
        };
        let piece = |leap: isize| {
            Op::Alt(vec![
                Op::Bind(PIECE, Box::new(Op::Alt(vec![slide(12), slide(-12)]))),
                Op::Bind(PIECE, Box::new(Op::BitRules(vec![step(leap)], vec![], false))),
            ])
        };
        let mut turn = piece(25);
        certify(&mut turn, 8);
        assert_eq!(flags(&turn), [true, true, true]);
        let mut turn = piece(24);
        certify(&mut turn, 8);
        assert_eq!(flags(&turn), [false, false, false], "a leap two squares along a line");
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
        certify(&mut turn, 8);
        assert_eq!(flags(&turn), [true, true]);
        let mut twice = Op::Alt(vec![binder(PIECE), binder(PIECE)]);
        certify(&mut twice, 8);
        assert_eq!(flags(&twice), [false, false]);
        let mut interpreted = Op::Alt(vec![
            binder(PIECE),
            Op::Interpret(Box::new(crate::engine::plan::Handed {
                prog: crate::semantics::Prog::Nil,
                budget: Default::default(),
            })),
        ]);
        certify(&mut interpreted, 8);
        assert_eq!(flags(&interpreted), [false, false]);
    }

    /// A repetition that carries its binder's piece along (Chess960's
    /// king walking to its castling square) empties only that piece's
    /// code, round after round; one that drops the piece may empty any.
    #[test]
    fn a_walk_repeated_carries_its_piece() {
        let step = |d| rule(&[(d, Code::EMPTY)], &[(0, Code::EMPTY), (d, Code::POI)]);
        let walk = |r: FastRule| Op::<u64>::Bind(PIECE + 1, Box::new(Op::Star(Box::new(Op::Rules(vec![r])))));
        let pawns = || Op::<u64>::Bind(PIECE, Box::new(Op::BitRules(vec![step(1)], vec![], false)));
        let apart = |turn: &Op<u64>| match turn {
            Op::Alt(arms) => matches!(&arms[0], Op::Bind(_, b) if matches!(&**b, Op::BitRules(_, _, true))),
            _ => unreachable!("a union"),
        };
        let mut carried = Op::Alt(vec![pawns(), walk(step(1))]);
        certify(&mut carried, 8);
        assert!(apart(&carried));
        // Turns into another piece a step on, leaving the POI behind: in
        // the next round the POI's square may hold anything, a pawn too.
        let dropped = rule(&[(1, Code::EMPTY)], &[(0, Code::EMPTY), (1, PIECE + 2)]);
        let mut lost = Op::Alt(vec![pawns(), walk(dropped)]);
        certify(&mut lost, 8);
        assert!(!apart(&lost));
    }
}
