//! Core terms as syntax trees: the tree the parser reads from what
//! `ir::print` writes, built directly, so that a simplified definition is
//! spliced into its file as a tree and printed once, by the formatter.
//!
//! Each term is built at the precedence level `print.rs` gives it, with
//! parentheses where it puts them and items side by side spaced or touching
//! as it writes them; a sequence on the right of another is one flat
//! sequence, as the parser reads it. The tests of `ir::print` check that
//! the tree prints as the printer writes the term and parses back to
//! itself.

use super::ast::{CountArg, Expr, ExprKind, Ident, PostOp};
use crate::geometry::Movement;
use crate::ir::print::{
    cell, content, movement_level, Spell, ATOM, BINDER, CHOICE, GLUE, JUXT, POSTFIX, PREFIX, RULE, SEMI, SPARSE,
};
use crate::ir::{Fragment, Node, Pattern, Term};

/// Names for subterms, built in their place (a definition's name, a
/// call of a function).
pub(crate) type Names<'a> = &'a dyn Fn(&Term) -> Option<Expr>;

/// A tree and the level it is written at.
struct Tree {
    expr: Expr,
    level: u8,
}

fn tree(expr: Expr, level: u8) -> Tree {
    Tree { expr, level }
}

fn num(n: i64) -> Expr {
    Expr::built(ExprKind::Num(n))
}

fn post(e: Expr, op: PostOp) -> Expr {
    Expr::built(ExprKind::Post(Box::new(e), op))
}

/// `t`, in parentheses if its level is looser than `max`.
fn at(t: Tree, max: u8) -> Expr {
    if t.level > max {
        Expr::built(ExprKind::Paren(Box::new(t.expr)))
    } else {
        t.expr
    }
}

/// Items side by side, each with whether it touches the one before; one
/// item stands alone.
fn side_by_side(mut items: Vec<Expr>, touch: Vec<bool>) -> Expr {
    if items.len() == 1 {
        items.pop().expect("one item")
    } else {
        Expr::built(ExprKind::Juxt(items, touch))
    }
}

/// Whether each of `n` items touches the one before: all but the first.
fn touching(n: usize) -> Vec<bool> {
    (0..n).map(|i| i > 0).collect()
}

/// The items of `e` as side by side (one, unless it is a sequence), with
/// whether each touches the one before.
fn items_of(mut e: Expr) -> (Vec<Expr>, Vec<bool>) {
    match &mut e.kind {
        ExprKind::Juxt(items, touch) => (std::mem::take(items), std::mem::take(touch)),
        _ => (vec![e], vec![false]),
    }
}

/// `a` then `b`, spaced (`touch`: or touching): a sequence on either side
/// is one sequence with the other.
fn then(a: Expr, b: Expr, touch: bool) -> Expr {
    let (mut items, mut touches) = items_of(a);
    let (more, mut more_touch) = items_of(b);
    more_touch[0] = touch;
    items.extend(more);
    touches.append(&mut more_touch);
    side_by_side(items, touches)
}

/// A content as a cell of the syntax: `.` or a piece as spelled.
fn content_expr(text: String) -> Expr {
    Expr::built(match text.as_str() {
        "." => ExprKind::Dot,
        "#" => ExprKind::Hash,
        "%" => ExprKind::Percent,
        _ => ExprKind::Piece(text),
    })
}

/// The runs of a movement word, touching: `u^12r` is `u` to the
/// twelfth, then `r`. A last run without a power is returned apart, so
/// that a caller writing `(` against it can make it a call.
fn movement_runs(m: &Movement) -> (Vec<Expr>, Option<String>) {
    let mut parts = m.word_parts();
    let last = match parts.last() {
        Some((_, None)) => parts.pop().map(|(w, _)| w),
        _ => None,
    };
    let runs = parts
        .into_iter()
        .map(|(w, p)| {
            let word = Expr::built(ExprKind::Word(w));
            match p {
                Some(p) => post(word, PostOp::Pow(p.power, p.superscript)),
                None => word,
            }
        })
        .collect();
    (runs, last)
}

fn movement(m: &Movement) -> Tree {
    let level = movement_level(m);
    if m.is_identity() {
        return tree(num(1), level);
    }
    let (mut runs, last) = movement_runs(m);
    runs.extend(last.map(|w| Expr::built(ExprKind::Word(w))));
    let n = runs.len();
    tree(side_by_side(runs, touching(n)), level)
}

fn fragment(f: &Fragment, spell: &Spell) -> Tree {
    if f.is_empty() {
        return tree(num(0), ATOM);
    }
    let min_x = f.cells().map(|(q, _)| q.x).min().unwrap_or(0);
    let min_y = f.cells().map(|(q, _)| q.y).min().unwrap_or(0);
    let max_y = f.cells().map(|(q, _)| q.y).max().unwrap_or(0);
    let max_x = f.cells().map(|(q, _)| q.x).max().unwrap_or(0);
    let area = (i64::from(max_x) - i64::from(min_x) + 1) * (i64::from(max_y) - i64::from(min_y) + 1);
    if f.len() > 1 && area > SPARSE.max(4 * f.len() as i64) {
        let sum = f
            .cells()
            .map(|(q, c)| {
                let one = Fragment::single(c).shifted(&Movement::translation(q.x, q.y));
                at(fragment(&one, spell), GLUE)
            })
            .reduce(|a, b| Expr::built(ExprKind::Plus(Box::new(a), Box::new(b))))
            .expect("cells");
        return tree(sum, GLUE);
    }
    let mut rows = vec![];
    for y in min_y..=max_y {
        let (mut items, mut touch) = (vec![], vec![]);
        let mut x = 0;
        let mut last_zero = false;
        for (cx, c) in f.cells().filter(|(q, _)| q.y == y).map(|(q, c)| (q.x - min_x, c)) {
            while x < cx {
                // `00` would lex as one number.
                touch.push(!last_zero && !items.is_empty());
                items.push(num(0));
                last_zero = true;
                x += 1;
            }
            touch.push(!items.is_empty());
            items.push(content_expr(cell(&c, spell)));
            last_zero = false;
            x += 1;
        }
        if items.is_empty() {
            items.push(num(0));
            touch.push(false);
            x = 1;
        }
        rows.push((side_by_side(items, touch), x));
    }
    let body = if rows.len() == 1 {
        let (row, width) = rows.pop().expect("one row");
        tree(row, if width <= 1 { ATOM } else { JUXT })
    } else {
        let semi = rows
            .into_iter()
            .map(|(r, _)| r)
            .rev()
            .reduce(|b, a| Expr::built(ExprKind::Semi(Box::new(a), Box::new(b))))
            .expect("rows");
        tree(semi, SEMI)
    };
    if min_x == 0 && min_y == 0 {
        return body;
    }
    let shift = Movement::translation(min_x, min_y);
    if body.level == ATOM && movement_level(&shift) == ATOM {
        return tree(then(movement(&shift).expr, body.expr, true), JUXT);
    }
    // `ul(♟.)`: a word written against `(` is a call of it.
    let (runs, last) = movement_runs(&shift);
    let tail = match last {
        Some(w) => Expr::built(ExprKind::Call(Ident::built(&w), vec![body.expr])),
        None => Expr::built(ExprKind::Paren(Box::new(body.expr))),
    };
    let n = runs.len() + 1;
    tree(
        side_by_side(runs.into_iter().chain([tail]).collect(), touching(n)),
        JUXT,
    )
}

fn pattern(p: &Pattern, spell: &Spell) -> Tree {
    let bar = p
        .members()
        .map(|f| at(fragment(f, spell), GLUE))
        .reduce(|a, b| Expr::built(ExprKind::Bar(Box::new(a), Box::new(b))))
        .unwrap_or_else(|| Expr::built(ExprKind::Fail));
    tree(bar, CHOICE)
}

/// A repetition count as written in braces.
fn count(t: &Term, names: Names, spell: &Spell) -> CountArg {
    let e = term(t, names, spell).expr;
    match e.kind {
        ExprKind::Num(n) => CountArg::Num(n),
        _ => CountArg::Name(Ident::built(&super::print_expr(&e))),
    }
}

/// The postfix operator of a repetition of `t`, `Node::Repeat([_, lo, hi])`.
fn repeat_op(t: &Term, lo: &Term, hi: &Term, names: Names, spell: &Spell) -> PostOp {
    match t.bounds() {
        Some(b) => match (b.lo, b.hi) {
            (0, None) => PostOp::Star,
            (1, None) => PostOp::Plus,
            (0, Some(1)) => PostOp::Opt,
            (i, Some(j)) if i == j => PostOp::Count(CountArg::Num(i64::from(i))),
            (i, Some(j)) => PostOp::Range(CountArg::Num(i64::from(i)), CountArg::Num(i64::from(j))),
            (i, None) => PostOp::AtLeast(CountArg::Num(i64::from(i))),
        },
        None if lo == hi => PostOp::Count(count(lo, names, spell)),
        None if matches!(hi.node(), Node::Inf) => PostOp::AtLeast(count(lo, names, spell)),
        None => PostOp::Range(count(lo, names, spell), count(hi, names, spell)),
    }
}

fn binary(kind: fn(Box<Expr>, Box<Expr>) -> ExprKind, a: Expr, b: Expr, level: u8) -> Tree {
    tree(Expr::built(kind(Box::new(a), Box::new(b))), level)
}

fn term(t: &Term, names: Names, spell: &Spell) -> Tree {
    if let Some(e) = names(t) {
        return tree(e, ATOM);
    }
    let term = |t: &Term| term(t, names, spell);
    match t.node() {
        Node::Mov(m) => movement(m),
        Node::Cell(c) => tree(content_expr(content(c, spell)), ATOM),
        Node::Frag(f) => fragment(f, spell),
        Node::Pat(p) => pattern(p, spell),
        Node::Var(m) => tree(Expr::built(ExprKind::Word(m.name.to_string())), ATOM),
        Node::Compose([a, b]) | Node::Apply([a, b]) | Node::Seq([a, b]) => {
            tree(then(at(term(a), PREFIX), at(term(b), JUXT), false), JUXT)
        }
        Node::Power([m], k) => tree(post(at(term(m), POSTFIX), PostOp::Pow(*k, false)), POSTFIX),
        Node::Single([c]) => term(c),
        Node::Glue([a, b]) => binary(ExprKind::Plus, at(term(a), GLUE), at(term(b), SEMI), GLUE),
        Node::Union([a, b]) | Node::Alt([a, b]) => {
            binary(ExprKind::Bar, at(term(a), CHOICE), at(term(b), GLUE), CHOICE)
        }
        Node::Nil => tree(Expr::built(ExprKind::Nil), ATOM),
        Node::Fail => tree(Expr::built(ExprKind::Fail), ATOM),
        Node::Rule([f, g]) => binary(ExprKind::Arrow, at(term(f), CHOICE), at(term(g), CHOICE), RULE),
        Node::Bind([c, body]) => {
            let cell = Ident::built(&super::print_expr(&at(term(c), ATOM)));
            tree(
                Expr::built(ExprKind::Bind(cell, Box::new(at(term(body), BINDER)))),
                BINDER,
            )
        }
        Node::Repeat([a, lo, hi]) => {
            let op = repeat_op(t, lo, hi, names, spell);
            tree(post(at(term(a), POSTFIX), op), POSTFIX)
        }
        Node::Not([a]) => tree(Expr::built(ExprKind::Not(Box::new(at(term(a), PREFIX)))), PREFIX),
        Node::Greedy([a]) => tree(post(at(term(a), POSTFIX), PostOp::Greedy), POSTFIX),
        Node::Num(n) => tree(num(i64::from(*n)), ATOM),
        Node::Inf => tree(Expr::built(ExprKind::Word("∞".into())), ATOM),
    }
}

/// `t` as the syntax tree of what `print::with_names` writes: `names(u)`
/// in place of any subterm `u` that has one, each cell as `spell` spells
/// it. Its spans are empty: it was built, not read.
pub(crate) fn with_names(t: &Term, names: Names, spell: &Spell) -> Expr {
    term(t, names, spell).expr
}

/// `t` as a syntax tree, each piece as its glyph.
#[cfg(test)]
pub(crate) fn plain(t: &Term, pieces: &crate::ir::Pieces) -> Expr {
    with_names(t, &|_| None, &Spell::glyphs(pieces))
}
