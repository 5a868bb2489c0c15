//! The `algchess` command line. Public only so that `main.rs` can call
//! [`main`]; nothing else here is part of the library's API.

mod check;
mod claims;
mod findings;
mod fmt;
mod interactive;
mod moves;
mod output;
mod perft;
mod pgn_stream;
mod pictures;
mod play;
mod prove;
mod puzzle;
mod referee;
mod session;
mod simplify;
mod start;
mod think;
mod translate;
mod uci;
mod values;
mod versus;
mod xboard;

use algchess_core::Diags;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Exit status: every verdict agrees with its claim.
pub(crate) const OK: i32 = 0;
/// Exit status: some verdict disagrees with its claim.
pub(crate) const DISAGREE: i32 = 1;
/// Exit status: bad input.
pub(crate) const BAD_INPUT: i32 = 2;
/// Exit status: a bug in algchess (a panic), never the input's fault.
pub(crate) const INTERNAL: i32 = 3;

#[derive(Parser)]
#[command(
    name = "algchess",
    version,
    about = "The algebra of chess: prove, refute and play piece moves written as rewrite rules",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print every board a move can lead to.
    Moves(moves::Args),
    /// Prove every claim by equality saturation, or refute it with a
    /// counterexample.
    Prove(prove::Args),
    /// Check every `theorem` by exhaustive search of small boards.
    Check(check::Args),
    /// Pretty-print rule files.
    Fmt(fmt::Args),
    /// Count the leaves of a game's move tree, depth by depth.
    Perft(perft::Args),
    /// Rewrite a rule file's definitions into cheaper equal moves.
    Simplify(simplify::Args),
    /// Play a game in the terminal: pick moves by number or name, undo them.
    Play(play::Args),
    /// Check games written in PGN: illegal plies, checkmate, draws, results.
    Referee(referee::Args),
    /// Translate a piece move from path, Parlett or Betza notation into
    /// the algebra.
    Translate(translate::Args),
    /// Play any game against other programs over the Universal Chess
    /// Interface, with a search.
    Uci(uci::Args),
    /// Play any game against other programs over the XBoard protocol
    /// (version 2), with a search.
    Xboard(xboard::Args),
    /// Print the piece values the search reads off a rule file.
    Values(values::Args),
    /// Puzzles for any piece: place pieces so that none attacks another,
    /// or tour a board visiting every square once.
    Puzzle(puzzle::Args),
}

/// Runs a session of `algchess uci` (or, with `xboard`, of `algchess
/// xboard`) on `input`, with `--memory-limit 256M --hash 1` and its output
/// dropped, as a client that waits for each command but a search to be
/// done before it sends the next: what the fuzz targets drive. Needs
/// [`Counting`](crate::Counting) as the global allocator for its memory
/// limit, and a thread with a large stack, as [`main`] gives its own.
pub fn paced_session(xboard: bool, input: &[u8]) {
    let engine = think::EngineArgs {
        rules: None,
        game: None,
        // A table of 1 MB: a session a millisecond, not one of 64 MB.
        hash: Some(1),
        memory_limit: crate::memory_limit("256M").ok(),
    };
    let say: session::Say = std::sync::Arc::new(|_: &str| {});
    let input = Some(Box::new(std::io::Cursor::new(input.to_vec())) as Box<dyn std::io::BufRead + Send>);
    let _ = match xboard {
        true => xboard::session(&engine, input, Some(say), true),
        false => uci::session(&engine, input, Some(say), true),
    };
}

/// The stack of every thread that evaluates, checks or proves.
pub(crate) const STACK: usize = 256 << 20;

/// Runs the command line; returns the exit status: 0 as claimed, 1 when a
/// verdict, a game or a file's format is not as claimed, 2 for bad input,
/// 3 for a bug in algchess. The work runs on a thread with a large stack, so deeply
/// nested input is handled, not a crash.
pub fn main() -> i32 {
    // Enumeration runs on rayon's workers, which recurse as deeply as the
    // command thread; both get stacks for deep terms (see `elab`'s depth
    // limit), small enough to stay well inside a 4 GB address space.
    let _ = rayon::ThreadPoolBuilder::new().stack_size(STACK).build_global();
    // Writing to a closed pipe (`algchess ... | head`) ends the process
    // quietly, as it does for other command-line tools.
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal, before any thread
    // that writes has started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "internal error: {info}\nThis is a bug in algchess, not in your input. Please report it, with the \
             command you ran and its input files."
        );
    }));
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(run)
        .expect("a thread for the command")
        .join()
        .unwrap_or(INTERNAL)
}

fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { BAD_INPUT } else { OK };
        }
    };
    let result = match cli.command {
        Command::Moves(a) => moves::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Check(a) => check::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Simplify(a) => simplify::run(a),
        Command::Play(a) => play::run(a),
        Command::Referee(a) => referee::run(a),
        Command::Translate(a) => translate::run(a),
        Command::Uci(a) => uci::run(a),
        Command::Xboard(a) => xboard::run(a),
        Command::Values(a) => values::run(a),
        Command::Puzzle(a) => puzzle::run(a),
    };
    match result {
        Ok(code) => code,
        Err(diags) => {
            output::report_errors(&diags);
            BAD_INPUT
        }
    }
}

/// The `.alg` files named on the command line; a directory stands for the
/// `.alg` files in it, in name order.
pub(crate) fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Diags> {
    let mut out = vec![];
    for p in paths {
        if crate::is_dir(p) {
            let found = crate::alg_files(p)
                .map_err(|e| output::plain_error(format!("cannot read directory {}: {e}", p.display())))?;
            if found.is_empty() {
                return Err(output::plain_error(format!("no .alg files in {}", p.display())));
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
