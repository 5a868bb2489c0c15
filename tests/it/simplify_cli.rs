//! `perft` and `play` simplify the rule file before the engine runs it;
//! `--no-simplify` plays it as written. The counts and the moves offered
//! are the same either way.

use crate::common;
use crate::common::{run, run_input};
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

/// `simplify --json` reports every definition that changed, whether an
/// arm another covers was taken out or the laws found a cheaper body,
/// each with its new body as the simplified file writes it; a file it
/// cannot improve says so in words.
#[test]
fn simplify_reports_every_change_and_says_when_there_is_none() {
    let dir = common::TempDir::new("simplify-report");
    let file = dir.write(
        "two.alg",
        "piece 'K / 'k\nfree = . | 'k\nholds(f) = f -> f\nstep = ('K + u. -> . + u'K) | ('K + u free -> . + u'K)\nedge = holds(% + rr#) not holds(% + r#)\nboth = step edge\ngame g('K.;..;.'k) = step, C step\n",
    );
    let out_file = dir.path().join("out.alg");
    let file = file.to_str().unwrap();
    let out = run(["simplify", file, "--json", "-o", out_file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["step", "edge"], "{v}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    for c in v["changes"].as_array().unwrap() {
        let line = format!("{} = {}", c["name"].as_str().unwrap(), c["written"].as_str().unwrap());
        assert!(written.contains(&line), "{line} in\n{written}");
    }
    assert_eq!(v["clock_stopped"], serde_json::json!([]));
    // The text report names the same definitions.
    let text = run(["simplify", file]);
    assert_eq!(text.code, Some(0), "{text:?}");
    assert_eq!(text.stdout, written);
    assert!(
        text.stderr.contains("step: cost") && text.stderr.contains("edge: cost"),
        "{}",
        text.stderr
    );
    // A file that cannot be made cheaper is said to be so.
    let plain = dir.write("plain.alg", "piece 'K / 'k\nstep = %'K: (% + u. -> . + u%)\n");
    let same = run(["simplify", plain.to_str().unwrap()]);
    assert_eq!(same.code, Some(0), "{same:?}");
    assert!(same.stderr.contains("nothing to simplify"), "{}", same.stderr);
}
