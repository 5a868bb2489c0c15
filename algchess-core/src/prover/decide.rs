//! Normal forms that rewriting reaches slowly or not at all, computed
//! outright: each claim side is united up front with its normal form, a
//! step that proofs replay by computing the forms again.
//!
//! - **Tests.** A test gives the state itself or nothing: `nil`, `fail`,
//!   `not M`, a guard (a rule that writes back only what it reads, in the
//!   form `f -> 0`), and anything built from tests. Tests commute and are
//!   idempotent, so a run of tests in a sequence is a set (with `T not T`
//!   failing, and a guard dropped when another guard, or the next move's
//!   applying, implies it); `T | not T` is `nil`; a choice drops a member
//!   that is another with tests inserted (`T M | M` is `M`, and `nil`
//!   absorbs tests); `not not T` is `T`; `not (M K)` is `not M` when `K`
//!   offers `nil`; a repeated test is `nil` or itself, and `T*!` is
//!   `not T`.
//! - **Rules.** A rule of `#` cells only is `nil` (some square is always off a finite board); one that needs a
//!   square both on and off the board is `fail`; a guard becomes `h -> 0`
//!   with every cell it checks in `h`; anchored rules in a row fuse
//!   (src/laws/fusion.rs), and so do a few counted steps of one.
//! - **Binders.** `%p: nil` is `p -> p`, and a binder distributes over
//!   choice.
//! - **Fragments and patterns** built around metavariables: gluing and
//!   choice as sets (flattened, sorted, constants folded together), with
//!   movements pushed into them and gluing spread over choice.
//!
//! The e-graph gets each side's form for a POI that may or may not be
//! bound (`unite`): it shares one class among all the places a term
//! stands, so a form true only where the side stands would hold
//! everywhere. Replay computes forms where each step stands.
//!
//! Two forms depend on where a subterm stands, which `PoiKnown` tracks: whether
//! every state reaching it has a POI (inside a binder, or in a claim with a
//! free `%`, as long as nothing before it may unbind the POI), or none (the
//! top level of a claim that cannot hold a free `%`).
//!
//! - With a POI, `% -> 0` always applies: it is `nil`.
//! - Without one, a rule that reads or writes `%` never applies, and
//!   `%p: (f -> g)`, where `f` holds `%`, is the rule with `p` in place of
//!   `%`: the binder visits exactly the squares where that rule's `p` can
//!   stand, and no other square reads as `%`. (With a POI bound outside,
//!   the two differ: the rule's other cells would read the outer POI's
//!   square as `%`, the binder's as its content.)

use super::analysis::Graph;
use super::choices;
use super::lang::to_expr;
use crate::elab::Claim;
use crate::geometry::Movement;
use crate::ir::{Cell, Fragment, Node, Pattern, Pieces, Sort, Term};
use crate::laws::fusion::Fusion;
use egg::{ENodeOrVar, PatternAst, RecExpr};

/// The name proof steps give the union of a term with its normal form.
pub(super) const DECIDE: &str = "normal forms";

/// What is known of the POI in every state that reaches a subterm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PoiKnown {
    /// A POI is bound.
    Bound,
    /// No POI is bound.
    Unbound,
    /// Either may be.
    Unknown,
}

/// Whether a metavariable of this sort may stand for something with a
/// free `%` (a cell is a piece or `.`, never `%`).
fn may_hold_poi(sort: Sort) -> bool {
    matches!(sort, Sort::Move | Sort::Fragment | Sort::Pattern)
}

/// True when a metavariable outside every binder may make the term open.
fn maybe_open(t: &Term) -> bool {
    match t.node() {
        Node::Var(m) => may_hold_poi(m.sort),
        Node::Bind(..) => false,
        _ => t.children().iter().any(maybe_open),
    }
}

/// The context of a claim's sides: compared with a POI when either has a
/// free `%`, without one when neither can have one.
pub(super) fn top(lhs: &Term, rhs: &Term) -> PoiKnown {
    if lhs.is_open() || rhs.is_open() {
        PoiKnown::Bound
    } else if maybe_open(lhs) || maybe_open(rhs) {
        PoiKnown::Unknown
    } else {
        PoiKnown::Unbound
    }
}

/// Whether a rule `f -> g` leaves a bound POI bound: it moves the POI, or
/// writes nowhere the POI can be.
fn rule_keeps_poi(f: &Fragment, g: &Fragment) -> bool {
    if crate::laws::fusion::contradictory(f, g) || g.poi().is_some() {
        return true;
    }
    match f.poi() {
        // Anchored: only a write on the POI's own square unbinds it.
        Some(s) => g.get(s).is_none(),
        // Unanchored: `f` reads something other than `%` on every square
        // it names, so a write there is never on the POI.
        None => g.cells().all(|(q, _)| f.get(q).is_some()),
    }
}

/// Whether a move, run with a POI bound, leaves it bound in every result.
pub(super) fn keeps_poi(t: &Term) -> bool {
    match t.node() {
        Node::Nil | Node::Fail | Node::Not(_) | Node::Bind(..) => true,
        Node::Seq([a, b]) | Node::Alt([a, b]) => keeps_poi(a) && keeps_poi(b),
        Node::Repeat([a, ..]) | Node::Greedy([a]) => keeps_poi(a),
        Node::Apply([_, a]) => keeps_poi(a),
        Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
            (Some(p), Some(q)) => p.members().all(|f| q.members().all(|g| rule_keeps_poi(f, g))),
            _ => is_empty_fragment(g) || (f == g && f.sort() != Sort::Pattern),
        },
        _ => false,
    }
}

/// The context after running `a` in context `ctx`.
fn after(ctx: PoiKnown, a: &Term) -> PoiKnown {
    match ctx {
        PoiKnown::Unbound => PoiKnown::Unbound,
        PoiKnown::Bound if keeps_poi(a) => PoiKnown::Bound,
        _ => PoiKnown::Unknown,
    }
}

/// The context of the subterm at `path` in `root`, whose own is `ctx`.
pub(super) fn context_at(root: &Term, path: &[usize], ctx: PoiKnown) -> PoiKnown {
    let Some((&i, rest)) = path.split_first() else {
        return ctx;
    };
    let kids = root.children();
    let inner = match (root.node(), i) {
        (Node::Bind(..), 1) => PoiKnown::Bound,
        (Node::Seq([a, _]), 1) => after(ctx, a),
        (Node::Repeat([a, ..]) | Node::Greedy([a]), 0) => after(ctx, a),
        _ => ctx,
    };
    context_at(&kids[i], rest, inner)
}

fn is_empty_fragment(t: &Term) -> bool {
    matches!(t.node(), Node::Frag(f) if f.is_empty())
}

/// Whether the move gives the state itself or nothing, on every state.
pub(super) fn is_test(t: &Term) -> bool {
    match t.node() {
        Node::Nil | Node::Fail | Node::Not(_) => true,
        Node::Rule([f, g]) => is_empty_fragment(g) || (f == g && f.sort() != Sort::Pattern),
        Node::Seq([a, b]) | Node::Alt([a, b]) => is_test(a) && is_test(b),
        Node::Repeat([a, ..]) | Node::Greedy([a]) | Node::Bind([_, a]) | Node::Apply([_, a]) => is_test(a),
        _ => false,
    }
}

fn seq_of(items: Vec<Term>) -> Term {
    let mut it = items.into_iter().rev();
    let Some(last) = it.next() else {
        return Term::nil();
    };
    it.fold(last, |acc, x| Term::seq(&x, &acc))
}

fn alt_of(items: Vec<Term>) -> Term {
    let mut it = items.into_iter().rev();
    let Some(last) = it.next() else {
        return Term::fail();
    };
    it.fold(last, |acc, x| Term::alt(&x, &acc))
}

pub(super) fn all_off(f: &Fragment) -> bool {
    f.cells().all(|(_, c)| c == Cell::Off)
}

/// `f -> g` as a guard `h -> 0`, when `g` only writes back what `f` reads
/// (or asks for squares off the board that `f` does not name).
pub(super) fn as_guard(f: &Fragment, g: &Fragment) -> Option<Fragment> {
    let mut h = f.clone();
    for (s, c) in g.cells() {
        match f.get(s) {
            Some(r) if r == c => {}
            None if c == Cell::Off => h = h.glue(&Fragment::from_cells([(s, c)]).ok()?).ok()?,
            _ => return None,
        }
    }
    Some(h)
}

/// Whether wherever guard `h1` holds, guard `h2` holds somewhere: `h2` is
/// part of `h1` moved by some translation.
pub(super) fn implies(h1: &Fragment, h2: &Fragment) -> bool {
    let Some((s2, c2)) = h2.cells().next() else {
        return true;
    };
    h1.cells().filter(|(_, c)| *c == c2).any(|(s1, _)| {
        let t = s2 - s1;
        h2.cells().all(|(q, c)| h1.get(q - t) == Some(c))
    })
}

/// A guard's fragment: the `h` of `h -> 0`.
fn guard_fragment(t: &Term) -> Option<Term> {
    match t.node() {
        Node::Rule([f, g]) if is_empty_fragment(g) && f.sort() != Sort::Pattern => Some(f.clone()),
        _ => None,
    }
}

/// A fragment term as its known cells and its other parts glued on.
fn parts(h: &Term) -> Option<(Fragment, Vec<Term>)> {
    match h.node() {
        Node::Frag(f) => Some((f.clone(), vec![])),
        Node::Glue([a, b]) => {
            let (fa, mut ma) = parts(a)?;
            let (fb, mb) = parts(b)?;
            ma.extend(mb);
            Some((fa.glue(&fb).ok()?, ma))
        }
        _ if h.sort() == Sort::Fragment => Some((Fragment::empty(), vec![h.clone()])),
        _ => None,
    }
}

/// `implies` on fragment terms: with parts unknown, `h2`'s must be among
/// `h1`'s and its cells on the same squares, so the same translation
/// serves both.
fn implies_term(h1: &Term, h2: &Term) -> bool {
    let (Some((c1, m1)), Some((c2, m2))) = (parts(h1), parts(h2)) else {
        return false;
    };
    if m2.is_empty() {
        return implies(&c1, &c2);
    }
    m2.iter().all(|m| m1.contains(m)) && c2.cells().all(|(q, c)| c1.get(q) == Some(c))
}

/// A run of tests as a set: `None` when it fails.
fn test_run(run: Vec<Term>) -> Option<Vec<Term>> {
    let mut run = run;
    run.sort();
    run.dedup();
    let negated = |x: &Term| run.iter().any(|y| matches!(y.node(), Node::Not([z]) if z == x));
    if run.iter().any(negated) {
        return None;
    }
    let guards: Vec<(usize, Term)> = run
        .iter()
        .enumerate()
        .filter_map(|(i, t)| guard_fragment(t).map(|h| (i, h)))
        .collect();
    let implied: Vec<usize> = guards
        .iter()
        .filter(|(i, h2)| {
            guards
                .iter()
                .any(|(j, h1)| j != i && implies_term(h1, h2) && (!implies_term(h2, h1) || j < i))
        })
        .map(|(i, _)| *i)
        .collect();
    Some(
        run.into_iter()
            .enumerate()
            .filter(|(i, _)| !implied.contains(i))
            .map(|(_, t)| t)
            .collect(),
    )
}

fn num(t: &Term) -> Option<u32> {
    match t.node() {
        Node::Num(n) => Some(*n),
        _ => None,
    }
}

/// Fragments and patterns around metavariables: gluing and choice as sets,
/// movements pushed in.
fn frag(pieces: &Pieces, t: &Term) -> Term {
    match t.node() {
        Node::Glue(..) => {
            let mut leaves = vec![];
            glue_leaves(pieces, t, &mut leaves);
            // Gluing distributes over choice: `(P | Q) + f` is
            // `(P + f) | (Q + f)`.
            if let Some(i) = leaves.iter().position(|x| matches!(x.node(), Node::Union(..))) {
                let mut members = vec![];
                union_leaves(pieces, &leaves[i], &mut members);
                let each = members.iter().map(|m| {
                    let mut l = leaves.clone();
                    l[i] = m.clone();
                    l.into_iter()
                        .reduce(|a, b| Term::raw(Node::Glue([a, b])))
                        .expect("a glue has leaves")
                });
                let union = each
                    .reduce(|a, b| Term::raw(Node::Union([a, b])))
                    .expect("a choice has members");
                return frag(pieces, &union);
            }
            let (consts, mut rest): (Vec<Term>, Vec<Term>) = leaves.into_iter().partition(|x| x.as_pattern().is_some());
            let Ok(c) = consts
                .iter()
                .try_fold(Term::fragment(Fragment::empty()), |a, b| Term::glue(&a, b))
            else {
                return t.clone();
            };
            rest.sort();
            let mut all = vec![c];
            all.extend(rest);
            let mut it = all.into_iter().rev();
            let last = it.next().expect("at least the constant");
            it.try_fold(last, |acc, x| Term::glue(&x, &acc))
                .unwrap_or_else(|_| t.clone())
        }
        Node::Union(..) => {
            let mut leaves = vec![];
            union_leaves(pieces, t, &mut leaves);
            let (consts, mut rest): (Vec<Term>, Vec<Term>) = leaves.into_iter().partition(|x| x.as_pattern().is_some());
            rest.sort();
            rest.dedup();
            let mut all: Vec<Term> = consts
                .into_iter()
                .reduce(|a, b| Term::union(&a, &b))
                .into_iter()
                .collect();
            all.extend(rest);
            let mut it = all.into_iter().rev();
            let last = it.next().expect("a union has members");
            it.fold(last, |acc, x| Term::union(&x, &acc))
        }
        Node::Apply([m, x]) if x.sort() != Sort::Movement => {
            let x = frag(pieces, x);
            match x.node() {
                Node::Glue([a, b]) => frag(
                    pieces,
                    &Term::raw(Node::Glue([Term::apply(m, a, pieces), Term::apply(m, b, pieces)])),
                ),
                Node::Union([a, b]) => frag(
                    pieces,
                    &Term::raw(Node::Union([Term::apply(m, a, pieces), Term::apply(m, b, pieces)])),
                ),
                _ => Term::apply(m, &x, pieces),
            }
        }
        _ => t.clone(),
    }
}

fn glue_leaves(pieces: &Pieces, t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Glue([a, b]) => {
            glue_leaves(pieces, a, out);
            glue_leaves(pieces, b, out);
        }
        _ => {
            let x = frag(pieces, t);
            if matches!(x.node(), Node::Glue(..)) {
                glue_leaves(pieces, &x, out);
            } else {
                out.push(x);
            }
        }
    }
}

fn union_leaves(pieces: &Pieces, t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Union([a, b]) => {
            union_leaves(pieces, a, out);
            union_leaves(pieces, b, out);
        }
        _ => {
            let x = frag(pieces, t);
            if matches!(x.node(), Node::Union(..)) {
                union_leaves(pieces, &x, out);
            } else {
                out.push(x);
            }
        }
    }
}

fn rule(pieces: &Pieces, f: &Term, g: &Term, ctx: PoiKnown) -> Term {
    let (f, g) = (frag(pieces, f), frag(pieces, g));
    match (f.as_pattern(), g.as_pattern()) {
        (Some(p), Some(q)) => {
            let needs_poi = |p: &Pattern| p.members().all(|x| x.poi().is_some());
            if ctx == PoiKnown::Unbound && (needs_poi(&p) || needs_poi(&q)) {
                return Term::fail();
            }
            let (Some(a), Some(b)) = (p.as_fragment(), q.as_fragment()) else {
                return Term::rule(&f, &g);
            };
            if all_off(a) && all_off(b) {
                return Term::nil();
            }
            if crate::laws::fusion::contradictory(a, b) {
                return Term::fail();
            }
            match as_guard(a, b) {
                Some(h) if ctx == PoiKnown::Bound && h.len() == 1 && h.poi().is_some() => Term::nil(),
                Some(h) => Term::rule(&Term::fragment(h), &Term::fragment(Fragment::empty())),
                None => Term::rule(&f, &g),
            }
        }
        _ if f == g && f.sort() != Sort::Pattern => Term::rule(&f, &Term::fragment(Fragment::empty())),
        _ => Term::rule(&f, &g),
    }
}

/// `%` in `f` replaced by the binder's cell `c`.
fn put(pieces: &Pieces, f: &Fragment, c: &Term) -> Option<Term> {
    let Some(s) = f.poi() else {
        return Some(Term::fragment(f.clone()));
    };
    match c.node() {
        Node::Cell(content) => Some(Term::fragment(
            Fragment::from_cells(f.cells().map(|(q, x)| (q, if q == s { Cell::Is(*content) } else { x }))).ok()?,
        )),
        Node::Var(_) => {
            let rest = Fragment::from_cells(f.cells().filter(|(q, _)| *q != s)).ok()?;
            let moved = Term::apply(
                &Term::movement(Movement::translation(s.x, s.y)),
                &c.as_fragment_term(),
                pieces,
            );
            Term::glue(&Term::fragment(rest), &moved).ok()
        }
        _ => None,
    }
}

/// `%c: m` without a POI bound outside: the rule itself, with `c` for `%`,
/// when `m` is a rule whose guard always holds `%`.
fn unbind(pieces: &Pieces, c: &Term, m: &Term) -> Option<Term> {
    let Node::Rule([f, g]) = m.node() else { return None };
    let (p, q) = (f.as_pattern()?, g.as_pattern()?);
    if !p.members().all(|x| x.poi().is_some()) {
        return None;
    }
    if let (Some(a), Some(b)) = (p.as_fragment(), q.as_fragment()) {
        return Some(Term::rule(&put(pieces, a, c)?, &put(pieces, b, c)?));
    }
    let Node::Cell(_) = c.node() else { return None };
    let each = |p: &Pattern| -> Option<Term> {
        let mut out: Option<Term> = None;
        for x in p.members() {
            let y = put(pieces, x, c)?;
            out = Some(match out {
                None => y,
                Some(o) => Term::union(&o, &y),
            });
        }
        out
    };
    Some(Term::rule(&each(&p)?, &each(&q)?))
}

/// Whether the move gives the state itself (among others) on every state.
pub(super) fn has_nil(t: &Term) -> bool {
    match t.node() {
        Node::Nil => true,
        Node::Alt([a, b]) => has_nil(a) || has_nil(b),
        Node::Seq([a, b]) => has_nil(a) && has_nil(b),
        Node::Repeat([a, lo, _]) => num(lo) == Some(0) || has_nil(a),
        Node::Apply([_, a]) => has_nil(a),
        _ => false,
    }
}

/// An anchored rule between fragments, as fusion takes it.
fn fusable(t: &Term) -> Option<(Fragment, Fragment)> {
    let Node::Rule([f, g]) = t.node() else { return None };
    let (Node::Frag(f), Node::Frag(g)) = (f.node(), g.node()) else {
        return None;
    };
    f.poi().is_some().then(|| (f.clone(), g.clone()))
}

/// Anchored rules one after the other as one rule (src/laws/fusion.rs);
/// `None` when a pair never applies together.
fn fused(items: Vec<Term>) -> Option<Vec<Term>> {
    let mut out: Vec<Term> = vec![];
    for x in items {
        if matches!(x.node(), Node::Fail) {
            return None;
        }
        if let (Some((f1, g1)), Some((f2, g2))) = (out.last().and_then(fusable), fusable(&x)) {
            match crate::laws::fusion::fuse(&f1, &g1, &f2, &g2) {
                Fusion::Rule(f, g) => {
                    *out.last_mut().expect("a rule to fuse with") = Term::rule(&Term::fragment(f), &Term::fragment(g));
                    continue;
                }
                Fusion::Fail => return None,
                Fusion::None => {}
            }
        }
        out.push(x);
    }
    Some(out)
}

/// Whether `x` having a result on a state implies that guard `h` holds
/// there.
fn entails(x: &Term, h: &Term) -> bool {
    match x.node() {
        Node::Rule([f, _]) => match f.as_pattern() {
            Some(p) => p.members().all(|f| implies_term(&Term::fragment(f.clone()), h)),
            None => implies_term(f, h),
        },
        // Some square other than the POI's holds the binder's piece.
        Node::Bind([c, _]) => match c.node() {
            Node::Cell(c) => implies_term(&Term::fragment(Fragment::single(Cell::Is(*c))), h),
            _ => false,
        },
        Node::Alt([a, b]) => entails(a, h) && entails(b, h),
        Node::Seq([a, _]) => entails(a, h),
        Node::Repeat([a, lo, _]) => num(lo).is_some_and(|k| k > 0) && entails(a, h),
        _ => false,
    }
}

fn norm(pieces: &Pieces, t: &Term, ctx: PoiKnown) -> Term {
    match t.node() {
        Node::Seq(..) => norm_seq(pieces, t, ctx),
        Node::Alt(..) => norm_alt(pieces, t, ctx),
        Node::Not([x]) => norm_not(pieces, x, ctx),
        Node::Repeat([x, lo, hi]) => {
            // A few steps of an anchored rule, written out, fuse.
            if let (Some(k @ 2..=4), Some(h)) = (num(lo), num(hi)) {
                if k == h && fusable(x).is_some() {
                    return norm(pieces, &seq_of(vec![x.clone(); k as usize]), ctx);
                }
            }
            let body = norm(pieces, x, after(ctx, x));
            if num(hi) == Some(0) || matches!(body.node(), Node::Nil) {
                return Term::nil();
            }
            if is_test(&body) {
                return match num(lo) {
                    Some(0) => Term::nil(),
                    Some(_) => body,
                    None => Term::repeat_counts(&body, lo, hi),
                };
            }
            Term::repeat_counts(&body, lo, hi)
        }
        Node::Greedy([x]) => {
            let body = norm(pieces, x, after(ctx, x));
            if is_test(&body) {
                return norm(pieces, &Term::not(&body), ctx);
            }
            Term::greedy(&body)
        }
        Node::Bind([c, body]) => norm_bind(pieces, c, body, ctx),
        Node::Apply([m, x]) if t.sort() == Sort::Move => {
            let x = norm(pieces, x, ctx);
            match x.node() {
                Node::Nil | Node::Fail => x,
                _ => Term::apply(m, &x, pieces),
            }
        }
        Node::Rule([f, g]) => rule(pieces, f, g, ctx),
        Node::Glue(..) | Node::Union(..) | Node::Apply(..) => frag(pieces, t),
        _ => t.clone(),
    }
}

/// A sequence normalised: its steps each in the context the steps before
/// leave, rules fused, and runs of tests kept only where the next move
/// does not already imply them.
fn norm_seq(pieces: &Pieces, t: &Term, ctx: PoiKnown) -> Term {
    let mut items = vec![];
    t.push_steps(&mut items);
    let mut out = vec![];
    let mut c = ctx;
    for x in &items {
        norm(pieces, x, c).push_steps(&mut out);
        c = after(c, x);
    }
    out.retain(|x| !matches!(x.node(), Node::Nil));
    let Some(out) = fused(out) else {
        return Term::fail();
    };
    let mut result = vec![];
    let mut run = vec![];
    for x in out {
        if is_test(&x) {
            run.push(x);
            continue;
        }
        let Some(tests) = test_run(std::mem::take(&mut run)) else {
            return Term::fail();
        };
        // A guard that the next move's applying implies adds nothing.
        result.extend(
            tests
                .into_iter()
                .filter(|t| !guard_fragment(t).is_some_and(|h| entails(&x, &h))),
        );
        result.push(x);
    }
    match test_run(run) {
        Some(r) => result.extend(r),
        None => return Term::fail(),
    }
    seq_of(result)
}

/// A choice normalised: its alternatives as a sorted set, `T | not T`
/// and `T M | M` for a test `T` folded.
fn norm_alt(pieces: &Pieces, t: &Term, ctx: PoiKnown) -> Term {
    let mut items = vec![];
    t.push_alternatives(&mut items);
    let mut out = vec![];
    for x in &items {
        norm(pieces, x, ctx).push_alternatives(&mut out);
    }
    out.retain(|x| !matches!(x.node(), Node::Fail));
    out.sort();
    out.dedup();
    // `T | not T` is `nil` for a test `T`.
    if out.iter().any(|x| is_test(x) && out.contains(&Term::not(x))) {
        out.push(Term::nil());
    }
    // `T M | M` is `M` for a test `T`: drop a choice that is
    // another with tests inserted (`nil` absorbs tests).
    let stripped = |y: &Term| {
        let mut items = vec![];
        y.push_steps(&mut items);
        items.retain(|x| !is_test(x));
        seq_of(items)
    };
    let keep: Vec<bool> = out
        .iter()
        .map(|y| {
            let s = stripped(y);
            s == *y || !out.contains(&s)
        })
        .collect();
    let out: Vec<Term> = out.into_iter().zip(keep).filter(|(_, k)| *k).map(|(y, _)| y).collect();
    alt_of(out)
}

/// `not x` normalised.
fn norm_not(pieces: &Pieces, x: &Term, ctx: PoiKnown) -> Term {
    let x = norm(pieces, x, ctx);
    if has_nil(&x) {
        return Term::fail();
    }
    // `M K` has a result exactly when `M` has, if `K` offers `nil`;
    // `M{1,j}` is `M M{0,j-1}`.
    let mut items = vec![];
    x.push_steps(&mut items);
    while items.len() > 1 && items.last().is_some_and(has_nil) {
        items.pop();
    }
    let mut y = seq_of(items);
    while let Node::Repeat([z, lo, _]) = y.node() {
        if num(lo) != Some(1) {
            break;
        }
        y = z.clone();
    }
    if y != x {
        return norm(pieces, &Term::not(&y), ctx);
    }
    match x.node() {
        Node::Fail => Term::nil(),
        Node::Not([y]) if is_test(y) => y.clone(),
        _ => Term::not(&x),
    }
}

/// A binder `c: body` normalised: one binder per alternative of its body,
/// unbound where no piece of interest is.
fn norm_bind(pieces: &Pieces, c: &Term, body: &Term, ctx: PoiKnown) -> Term {
    let body = norm(pieces, body, PoiKnown::Bound);
    let mut members = vec![];
    body.push_alternatives(&mut members);
    let out: Vec<Term> = members
        .iter()
        .filter(|m| !matches!(m.node(), Node::Fail))
        .map(|m| match m.node() {
            Node::Nil => rule(pieces, &c.as_fragment_term(), &c.as_fragment_term(), ctx),
            _ => match ctx {
                PoiKnown::Unbound => unbind(pieces, c, m)
                    .map(|r| norm(pieces, &r, ctx))
                    .unwrap_or_else(|| Term::bind(c, m)),
                _ => Term::bind(c, m),
            },
        })
        .collect();
    alt_of(out)
}

/// The normal form of `t` in context `ctx`, with choices as sets: the
/// steps above and `choices::sorted`, repeated until nothing changes or
/// for 8 passes at most (a bound on the work: two terms that need more
/// are simply not found equal here, which is safe for a proof's replay).
pub(super) fn normal(pieces: &Pieces, t: &Term, ctx: PoiKnown) -> Term {
    let mut x = choices::sorted(pieces, t);
    for _ in 0..8 {
        let y = choices::sorted(pieces, &norm(pieces, &x, ctx));
        if y == x {
            break;
        }
        x = y;
    }
    x
}

/// Whether a step that united `a` with `b` at `path` in `before`, in a
/// proof from `first` to `last`, replays: the two have one normal form in
/// the context of that position.
pub(super) fn replays(
    pieces: &Pieces,
    first: &Term,
    last: &Term,
    before: &Term,
    path: &[usize],
    a: &Term,
    b: &Term,
) -> bool {
    let ctx = context_at(before, path, top(first, last));
    normal(pieces, a, ctx) == normal(pieces, b, ctx)
}

fn ground(t: &Term) -> PatternAst<crate::prover::lang::ENode> {
    let e = to_expr(t);
    let nodes: Vec<ENodeOrVar<_>> = e.as_ref().iter().cloned().map(ENodeOrVar::ENode).collect();
    RecExpr::from(nodes)
}

/// Unites each side of the claim, with its choices as sets, with its
/// normal form where the POI may be bound or not: the e-graph shares a
/// class among all the places a term stands (`nil` everywhere), so a form
/// true only where the claim's sides stand (`% -> 0` is `nil` with a POI,
/// `fail` without) would be true everywhere: a false claim was met that
/// way.
pub(super) fn unite(egraph: &mut Graph, claim: &Claim) {
    let ctx = PoiKnown::Unknown;
    let pieces = &claim.pieces;
    for side in [&claim.lhs, &claim.rhs] {
        let set = choices::sorted(pieces, side);
        let n = normal(pieces, &set, ctx);
        if n != set {
            egraph.union_instantiations(&ground(&set), &ground(&n), &Default::default(), DECIDE);
        }
    }
    egraph.rebuild();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{check_claim, ClaimOptions, EnumerationOptions, Finding};
    use crate::elab::Program;
    use crate::geometry::Square;
    use crate::ir::{gen, Bounds, Content};
    use crate::prover::kat::sample::Refuted;
    use crate::rng::Rng;

    fn below(g: &mut Rng, n: u32) -> u32 {
        g.below(n)
    }

    fn fragment(cells: &[(i32, i32, Cell)]) -> Term {
        Term::fragment(Fragment::from_cells(cells.iter().map(|&(x, y, c)| (Square::new(x, y), c))).unwrap())
    }

    fn zero() -> Term {
        Term::fragment(Fragment::empty())
    }

    fn piece(g: &mut Rng) -> Cell {
        Cell::Is(gen::content(g))
    }

    /// Rules of the shapes the normal forms touch: guards, rules of `#`
    /// cells, rules that read only the POI, anchored rules, and rules that
    /// write where the POI may be.
    fn a_rule(g: &mut Rng) -> Term {
        let f = Term::fragment(gen::fragment(g, true));
        match below(g, 9) {
            0 => Term::rule(&f, &f),
            1 => Term::rule(&f, &zero()),
            2 => {
                // Some of what `f` reads written back, and a square off the
                // board.
                let Node::Frag(x) = f.node() else { unreachable!() };
                let keep = x.cells().filter(|_| below(g, 2) == 0);
                let back = Fragment::from_cells(keep).unwrap();
                let back = back.glue(&Fragment::from_cells([(Square::new(3, 0), Cell::Off)]).unwrap());
                Term::rule(&f, &Term::fragment(back.unwrap_or_default()))
            }
            3 => Term::rule(
                &fragment(&[(0, 0, Cell::Off), (1, 0, Cell::Off)]),
                &fragment(&[(0, 1, Cell::Off)]),
            ),
            4 => match below(g, 3) {
                0 => Term::rule(&fragment(&[(0, 0, Cell::Poi)]), &zero()),
                1 => Term::rule(&fragment(&[(0, 0, Cell::Poi)]), &fragment(&[(0, 0, Cell::Poi)])),
                _ => Term::rule(&fragment(&[(0, 1, Cell::Poi)]), &zero()),
            },
            5 => {
                // `% + u x -> y + u%`, or with `%` left in place.
                let (x, y) = (piece(g), piece(g));
                let to = if below(g, 2) == 0 {
                    fragment(&[(0, 0, y), (0, 1, Cell::Poi)])
                } else {
                    fragment(&[(0, 1, y)])
                };
                Term::rule(&fragment(&[(0, 0, Cell::Poi), (0, 1, x)]), &to)
            }
            6 => {
                // Writes that may land on the POI's square.
                let c = piece(g);
                match below(g, 3) {
                    0 => Term::rule(&fragment(&[(0, 0, Cell::Poi)]), &fragment(&[(0, 0, c)])),
                    1 => Term::rule(&zero(), &fragment(&[(0, 0, c)])),
                    _ => Term::rule(&fragment(&[(0, 0, piece(g))]), &fragment(&[(1, 0, c)])),
                }
            }
            _ => gen::a_move(g, 0),
        }
    }

    fn a_move(g: &mut Rng, depth: u32) -> Term {
        if depth == 0 {
            return a_rule(g);
        }
        let d = depth - 1;
        match below(g, 13) {
            0 | 1 => Term::seq(&a_move(g, d), &a_move(g, d)),
            2 => Term::alt(&a_move(g, d), &a_move(g, d)),
            3 => Term::not(&a_move(g, d)),
            4 => {
                let lo = below(g, 3);
                let hi = if below(g, 2) == 0 { None } else { Some(lo + below(g, 2)) };
                Term::repeat(&a_move(g, d), Bounds { lo, hi })
            }
            5 => Term::greedy(&a_move(g, d)),
            6 | 7 => Term::bind(&Term::content(gen::content(g)), &a_move(g, d)),
            // A move with tests inserted, beside the move itself; and a
            // guard on part of what the next rule reads.
            9 => {
                let m = a_move(g, d);
                let t = a_rule(g);
                Term::alt(&Term::seq(&Term::seq(&t, &m), &Term::not(&t)), &m)
            }
            10 => {
                let r = a_rule(g);
                let part = match r.node() {
                    Node::Rule([f, _]) => match f.node() {
                        Node::Frag(f) => Fragment::from_cells(f.cells().filter(|_| below(g, 2) == 0)).unwrap(),
                        _ => Fragment::empty(),
                    },
                    _ => Fragment::empty(),
                };
                // Now and then with a cell the rule does not read.
                let extra = Fragment::from_cells([(Square::new(0, 2), piece(g))]).unwrap();
                let part = match below(g, 2) {
                    0 => part.glue(&extra).unwrap_or(part),
                    _ => part,
                };
                Term::seq(&Term::rule(&Term::fragment(part), &zero()), &r)
            }
            8 => Term::apply(&Term::movement(gen::movement(g)), &a_move(g, d), &Pieces::chess()),
            _ => a_rule(g),
        }
    }

    fn holds(lhs: &Term, rhs: &Term) -> Result<(), Refuted> {
        let template = Program::from_text("t.alg", "theorem t: nil = nil\n").unwrap();
        let mut claim = template.claims()[0].clone();
        claim.lhs = lhs.clone();
        claim.rhs = rhs.clone();
        let options = ClaimOptions {
            search: EnumerationOptions {
                max_cells: 5,
                ..EnumerationOptions::default()
            },
            instances: 24,
            instance_cells: 5,
            ..ClaimOptions::default()
        };
        let r = check_claim(&claim, &options, &|_, _, _| {});
        match r.verdict {
            Finding::HoldsUpTo => Ok(()),
            Finding::Refuted => Err(Refuted {
                lhs: claim.pieces.show(lhs).to_string(),
                rhs: claim.pieces.show(rhs).to_string(),
                counterexample: r.counterexample.map(Box::new),
            }),
        }
    }

    /// The normal form means what the term means, in the context the
    /// claim gives it, alone and inside a binder: random moves and their
    /// normal forms agree on every board of up to 5 squares.
    #[test]
    fn normal_forms_keep_meaning() {
        let mut changed = 0;
        let mut failures = vec![];
        for seed in 0..400 {
            let mut g = crate::rng::Rng::new(seed);
            let depth = 1 + below(&mut g, 3);
            let t = a_move(&mut g, depth);
            let n = normal(&Pieces::chess(), &t, top(&t, &t));
            if n != t {
                changed += 1;
                failures.extend(holds(&t, &n).err().map(|e| e.to_string()));
            }
            // Inside a binder the POI is bound.
            let c = Term::content(gen::content(&mut g));
            let (b, nb) = (
                Term::bind(&c, &t),
                normal(&Pieces::chess(), &Term::bind(&c, &t), PoiKnown::Unbound),
            );
            if nb != b {
                failures.extend(holds(&b, &nb).err().map(|e| e.to_string()));
            }
            // Idempotent, as replay needs.
            assert_eq!(
                normal(&Pieces::chess(), &n, top(&t, &t)),
                n,
                "{}",
                Pieces::chess().show(&t)
            );
            // A guard before a rule or a binder, which may or may not imply
            // it.
            let guard = Term::rule(&Term::fragment(gen::fragment(&mut g, true)), &zero());
            let next = match below(&mut g, 3) {
                0 => Term::bind(&Term::content(gen::content(&mut g)), &a_rule(&mut g)),
                _ => a_rule(&mut g),
            };
            let s = Term::seq(&guard, &next);
            let n = normal(&Pieces::chess(), &s, top(&s, &s));
            if n != s {
                failures.extend(holds(&s, &n).err().map(|e| e.to_string()));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(changed >= 200, "most random moves change: {changed}");
    }

    /// With metavariables, the forms hold for every instance (claims with a
    /// free `%` are compared with a POI, the others with or without one).
    #[test]
    fn normal_forms_of_laws_hold_on_instances() {
        let sides = [
            "(f -> f) (g -> g) M (g -> 0) (f -> f)",
            "(f -> 0) not M (f -> 0) | nil | M",
            "%p: (% + u. -> . + u%)",
            "%p: (M (% -> 0))",
            "%p: ((% -> %) M (% -> 0))",
            "(% -> %) M",
            "M (% -> %)",
            "not (M | (0 -> 0)) | not not not M",
            "m (0 -> 0) M | m(f -> f)",
            "(f + g) + u(h + f) -> f",
            "P | (Q | P) -> g + f",
            "u(f + P) | Q -> 0",
            "%p: ((% + u. -> . + u%) | (% + r♟ -> .)) M",
            "(%♖: ((% + u. -> . + u%) | (% + r. -> . + r%))) m(%p: nil)",
            "(P | f) + (g | Q) -> (h | f) + u g",
            "%♖: (% + u. -> . + u%){3} (% + d. -> . + d%)",
            "(f -> f) M | M | (M not M)",
            "(♖ + u. -> 0) (♖ + u. + r♟ -> ♖ + u♖) (%♟: M)",
            "not (M+ N*) | not (M (nil | K) N?) | nil{i} M",
            "(f -> f) (f + u g -> 0) (g -> g) (u g + ♖ -> .)",
            "(f -> f)* M (g -> 0)+ (not M)*!",
            "(%p: not (% -> 0)) | (%q: (% -> %))",
        ];
        let mut failures = vec![];
        let mut changed = 0;
        for s in sides {
            let p = Program::from_text("t.alg", &format!("theorem t: {s} = nil\n")).unwrap();
            let t = &p.claims()[0].lhs;
            let n = normal(&Pieces::chess(), t, top(t, t));
            changed += (&n != t) as usize;
            failures.extend(holds(t, &n).err().map(|e| e.to_string()));
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // `%p: (M (% -> 0))` keeps its test: `M` may unbind the POI.
        assert_eq!(changed, sides.len() - 1);
    }

    #[test]
    fn contexts() {
        let p = Program::from_text(
            "t.alg",
            "theorem a: (0 -> ♖) (% -> 0) = nil\ntheorem b: (% + u. -> . + u%) (% -> 0) = nil\ntheorem c: M = nil\n",
        )
        .unwrap();
        let [a, b, c] = [0, 1, 2].map(|i| p.claims()[i].lhs.clone());
        // Writing over the POI unbinds it; moving it does not.
        assert_eq!(context_at(&a, &[1], top(&a, &a)), PoiKnown::Unknown);
        assert_eq!(context_at(&b, &[1], top(&b, &b)), PoiKnown::Bound);
        assert_eq!(normal(&Pieces::chess(), &a, PoiKnown::Bound), a);
        assert_eq!(top(&c, &c), PoiKnown::Unknown);
        let closed = Term::bind(&Term::content(Content::Empty), &c);
        assert_eq!(top(&closed, &closed), PoiKnown::Unbound);
        assert_eq!(context_at(&closed, &[1], PoiKnown::Unbound), PoiKnown::Bound);
    }
}
