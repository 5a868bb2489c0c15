//! What a command plays from: the rule file (simplified on the way in),
//! the game it declares, its rules on the fast path or the interpreter,
//! and the start position (the game's, a board, or a FEN), shared by
//! `perft`, `moves`, `play`, `referee`, `values`, `uci` and `xboard`.

use super::output::{arg_error, plain_error};
use algchess_core::Grid;
use algchess_core::Laws;
use algchess_core::Pieces;
use algchess_core::Rewrites;
use algchess_core::Span;
use algchess_core::Tiling;
use algchess_core::{simplify_program, SimplifyOptions, SystemClock};
use algchess_core::{Diag, Diags, Source};
use algchess_core::{Game, Program};
use algchess_core::{Position, Rules};
use std::path::Path;
use std::time::Duration;

/// The game's rules on the engine, or in the interpreter when asked.
pub(super) fn rules_for(game: &Game, interpreter: bool) -> Rules {
    if interpreter {
        Rules::new(game)
    } else {
        Rules::fast(game)
    }
}

/// The game a command names, or the file's only game.
pub(super) fn pick_game<'p>(prog: &'p Program, name: Option<&str>) -> Result<&'p Game, Diags> {
    let names: Vec<&str> = prog.games().iter().map(|g| g.name.as_str()).collect();
    match name {
        Some(n) => prog.game(n).ok_or_else(|| {
            plain_error(format!(
                "{} declares no game `{n}`; it declares: {}",
                prog.source().name,
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            ))
        }),
        None if prog.games().len() == 1 => Ok(&prog.games()[0]),
        None if names.is_empty() => Err(plain_error(format!("{} declares no game", prog.source().name))),
        None => Err(plain_error(format!(
            "{} declares several games; name one with --game ({})",
            prog.source().name,
            names.join(", ")
        ))),
    }
}

/// Where `perft` and `play` start.
#[derive(clap::Args)]
pub(super) struct Start {
    /// Start from this board instead of the game's (rows top to bottom,
    /// separated by `/` or line breaks; `@PATH` reads a file).
    #[arg(long, conflicts_with = "fen")]
    board: Option<String>,
    /// Start from this FEN position; its side to move picks the turn.
    #[arg(long)]
    fen: Option<String>,
    /// Whose turn it is, counting from 0 in the game's turn order.
    #[arg(long)]
    turn: Option<usize>,
}

impl Start {
    /// The FEN asked for, if any.
    pub(super) fn fen(&self) -> Option<&str> {
        self.fen.as_deref()
    }

    /// The starting position asked for: the game's, or one given.
    pub(super) fn position(&self, rules: &Rules) -> Result<Position, Diags> {
        let (board, fen, turn) = (self.board.as_deref(), self.fen.as_deref(), self.turn);
        let mut pos = rules.start();
        if board.is_some() || fen.is_some() {
            // Makruk's count, where a FEN has one, is no en passant square.
            let counted = fen.map(|f| algchess_core::fen_count(rules, f).0);
            pos.board = read_board(board, counted.as_deref(), rules.tiling, &rules.pieces)?;
        }
        if let Some(f) = fen {
            // A FEN of another size is a slip, not a smaller board to try.
            algchess_core::fen_fits(rules, &pos.board).map_err(|e| plain_error(format!("--fen: {e}")))?;
            if f.split_whitespace().nth(1) == Some("b") {
                pos.turn = 1 % rules.turns.len();
            }
            // Rules that know check (chess) take only real positions.
            if rules.ends.check.is_some() {
                algchess_core::Match::from_fen(rules, f)
                    .map_err(|e| plain_error(format!("--fen `{f}` is not a position: {e}")))?;
            }
        }
        if let Some(t) = turn {
            if t >= rules.turns.len() {
                return Err(plain_error(format!(
                    "--turn must be below {}, the number of turns of `{}`",
                    rules.turns.len(),
                    rules.name
                )));
            }
            pos.turn = t;
        }
        Ok(pos)
    }
}

pub(super) fn read_board(
    board: Option<&str>,
    fen: Option<&str>,
    tiling: Tiling,
    pieces: &Pieces,
) -> Result<Grid, Diags> {
    if let Some(fen) = fen {
        if let Some(dropped) = algchess_core::fen::dropped(fen, pieces) {
            eprintln!(
                "warning: `{dropped}` is not kept: these rules declare no marker pieces ('Kc 'kc 'Rc 'rc 'Pe 'pe) to hold castling rights and en passant"
            );
        }
        // The counters are read as `perft` and `play` read them, so every
        // command takes the same FEN.
        return algchess_core::fen::counters(fen)
            .and_then(|_| algchess_core::fen::read(fen, pieces))
            .map(|(g, _)| g)
            .map_err(|e| {
                let at = e.at.min(fen.len());
                arg_error("--fen", fen, Span::new(at, (at + 1).min(fen.len())), e.message)
            });
    }
    let text = board.expect("clap requires --board or --fen");
    let (name, body) = match text.strip_prefix('@') {
        Some(path) => (
            path.to_string(),
            crate::read_text(path).map_err(|e| super::output::plain_error(format!("cannot read {path}: {e}")))?,
        ),
        None => ("--board".to_string(), text.to_string()),
    };
    Grid::parse_on(&body, tiling, pieces).map_err(|e| {
        let len = body[e.at..].chars().next().map_or(1, char::len_utf8);
        Diag::new(
            &Source::new(name, body.as_str()),
            Span::new(e.at, e.at + len),
            e.message,
        )
        .into()
    })
}

/// A rule file as `perft` and `play` run it on the engine: simplified on
/// the way in, within a fraction of a second (`SimplifyOptions::quick`),
/// unless `simplify` is false. Whatever the simplifier keeps means the
/// same; when it changes nothing, or its output does not elaborate, the
/// file is played as written.
pub(super) fn load_for_play(path: &Path, simplify: bool) -> Result<algchess_core::Program, Diags> {
    let prog = crate::load(path)?;
    if !simplify || prog.games().is_empty() {
        return Ok(prog);
    }
    let laws = Laws::bundled_on(prog.tiling());
    let rules = Rewrites::new(&laws);
    // The times are a net for files far larger than the bundled ones.
    let options = SimplifyOptions::quick().within(Duration::from_millis(500), Duration::from_secs(2), &SystemClock);
    // The file as read and elaborated once; simplified, each edit and the
    // result elaborated once more.
    match simplify_program(&prog, &crate::Files, &rules, &options) {
        Ok(out) if !out.changes.is_empty() => Ok(out.program),
        _ => Ok(prog),
    }
}
