//! `algchess play`: play a game in the terminal, one move at a time.

use super::output::plain_error;
use super::perft::{pick_game, rules_for, Start};
use crate::diag::Diags;
use crate::elab::Program;
use crate::play::interactive::{play, turn_names, PlayError, Style};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "\
At the prompt, type a move's number or name (`e2e4`, or a prefix of a name \
only one move has), or one of `moves`, `board`, `undo`, `help`, `quit`. \
Input may come from a pipe, one command a line; the end of the input ends \
the game. Changed squares are coloured on a terminal (unless NO_COLOR is \
set) and listed on a `changed:` line otherwise.")]
pub struct Args {
    /// The rule file that declares the game.
    file: PathBuf,
    /// The game to play (may be left out when the file declares one).
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    start: Start,
    /// Run the rules in the interpreter instead of the engine.
    #[arg(long)]
    interpreter: bool,
}

pub fn run(args: Args) -> Result<i32, Diags> {
    let prog = Program::load(&args.file)?;
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = rules_for(game, args.interpreter);
    let pos = args.start.position(&rules)?;
    let names = turn_names(&prog, game);
    let stdout = std::io::stdout();
    let style = Style {
        colour: stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        echo: !std::io::stdin().is_terminal(),
    };
    let stdin = std::io::stdin();
    match play(&rules, &names, pos, stdin.lock(), stdout.lock(), style) {
        Ok(_) => Ok(super::OK),
        Err(PlayError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(super::OK),
        Err(e) => Err(plain_error(e.to_string())),
    }
}
