//! `algchess translate`: a piece move from another notation into the
//! algebra (or into Betza's notation).

use algchess_core::Diags;
use algchess_core::Tiling;
use algchess_core::{to_algebra, to_betza, Notation};
use serde_json::json;

#[derive(Copy, Clone, clap::ValueEnum)]
enum From {
    /// Path regexes over turtle steps: `/L*(F$)+/`.
    Path,
    /// The plies of Games::Chess::Referee's chess rules: `[ahead] if empty;`.
    Referee,
    /// Parlett's piece language: `(move 'n 'X)`.
    Parlett,
    /// Betza's notation: `mfWcfF`.
    Betza,
}

#[derive(Copy, Clone, Default, clap::ValueEnum)]
enum To {
    /// A move of the algebra, as `moves --move` takes it.
    #[default]
    Algebra,
    /// Betza's notation, where the move lies in what it can name.
    Betza,
}

#[derive(clap::Args)]
pub(super) struct Args {
    /// The notation TEXT is written in.
    #[arg(long, value_enum)]
    from: From,
    /// What to write.
    #[arg(long, value_enum, default_value = "algebra")]
    to: To,
    /// The move. The algebra's version is white's (forward is up), for the
    /// piece on the POI; it names the rule file's `enemy` (and `friend`, for
    /// hoppers) patterns: `%♘: MOVE` in rules/chess.alg.
    text: String,
    /// The grid the move is on: `square`, or `hex` (path regexes turn by
    /// 60° there).
    #[arg(long, default_value = "square", value_parser = super::output::grid)]
    grid: Tiling,
    /// Print `{"from", "to", "text", "result"}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let n = match args.from {
        From::Path => Notation::Path,
        From::Referee => Notation::Referee,
        From::Parlett => Notation::Parlett,
        From::Betza => Notation::Betza,
    };
    let (to, out) = match args.to {
        To::Algebra => ("algebra", to_algebra(n, &args.text, args.grid)?),
        To::Betza => ("betza", to_betza(n, &args.text)?),
    };
    if args.json {
        println!(
            "{}",
            json!({"from": n.name(), "to": to, "text": args.text, "result": out})
        );
    } else {
        println!("{out}");
    }
    Ok(super::OK)
}
