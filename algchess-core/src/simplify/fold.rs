//! Folding: a simplified term as a syntax tree in the file's own words.
//! Where a subterm is what a definition or a function call stands for, the
//! name or the call is built in its place, so that `in_any_direction(M)`
//! is not written out four times. The tree is the one the parser reads
//! from what `ir::print` writes (`parse/from_term.rs`); the file's own arguments
//! are its own trees, as read.
//!
//! A function's body is elaborated with its parameters as metavariables;
//! a subterm is matched against it, binding each parameter where the
//! body's structure survives elaboration and trying the arguments the file
//! itself passes where it does not (`slide(u)`: the movement is folded into
//! the fragments). Every fold is checked: the call, elaborated, is exactly
//! the subterm.

use crate::elab::Program;
use crate::ir::print::Spell;
use crate::ir::{Content, Node, PieceId, Pieces, Sort, Term};
use crate::parse::ast::{Expr, ExprKind, File, Ident, StmtKind};
use std::cell::RefCell;
use std::collections::HashMap;

/// Sorts a parameter may have; each function is tried at every
/// combination its body elaborates with.
const SORTS: [Sort; 5] = [Sort::Move, Sort::Pattern, Sort::Fragment, Sort::Movement, Sort::Cell];
/// At most this many combinations of arguments are tried per function.
const MAX_TRIES: usize = 64;

/// A function's body over metavariables `0`, `1`, ... for its parameters.
struct Shape {
    name: String,
    params: Vec<Term>,
    body: Term,
}

pub(super) struct Folder<'a> {
    prog: &'a Program,
    /// Non-move definitions by their terms.
    consts: HashMap<Term, String>,
    shapes: Vec<Shape>,
    /// Per function and parameter, the arguments the file passes, with
    /// their trees as read.
    args: HashMap<(String, usize), Vec<(Term, Expr)>>,
    /// Calls made only of the file's own arguments, by their terms: the
    /// function and the call.
    instances: HashMap<Term, (String, Expr)>,
    /// What each subterm was built as, once found.
    memo: RefCell<HashMap<(Term, String), Option<Expr>>>,
    /// How the file spells its pieces, where not by their glyphs.
    spelling: HashMap<PieceId, String>,
}

/// Every piece the file writes, as written: in declarations, in terms and
/// as binders' cells (with a name that is not a piece among them).
fn written_pieces(file: &File) -> Vec<&str> {
    let mut out = vec![];
    for s in &file.stmts {
        if let StmtKind::Piece { white, black } = &s.kind {
            out.extend(white.iter().chain(black.iter().flatten()).map(|i| i.name.as_str()));
        }
        for e in s.exprs() {
            e.visit(|x| match &x.kind {
                ExprKind::Piece(p) => out.push(p),
                ExprKind::Bind(c, _) => out.push(&c.name),
                _ => {}
            });
        }
    }
    out
}

/// The spelling of each piece the file writes as it most often writes it;
/// a piece it never writes is spelled in ASCII when the file mostly
/// spells pieces so (a black piece only reached by `mirrored`).
fn spellings(file: &File, pieces: &Pieces) -> HashMap<PieceId, String> {
    let mut counts: HashMap<PieceId, HashMap<String, usize>> = HashMap::new();
    let (mut ascii, mut all) = (0, 0);
    for s in written_pieces(file) {
        let Some(p) = pieces.lookup(s) else { continue };
        all += 1;
        ascii += usize::from(Some(s) == pieces.ascii(p));
        *counts.entry(p).or_default().entry(s.to_string()).or_default() += 1;
    }
    let written: Vec<PieceId> = counts.keys().copied().collect();
    let mut out: HashMap<PieceId, String> = counts
        .into_iter()
        .filter_map(|(p, c)| {
            // A tie goes to the glyph.
            let best = c.into_iter().max_by_key(|(s, n)| (*n, s == pieces.glyph(p)))?.0;
            (best != pieces.glyph(p)).then_some((p, best))
        })
        .collect();
    if 2 * ascii > all {
        for p in pieces.all().filter(|p| !written.contains(p)) {
            if let Some(a) = pieces.ascii(p) {
                out.insert(p, a.to_string());
            }
        }
    }
    out
}

fn param_var(i: usize, sort: Sort) -> Term {
    Term::var(&format!("\u{1}{i}"), sort)
}

fn param_index(t: &Term) -> Option<usize> {
    match t.node() {
        Node::Var(m) => m.name.strip_prefix('\u{1}')?.parse().ok(),
        _ => None,
    }
}

impl<'a> Folder<'a> {
    pub(super) fn new(prog: &'a Program, file: &File, text: &str) -> Folder<'a> {
        let consts = prog
            .definitions()
            .filter(|(_, t)| t.sort() != Sort::Move)
            .map(|(n, t)| (t.clone(), n.to_string()))
            .collect();
        let mut shapes = vec![];
        for (name, n) in prog.functions() {
            if n > 3 {
                continue;
            }
            let mut combo = vec![0usize; n];
            loop {
                let params: Vec<Term> = combo.iter().enumerate().map(|(i, &s)| param_var(i, SORTS[s])).collect();
                if let Some(body) = prog.function_over_names(name, &params) {
                    shapes.push(Shape {
                        name: name.to_string(),
                        params,
                        body,
                    });
                }
                // The next combination of sorts, counting in base 5.
                let Some(k) = combo.iter().position(|&s| s + 1 < SORTS.len()) else {
                    break;
                };
                combo[k] += 1;
                combo[..k].iter_mut().for_each(|s| *s = 0);
            }
        }
        let mut args: HashMap<(String, usize), Vec<(Term, Expr)>> = HashMap::new();
        let mut calls = vec![];
        for s in &file.stmts {
            if let StmtKind::Def { body, .. } = &s.kind {
                calls_in(body, &mut calls);
            }
        }
        for (f, es) in calls {
            for (i, e) in es.iter().enumerate() {
                let src = &text[e.span.start..e.span.end];
                // Arguments that name a function's own parameters do not
                // elaborate on their own and are left out.
                if let Some(t) = prog.expr_over_names(src) {
                    let v = args.entry((f.to_string(), i)).or_default();
                    if !v.iter().any(|(u, _)| *u == t) {
                        v.push((t, e.clone()));
                    }
                }
            }
        }
        let mut instances = HashMap::new();
        for (name, n) in prog.functions() {
            let choices: Vec<&Vec<(Term, Expr)>> = (0..n).filter_map(|i| args.get(&(name.to_string(), i))).collect();
            if choices.len() != n || choices.iter().map(|c| c.len()).product::<usize>() > MAX_TRIES {
                continue;
            }
            let mut pick = vec![0usize; n];
            loop {
                let terms: Vec<Term> = pick.iter().zip(&choices).map(|(&k, c)| c[k].0.clone()).collect();
                if let Some(t) = prog.function_over_names(name, &terms) {
                    instances.entry(t).or_insert_with(|| {
                        let args = pick.iter().zip(&choices).map(|(&k, c)| c[k].1.clone()).collect();
                        (name.to_string(), call(name, args))
                    });
                }
                let Some(k) = pick.iter().zip(&choices).position(|(&p, c)| p + 1 < c.len()) else {
                    break;
                };
                pick[k] += 1;
                pick[..k].iter_mut().for_each(|p| *p = 0);
            }
        }
        Folder {
            prog,
            consts,
            shapes,
            args,
            instances,
            memo: RefCell::new(HashMap::new()),
            spelling: spellings(file, &prog.pieces),
        }
    }

    /// `t` as a syntax tree with names and calls folded back in; `own` is
    /// the name of the definition being built, which is not folded into
    /// itself.
    pub(super) fn tree(&self, t: &Term, own: &str) -> Expr {
        let spell = |c: &Content| match c {
            Content::Piece(p) => self.spelling.get(p).cloned(),
            Content::Empty => None,
        };
        crate::parse::from_term::with_names(t, &|u| self.name_of(u, own), &Spell::with(&self.prog.pieces, &spell))
    }

    fn name_of(&self, t: &Term, own: &str) -> Option<Expr> {
        if let Some(n) = self.consts.get(t).filter(|n| *n != own) {
            return Some(Expr::built(ExprKind::Word(n.clone())));
        }
        if matches!(t.node(), Node::Var(_) | Node::Cell(_) | Node::Mov(_) | Node::Num(_)) {
            return None;
        }
        if let Some((_, call)) = self.instances.get(t).filter(|(f, _)| f != own) {
            return Some(call.clone());
        }
        let key = (t.clone(), own.to_string());
        if let Some(found) = self.memo.borrow().get(&key) {
            return found.clone();
        }
        let found = self.shapes.iter().find_map(|s| self.call(s, t, own));
        self.memo.borrow_mut().insert(key, found.clone());
        found
    }

    /// `t` as a call of the function of shape `s`, if it is one.
    fn call(&self, s: &Shape, t: &Term, own: &str) -> Option<Expr> {
        if s.name == own {
            return None;
        }
        let mut bound: Vec<Option<Term>> = vec![None; s.params.len()];
        // Calls of the file's own arguments only are looked up, not
        // matched.
        if !bind(&s.body, t, &mut bound) || bound.iter().all(Option::is_none) {
            return None;
        }
        // Parameters the structure did not bind take the file's own
        // arguments, every combination up to `MAX_TRIES`.
        let choices: Vec<Vec<(Term, Option<Expr>)>> = bound
            .iter()
            .enumerate()
            .map(|(i, b)| match b {
                Some(x) => vec![(x.clone(), None)],
                None => self
                    .args
                    .get(&(s.name.clone(), i))
                    .map(|v| v.iter().map(|(x, e)| (x.clone(), Some(e.clone()))).collect())
                    .unwrap_or_default(),
            })
            .collect();
        if choices.iter().any(Vec::is_empty) || choices.iter().map(Vec::len).product::<usize>() > MAX_TRIES {
            return None;
        }
        let mut pick = vec![0usize; choices.len()];
        loop {
            let args: Vec<&(Term, Option<Expr>)> = pick.iter().zip(&choices).map(|(&k, c)| &c[k]).collect();
            let fits = args.iter().zip(&s.params).all(|((a, _), p)| a.sort().fits(p.sort()));
            if fits {
                let terms: Vec<Term> = args.iter().map(|(a, _)| a.clone()).collect();
                if self.prog.function_over_names(&s.name, &terms).as_ref() == Some(t) {
                    let args = args
                        .iter()
                        .map(|(a, e)| e.clone().unwrap_or_else(|| self.tree(a, own)))
                        .collect();
                    return Some(call(&s.name, args));
                }
            }
            let k = pick.iter().zip(&choices).position(|(&p, c)| p + 1 < c.len())?;
            pick[k] += 1;
            pick[..k].iter_mut().for_each(|p| *p = 0);
        }
    }
}

/// Binds the parameters of `pattern` to the subterms of `t` in their
/// places, where the two have the same structure; false on a conflict.
fn bind(pattern: &Term, t: &Term, bound: &mut [Option<Term>]) -> bool {
    if let Some(i) = param_index(pattern) {
        return match &bound[i] {
            Some(b) => b == t,
            None => {
                bound[i] = Some(t.clone());
                true
            }
        };
    }
    if pattern.node().map_children(|_| ()) != t.node().map_children(|_| ()) {
        // Elaboration folded the structure here: what binds below is
        // found another way, and the final check decides.
        return true;
    }
    pattern
        .node()
        .children()
        .iter()
        .zip(t.node().children())
        .all(|(p, u)| bind(p, u, bound))
}

/// `f(args)`.
fn call(f: &str, args: Vec<Expr>) -> Expr {
    Expr::built(ExprKind::Call(Ident::built(f), args))
}

/// Every call in `e`, with its arguments.
fn calls_in<'e>(e: &'e Expr, out: &mut Vec<(&'e str, &'e [Expr])>) {
    if let ExprKind::Call(f, args) = &e.kind {
        out.push((&f.name, args));
    }
    e.children().into_iter().for_each(|x| calls_in(x, out));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A definition's body, over the names of the others, built as a tree
    /// by the folder and printed: once on its own, once in its place in
    /// the file, as `fmt` writes it.
    fn folded(text: &str, name: &str) -> (String, String) {
        let prog = Program::from_text("t.alg", text).unwrap();
        let mut file = crate::parse::parse_file(text).unwrap();
        let folder = Folder::new(&prog, &file, text);
        let body = folder.tree(&prog.definition_over_names(name).unwrap(), name);
        // Built, not read: only the file's own arguments keep their spans.
        assert_eq!(body.span, crate::diag::Span::default());
        let printed = crate::parse::print_expr(&body);
        *super::super::version::body_mut(&mut file, name).unwrap() = body;
        (printed, crate::parse::format_file(&file, text))
    }

    #[test]
    fn a_function_call_is_built_in_its_place() {
        let text = "piece 'N / 'n
four(M) = M | R M | R² M | R³ M
jump = 'N + uur. -> . + uur'N
knight = four(jump)
again = jump | R jump | R² jump | R³ jump
game g('N..;...;...) = knight
";
        // The file's own call, and the same call found in a body that
        // spells it out.
        let (printed, file) = folded(text, "again");
        assert_eq!(printed, "four(jump)");
        assert!(file.contains("\nagain = four(jump)\n"), "{file}");
        assert_eq!(folded(text, "knight").0, "four(jump)");
    }

    #[test]
    fn a_definition_name_is_built_in_its_place() {
        let text = "piece 'K / 'k
free = . | 'k
land = free -> 'K
step = ('K -> .) ur land
game g('K..;...;...) = step
";
        // The pattern `free` is named; the move `land` stays a name.
        let (printed, file) = folded(text, "land");
        assert_eq!(printed, "free -> 'K");
        assert!(file.contains("\nland = free -> 'K\n"), "{file}");
        assert_eq!(folded(text, "step").0, "('K -> .) ur land");
    }

    #[test]
    fn pieces_are_spelled_as_the_file_spells_them() {
        let id = |s: &str| PieceId::chess(s).unwrap();
        // Mostly ASCII: pieces it never writes are spelled in ASCII too.
        let spellings = |text: &str| spellings(&crate::parse::parse_file(text).unwrap(), &Pieces::chess());
        let ascii = spellings("a = 'N + u'b | ♔ + u'b\nb = %'R: nil // ♛ ♛ ♛");
        assert_eq!(ascii.get(&id("♘")).map(String::as_str), Some("'N"));
        assert_eq!(ascii.get(&id("♝")).map(String::as_str), Some("'b"));
        assert_eq!(ascii.get(&id("♜")).map(String::as_str), Some("'r"));
        // A glyph it writes stays a glyph; comments do not count.
        assert_eq!(ascii.get(&id("♔")), None);
        assert_eq!(ascii.get(&id("♛")).map(String::as_str), Some("'q"));
        // Mostly glyphs: only what it writes in ASCII is.
        let glyphs = spellings("a = ♘ + u♝ | ♔ + u'b");
        assert_eq!(glyphs.get(&id("♝")), None, "two spellings: the glyph wins the tie");
        assert_eq!(glyphs.get(&id("♜")), None);
        assert_eq!(spellings("a = ♘ + u'b").get(&id("♝")).map(String::as_str), Some("'b"));
    }
}
