//! A file's statements elaborated once they are gathered (`gather.rs`):
//! its definitions, then its games (those derived from an imported game
//! too) and claims, then each game's end declarations; a claim stated or
//! a game declared twice is an error. Then the imported files' games, the
//! same way, in the same scope.

use super::expr::{Abort, Elab, Scope};
use super::gather::Imports;
use super::{ends, Claim, Condition, Ends, Game, Predicate};
use crate::diag::{Diag, Diags, Source};
use crate::geometry::Tiling;
use crate::ir::{ClaimKind, Meta, Rel, Sort};
use crate::memory::MemoryLimit;
use crate::parse::ast::{Expr, Ident, Span, Stmt, StmtKind};

/// Elaborates every definition that is not a function (a function's body
/// is checked at each call), in file order. Returns false when the memory
/// limit stops loading, with an error that says so.
pub(super) fn definitions(el: &Elab, memory: MemoryLimit, errors: &mut Vec<Diag>) -> bool {
    let top = Scope {
        src: 0,
        vars: im::HashMap::new(),
        metas: false,
    };
    let prog = el.prog;
    for name in &prog.order {
        let def = &prog.defs[name];
        if memory != MemoryLimit::NONE && memory.exceeded() {
            let src = &prog.sources[def.src];
            errors.push(
                Diag::new(
                    src,
                    def.name.span,
                    format!("loading stopped at `{name}`: the memory limit ({memory}) is met"),
                )
                .help("the definitions before it hold that much; raise --memory-limit"),
            );
            return false;
        }
        if def.params.is_none() {
            if let Err(Abort::Error(d)) = el.definition(name, &top, def.name.span) {
                errors.push(d);
            }
        }
    }
    true
}

/// What a file's own games, claims and end declarations elaborate to.
pub(super) struct Statements {
    pub claims: Vec<Claim>,
    pub games: Vec<Game>,
    /// End declarations with their source, and the derived game they are
    /// declared again for (`game NAME = BASE` inherits BASE's).
    ends: Vec<(usize, Stmt, Option<Ident>)>,
    /// Games whose declaration failed: their end declarations say nothing
    /// more, rather than that no such game exists.
    failed: Vec<String>,
}

impl Statements {
    /// Elaborates the games and claims source `file` declares (claims are
    /// gathered from source 0 only), reading the games and ends of the
    /// files it imports for `game NAME = BASE`, and keeps end declarations
    /// for [`Statements::declare_ends`].
    pub(super) fn elaborate(
        el: &Elab,
        file: usize,
        stmts: &[(usize, Stmt)],
        imports: &Imports,
        errors: &mut Vec<Diag>,
    ) -> Statements {
        let source = &el.prog.sources[file];
        let mut out = Statements {
            claims: vec![],
            games: vec![],
            ends: vec![],
            failed: vec![],
        };
        let own: Vec<&Stmt> = stmts.iter().filter(|(s, _)| *s == file).map(|(_, st)| st).collect();
        // Only a derived game reads the imported statements: reached on demand.
        let mut inherited: Option<Vec<_>> = None;
        for stmt in own {
            match &stmt.kind {
                StmtKind::GameEnd { .. } => out.ends.push((file, stmt.clone(), None)),
                StmtKind::GameFrom { .. } => {
                    let inherited = inherited.get_or_insert_with(|| {
                        let reached = imports.reached(file, el.prog.sources.len());
                        stmts.iter().filter(|(s, _)| *s != file && reached[*s]).collect()
                    });
                    out.derive(el, source, inherited, stmt, errors);
                }
                StmtKind::Game { name, board, turns } => {
                    let g = game(el, (file, source), name, board, turns, stmt.span);
                    out.add_game(name, g, errors);
                }
                _ => out.add_claim(el, source, stmt, errors),
            }
        }
        out
    }

    /// `game NAME = BASE`: the base game elaborated again as NAME, and
    /// its ends declared again for it.
    fn derive(
        &mut self,
        el: &Elab,
        source: &Source,
        inherited: &[&(usize, Stmt)],
        stmt: &Stmt,
        errors: &mut Vec<Diag>,
    ) {
        let StmtKind::GameFrom { name, base } = &stmt.kind else {
            unreachable!()
        };
        let (found, chain) = base_game(inherited, base);
        let Some((s, board, turns)) = found else {
            errors.push(
                Diag::new(
                    source,
                    base.span,
                    format!("no imported file declares a game `{}`", base.name),
                )
                .help("`game NAME = BASE` derives a game from one declared in an imported file"),
            );
            self.failed.push(name.name.clone());
            return;
        };
        let g = game(el, (s, &el.prog.sources[s]), name, board, turns, stmt.span);
        self.add_game(name, g, errors);
        // The base's ends, declared again for the derived game.
        for (s, st) in inherited {
            if matches!(&st.kind, StmtKind::GameEnd { game, .. } if chain.contains(&game.name)) {
                self.ends.push((*s, st.clone(), Some(name.clone())));
            }
        }
    }

    /// Keeps game `name` when it elaborated, else marks it failed.
    fn add_game(&mut self, name: &Ident, g: Result<Game, Abort>, errors: &mut Vec<Diag>) {
        match g {
            Ok(g) => self.games.push(g),
            Err(e) => {
                self.failed.push(name.name.clone());
                if let Abort::Error(d) = e {
                    errors.push(d);
                }
            }
        }
    }

    /// Elaborates a `theorem` or `axiom` statement.
    fn add_claim(&mut self, el: &Elab, source: &Source, stmt: &Stmt, errors: &mut Vec<Diag>) {
        let StmtKind::Claim {
            kind,
            name,
            lhs,
            rel,
            rhs,
            conds,
        } = &stmt.kind
        else {
            unreachable!()
        };
        match claim(el, source, *kind, name, lhs, *rel, rhs, conds, stmt.span) {
            Ok(c) => self.claims.push(c),
            Err(Abort::Error(d)) => errors.push(d),
            Err(Abort::Poisoned) => {}
        }
    }

    /// Declares each end on its game. End declarations follow their
    /// game's, and apply to it; a derived game's own declaration of a kind
    /// replaces the one it inherited.
    pub(super) fn declare_ends(&mut self, el: &Elab, source: &Source, errors: &mut Vec<Diag>) {
        let mut game_ends = std::mem::take(&mut self.ends);
        game_ends.sort_by_key(|(_, _, derived)| derived.is_none());
        let mut declared: Vec<(String, String)> = vec![];
        for (s, stmt, derived) in game_ends {
            let StmtKind::GameEnd { game, kind, args } = &stmt.kind else {
                unreachable!()
            };
            if derived.is_none() {
                let key = (game.name.clone(), kind.name.clone());
                if declared.contains(&key) {
                    self.failed.push(game.name.clone());
                    errors.push(Diag::new(
                        source,
                        kind.span,
                        format!("game `{}` declares its `{}` ends twice", game.name, kind.name),
                    ));
                    continue;
                }
                declared.push(key);
            }
            let game = derived.as_ref().unwrap_or(game);
            let Some(g) = self.games.iter_mut().find(|g| g.name == game.name) else {
                if self.failed.contains(&game.name) {
                    continue;
                }
                errors.push(Diag::new(
                    source,
                    game.span,
                    format!("no game `{}` is declared in this file", game.name),
                ));
                continue;
            };
            let turns = g.turns.len();
            if let Err(e) = ends::declare(el, (s, &el.prog.sources[s]), &mut g.ends, turns, kind, args) {
                self.failed.push(game.name.clone());
                if let Abort::Error(d) = e {
                    errors.push(d);
                }
            }
        }
    }

    /// The games that elaborated with every end declaration and are
    /// declared once: of an imported file with errors (as the importer
    /// reads it), the games the errors are not about.
    fn sound_games(self) -> Vec<Game> {
        let sound: Vec<bool> = self
            .games
            .iter()
            .map(|g| !self.failed.contains(&g.name) && self.games.iter().filter(|h| h.name == g.name).count() == 1)
            .collect();
        self.games
            .into_iter()
            .zip(sound)
            .filter_map(|(g, s)| s.then_some(g))
            .collect()
    }

    /// Each claim is stated once, then each game declared once: the
    /// errors of the first check that fails.
    pub(super) fn stated_once(&self, source: &Source) -> Result<(), Diags> {
        let mut errors = vec![];
        let mut seen = std::collections::HashSet::new();
        for c in &self.claims {
            if !seen.insert(c.name.clone()) {
                let first = self.claims.iter().find(|d| d.name == c.name).unwrap();
                errors.push(
                    Diag::new(source, c.span, format!("claim `{}` is stated twice", c.name))
                        .note(first.span, "first stated here"),
                );
            }
        }
        if !errors.is_empty() {
            return Err(Diags(errors));
        }
        let games = &self.games;
        for (i, g) in games.iter().enumerate() {
            if let Some(first) = games[..i].iter().find(|h| h.name == g.name) {
                errors.push(
                    Diag::new(source, g.span, format!("game `{}` is declared twice", g.name))
                        .note(first.span, "first declared here"),
                );
            }
        }
        if !errors.is_empty() {
            return Err(Diags(errors));
        }
        Ok(())
    }
}

/// The games the imported files declare (with their ends, and the games
/// they derive), in the order the files were read, elaborated in this
/// file's scope, so its overrides apply to them. An imported file's error
/// is not this file's: elaborating them is no check of the imports, so a
/// game that fails as this file reads it is left out, not reported (the
/// file's positions are drawn from the others).
pub(super) fn imported_games(el: &Elab, stmts: &[(usize, Stmt)], imports: &Imports) -> Vec<Game> {
    let mut files: Vec<usize> = stmts.iter().map(|(s, _)| *s).filter(|&s| s != 0).collect();
    files.sort_unstable();
    files.dedup();
    let mut out = vec![];
    for file in files {
        let mut ignored = vec![];
        let mut file_games = Statements::elaborate(el, file, stmts, imports, &mut ignored);
        file_games.declare_ends(el, &el.prog.sources[file], &mut ignored);
        out.extend(file_games.sound_games());
    }
    out
}

/// A `game` statement's source, board and turns.
type GameParts<'a> = (usize, &'a Expr, &'a Vec<Expr>);

/// The game `base` names among the statements of imported files, found
/// through the games derived there (`game amazon = chess` imported, then
/// `game x = amazon`): its source, board and turns, with the names on the
/// way from `base` to it.
fn base_game<'a>(inherited: &[&'a (usize, Stmt)], base: &Ident) -> (Option<GameParts<'a>>, Vec<String>) {
    let mut chain = vec![base.name.clone()];
    let found = loop {
        let at = chain.last().expect("a name");
        let game = inherited.iter().copied().find_map(|(s, st)| match &st.kind {
            StmtKind::Game { name: n, board, turns } if n.name == *at => Some((*s, board, turns)),
            _ => None,
        });
        if game.is_some() {
            break game;
        }
        let next = inherited.iter().copied().find_map(|(_, st)| match &st.kind {
            StmtKind::GameFrom { name: n, base } if n.name == *at => Some(base.name.clone()),
            _ => None,
        });
        match next {
            Some(b) if !chain.contains(&b) => chain.push(b),
            _ => break None,
        }
    };
    (found, chain)
}

/// Game `name` from the statement `game BASE(board) = turns` of source
/// `src` (this file's, or an imported one for `game NAME = BASE`).
fn game(
    el: &Elab,
    (src, source): (usize, &Source),
    name: &Ident,
    board: &Expr,
    turns: &[Expr],
    span: Span,
) -> Result<Game, Abort> {
    let sc = Scope {
        src,
        vars: im::HashMap::new(),
        metas: false,
    };
    let b = el.expr(&sc, board)?;
    let crate::ir::Node::Frag(f) = b.node() else {
        return Err(Diag::new(
            source,
            board.span,
            format!("a game's board is a fragment, not a {}", b.sort()),
        )
        .help("build it from rows, as in `♖♘♗♕♔♗♘♖;♙♙♙♙♙♙♙♙;........`")
        .into());
    };
    let grid = crate::semantics::Grid::from_fragment(f).map_err(|e| Diag::new(source, board.span, e.to_string()))?;
    if el.prog.tiling == Tiling::Square {
        ragged(f).map_err(|e| {
            Diag::new(source, board.span, e.to_string())
                .help("every row of a board has the same number of squares; write `#` for a square off the board")
        })?;
    }
    let mut moves = vec![];
    for t in turns {
        let m = el.expr(&sc, t)?;
        if m.sort() != Sort::Move {
            return Err(Diag::new(source, t.span, format!("a turn is a move, not a {}", m.sort())).into());
        }
        if m.is_open() {
            return Err(Diag::new(source, t.span, "a turn's move has a `%` outside any binder")
                .help("bind the piece of interest with `%p:`")
                .into());
        }
        moves.push(m);
    }
    Ok(Game {
        name: name.name.clone(),
        board: grid.rebased(),
        turns: moves,
        span,
        ends: Ends::default(),
        tiling: el.prog.tiling,
        pieces: el.prog.pieces.clone(),
        turn_texts: turns
            .iter()
            .map(|t| {
                source
                    .text
                    .get(t.span.start..t.span.end)
                    .unwrap_or_default()
                    .to_string()
            })
            .collect(),
    })
}

/// A board row that does not span the board's box.
struct RaggedRow {
    /// From the top, from 1.
    row: i32,
    squares: usize,
    width: usize,
}

impl std::fmt::Display for RaggedRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let RaggedRow { row, squares, width } = self;
        write!(
            f,
            "row {row} from the top has {squares} squares; the board is {width} wide"
        )
    }
}

/// A square board's rows all span its box: a row short of a square is a
/// typing slip far more often than a hole (which `#` writes).
fn ragged(f: &crate::ir::Fragment) -> Result<(), RaggedRow> {
    let (xs, ys): (Vec<i32>, Vec<i32>) = f.cells().map(|(q, _)| (q.x, q.y)).unzip();
    let (Some(&top), Some(&bottom)) = (ys.iter().max(), ys.iter().min()) else {
        return Ok(());
    };
    let (left, right) = (
        xs.iter().min().copied().unwrap_or(0),
        xs.iter().max().copied().unwrap_or(0),
    );
    let width = (right - left + 1) as usize;
    for y in (bottom..=top).rev() {
        let row = ys.iter().filter(|&&v| v == y).count();
        if row != width {
            return Err(RaggedRow {
                row: top - y + 1,
                squares: row,
                width,
            });
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn claim(
    el: &Elab,
    source: &Source,
    kind: ClaimKind,
    name: &Ident,
    lhs: &Expr,
    rel: Rel,
    rhs: &Expr,
    conds: &[crate::parse::ast::Cond],
    span: Span,
) -> Result<Claim, Abort> {
    let sc = Scope {
        src: 0,
        vars: im::HashMap::new(),
        metas: true,
    };
    let (l, r) = (el.expr(&sc, lhs)?, el.expr(&sc, rhs)?);
    let (ls, rs) = (l.sort(), r.sort());
    if !ls.fits(rs) && !rs.fits(ls) {
        return Err(Diag::new(
            source,
            lhs.span,
            format!("the two sides differ in sort: a {ls} and a {rs}"),
        )
        .label(format!("a {ls}"))
        .note(rhs.span, format!("a {rs}"))
        .into());
    }
    if kind == ClaimKind::Axiom && rel == Rel::Ne {
        return Err(Diag::new(source, span, "an axiom states an equality; use `theorem` for `!=`").into());
    }
    if kind == ClaimKind::Theorem && rel == Rel::Oriented {
        return Err(Diag::new(
            source,
            span,
            "`=>` orients an axiom for the prover; a theorem states `=` or `!=`",
        )
        .into());
    }
    let metas: Vec<Meta> = l.metas().into_iter().chain(r.metas()).collect();
    let mut out = vec![];
    for c in conds {
        let Some(pred) = Predicate::named(&c.pred.name) else {
            let names: Vec<&str> = Predicate::ALL.iter().map(|p| p.name()).collect();
            return Err(
                Diag::new(source, c.pred.span, format!("unknown side condition `{}`", c.pred.name))
                    .help(format!("known conditions: {}", names.join(", ")))
                    .into(),
            );
        };
        let spec = pred.signature();
        if spec.args.len() != c.args.len() {
            return Err(Diag::new(
                source,
                c.pred.span,
                format!(
                    "`{}` takes {} arguments, not {}",
                    spec.name,
                    spec.args.len(),
                    c.args.len()
                ),
            )
            .help(spec.doc)
            .into());
        }
        let mut args = vec![];
        for (a, sort) in c.args.iter().zip(spec.args) {
            match metas.iter().find(|m| *m.name == *a.name) {
                Some(m) if m.sort == *sort => args.push(m.clone()),
                Some(m) => {
                    return Err(Diag::new(
                        source,
                        a.span,
                        format!("`{}` must be a {sort}, not a {}", a.name, m.sort),
                    )
                    .into())
                }
                None => {
                    return Err(Diag::new(
                        source,
                        a.span,
                        format!("`{}` is not a metavariable of this claim", a.name),
                    )
                    .into())
                }
            }
        }
        out.push(Condition { pred, args });
    }
    Ok(Claim {
        name: name.name.clone(),
        kind,
        lhs: l,
        rel,
        rhs: r,
        conds: out,
        source: source.clone(),
        span,
        tiling: el.prog.tiling,
        pieces: el.prog.pieces.clone(),
    })
}
