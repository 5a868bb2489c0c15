//! Plies written as algebra: each conjunction of a ply's condition one
//! rewrite after tests, sliders as chess.alg writes them, and the
//! `Globally:` condition a test after every ply.

use super::cond::{dnf, Atom, Reading, F};
use super::contents::*;
use super::parse::{read, Action, Arg, Comp, Cond, Kind, Ply, Section};
use super::{add, Off, LONGEST};
use crate::diag::{Diag, Diags, Source};
use std::collections::BTreeMap;

/// A translation as movement letters, placed before a cell.
fn at(o: Off) -> String {
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

/// Whether an enemy piece sees square `s` (relative to the POI), before the
/// ply: along a line of empty squares, a knight's jump, a king's or pawn's
/// step, as chess.alg's `attacked`. A line through the POI is blocked by
/// the piece standing there. A rule of patterns rewrites each member into
/// each, so a test that must keep the board (`exact`) spells every member
/// as a fragment of its own; under `not` the patterns may stay.
fn seen(s: Off, exact: bool) -> String {
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
    let mut frags: Vec<String> = vec![];
    for f in &alts {
        let mut ts = vec![String::from("%")];
        for (q, c) in f {
            let members: Vec<u32> = if exact {
                (0..20).map(bit).filter(|b| c & b != 0).collect()
            } else {
                vec![*c]
            };
            ts = ts
                .iter()
                .flat_map(|t| members.iter().map(move |m| format!("{t} + {}{}", at(*q), cells(*m))))
                .collect();
        }
        frags.extend(ts.iter().map(|t| format!("({t} -> {t})")));
    }
    format!("({})", frags.join(" | "))
}

/// writes; after tests of its own.
struct Rewrite {
    tests: Vec<String>,
    read: BTreeMap<Off, u32>,
    write: BTreeMap<Off, String>,
}

/// One conjunction of a ply: tests, then one of the rewrites.
struct Clause {
    tests: Vec<String>,
    rules: Vec<Rewrite>,
}

/// Whether square `o` holds one of `set`, as a test; only under `not`
/// may its cell be a pattern (a rule of patterns rewrites members).
fn holds(o: Off, set: u32) -> String {
    let f = format!("% + {}{}", at(o), cells(set));
    format!("({f} -> {f})")
}

impl Clause {
    fn text(&self) -> String {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|r| {
                let lhs: String = r
                    .read
                    .iter()
                    .map(|(o, s)| format!(" + {}{}", at(*o), cells(*s)))
                    .collect();
                let rhs: Vec<String> = r.write.iter().map(|(o, c)| format!("{}{c}", at(*o))).collect();
                let rule = format!("(%{lhs} -> {})", rhs.join(" + "));
                if r.tests.is_empty() {
                    rule
                } else {
                    format!("({} {rule})", r.tests.join(" "))
                }
            })
            .collect();
        let mut parts = self.tests.clone();
        parts.push(if rules.len() == 1 {
            rules[0].clone()
        } else {
            format!("({})", rules.join(" | "))
        });
        format!("({})", parts.join(" "))
    }
}

/// One conjunction of a ply as algebra: tests of what enemies see, then
/// one rewrite reading and writing the squares it names. Facts about the
/// destination are read by the rewrite; facts against other squares are
/// tests, so that they hold of any piece.
fn clause(ply: &Ply, ctx: &Reading, lits: &[(bool, Atom)]) -> Result<Option<Clause>, Diags> {
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
            Atom::Cell(o, set) => tests.push(format!("not {}", holds(*o, *set))),
            Atom::Seen(o) => tests.push(if *p {
                seen(*o, true)
            } else {
                format!("not {}", seen(*o, false))
            }),
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
    let mut write: BTreeMap<Off, String> = BTreeMap::new();
    // A pawn's two-square ply leaves the marker en passant reads.
    let double = ctx.kind == Kind::Pawn && ctx.to == (0, 2);
    write.insert(ctx.to, if double { cells(W_PAWN_EP) } else { "%".into() });
    for o in takes {
        write.insert(o, ".".into());
    }
    let mut mutate = None;
    for act in &ply.actions {
        match act {
            Action::Mutate(pieces) => mutate = Some(pieces.iter().fold(0, |a, b| a | b)),
            Action::Move(a, b, span) => {
                let (a, b) = (ctx.square(a)?, ctx.square(b)?);
                if a == (0, 0) || b == (0, 0) || a == ctx.to {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "`move` moves another piece, from a square the ply leaves alone",
                    )
                    .into());
                }
                let Some(set) = read.get_mut(&a) else {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "the ply's condition does not say what stands on this `move`'s square",
                    )
                    .help("name the piece, as `home[kings_rook]` does")
                    .into());
                };
                *set &= FRIEND;
                if set.count_ones() > 1 {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "the ply's condition leaves open which piece `move` moves",
                    )
                    .help("name the piece, as `home[kings_rook]` does")
                    .into());
                }
                let piece = *set;
                *read.entry(b).or_insert(ON) &= ON;
                write.insert(a, ".".into());
                if piece != 0 {
                    write.insert(b, cells(demoted(piece)));
                }
            }
        }
    }
    write.insert((0, 0), ".".into());
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
            promoted.insert(ctx.to, cells(pieces));
            let mut rules = vec![];
            if read.get(&beyond).is_none_or(|s| *s != OFF) {
                rules.push(Rewrite {
                    tests: vec![format!("not {}", holds(beyond, OFF))],
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
fn slide(steps: &[Off], clauses: &[Vec<Clause>]) -> Option<String> {
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
        let moved: BTreeMap<Off, String> = [((0, 0), ".".to_string()), (to, "%".to_string())].into_iter().collect();
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
    let m = at(unit);
    Some(format!(
        "((% + {m}. -> . + {m}%)* (% + {m}{} -> . + {m}%))",
        cells(last?)
    ))
}

/// The plies of a section, for one content of its piece.
fn plies(sec: &Section, mover: Option<u32>, src: &Source, out: &mut String) -> Result<(), Diags> {
    let mut first = true;
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
            let texts: Vec<String> = match slide(&steps, &clauses) {
                Some(t) => vec![t],
                None => clauses.iter().flatten().map(Clause::text).collect(),
            };
            for text in texts {
                if !first {
                    out.push_str(" | ");
                }
                first = false;
                out.push_str(&text);
            }
        }
    }
    if first {
        out.push_str("fail");
    }
    Ok(())
}

/// A ply list as algebra text.
pub(super) fn lower_text(text: &str) -> Result<String, Diags> {
    let src = Source::new("<referee>", text);
    let (sections, global) = read(text, &src)?;
    let mut out = String::from("(");
    for (i, sec) in sections.iter().enumerate() {
        if i > 0 {
            out.push_str(" | ");
        }
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
            out.push('(');
            plies(sec, None, &src, &mut out)?;
            out.push(')');
        }
        for (j, (m, after)) in variants.iter().enumerate() {
            if j > 0 {
                out.push_str(" | ");
            }
            out.push_str(&format!("(%{}: (", glyph(*m)));
            plies(sec, Some(*m), &src, &mut out)?;
            out.push(')');
            if let Some(a) = after {
                out.push_str(&format!(" (% -> {})", glyph(*a)));
            }
            out.push(')');
        }
    }
    out.push(')');
    if let Some((g, _)) = global {
        out.push(' ');
        out.push_str(&globally(&g, &src)?);
    }
    Ok(out)
}

/// The global conditions, read after the ply: `threat[king]` is whether an
/// enemy sees the mover's king.
fn globally(c: &Cond, src: &Source) -> Result<String, Diags> {
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
    let check = |exact| {
        format!(
            "((%{}: {a}) | (%{}: {a}))",
            glyph(W_KING),
            glyph(W_KING_HOME),
            a = seen((0, 0), exact)
        )
    };
    let alts: Vec<String> = dnf(&f(c, src)?, true)
        .iter()
        .map(|lits| {
            let tests: Vec<String> = lits
                .iter()
                .map(|(p, _)| {
                    if *p {
                        check(true)
                    } else {
                        format!("not {}", check(false))
                    }
                })
                .collect();
            if tests.is_empty() {
                "nil".to_string()
            } else {
                format!("({})", tests.join(" "))
            }
        })
        .collect();
    Ok(if alts.is_empty() {
        "fail".into()
    } else {
        format!("({})", alts.join(" | "))
    })
}
