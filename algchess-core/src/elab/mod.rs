//! Elaboration: syntax trees to core terms.
//!
//! A rule file's `piece` declarations are added to the program's own
//! registry (`Pieces`) first, then every
//! definition is expanded and sort-checked, then every claim. Function bodies
//! are checked at each call, since their sorts depend on the arguments.

mod attack;
mod cond;
mod ends;
mod expr;
mod gather;
mod loader;
mod metas;
mod statements;

pub(crate) use attack::{attacked_by, moved_pieces, AttackError};
pub(crate) use cond::{Condition, Predicate};
pub(crate) use ends::{Counting, Ends, Material, MoveRule, Over, PointSplit, Stuck, Verdict};
pub use loader::{Loader, NoFiles};

use crate::diag::{Diag, Diags, Source};
use crate::geometry::Tiling;
use crate::ir::{ClaimKind, Content, Pieces, Rel, Sort, Term};
use crate::memory::MemoryLimit;
use crate::parse;
use crate::parse::ast::{Expr, Ident, Span};
use expr::{Abort, Elab, Scope};
use gather::{declared_grid, Imports};
use statements::Statements;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How deep imports may nest (a file importing one that imports another,
/// and so on): every tool reads each file of a chain, and some read the
/// chain once for each of its files, so a chain 10,000 files deep would
/// be read 50 million times.
pub(crate) const MAX_IMPORT_DEPTH: usize = 64;

#[derive(Clone)]
pub(crate) struct Def {
    pub src: usize,
    pub name: Ident,
    pub params: Option<Vec<Ident>>,
    pub body: Expr,
}

/// A `theorem` or `axiom`: two elaborated sides and a relation.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The name after `theorem` or `axiom`.
    pub name: String,
    /// Whether it is a theorem or an axiom.
    pub kind: ClaimKind,
    /// The left side.
    pub lhs: Term,
    /// The relation between the sides.
    pub rel: Rel,
    /// The right side.
    pub rhs: Term,
    /// The `where` side conditions of a law, in the order written.
    pub conds: Vec<Condition>,
    /// The file that states it, for messages.
    pub source: Source,
    /// Where in that file.
    pub span: Span,
    /// The grid of the file that states it: its movements, and the laws
    /// the prover may use on it, are those of this grid.
    pub tiling: Tiling,
    /// The pieces of the file that states it: how its terms move and
    /// print them.
    pub pieces: Pieces,
}

impl Claim {
    /// `file:line` of the claim.
    pub fn location(&self) -> String {
        let (line, _) = self.source.line_col(self.span.start);
        format!("{}:{line}", self.source.name)
    }

    /// The sort both sides share (the looser one when a fragment is
    /// compared with a pattern).
    pub fn sort(&self) -> Sort {
        let (a, b) = (self.lhs.sort(), self.rhs.sort());
        if a.fits(b) {
            b
        } else {
            a
        }
    }
}

/// A game: a board to start from, and the sides' moves in turn order.
#[derive(Clone, Debug)]
pub struct Game {
    /// The name its `game` line gives it.
    pub name: String,
    /// The starting board, its bottom-left corner at `(0, 0)`.
    pub board: crate::semantics::Grid,
    /// Each side's move, in the order the sides play.
    pub turns: Vec<Term>,
    /// Where the `game` line is.
    pub span: Span,
    /// How the game ends (`game NAME KIND: ...` declarations).
    pub ends: Ends,
    /// The grid the game is played on.
    pub tiling: Tiling,
    /// The pieces of the file that declares the game.
    pub pieces: Pieces,
    /// Each turn as its declaration writes it (`white`, `three(◎)`), in
    /// turn order: a derived game's are its base's.
    pub turn_texts: Vec<String>,
}

/// The lint of one game's check test: a claim that it is the test
/// `attacked_by` reads off the other side's moves.
pub struct Lint {
    /// The game's index in [`Program::games`].
    pub game: usize,
    /// The pieces the check test binds (kings).
    pub kings: Vec<Content>,
    /// The claim, named `lint: ...`, checked on the game's positions.
    pub claim: Claim,
}

/// An elaborated rule file: its definitions, claims and games, and the files it
/// imports.
#[derive(Clone)]
pub struct Program {
    pub(crate) sources: Vec<Source>,
    pub(crate) defs: HashMap<String, Def>,
    /// The longest definition's name, in bytes: a word is searched for
    /// names no longer than this.
    pub(crate) longest_name: usize,
    order: Vec<String>,
    terms: HashMap<String, Term>,
    claims: Vec<Claim>,
    games: Vec<Game>,
    /// See [`Program::imported_games`].
    imported_games: Vec<Game>,
    /// The grid the file declares (`grid hex`), square by default.
    pub(crate) tiling: Tiling,
    /// The black twins of the pieces this file and its imports declare,
    /// in order: with chess's, what `black_pieces` names.
    pub(crate) black: Vec<crate::ir::PieceId>,
    /// The pieces the file and its imports declare, with chess's: how its
    /// terms, boards and games spell and move them.
    pub(crate) pieces: Pieces,
}

impl Program {
    /// Reads a rule file through `loader`, then parses and elaborates it,
    /// stopping with an error at the definition being elaborated when the
    /// process holds more heap than `memory` (definitions can grow with
    /// their number: `dK = dJ + u^K♟` holds K cells).
    pub fn load(path: &Path, memory: MemoryLimit, loader: &dyn Loader) -> Result<Program, Diags> {
        let (text, origin) = loader.load(path).map_err(|e| {
            let src = Source::new(path.display().to_string(), "");
            Diag::new(&src, Span::default(), format!("cannot read {}: {e}", path.display()))
        })?;
        Program::elaborate(
            &path.display().to_string(),
            &text,
            Some(origin),
            Tiling::Square,
            memory,
            loader,
        )
    }

    /// Parses and elaborates rule-file text. `name` is only the text's name
    /// in diagnostics; the text may import nothing (see [`Program::from_text_with`]).
    pub fn from_text(name: &str, text: &str) -> Result<Program, Diags> {
        Program::elaborate(name, text, None, Tiling::Square, MemoryLimit::NONE, &NoFiles)
    }

    /// Parses and elaborates rule-file text on `tiling` unless the file
    /// declares its grid.
    pub fn from_text_on(name: &str, text: &str, tiling: Tiling) -> Result<Program, Diags> {
        Program::elaborate(name, text, None, tiling, MemoryLimit::NONE, &NoFiles)
    }

    /// Parses and elaborates rule-file text on `tiling` unless the file
    /// declares its grid, its imports read through `loader` (with
    /// [`NoFiles`], every import is an error).
    pub fn from_text_with(name: &str, text: &str, tiling: Tiling, loader: &dyn Loader) -> Result<Program, Diags> {
        Program::elaborate(name, text, None, tiling, MemoryLimit::NONE, loader)
    }

    /// Elaborates a syntax tree whose spans point into `text` (a file read
    /// once and then edited as a tree), so diagnostics quote `text`.
    pub(crate) fn from_tree(
        name: &str,
        text: &str,
        file: parse::ast::File,
        loader: &dyn Loader,
    ) -> Result<Program, Diags> {
        let source = Source::new(name, text);
        Program::elaborate_tree(source, file, None, Tiling::Square, MemoryLimit::NONE, loader)
    }

    /// `origin` is the file's canonical path, so that a file importing
    /// itself (or a cycle back to it) adds nothing.
    fn elaborate(
        name: &str,
        text: &str,
        origin: Option<PathBuf>,
        tiling: Tiling,
        memory: MemoryLimit,
        loader: &dyn Loader,
    ) -> Result<Program, Diags> {
        let source = Source::new(name, text);
        let file = parse::parse_file(text).map_err(|e| Diag::new(&source, e.span, e.message))?;
        Program::elaborate_tree(source, file, origin, tiling, memory, loader)
    }

    fn elaborate_tree(
        source: Source,
        file: parse::ast::File,
        origin: Option<PathBuf>,
        tiling: Tiling,
        memory: MemoryLimit,
        loader: &dyn Loader,
    ) -> Result<Program, Diags> {
        let tiling = declared_grid(&source, &file.stmts)?.unwrap_or(tiling);
        let mut prog = Program {
            sources: vec![source.clone()],
            defs: HashMap::new(),
            longest_name: 0,
            order: vec![],
            terms: HashMap::new(),
            claims: vec![],
            games: vec![],
            imported_games: vec![],
            tiling,
            black: vec![],
            pieces: Pieces::chess(),
        };
        let mut errors = vec![];
        let mut claims = vec![];
        let mut imports = Imports::new(origin);
        if prog.gather(0, 0, file.stmts, &mut imports, &mut claims, &mut errors, loader) {
            return Err(Diags(errors));
        }
        let el = Elab {
            suggested: Default::default(),
            prog: &prog,
            done: RefCell::new(HashMap::new()),
            stack: RefCell::new(vec![]),
        };
        if !statements::definitions(&el, memory, &mut errors) {
            return Err(Diags(errors));
        }
        let mut out = Statements::elaborate(&el, 0, &claims, &imports, &mut errors);
        out.declare_ends(&el, &source, &mut errors);
        if !errors.is_empty() {
            return Err(Diags(errors));
        }
        out.stated_once(&source)?;
        let imported_games = statements::imported_games(&el, &claims, &imports);
        let done = el.done.into_inner();
        prog.terms = done.into_iter().filter_map(|(k, v)| v.map(|t| (k, t))).collect();
        prog.claims = out.claims;
        prog.games = out.games;
        prog.imported_games = imported_games;
        Ok(prog)
    }

    /// The pieces the file and its imports declare, with chess's.
    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }

    /// The grid the file is on.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// The theorems and axioms, in file order.
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The games, in file order.
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// The games the imported files declare, as this program reads them:
    /// the importer's overrides apply to them, as they do to a game
    /// derived with `game NAME = BASE`. In the order the files were read,
    /// each file's in its order; a game that does not elaborate so is left
    /// out.
    pub fn imported_games(&self) -> &[Game] {
        &self.imported_games
    }

    /// Claims that the file's check tests agree with the attacks read off
    /// the moves (`attacked_by`), one per game and turn with a `check:`
    /// declaration, named `lint: ...`: `check` compares their sides on the
    /// game's positions, not on boards of other sizes.
    pub fn attack_lints(&self) -> Vec<Lint> {
        let mut out = vec![];
        for (game, g) in self.games.iter().enumerate() {
            for (turn, kings, lhs, rhs) in attack::check_lints(g, &self.pieces) {
                let claim = Claim {
                    name: format!(
                        "lint: game {}, turn {}: the check test reads the attacks of the moves",
                        g.name,
                        turn + 1
                    ),
                    kind: ClaimKind::Theorem,
                    lhs,
                    rel: Rel::Eq,
                    rhs,
                    conds: vec![],
                    source: self.sources[0].clone(),
                    span: g.span,
                    tiling: g.tiling,
                    pieces: self.pieces.clone(),
                };
                out.push(Lint { game, kings, claim });
            }
        }
        out
    }

    /// The game declared as `name`.
    pub fn game(&self, name: &str) -> Option<&Game> {
        self.games.iter().find(|g| g.name == name)
    }

    /// The term a definition without parameters stands for.
    pub fn definition(&self, name: &str) -> Option<&Term> {
        self.terms.get(name)
    }

    /// Definitions without parameters, in file order.
    pub fn definitions(&self) -> impl Iterator<Item = (&str, &Term)> {
        self.order
            .iter()
            .filter_map(|n| self.terms.get(n).map(|t| (n.as_str(), t)))
    }

    /// A definition's term with the other move definitions it names left
    /// as metavariables of those names (`white_move`), for rewriting one
    /// definition at a time in terms of the others. `None` for a function,
    /// an unknown name, or a body that needs its names' terms to
    /// elaborate.
    pub fn definition_over_names(&self, name: &str) -> Option<Term> {
        let def = self.defs.get(name).filter(|d| d.params.is_none())?;
        let mut done = self.over_names();
        done.remove(name);
        let el = Elab {
            suggested: Default::default(),
            prog: self,
            done: RefCell::new(done),
            stack: RefCell::new(vec![]),
        };
        let sc = Scope {
            src: def.src,
            vars: im::HashMap::new(),
            metas: false,
        };
        el.expr(&sc, &def.body).ok()
    }

    /// A function's body with its parameters bound to `args` and the move
    /// definitions it names left as metavariables, as in
    /// `definition_over_names`: the pattern the simplifier folds back into
    /// a call. `None` for a definition without parameters, a wrong number
    /// of arguments, or arguments of sorts the body does not take.
    pub fn function_over_names(&self, name: &str, args: &[Term]) -> Option<Term> {
        let def = self.defs.get(name)?;
        let params = def.params.as_ref().filter(|p| p.len() == args.len())?;
        let el = Elab {
            suggested: Default::default(),
            prog: self,
            done: RefCell::new(self.over_names()),
            stack: RefCell::new(vec![name.to_string()]),
        };
        let sc = Scope {
            src: def.src,
            vars: params
                .iter()
                .map(|p| p.name.clone())
                .zip(args.iter().cloned())
                .collect(),
            metas: false,
        };
        el.expr(&sc, &def.body).ok()
    }

    /// An expression's term with the move definitions it names left as
    /// metavariables, as in `definition_over_names`; `None` when it does
    /// not elaborate.
    pub fn expr_over_names(&self, text: &str) -> Option<Term> {
        let e = parse::parse_expr(text).ok()?;
        let el = Elab {
            suggested: Default::default(),
            prog: self,
            done: RefCell::new(self.over_names()),
            stack: RefCell::new(vec![]),
        };
        let sc = Scope {
            src: 0,
            vars: im::HashMap::new(),
            metas: false,
        };
        el.expr(&sc, &e).ok()
    }

    /// Every definition's term, move definitions as metavariables.
    fn over_names(&self) -> HashMap<String, Option<Term>> {
        self.terms
            .iter()
            .map(|(k, v)| {
                let t = if v.sort() == Sort::Move {
                    Term::var(k, Sort::Move)
                } else {
                    v.clone()
                };
                (k.clone(), Some(t))
            })
            .collect()
    }

    /// The names of the functions (definitions with parameters) and how
    /// many parameters each takes, in file order.
    pub fn functions(&self) -> impl Iterator<Item = (&str, usize)> {
        self.order
            .iter()
            .filter_map(|n| self.defs[n].params.as_ref().map(|p| (n.as_str(), p.len())))
    }

    /// The source text of the file.
    pub fn source(&self) -> &Source {
        &self.sources[0]
    }

    /// Elaborates an expression (such as `--move`'s) against this file's
    /// definitions. `name` labels the text in diagnostics.
    pub fn expr(&mut self, name: &str, text: &str) -> Result<Term, Diags> {
        let source = Source::new(name, text);
        let e = parse::parse_expr(text).map_err(|e| Diag::new(&source, e.span, e.message))?;
        self.sources.push(source);
        let src = self.sources.len() - 1;
        let el = Elab {
            suggested: Default::default(),
            prog: self,
            done: RefCell::new(self.terms.iter().map(|(k, v)| (k.clone(), Some(v.clone()))).collect()),
            stack: RefCell::new(vec![]),
        };
        let sc = Scope {
            src,
            vars: im::HashMap::new(),
            metas: false,
        };
        match el.expr(&sc, &e) {
            Ok(t) => Ok(t),
            Err(Abort::Error(d)) => Err(d.into()),
            Err(Abort::Poisoned) => unreachable!("a loaded program has no broken definitions"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Square;
    use crate::ir::{Cell, Content, Fragment, Node, PieceId};

    fn cells(t: &Term) -> Vec<(i32, i32, String)> {
        let Node::Frag(f) = t.node() else {
            panic!("not a fragment: {t:?}")
        };
        f.cells()
            .map(|(q, c)| (q.x, q.y, crate::ir::Pieces::chess().show(&c).to_string()))
            .collect()
    }

    fn elab(src: &str, expr: &str) -> Term {
        Program::from_text("t.alg", src).unwrap().expr("expr", expr).unwrap()
    }

    fn error(src: &str) -> String {
        Program::from_text("t.alg", src).err().expect("an error").to_string()
    }

    /// A misspelled piece gets a "did you mean", as a misspelled name
    /// does; a glyph, one edit from any other, gets none.
    #[test]
    fn a_misspelled_piece_gets_a_did_you_mean() {
        let error = |src: &str| Program::from_text("t.alg", src).err().expect("an error").render();
        let e = error("piece 'Camel / 'camel\nx = %'Camle: nil\n");
        assert!(
            e.contains("unknown piece `'Camle`") && e.contains("did you mean `'Camel`?"),
            "{e}"
        );
        let e = error("x = 'Kx + u.\n");
        assert!(e.contains("did you mean `'K"), "{e}");
        let e = error("piece 'Camel / 'camel\nx = 'CAMEL + u.\n");
        assert!(e.contains("did you mean `'Camel`?"), "{e}");
        let e = error("x = ● + u.\n");
        assert!(e.contains("unknown piece `●`") && !e.contains("did you mean"), "{e}");
        let e = error("x = 'Zebra + u.\n");
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn ragged_boards_are_rejected() {
        let game = |rows: &str| format!("piece ♔ / ♚\nstep = %♔: (% + u. -> . + u%)\ngame g({rows}) = step, step\n");
        let e = error(&game("♔...;...;..♚."));
        assert!(
            e.contains("row 2 from the top has 3 squares; the board is 4 wide"),
            "{e}"
        );
        // Holes written as `#` are a board's own shape.
        assert!(Program::from_text("t.alg", &game("♔...;#..#;..♚.")).is_ok());
    }

    #[test]
    fn a_failed_game_does_not_cascade() {
        let src = "piece ♔ / ♚\nstep = %A: (% + u. -> . + u%)\ngame g(♔.;.♚) = step, step\ngame g stuck: draw\n";
        let Err(Diags(errors)) = Program::from_text("t.alg", src) else {
            panic!("an error")
        };
        let text = Diags(errors.clone()).to_string();
        assert_eq!(errors.len(), 1, "{text}");
        assert!(text.contains("`A` is neither") && !text.contains("no game"), "{text}");
    }

    /// Powers and products of movements are exact or rejected, never
    /// wrapped modulo 2³².
    #[test]
    fn huge_movements_are_exact_or_rejected() {
        for text in [
            "x = u^4294967296 .\n",
            "x = u^-99999999999 .\n",
            "x = u^16777216 u .\n",
            "x = u^16777216 (u^16777216 .)\n",
            "x = r⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹ .\n",
        ] {
            let e = error(text);
            assert!(
                e.contains("more than 16777216 squares") || e.contains("too large"),
                "{text}: {e}"
            );
        }
        // Turns are periodic: any power of `R` or `F` is exact.
        assert_eq!(elab("", "R^4294967297 ."), elab("", "R ."));
        assert_eq!(elab("", "F^-99999999999 ♙"), elab("", "F ♙"));
        assert_eq!(cells(&elab("", "u^16777216 .")), vec![(0, 16777216, ".".into())]);
    }

    #[test]
    fn words_split_into_names_and_letters() {
        let t = elab("x = ♙;.;♟\n", "xxx");
        assert_eq!(cells(&t).len(), 9);
        let t = elab("", "uur♚");
        assert_eq!(cells(&t), vec![(1, 2, "♚".into())]);
    }

    #[test]
    fn juxtaposition_groups_right() {
        assert_eq!(
            cells(&elab("", "♖..")),
            vec![(0, 0, "♖".into()), (1, 0, ".".into()), (2, 0, ".".into())]
        );
        let r = elab("", "R(r♟ + rd.)");
        assert_eq!(cells(&r), vec![(-1, 1, "♟".into()), (0, 1, ".".into())]);
    }

    #[test]
    fn functions_substitute_their_arguments() {
        let t = elab(
            "in_any_direction(M) = M | R M | R² M | R³ M\n",
            "in_any_direction(♙ -> .)",
        );
        assert_eq!(t.sort(), Sort::Move);
        let p = elab("twice(f) = f f\n", "twice(♙)");
        assert_eq!(cells(&p).len(), 2);
    }

    #[test]
    fn static_errors_are_reported() {
        assert!(error("a = ♙ + ♙\n").contains("cannot glue"));
        assert!(error("a = % + u%\n").contains("two `%`"));
        assert!(error("a = u -> .\n").contains("needs fragments"));
        assert!(error("a = b\nb = a\n").contains("recursive"));
        assert!(error("a = ♙\na = ♟\n").contains("defined twice"));
        assert!(error("a = (♙ -> .){3,1}\n").contains("empty range"));
        assert!(error("a = (♙ -> .){-1}\n").contains("between 0"));
        assert!(error("a = foo\n").contains("unknown name"));
        assert!(error("ur = ♙\n").contains("reads as a movement"));
        assert!(error("a = ♙+ ♟\n").contains("repetition applies to moves"));
        assert!(error("theorem t: ♙ = ♙ -> .\n").contains("differ in sort"));
    }

    #[test]
    fn claims_take_metavariables_by_letter() {
        let p = Program::from_text("t.alg", "theorem seq_nil: nil M = M\ntheorem comm: nm = mn\n").unwrap();
        assert_eq!(p.claims()[0].lhs.metas()[0].sort, Sort::Move);
        assert_eq!(p.claims()[1].lhs.sort(), Sort::Movement);
    }

    /// Random token soup never panics: it parses and elaborates, or gives
    /// diagnostics; what elaborates to a move also runs.
    #[test]
    fn no_input_panics() {
        const BITS: [&str; 52] = [
            "♙",
            "♟",
            "♖",
            ".",
            "#",
            "%",
            "0",
            "1",
            "2",
            "u",
            "r",
            "R",
            "F",
            "C",
            "²",
            "⁻¹",
            "+",
            " + ",
            "|",
            "->",
            ";",
            "(",
            ")",
            "{",
            "}",
            "<",
            ">",
            ",",
            "*",
            "?",
            "^",
            "-",
            " = ",
            "!=",
            ":",
            "%♖:",
            "%p:",
            "x",
            "M",
            "f",
            "nil",
            "fail",
            "theorem t",
            "piece ",
            "/",
            "\n",
            "'",
            "'X",
            "//c\n",
            " ",
            "a = ",
            "g(M) = ",
        ];
        fn prop(seed: u64) -> bool {
            let mut g = crate::rng::Rng::new(seed);
            let n = 1 + (g.below(30) as usize);
            let text: String = (0..n).map(|_| g.pick(&BITS)).collect();
            let text = format!("a = {text}");
            if let Ok(p) = Program::from_text("fuzz.alg", &text) {
                for (_, t) in p.definitions() {
                    if let Ok(prog) = crate::semantics::compile(t) {
                        let board = crate::semantics::Grid::parse("..♖/♟..", p.pieces()).unwrap();
                        let s = crate::semantics::State { board, poi: None };
                        let _ = crate::semantics::Eval::new(10_000).run(&prog, &s);
                    }
                }
            }
            true
        }
        quickcheck::QuickCheck::new()
            .tests(3000)
            .quickcheck(prop as fn(u64) -> bool);
    }

    #[test]
    fn colour_reversal_reaches_binders() {
        let t = elab("", "C(%♖: % -> .)");
        let Node::Bind([c, _]) = t.node() else { panic!() };
        assert_eq!(**c, Node::Cell(Content::Piece(PieceId::chess("♜").unwrap())));
        let f = Fragment::single(Cell::Poi);
        assert_eq!(f.poi(), Some(Square::ORIGIN));
    }

    /// A function's parameter names the piece a binder picks, so one
    /// definition serves every side: `move(P) = %P: ...`.
    #[test]
    fn a_binder_names_a_piece_parameter() {
        let src = "step(P) = %P: (% + u. -> . + u%)\n";
        let t = elab(src, "step(♜)");
        assert_eq!(t, elab("", "%♜: (% + u. -> . + u%)"));
        let Node::Bind([c, _]) = elab(src, "step(C ♖)").node().clone() else {
            panic!()
        };
        assert_eq!(*c, Node::Cell(Content::Piece(PieceId::chess("♜").unwrap())));
        assert_eq!(elab(src, "step(.)"), elab("", "%.: (% + u. -> . + u%)"));
        // Only one cell at the origin names a piece.
        for bad in ["step(u ♖)", "step(♖ ♖)", "step(u)", "step(♖ | ♜)"] {
            let e = Program::from_text("t.alg", src).unwrap().expr("expr", bad).err();
            let e = e.unwrap_or_else(|| panic!("{bad} accepted")).to_string();
            assert!(
                e.contains("a binder names a piece or `.`, and `P` is neither"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn the_sides_name_chess_and_declared_pieces() {
        let prog = Program::from_text(
            "t.alg",
            "piece 'Side1 / 'side1\npiece 'Alone\nb = black_pieces\nw = white_pieces\n\
             eb = ♚ | ♛ | ♜ | ♝ | ♞ | ♟ | 'side1\new = ♔ | ♕ | ♖ | ♗ | ♘ | ♙ | 'Side1\n",
        )
        .unwrap();
        assert_eq!(prog.definition("b"), prog.definition("eb"));
        assert_eq!(prog.definition("w"), prog.definition("ew"));
        // A definition of that name is the file's own.
        let own = Program::from_text("t.alg", "black_pieces = ♚\nx = black_pieces\n").unwrap();
        assert_eq!(own.definition("x"), own.definition("black_pieces"));
    }
}
