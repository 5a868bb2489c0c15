//! A file's statements gathered before any is elaborated: its pieces
//! registered, its definitions and overrides named (each checked once),
//! its imports read and gathered in turn, and its claims and games kept
//! for `statements.rs`.

use super::{Def, Loader, Program, MAX_IMPORT_DEPTH};
use crate::diag::{Diag, Diags, Source};
use crate::geometry::{Movement, Tiling};
use crate::ir::{PieceId, Pieces, Spelling};
use crate::parse::ast::{Ident, Span, Stmt, StmtKind};
use crate::parse::{self, lexer::KEYWORDS};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The files gathered, and which imports which: a game an imported file
/// derives (`game NAME = BASE`) finds its base among the files it reaches.
pub(super) struct Imports {
    /// Each file's source, by the name the loader knows it by.
    known: HashMap<PathBuf, usize>,
    /// (importing source, imported source), imports of a file already
    /// read (twice, or round a cycle) among them.
    edges: Vec<(usize, usize)>,
}

impl Imports {
    /// Nothing imported yet; `origin` is source 0's known name, if any.
    pub(super) fn new(origin: Option<PathBuf>) -> Imports {
        Imports {
            known: origin.into_iter().map(|o| (o, 0)).collect(),
            edges: vec![],
        }
    }

    /// Which of the `n` sources `src` reaches through its imports (itself
    /// only round a cycle).
    pub(super) fn reached(&self, src: usize, n: usize) -> Vec<bool> {
        let mut next = vec![vec![]; n];
        for &(from, to) in &self.edges {
            next[from].push(to);
        }
        let mut seen = vec![false; n];
        let mut todo = vec![src];
        while let Some(f) = todo.pop() {
            for &to in &next[f] {
                if !std::mem::replace(&mut seen[to], true) {
                    todo.push(to);
                }
            }
        }
        seen
    }
}

impl Program {
    /// Registers the pieces and definitions of source `src`, and of the
    /// files it imports, each file once; claims are kept only from the file
    /// itself, games from every file (with their source), for `game NAME =
    /// BASE` and [`Program::imported_games`]. A file's overrides replace
    /// what its imports define, after them, so every use of the name (in
    /// the imports too) reads the override. Returns whether an import could not be read or parsed:
    /// then every name it defines is missing, and errors about them would
    /// only repeat that one. `depth` counts the files importing this one,
    /// up to [`MAX_IMPORT_DEPTH`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn gather(
        &mut self,
        src: usize,
        depth: usize,
        stmts: Vec<Stmt>,
        imported: &mut Imports,
        claims: &mut Vec<(usize, Stmt)>,
        errors: &mut Vec<Diag>,
        loader: &dyn Loader,
    ) -> bool {
        let source = self.sources[src].clone();
        let mut pending = vec![];
        let mut broken = false;
        for stmt in stmts {
            match stmt.kind {
                StmtKind::Piece { white, black } => self.add_pieces(&source, &white, black.as_deref(), errors),
                StmtKind::Def {
                    name,
                    params,
                    body,
                    overrides,
                } => {
                    let def = Def {
                        src,
                        name,
                        params,
                        body,
                    };
                    if overrides {
                        pending.push(def);
                    } else if let Err(e) = self.add_def(def) {
                        errors.push(e);
                    }
                }
                StmtKind::Import { path } => {
                    broken |= self.import(src, depth, &path, imported, claims, errors, loader);
                }
                StmtKind::Grid { name } => self.check_imported_grid(src, &name, errors),
                StmtKind::Claim { .. } if src != 0 => {}
                StmtKind::Claim { .. }
                | StmtKind::Game { .. }
                | StmtKind::GameEnd { .. }
                | StmtKind::GameFrom { .. } => claims.push((src, stmt)),
            }
        }
        // Without the import, an override would only say that it is.
        for def in pending.into_iter().filter(|_| !broken) {
            if let Err(e) = self.override_def(def) {
                errors.push(e);
            }
        }
        broken
    }

    /// Registers a `piece` declaration, its black pieces among the
    /// program's black ones.
    fn add_pieces(&mut self, source: &Source, white: &[Ident], black: Option<&[Ident]>, errors: &mut Vec<Diag>) {
        match declare(&mut self.pieces, source, white, black) {
            Ok(ids) if black.is_some() => {
                let blacks = &ids[ids.len() / 2..];
                for b in blacks {
                    if !self.black.contains(b) {
                        self.black.push(*b);
                    }
                }
            }
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
    }

    /// `import "PATH"` in source `src`: gathers the file, once, on this
    /// file's grid and at most [`MAX_IMPORT_DEPTH`] files deep. Returns
    /// whether it (or a file it imports) could not be read or parsed.
    #[allow(clippy::too_many_arguments)]
    fn import(
        &mut self,
        src: usize,
        depth: usize,
        path: &Ident,
        imported: &mut Imports,
        claims: &mut Vec<(usize, Stmt)>,
        errors: &mut Vec<Diag>,
        loader: &dyn Loader,
    ) -> bool {
        let source = &self.sources[src];
        let file = Path::new(&*source.name)
            .parent()
            .unwrap_or(Path::new(""))
            .join(&path.name);
        let (text, known) = match loader.load(&file) {
            Ok(t) => t,
            Err(e) => {
                errors.push(Diag::new(
                    source,
                    path.span,
                    format!("cannot read {}: {e}", file.display()),
                ));
                return true;
            }
        };
        // A file reached twice (or in a cycle) adds nothing new.
        let at = self.sources.len();
        match imported.known.entry(known) {
            Entry::Occupied(e) => {
                imported.edges.push((src, *e.get()));
                return false;
            }
            Entry::Vacant(e) => {
                e.insert(at);
            }
        }
        if depth >= MAX_IMPORT_DEPTH {
            errors.push(
                Diag::new(
                    source,
                    path.span,
                    format!(
                        "imports nest more than {MAX_IMPORT_DEPTH} files deep: {} is not read",
                        file.display()
                    ),
                )
                .help("import the files a chain reaches from one file instead"),
            );
            return true;
        }
        let imported_source = Source::new(file.display().to_string(), text);
        match parse::parse_file(&imported_source.text) {
            Ok(f) => {
                // A file that declares no grid is on squares,
                // and may not be read on another grid.
                let declares = f.stmts.iter().any(|s| matches!(s.kind, StmtKind::Grid { .. }));
                if !declares && self.tiling != Tiling::Square {
                    errors.push(
                        Diag::new(
                            source,
                            path.span,
                            format!(
                                "{} is on the square grid (it declares no grid), and this file on the {} grid",
                                file.display(),
                                self.tiling
                            ),
                        )
                        .help("its moves would turn by the wrong angle: import files on this file's grid"),
                    );
                    return true;
                }
                self.sources.push(imported_source);
                imported.edges.push((src, at));
                self.gather(at, depth + 1, f.stmts, imported, claims, errors, loader)
            }
            Err(e) => {
                errors.push(Diag::new(&imported_source, e.span, e.message));
                true
            }
        }
    }

    /// A `grid` line of source `src`. The file's own declaration was read
    /// up front; an imported file must be on the same grid.
    fn check_imported_grid(&self, src: usize, name: &Ident, errors: &mut Vec<Diag>) {
        let source = &self.sources[src];
        let t = Tiling::named(&name.name);
        if src != 0 && t.is_some_and(|t| t != self.tiling) {
            errors.push(
                Diag::new(
                    source,
                    name.span,
                    format!(
                        "this file is on the {} grid, and the file importing it on the {} grid",
                        name.name, self.tiling
                    ),
                )
                .help(format!("declare `grid {}` in the importing file too", name.name)),
            );
        } else if src != 0 && t.is_none() {
            errors.push(unknown_grid(source, name));
        }
    }

    /// `override NAME = BODY`: replaces the definition an import made.
    fn override_def(&mut self, def: Def) -> Result<(), Diag> {
        let src = &self.sources[def.src];
        let name = &def.name;
        check_name(src, name)?;
        match self.defs.get(&name.name) {
            None => Err(Diag::new(
                src,
                name.span,
                format!("nothing to override: no imported file defines `{}`", name.name),
            )
            .help("without `override`, this is a new definition")),
            Some(prev) if prev.src == def.src => Err(Diag::new(
                src,
                name.span,
                format!(
                    "`{}` is defined in this file; `override` replaces an imported definition",
                    name.name
                ),
            )
            .note(prev.name.span, "defined here")),
            Some(_) => {
                check_params(src, &def)?;
                self.defs.insert(name.name.clone(), def);
                Ok(())
            }
        }
    }

    fn add_def(&mut self, def: Def) -> Result<(), Diag> {
        let src = &self.sources[def.src];
        let name = &def.name;
        check_name(src, name)?;
        if let Some(prev) = self.defs.get(&name.name) {
            let e = Diag::new(src, name.span, format!("`{}` is defined twice", name.name)).label("second definition");
            return Err(if prev.src == def.src {
                e.note(prev.name.span, "first definition")
            } else {
                let other = &self.sources[prev.src];
                e.help(format!(
                    "first defined at {}; write `override {} = ...` to replace it",
                    other.locate(prev.name.span.start),
                    name.name
                ))
            });
        }
        check_params(src, &def)?;
        self.order.push(name.name.clone());
        self.longest_name = self.longest_name.max(name.name.len());
        self.defs.insert(name.name.clone(), def);
        Ok(())
    }
}

fn check_name(src: &Source, name: &Ident) -> Result<(), Diag> {
    if Movement::is_word(&name.name) {
        return Err(
            Diag::new(src, name.span, format!("`{}` reads as a movement", name.name))
                .help("names made only of the letters u d l r R F C always read as movements; choose another name"),
        );
    }
    if KEYWORDS.contains(&name.name.as_str()) {
        return Err(Diag::new(src, name.span, format!("`{}` is a keyword", name.name)));
    }
    Ok(())
}

/// Registers a `piece` declaration. On each side, a glyph followed by an
/// ASCII spelling is one piece.
fn declare(pieces: &mut Pieces, src: &Source, white: &[Ident], black: Option<&[Ident]>) -> Result<Vec<PieceId>, Diag> {
    let spellings = |names: &[Ident]| -> Vec<Spelling> {
        let mut out: Vec<Spelling> = vec![];
        for n in names {
            let ascii = n.name.starts_with('\'');
            match out.last_mut() {
                Some(last) if ascii && last.ascii.is_none() && last.glyph.is_some() => {
                    last.ascii = Some(n.name.clone());
                }
                _ if ascii => out.push(Spelling {
                    glyph: None,
                    ascii: Some(n.name.clone()),
                }),
                _ => out.push(Spelling {
                    glyph: Some(n.name.clone()),
                    ascii: None,
                }),
            }
        }
        out
    };
    let last = black.and_then(|b| b.last()).unwrap_or(&white[white.len() - 1]);
    let span = white[0].span.to(last.span);
    let (w, b) = (spellings(white), black.map(spellings));
    pieces.declare(&w, b.as_deref()).map_err(|e| {
        Diag::new(src, span, e.to_string()).help(
            "declare `piece W / B` for colour twins, four of each for a piece that turns with R, \
                 and a glyph may be followed by an ASCII spelling: `piece ● 'D / ○ 'L`",
        )
    })
}

/// A definition's parameters are names, each named once.
fn check_params(src: &Source, def: &Def) -> Result<(), Diag> {
    if let Some(params) = &def.params {
        for (i, p) in params.iter().enumerate() {
            check_name(src, p)?;
            if params[..i].iter().any(|q| q.name == p.name) {
                return Err(Diag::new(src, p.span, format!("parameter `{}` is named twice", p.name)));
            }
        }
    }
    Ok(())
}

fn unknown_grid(source: &Source, name: &Ident) -> Diag {
    Diag::new(source, name.span, format!("unknown grid `{}`", name.name)).help("the grids are `square` and `hex`")
}

/// The grid a file's own `grid` line names, if it has one; an imported
/// file's declaration is checked as the import is read.
pub(super) fn declared_grid(source: &Source, stmts: &[Stmt]) -> Result<Option<Tiling>, Diags> {
    let mut found: Option<(Tiling, Span)> = None;
    for s in stmts {
        if let StmtKind::Grid { name } = &s.kind {
            let t = Tiling::named(&name.name).ok_or_else(|| unknown_grid(source, name))?;
            if let Some((_, first)) = found {
                return Err(Diag::new(source, s.span, "a file declares its grid once")
                    .note(first, "declared here")
                    .into());
            }
            found = Some((t, s.span));
        }
    }
    Ok(found.map(|(t, _)| t))
}
