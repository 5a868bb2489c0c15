//! A claim side with commuting moves put in one order, and moves blind to
//! a binder's piece taken out of the binder: what KAT cannot do alone.
//!
//! Commuting moves (`effects::commute`) make a trace, and a sequence is
//! written as its least representative: step by step, the least move that
//! can be brought to the front past those before it. A repetition of a
//! choice whose members fall into groups that commute with each other is
//! the groups repeated one after another: `(M | N)* = M* N*` when
//! `M N = N M`, or only when `N M ≤ M N` (`effects::one_way`: a pawn
//! promoted, then crowned). With no POI bound outside, a binder's last
//! steps that are blind to its piece (`effects::blind`) run the same
//! after it, and its first steps that are blind and write no such piece
//! run the same before it: `%♘: (N (♙ -> ♟)) = (%♘: N) (♙ -> ♟)`; a
//! binder whose whole body is blind to its piece is that body after a
//! test for the piece: `%♖: (♙ -> ♟) = (♖ -> 0) (♙ -> ♟)`.
//!
//! Every rewrite is recorded as a lemma, shown with the proof, and the
//! tests check each kind against the evaluator.

use super::effects::{blind, commute, one_way, Effects, Vals};
use crate::geometry::Square;
use crate::ir::{Bounds, Cell, Content, Fragment, Node, Pieces, Term};
use crate::prover::decide::PoiKnown;
use std::collections::{BTreeSet, HashMap};

/// A rewrite the view made.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Lemma {
    /// `a b = b a`.
    Commute(Term, Term),
    /// `%c: (M k) = (%c: M) k`, or `%c: (k M) = k (%c: M)`: `k` is blind
    /// to the binder's piece (the binder, with `k` as its first or last
    /// step, is the first term).
    Outside(Term, Term),
    /// `b a ≤ a b`: so `a` may run first in a repetition of both.
    Before(Term, Term),
    /// `%c: M = (c -> 0) M`: `M` is blind to the binder's piece, or is a
    /// binder of another piece (the binder).
    Guard(Term),
    /// `%c: %c: M = %c: ((c -> 0) M)` (the outer binder).
    Twice(Term),
}

impl Lemma {
    pub(super) fn describe(&self, pieces: &Pieces) -> String {
        match self {
            Lemma::Commute(a, b) => format!("`{}` and `{}` commute", pieces.show(a), pieces.show(b)),
            Lemma::Outside(bind, k) => format!("`{}` runs the same outside `{}`", pieces.show(k), pieces.show(bind)),
            Lemma::Before(a, b) => format!(
                "`{}` then `{}` gives only what `{}` then `{}` gives",
                pieces.show(b),
                pieces.show(a),
                pieces.show(a),
                pieces.show(b)
            ),
            Lemma::Guard(bind) => format!("`{}` only asks that its piece be on the board", pieces.show(bind)),
            Lemma::Twice(bind) => format!(
                "`{}` binds a second square of its piece, the first reading as `%`",
                pieces.show(bind)
            ),
        }
    }
}

/// Computes views, keeping each move's effects.
#[derive(Default)]
pub(super) struct Viewer {
    effects: HashMap<Term, Effects>,
    pub lemmas: BTreeSet<Lemma>,
}

fn seq_of(items: Vec<Term>) -> Term {
    let mut it = items.into_iter().rev();
    let last = it.next().unwrap_or_else(Term::nil);
    it.fold(last, |acc, x| Term::seq(&x, &acc))
}

fn alt_of(items: Vec<Term>) -> Term {
    let mut it = items.into_iter().rev();
    let last = it.next().unwrap_or_else(Term::fail);
    it.fold(last, |acc, x| Term::alt(&x, &acc))
}

impl Viewer {
    fn effects(&mut self, t: &Term) -> &Effects {
        self.effects.entry(t.clone()).or_insert_with(|| Effects::of(t, None))
    }

    fn commute(&mut self, a: &Term, b: &Term) -> bool {
        let x = self.effects(a).clone();
        commute(&x, self.effects(b))
    }

    /// Whether `b a ≤ a b`.
    fn before(&mut self, a: &Term, b: &Term) -> bool {
        let x = self.effects(a).clone();
        one_way(&x, self.effects(b))
    }

    /// The view of `t` in context `ctx`.
    pub(super) fn view(&mut self, t: &Term, ctx: PoiKnown) -> Term {
        match t.node() {
            Node::Seq(..) => {
                let mut steps = vec![];
                t.push_steps(&mut steps);
                let mut flat = vec![];
                for s in &steps {
                    self.view(s, ctx).push_steps(&mut flat);
                }
                let flat = self.absorb(flat);
                self.least(flat)
            }
            // A few steps of one move, written out, so that moves that
            // commute with it may pass between them.
            Node::Repeat([a, ..])
                if t.bounds()
                    .is_some_and(|b| b.hi == Some(b.lo) && (2..=8).contains(&b.lo)) =>
            {
                let n = t.bounds().expect("literal counts").lo as usize;
                self.view(&seq_of(vec![a.clone(); n]), ctx)
            }
            Node::Alt([a, b]) => Term::alt(&self.view(a, ctx), &self.view(b, ctx)),
            Node::Repeat([a, lo, hi]) => {
                let body = self.view(a, ctx);
                if t.bounds() == Some(Bounds::STAR) {
                    if let Some(groups) = self.groups(&body) {
                        return stars(&groups);
                    }
                }
                // `(G1 | G2)+` is `G1+ G2* | G2+`: a word's groups in
                // order, the first of them not empty.
                if t.bounds() == Some(Bounds::PLUS) {
                    if let Some(groups) = self.groups(&body) {
                        let firsts = (0..groups.len()).map(|i| {
                            let mut steps = vec![Term::repeat(&groups[i], Bounds::PLUS)];
                            steps.extend(groups[i + 1..].iter().map(|g| Term::repeat(g, Bounds::STAR)));
                            seq_of(steps)
                        });
                        return alt_of(firsts.collect());
                    }
                }
                Term::repeat_counts(&body, lo, hi)
            }
            Node::Greedy([a]) => Term::greedy(&self.view(a, ctx)),
            Node::Not([a]) => Term::not(&self.view(a, ctx)),
            // A binder whose body is a binder of another piece, with no POI
            // bound outside: the inner one binds its own POI and ends on
            // the outer's, which the outer then sets back, so the outer
            // only asks that its piece be on the board. (With a POI bound
            // outside, the inner binder could bind that square, which
            // reads as `%` to a test outside it.)
            Node::Bind([c, body])
                if ctx == PoiKnown::Unbound
                    && matches!(c.node(), Node::Cell(_))
                    && matches!(body.node(), Node::Bind([d, _]) if d != c && matches!(d.node(), Node::Cell(_))) =>
            {
                self.lemmas.insert(Lemma::Guard(t.clone()));
                let mut steps = vec![guard(c)];
                self.view(body, ctx).push_steps(&mut steps);
                self.least(steps)
            }
            // Of the same piece: the inner binder binds any square of it
            // but the outer's, whose square reads as `%`: so `%c: %c: M`
            // is `M` from each square of `c` while another holds `c`.
            Node::Bind([c, body])
                if ctx == PoiKnown::Unbound
                    && matches!(c.node(), Node::Cell(_))
                    && matches!(body.node(), Node::Bind([d, _]) if d == c) =>
            {
                let Node::Bind([_, m]) = body.node() else {
                    unreachable!("a binder")
                };
                self.lemmas.insert(Lemma::Twice(t.clone()));
                let once = Term::bind(c, &Term::seq(&guard(c), m));
                self.view(&once, ctx)
            }
            Node::Bind([c, body]) => {
                let inner = self.view(body, PoiKnown::Bound);
                match ctx {
                    PoiKnown::Unbound if self.blind_body(c, &inner) => {
                        self.lemmas.insert(Lemma::Guard(Term::bind(c, &inner)));
                        let mut steps = vec![guard(c)];
                        inner.push_steps(&mut steps);
                        self.least(steps)
                    }
                    PoiKnown::Unbound => {
                        let mut steps = vec![];
                        self.outside(c, &inner).push_steps(&mut steps);
                        self.least(steps)
                    }
                    _ => Term::bind(c, &inner),
                }
            }
            _ => t.clone(),
        }
    }

    /// The least representative of a sequence up to commuting steps.
    fn least(&mut self, mut rest: Vec<Term>) -> Term {
        let mut out = vec![];
        while !rest.is_empty() {
            let mut best: Option<usize> = None;
            for i in 0..rest.len() {
                if best.is_some_and(|b| rest[b] <= rest[i]) {
                    continue;
                }
                let (x, before) = (rest[i].clone(), rest[..i].to_vec());
                if before.iter().all(|y| *y != x && self.commute(y, &x)) {
                    best = Some(i);
                }
            }
            let i = best.unwrap_or(0);
            for y in &rest[..i] {
                self.lemmas.insert(Lemma::Commute(y.clone(), rest[i].clone()));
            }
            out.push(rest.remove(i));
        }
        seq_of(out)
    }

    /// Whether a binder's whole body is blind to its piece and binds no
    /// square the piece's test could not see.
    fn blind_body(&mut self, c: &Term, body: &Term) -> bool {
        let Node::Cell(content) = c.node() else {
            return false;
        };
        let e = self.effects(body).clone();
        blind(&e, Cell::Is(*content))
    }

    /// Runs of steps that lie between `nil` and `L*` for a set of moves
    /// `L` whose star splits into groups, holding those groups' stars in
    /// order, as the groups' stars: `(M N)* M* N* = M* N*` and `M* N* M*
    /// N* = M* N*` when `N M ≤ M N`. Each step is at most `L*` and the
    /// run at most `L* L* = L*`; the groups' stars among its steps, the
    /// others taken as `nil`, make it at least `L*`.
    fn absorb(&mut self, steps: Vec<Term>) -> Vec<Term> {
        let mut out = vec![];
        let mut i = 0;
        while i < steps.len() {
            let run = steps[i..].iter().take_while(|t| nullable_over_letters(t)).count();
            if run < 2 {
                out.push(steps[i].clone());
                i += 1;
                continue;
            }
            let part = &steps[i..i + run];
            let mut letters = BTreeSet::new();
            for t in part {
                letters_of(t, &mut letters);
            }
            let whole = alt_of(letters.into_iter().collect());
            match self.groups(&whole) {
                Some(groups) if holds_in_order(part, &groups) => {
                    out.extend(groups.iter().map(|g| Term::repeat(g, Bounds::STAR)))
                }
                _ => out.extend(part.iter().cloned()),
            }
            i += run;
        }
        out
    }

    /// The groups of `(M | N)*` when the choices fall into groups that
    /// commute with each other, or run one way past each other (`N M ≤ M
    /// N`): in an order where each runs before those after it, so that
    /// the star is the groups' stars one after another.
    fn groups(&mut self, body: &Term) -> Option<Vec<Term>> {
        let mut arms = vec![];
        body.push_alternatives(&mut arms);
        if arms.len() < 2 {
            return None;
        }
        // Groups: connected by neither commuting nor one running before
        // the other.
        let n = arms.len();
        let mut group: Vec<usize> = (0..n).collect();
        // `first[i][j]`: arm i may run before arm j (`j i ≤ i j`).
        let mut first = vec![vec![false; n]; n];
        for i in 0..n {
            for j in 0..n {
                first[i][j] = i != j && (self.commute(&arms[i], &arms[j]) || self.before(&arms[i], &arms[j]));
            }
        }
        for i in 0..n {
            for j in 0..i {
                if !first[i][j] && !first[j][i] {
                    let (gi, gj) = (group[i], group[j]);
                    for g in group.iter_mut() {
                        if *g == gi {
                            *g = gj;
                        }
                    }
                }
            }
        }
        let mut ids: Vec<usize> = group.clone();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() < 2 {
            return None;
        }
        let group = &group;
        let members = |g: usize| (0..n).filter(move |&i| group[i] == g);
        // Group g may run before group h when each of its arms may run
        // before each of h's.
        let ahead = |g: usize, h: usize| members(g).all(|i| members(h).all(|j| first[i][j]));
        // Groups in order: each time, the least group that may run before
        // every group left (commuting groups in the order of their terms).
        let mut parts: Vec<(Term, usize)> = ids
            .iter()
            .map(|&g| (alt_of(members(g).map(|i| arms[i].clone()).collect()), g))
            .collect();
        parts.sort();
        let mut order: Vec<(Term, usize)> = vec![];
        while !parts.is_empty() {
            let k = (0..parts.len()).find(|&k| parts.iter().all(|(_, h)| *h == parts[k].1 || ahead(parts[k].1, *h)))?;
            order.push(parts.remove(k));
        }
        for i in 0..order.len() {
            for j in i + 1..order.len() {
                let (a, b) = (&order[i].0, &order[j].0);
                let lemma = match self.commute(a, b) {
                    true if a < b => Lemma::Commute(a.clone(), b.clone()),
                    true => Lemma::Commute(b.clone(), a.clone()),
                    false => Lemma::Before(a.clone(), b.clone()),
                };
                self.lemmas.insert(lemma);
            }
        }
        Some(order.into_iter().map(|(p, _)| p).collect())
    }

    /// A binder with the steps blind to its piece taken out, last and
    /// first, one at a time, each a lemma.
    ///
    /// A last step must also read nothing that the steps before it may
    /// write over the POI's square: a binder inside them sees that square
    /// by its content and may write it, and the POI stays bound there.
    fn outside(&mut self, c: &Term, body: &Term) -> Term {
        let Node::Cell(content) = c.node() else {
            return Term::bind(c, body);
        };
        let piece = Cell::Is(*content);
        let mut steps = vec![];
        body.push_steps(&mut steps);
        let mut after = vec![];
        while steps.len() > 1 {
            let last = steps.last().expect("a step").clone();
            let e = self.effects(&last).clone();
            let written = poi_writes(&steps[..steps.len() - 1]);
            if !blind(&e, piece) || e.reads.meets(&written) {
                break;
            }
            self.lemmas
                .insert(Lemma::Outside(Term::bind(c, &seq_of(steps.clone())), last));
            after.insert(0, steps.pop().expect("a step"));
        }
        let mut before = vec![];
        while steps.len() > 1 {
            let e = self.effects(&steps[0]).clone();
            if !blind(&e, piece) || e.changes().contains(piece) {
                break;
            }
            self.lemmas
                .insert(Lemma::Outside(Term::bind(c, &seq_of(steps.clone())), steps[0].clone()));
            before.push(steps.remove(0));
        }
        let mut all = before;
        all.push(Term::bind(c, &seq_of(steps)));
        all.extend(after);
        seq_of(all)
    }
}

/// The groups' stars one after another.
fn stars(groups: &[Term]) -> Term {
    seq_of(groups.iter().map(|g| Term::repeat(g, Bounds::STAR)).collect())
}

/// A move built from moves by `;`, `|` and repetition: each of those is a
/// letter.
fn letters_of(t: &Term, out: &mut BTreeSet<Term>) {
    match t.node() {
        Node::Seq([a, b]) | Node::Alt([a, b]) => {
            letters_of(a, out);
            letters_of(b, out);
        }
        Node::Repeat([a, ..]) => letters_of(a, out),
        Node::Nil => {}
        _ => {
            out.insert(t.clone());
        }
    }
}

/// A repetition that may run no times, of a move built from letters.
fn nullable_over_letters(t: &Term) -> bool {
    matches!(t.node(), Node::Repeat(..)) && t.bounds().is_some_and(|b| b.lo == 0)
}

/// Whether `steps` hold each group's star, in order.
fn holds_in_order(steps: &[Term], groups: &[Term]) -> bool {
    let mut want = groups.iter().map(|g| Term::repeat(g, Bounds::STAR)).peekable();
    for s in steps {
        if want.peek() == Some(s) {
            want.next();
        }
    }
    want.peek().is_none()
}

/// `c -> 0`: a test that some square holds `c`.
fn guard(c: &Term) -> Term {
    let Node::Cell(content) = c.node() else {
        unreachable!("a binder's content")
    };
    let cell = |c: Content| Cell::Is(c);
    let one = Fragment::from_cells([(Square::ORIGIN, cell(*content))]).expect("one cell");
    Term::rule(&Term::fragment(one), &Term::fragment(Fragment::empty()))
}

/// What the moves may write over the POI's square while it stays bound:
/// what their binders write (they see that square by its content), or
/// anything where a move is unknown.
fn poi_writes(steps: &[Term]) -> Vals {
    fn go(t: &Term, out: &mut Effects) {
        match t.node() {
            Node::Bind(..) | Node::Var(_) | Node::Apply(..) => {
                let e = Effects::of(t, None);
                *out = Effects {
                    before: out.before.union(&e.before),
                    after: out.after.union(&e.after),
                    ..Effects::default()
                };
            }
            Node::Repeat([a, lo, hi]) if !(lo.is_closed() && hi.is_closed()) => {
                go(a, out);
                out.after = Vals::all();
            }
            _ => t.children().iter().for_each(|c| go(c, out)),
        }
    }
    let mut e = Effects::default();
    for s in steps {
        go(s, &mut e);
    }
    e.changes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::kat::sample::{self, holds};

    /// What each lemma says, as an equation: the first side as found, the
    /// second as the view rewrote it.
    fn equation(l: &Lemma) -> (Term, Term) {
        match l {
            Lemma::Commute(a, b) => (Term::seq(a, b), Term::seq(b, a)),
            Lemma::Outside(bind, k) => {
                let Node::Bind([c, body]) = bind.node() else {
                    panic!("{bind:?}")
                };
                let mut steps = vec![];
                body.push_steps(&mut steps);
                let i = steps.iter().position(|s| s == k).expect("the step");
                steps.remove(i);
                let inner = Term::bind(c, &seq_of(steps));
                let out = if i == 0 {
                    Term::seq(k, &inner)
                } else {
                    Term::seq(&inner, k)
                };
                (bind.clone(), out)
            }
            Lemma::Before(a, b) => (Term::alt(&Term::seq(a, b), &Term::seq(b, a)), Term::seq(a, b)),
            Lemma::Guard(bind) => {
                let Node::Bind([c, body]) = bind.node() else {
                    panic!("{bind:?}")
                };
                (bind.clone(), Term::seq(&guard(c), body))
            }
            Lemma::Twice(bind) => {
                let Node::Bind([c, body]) = bind.node() else {
                    panic!("{bind:?}")
                };
                let Node::Bind([_, m]) = body.node() else {
                    panic!("{bind:?}")
                };
                (bind.clone(), Term::bind(c, &Term::seq(&guard(c), m)))
            }
        }
    }

    /// Every lemma a view uses on random moves holds on every board of up
    /// to five squares (commuting moves also with a POI bound; binders as
    /// the view meets them, with none).
    #[test]
    fn lemmas_hold_on_boards() {
        let (mut commutes, mut outside, mut guards) = (0, 0, 0);
        let mut failures = vec![];
        for seed in 0..300 {
            let mut g = crate::rng::Rng::new(seed);
            let steps: Vec<Term> = (0..3).map(|_| sample::a_move(&mut g, 1)).collect();
            let body = seq_of(steps.clone());
            let t = match seed % 2 {
                0 => body,
                _ => Term::bind(&Term::content(crate::ir::Content::Empty), &body),
            };
            let mut v = Viewer::default();
            v.view(&t, PoiKnown::Unbound);
            for l in &v.lemmas {
                let (a, b) = equation(l);
                let bound = matches!(l, Lemma::Commute(..));
                match l {
                    Lemma::Commute(..) => commutes += 1,
                    Lemma::Outside(..) => outside += 1,
                    Lemma::Before(..) | Lemma::Guard(..) | Lemma::Twice(..) => guards += 1,
                }
                if let Err(e) = holds(&a, &b, bound) {
                    failures.push(format!("{}: {e}", l.describe(&Pieces::chess())));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(
            commutes >= 20 && outside >= 10 && guards >= 5,
            "{commutes} commutes, {outside} outside, {guards} guards"
        );
    }

    /// Whenever the effects say `b a ≤ a b`, it holds on every board of up
    /// to five squares, with a POI bound and without; and the pairs found
    /// include ones that do not commute.
    #[test]
    fn one_way_moves_hold_on_boards() {
        let (mut found, mut strict) = (0, 0);
        let mut failures = vec![];
        for seed in 0..3000 {
            let mut g = crate::rng::Rng::new(seed);
            let (a, b) = (sample::a_move(&mut g, 1), sample::a_move(&mut g, 1));
            let mut v = Viewer::default();
            if !v.before(&a, &b) {
                continue;
            }
            found += 1;
            strict += !v.commute(&a, &b) as usize;
            let (l, r) = equation(&Lemma::Before(a.clone(), b.clone()));
            for bound in [false, true] {
                if let Err(e) = holds(&l, &r, bound) {
                    failures.push(format!(
                        "{}: {e}",
                        Lemma::Before(a.clone(), b.clone()).describe(&Pieces::chess())
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(found >= 100 && strict >= 10, "{found} one way, {strict} not commuting");
    }

    /// The rewrites of repetitions by groups, and of nested binders, keep
    /// the meaning: each side against its view on every board of up to
    /// five squares.
    #[test]
    fn views_of_repetitions_and_nested_binders_hold_on_boards() {
        let def = crate::testing::term;
        let (m, n) = ("(♙ -> ♟)", "(♟ -> ♛)");
        let cases = [
            (format!("({m} | {n})+"), format!("{m}+ {n}* | {n}+")),
            (format!("({m} {n})* ({m} | {n})*"), format!("{m}* {n}*")),
            (format!("{m}* {n}* {m}* {n}*"), format!("{m}* {n}*")),
            (format!("{n}? {m}* {n}*"), format!("{m}* {n}*")),
            ("%♘: %♗: (♙ -> ♟)".into(), "(♘ -> 0) (♗ -> 0) (♙ -> ♟)".into()),
            ("%♘: %♘: (% -> .)".into(), "%♘: (♘ -> 0) (% -> .)".into()),
            (
                "%♘: %♘: (% + u. -> . + u%)".into(),
                "%♘: (♘ -> 0) (% + u. -> . + u%)".into(),
            ),
            (
                "%♘: %♖: (% + u. -> . + u%)".into(),
                "(♘ -> 0) (%♖: (% + u. -> . + u%))".into(),
            ),
        ];
        for (t, want) in cases {
            let mut v = Viewer::default();
            let seen = v.view(&def(&t), PoiKnown::Unbound);
            let want = v.view(&def(&want), PoiKnown::Unbound);
            assert_eq!(seen, want, "{t}");
            // Binders are viewed with no POI bound outside; repetitions
            // in either context.
            for bound in [false, !t.starts_with('%')] {
                if let Err(e) = holds(&def(&t), &seen, bound) {
                    panic!("{t}: {e}");
                }
            }
        }
        // With a POI bound outside, nested binders stay.
        let nested = def("%♘: %♗: (% -> .)");
        assert_eq!(Viewer::default().view(&nested, PoiKnown::Bound), nested);
        // Not absorbed: a step that must run, or a group's star missing.
        let mut v = Viewer::default();
        let kept = def(&format!("{m} {m}* {n}*"));
        assert_ne!(
            v.view(&kept, PoiKnown::Unbound),
            v.view(&def(&format!("{m}* {n}*")), PoiKnown::Unbound)
        );
        let kept = def(&format!("({m} {n})* {n}*"));
        assert_ne!(
            v.view(&kept, PoiKnown::Unbound),
            v.view(&def(&format!("{m}* {n}*")), PoiKnown::Unbound)
        );
    }

    #[test]
    fn a_promotion_runs_before_a_crowning() {
        let def = crate::testing::term;
        let mut v = Viewer::default();
        let mixed = v.view(&def("((♟ -> ♛) | (♙ -> ♟))*"), PoiKnown::Unbound);
        assert_eq!(mixed, def("(♙ -> ♟)* (♟ -> ♛)*"));
        assert!(
            v.lemmas.iter().any(|l| matches!(l, Lemma::Before(..))),
            "{:?}",
            v.lemmas
        );
        // An unused binder is a test for its piece.
        let bound = v.view(&def("%♖: (♙ -> ♟)"), PoiKnown::Unbound);
        assert_eq!(bound, def("(♖ -> 0) (♙ -> ♟)"));
        // Not with a POI bound outside, nor when the body reads the piece.
        let inner = def("%♖: (♙ -> ♟)");
        assert_eq!(v.view(&inner, PoiKnown::Bound), inner);
        let reads = def("%♖: (♖ -> ♜)");
        assert_eq!(v.view(&reads, PoiKnown::Unbound), reads);
    }

    #[test]
    fn views_of_commuting_moves_meet() {
        let def = crate::testing::term;
        let mut v = Viewer::default();
        let a = v.view(&def("(♙ -> ♟) (♘ -> ♞) (♙ -> ♟)"), PoiKnown::Unbound);
        let b = v.view(&def("(♘ -> ♞) (♙ -> ♟){2}"), PoiKnown::Unbound);
        assert_eq!(a, b);
        let s = v.view(&def("((♙ -> ♟) | (♘ -> ♞))*"), PoiKnown::Unbound);
        assert_eq!(s, v.view(&def("(♘ -> ♞)* (♙ -> ♟)*"), PoiKnown::Unbound));
        // A step that reads the bound piece stays inside.
        let inside = def("%♖: ((% + u. -> . + u%) (♖ -> ♜))");
        assert_eq!(v.view(&inside, PoiKnown::Unbound), inside);
        // With a POI bound outside, nothing leaves a binder.
        let blind = def("%♖: ((% + u. -> . + u%) (♙ -> ♟))");
        assert_eq!(v.view(&blind, PoiKnown::Bound), blind);
        assert_ne!(v.view(&blind, PoiKnown::Unbound), blind);
    }
}
