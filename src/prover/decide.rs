//! Normal forms that rewriting reaches slowly or not at all, computed
//! outright: each claim side is united up front with its normal form, a
//! step that proofs replay by computing the forms again.
//!
//! - **Tests.** A test gives the state itself or nothing: `nil`, `fail`,
//!   `not M`, a guard (a rule that writes back only what it reads, in the
//!   form `f -> 0`), and anything built from tests. Tests commute and are
//!   idempotent, so a run of tests in a sequence is a set (with `T not T`
//!   failing and a guard implied by another dropped); a choice that
//!   offers `nil` absorbs its tests; `T | not T` is `nil`; `not not T` is
//!   `T`; a repeated test is `nil` or itself, and `T*!` is `not T`.
//! - **Rules.** A rule of `#` cells only is `nil` (§6); one that needs a
//!   square both on and off the board is `fail`; a guard becomes `h -> 0`
//!   with every cell it checks in `h`.
//! - **Binders.** `%p: nil` is `p -> p`, and a binder distributes over
//!   choice.
//! - **Fragments and patterns** built around metavariables: gluing and
//!   choice as sets (flattened, sorted, constants folded together), with
//!   movements pushed into them.
//!
//! Two forms depend on where a subterm stands, which `Ctx` tracks: whether
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
use crate::core::{Cell, Fragment, Node, Pattern, Sort, Term};
use crate::elab::Claim;
use crate::geometry::Movement;
use egg::{ENodeOrVar, PatternAst, RecExpr};

/// The name proof steps give the union of a term with its normal form.
pub const DECIDE: &str = "normal forms";

/// What is known of the POI in every state that reaches a subterm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
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
        _ => t.children().into_iter().any(maybe_open),
    }
}

/// The context of a claim's sides: compared with a POI when either has a
/// free `%`, without one when neither can have one.
pub fn top(lhs: &Term, rhs: &Term) -> Ctx {
    if lhs.is_open() || rhs.is_open() {
        Ctx::Bound
    } else if maybe_open(lhs) || maybe_open(rhs) {
        Ctx::Unknown
    } else {
        Ctx::Unbound
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
pub fn keeps_poi(t: &Term) -> bool {
    match t.node() {
        Node::Nil | Node::Fail | Node::Not(_) | Node::Bind(..) => true,
        Node::Seq(a, b) | Node::Alt(a, b) => keeps_poi(a) && keeps_poi(b),
        Node::Repeat(a, ..) | Node::Greedy(a) => keeps_poi(a),
        Node::Apply(_, a) => keeps_poi(a),
        Node::Rule(f, g) => match (f.as_pattern(), g.as_pattern()) {
            (Some(p), Some(q)) => p.members().all(|f| q.members().all(|g| rule_keeps_poi(f, g))),
            _ => is_empty_fragment(g) || (f == g && f.sort() != Sort::Pattern),
        },
        _ => false,
    }
}

/// The context after running `a` in context `ctx`.
fn after(ctx: Ctx, a: &Term) -> Ctx {
    match ctx {
        Ctx::Unbound => Ctx::Unbound,
        Ctx::Bound if keeps_poi(a) => Ctx::Bound,
        _ => Ctx::Unknown,
    }
}

/// The context of the subterm at `path` in `root`, whose own is `ctx`.
pub fn context_at(root: &Term, path: &[usize], ctx: Ctx) -> Ctx {
    let Some((&i, rest)) = path.split_first() else {
        return ctx;
    };
    let kids = root.children();
    let inner = match (root.node(), i) {
        (Node::Bind(..), 1) => Ctx::Bound,
        (Node::Seq(a, _), 1) => after(ctx, a),
        (Node::Repeat(a, ..) | Node::Greedy(a), 0) => after(ctx, a),
        _ => ctx,
    };
    context_at(kids[i], rest, inner)
}

fn is_empty_fragment(t: &Term) -> bool {
    matches!(t.node(), Node::Frag(f) if f.is_empty())
}

/// Whether the move gives the state itself or nothing, on every state.
pub fn is_test(t: &Term) -> bool {
    match t.node() {
        Node::Nil | Node::Fail | Node::Not(_) => true,
        Node::Rule(f, g) => is_empty_fragment(g) || (f == g && f.sort() != Sort::Pattern),
        Node::Seq(a, b) | Node::Alt(a, b) => is_test(a) && is_test(b),
        Node::Repeat(a, ..) | Node::Greedy(a) | Node::Bind(_, a) | Node::Apply(_, a) => is_test(a),
        _ => false,
    }
}

fn seq_items(t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Seq(a, b) => {
            seq_items(a, out);
            seq_items(b, out);
        }
        _ => out.push(t.clone()),
    }
}

fn alt_items(t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Alt(a, b) => {
            alt_items(a, out);
            alt_items(b, out);
        }
        _ => out.push(t.clone()),
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

fn all_off(f: &Fragment) -> bool {
    f.cells().all(|(_, c)| c == Cell::Off)
}

/// `f -> g` as a guard `h -> 0`, when `g` only writes back what `f` reads
/// (or asks for squares off the board that `f` does not name).
fn as_guard(f: &Fragment, g: &Fragment) -> Option<Fragment> {
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
fn implies(h1: &Fragment, h2: &Fragment) -> bool {
    let Some((s2, c2)) = h2.cells().next() else {
        return true;
    };
    h1.cells().filter(|(_, c)| *c == c2).any(|(s1, _)| {
        let t = s2 - s1;
        h2.cells().all(|(q, c)| h1.get(q - t) == Some(c))
    })
}

fn guard_fragment(t: &Term) -> Option<Fragment> {
    match t.node() {
        Node::Rule(f, g) if is_empty_fragment(g) => match f.node() {
            Node::Frag(f) => Some(f.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A run of tests as a set: `None` when it fails.
fn test_run(run: Vec<Term>) -> Option<Vec<Term>> {
    let mut run = run;
    run.sort();
    run.dedup();
    let negated = |x: &Term| run.iter().any(|y| matches!(y.node(), Node::Not(z) if z == x));
    if run.iter().any(negated) {
        return None;
    }
    let guards: Vec<(usize, Fragment)> = run
        .iter()
        .enumerate()
        .filter_map(|(i, t)| guard_fragment(t).map(|h| (i, h)))
        .collect();
    let implied: Vec<usize> = guards
        .iter()
        .filter(|(i, h2)| {
            guards
                .iter()
                .any(|(j, h1)| j != i && implies(h1, h2) && (!implies(h2, h1) || j < i))
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
fn frag(t: &Term) -> Term {
    match t.node() {
        Node::Glue(..) => {
            let mut leaves = vec![];
            glue_leaves(t, &mut leaves);
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
            union_leaves(t, &mut leaves);
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
        Node::Apply(m, x) if x.sort() != Sort::Movement => {
            let x = frag(x);
            match x.node() {
                Node::Glue(a, b) => frag(&Term::raw(Node::Glue(Term::apply(m, a), Term::apply(m, b)))),
                Node::Union(a, b) => frag(&Term::raw(Node::Union(Term::apply(m, a), Term::apply(m, b)))),
                _ => Term::apply(m, &x),
            }
        }
        _ => t.clone(),
    }
}

fn glue_leaves(t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Glue(a, b) => {
            glue_leaves(a, out);
            glue_leaves(b, out);
        }
        _ => {
            let x = frag(t);
            if matches!(x.node(), Node::Glue(..)) {
                glue_leaves(&x, out);
            } else {
                out.push(x);
            }
        }
    }
}

fn union_leaves(t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Union(a, b) => {
            union_leaves(a, out);
            union_leaves(b, out);
        }
        _ => {
            let x = frag(t);
            if matches!(x.node(), Node::Union(..)) {
                union_leaves(&x, out);
            } else {
                out.push(x);
            }
        }
    }
}

fn rule(f: &Term, g: &Term, ctx: Ctx) -> Term {
    let (f, g) = (frag(f), frag(g));
    match (f.as_pattern(), g.as_pattern()) {
        (Some(p), Some(q)) => {
            let needs_poi = |p: &Pattern| p.members().all(|x| x.poi().is_some());
            if ctx == Ctx::Unbound && (needs_poi(&p) || needs_poi(&q)) {
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
                Some(h) if ctx == Ctx::Bound && h.len() == 1 && h.poi().is_some() => Term::nil(),
                Some(h) => Term::rule(&Term::fragment(h), &Term::fragment(Fragment::empty())),
                None => Term::rule(&f, &g),
            }
        }
        _ if f == g && f.sort() != Sort::Pattern => Term::rule(&f, &Term::fragment(Fragment::empty())),
        _ => Term::rule(&f, &g),
    }
}

/// `%` in `f` replaced by the binder's cell `c`.
fn put(f: &Fragment, c: &Term) -> Option<Term> {
    let Some(s) = f.poi() else {
        return Some(Term::fragment(f.clone()));
    };
    match c.node() {
        Node::Cell(content) => Some(Term::fragment(
            Fragment::from_cells(f.cells().map(|(q, x)| (q, if q == s { Cell::Is(*content) } else { x }))).ok()?,
        )),
        Node::Var(_) => {
            let rest = Fragment::from_cells(f.cells().filter(|(q, _)| *q != s)).ok()?;
            let moved = Term::apply(&Term::movement(Movement::translation(s.x, s.y)), &c.as_fragment_term());
            Term::glue(&Term::fragment(rest), &moved).ok()
        }
        _ => None,
    }
}

/// `%c: m` without a POI bound outside: the rule itself, with `c` for `%`,
/// when `m` is a rule whose guard always holds `%`.
fn unbind(c: &Term, m: &Term) -> Option<Term> {
    let Node::Rule(f, g) = m.node() else { return None };
    let (p, q) = (f.as_pattern()?, g.as_pattern()?);
    if !p.members().all(|x| x.poi().is_some()) {
        return None;
    }
    if let (Some(a), Some(b)) = (p.as_fragment(), q.as_fragment()) {
        return Some(Term::rule(&put(a, c)?, &put(b, c)?));
    }
    let Node::Cell(_) = c.node() else { return None };
    let each = |p: &Pattern| -> Option<Term> {
        let mut out: Option<Term> = None;
        for x in p.members() {
            let y = put(x, c)?;
            out = Some(match out {
                None => y,
                Some(o) => Term::union(&o, &y),
            });
        }
        out
    };
    Some(Term::rule(&each(&p)?, &each(&q)?))
}

fn norm(t: &Term, ctx: Ctx) -> Term {
    match t.node() {
        Node::Seq(..) => {
            let mut items = vec![];
            seq_items(t, &mut items);
            let mut out = vec![];
            let mut c = ctx;
            for x in &items {
                seq_items(&norm(x, c), &mut out);
                c = after(c, x);
            }
            if out.iter().any(|x| matches!(x.node(), Node::Fail)) {
                return Term::fail();
            }
            out.retain(|x| !matches!(x.node(), Node::Nil));
            let mut result = vec![];
            let mut run = vec![];
            for x in out {
                if is_test(&x) {
                    run.push(x);
                    continue;
                }
                match test_run(std::mem::take(&mut run)) {
                    Some(r) => result.extend(r),
                    None => return Term::fail(),
                }
                result.push(x);
            }
            match test_run(run) {
                Some(r) => result.extend(r),
                None => return Term::fail(),
            }
            seq_of(result)
        }
        Node::Alt(..) => {
            let mut items = vec![];
            alt_items(t, &mut items);
            let mut out = vec![];
            for x in &items {
                alt_items(&norm(x, ctx), &mut out);
            }
            out.retain(|x| !matches!(x.node(), Node::Fail));
            out.sort();
            out.dedup();
            // `T | not T` is `nil` for a test `T`.
            if out.iter().any(|x| is_test(x) && out.contains(&Term::not(x))) {
                out.push(Term::nil());
            }
            if out.iter().any(|x| matches!(x.node(), Node::Nil)) {
                out.retain(|x| !is_test(x));
                out.insert(0, Term::nil());
            }
            alt_of(out)
        }
        Node::Not(x) => {
            let x = norm(x, ctx);
            let mut members = vec![];
            alt_items(&x, &mut members);
            if members.iter().any(|m| matches!(m.node(), Node::Nil)) {
                return Term::fail();
            }
            match x.node() {
                Node::Fail => Term::nil(),
                Node::Not(y) if is_test(y) => y.clone(),
                _ => Term::not(&x),
            }
        }
        Node::Repeat(x, lo, hi) => {
            let body = norm(x, after(ctx, x));
            if num(hi) == Some(0) {
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
        Node::Greedy(x) => {
            let body = norm(x, after(ctx, x));
            if is_test(&body) {
                return norm(&Term::not(&body), ctx);
            }
            Term::greedy(&body)
        }
        Node::Bind(c, body) => {
            let body = norm(body, Ctx::Bound);
            let mut members = vec![];
            alt_items(&body, &mut members);
            let out: Vec<Term> = members
                .iter()
                .filter(|m| !matches!(m.node(), Node::Fail))
                .map(|m| match m.node() {
                    Node::Nil => rule(&c.as_fragment_term(), &c.as_fragment_term(), ctx),
                    _ => match ctx {
                        Ctx::Unbound => unbind(c, m).map(|r| norm(&r, ctx)).unwrap_or_else(|| Term::bind(c, m)),
                        _ => Term::bind(c, m),
                    },
                })
                .collect();
            alt_of(out)
        }
        Node::Apply(m, x) if t.sort() == Sort::Move => {
            let x = norm(x, ctx);
            match x.node() {
                Node::Nil | Node::Fail => x,
                _ => Term::apply(m, &x),
            }
        }
        Node::Rule(f, g) => rule(f, g, ctx),
        Node::Glue(..) | Node::Union(..) | Node::Apply(..) => frag(t),
        _ => t.clone(),
    }
}

/// The normal form of `t` in context `ctx`, with choices as sets: the
/// steps above and `choices::sorted`, repeated until nothing changes.
pub fn normal(t: &Term, ctx: Ctx) -> Term {
    let mut x = choices::sorted(t);
    for _ in 0..8 {
        let y = choices::sorted(&norm(&x, ctx));
        if y == x {
            break;
        }
        x = y;
    }
    x
}

/// Replays a step that united `a` with `b` at `path` in `before`, in a
/// proof from `first` to `last`: the two must have one normal form in the
/// context of that position.
pub fn replay(first: &Term, last: &Term, before: &Term, path: &[usize], a: &Term, b: &Term) -> Result<(), String> {
    let ctx = context_at(before, path, top(first, last));
    if normal(a, ctx) == normal(b, ctx) {
        Ok(())
    } else {
        Err(format!("`{a}` and `{b}` do not have the same normal form"))
    }
}

fn ground(t: &Term) -> PatternAst<crate::prover::lang::ENode> {
    let e = to_expr(t);
    let nodes: Vec<ENodeOrVar<_>> = e.as_ref().iter().cloned().map(ENodeOrVar::ENode).collect();
    RecExpr::from(nodes)
}

/// Unites each side of the claim, with its choices as sets, with its
/// normal form.
pub fn unite(egraph: &mut Graph, claim: &Claim) {
    let ctx = top(&claim.lhs, &claim.rhs);
    for side in [&claim.lhs, &claim.rhs] {
        let set = choices::sorted(side);
        let n = normal(&set, ctx);
        if n != set {
            egraph.union_instantiations(&ground(&set), &ground(&n), &Default::default(), DECIDE);
        }
    }
    egraph.rebuild();
}
