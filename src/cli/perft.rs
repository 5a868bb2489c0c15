//! `algchess perft`: count the leaves of a game's move tree, depth by depth.

use super::output::{plain_error, progress};
use super::start::{pick_game, rules_for, Start};
use algchess_core::Diags;
use algchess_core::{divide, move_names as notation, perft};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub(super) struct Args {
    /// The rule file that declares the game.
    file: PathBuf,
    /// The game to play (may be left out when the file declares one).
    #[arg(long)]
    game: Option<String>,
    /// Plies to look ahead.
    #[arg(long)]
    depth: u32,
    #[command(flatten)]
    start: Start,
    /// Also print the leaves under each first move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Run the rules in the interpreter instead of the engine (the
    /// reference the engine is tested against; much slower).
    #[arg(long)]
    interpreter: bool,
    /// Play the rule file as written: do not simplify it first (the
    /// engine runs the simplified file by default).
    #[arg(long)]
    no_simplify: bool,
    /// Threads for the deepest count (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    match args.threads {
        None => count(args),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .stack_size(super::STACK)
            .build()
            .map_err(|e| plain_error(format!("cannot start {n} threads: {e}")))?
            .install(|| count(args)),
    }
}

fn count(args: Args) -> Result<i32, Diags> {
    let prog = super::start::load_for_play(&args.file, !args.no_simplify && !args.interpreter)?;
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = rules_for(game, args.interpreter);
    let pos = args.start.position(&rules)?;
    if args.depth == 0 {
        return Err(plain_error("--depth must be at least 1".into()));
    }
    let too_big = |n: usize| plain_error(format!("a move made more than {n} intermediate states"));
    let mut depths = vec![];
    for d in 1..args.depth {
        let t = Instant::now();
        let n = perft(&rules, &pos, d).map_err(|e| too_big(e.0))?;
        depths.push((d, n, t.elapsed()));
        if !args.json {
            println!("perft {d}: {n} [{} ms]", t.elapsed().as_millis());
        }
        if n == 0 {
            // The tree ends here: every deeper count is 0 too.
            if args.json {
                let depths: Vec<_> = depths
                    .iter()
                    .map(|(d, n, t)| json!({"depth": d, "leaves": n, "ms": t.as_millis() as u64}))
                    .collect();
                println!("{}", json!({"game": rules.name, "depths": depths, "ends_at": d}));
            } else {
                println!("perft {}: 0 [the tree ends at depth {d}]", args.depth);
            }
            return Ok(super::OK);
        }
    }
    // The deepest count runs root move by root move, in parallel, with a
    // progress bar.
    let t = Instant::now();
    let bar = progress(&format!("perft {}", args.depth));
    let total_moves = rules.successors(&pos).map_err(|e| too_big(e.0))?.len();
    bar.set_length(total_moves as u64);
    let split = divide(&rules, &pos, args.depth, &|done, _| bar.set_position(done as u64)).map_err(|e| too_big(e.0))?;
    bar.finish_and_clear();
    let n: u64 = split.iter().map(|(_, n)| n).sum();
    let elapsed = t.elapsed();
    depths.push((args.depth, n, elapsed));
    let mut named: Vec<(String, u64)> = split
        .iter()
        .map(|(p, n)| {
            // Engine names where the move is one piece moving, so counts
            // can be compared with other engines' `divide` line by line.
            let t = rules.tiling;
            let name = notation::uci_on(&pos.board, &p.board, t, &rules.pieces)
                .unwrap_or_else(|| notation::describe_on(&pos.board, &p.board, t, &rules.pieces));
            (name, *n)
        })
        .collect();
    named.sort();
    if args.json {
        let mut out = json!({
            "game": rules.name,
            "depths": depths.iter().map(|(d, n, t)| json!({
                "depth": d,
                "leaves": n,
                "ms": t.as_millis() as u64,
            })).collect::<Vec<_>>(),
            "leaves_per_second": (n as f64 / elapsed.as_secs_f64().max(1e-9)).round(),
        });
        if args.divide {
            out["divide"] = json!(named
                .iter()
                .map(|(m, n)| json!({"move": m, "leaves": n}))
                .collect::<Vec<_>>());
        }
        println!("{out}");
    } else {
        if args.divide {
            for (m, n) in &named {
                println!("{m}: {n}");
            }
        }
        let rate = n as f64 / elapsed.as_secs_f64().max(1e-9);
        println!(
            "perft {}: {n} [{} ms, {:.0} leaves/s]",
            args.depth,
            elapsed.as_millis(),
            rate
        );
    }
    Ok(super::OK)
}
