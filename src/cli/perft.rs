//! `algchess perft`: count the leaves of a game's move tree, depth by depth.

use super::output::{plain_error, progress, seconds};
use super::start::{pick_game, rules_for, Start};
use algchess_core::{divide, move_names, move_words, perft, Grid, Match};
use algchess_core::{Budget, Deadline, Diags, MemoryLimit, SystemClock, Timer, TooBig};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    /// Also print how a leaf counts each turn's moves, and why: in bulk
    /// (from the writes of moves not made, the test after them kept) or
    /// made one by one (`plan` in JSON).
    #[arg(long)]
    explain_plan: bool,
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
    /// Stop counting after this many seconds (no limit by default).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Stop counting when the process holds more heap than this (`512M`,
    /// `2G`).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
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
    // The clock starts before the file is read: the timeout is the run's.
    let deadline = match args.timeout {
        Some(t) => Timer::limited(seconds("--timeout", t, false)?, &SystemClock).start(),
        None => Deadline::NONE,
    };
    let prog = super::start::load_for_play(&args.file, !args.no_simplify && !args.interpreter)?;
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = rules_for(game, args.interpreter).within(Budget {
        memory: args.memory_limit,
        deadline,
        stop: None,
    });
    let pos = args.start.position(&rules)?;
    if args.depth == 0 {
        return Err(plain_error("--depth must be at least 1".into()));
    }
    let plan: Vec<String> = match args.explain_plan {
        false => vec![],
        true => rules.backend.explain(&pos.board),
    };
    if !args.json {
        plan.iter().for_each(|l| println!("plan: {l}"));
    }
    let mut depths = vec![];
    for d in 1..args.depth {
        let t = Instant::now();
        let n = perft(&rules, &pos, d).map_err(too_big)?;
        depths.push((d, n, t.elapsed()));
        if !args.json {
            println!("perft {d}: {n} [{} ms]", t.elapsed().as_millis());
        }
        if n == 0 {
            // The tree ends here: every deeper count is 0 too.
            print_ended(&args, &rules.name, &depths, d, &plan);
            return Ok(super::OK);
        }
    }
    // The deepest count runs root move by root move, in parallel, with a
    // progress bar.
    let t = Instant::now();
    let bar = progress(&format!("perft {}", args.depth));
    let tick = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    // Engine names where the move is one piece moving, so counts can be
    // compared with other engines' `divide` line by line; a move is named
    // while its board is held, and only when asked for.
    // Chess960's castling is named as UCI names it there, the king's move
    // onto its rook (`b1a1`), as the protocols name it (`move_words`): a
    // king's step may land where castling puts the king.
    let chess960: HashMap<Grid, String> = if args.divide && rules.name == "chess960" {
        let mut root = Match::new(&rules, pos.clone(), 0, 1).map_err(too_big)?;
        let names = move_words::names_as(&mut root, move_words::Castling::KingTakesRook).map_err(too_big)?;
        root.legal().iter().map(|p| p.board.clone()).zip(names).collect()
    } else {
        HashMap::new()
    };
    let name = |p: &algchess_core::Position| {
        let t = rules.tiling;
        match args.divide {
            true => chess960.get(&p.board).cloned().unwrap_or_else(|| {
                move_names::uci_on(&pos.board, &p.board, t, &rules.pieces)
                    .unwrap_or_else(|| move_names::describe_on(&pos.board, &p.board, t, &rules.pieces))
            }),
            false => String::new(),
        }
    };
    let mut named = divide(&rules, &pos, args.depth, &tick, &name).map_err(too_big)?;
    bar.finish_and_clear();
    let n: u64 = named.iter().map(|(_, n)| n).sum();
    let elapsed = t.elapsed();
    depths.push((args.depth, n, elapsed));
    named.sort();
    print_counts(&args, &rules.name, &depths, &named, &plan);
    Ok(super::OK)
}

/// What to say of a failure to count: the budget it ran out of, and the
/// flag that raises it.
fn too_big(e: TooBig) -> Diags {
    let hint = match e {
        TooBig::States(_) => "",
        TooBig::Memory(_) => "; raise --memory-limit",
        TooBig::Time => "; raise --timeout",
    };
    plain_error(format!("{e}{hint}"))
}

/// Prints the counts of a tree that ends at depth `d`, below `--depth`:
/// `depths` so far, every deeper one 0.
fn print_ended(args: &Args, game: &str, depths: &[(u32, u64, Duration)], d: u32, plan: &[String]) {
    if args.json {
        let depths: Vec<_> = depths
            .iter()
            .map(|(d, n, t)| json!({"depth": d, "leaves": n, "ms": t.as_millis() as u64}))
            .chain((d + 1..=args.depth).map(|d| json!({"depth": d, "leaves": 0, "ms": 0})))
            .collect();
        let mut out = json!({"game": game, "depths": depths, "ends_at": d});
        if args.explain_plan {
            out["plan"] = json!(plan);
        }
        println!("{out}");
    } else {
        println!("perft {}: 0 [the tree ends at depth {d}]", args.depth);
    }
}

/// Prints the counts of every depth, the deepest's with its rate, and
/// with `--divide`, its count under each root move (`named`).
fn print_counts(args: &Args, game: &str, depths: &[(u32, u64, Duration)], named: &[(String, u64)], plan: &[String]) {
    let (_, n, elapsed) = *depths.last().expect("the deepest count");
    if args.json {
        let mut out = json!({
            "game": game,
            "depths": depths.iter().map(|(d, n, t)| json!({
                "depth": d,
                "leaves": n,
                "ms": t.as_millis() as u64,
            })).collect::<Vec<_>>(),
            "leaves_per_second": (n as f64 / elapsed.as_secs_f64().max(1e-9)).round(),
        });
        if args.explain_plan {
            out["plan"] = json!(plan);
        }
        if args.divide {
            out["divide"] = json!(named
                .iter()
                .map(|(m, n)| json!({"move": m, "leaves": n}))
                .collect::<Vec<_>>());
        }
        println!("{out}");
    } else {
        if args.divide {
            for (m, n) in named {
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
}
