//! Binders gathered over names. A file that finds its pieces by their
//! glyph writes each direction as its own definition of unanchored rules
//! (`rook_up = ('R + u free -> . + u'R) | ...`) and joins them
//! (`rook = rook_up | rook_down | ...`). Every square is then tried as the
//! pivot of every rule; one binder scans the board once for all of them.
//!
//! Where a definition at the top is a union of rules whose guards all hold
//! the same piece at the origin, and of definitions used only there that
//! are such unions too, the piece becomes `%` in every guard and the
//! definition at the top binds it: `rook = %'R: rook_up | ...` with
//! `rook_up = (% + u free -> . + u'R) | ...`. This is the lemma of
//! `hoist` (an unanchored rule `f -> g` is `%c: f' -> g` when every member
//! of `f` holds `c` at the pivot) and the law `bind_alt`. The edit is made
//! in the file's own syntax tree, so the result reads as written; the
//! edited tree is elaborated again and each changed definition must be exactly the
//! term the lemma gives, or the edit is dropped.

use super::version::body_mut;
use super::version::Version;
use crate::elab::Program;
use crate::geometry::Square;
use crate::ir::{Cell, Content, Fragment, Node, Pattern, Term};
use crate::parse::ast::{Expr, ExprKind, File, Ident, Span, StmtKind};
use std::collections::{BTreeSet, HashMap};

/// The guard's piece at the origin, as written, in `p + ...`: where, and
/// the piece.
fn leading_piece(e: &Expr) -> Option<(Span, &str)> {
    match &e.kind {
        ExprKind::Piece(p) => Some((e.span, p)),
        ExprKind::Plus(a, _) => leading_piece(a),
        ExprKind::Paren(x) => leading_piece(x),
        _ => None,
    }
}

/// The alternatives of `e`, parentheses and `|` taken apart.
fn alternatives<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Bar(a, b) => {
            alternatives(a, out);
            alternatives(b, out);
        }
        ExprKind::Paren(x) => alternatives(x, out),
        _ => out.push(e),
    }
}

/// How many times each name is written anywhere in the file; a name
/// inside a longer word counts too.
fn uses(file: &File, names: &[&str]) -> HashMap<String, usize> {
    let mut all: Vec<&str> = vec![];
    for e in file.stmts.iter().flat_map(|s| s.exprs()) {
        e.visit(|x| match &x.kind {
            ExprKind::Word(w) => all.push(w),
            ExprKind::Call(f, _) => all.push(&f.name),
            _ => {}
        });
    }
    // A word that is itself a name is that name only.
    let named: BTreeSet<&str> = names.iter().copied().collect();
    names
        .iter()
        .map(|n| {
            let count = all
                .iter()
                .filter(|w| **w == *n || (!named.contains(**w) && w.contains(n)))
                .count();
            (n.to_string(), count)
        })
        .collect()
}

/// `t` with `c` at the origin of every guard member made `%`: the body
/// of the binder `%c: t`. `None` unless `t` is a union of unanchored rules
/// whose guards all hold `c` there.
fn pivoted(t: &Term, c: Content) -> Option<Term> {
    match t.node() {
        Node::Alt([a, b]) => Some(Term::alt(&pivoted(a, c)?, &pivoted(b, c)?)),
        Node::Rule([f, g]) => {
            let (fp, gp) = (f.as_pattern()?, g.as_pattern()?);
            if fp.members().chain(gp.members()).any(|m| m.poi().is_some()) {
                return None;
            }
            let mut members = vec![];
            for m in fp.members() {
                if m.get(Square::ORIGIN) != Some(Cell::Is(c)) {
                    return None;
                }
                let cells = m
                    .cells()
                    .map(|(q, x)| (q, if q == Square::ORIGIN { Cell::Poi } else { x }));
                members.push(Fragment::from_cells(cells).ok()?);
            }
            let (first, rest) = members.split_first()?;
            let p = rest.iter().fold(Pattern::single(first.clone()), |p, m| {
                p.union(&Pattern::single(m.clone()))
            });
            Some(Term::rule(&Term::pattern(p), g))
        }
        _ => None,
    }
}

/// One candidate: the definitions to edit under one binder.
struct Tree {
    root: String,
    /// The root and the definitions under it.
    names: Vec<String>,
    /// The binder's cell: the piece, where the first guard writes it.
    cell: Ident,
    /// Where the piece is written in guards.
    spans: Vec<Span>,
}

/// The file with binders gathered, and the definitions that changed;
/// `None` when nothing changes.
pub(super) fn gather<'l>(v: &Version<'l>, top: &BTreeSet<String>) -> Option<(Version<'l>, Vec<String>)> {
    let (file, text, prog) = (&v.file, v.text(), &v.prog);
    let bodies: HashMap<&str, &Expr> = super::hoist::plain_definitions(file).collect();
    let names: Vec<&str> = bodies.keys().copied().collect();
    let used = uses(file, &names);
    // The pivot piece's text, its first guard's piece and the spans of
    // each definition that is such a union, with the names it takes in.
    fn shape<'a>(
        name: &'a str,
        bodies: &HashMap<&'a str, &'a Expr>,
        used: &HashMap<String, usize>,
        text: &str,
        depth: usize,
    ) -> Option<(String, Ident, Vec<Span>, Vec<String>)> {
        if depth > 16 {
            return None;
        }
        let mut alts = vec![];
        alternatives(bodies.get(name)?, &mut alts);
        let (mut piece, mut spans, mut inner) = (None::<(String, Ident)>, vec![], vec![]);
        for a in alts {
            let (p, c, s, n) = match &a.kind {
                ExprKind::Arrow(lhs, _) => {
                    let (at, p) = leading_piece(lhs)?;
                    let cell = Ident {
                        name: p.to_string(),
                        span: at,
                    };
                    (text[at.start..at.end].to_string(), cell, vec![at], vec![])
                }
                ExprKind::Word(w) if bodies.contains_key(w.as_str()) && used.get(w.as_str()) == Some(&1) => {
                    let (p, c, s, mut n) = shape(w, bodies, used, text, depth + 1)?;
                    n.push(w.clone());
                    (p, c, s, n)
                }
                _ => return None,
            };
            if piece.as_ref().is_some_and(|(q, _)| *q != p) {
                return None;
            }
            piece.get_or_insert((p, c));
            spans.extend(s);
            inner.extend(n);
        }
        let (piece, cell) = piece?;
        Some((piece, cell, spans, inner))
    }
    let mut trees: Vec<Tree> = vec![];
    for s in &file.stmts {
        let StmtKind::Def { name, params: None, .. } = &s.kind else {
            continue;
        };
        if !top.contains(&name.name) {
            continue;
        }
        if let Some((piece, cell, spans, mut inner)) = shape(&name.name, &bodies, &used, text, 0) {
            // Only where the file reads no longer: `%p: ` is written once
            // and `%` saves the rest of each guard's piece.
            let width = piece.chars().count();
            if (width - 1) * spans.len() < width + 3 {
                continue;
            }
            inner.push(name.name.clone());
            trees.push(Tree {
                root: name.name.clone(),
                names: inner,
                cell,
                spans,
            });
        }
    }
    // A tree inside another is the larger one's.
    let inside: BTreeSet<String> = trees
        .iter()
        .flat_map(|t| t.names.iter().filter(|n| **n != t.root).cloned())
        .collect();
    trees.retain(|t| !inside.contains(&t.root));
    // All trees edited at once and checked with one elaboration; a tree
    // that fails its check is dropped and the rest are tried again.
    loop {
        if trees.is_empty() {
            return None;
        }
        let mut edited = file.clone();
        for t in &trees {
            bind_in(&mut edited, t)?;
        }
        let after = v.edited(text, edited).ok();
        let before = trees.len();
        trees.retain(|t| after.as_ref().is_some_and(|a| lemma_holds(prog, &a.prog, t)));
        if trees.len() == before {
            let changed = trees.into_iter().flat_map(|t| t.names).collect();
            return Some((after?, changed));
        }
        // The edit of some tree broke the file; none is kept.
        after.as_ref()?;
    }
}

/// `file` with the binder of `tree` at the top of its root and `%` in
/// place of the piece in every guard under it: the tree that `%p: `
/// written before the root's body, and `%` over each guard's piece, parse
/// to.
fn bind_in(file: &mut File, tree: &Tree) -> Option<()> {
    fn percent(e: &mut Expr, spans: &[Span]) {
        if matches!(e.kind, ExprKind::Piece(_)) && spans.contains(&e.span) {
            e.kind = ExprKind::Percent;
        }
        match &mut e.kind {
            ExprKind::Call(_, args) | ExprKind::Juxt(args, _) => args.iter_mut().for_each(|a| percent(a, spans)),
            ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                percent(a, spans);
                percent(b, spans);
            }
            ExprKind::Bind(_, a) | ExprKind::Post(a, _) | ExprKind::Not(a) | ExprKind::Paren(a) => percent(a, spans),
            _ => {}
        }
    }
    for n in &tree.names {
        percent(body_mut(file, n)?, &tree.spans);
    }
    let root = body_mut(file, &tree.root)?;
    let span = root.span;
    let body = std::mem::replace(
        root,
        Expr {
            kind: ExprKind::Nil,
            span,
        },
    );
    *root = Expr {
        kind: ExprKind::Bind(tree.cell.clone(), Box::new(body)),
        span,
    };
    Some(())
}

/// Whether every definition of `tree` is, in `after`, the term the lemma
/// gives from `before`.
fn lemma_holds(before: &Program, after: &Program, tree: &Tree) -> bool {
    let check = || -> Option<bool> {
        let c = match after.definition(&tree.root)?.node() {
            Node::Bind([c, _]) => match c.node() {
                Node::Cell(c) => *c,
                _ => return None,
            },
            _ => return None,
        };
        for n in &tree.names {
            let want = pivoted(before.definition(n)?, c)?;
            let want = if *n == tree.root {
                Term::bind(&Term::content(c), &want)
            } else {
                want
            };
            if after.definition(n)? != &want {
                return None;
            }
        }
        Some(true)
    };
    check().unwrap_or(false)
}
