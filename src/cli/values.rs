//! `algchess values`: the piece values the search reads off a rule file.

use super::output::plain_error;
use super::start::{pick_game, rules_for};
use algchess_core::Code;
use algchess_core::Diags;
use algchess_core::Values;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "\
Random games are played from the start; in each position every legal move \
is credited to the piece that leaves its square. A piece's value is its \
mean number of moves per appearance, scaled so that the most numerous \
piece of the start is worth 100 centipawns. Pieces that are only put on \
the board (Othello's discs) are worth 0: the search then plays on \
mobility alone.")]
pub(super) struct Args {
    /// The rule file that declares the game.
    file: PathBuf,
    /// The game (may be left out when the file declares one).
    #[arg(long)]
    game: Option<String>,
    /// Random games to average over.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// Plies of each random game at most.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    plies: u64,
    /// The seed of the random games.
    #[arg(long, default_value_t = 0x5eed)]
    seed: u64,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let prog = super::start::load_for_play(&args.file, true)?;
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = rules_for(game, false);
    let v = Values::derive(&rules, args.games as usize, args.plies as usize, args.seed)
        .map_err(|e| plain_error(e.to_string()))?;
    println!(
        "{}: values from {} positions of {} random games (mobility: moves per appearance)",
        rules.name, v.positions, args.games
    );
    println!("{:<8} {:>5} {:>9} {:>6}", "piece", "side", "mobility", "value");
    for (code, mobility, value) in v.table() {
        let name = match Code::to_content(code) {
            Some(algchess_core::Content::Piece(p)) => rules.pieces.glyph(p).to_string(),
            _ => continue,
        };
        let side = v.owner[usize::from(code)].map_or("-".into(), |s| s.to_string());
        println!("{name:<8} {side:>5} {mobility:>9.2} {value:>6}");
    }
    println!("mobility term: {} centipawns a legal move", v.per_move);
    let cells = rules.start().board.codes().len();
    println!(
        "square values from {} random games played to their end (centipawns, by square, a1 first):",
        v.ended
    );
    for (code, _, _) in v.table() {
        let row = &v.squares[(usize::from(code) * cells).min(v.squares.len())..];
        let row = &row[..cells.min(row.len())];
        if let (Some(lo), Some(hi), Some(algchess_core::Content::Piece(p))) =
            (row.iter().min(), row.iter().max(), Code::to_content(code))
        {
            println!("{:<8} from {lo} to {hi}", rules.pieces.glyph(p));
        }
    }
    Ok(super::OK)
}
