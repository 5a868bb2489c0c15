//! PGN of variants against Fairy-Stockfish: `tests/fixtures/variant_pgn/
//! games.pgn`, made by `generate.py` there with pyffish, holds random games
//! of the variants in `rules/variants/` in Fairy-Stockfish's SAN, each with
//! its `[Variant]` tag and its plies in UCI in a comment. The referee reads
//! every game by its tag alone, and `play`, given the UCI plies, writes the
//! same SAN.

use crate::common;
use crate::common::TempDir;
use std::path::Path;

const FIXTURE: &str = "tests/fixtures/variant_pgn/games.pgn";

/// Each game's variant, its UCI plies and its SAN plies.
fn games() -> Vec<(String, Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE)).unwrap();
    let mut out = vec![];
    for block in text.split("[Event ").skip(1) {
        let variant = block.split("[Variant \"").nth(1).unwrap().split('"').next().unwrap();
        let uci = block.split("{uci: ").nth(1).unwrap().split('}').next().unwrap();
        let movetext = block.split('}').nth(1).unwrap();
        let san = movetext
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && *w != "*")
            .map(str::to_string)
            .collect();
        out.push((
            variant.to_string(),
            uci.split_whitespace().map(str::to_string).collect(),
            san,
        ));
    }
    out
}

#[test]
fn the_referee_picks_the_rules_by_the_variant_tag() {
    let games = games();
    assert!(games.len() >= 12, "{} games", games.len());
    let out = common::run(["referee", "--json", FIXTURE]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // A summary ends the report.
    let lines: Vec<&str> = out.stdout.lines().filter(|l| !l.starts_with("{\"summary\"")).collect();
    assert_eq!(lines.len(), games.len());
    assert!(out.stdout.lines().last().unwrap().starts_with("{\"summary\""));
    for (line, (variant, _, san)) in lines.iter().zip(&games) {
        assert!(line.contains("\"illegal\":null"), "{variant}: {line}");
        assert!(line.contains(&format!("\"plies\":{},", san.len())), "{variant}: {line}");
    }
}

#[test]
fn play_writes_fairy_stockfish_s_san() {
    let dir = TempDir::new("variant_pgn_play");
    for (n, (variant, uci, san)) in games().iter().enumerate() {
        let save = dir.path().join(format!("{n}.pgn"));
        let file = format!("rules/variants/{variant}.alg");
        let input = format!("{}\nquit\n", uci.join("\n"));
        let out = common::run_input(&["play", &file, "--save", save.to_str().unwrap()], &input);
        assert_eq!(out.code, Some(0), "{out:?}");
        let saved = std::fs::read_to_string(&save).unwrap();
        assert!(saved.contains(&format!("[Variant \"{variant}\"]")), "{saved}");
        let written: Vec<&str> = saved
            .split("\n\n")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2"].contains(w))
            .collect();
        assert_eq!(written, *san, "{variant} game {n}");
    }
}
