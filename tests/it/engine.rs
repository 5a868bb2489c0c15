//! `perft` and `play` on the engine, end to end: the same counts and moves
//! as the interpreter (`--interpreter`), on every bundled game, and the
//! thread flag.

use crate::common;
use crate::common::run;

/// The leaves of each depth a `perft --json` run printed.
fn leaves(args: &[&str]) -> Vec<u64> {
    let out = run(args);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    v["depths"]
        .as_array()
        .expect("depths")
        .iter()
        .map(|d| d["leaves"].as_u64().expect("a count"))
        .collect()
}

#[test]
fn perft_on_the_engine_counts_as_the_interpreter_does() {
    for (file, depth) in [
        ("rules/chess.alg", "3"),
        ("rules/othello.alg", "4"),
        ("rules/tictactoe.alg", "4"),
        ("rules/snake.alg", "6"),
    ] {
        let fast = leaves(&["perft", file, "--depth", depth, "--json"]);
        let slow = leaves(&["perft", file, "--depth", depth, "--json", "--interpreter"]);
        assert_eq!(fast, slow, "{file}");
        assert!(fast.iter().all(|&n| n > 0), "{file}: {fast:?}");
    }
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for threads in ["1", "2"] {
        let n = leaves(&[
            "perft",
            "rules/chess.alg",
            "--fen",
            kiwipete,
            "--depth",
            "3",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(n, vec![48, 2039, 97862]);
    }
}

#[test]
fn divide_on_the_engine_names_the_interpreters_moves() {
    let args = ["perft", "rules/chess.alg", "--depth", "2", "--divide"];
    let fast = run(args);
    let slow = run(args.iter().copied().chain(["--interpreter"]));
    let lines = |s: &str| {
        s.lines()
            .filter(|l| !l.contains(" ms"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(fast.code, Some(0), "{}", fast.stderr);
    assert_eq!(lines(&fast.stdout), lines(&slow.stdout));
    assert!(fast.stdout.contains("e2e4: 20"), "{}", fast.stdout);
}

#[test]
fn play_on_the_engine_offers_the_interpreters_moves() {
    let fast = common::run_input(&["play", "rules/othello.alg"], "moves\nquit\n");
    let slow = common::run_input(&["play", "rules/othello.alg", "--interpreter"], "moves\nquit\n");
    assert_eq!(fast.code, Some(0), "{}", fast.stderr);
    assert_eq!(fast.stdout, slow.stdout);
    assert!(fast.stdout.contains("4 legal moves"), "{}", fast.stdout);
}

#[test]
fn zero_threads_is_bad_input() {
    let out = run(["perft", "rules/chess.alg", "--depth", "1", "--threads", "0"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("--threads"), "{}", out.stderr);
}

/// Every bundled rule file with a game: the top-level games, draughts,
/// and every variant.
fn bundled_games() -> Vec<std::path::PathBuf> {
    let mut files = vec![];
    for dir in ["rules", "rules/draughts", "rules/variants"] {
        let mut here: Vec<_> = std::fs::read_dir(dir)
            .expect("run from the crate root")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "alg"))
            .collect();
        here.sort();
        files.extend(here);
    }
    files
}

/// On positions of random play of every bundled game, the engine counts
/// perft 1 and 2 as the interpreter does: the last ply is counted from
/// the moves' writes where the kept legality answer stands, so this
/// checks that answer (a king's lines opened and closed) on the
/// positions play reaches, not only from the start.
#[test]
fn leaves_count_as_the_interpreter_counts_them_in_play() {
    use algchess::{perft, Position, Rules};
    let mut games = 0;
    for file in bundled_games() {
        let prog = algchess::load(&file).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
        for game in prog.games() {
            let (slow, fast) = (Rules::new(game), Rules::fast(game));
            games += 1;
            let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ games;
            let mut pos: Position = slow.start();
            for ply in 0..24 {
                let depth = 1 + ply % 2;
                let expected = perft(&slow, &pos, depth).expect("within budget");
                assert_eq!(
                    perft(&fast, &pos, depth).expect("within budget"),
                    expected,
                    "{} ({}), ply {ply}, perft {depth}: {:?}",
                    file.display(),
                    game.name,
                    pos.board
                );
                let next = slow.successors(&pos).expect("within budget");
                if next.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos = next[(rng >> 33) as usize % next.len()].clone();
            }
        }
    }
    assert!(games > 40, "only {games} games");
}

/// `perft --explain-plan` says how a leaf counts each turn's moves: chess
/// in bulk, its king's safety kept between moves; the interpreter makes
/// every move. In JSON the lines are `plan`, and the counts are as
/// without the flag.
#[test]
fn explain_plan_says_how_leaves_are_counted() {
    let out = run(["perft", "rules/chess.alg", "--depth", "2", "--explain-plan"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let plan: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("plan: ")).collect();
    assert_eq!(plan.len(), 2, "{}", out.stdout);
    for (i, line) in plan.iter().enumerate() {
        assert!(line.starts_with(&format!("plan: turn {i}: ")), "{line}");
        assert!(
            line.contains("bulk: results counted from their writes, the answer of the test after them kept"),
            "{line}"
        );
    }
    let slow = run([
        "perft",
        "rules/chess.alg",
        "--depth",
        "2",
        "--explain-plan",
        "--interpreter",
    ]);
    assert!(
        slow.stdout.contains("plan: the interpreter makes every move"),
        "{}",
        slow.stdout
    );
    let json = run(["perft", "rules/chess.alg", "--depth", "2", "--explain-plan", "--json"]);
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).expect("one JSON object");
    let lines: Vec<&str> = v["plan"]
        .as_array()
        .expect("plan")
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines, plan.iter().map(|l| &l["plan: ".len()..]).collect::<Vec<_>>());
    assert_eq!(
        leaves(&["perft", "rules/chess.alg", "--depth", "2", "--explain-plan", "--json"]),
        vec![20, 400]
    );
}
