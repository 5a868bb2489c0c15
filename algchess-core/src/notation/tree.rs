//! Building the algebra's syntax tree from a notation. A lowered tree has
//! no text of its own: its spans are empty until `Expr::respan` points them
//! at the literal it came from.

use crate::parse::ast::{Expr, ExprKind, Ident, PostOp};

/// `%`: the POI.
pub(super) fn poi() -> Expr {
    Expr::built(ExprKind::Percent)
}

/// A cell as the algebra writes it: `.`, `#`, `%` or a piece glyph.
pub(super) fn cell(glyph: &str) -> Expr {
    Expr::built(match glyph {
        "." => ExprKind::Dot,
        "#" => ExprKind::Hash,
        "%" => ExprKind::Percent,
        g => ExprKind::Piece(g.to_string()),
    })
}

/// A word: a movement (`ur`) or a definition's name.
pub(super) fn word(w: &str) -> Expr {
    Expr::built(ExprKind::Word(w.to_string()))
}

/// `w(arg)`: a movement word applied to one argument.
pub(super) fn call(w: &str, arg: Expr) -> Expr {
    Expr::built(ExprKind::Call(Ident::built(w), vec![arg]))
}

pub(super) fn nil() -> Expr {
    Expr::built(ExprKind::Nil)
}

pub(super) fn fail() -> Expr {
    Expr::built(ExprKind::Fail)
}

/// `(e)`.
pub(super) fn paren(e: Expr) -> Expr {
    Expr::built(ExprKind::Paren(Box::new(e)))
}

/// `not e`.
pub(super) fn not(e: Expr) -> Expr {
    Expr::built(ExprKind::Not(Box::new(e)))
}

/// `e*`.
pub(super) fn star(e: Expr) -> Expr {
    post(e, PostOp::Star)
}

/// `e` with a postfix operator: `e+`, `e?`, `e{2}`.
pub(super) fn post(e: Expr, op: PostOp) -> Expr {
    Expr::built(ExprKind::Post(Box::new(e), op))
}

/// `a -> b`.
pub(super) fn arrow(a: Expr, b: Expr) -> Expr {
    Expr::built(ExprKind::Arrow(Box::new(a), Box::new(b)))
}

/// `%c: body`.
pub(super) fn bind(glyph: &str, body: Expr) -> Expr {
    Expr::built(ExprKind::Bind(Ident::built(glyph), Box::new(body)))
}

/// Terms side by side; one term stands alone. At least one. A movement
/// word is written against the cell it moves to (`ur♙`); the rest are
/// spaced.
pub(super) fn juxt(mut items: Vec<Expr>) -> Expr {
    if items.len() == 1 {
        items.pop().expect("one item")
    } else {
        let touch = std::iter::once(false)
            .chain(items.windows(2).map(|w| {
                matches!(
                    (&w[0].kind, &w[1].kind),
                    (
                        ExprKind::Word(_),
                        ExprKind::Piece(_) | ExprKind::Dot | ExprKind::Hash | ExprKind::Percent
                    )
                )
            }))
            .collect();
        Expr::built(ExprKind::Juxt(items, touch))
    }
}

/// `a + b + …`, grouped to the left as the grammar groups it. At least one.
pub(super) fn plus(items: impl IntoIterator<Item = Expr>) -> Expr {
    items
        .into_iter()
        .reduce(|a, b| Expr::built(ExprKind::Plus(Box::new(a), Box::new(b))))
        .expect("at least one fragment")
}

/// `a | b | …`, grouped to the left as the grammar groups it; `fail` when
/// there is none.
pub(super) fn bar(items: impl IntoIterator<Item = Expr>) -> Expr {
    items
        .into_iter()
        .reduce(|a, b| Expr::built(ExprKind::Bar(Box::new(a), Box::new(b))))
        .unwrap_or_else(fail)
}
