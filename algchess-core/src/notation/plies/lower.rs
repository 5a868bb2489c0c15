//! Plies lowered to the algebra's syntax tree: each conjunction of a ply's
//! condition one rewrite after tests, sliders as chess.alg writes them, and
//! the `Globally:` condition a test after every ply.

use super::super::tree::{arrow, bar, bind, call, cell, fail, juxt, nil, not, paren, plus, poi, star, word};
use super::cond::{dnf, Atom, Reading, F};
use super::contents::*;
use super::parse::{read, Action, Arg, Comp, Cond, Kind, PlySpec, Section};
use super::{add, Off, LONGEST};
use crate::diag::{Diag, Diags, Source, Span};
use crate::parse::ast::Expr;
use std::collections::BTreeMap;

/// A translation as movement letters.
fn letters(o: Off) -> String {
    let (x, y) = o;
    let mut s = String::new();
    for _ in 0..y.abs() {
        s.push(if y > 0 { 'u' } else { 'd' });
    }
    for _ in 0..x.abs() {
        s.push(if x > 0 { 'r' } else { 'l' });
    }
    s
}

/// A cell that holds one of `names`, `o` away from the POI: `ur♙`,
/// `u(♙ | ♘)`, or the cell alone on the POI.
fn placed(o: Off, names: &[&str]) -> Expr {
    let m = letters(o);
    let pattern = || bar(names.iter().map(|n| cell(n)));
    match (m.is_empty(), names) {
        (true, [one]) => cell(one),
        (true, _) => paren(pattern()),
        (false, [one]) => juxt(vec![word(&m), cell(one)]),
        (false, _) => call(&m, pattern()),
    }
}

/// What a rewrite writes on a square: the piece that moves, or contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Put {
    Mover,
    Cell(u32),
}

impl Put {
    fn at(self, o: Off) -> Expr {
        match self {
            Put::Mover => placed(o, &["%"]),
            Put::Cell(set) => placed(o, &names(set)),
        }
    }
}

/// `(f -> f)`: a test that `f` fits, leaving the board as it is.
fn fits(f: impl Fn() -> Expr) -> Expr {
    paren(arrow(f(), f()))
}

/// Whether an enemy piece sees square `s` (relative to the POI), before the
/// ply: along a line of empty squares, a knight's jump, a king's or pawn's
/// step, as chess.alg's `attacked`. A line through the POI is blocked by
/// the piece standing there. A rule of patterns rewrites each member into
/// each, so a test that must keep the board (`exact`) spells every member
/// as a fragment of its own; under `not` the patterns may stay.
fn seen(s: Off, exact: bool) -> Expr {
    let mut alts: Vec<Vec<(Off, u32)>> = vec![];
    let lines = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    for (k, d) in lines.iter().enumerate() {
        let slider = if k < 4 {
            B_ROOK | B_ROOK_HOME | B_QUEEN
        } else {
            B_BISHOP | B_QUEEN
        };
        for n in 1..=LONGEST {
            let path: Vec<Off> = (1..=n).map(|i| add(s, (d.0 * i, d.1 * i))).collect();
            if path.contains(&(0, 0)) {
                break;
            }
            let mut f: Vec<(Off, u32)> = path[..path.len() - 1].iter().map(|q| (*q, EMPTY)).collect();
            f.push((path[path.len() - 1], slider));
            alts.push(f);
        }
    }
    let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let steps = jumps.iter().map(|j| (*j, B_KNIGHT));
    let king = lines.iter().map(|d| (*d, B_KING | B_KING_HOME));
    let pawn = [((1, 1), B_PAWN | B_PAWN_EP), ((-1, 1), B_PAWN | B_PAWN_EP)];
    for (d, who) in steps.chain(king).chain(pawn) {
        let q = add(s, d);
        if q != (0, 0) {
            alts.push(vec![(q, who)]);
        }
    }
    let mut frags: Vec<Expr> = vec![];
    for f in &alts {
        // Each fragment as the cells it reads, one member of each set
        // when `exact`.
        let mut ts: Vec<Vec<(Off, u32)>> = vec![vec![]];
        for (q, c) in f {
            let members: Vec<u32> = if exact {
                (0..20).map(bit).filter(|b| c & b != 0).collect()
            } else {
                vec![*c]
            };
            ts = ts
                .iter()
                .flat_map(|t| {
                    members.iter().map(move |m| {
                        let mut t = t.clone();
                        t.push((*q, *m));
                        t
                    })
                })
                .collect();
        }
        let fragment =
            |t: &[(Off, u32)]| plus(std::iter::once(poi()).chain(t.iter().map(|(q, m)| placed(*q, &names(*m)))));
        frags.extend(ts.iter().map(|t| fits(|| fragment(t))));
    }
    paren(bar(frags))
}

/// A rewrite: the squares it reads, as sets of contents, and what it
/// writes; after tests of its own.
struct Rewrite {
    tests: Vec<Expr>,
    read: BTreeMap<Off, u32>,
    write: BTreeMap<Off, Put>,
}

/// One conjunction of a ply: tests, then one of the rewrites.
struct Clause {
    tests: Vec<Expr>,
    rules: Vec<Rewrite>,
}

/// Whether square `o` holds one of `set`, as a test; only under `not`
/// may its cell be a pattern (a rule of patterns rewrites members).
fn holds(o: Off, set: u32) -> Expr {
    fits(|| plus([poi(), placed(o, &names(set))]))
}

impl Rewrite {
    /// `(% + reads -> writes)`, after the rewrite's own tests.
    fn tree(&self) -> Expr {
        let lhs = plus(std::iter::once(poi()).chain(self.read.iter().map(|(o, s)| placed(*o, &names(*s)))));
        let rhs = plus(self.write.iter().map(|(o, p)| p.at(*o)));
        let rule = paren(arrow(lhs, rhs));
        if self.tests.is_empty() {
            rule
        } else {
            paren(juxt(self.tests.iter().cloned().chain([rule]).collect()))
        }
    }
}

impl Clause {
    /// The clause's tests, then its rewrites as one choice.
    fn tree(&self) -> Expr {
        let rules = match self.rules.as_slice() {
            [one] => one.tree(),
            _ => paren(bar(self.rules.iter().map(Rewrite::tree))),
        };
        paren(juxt(self.tests.iter().cloned().chain([rules]).collect()))
    }
}

/// One conjunction of a ply as algebra: tests of what enemies see, then
/// one rewrite reading and writing the squares it names. Facts about the
/// destination are read by the rewrite; facts against other squares are
/// tests, so that they hold of any piece.
fn clause(ply: &PlySpec, ctx: &Reading, lits: &[(bool, Atom)]) -> Result<Option<Clause>, Diags> {
    let mut read: BTreeMap<Off, u32> = BTreeMap::new();
    read.insert(ctx.to, ON);
    let mut tests = vec![];
    let mut takes = vec![];
    for (p, a) in lits {
        match a {
            Atom::Cell(o, set) if *p || *o == ctx.to || *o == (0, 0) => {
                let set = if *p { *set } else { ALL & !set };
                *read.entry(*o).or_insert(ALL) &= set;
            }
            Atom::Cell(o, set) => tests.push(not(holds(*o, *set))),
            Atom::Seen(o) => tests.push(if *p { seen(*o, true) } else { not(seen(*o, false)) }),
            Atom::Take(o) => takes.push(*o),
            Atom::Const(_) => {}
        }
    }
    // The piece's own square is known statically, and never read.
    if let Some(set) = read.remove(&(0, 0)) {
        match ctx.mover {
            Some(m) if set & m == 0 => return Ok(None),
            Some(_) => {}
            None => {
                return Err(Diag::new(ctx.src, ply.span, "this ply reads the piece's own square")
                    .help("put the ply under a header such as `Kings:`, which names the piece")
                    .into())
            }
        }
    }
    let mut write: BTreeMap<Off, Put> = BTreeMap::new();
    // A pawn's two-square ply leaves the marker en passant reads.
    let double = ctx.kind == Kind::Pawn && ctx.to == (0, 2);
    write.insert(ctx.to, if double { Put::Cell(W_PAWN_EP) } else { Put::Mover });
    for o in takes {
        write.insert(o, Put::Cell(EMPTY));
    }
    let mut mutate = None;
    for act in &ply.actions {
        match act {
            Action::Mutate(pieces) => mutate = Some(pieces.iter().fold(0, |a, b| a | b)),
            Action::Move(a, b, span) => move_another(ctx, (a, b), *span, &mut read, &mut write)?,
        }
    }
    write.insert((0, 0), Put::Cell(EMPTY));
    read.retain(|o, s| *o == ctx.to || *s != ALL);
    if read.values().any(|s| *s == 0) {
        return Ok(None);
    }
    let rules: Vec<Rewrite> = match mutate {
        None => vec![Rewrite {
            tests: vec![],
            read,
            write,
        }],
        Some(pieces) => {
            // Short of the far rank the ply is as written; on it, the
            // piece becomes one of those named.
            let beyond = add(ctx.to, (0, 1));
            let mut far = read.clone();
            *far.entry(beyond).or_insert(ALL) &= OFF;
            let mut promoted = write.clone();
            promoted.insert(ctx.to, Put::Cell(pieces));
            let mut rules = vec![];
            if read.get(&beyond).is_none_or(|s| *s != OFF) {
                rules.push(Rewrite {
                    tests: vec![not(holds(beyond, OFF))],
                    read: read.clone(),
                    write,
                });
            }
            if far[&beyond] != 0 {
                rules.push(Rewrite {
                    tests: vec![],
                    read: far,
                    write: promoted,
                });
            }
            rules
        }
    };
    if rules.is_empty() {
        return Ok(None);
    }
    Ok(Some(Clause { tests, rules }))
}

/// `move[a, b]`: the friendly piece on `a`, which the ply's condition
/// names, moves to `b` in the same ply.
fn move_another(
    ctx: &Reading,
    (a, b): (&Arg, &Arg),
    span: Span,
    read: &mut BTreeMap<Off, u32>,
    write: &mut BTreeMap<Off, Put>,
) -> Result<(), Diags> {
    let (a, b) = (ctx.square(a)?, ctx.square(b)?);
    if a == (0, 0) || b == (0, 0) || a == ctx.to {
        return Err(Diag::new(
            ctx.src,
            span,
            "`move` moves another piece, from a square the ply leaves alone",
        )
        .into());
    }
    let Some(set) = read.get_mut(&a) else {
        return Err(Diag::new(
            ctx.src,
            span,
            "the ply's condition does not say what stands on this `move`'s square",
        )
        .help("name the piece, as `home[kings_rook]` does")
        .into());
    };
    *set &= FRIEND;
    if set.count_ones() > 1 {
        return Err(Diag::new(
            ctx.src,
            span,
            "the ply's condition leaves open which piece `move` moves",
        )
        .help("name the piece, as `home[kings_rook]` does")
        .into());
    }
    let piece = *set;
    *read.entry(b).or_insert(ON) &= ON;
    write.insert(a, Put::Cell(EMPTY));
    if piece != 0 {
        write.insert(b, Put::Cell(demoted(piece)));
    }
    Ok(())
}

/// The vectors a ply's `[x, y]` stands for: one, or with `?` the steps
/// `k·d` of each direction `d`, for `k` from 1 to `LONGEST`.
fn vectors(v: [Comp; 2]) -> Vec<Vec<Off>> {
    let pick = |c: Comp, k: i32| match c {
        Comp::Num(n) => n,
        Comp::Any(s) => s * k,
    };
    if v.iter().any(|c| matches!(c, Comp::Any(_))) {
        [1, -1]
            .iter()
            .map(|sign| {
                (1..=LONGEST)
                    .map(|k| (pick(v[0], sign * k), pick(v[1], sign * k)))
                    .filter(|o| *o != (0, 0))
                    .collect()
            })
            .collect()
    } else {
        vec![vec![(pick(v[0], 0), pick(v[1], 0))]]
    }
}

/// A ply over `?` whose every distance `k` is "the `k - 1` squares on the
/// way empty, the destination one of `X`" is a slide: steps over empty
/// squares, then one onto `X`, at any distance, as chess.alg writes its
/// sliders. Otherwise `?` stops at `LONGEST`.
fn slide(steps: &[Off], clauses: &[Vec<Clause>]) -> Option<Expr> {
    let d = steps[0];
    let unit = (d.0.signum(), d.1.signum());
    if d != unit
        || steps.len() < 2
        || steps
            .iter()
            .enumerate()
            .any(|(i, s)| *s != (unit.0 * (i as i32 + 1), unit.1 * (i as i32 + 1)))
    {
        return None;
    }
    let mut last = None;
    for (k, cs) in clauses.iter().enumerate() {
        let [c] = cs.as_slice() else { return None };
        let [r] = c.rules.as_slice() else { return None };
        let to = steps[k];
        let x = *r.read.get(&to)?;
        let way: BTreeMap<Off, u32> = steps[..k].iter().map(|q| (*q, EMPTY)).chain([(to, x)]).collect();
        let moved: BTreeMap<Off, Put> = [((0, 0), Put::Cell(EMPTY)), (to, Put::Mover)].into_iter().collect();
        if !c.tests.is_empty()
            || !r.tests.is_empty()
            || r.read != way
            || r.write != moved
            || last.is_some_and(|l| l != x)
        {
            return None;
        }
        last = Some(x);
    }
    // `(% + u. -> . + u%)* (% + uX -> . + u%)`
    let onto = |x: u32| {
        paren(arrow(
            plus([poi(), placed(unit, &names(x))]),
            plus([cell("."), placed(unit, &["%"])]),
        ))
    };
    Some(paren(juxt(vec![star(onto(EMPTY)), onto(last?)])))
}

/// The plies of a section, for one content of its piece, as one choice.
fn plies(sec: &Section, mover: Option<u32>, src: &Source) -> Result<Expr, Diags> {
    let mut alts = vec![];
    for ply in &sec.plies {
        for steps in vectors(ply.vector) {
            let mut clauses = vec![];
            for &to in &steps {
                let ctx = Reading {
                    kind: sec.kind,
                    mover,
                    to,
                    src,
                };
                let f = match &ply.cond {
                    Some(c) => ctx.formula(c)?,
                    None => F::And(vec![]),
                };
                let mut cs = vec![];
                for lits in dnf(&f, true) {
                    cs.extend(clause(ply, &ctx, &lits)?);
                }
                clauses.push(cs);
            }
            match slide(&steps, &clauses) {
                Some(t) => alts.push(t),
                None => alts.extend(clauses.iter().flatten().map(Clause::tree)),
            }
        }
    }
    Ok(paren(bar(alts)))
}

/// A ply list as the algebra's syntax tree: the sections' plies as one
/// choice, then the global condition.
pub(super) fn lower(text: &str) -> Result<Expr, Diags> {
    let src = Source::new("<referee>", text);
    let (sections, global) = read(text, &src)?;
    let mut alts = vec![];
    for sec in &sections {
        // A king or rook that has not moved is a marker piece of its own;
        // moving, it becomes the plain piece.
        let variants: &[(u32, Option<u32>)] = match sec.kind {
            Kind::Any => &[],
            Kind::Pawn => &[(W_PAWN, None)],
            Kind::Knight => &[(W_KNIGHT, None)],
            Kind::Bishop => &[(W_BISHOP, None)],
            Kind::Queen => &[(W_QUEEN, None)],
            Kind::Rook => &[(W_ROOK, None), (W_ROOK_HOME, Some(W_ROOK))],
            Kind::King => &[(W_KING, None), (W_KING_HOME, Some(W_KING))],
        };
        if variants.is_empty() {
            alts.push(plies(sec, None, &src)?);
        }
        for (m, after) in variants {
            // `%♔: (plies)`, or `%'Kc: (plies) (% -> ♔)`
            let mut body = vec![plies(sec, Some(*m), &src)?];
            if let Some(a) = after {
                body.push(paren(arrow(poi(), cell(glyph(*a)))));
            }
            alts.push(paren(bind(glyph(*m), juxt(body))));
        }
    }
    let all = paren(bar(alts));
    Ok(match global {
        Some((g, _)) => juxt(vec![all, globally(&g, &src)?]),
        None => all,
    })
}

/// The global conditions, read after the ply: `threat[king]` is whether an
/// enemy sees the mover's king.
fn globally(c: &Cond, src: &Source) -> Result<Expr, Diags> {
    fn f(c: &Cond, src: &Source) -> Result<F, Diags> {
        Ok(match c {
            Cond::Or(v) => F::Or(v.iter().map(|c| f(c, src)).collect::<Result<_, _>>()?),
            Cond::And(v) => F::And(v.iter().map(|c| f(c, src)).collect::<Result<_, _>>()?),
            Cond::Not(c) => F::Not(Box::new(f(c, src)?)),
            Cond::Pred(n, args, _)
                if (n == "threat" || n == "guarded") && matches!(args.as_slice(), [Arg::King(_)]) =>
            {
                F::Atom(Atom::Seen((0, 0)))
            }
            Cond::Pred(_, _, s) => {
                return Err(Diag::new(src, *s, "after the ply, only `threat[king]` is read")
                    .help("write the global condition as `not threat[king]`")
                    .into())
            }
        })
    }
    // `((%♔: seen) | (%'Kc: seen))`
    let check = |exact| {
        let king = |k| paren(bind(glyph(k), seen((0, 0), exact)));
        paren(bar([king(W_KING), king(W_KING_HOME)]))
    };
    let alts: Vec<Expr> = dnf(&f(c, src)?, true)
        .iter()
        .map(|lits| {
            let tests: Vec<Expr> = lits
                .iter()
                .map(|(p, _)| if *p { check(true) } else { not(check(false)) })
                .collect();
            if tests.is_empty() {
                nil()
            } else {
                paren(juxt(tests))
            }
        })
        .collect();
    Ok(if alts.is_empty() { fail() } else { paren(bar(alts)) })
}
