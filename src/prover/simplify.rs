//! Simplifying rule files before play: every definition of a move is
//! saturated with the laws and the cheapest equal move, by the cost model of
//! `cost.rs`, is written back in its place.
//!
//! Two steps, in order:
//!
//! 1. **Binders at the top.** Unanchored rules try every square as their
//!    pivot, once per rule; a binder scans the board once for all the rules
//!    under it. Where no piece of interest can be bound (a game's turns, and
//!    the unions and sequences that make them up), an unanchored rule `f -> g`
//!    is the binder `%c: f' -> g'` on its pivot cell `c`, with `%` in the
//!    pivot's place: the lemma the checker's decomposition rests on. Whether a
//!    definition is only ever used there is read off the syntax tree; inside a
//!    binder the lemma does not hold, and nothing is changed.
//! 2. **Saturation.** The laws of `axioms/` rewrite the definition; the
//!    extraction picks the cheapest term.
//!
//! Each definition is rewritten on its own: the move definitions it names
//! stay names (metavariables costed as their bodies), so a rewrite never
//! reaches into another definition and the result still reads in the
//! file's own words. A definition changes only when its cost strictly goes
//! down, so a simplified file simplifies to itself.

use super::analysis::{Algebra, Graph};
use super::cost::{Cost, Work};
use super::lang::{from_expr, to_expr};
use super::rules::Rules;
use crate::core::{Cell, Content, Fragment, Node, Sort, Term};
use crate::diag::{Diag, Diags, Source};
use crate::elab::Program;
use crate::geometry::Movement;
use crate::parse::ast::{Expr, ExprKind, File, StmtKind};
use egg::{Extractor, Runner};
use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

/// Limits of saturation, per definition.
#[derive(Clone, Debug)]
pub struct SimplifyOptions {
    pub iter_limit: usize,
    pub node_limit: usize,
    pub time_limit: Duration,
}

impl Default for SimplifyOptions {
    fn default() -> Self {
        SimplifyOptions {
            iter_limit: 12,
            node_limit: 20_000,
            time_limit: Duration::from_secs(1),
        }
    }
}

/// One definition that changed.
#[derive(Clone, Debug)]
pub struct Change {
    pub name: String,
    pub before: Term,
    pub after: Term,
    pub cost_before: f64,
    pub cost_after: f64,
    /// Its unanchored rules became binders (step 1).
    pub hoisted: bool,
}

/// A simplified rule file.
pub struct Simplified {
    pub text: String,
    pub changes: Vec<Change>,
}

/// The estimated work of evaluating a term once.
pub fn cost(t: &Term) -> f64 {
    cost_over(t, &HashMap::new()).work
}

/// The estimated cost of a term whose metavariables stand for named
/// definitions of the given costs.
fn cost_over(t: &Term, named: &HashMap<String, Cost>) -> Cost {
    let mut g = Graph::new(Algebra::default());
    let id = g.add_expr(&to_expr(t));
    g.rebuild();
    let (c, _): (Cost, _) = Extractor::new(&g, Work { egraph: &g, named }).find_best(id);
    c
}

/// Move definitions used only where no piece of interest is bound: in game
/// turns, and at the top of other such definitions (under `|`, in
/// sequences, repetitions and tests, and under movements), never inside a
/// binder, a function's argument or a claim.
pub fn top_level_definitions(file: &File) -> BTreeSet<String> {
    let defs: Vec<&str> = file
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Def { name, params: None, .. } => Some(name.name.as_str()),
            _ => None,
        })
        .collect();
    // Every use of every name: where it is, whether at the top there. A
    // function's argument stays at the top when the function only ever
    // puts its parameter at the top of its body.
    type Params<'a> = HashMap<&'a str, Vec<bool>>;
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
            ExprKind::Juxt(v) => v.iter().for_each(|x| walk(x, top, params, out)),
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
    // Which parameters each function keeps at the top, to a fixpoint (a
    // function may pass its parameter on to another).
    let functions: Vec<(&str, &Vec<crate::parse::ast::Ident>, &Expr)> = file
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Def {
                name,
                params: Some(ps),
                body,
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
    let mut uses: Vec<(Option<&str>, &str, bool)> = vec![];
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for s in &file.stmts {
        let mut occ = vec![];
        let owner = match &s.kind {
            StmtKind::Def {
                name,
                params: fparams,
                body,
            } => {
                walk(body, fparams.is_none(), &params, &mut occ);
                // A use inside a function body is at the top only where
                // the function's own result is.
                Some(name.name.as_str())
            }
            StmtKind::Game { board, turns, .. } => {
                walk(board, false, &params, &mut occ);
                turns.iter().for_each(|t| walk(t, true, &params, &mut occ));
                None
            }
            StmtKind::Claim { lhs, rhs, .. } => {
                walk(lhs, false, &params, &mut occ);
                walk(rhs, false, &params, &mut occ);
                None
            }
            StmtKind::Piece { .. } | StmtKind::Import { .. } => None,
        };
        for (w, top) in occ {
            // A name can hide inside a run-on word (`xxx`): such a use counts
            // as not at the top. A word that is itself a name is that name.
            let is_name = defs.contains(&w);
            for d in &defs {
                if w == *d {
                    uses.push((owner, d, top));
                    used.insert(d);
                } else if !is_name && w.contains(d) {
                    uses.push((owner, d, false));
                }
            }
        }
    }
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
            .moved(&shift);
        for gm in gp.members() {
            let body = Term::rule(&Term::fragment(guard.clone()), &Term::fragment(gm.moved(&shift)));
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
fn alternatives(v: &[Term]) -> Term {
    let (first, rest) = v.split_first().expect("at least one alternative");
    rest.iter().fold(first.clone(), |acc, t| Term::alt(&acc, t))
}

/// Flattens a chain of `|`.
fn flatten(t: &Term, out: &mut Vec<Term>) {
    match t.node() {
        Node::Alt([a, b]) => {
            flatten(a, out);
            flatten(b, out);
        }
        _ => out.push(t.clone()),
    }
}

/// Step 1 on a term in a position where no POI is bound: unanchored rules
/// become binders, and binders on one cell side by side merge into one.
pub fn hoist(t: &Term) -> Term {
    match t.node() {
        Node::Rule([f, g]) => as_binders(f, g).unwrap_or_else(|| t.clone()),
        Node::Alt(..) => {
            let mut items = vec![];
            flatten(t, &mut items);
            let mut merged: Vec<Term> = vec![];
            for item in items.iter().map(hoist) {
                let mut parts = vec![];
                flatten(&item, &mut parts);
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

/// Step 2: the cheapest term the laws reach from `t`.
fn saturate(t: &Term, rules: &Rules, options: &SimplifyOptions, named: &HashMap<String, Cost>) -> Term {
    let runner: Runner<_, Algebra> = Runner::new(Algebra::default())
        .with_iter_limit(options.iter_limit)
        .with_node_limit(options.node_limit)
        .with_time_limit(options.time_limit)
        .with_expr(&to_expr(t))
        .run(&rules.rewrites);
    let root = runner.roots[0];
    let work = Work {
        egraph: &runner.egraph,
        named,
    };
    let (_, best) = Extractor::new(&runner.egraph, work).find_best(root);
    let best = from_expr(&best);
    // Rebuilt through the core constructors: the canonical form.
    best.substitute(&|_| None).unwrap_or(best)
}

/// Simplifies a rule file's text.
pub fn simplify_text(name: &str, text: &str, rules: &Rules, options: &SimplifyOptions) -> Result<Simplified, Diags> {
    let source = Source::new(name, text);
    let file = crate::parse::parse_file(text).map_err(|e| Diag::new(&source, e.span, e.message))?;
    let prog = Program::from_text(name, text)?;
    let top = top_level_definitions(&file);
    // Each definition is rewritten on its own, with the move definitions
    // it names left as names: the rewrite stays local and the result
    // still reads in the file's own words. A name costs what its body
    // does.
    let mut named: HashMap<String, Cost> = prog
        .definitions()
        .filter(|(_, t)| t.sort() == Sort::Move)
        .map(|(n, t)| (n.to_string(), cost_over(t, &HashMap::new())))
        .collect();
    let mut changes = vec![];
    let mut texts: HashMap<String, String> = HashMap::new();
    // Other definitions (patterns, fragments) are named where their exact
    // terms occur.
    let names: HashMap<Term, String> = prog
        .definitions()
        .filter(|(_, t)| t.sort() != Sort::Move)
        .map(|(n, t)| (t.clone(), n.to_string()))
        .collect();
    for (name, t) in prog.definitions() {
        if t.sort() != Sort::Move {
            continue;
        }
        let Some(written) = prog.definition_over_names(name) else {
            continue;
        };
        let hoisted = top.contains(name);
        let start = if hoisted { hoist(&written) } else { written.clone() };
        let best = saturate(&start, rules, options, &named);
        let (before, after) = (cost_over(&written, &named).work, cost_over(&best, &named).work);
        // Only a real gain changes a definition: ties and rounding leave
        // it as written.
        if after >= before * 0.99 {
            continue;
        }
        // What the new body means, its names expanded.
        let meaning = best.substitute(&|m| prog.definition(&m.name).cloned()).map_err(|e| {
            Diag::new(
                &source,
                Default::default(),
                format!("`{name}` no longer elaborates: {e:?}"),
            )
        })?;
        named.insert(name.to_string(), cost_over(&meaning, &HashMap::new()));
        texts.insert(
            name.to_string(),
            crate::core::print::with_names(&best, &|u| (*u != best).then(|| names.get(u).cloned()).flatten()),
        );
        changes.push(Change {
            name: name.to_string(),
            before: t.clone(),
            after: meaning,
            cost_before: before,
            cost_after: after,
            hoisted: hoisted && hoist(&written) != written,
        });
    }
    let mut edits: Vec<(crate::parse::ast::Span, String)> = vec![];
    for s in &file.stmts {
        if let StmtKind::Def {
            name,
            params: None,
            body,
        } = &s.kind
        {
            if let Some(text) = texts.get(&name.name) {
                edits.push((body.span, text.clone()));
            }
        }
    }
    let mut out = text.to_string();
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    for (span, new) in edits {
        out.replace_range(span.start..span.end, &new);
    }
    Ok(Simplified { text: out, changes })
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

    #[test]
    fn definitions_are_rewritten_in_terms_of_the_others() {
        let laws = crate::laws::Laws::bundled();
        let rules = Rules::new(&laws);
        let text = "
step = ♘ -> . + uur♘
both = step | R step
game g(♘..;...;...) = both
";
        let out = simplify_text("t.alg", text, &rules, &SimplifyOptions::default()).unwrap();
        // `step` becomes a binder; `both` still names it.
        assert!(out.text.contains("step = %♘:"), "{}", out.text);
        assert!(out.text.contains("both = step | R step"), "{}", out.text);
        assert_eq!(out.changes.len(), 1);
    }
}
