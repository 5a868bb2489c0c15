//! `algchess play`: play a game in the terminal, one move at a time.

use super::interactive::{play_match, turn_names, End, PlayError, Played, Style};
use super::output::plain_error;
use super::pictures::{Pictures, SvgArgs};
use super::start::{pick_game, rules_for, Start};
use algchess_core::pgn;
use algchess_core::picture::{Mark, Picture, Row};
use algchess_core::referee::{replay, write_pgn};
use algchess_core::{Diags, Match, Rules};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(after_help = "\
At the prompt, type a move's number or name (`e2e4`, or a prefix of a name \
only one move has), or one of `moves`, `board`, `undo`, `help`, `quit`. \
Input may come from a pipe, one command a line; the end of the input ends \
the game. Changed squares are coloured on a terminal (unless NO_COLOR is \
set) and listed on a `changed:` line otherwise.")]
pub(super) struct Args {
    /// The rule file that declares the game.
    file: PathBuf,
    /// The game to play (may be left out when the file declares one).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    start: Start,
    /// Start where the first game of this PGN file ends (its plies must
    /// be legal).
    #[arg(long, conflicts_with_all = ["board", "fen"])]
    pgn: Option<PathBuf>,
    /// Save the game played as PGN to this file (chess).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Run the rules in the interpreter instead of the engine.
    #[arg(long)]
    interpreter: bool,
    /// Play the rule file as written: do not simplify it first (the
    /// engine runs the simplified file by default).
    #[arg(long)]
    no_simplify: bool,
    /// Play against the computer, which plays this side: by the name the
    /// game gives its turn (`white`, `black` in chess; `black`, `white`
    /// in Othello, where black moves first), as `first`, `second`, ...,
    /// or as a turn number counted from 0 (as `--turn` counts).
    #[arg(long, value_name = "TURN", conflicts_with = "save")]
    engine: Option<String>,
    /// With --engine: milliseconds the computer thinks a move.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// With --engine: the depth it searches at most.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=90))]
    depth: Option<u32>,
    /// Draw each board shown: FILE is drawn again each time (open it in
    /// a browser to watch), DIR gets one file a board.
    #[command(flatten)]
    svg: SvgArgs,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let prog = super::start::load_for_play(&args.file, !args.no_simplify && !args.interpreter)?;
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = rules_for(game, args.interpreter);
    let pos = args.start.position(&rules)?;
    let names = turn_names(&prog, game);
    let too_big = |e: algchess_core::TooBig| plain_error(e.to_string());
    // A chess FEN keeps its move counters; any other board starts at 0 1.
    let start = match (&args.pgn, args.start.fen()) {
        (Some(path), _) => from_pgn(&rules, path)?,
        (None, Some(f)) if algchess_core::fen::write(&pos.board, pos.turn == 1, &rules.pieces).is_ok() => {
            Match::from_fen(&rules, f).map_err(|e| plain_error(format!("--fen `{f}`: {e}")))?
        }
        _ => Match::new(&rules, pos, 0, 1).map_err(too_big)?,
    };
    // A file that cannot be written is said before the game, not after it;
    // it is emptied only when the game is written to it.
    let mut save = match &args.save {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map_err(|e| plain_error(format!("cannot write {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let pictures = Pictures::new(&args.svg)?;
    let boards = std::cell::Cell::new(0usize);
    let shown = |board: &algchess_core::Grid, changed: &[algchess_core::Square]| {
        let n = boards.get();
        boards.set(n + 1);
        let mut p = Picture::new(
            board.clone(),
            rules.tiling,
            &rules.pieces,
            format!("{}, board {n}", rules.name),
        );
        p.marks = changed.iter().map(|q| (*q, Mark::Moved)).collect();
        let row = Row {
            title: String::new(),
            pictures: vec![p],
        };
        if let Err(e) = pictures.now(&format!("board-{n:04}"), row) {
            super::output::report_errors(&e);
        }
    };
    if let Some(side) = &args.engine {
        let side = engine_side(side, &names, rules.turns.len()).map_err(plain_error)?;
        let engine = super::versus::Computer {
            side,
            movetime: std::time::Duration::from_millis(args.movetime),
            depth: args.depth,
        };
        return match super::versus::play(
            start,
            &engine,
            &names,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            &shown,
        ) {
            Ok(()) => Ok(super::OK),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(super::OK),
            Err(e) => Err(plain_error(e.to_string())),
        };
    }
    let first_fen = start.fen();
    let first_move = (start.fullmove, start.pos.turn == 1);
    let stdout = std::io::stdout();
    let style = Style {
        colour: stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        echo: !std::io::stdin().is_terminal(),
    };
    let stdin = std::io::stdin();
    match play_match(&names, start, stdin.lock(), stdout.lock(), style, &shown) {
        Ok(played) => {
            if let (Some(path), Some(file)) = (&args.save, &mut save) {
                save_game(path, file, &rules, first_fen.as_deref(), first_move, &played)?;
            }
            Ok(super::OK)
        }
        Err(PlayError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(super::OK),
        Err(e) => Err(plain_error(e.to_string())),
    }
}

/// The game as it stands after the first game of the PGN file at `path`,
/// whose plies must all be legal.
fn from_pgn<'a>(rules: &'a Rules, path: &Path) -> Result<Match<'a>, Diags> {
    let text = crate::read_text(path).map_err(|e| plain_error(format!("cannot read {}: {e}", path.display())))?;
    let games = pgn::read(&text)
        .map_err(|e| plain_error(format!("{}:{}:{}: {}", path.display(), e.at.line, e.at.col, e.message)))?;
    let first = games
        .first()
        .ok_or_else(|| plain_error(format!("{} holds no game", path.display())))?;
    let (report, m) = replay(rules, first).map_err(|e| plain_error(e.to_string()))?;
    if let Some(i) = report.illegal {
        return Err(plain_error(format!(
            "{}:{}:{}: illegal ply {}, {}: {}",
            path.display(),
            i.at.line,
            i.at.col,
            i.ply,
            i.text,
            i.why
        )));
    }
    Ok(m)
}

/// Writes the game `played` from `first_fen` (move number and whether
/// black moved first: `first_move`) as PGN to `file`, at `path`, emptied
/// first, and says so.
fn save_game(
    path: &Path,
    file: &mut std::fs::File,
    rules: &Rules,
    first_fen: Option<&str>,
    first_move: (u32, bool),
    played: &Played,
) -> Result<(), Diags> {
    // The FEN tag only for another start than the game's own.
    let own = Match::new(rules, rules.start(), 0, 1).ok().and_then(|m| m.fen());
    let fen = first_fen.filter(|f| Some(*f) != own.as_deref());
    let variant = (rules.name != "chess").then_some(rules.name.as_str());
    let text = write_pgn(variant, fen, first_move.0, first_move.1, &played.san, &played.result);
    use std::io::Write;
    file.set_len(0)
        .and_then(|()| file.write_all(text.as_bytes()))
        .map_err(|e| plain_error(format!("cannot write {}: {e}", path.display())))?;
    let state = if matches!(played.end, End::Quit | End::Eof) {
        "unfinished"
    } else {
        "finished"
    };
    eprintln!(
        "saved the {state} game, {} plies, to {}",
        played.san.len(),
        path.display()
    );
    Ok(())
}

const ORDINALS: [&str; 6] = ["first", "second", "third", "fourth", "fifth", "sixth"];

/// The turn `--engine` names, among `count` turns named `names` by the
/// game's declaration: a turn's own name, an ordinal (`first`), or a turn
/// number from 0. `white` and `black` stand for the first and second
/// turn of a game of two whose turns have no names of their own (a game
/// derived from another, `game amazon = chess`).
fn engine_side(text: &str, names: &[Option<String>], count: usize) -> Result<usize, String> {
    let t = text.trim().to_lowercase();
    if let Ok(n) = t.parse::<usize>() {
        if n < count {
            return Ok(n);
        }
        return Err(format!(
            "--engine must be below {count}, the number of turns (a turn number counts from 0)"
        ));
    }
    if let Some(k) = names
        .iter()
        .position(|n| n.as_deref().is_some_and(|n| n.to_lowercase() == t))
    {
        return Ok(k);
    }
    if let Some(k) = ORDINALS.iter().position(|o| *o == t).filter(|&k| k < count) {
        return Ok(k);
    }
    if count == 2 && names.iter().all(Option::is_none) {
        match t.as_str() {
            "white" => return Ok(0),
            "black" => return Ok(1),
            _ => {}
        }
    }
    let sides: Vec<String> = (0..count)
        .map(|k| {
            let ordinal = ORDINALS.get(k).map_or(String::new(), |o| format!(" or {o}"));
            match names.get(k) {
                Some(Some(n)) => format!("`{n}`{ordinal} or {k}"),
                _ => format!("{}{ordinal}", k),
            }
            .trim_start_matches(" or ")
            .to_string()
        })
        .collect();
    Err(format!(
        "--engine `{text}` names no side of this game; its sides, in turn order: {}",
        sides.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::engine_side;

    #[test]
    fn the_engine_side_is_named_as_the_game_names_it() {
        let othello = [Some("black".to_string()), Some("white".to_string())];
        assert_eq!(engine_side("white", &othello, 2), Ok(1));
        assert_eq!(engine_side("Black", &othello, 2), Ok(0));
        assert_eq!(engine_side("first", &othello, 2), Ok(0));
        assert_eq!(engine_side("second", &othello, 2), Ok(1));
        assert_eq!(engine_side("1", &othello, 2), Ok(1));
        assert!(engine_side("2", &othello, 2).unwrap_err().contains("below 2"));
        let e = engine_side("red", &othello, 2).unwrap_err();
        assert!(e.contains("`black` or first or 0; `white` or second or 1"), "{e}");
        // A derived game's turns have no names: white and black are the
        // first and second.
        assert_eq!(engine_side("black", &[None, None], 2), Ok(1));
        assert!(engine_side("white", &[None, None, None], 3).is_err());
        assert_eq!(engine_side("third", &[None, None, None], 3), Ok(2));
    }
}
