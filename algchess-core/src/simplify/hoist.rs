//! Step 1 of simplification: binders at the top. Where no piece of
//! interest can be bound, an unanchored rule is the binder on its pivot
//! cell, which scans the board once; where that holds is read off the
//! syntax tree.

use crate::geometry::Movement;
use crate::ir::{Cell, Content, Fragment, Node, Term};
use crate::parse::ast::{Expr, ExprKind, File, StmtKind};
use std::collections::{BTreeSet, HashMap};

/// The definitions without parameters, as names and bodies.
pub(super) fn plain_definitions(file: &File) -> impl Iterator<Item = (&str, &Expr)> {
    file.stmts.iter().filter_map(|s| match &s.kind {
        // An override's uses are in other files: left alone.
        StmtKind::Def {
            name,
            params: None,
            body,
            overrides: false,
        } => Some((name.name.as_str(), body)),
        _ => None,
    })
}

/// By function: whether it keeps each parameter at the top of its body.
type Params<'a> = HashMap<&'a str, Vec<bool>>;

/// One use of a definition: the definition it is in (none for a game or a
/// claim), the name used, and whether it is at the top there.
type Use<'a> = (Option<&'a str>, &'a str, bool);

/// Move definitions used only where no piece of interest is bound: in game
/// turns, and at the top of other such definitions (under `|`, in
/// sequences, repetitions and tests, and under movements), never inside a
/// binder, a function's argument or a claim.
pub(crate) fn top_level_definitions(file: &File) -> BTreeSet<String> {
    let defs: Vec<&str> = plain_definitions(file).map(|(name, _)| name).collect();
    let params = kept_params(file);
    let (uses, used) = uses(file, &defs, &params);
    let mut top: BTreeSet<&str> = used;
    loop {
        let before = top.len();
        let keep: BTreeSet<&str> = top
            .iter()
            .copied()
            .filter(|d| {
                uses.iter()
                    .filter(|(_, used, _)| used == d)
                    .all(|(owner, _, at_top)| *at_top && owner.is_none_or(|o| top.contains(o)))
            })
            .collect();
        top = keep;
        if top.len() == before {
            break;
        }
    }
    top.into_iter().map(String::from).collect()
}

/// Every use of every name in `e`: where it is, whether at the top there.
/// A function's argument stays at the top when the function only ever
/// puts its parameter at the top of its body.
fn walk<'a>(e: &'a Expr, top: bool, params: &Params, out: &mut Vec<(&'a str, bool)>) {
    match &e.kind {
        ExprKind::Word(w) => out.push((w, top)),
        ExprKind::Call(f, args) => {
            out.push((&f.name, top));
            let keeps = |i: usize| match params.get(f.name.as_str()) {
                Some(p) => p.get(i).copied().unwrap_or(false),
                // A movement applied keeps its argument where it was.
                None => Movement::is_word(&f.name),
            };
            for (i, a) in args.iter().enumerate() {
                walk(a, top && keeps(i), params, out);
            }
        }
        ExprKind::Juxt(v, _) => v.iter().for_each(|x| walk(x, top, params, out)),
        ExprKind::Bar(a, b) => {
            walk(a, top, params, out);
            walk(b, top, params, out);
        }
        ExprKind::Post(x, _) | ExprKind::Not(x) | ExprKind::Paren(x) => walk(x, top, params, out),
        ExprKind::Bind(_, body) => walk(body, false, params, out),
        ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Arrow(a, b) => {
            walk(a, false, params, out);
            walk(b, false, params, out);
        }
        _ => {}
    }
}

/// Which parameters each function keeps at the top, to a fixpoint (a
/// function may pass its parameter on to another).
fn kept_params(file: &File) -> Params<'_> {
    let functions: Vec<(&str, &Vec<crate::parse::ast::Ident>, &Expr)> = file
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Def {
                name,
                params: Some(ps),
                body,
                overrides: false,
            } => Some((name.name.as_str(), ps, body)),
            _ => None,
        })
        .collect();
    let mut params: Params = functions.iter().map(|(n, ps, _)| (*n, vec![true; ps.len()])).collect();
    loop {
        let mut changed = false;
        for (name, ps, body) in &functions {
            let mut occ = vec![];
            walk(body, true, &params, &mut occ);
            for (i, p) in ps.iter().enumerate() {
                let keeps = occ.iter().filter(|(w, _)| *w == p.name).all(|(_, top)| *top)
                    && !occ.iter().any(|(w, _)| *w != p.name && w.contains(p.name.as_str()));
                if params[name][i] && !keeps {
                    params.get_mut(name).unwrap()[i] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    params
}

/// Every use of the definitions `defs` in the file's statements, and the
/// definitions used by name.
fn uses<'a>(file: &'a File, defs: &[&'a str], params: &Params) -> (Vec<Use<'a>>, BTreeSet<&'a str>) {
    let mut uses: Vec<Use<'a>> = vec![];
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for s in &file.stmts {
        let mut occ = vec![];
        let owner = match &s.kind {
            StmtKind::Def {
                name,
                params: fparams,
                body,
                ..
            } => {
                walk(body, fparams.is_none(), params, &mut occ);
                // A use inside a function body is at the top only where
                // the function's own result is.
                Some(name.name.as_str())
            }
            StmtKind::Game { board, turns, .. } => {
                walk(board, false, params, &mut occ);
                turns.iter().for_each(|t| walk(t, true, params, &mut occ));
                None
            }
            StmtKind::Claim { lhs, rhs, .. } => {
                walk(lhs, false, params, &mut occ);
                walk(rhs, false, params, &mut occ);
                None
            }
            StmtKind::GameEnd { args, .. } => {
                args.iter().for_each(|a| walk(a, false, params, &mut occ));
                None
            }
            StmtKind::Piece { .. } | StmtKind::Import { .. } | StmtKind::Grid { .. } | StmtKind::GameFrom { .. } => {
                None
            }
        };
        for (w, top) in occ {
            // A name can hide inside a run-on word (`xxx`): such a use counts
            // as not at the top. A word that is itself a name is that name.
            let is_name = defs.contains(&w);
            for d in defs {
                if w == *d {
                    uses.push((owner, d, top));
                    used.insert(d);
                } else if !is_name && w.contains(d) {
                    uses.push((owner, d, false));
                }
            }
        }
    }
    (uses, used)
}

/// An unanchored rule between constant patterns, as binders on the pivot
/// cells of its pairs. `None` when a side holds `%` or a guard has no cell to
/// pivot on.
fn as_binders(f: &Term, g: &Term) -> Option<Term> {
    let (fp, gp) = (f.as_pattern()?, g.as_pattern()?);
    if fp.members().chain(gp.members()).any(|m| m.poi().is_some()) {
        return None;
    }
    // The pivot: a square that every member of the guard holds with the
    // same content, so that one binder serves them all; a piece rather than
    // an empty square. Failing that, each member's own first piece.
    let first = fp.members().next()?;
    let shared = first
        .cells()
        .filter_map(|(q, c)| match c {
            Cell::Is(c) if fp.members().all(|m| m.get(q) == Some(Cell::Is(c))) => Some((q, c)),
            _ => None,
        })
        .min_by_key(|(q, c)| (matches!(c, Content::Empty), *q));
    let mut by_cell: Vec<(Content, Vec<Term>)> = vec![];
    for fm in fp.members() {
        let (at, c) = match shared {
            Some(s) => s,
            None => fm
                .cells()
                .filter_map(|(q, c)| match c {
                    Cell::Is(c) => Some((q, c)),
                    _ => None,
                })
                .min_by_key(|(q, c)| (matches!(c, Content::Empty), *q))?,
        };
        let shift = Movement::translation(-at.x, -at.y);
        let guard: Fragment = Fragment::from_cells(fm.cells().map(|(q, x)| (q, if q == at { Cell::Poi } else { x })))
            .expect("one `%`, in place of the pivot")
            .shifted(&shift);
        for gm in gp.members() {
            let body = Term::rule(&Term::fragment(guard.clone()), &Term::fragment(gm.shifted(&shift)));
            match by_cell.iter_mut().find(|(k, _)| *k == c) {
                Some((_, v)) => v.push(body),
                None => by_cell.push((c, vec![body])),
            }
        }
    }
    let binders: Vec<Term> = by_cell
        .into_iter()
        .map(|(c, bodies)| Term::bind(&Term::content(c), &alternatives(&bodies)))
        .collect();
    Some(alternatives(&binders))
}

/// Alternatives as one chain of `|`, grouped to the left as written.
pub(super) fn alternatives(v: &[Term]) -> Term {
    let (first, rest) = v.split_first().expect("at least one alternative");
    rest.iter().fold(first.clone(), |acc, t| Term::alt(&acc, t))
}

/// Step 1 on a term in a position where no POI is bound: unanchored rules
/// become binders, and binders on one cell side by side merge into one.
pub(crate) fn hoist(t: &Term) -> Term {
    match t.node() {
        Node::Rule([f, g]) => as_binders(f, g).unwrap_or_else(|| t.clone()),
        Node::Alt(..) => {
            let mut items = vec![];
            t.push_alternatives(&mut items);
            let mut merged: Vec<Term> = vec![];
            for item in items.iter().map(hoist) {
                let mut parts = vec![];
                item.push_alternatives(&mut parts);
                for p in parts {
                    // `(%c: M) | (%c: N)` is `%c: (M | N)` everywhere.
                    if let Node::Bind([c, body]) = p.node() {
                        if let Some(k) = merged
                            .iter()
                            .position(|m| matches!(m.node(), Node::Bind([d, _]) if d == c))
                        {
                            let Node::Bind([_, old]) = merged[k].node() else {
                                unreachable!()
                            };
                            merged[k] = Term::bind(c, &Term::alt(old, body));
                            continue;
                        }
                    }
                    merged.push(p);
                }
            }
            alternatives(&merged)
        }
        Node::Seq([a, b]) => Term::seq(&hoist(a), &hoist(b)),
        Node::Repeat([a, lo, hi]) => Term::repeat_counts(&hoist(a), lo, hi),
        Node::Not([a]) => Term::not(&hoist(a)),
        Node::Greedy([a]) => Term::greedy(&hoist(a)),
        _ => t.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(text: &str) -> BTreeSet<String> {
        top_level_definitions(&crate::parse::parse_file(text).unwrap())
    }

    #[test]
    fn top_level_uses_follow_turns_functions_and_binders() {
        let text = "
flip(M) = C M
step = ♙ -> . + u♙
white = step
white_move = white
inner = ♟ -> .
bound = %♖: inner
game g(♙;.) = white_move, flip(white), bound
";
        let t = top(text);
        // `white_move` is a name of its own, not `white` run on.
        assert!(
            t.contains("white") && t.contains("white_move") && t.contains("step"),
            "{t:?}"
        );
        assert!(t.contains("bound"));
        assert!(!t.contains("inner"), "used inside a binder: {t:?}");
    }
}
