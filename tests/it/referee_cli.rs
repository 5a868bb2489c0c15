//! `algchess referee` and `algchess play` as a chess player uses them:
//! PGN files checked, JSON reports, exit statuses, saved games.

use crate::common;
use crate::common::{run, run_input, TempDir};
use serde_json::Value;

const SEED: &str = "    1. e4     e5\n    2. Bc4    h6?\n    3. Qh5    ...    Qf3 would also serve.\n    3. ...    a5??\n    4. Qxf7#\n";

const TWO: &str =
    "[Event \"Bad\"]\n[White \"Lasker, Emanuel\"]\n[Round \"3.1\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n\
[Event \"Fool\"]\n[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
[Event \"Repeat\"]\n[Result \"*\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";

#[test]
fn referee_reports_each_game_as_json() {
    let dir = TempDir::new("referee-json");
    let seed = dir.write("seed.pgn", SEED);
    let two = dir.write("two.pgn", TWO);
    let out = run(["referee".as_ref(), "--json".as_ref(), seed.as_os_str(), two.as_os_str()]);
    assert_eq!(out.code, Some(1), "an illegal ply fails: {}", out.stderr);
    let mut games: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The last line sums the run up.
    let summary = games.pop().unwrap()["summary"].clone();
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["plies"], 7 + 2 + 4 + 8);
    assert_eq!(summary["illegal"], 1);
    assert_eq!(summary["result_disagrees"], 1);
    assert_eq!(summary["ends"], serde_json::json!({"checkmate": 2}));
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["plies"], 7);
    assert_eq!(games[0]["end"], "checkmate");
    assert_eq!(games[0]["result"], "1-0");
    assert_eq!(games[0]["illegal"], Value::Null);
    assert_eq!(
        games[0]["final_fen"],
        "rnbqkbnr/1ppp1Qp1/7p/p3p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    assert_eq!(games[1]["event"], "Bad");
    assert_eq!(games[1]["plies"], 2);
    assert_eq!(games[1]["illegal"]["ply"], 3);
    assert_eq!(games[1]["illegal"]["text"], "2. Ke3");
    assert_eq!(games[1]["illegal"]["line"], 6);
    assert!(games[1]["illegal"]["why"]
        .as_str()
        .unwrap()
        .contains("not a legal move"));
    assert_eq!(games[2]["end"], "checkmate");
    assert_eq!(games[2]["result"], "0-1");
    assert_eq!(games[2]["result_matches"], false);
    assert_eq!(games[3]["end"], Value::Null);
    assert_eq!(games[3]["claimable"], serde_json::json!(["threefold_repetition"]));
    // Each game traced back to its file, its place there and its players.
    assert_eq!(games[1]["file"], two.display().to_string());
    assert_eq!(games[1]["game"], 1);
    assert_eq!(games[3]["game"], 3);
    assert_eq!(games[1]["white"], "Lasker, Emanuel");
    assert_eq!(games[1]["round"], "3.1");
    assert_eq!(games[1]["black"], Value::Null);
    assert_eq!(games[0]["file"], seed.display().to_string());
    for g in &games {
        for field in ["event", "plies", "illegal", "end", "claimable", "result", "final_fen"] {
            assert!(g.get(field).is_some(), "{field} in {g}");
        }
    }
}

#[test]
fn referee_passes_legal_games_and_names_bad_pgn() {
    let dir = TempDir::new("referee-text");
    let seed = dir.write("seed.pgn", SEED);
    let out = run(["referee".as_ref(), seed.as_os_str()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("7 plies; checkmate 1-0"), "{}", out.stdout);
    let bad = dir.write("bad.pgn", "[Event \"x]\n1. e4\n");
    let out = run(["referee".as_ref(), bad.as_os_str()]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stdout
            .contains("bad.pgn:1:2: the value of tag `Event` is not closed"),
        "{}",
        out.stdout
    );
    // A game that cannot be read stops neither its file nor the files
    // after it; the exit status still says so.
    let fen = dir.write(
        "fen.pgn",
        "[FEN \"8/8/8/8/8/8/8/4K3 w - - 0 1\"]\n1. Kd1 *\n\n[Event \"next\"]\n1. e4 *\n",
    );
    let out = run(["referee".as_ref(), bad.as_os_str(), fen.as_os_str(), seed.as_os_str()]);
    assert_eq!(out.code, Some(2));
    assert!(out.stdout.contains("fen.pgn game 1: not read"), "{}", out.stdout);
    assert!(out.stdout.contains("one black king"), "{}", out.stdout);
    assert!(out.stdout.contains("fen.pgn game 2 (next): 1 plies"), "{}", out.stdout);
    assert!(out.stdout.contains("seed.pgn game 1: 7 plies"), "{}", out.stdout);
    assert!(
        out.stdout.lines().last().unwrap().starts_with("4 games, 8 plies in"),
        "{}",
        out.stdout
    );
    // An empty file is said to have no games.
    let empty = dir.write("empty.pgn", "");
    let out = run(["referee".as_ref(), empty.as_os_str()]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("empty.pgn: no games"), "{}", out.stderr);
}

#[test]
fn play_announces_mate_and_saves_pgn_that_the_referee_accepts() {
    let dir = TempDir::new("play-save");
    let saved = dir.path().join("game.pgn");
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chess.alg");
    let out = run_input(
        &["play", rules, "--save", saved.to_str().unwrap()],
        "f3\ne7e5\ng2g4\nQh4\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("played d8h4: 2... Qh4#"), "{}", out.stdout);
    assert!(
        out.stdout.contains("game over: checkmate; result 0-1"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("fen: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"));
    let pgn = std::fs::read_to_string(&saved).unwrap();
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"),
        "{pgn}"
    );
    let out = run(["referee".as_ref(), saved.as_os_str()]);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    // Starting from the saved game's end, the game is already over.
    let out = run_input(&["play", rules, "--pgn", saved.to_str().unwrap()], "");
    assert!(out.stdout.contains("game over: checkmate"), "{}", out.stdout);
}

#[test]
fn play_takes_a_draw_claim_and_fen_counters() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chess.alg");
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 70";
    let out = run_input(&["play", rules, "--fen", fen], "claim\nRa2\nclaim\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains("a draw may be claimed (fifty moves)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("draw claimed: fifty moves; result 1/2-1/2"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(&format!("fen: {fen}")), "{}", out.stdout);
}

#[test]
fn perft_rejects_a_fen_that_is_not_a_position() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chess.alg");
    let out = run([
        "perft",
        rules,
        "--fen",
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("first or last rank"), "{}", out.stderr);
    let out = run(["perft", rules, "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--depth", "1"]);
    assert_eq!(out.code, Some(0), "{out:?}");
}

/// A result gives each side its share: three shares in a game of two do
/// not match, whatever the game reached.
#[test]
fn a_result_of_more_shares_than_sides_does_not_match() {
    let dir = TempDir::new("referee-shares");
    let pgn = dir.write(
        "shares.pgn",
        "[Event \"a\"]\n[Result \"1/3-1/3-1/3\"]\n\n1. e4 e5 1/3-1/3-1/3\n\n\
         [Event \"b\"]\n[Result \"1/2-1/2-0\"]\n\n1. e4 e5 *\n\n[Event \"c\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    );
    let out = run(["referee".as_ref(), "--json".as_ref(), pgn.as_os_str()]);
    assert_eq!(out.code, Some(1), "{out:?}");
    let games: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games[0]["result_matches"], false);
    assert!(
        games[0]["warnings"][0].as_str().unwrap().contains("gives 3 sides"),
        "{}",
        games[0]
    );
    assert_eq!(games[1]["result_matches"], false);
    assert_eq!(games[2]["result_matches"], true);
    assert_eq!(games[3]["summary"]["result_disagrees"], 2);
}

#[test]
fn too_many_jobs_are_refused_at_once() {
    let dir = TempDir::new("referee-jobs");
    let pgn = dir.write("one.pgn", "1. e4 e5 *\n");
    let out = run(["referee".as_ref(), "--jobs".as_ref(), "65535".as_ref(), pgn.as_os_str()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--jobs 65535 is too many"), "{}", out.stderr);
}

/// A game's text past 16 MiB (here one line of 17 MiB) is passed over
/// with an error, the next game read; a long token is quoted in part.
#[test]
fn a_game_too_long_is_passed_over_and_long_tokens_are_quoted_in_part() {
    let dir = TempDir::new("referee-huge");
    let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat((17 << 20) / 16);
    let pgn = dir.write(
        "huge.pgn",
        &format!(
            "[Event \"huge\"]\n\n{moves}*\n\n[Event \"next\"]\n\n1. e4 {} *\n",
            "x".repeat(1 << 20)
        ),
    );
    let out = common::run_limited("-v 3000000", &["referee", pgn.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stdout.len() < 2000, "{} bytes of output", out.stdout.len());
    assert!(out.stdout.contains("game 1: not read"), "{}", out.stdout);
    assert!(
        out.stdout.contains("more than the 16 MiB a game may have"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("game 2 (next): 1 plies; illegal ply 2"),
        "{}",
        out.stdout
    );
}

/// The referee says why a ply is illegal where the rules can tell it: no
/// such piece, a piece that cannot reach the square, a king moving into
/// check, a pinned piece, castling out of, through or into check, a
/// promotion left out or where there is none; and the text report gives
/// the position before the ply as FEN.
#[test]
fn the_referee_says_why_a_ply_is_illegal() {
    let cases = [
        (
            "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1",
            "Bc3",
            "white has no bishop on the board",
        ),
        (
            "4k3/8/8/8/8/8/4N3/1N2K3 w - - 0 1",
            "Ncc3",
            "white has no knight on the c-file",
        ),
        (
            "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
            "Nb4",
            "the knight on b1 cannot move to b4",
        ),
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "Kf2",
            "the king would move into check on f2",
        ),
        (
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "Nc3",
            "it would leave the king in check (the knight on e2 is pinned)",
        ),
        (
            "4k3/8/8/8/8/8/4r3/N3K3 w - - 0 1",
            "Nb3",
            "the king is in check, and this move does not get it out of check",
        ),
        (
            "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1",
            "O-O-O",
            "the king is in check, and a king may not castle out of check",
        ),
        (
            "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
            "O-O",
            "the king would pass through check",
        ),
        (
            "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1",
            "O-O",
            "the king would castle into check",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
            "O-O",
            "white cannot castle short here",
        ),
        (
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "e8",
            "a pawn that reaches e8 must promote",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "e4=Q",
            "a pawn promotes only on the last rank",
        ),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e3e4", "there is no piece on e3"),
        (
            "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",
            "e7e5",
            "the pawn on e7 is black's, and white is to move",
        ),
    ];
    let dir = TempDir::new("referee-why");
    let mut pgn = String::new();
    for (i, (fen, ply, _)) in cases.iter().enumerate() {
        pgn.push_str(&format!(
            "[Event \"{i}\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n1. {ply} *\n\n"
        ));
    }
    let file = dir.write("why.pgn", &pgn);
    let out = run(["referee".as_ref(), file.as_os_str()]);
    assert_eq!(out.code, Some(1), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    for (i, (fen, ply, why)) in cases.iter().enumerate() {
        let line = lines[i];
        assert!(
            line.contains(&format!("`{ply}` is not a legal move here: {why}")),
            "case {i}: {line}"
        );
        assert!(
            line.contains(&format!("(the position before it: {fen})")),
            "case {i}: the FEN before the ply: {line}"
        );
    }
}
