//! `perft` and `play` simplify the rule file before the engine runs it;
//! `--no-simplify` plays it as written. The counts and the moves offered
//! are the same either way.

mod common;

use common::{run, run_input};
use serde_json::Value;

fn leaves(file: &str, depth: &str, extra: &[&str]) -> Vec<u64> {
    let mut args = vec!["perft", file, "--depth", depth, "--json"];
    args.extend(extra);
    let out = run(&args);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    v["depths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["leaves"].as_u64().unwrap())
        .collect()
}

#[test]
fn perft_counts_the_same_with_and_without_simplification() {
    for (file, depth) in [
        ("rules/naive/naive_chess.alg", "3"),
        ("rules/naive/naive_fairy.alg", "3"),
        ("rules/othello.alg", "4"),
    ] {
        let simplified = leaves(file, depth, &[]);
        assert_eq!(simplified, leaves(file, depth, &["--no-simplify"]), "{file}");
        assert_eq!(simplified, leaves(file, depth, &["--interpreter"]), "{file}");
    }
    assert_eq!(leaves("rules/naive/naive_chess.alg", "3", &[]), [20, 400, 8902]);
    // Fairy-Stockfish's counts (tests/fixtures/fairy/perft.txt).
    assert_eq!(leaves("rules/naive/naive_fairy.alg", "3", &[]), [37, 1234, 42099]);
}

#[test]
fn play_offers_the_same_moves_with_and_without_simplification() {
    let moves = |extra: &[&str]| {
        let mut args = vec!["play", "rules/naive/naive_chess.alg"];
        args.extend(extra);
        let out = run_input(&args, "e2e4\ne7e5\nmoves\nquit\n");
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        out.stdout
    };
    let simplified = moves(&[]);
    assert!(simplified.contains("g1f3"), "{simplified}");
    assert_eq!(simplified, moves(&["--no-simplify"]));
}
