//! Elaboration of expressions: names expanded, words split, sorts checked,
//! and the cheap algebra folded by the core constructors.

use super::metas::{meta_sort, META_TABLE};
use super::{Def, Program};
use crate::diag::{Diag, Source};
use crate::geometry::{Movement, Square, MAX_SHIFT};
use crate::ir::{Bounds, Cell, Content, GlueError, Node, PieceId, Sort, Term, MAX_DEPTH};
use crate::notation::{self, Notation};
use crate::parse::ast::{CountArg, Expr, ExprKind, Ident, PostOp, Span};
use std::cell::RefCell;
use std::collections::HashMap;

/// Why elaboration stopped: a new error, or one already reported where a
/// broken definition was defined.
#[derive(Debug)]
pub(crate) enum Abort {
    Error(Diag),
    Poisoned,
}

impl From<Diag> for Abort {
    fn from(d: Diag) -> Abort {
        Abort::Error(d)
    }
}

pub(crate) type Res<T> = Result<T, Abort>;

/// Names in scope at a point of a source text.
#[derive(Clone)]
pub(crate) struct Scope {
    pub src: usize,
    /// Function parameters, bound to their elaborated arguments.
    pub vars: im::HashMap<String, Term>,
    /// Whether unknown single letters are metavariables (in claims).
    pub metas: bool,
}

pub(crate) struct Elab<'a> {
    pub prog: &'a Program,
    /// Definitions elaborated so far; `None` marks a broken one.
    pub done: RefCell<HashMap<String, Option<Term>>>,
    /// Definitions being expanded, to report recursion.
    pub stack: RefCell<Vec<String>>,
    /// Names compared with unknown names for a "did you mean", at most
    /// [`SUGGESTED`] in all.
    pub suggested: std::cell::Cell<usize>,
}

/// The comparisons of names one elaboration spends on "did you mean"
/// (about half a second): each unknown name is compared with every
/// definition, so twenty thousand unknown names among as many definitions
/// would take minutes, and only the first errors are shown.
const SUGGESTED: usize = 1_000_000;

/// A word's parts after splitting, such as `uur♚`'s `uur` into `u u r`.
enum Part {
    Term(Term),
    Def(String),
}

impl<'a> Elab<'a> {
    fn source(&self, sc: &Scope) -> &Source {
        &self.prog.sources[sc.src]
    }

    fn diag(&self, sc: &Scope, span: Span, msg: impl Into<String>) -> Diag {
        Diag::new(self.source(sc), span, msg)
    }

    /// The term a definition stands for, elaborated once.
    pub(super) fn definition(&self, name: &str, use_sc: &Scope, use_span: Span) -> Res<Term> {
        if let Some(done) = self.done.borrow().get(name) {
            return done.clone().ok_or(Abort::Poisoned);
        }
        let def: &Def = &self.prog.defs[name];
        if let Some(pos) = self.stack.borrow().iter().position(|n| n == name) {
            let cycle: Vec<String> = self.stack.borrow()[pos..].to_vec();
            return Err(self
                .diag(
                    use_sc,
                    use_span,
                    format!("recursive definition: {} -> {name}", cycle.join(" -> ")),
                )
                .label("used here, inside its own definition")
                .help("definitions stand for their bodies; they cannot refer to themselves")
                .into());
        }
        self.stack.borrow_mut().push(name.to_string());
        let sc = Scope {
            src: def.src,
            vars: im::HashMap::new(),
            metas: false,
        };
        let result = self.expr(&sc, &def.body);
        self.stack.borrow_mut().pop();
        match result {
            Ok(t) => {
                self.done.borrow_mut().insert(name.to_string(), Some(t.clone()));
                Ok(t)
            }
            Err(e) => {
                // Only the outermost expansion records the failure, so the
                // error is reported once, at the definition that has it.
                if self.stack.borrow().is_empty() {
                    self.done.borrow_mut().insert(name.to_string(), None);
                }
                Err(e)
            }
        }
    }

    pub(super) fn expr(&self, sc: &Scope, e: &Expr) -> Res<Term> {
        let t = self.node(sc, e)?;
        if t.depth() > MAX_DEPTH {
            return Err(self
                .diag(sc, e.span, format!("this term nests more than {MAX_DEPTH} levels deep"))
                .help("definitions expand in place; split the move into fewer nested parts")
                .into());
        }
        Ok(t)
    }

    fn node(&self, sc: &Scope, e: &Expr) -> Res<Term> {
        match &e.kind {
            ExprKind::Piece(p) => Ok(Term::fragment(crate::ir::Fragment::single(crate::ir::Cell::Is(
                Content::Piece(self.piece(sc, p, e.span)?),
            )))),
            ExprKind::Dot => Ok(Term::fragment(crate::ir::Fragment::single(crate::ir::Cell::EMPTY))),
            ExprKind::Hash => Ok(Term::fragment(crate::ir::Fragment::single(crate::ir::Cell::Off))),
            ExprKind::Percent => Ok(Term::fragment(crate::ir::Fragment::single(crate::ir::Cell::Poi))),
            ExprKind::Num(0) => Ok(Term::fragment(crate::ir::Fragment::empty())),
            ExprKind::Num(1) => Ok(Term::movement(Movement::IDENTITY)),
            ExprKind::Num(n) => Err(self
                .diag(sc, e.span, format!("`{n}` is not a term"))
                .help("as a term, `0` is the empty fragment and `1` the identity movement")
                .into()),
            ExprKind::Nil => Ok(Term::nil()),
            ExprKind::Fail => Ok(Term::fail()),
            ExprKind::Paren(inner) => self.expr(sc, inner),
            ExprKind::Not(inner) => {
                let t = self.expr(sc, inner)?;
                if t.sort() != Sort::Move {
                    return Err(self
                        .diag(sc, inner.span, format!("`not` tests a move, not a {}", t.sort()))
                        .label(format!("a {}", t.sort()))
                        .into());
                }
                Ok(Term::not(&t))
            }
            ExprKind::Notation(name, text) => {
                let lowered = self.notation(sc, name, text, e.span)?;
                self.expr(sc, &lowered)
            }
            ExprKind::Word(_) | ExprKind::Juxt(..) | ExprKind::Call(..) | ExprKind::Post(..) => {
                let items = self.items(sc, e)?;
                self.juxtapose(sc, items)
            }
            ExprKind::Semi(..) => {
                // `a;b;c` is `a + u(b + u c)`: the rows, glued at once.
                let mut rows = vec![];
                let mut rest = e;
                while let ExprKind::Semi(a, b) = &rest.kind {
                    rows.push(&**a);
                    rest = b;
                }
                rows.push(rest);
                let mut terms = vec![];
                for r in rows {
                    let t = self.expr(sc, r)?;
                    self.want_pattern(sc, &t, r.span, "`;`")?;
                    terms.push((t, r.span));
                }
                let (last, last_span) = terms.pop().expect("two rows at least");
                Ok(self
                    .glue_shifted(sc, Movement::U, terms.into_iter().rev(), last, last_span)?
                    .0)
            }
            ExprKind::Plus(a, b) => {
                let (ta, tb) = (self.expr(sc, a)?, self.expr(sc, b)?);
                self.want_pattern(sc, &ta, a.span, "`+`")?;
                self.want_pattern(sc, &tb, b.span, "`+`")?;
                self.glue(sc, e.span, &ta, &tb)
            }
            ExprKind::Bar(a, b) => {
                let (ta, tb) = (self.expr(sc, a)?, self.expr(sc, b)?);
                match (ta.sort(), tb.sort()) {
                    (Sort::Move, Sort::Move) => Ok(Term::alt(&ta, &tb)),
                    (x, y) if x.fits(Sort::Pattern) && y.fits(Sort::Pattern) => Ok(Term::union(&ta, &tb)),
                    (x, y) => Err(self
                        .diag(
                            sc,
                            a.span,
                            format!("`|` joins two moves or two patterns, not a {x} and a {y}"),
                        )
                        .label(format!("a {x}"))
                        .note(b.span, format!("a {y}"))
                        .into()),
                }
            }
            ExprKind::Arrow(a, b) => {
                let (ta, tb) = (self.expr(sc, a)?, self.expr(sc, b)?);
                self.want_pattern(sc, &ta, a.span, "`->`")?;
                self.want_pattern(sc, &tb, b.span, "`->`")?;
                Ok(Term::rule(&ta, &tb))
            }
            ExprKind::Bind(cell, body) => {
                let c = self.binder_cell(sc, cell)?;
                let tb = self.expr(sc, body)?;
                if tb.sort() != Sort::Move {
                    return Err(self
                        .diag(
                            sc,
                            body.span,
                            format!("a binder's body must be a move, not a {}", tb.sort()),
                        )
                        .label(format!("a {}", tb.sort()))
                        .into());
                }
                Ok(Term::bind(&c, &tb))
            }
        }
    }

    fn piece(&self, sc: &Scope, name: &str, span: Span) -> Res<PieceId> {
        self.prog.pieces.lookup(name).ok_or_else(|| {
            let d = self.diag(sc, span, format!("unknown piece `{name}`"));
            match self.nearest_piece(name) {
                Some(near) => d.help(format!(
                    "did you mean `{near}`? (a new piece is declared with a colour twin first, as in `piece {name} / ...`)"
                )),
                None => d.help(format!(
                    "declare it with a colour twin first, as in `piece {name} / ...`"
                )),
            }
            .into()
        })
    }

    /// The spelling of a known piece nearest to `name`, a misspelled one:
    /// only names in ASCII (`'Camle` for `'Camel`) are compared, since any
    /// one glyph is one edit from any other.
    fn nearest_piece(&self, name: &str) -> Option<String> {
        let name = name.strip_prefix('\'')?;
        let pieces = &self.prog.pieces;
        let within = 1.max(name.chars().count() / 3);
        let mut best: Option<(usize, &str)> = None;
        for p in pieces.all() {
            for spelling in [Some(pieces.glyph(p)), pieces.ascii(p)].into_iter().flatten() {
                let Some(known) = spelling.strip_prefix('\'') else {
                    continue;
                };
                let dist = strsim::damerau_levenshtein(known, name)
                    .min(1 + strsim::damerau_levenshtein(&known.to_lowercase(), &name.to_lowercase()));
                if dist <= within && best.is_none_or(|(b, _)| dist < b) {
                    best = Some((dist, spelling));
                }
            }
        }
        best.map(|(_, s)| s.to_string())
    }

    fn binder_cell(&self, sc: &Scope, cell: &Ident) -> Res<Term> {
        if cell.name == "." {
            return Ok(Term::content(Content::Empty));
        }
        if let Some(p) = self.prog.pieces.lookup(&cell.name) {
            return Ok(Term::content(Content::Piece(p)));
        }
        if cell.name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            if let Some(t) = sc.vars.get(&cell.name) {
                if t.sort() == Sort::Cell {
                    return Ok(t.clone());
                }
                // A function's parameter given a piece (`move(P) = %P:
                // ...` called as `move(●)`): the argument is a one-cell
                // fragment at the origin, and names its piece or `.`.
                if let Node::Frag(f) = t.node() {
                    if let [(q, Cell::Is(c))] = f.cells().collect::<Vec<_>>()[..] {
                        if q == Square::ORIGIN {
                            return Ok(Term::content(c));
                        }
                    }
                }
            }
            if sc.metas && meta_sort(&cell.name) == Some(Sort::Cell) {
                return Ok(Term::var(&cell.name, Sort::Cell));
            }
            return Err(self
                .diag(
                    sc,
                    cell.span,
                    format!("a binder names a piece or `.`, and `{}` is neither", cell.name),
                )
                .into());
        }
        self.piece(sc, &cell.name, cell.span)
            .map(|p| Term::content(Content::Piece(p)))
    }

    fn want_pattern(&self, sc: &Scope, t: &Term, span: Span, op: &str) -> Res<()> {
        if t.sort().fits(Sort::Pattern) {
            return Ok(());
        }
        let mut d = self
            .diag(
                sc,
                span,
                format!("{op} needs fragments or patterns, but this is a {}", t.sort()),
            )
            .label(format!("a {}", t.sort()));
        if t.sort() == Sort::Movement {
            d = d.help("apply the movement to a fragment, as in `u.`");
        }
        Err(d.into())
    }

    /// `t`, unless it moves something more than `MAX_SHIFT` squares. The
    /// constructors leave a product of constant movements unfolded when it
    /// would leave that range; here that becomes an error, so no movement
    /// or fragment ever holds a wrapped coordinate.
    fn bounded(&self, sc: &Scope, span: Span, t: Term) -> Res<Term> {
        let constant = |t: &Term| matches!(t.node(), Node::Mov(_));
        let too_far = match t.node() {
            Node::Power([m], _) => m.is_closed(),
            Node::Compose([a, rest]) => {
                let mut pair = (a.clone(), rest.clone());
                loop {
                    let next = match pair.1.node() {
                        Node::Compose([b, c]) => (b.clone(), c.clone()),
                        _ => break constant(&pair.0) && constant(&pair.1),
                    };
                    if constant(&pair.0) && constant(&next.0) {
                        break true;
                    }
                    pair = next;
                }
            }
            Node::Apply([m, x]) => constant(m) && matches!(x.node(), Node::Apply([n, _]) if constant(n)),
            Node::Frag(f) => f.reach() > MAX_SHIFT,
            Node::Pat(p) => p.members().any(|f| f.reach() > MAX_SHIFT),
            _ => false,
        };
        if too_far {
            return Err(self
                .diag(
                    sc,
                    span,
                    format!("this moves something more than {MAX_SHIFT} squares along an axis"),
                )
                .help("movements and fragments stay within that many squares of the centre")
                .into());
        }
        Ok(t)
    }

    /// A notation literal such as `betza"NN"`, lowered into the algebra; its
    /// errors point into the literal's text.
    fn notation(&self, sc: &Scope, name: &Ident, text: &str, span: Span) -> Res<Expr> {
        let Some(n) = Notation::from_name(&name.name) else {
            let known: Vec<&str> = Notation::ALL.iter().map(|n| n.name()).collect();
            return Err(self
                .diag(sc, name.span, format!("unknown notation `{}`", name.name))
                .help(format!("the notations are {}", known.join(", ")))
                .into());
        };
        // The text starts after the name and its opening quote.
        let at = name.span.end + 1;
        notation::lower(n, text, span, self.prog.tiling).map_err(|ds| {
            let d = &ds.0[0];
            let mut out = self.diag(sc, Span::new(at + d.span.start, at + d.span.end), d.message.clone());
            if let Some(h) = &d.help {
                out = out.help(h.clone());
            }
            out.into()
        })
    }

    fn glue(&self, sc: &Scope, span: Span, a: &Term, b: &Term) -> Res<Term> {
        Term::glue(a, b).map_err(|e| {
            let help = match e {
                GlueError::Overlap(_) => "cells may not be glued on top of each other",
                GlueError::TwoPoi(..) => "a fragment has at most one `%`",
            };
            self.diag(sc, span, format!("cannot glue: {e}")).help(help).into()
        })
    }

    /// The terms standing side by side in `e`, with words split into their
    /// parts and postfix operators applied to the last part of a word.
    fn items(&self, sc: &Scope, e: &Expr) -> Res<Vec<(Term, Span)>> {
        match &e.kind {
            ExprKind::Juxt(v, _) => {
                let mut out = vec![];
                for x in v {
                    out.extend(self.items(sc, x)?);
                }
                Ok(out)
            }
            ExprKind::Word(w) => self.word(sc, w, e.span),
            ExprKind::Post(inner, op) => {
                let mut items = match &inner.kind {
                    ExprKind::Word(_) | ExprKind::Post(..) | ExprKind::Call(..) => self.items(sc, inner)?,
                    _ => vec![(self.expr(sc, inner)?, inner.span)],
                };
                let (last, span) = items.pop().expect("a word has a part");
                items.push((self.postfix(sc, &last, span, op, e.span)?, span.to(e.span)));
                Ok(items)
            }
            ExprKind::Call(f, args) => self.call(sc, f, args, e.span),
            _ => Ok(vec![(self.expr(sc, e)?, e.span)]),
        }
    }

    fn call(&self, sc: &Scope, f: &Ident, args: &[Expr], span: Span) -> Res<Vec<(Term, Span)>> {
        let def = (!sc.vars.contains_key(&f.name))
            .then(|| self.prog.defs.get(&f.name))
            .flatten();
        match def {
            Some(def) if def.params.is_some() => {
                let params = def.params.as_ref().unwrap();
                if params.len() != args.len() {
                    return Err(self
                        .diag(
                            sc,
                            span,
                            format!(
                                "`{}` takes {} argument(s), but {} were given",
                                f.name,
                                params.len(),
                                args.len()
                            ),
                        )
                        .into());
                }
                if self.stack.borrow().contains(&f.name) {
                    return Err(self
                        .diag(sc, f.span, format!("recursive function: `{}` calls itself", f.name))
                        .help("functions stand for their bodies; they cannot call themselves")
                        .into());
                }
                let mut vars = im::HashMap::new();
                for (p, a) in params.iter().zip(args) {
                    vars.insert(p.name.clone(), self.expr(sc, a)?);
                }
                let inner = Scope {
                    src: def.src,
                    vars,
                    metas: false,
                };
                self.stack.borrow_mut().push(f.name.clone());
                let result = self.expr(&inner, &def.body);
                self.stack.borrow_mut().pop();
                match result {
                    Ok(t) => Ok(vec![(t, span)]),
                    Err(Abort::Error(d)) if def.src == sc.src => {
                        Err(Abort::Error(d.note(span, format!("in this call of `{}`", f.name))))
                    }
                    Err(Abort::Error(d)) => {
                        let here = self
                            .diag(sc, span, format!("in this call of `{}`: {}", f.name, d.message))
                            .label(format!("the error is inside `{}`, at {}", f.name, d.location()));
                        Err(Abort::Error(here))
                    }
                    Err(e) => Err(e),
                }
            }
            None if f.name == "attacked_by" => Ok(vec![(self.attacked_by(sc, f, args, span)?, span)]),
            _ if args.len() == 1 => {
                // `u(♙)`, `R²(...)`, `x(...)`: a name or word applied by
                // juxtaposition to one parenthesised argument.
                let mut items = self.word(sc, &f.name, f.span)?;
                items.push((self.expr(sc, &args[0])?, args[0].span));
                Ok(items)
            }
            _ => Err(self
                .diag(sc, f.span, format!("`{}` is not a function", f.name))
                .help("define it with parameters, as in `name(X, Y) = ...`")
                .into()),
        }
    }

    /// The built-ins `black_pieces` and `white_pieces`: chess's pieces of
    /// that colour and the colour twins this file and its imports declare
    /// (`piece W / B`), so that a variant's new piece is an enemy without
    /// a list to keep up to date.
    pub(super) fn side(&self, w: &str) -> Option<Term> {
        let white = match w {
            "black_pieces" => false,
            "white_pieces" => true,
            _ => return None,
        };
        let chess = ["♚", "♛", "♜", "♝", "♞", "♟"].map(|p| PieceId::chess(p).expect("a chess piece"));
        let pieces = chess
            .iter()
            .chain(&self.prog.black)
            .map(|&b| if white { self.prog.pieces.twin(b) } else { b });
        let cells: Vec<Term> = pieces.map(|p| Term::content(Content::Piece(p))).collect();
        Some(cells[1..].iter().fold(cells[0].clone(), |acc, c| Term::union(&acc, c)))
    }

    /// The built-in `attacked_by(M, T)`: see [`super::attack`].
    fn attacked_by(&self, sc: &Scope, f: &Ident, args: &[Expr], span: Span) -> Res<Term> {
        let [m, t] = args else {
            return Err(self
                .diag(
                    sc,
                    span,
                    format!("`attacked_by` takes 2 arguments, but {} were given", args.len()),
                )
                .help("write `attacked_by(MOVES, PIECE)`: whether PIECE on the POI's square could be taken by MOVES")
                .into());
        };
        let moves = self.expr(sc, m)?;
        if moves.sort() != Sort::Move || !moves.is_closed() {
            return Err(self
                .diag(
                    sc,
                    m.span,
                    format!("`attacked_by` reads a closed move, but this is a {}", moves.sort()),
                )
                .into());
        }
        let target = self.expr(sc, t)?;
        let pieces: Option<Vec<Content>> = target.as_pattern().and_then(|p| {
            p.members()
                .map(|f| match f.cells().collect::<Vec<_>>()[..] {
                    [(q, crate::ir::Cell::Is(c @ Content::Piece(_)))] if q == crate::geometry::Square::ORIGIN => {
                        Some(c)
                    }
                    _ => None,
                })
                .collect()
        });
        let Some(pieces) = pieces else {
            return Err(self
                .diag(
                    sc,
                    t.span,
                    "`attacked_by` takes the pieces that may be taken: a piece or `A | B`",
                )
                .into());
        };
        super::attack::attacked_by(&moves, &pieces, &self.prog.pieces).map_err(|why| {
            self.diag(sc, f.span, format!("cannot read attacks off these moves: {why}"))
                .label("here")
                .into()
        })
    }

    fn postfix(&self, sc: &Scope, t: &Term, span: Span, op: &PostOp, op_span: Span) -> Res<Term> {
        if let PostOp::Pow(k, _) = op {
            if t.sort() != Sort::Movement {
                return Err(self
                    .diag(
                        sc,
                        span,
                        format!("powers apply to movements, but this is a {}", t.sort()),
                    )
                    .label(format!("a {}", t.sort()))
                    .help("to repeat a move k times, write `M{k}`")
                    .into());
            }
            return self.bounded(sc, span.to(op_span), Term::power(t, *k));
        }
        if t.sort() != Sort::Move {
            let mut d = self
                .diag(
                    sc,
                    op_span,
                    format!("repetition applies to moves, but this is a {}", t.sort()),
                )
                .label(format!("a {}", t.sort()));
            if *op == PostOp::Plus {
                d = d.help("to glue two fragments, put spaces around `+`, as in `f + g`");
            }
            return Err(d.into());
        }
        let count = |c: &CountArg| -> Res<Term> {
            match c {
                CountArg::Num(n) => u32::try_from(*n).map(|n| Term::raw(Node::Num(n))).map_err(|_| {
                    self.diag(
                        sc,
                        op_span,
                        format!("a repetition count must be between 0 and {}, not {n}", u32::MAX),
                    )
                    .into()
                }),
                CountArg::Name(i) if sc.metas && meta_sort(&i.name) == Some(Sort::Count) => {
                    Ok(Term::var(&i.name, Sort::Count))
                }
                CountArg::Name(i) => Err(self
                    .diag(sc, i.span, format!("`{}` is not a count", i.name))
                    .help("counts are numbers; in a law, `i`, `j` and `k` stand for any count")
                    .into()),
            }
        };
        let lit = |t: &Term| match t.node() {
            Node::Num(n) => Some(*n),
            _ => None,
        };
        let inf = Term::raw(Node::Inf);
        let (lo, hi) = match op {
            PostOp::Star => return Ok(Term::repeat(t, Bounds::STAR)),
            PostOp::Greedy => return Ok(Term::greedy(t)),
            PostOp::Plus => return Ok(Term::repeat(t, Bounds::PLUS)),
            PostOp::Opt => return Ok(Term::repeat(t, Bounds::OPT)),
            PostOp::Count(i) => {
                let i = count(i)?;
                (i.clone(), i)
            }
            PostOp::AtLeast(i) => (count(i)?, inf),
            PostOp::Range(i, j) | PostOp::Angle(i, j) => {
                let (i, j) = (count(i)?, count(j)?);
                if let (Some(a), Some(b)) = (lit(&i), lit(&j)) {
                    if b < a {
                        return Err(self
                            .diag(sc, op_span, format!("empty range: {b} is less than {a}"))
                            .help("write the smaller count first, as in `M{1,3}`")
                            .into());
                    }
                }
                (i, j)
            }
            PostOp::Pow(..) => unreachable!(),
        };
        Ok(Term::repeat_counts(t, &lo, &hi))
    }

    /// Resolves a word: a parameter, a definition, a movement word, a
    /// metavariable, or else a run of those written without spaces (the
    /// seed's `xxx` with `x` defined is `x x x`).
    fn word(&self, sc: &Scope, w: &str, span: Span) -> Res<Vec<(Term, Span)>> {
        if let Some(t) = sc.vars.get(w) {
            return Ok(vec![(t.clone(), span)]);
        }
        if let Some(def) = self.prog.defs.get(w) {
            if def.params.is_some() {
                return Err(self
                    .diag(
                        sc,
                        span,
                        format!("`{w}` is a function; call it with arguments, as in `{w}(...)`"),
                    )
                    .into());
            }
            return Ok(vec![(self.definition(w, sc, span)?, span)]);
        }
        if sc.metas {
            if let Some(sort) = meta_sort(w) {
                return Ok(vec![(Term::var(w, sort), span)]);
            }
        }
        if let Some(t) = self.side(w) {
            return Ok(vec![(t, span)]);
        }
        let splits = self.split(sc, w);
        match splits.len() {
            1 => {
                let mut out = vec![];
                let mut at = span.start;
                for (text, part) in splits.into_iter().next().unwrap() {
                    let pspan = Span::new(at, at + text.len());
                    at += text.len();
                    let t = match part {
                        Part::Term(t) => t,
                        Part::Def(name) => self.definition(&name, sc, pspan)?,
                    };
                    out.push((t, pspan));
                }
                Ok(out)
            }
            0 => {
                let mut d = self.diag(sc, span, format!("unknown name `{w}`"));
                let within = 2.max(w.len() / 4);
                let mut left = SUGGESTED.saturating_sub(self.suggested.get());
                let mut best: Option<(usize, &String)> = None;
                for k in self.prog.defs.keys().chain(sc.vars.keys()) {
                    if left == 0 {
                        break;
                    }
                    // Lengths that differ by more than `within` characters
                    // (of at most four bytes) never are.
                    if k.len().abs_diff(w.len()) > within * 4 {
                        continue;
                    }
                    left -= 1;
                    let dist = strsim::damerau_levenshtein(k, w);
                    if dist <= within && best.is_none_or(|(b, _)| dist < b) {
                        best = Some((dist, k));
                    }
                }
                self.suggested.set(SUGGESTED - left);
                let best = best.map(|(_, k)| k);
                if let Some(best) = best {
                    d = d.help(format!("did you mean `{best}`?"));
                } else if meta_sort(w).is_some() && !sc.metas {
                    d = d.help(format!(
                        "single letters are metavariables only in `theorem` and `axiom` claims ({META_TABLE})"
                    ));
                }
                Err(d.into())
            }
            _ => {
                let show = |s: &Vec<(String, Part)>| s.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(" ");
                Err(self
                    .diag(sc, span, format!("`{w}` can be read in more than one way"))
                    .help(format!(
                        "write `{}` or `{}` with spaces",
                        show(&splits[0]),
                        show(&splits[1])
                    ))
                    .into())
            }
        }
    }

    /// Every way (up to two) to read `w` as names and movement letters.
    fn split(&self, sc: &Scope, w: &str) -> Vec<Vec<(String, Part)>> {
        // Only names found inside the word can be among its parts.
        let mut names: Vec<(&str, Option<&Term>)> = sc
            .vars
            .iter()
            .filter(|(k, _)| w.contains(k.as_str()))
            .map(|(k, v)| (k.as_str(), Some(v)))
            .collect();
        // The definitions among the word's substrings, looked up one by one:
        // a scan of every definition per word would be quadratic in a file.
        let bounds: Vec<usize> = w.char_indices().map(|(i, _)| i).chain([w.len()]).collect();
        for (k, &i) in bounds.iter().enumerate() {
            for &j in bounds[k + 1..].iter().take_while(|&&j| j - i <= self.prog.longest_name) {
                if let Some((name, d)) = self.prog.defs.get_key_value(&w[i..j]) {
                    if d.params.is_none() && !names.iter().any(|(n, _)| *n == name.as_str()) {
                        names.push((name.as_str(), None));
                    }
                }
            }
        }
        fn go(
            tiling: crate::geometry::Tiling,
            sc: &Scope,
            names: &[(&str, Option<&Term>)],
            rest: &str,
            acc: &mut Vec<(String, Part)>,
            out: &mut Vec<Vec<(String, Part)>>,
            dead: &mut std::collections::HashSet<usize>,
        ) {
            // A tail that no reading ends is not tried again from another
            // start: without this, `xxx…xq` with `x` and `xx` defined takes
            // exponential time.
            if out.len() >= 2 || dead.contains(&rest.len()) {
                return;
            }
            if rest.is_empty() {
                out.push(acc.iter().map(|(t, p)| (t.clone(), p.clone_part())).collect());
                return;
            }
            let mut options: Vec<(String, Part)> = vec![];
            let c = rest.chars().next().unwrap();
            if let Some(m) = Movement::letter_on(c, tiling) {
                options.push((c.to_string(), Part::Term(Term::movement(m))));
            }
            // The seed's `m1` and `m0`: the identity and the empty fragment.
            match c {
                '1' => options.push(("1".into(), Part::Term(Term::movement(Movement::IDENTITY)))),
                '0' => options.push(("0".into(), Part::Term(Term::fragment(crate::ir::Fragment::empty())))),
                _ => {}
            }
            for (n, t) in names {
                if rest.starts_with(n) {
                    options.push((
                        n.to_string(),
                        match t {
                            Some(t) => Part::Term((*t).clone()),
                            None => Part::Def(n.to_string()),
                        },
                    ));
                }
            }
            if sc.metas {
                let numbered = rest.len() > 2 && rest.as_bytes()[1] == b'_' && rest.as_bytes()[2].is_ascii_digit();
                let len = if numbered {
                    2 + rest[2..].find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len() - 2)
                } else {
                    1
                };
                if let Some(sort) = meta_sort(&rest[..len]) {
                    if !names.iter().any(|(n, _)| *n == &rest[..len]) {
                        options.push((rest[..len].to_string(), Part::Term(Term::var(&rest[..len], sort))));
                    }
                }
            }
            let found = out.len();
            for (text, part) in options {
                let n = text.len();
                acc.push((text, part));
                go(tiling, sc, names, &rest[n..], acc, out, dead);
                acc.pop();
            }
            if out.len() == found {
                dead.insert(rest.len());
            }
        }
        let mut out = vec![];
        let mut dead = std::collections::HashSet::new();
        go(self.prog.tiling, sc, &names, w, &mut vec![], &mut out, &mut dead);
        out
    }

    /// Folds terms standing side by side, from the right: a movement applies
    /// to everything after it, fragments glue left to right (`fg = f + rg`),
    /// and moves run in sequence.
    fn juxtapose(&self, sc: &Scope, items: Vec<(Term, Span)>) -> Res<Term> {
        let mut iter = items.into_iter().rev();
        let (mut acc, mut acc_span) = iter.next().expect("at least one item");
        // Patterns side by side, gathered right to left and glued at once.
        let mut row: Vec<(Term, Span)> = vec![];
        for (t, span) in iter {
            if t.sort().fits(Sort::Pattern) && acc.sort().fits(Sort::Pattern) {
                row.push((t, span));
                continue;
            }
            (acc, acc_span) = self.glue_shifted(sc, Movement::R, row.drain(..), acc, acc_span)?;
            let whole = span.to(acc_span);
            acc = match (t.sort(), acc.sort()) {
                (Sort::Movement, Sort::Movement) => self.bounded(sc, whole, Term::compose(&t, &acc))?,
                (Sort::Movement, Sort::Cell) => {
                    self.bounded(sc, whole, Term::apply(&t, &acc.as_fragment_term(), &self.prog.pieces))?
                }
                (Sort::Movement, _) => self.bounded(sc, whole, Term::apply(&t, &acc, &self.prog.pieces))?,
                (a, b) if a.fits(Sort::Pattern) && b.fits(Sort::Pattern) => {
                    let right = Term::apply(&Term::movement(Movement::R), &acc.as_fragment_term(), &self.prog.pieces);
                    self.glue(sc, whole, &t, &right)?
                }
                (Sort::Move, Sort::Move) => Term::seq(&t, &acc),
                (a, b) => {
                    return Err(self
                        .diag(sc, span, format!("a {a} cannot stand next to a {b}"))
                        .label(format!("a {a}"))
                        .note(acc_span, format!("a {b}"))
                        .help(
                            "side by side, a movement applies to what follows, fragments and patterns glue \
                             left to right, and moves run in sequence",
                        )
                        .into());
                }
            };
            acc_span = whole;
        }
        Ok(self.glue_shifted(sc, Movement::R, row.drain(..), acc, acc_span)?.0)
    }

    /// `a b c` with `step` between neighbours: `a + step(b + step c)`, the
    /// terms given right to left after the rightmost, `last`. Each term is
    /// moved once, by its own power of `step`, and the moved terms are
    /// glued in halves, so a row of n cells costs O(n log n), not O(n²);
    /// the result is the same term (gluing is associative).
    fn glue_shifted(
        &self,
        sc: &Scope,
        step: Movement,
        rest: impl ExactSizeIterator<Item = (Term, Span)>,
        last: Term,
        last_span: Span,
    ) -> Res<(Term, Span)> {
        let n = rest.len() as i32;
        let shift = |k: i32| Term::movement(Movement::translation(step.shift.x * k, step.shift.y * k));
        let mut row: Vec<(Term, Span)> = rest
            .enumerate()
            .map(|(j, (t, span))| {
                (
                    Term::apply(&shift(n - 1 - j as i32), &t.as_fragment_term(), &self.prog.pieces),
                    span,
                )
            })
            .collect();
        row.reverse();
        row.push((
            Term::apply(&shift(n), &last.as_fragment_term(), &self.prog.pieces),
            last_span,
        ));
        self.glue_halves(sc, &row)
    }

    /// The terms of `row` glued, left to right, a half at a time.
    fn glue_halves(&self, sc: &Scope, row: &[(Term, Span)]) -> Res<(Term, Span)> {
        if let [one] = row {
            return Ok(one.clone());
        }
        let (left, right) = row.split_at(row.len() / 2);
        let (a, a_span) = self.glue_halves(sc, left)?;
        let (b, b_span) = self.glue_halves(sc, right)?;
        let whole = a_span.to(b_span);
        Ok((self.glue(sc, whole, &a, &b)?, whole))
    }
}

impl Part {
    fn clone_part(&self) -> Part {
        match self {
            Part::Term(t) => Part::Term(t.clone()),
            Part::Def(n) => Part::Def(n.clone()),
        }
    }
}
