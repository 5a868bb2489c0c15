//! A compiled move specialised to one board box: every square of a rule
//! becomes an index delta in the engine's board, and shapes with a faster
//! run are recognised (a step of the POI repeated along a line, tests as
//! trees of reads). Anything else is handed back to the interpreter, so
//! the plan is never wrong, only slower.
//!
//! This module holds the plan ([`Op`] and its parts) and the constructors
//! that keep it in the form the engine runs fastest; `planner.rs` decides
//! how each part of a `Prog` is planned.

mod planner;

pub(super) use planner::{pad, Planner};

use super::bits::{BitProbe, BitRay, BitRule, BitTest, BitWalk, Codes, Part, Shared};
use super::ids::{MemoId, ProbeId};
use super::word::Word;
use crate::memory::Budget;
use crate::semantics::{CellSet, Code, Prog};

/// How a rule finds its translations.
#[derive(Clone, Copy, Debug)]
pub(super) enum Find {
    /// Where the POI is.
    Anchor,
    /// Squares holding this code, the POI's excepted.
    Guard(u8),
    /// Every square but the POI's that reads one of the set.
    GuardAny(CellSet),
    /// Every on-board square.
    Write,
    /// The rule is the identity.
    Identity,
}

/// A rule with its squares as index deltas from the pivot.
#[derive(Clone, Debug)]
pub(super) struct FastRule {
    pub find: Find,
    /// Reads besides the pivot's own (which `find` has checked).
    pub reads: Vec<(isize, CellSet)>,
    pub offs: Vec<isize>,
    /// Writes: a content code, or `Code::POI` for the POI's content.
    pub writes: Vec<(isize, u8)>,
    /// Written squares that must be on the board and that nothing else
    /// shows to be (the pivot is, and so is a square read as a set
    /// without `#`).
    pub ons: Vec<isize>,
    /// The only check, when the rule checks one read and nothing else.
    pub one: Option<(isize, CellSet)>,
    /// An anchored rule that checks what the rule before it checks.
    pub as_before: bool,
    pub needs_poi: bool,
    /// No two writes are to one square: a result's changes are its
    /// writes, each against what the square holds before the rule.
    pub distinct: bool,
    /// A guard's rule whose results no other part of the turn makes: a
    /// leaf counts them with no fingerprint (`apart.rs`).
    pub apart: bool,
}

/// One read of a probe's tree, the tree laid out in preorder: the square
/// at `at` from the POI reads one of `set`; then a rule is complete
/// (`done`), or the next node is its first child. When the read fails, or
/// none of its children completes, the search goes on at `fail` (the next
/// sibling, or an ancestor's), and past the end nothing fits.
#[derive(Clone, Debug)]
pub(super) struct ReadNode {
    pub at: isize,
    pub set: CellSet,
    pub done: bool,
    pub has_children: bool,
    pub fail: u32,
}

#[derive(Clone, Debug)]
pub(super) enum Op<W> {
    Nil,
    Fail,
    Rules(Vec<FastRule>),
    /// `(% + d. -> . + d%)*`: the POI walks along a line over empty squares.
    Walk(isize),
    /// `(% + d. -> . + d%)*` then rules that each read a piece `d` on (a
    /// grasshopper's hop): only the walk's last square can hold a result,
    /// so the POI goes there in one move and the rules run from there.
    Hop(isize, Vec<FastRule>),
    /// `(% + d. -> . + d%)* (% + d S -> . + d%)`: the POI goes along a
    /// line over empty squares to one reading `S` (without `#`), each
    /// such square a result, made in one move from the start. A slide
    /// written out length by length (`% + d S -> . + d W`, then `% + d. +
    /// 2d S -> . + d. + 2d W`, ...) is one too, with its longest length
    /// as `max` and the code `W` it writes (`Code::POI`: the POI's
    /// content, and the POI goes along).
    Slide {
        d: isize,
        set: CellSet,
        max: u32,
        write: u8,
        /// A leaf counts its results with no fingerprint, as no other
        /// part of the turn makes them (`apart.rs`).
        apart: bool,
        /// The line on bitboards, where the box fits a word: a leaf
        /// counts the results along it at once.
        ray: Option<Box<BitRay<W>>>,
    },
    Bind(u8, Box<Op<W>>),
    Seq(Box<Op<W>>, Box<Op<W>>),
    Alt(Vec<Op<W>>),
    /// `M*`, as a search over new states.
    Star(Box<Op<W>>),
    Greedy(Box<Op<W>>),
    /// `not M`, answered from a memo of what it read where it may be.
    Not {
        test: Box<Op<W>>,
        memo: MemoId,
    },
    /// `not M` where `M` is probes answered on bitboards: tested afresh on
    /// each board, not from a memo.
    NotBits(Box<Op<W>>, Box<BitTest<W>>),
    /// Anchored rules: run as rules, tested as a tree of reads, or on
    /// bitboards when the box and the tree allow.
    Probe {
        /// The rules, run when the move is made.
        rules: Box<Op<W>>,
        /// The test holds on every board (it reads nothing).
        always: bool,
        /// The reads as a tree, for the test.
        reads: Vec<ReadNode>,
        /// The test on bitboards, where the box and the reads allow.
        bits: Option<Box<BitProbe<W>>>,
        /// Names `reads` in a memo of a test around it.
        id: ProbeId,
    },
    /// Run by the interpreter.
    Interpret(Box<Handed>),
    /// Anchored rules that are a binder's body, with their reads as
    /// words: the binder finds where each fits for all its pieces at once.
    /// `apart`: a leaf counts their results with no fingerprint, as no
    /// other part of the turn makes them (`apart.rs`).
    BitRules(Vec<FastRule>, Vec<BitRule<W>>, bool),
    /// `Hop`s that are a binder's body, with their walks and reads as words:
    /// the binder finds where each lands for all its pieces at once.
    BitHops(Vec<BitHop<W>>),
    /// Whether one of these anchored rules, as words, fits a piece of the
    /// code (but the POI): nil if so, else no result. It goes before a
    /// binder whose body tests and then runs these rules (castling: the
    /// king not in check, then the squares between empty), so that the
    /// tests are not run for pieces with nowhere to go. Off bitboards it
    /// is nil.
    Fits(u8, Vec<BitRule<W>>),
    /// Whether at least this many squares (the POI's aside) hold a code
    /// of the set: nil if so, else no result. Only where whether a move
    /// has a result is all that matters (`Prog::Count`).
    Count(Codes, u32),
}

/// A `Hop` on bitboards: its walk, and its rules with their reads.
#[derive(Clone, Debug)]
pub(super) struct BitHop<W> {
    pub d: isize,
    pub walk: BitWalk<W>,
    pub rules: Vec<FastRule>,
    pub bits: Vec<BitRule<W>>,
}

/// The code `rules` write on the POI's square, when that is all they do.
fn relabel_of(rules: &[FastRule]) -> Option<u8> {
    match rules {
        [r] if matches!(r.find, Find::Anchor)
            && r.reads.is_empty()
            && r.offs.is_empty()
            && r.ons.is_empty()
            && r.one.is_none()
            && matches!(&r.writes[..], [(0, x)] if *x != Code::POI) =>
        {
            Some(r.writes[0].1)
        }
        _ => None,
    }
}

impl<W> Op<W> {
    /// The code `self` writes on the POI's square, when that is all it
    /// does (`% -> ♖`: a rook that has moved loses its right to castle).
    pub(super) fn relabel(&self) -> Option<u8> {
        let Op::Rules(rules) = self else { return None };
        relabel_of(rules)
    }

    /// `(c, x)` when `self` is `%c: % -> x` with `x` not `c`: under `*!`
    /// every piece of `c` (but the POI's) becomes `x`, in any order, and
    /// that is the one state the loop reaches (`'Pe -> ♙`: no pawn may
    /// be taken en passant any more).
    pub(super) fn relabels_every(&self) -> Option<(u8, u8)> {
        let Op::Bind(c, body) = self else { return None };
        let (Op::Rules(rules) | Op::BitRules(rules, ..)) = &**body else {
            return None;
        };
        relabel_of(rules).filter(|x| x != c).map(|x| (*c, x))
    }

    /// Whether `self` moves the POI's piece alone and puts it down once
    /// (slides carrying it, anchored rules with one write of it, or
    /// alternatives of them), so that a relabel after it may instead be
    /// written where the piece is put.
    fn puts_piece_once(&self) -> bool {
        match self {
            Op::Slide { write, .. } => *write == Code::POI,
            Op::Rules(rules) => rules
                .iter()
                .all(|r| matches!(r.find, Find::Anchor) && r.writes.iter().filter(|w| w.1 == Code::POI).count() == 1),
            Op::Alt(arms) => arms.iter().all(Op::puts_piece_once),
            _ => false,
        }
    }

    /// Writes `x` where `self` ([`Op::puts_piece_once`]) puts the POI's piece.
    fn put_piece_as(&mut self, x: u8) {
        match self {
            Op::Slide { write, .. } => *write = x,
            Op::Rules(rules) => rules
                .iter_mut()
                .flat_map(|r| r.writes.iter_mut())
                .filter(|w| w.1 == Code::POI)
                .for_each(|w| w.1 = x),
            Op::Alt(arms) => arms.iter_mut().for_each(|a| a.put_piece_as(x)),
            _ => unreachable!("checked by puts_piece_once"),
        }
    }
}

/// A binder's body of slides and rules (an archbishop's: a bishop's
/// lines and a knight's leaps) as its slides and its rules, each then
/// the body of a binder of its own (`%c: A | B` is `%c: A | %c: B`), so
/// that the rules find their pieces on words and a leaf counts each part
/// as it counts a bishop's or a knight's. `Err`: the body as it was.
fn split<W: Word>(body: Op<W>) -> Result<Vec<Op<W>>, Op<W>> {
    fn flat<W>(op: Op<W>, out: &mut Vec<Op<W>>) {
        match op {
            Op::Alt(arms) => arms.into_iter().for_each(|a| flat(a, out)),
            op => out.push(op),
        }
    }
    let Op::Alt(nested) = body else { return Err(body) };
    let mut arms = vec![];
    nested.into_iter().for_each(|a| flat(a, &mut arms));
    let slide = |a: &Op<W>| matches!(a, Op::Slide { .. });
    let rules = |a: &Op<W>| matches!(a, Op::Rules(_));
    if !arms.iter().all(|a| slide(a) || rules(a)) || arms.iter().all(slide) || arms.iter().all(rules) {
        return Err(Op::Alt(arms));
    }
    let (slides, rules): (Vec<Op<W>>, Vec<Op<W>>) = arms.into_iter().partition(slide);
    let rules = rules.into_iter().flat_map(|r| match r {
        Op::Rules(rs) => rs,
        _ => unreachable!("partitioned"),
    });
    Ok(vec![alt(slides), rules_op(rules.collect())])
}

/// A binder's body of moves then a relabel (`%'Rc: rook_moves (% -> ♖)`)
/// as the moves writing the new code where they put the piece: the same
/// results, as a binder's keep the POI before it whatever the body did
/// with it; and the moves then plan as any piece's (on words, apart).
fn relabelled<W>(body: Op<W>) -> Op<W> {
    match body {
        Op::Seq(mut moves, then) => match then.relabel() {
            Some(x) if moves.puts_piece_once() => {
                moves.put_piece_as(x);
                *moves
            }
            _ => Op::Seq(moves, then),
        },
        body => body,
    }
}

impl<W: Word> Op<W> {
    /// Gives the code sets `self` reads on words their own words
    /// ([`Slots`]), and shares its rows of masks.
    pub(super) fn intern(&mut self, slots: &mut Shared<W>) {
        match self {
            Op::BitRules(_, bits, _) | Op::Fits(_, bits) => bits.iter_mut().for_each(|b| b.intern(slots)),
            Op::BitHops(hops) => hops.iter_mut().flat_map(|h| &mut h.bits).for_each(|b| b.intern(slots)),
            Op::NotBits(m, t) => {
                m.intern(slots);
                t.intern(slots);
            }
            Op::Probe { rules, bits, .. } => {
                rules.intern(slots);
                if let Some(b) = bits {
                    b.intern(slots);
                }
            }
            Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) | Op::Not { test: m, .. } => m.intern(slots),
            Op::Seq(a, b) => {
                a.intern(slots);
                b.intern(slots);
            }
            Op::Alt(arms) => arms.iter_mut().for_each(|a| a.intern(slots)),
            Op::Slide { ray: Some(ray), .. } => ray.intern(slots),
            Op::Count(codes, _) => slots.codes(codes),
            Op::Nil | Op::Fail | Op::Rules(_) | Op::Walk(_) | Op::Hop(..) | Op::Slide { .. } | Op::Interpret(_) => {}
        }
    }

    /// Adds the codes whose squares `self` looks for to `out`.
    pub(super) fn looked_for(&self, out: &mut Vec<u8>) {
        match self {
            Op::Rules(rules) => out.extend(rules.iter().filter_map(|r| match r.find {
                Find::Guard(c) => Some(c),
                _ => None,
            })),
            Op::Bind(c, m) => {
                out.push(*c);
                m.looked_for(out);
            }
            Op::Star(m) | Op::Greedy(m) | Op::Not { test: m, .. } | Op::NotBits(m, _) | Op::Probe { rules: m, .. } => {
                m.looked_for(out)
            }
            Op::Seq(a, b) => {
                a.looked_for(out);
                b.looked_for(out);
            }
            Op::Alt(arms) => arms.iter().for_each(|a| a.looked_for(out)),
            Op::Nil | Op::Fail | Op::Walk(_) | Op::Slide { .. } | Op::Interpret(_) | Op::BitRules(..) => {}
            Op::Hop(..) | Op::BitHops(_) | Op::Fits(..) | Op::Count(..) => {}
        }
    }

    /// `self` as a bitboard test, when it is made of probes on bitboards,
    /// binders (not nested) and unions.
    fn bit_test(&self) -> Option<BitTest<W>> {
        fn parts<W: Word>(op: &Op<W>, bound: Option<u8>, out: &mut Vec<Part<W>>) -> Option<()> {
            match op {
                Op::Nil => out.push(bound.map_or(Part::Yes, |c| Part::Bound(c, None))),
                Op::Fail => {}
                Op::Probe { always, bits, .. } => {
                    let p = if *always {
                        None
                    } else {
                        Some((**bits.as_ref()?).clone())
                    };
                    out.push(match bound {
                        Some(c) => Part::Bound(c, p),
                        None => Part::AtPoi(p),
                    });
                }
                Op::Bind(c, body) if bound.is_none() => parts(body, Some(*c), out)?,
                Op::Alt(arms) => {
                    for a in arms {
                        parts(a, bound, out)?;
                    }
                }
                _ => return None,
            }
            Some(())
        }
        let mut out = vec![];
        parts(self, None, &mut out)?;
        Some(BitTest::new(out))
    }
}

/// Rules run in order, each marked when it checks what the one before
/// it checks.
fn rules_op<W: Word>(rules: Vec<FastRule>) -> Op<W> {
    let mut fast: Vec<FastRule> = Vec::with_capacity(rules.len());
    for r in rules {
        match fast.last().and_then(|a| merged(a, &r)) {
            Some(m) => *fast.last_mut().expect("just read") = m,
            None => fast.push(r),
        }
    }
    fast.iter_mut().for_each(|r| r.as_before = false);
    for k in 1..fast.len() {
        let (a, b) = (&fast[k - 1], &fast[k]);
        fast[k].as_before = matches!((a.find, b.find), (Find::Anchor, Find::Anchor))
            && a.needs_poi == b.needs_poi
            && a.reads == b.reads
            && a.offs == b.offs
            && a.ons == b.ons;
    }
    Op::Rules(fast)
}

/// Two rules that differ only in the set one square is read against (a
/// hop over each kind of piece), as one rule reading the union: they
/// write the same, so together they make the results it makes.
fn merged(a: &FastRule, b: &FastRule) -> Option<FastRule> {
    let same_find = match (a.find, b.find) {
        (Find::Anchor, Find::Anchor) => true,
        (Find::Guard(x), Find::Guard(y)) => x == y,
        _ => false,
    };
    if !same_find
        || a.needs_poi != b.needs_poi
        || a.writes != b.writes
        || a.offs != b.offs
        || a.ons != b.ons
        || a.reads.len() != b.reads.len()
    {
        return None;
    }
    let mut differ = (0..a.reads.len()).filter(|&i| a.reads[i] != b.reads[i]);
    let (Some(i), None) = (differ.next(), differ.next()) else {
        return None;
    };
    let (at, set) = a.reads[i];
    if b.reads[i].0 != at {
        return None;
    }
    let mut m = a.clone();
    m.reads[i].1 = set.union(&b.reads[i].1);
    m.one = a.one.map(|_| m.reads[i]);
    Some(m)
}

/// A union, its neighbouring arms of rules run as one list of rules (a
/// knight's eight leaps, a king's eight steps): the same results, one
/// dispatch, and guards on one code scanned once. An arm that fails has
/// no results and is left out (a variant's `override pawn_double =
/// fail`), so the arms around it join as if it had never been there.
fn alt<W: Word>(arms: Vec<Op<W>>) -> Op<W> {
    let mut out: Vec<Op<W>> = vec![];
    for a in arms {
        match (out.last_mut(), a) {
            (_, Op::Fail) => {}
            (Some(Op::Rules(before)), Op::Rules(more)) => {
                before.extend(more);
                let all = std::mem::take(before);
                *out.last_mut().expect("just matched") = rules_op(all);
            }
            (_, a) => out.push(a),
        }
    }
    match out.len() {
        0 => Op::Fail,
        1 => out.pop().expect("one arm"),
        _ => Op::Alt(out),
    }
}

/// `x y`, grouped so that each bitboard test in `y` follows the moves
/// before it (`(x not A) not B` for `x (not A not B)`): the engine tests
/// the moves of a position with what it read there once.
fn seq<W: Word>(x: Op<W>, y: Op<W>) -> Op<W> {
    match (x, y) {
        (Op::Walk(d), Op::Rules(rules)) if rules.iter().all(|r| hops(r, d)) => Op::Hop(d, rules),
        (x, y) => seq_tests(x, y),
    }
}

/// Whether `r` is anchored and needs a piece `d` from its anchor.
fn hops(r: &FastRule, d: isize) -> bool {
    matches!(r.find, Find::Anchor)
        && r.reads
            .iter()
            .any(|&(at, set)| at == d && !set.contains_code(Code::EMPTY))
}

fn seq_tests<W: Word>(x: Op<W>, y: Op<W>) -> Op<W> {
    match y {
        Op::Seq(y1, y2) if matches!(*y1, Op::NotBits(..)) => seq(Op::Seq(Box::new(x), y1), *y2),
        y => Op::Seq(Box::new(x), Box::new(y)),
    }
}

/// A move handed to the interpreter, with the budget its runs keep to.
#[derive(Clone, Debug)]
pub(super) struct Handed {
    pub prog: Prog,
    pub budget: Budget,
}
