//! What `uci`, `xboard` and `play --engine` share: a bundled game found by
//! name, a rule file loaded with the values read off it, a position set
//! up from a start and moves, and the time a move may take.

use algchess_core::Rules;
use algchess_core::TooBig;
use algchess_core::{clip, Budget, Diags};
use algchess_core::{move_words, position_hash, Values};
use algchess_core::{Match, MoveError, PositionError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A game ready to search.
/// The options `uci` and `xboard` share: what to play, and the table.
#[derive(clap::Args)]
pub(super) struct EngineArgs {
    /// A rule file to play instead of the bundled games.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The game of the rule file, or the bundled game, to play first
    /// (default: chess, or the file's only game).
    #[arg(long)]
    pub game: Option<String>,
    /// The transposition table's size in megabytes, at most half the
    /// memory limit (default: 64, or that half when it is less).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: Option<u64>,
    /// The heap the session may hold (`512M`, `2G`; default: three
    /// quarters of what the machine can give it): the table, and the
    /// moves a game's rules find.
    #[arg(long, value_name = "SIZE", value_parser = super::output::memory_limit)]
    pub memory_limit: Option<algchess_core::MemoryLimit>,
}

pub(super) struct Loaded {
    pub rules: Rules,
    pub values: Values,
}

/// The bundled games a protocol may ask for, by file name: `chess`, the
/// variants (`rules/variants`), draughts and the other games. They are
/// the rule files built into the binary, and any others in `rules/`
/// under the working folder; each is read from disk where it is there
/// (see [`crate::read_text`]).
pub(super) fn bundled() -> Vec<(String, PathBuf)> {
    // Read once: the folders do not change while algchess runs.
    static BUNDLED: std::sync::OnceLock<Vec<(String, PathBuf)>> = std::sync::OnceLock::new();
    BUNDLED.get_or_init(read_bundled).clone()
}

fn read_bundled() -> Vec<(String, PathBuf)> {
    let mut out = vec![("chess".to_string(), PathBuf::from("rules/chess.alg"))];
    for sub in ["rules/variants", "rules/draughts", "rules"] {
        let prefix = format!("{sub}/");
        let mut files: Vec<PathBuf> = crate::bundled_files()
            .iter()
            .filter(|(k, _)| k.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
            .map(|(k, _)| PathBuf::from(k))
            .collect();
        if Path::new(sub).is_dir() {
            files.extend(crate::alg_files(Path::new(sub)).unwrap_or_default());
        }
        files.sort();
        files.dedup();
        for f in files {
            let name = f.file_stem().unwrap_or_default().to_string_lossy().to_string();
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, f));
            }
        }
    }
    out
}

/// Why a game could not be loaded.
#[derive(Debug)]
pub(super) enum LoadError {
    /// The rule file does not load.
    Rules(Diags),
    /// The file declares no such game.
    NoGame {
        file: PathBuf,
        game: Option<String>,
        declared: Vec<String>,
    },
    /// No bundled game has the name.
    NoBundled { name: String, bundled: Vec<String> },
    /// The random games that value the pieces took too many states.
    Values(TooBig),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Rules(d) => f.write_str(d.to_string().trim()),
            LoadError::NoGame { file, game, declared } => write!(
                f,
                "{} declares no game{}; it declares: {}",
                file.display(),
                game.as_ref().map(|g| format!(" `{g}`")).unwrap_or_default(),
                if declared.is_empty() {
                    "none".into()
                } else {
                    declared.join(", ")
                }
            ),
            LoadError::NoBundled { name, bundled } => {
                write!(f, "no bundled game `{name}`; there are: {}", bundled.join(", "))
            }
            LoadError::Values(e) => write!(f, "the random games that value the pieces: {e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads game `game` of `file` (its only game, or the one named as the
/// file when it declares several), with values from 64 random games.
pub(super) fn load(file: &Path, game: Option<&str>, budget: Budget) -> Result<Loaded, LoadError> {
    let prog = super::start::load_for_play(file, true).map_err(LoadError::Rules)?;
    let stem = file.file_stem().map(|s| s.to_string_lossy().to_string());
    let picked = match game {
        Some(g) => prog.game(g),
        None if prog.games().len() == 1 => prog.games().first(),
        None => stem.as_deref().and_then(|s| prog.game(s)).or(prog.games().first()),
    };
    let Some(g) = picked else {
        return Err(LoadError::NoGame {
            file: file.to_path_buf(),
            game: game.map(str::to_string),
            declared: prog.games().iter().map(|g| g.name.clone()).collect(),
        });
    };
    let rules = Rules::fast(g).within(budget);
    let values = Values::derive(&rules, 64, 100, 0x5eed).map_err(LoadError::Values)?;
    Ok(Loaded { rules, values })
}

/// Loads the bundled game called `name` (`normal` is chess).
/// Game `variant` of `file` (or the file's only game), or the bundled
/// game `variant` without a file.
pub(super) fn load_variant(file: Option<&Path>, variant: &str, budget: Budget) -> Result<Loaded, LoadError> {
    match file {
        Some(f) => load(f, Some(variant), budget.clone()).or_else(|_| load(f, None, budget)),
        None => load_bundled(variant, budget),
    }
}

pub(super) fn load_bundled(name: &str, budget: Budget) -> Result<Loaded, LoadError> {
    let name = if name == "normal" || name == "standard" {
        "chess"
    } else {
        name
    };
    let all = bundled();
    let Some((_, file)) = all.iter().find(|(n, _)| n == name) else {
        return Err(LoadError::NoBundled {
            name: name.to_string(),
            bundled: all.iter().map(|(n, _)| n.clone()).collect(),
        });
    };
    load(file, Some(name), budget.clone()).or_else(|_| load(file, None, budget))
}

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum From {
    Start,
    Fen(String),
}

/// A game set up: the match, and the keys of the positions before the
/// one on the board, for repetition.
#[derive(Clone)]
pub(super) struct Game<'a> {
    pub m: Match<'a>,
    pub history: Vec<u64>,
}

/// Why a game could not be set up.
#[derive(Debug)]
pub(super) enum SetupError {
    /// The position is not one of the game's.
    Fen { fen: String, why: PositionError },
    /// Move `at` (from 1) comes after the game has ended.
    Over { at: usize, text: String },
    /// Move `at` (from 1) names no legal move.
    Move { at: usize, text: String, why: MoveError },
    /// Finding the moves took too many states.
    TooBig(TooBig),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Fen { fen, why } => write!(f, "the FEN `{}`: {why}", clip(fen)),
            SetupError::Over { at, text } => write!(f, "move {at} `{}`: the game is over", clip(text)),
            SetupError::Move { at, text, why } => write!(f, "move {at} `{}`: {why}", clip(text)),
            SetupError::TooBig(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SetupError {}

/// The game from `from` after `moves`, each checked to be legal.
pub(super) fn setup<'a>(loaded: &'a Loaded, from: &From, moves: &[String]) -> Result<Game<'a>, SetupError> {
    let rules = &loaded.rules;
    let mut m = match from {
        From::Start => Match::new(rules, rules.start(), 0, 1).map_err(SetupError::TooBig)?,
        From::Fen(f) => Match::from_fen(rules, f).map_err(|why| SetupError::Fen { fen: f.clone(), why })?,
    };
    let mut history = vec![];
    for (k, text) in moves.iter().enumerate() {
        if m.count() == 0 {
            return Err(SetupError::Over {
                at: k + 1,
                text: text.clone(),
            });
        }
        let i = move_words::find(&mut m, text).map_err(|why| SetupError::Move {
            at: k + 1,
            text: text.clone(),
            why,
        })?;
        history.push(position_hash(&m.pos.board, m.pos.turn));
        m.play(i).map_err(SetupError::TooBig)?;
    }
    Ok(Game { m, history })
}

/// The time for one move with `left` on the clock, `inc` added a move and
/// `to_go` moves to the next control: a share of the time left, most of
/// the increment, never more than half of what is left.
pub(super) fn budget(left: Duration, inc: Duration, to_go: Option<u32>) -> Duration {
    let share = (left / to_go.unwrap_or(30).clamp(1, 60)).saturating_add(inc / 4 * 3);
    let cap = (left / 2).saturating_sub(Duration::from_millis(30));
    share.min(cap).max(Duration::from_millis(5))
}

/// A game in progress as a protocol keeps it: where it started, the moves
/// named, and the game after them, extended a move at a time (a game of
/// 100,000 moves is not played again for each move or search).
#[derive(Clone)]
pub(super) struct Playing<'a> {
    pub from: From,
    pub moves: Vec<String>,
    pub game: Game<'a>,
}

impl<'a> Playing<'a> {
    /// The game from `from` after `moves`.
    pub(super) fn new(loaded: &'a Loaded, from: From, moves: Vec<String>) -> Result<Playing<'a>, SetupError> {
        let game = setup(loaded, &from, &moves)?;
        Ok(Playing { from, moves, game })
    }

    /// Plays `text`, named as [`setup`] names moves; the game is as it was
    /// when the move is refused.
    pub(super) fn push(&mut self, loaded: &'a Loaded, text: &str) -> Result<(), SetupError> {
        let at = self.moves.len() + 1;
        let m = &mut self.game.m;
        if m.count() == 0 {
            return Err(SetupError::Over {
                at,
                text: text.to_string(),
            });
        }
        let i = move_words::find(m, text).map_err(|why| SetupError::Move {
            at,
            text: text.to_string(),
            why,
        })?;
        let key = position_hash(&m.pos.board, m.pos.turn);
        if let Err(e) = m.play(i) {
            // A ply cut short may leave the match half made: the game is
            // set up again as it was.
            *self = Playing::new(loaded, self.from.clone(), self.moves.clone())?;
            return Err(SetupError::TooBig(e));
        }
        self.game.history.push(key);
        self.moves.push(text.to_string());
        Ok(())
    }

    /// The game from `from` after `moves`: only the moves past the ones
    /// kept are played when it goes on from them. Left as it was on an
    /// error.
    pub(super) fn set(&mut self, loaded: &'a Loaded, from: From, moves: Vec<String>) -> Result<(), SetupError> {
        let extends = from == self.from && moves.len() >= self.moves.len() && moves.starts_with(&self.moves);
        if !extends {
            *self = Playing::new(loaded, from, moves)?;
            return Ok(());
        }
        let kept = self.moves.len();
        for text in &moves[kept..] {
            if let Err(e) = self.push(loaded, text) {
                // Back to the moves kept before.
                self.moves.truncate(kept);
                *self = Playing::new(loaded, self.from.clone(), self.moves.clone())?;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Takes back the last `n` moves (set up again without them).
    pub(super) fn undo(&mut self, loaded: &'a Loaded, n: usize) -> Result<(), SetupError> {
        let mut moves = self.moves.clone();
        moves.truncate(moves.len().saturating_sub(n));
        *self = Playing::new(loaded, self.from.clone(), moves)?;
        Ok(())
    }
}
