//! End-to-end tests of `algchess play`: the binary runs with its input
//! piped to stdin, and the printed boards are read back.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::common::{run_input, Out, TempDir};

fn chess() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg")
}

fn play(file: &Path, input: &str) -> Out {
    run_input(&["play", file.to_str().unwrap()], input)
}

/// A drawn board: square name to what it holds (`·` empty), read from the
/// rows between the file-letter lines.
type Board = HashMap<String, String>;

/// Every board in the output, in order.
fn boards(stdout: &str) -> Vec<Board> {
    let mut out = vec![];
    let mut files: Option<Vec<String>> = None;
    let mut current = Board::new();
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let is_files = !words.is_empty()
            && words
                .iter()
                .all(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_lowercase()));
        if is_files {
            if files.is_some() && !current.is_empty() {
                out.push(std::mem::take(&mut current));
                files = None;
            } else {
                files = Some(words.iter().map(|w| w.to_string()).collect());
            }
            continue;
        }
        let Some(f) = &files else { continue };
        // `8  ♜  ♞ ... 8`: a rank number on both sides of the squares.
        if words.len() == f.len() + 2 && words[0] == words[words.len() - 1] && words[0].parse::<i32>().is_ok() {
            for (file, cell) in f.iter().zip(&words[1..words.len() - 1]) {
                current.insert(format!("{file}{}", words[0]), cell.to_string());
            }
        }
    }
    out
}

fn last_board(out: &Out) -> Board {
    boards(&out.stdout)
        .pop()
        .unwrap_or_else(|| panic!("no board printed:\n{}", out.stdout))
}

/// The number the move list gives `name` in the last list printed.
fn number_of(stdout: &str, name: &str) -> usize {
    let list = stdout.rsplit("legal moves:").next().unwrap();
    let words: Vec<&str> = list.split_whitespace().collect();
    let at = words.iter().position(|w| *w == name).expect("the move is listed");
    words[at - 1].trim_end_matches('.').parse().unwrap()
}

#[test]
fn moves_by_name_reach_the_expected_board() {
    let out = play(&chess(), "e2e4\ne7e5\ng1f3\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let all = boards(&out.stdout);
    assert_eq!(all.len(), 4, "the start and one board a move:\n{}", out.stdout);
    assert_eq!(all[0]["e2"], "♙");
    assert_eq!(all[0]["a8"], "♜");
    let b = last_board(&out);
    assert_eq!(b.len(), 64);
    assert_eq!(b["f3"], "♘");
    assert_eq!(b["g1"], "·");
    assert_eq!(b["e4"], "♙");
    assert_eq!(b["e5"], "♟");
    assert_eq!(b["e2"], "·");
    assert_eq!(b["e7"], "·");
    assert_eq!(b["e1"], "♔");
    assert!(out.stdout.contains("last move: g1f3"), "{}", out.stdout);
    assert!(out.stdout.contains("changed: g1 f3"), "{}", out.stdout);
    assert!(out.stdout.contains("turn 1 of 2 (white) to move, 20 legal moves:"));
    assert!(out.stdout.contains("turn 2 of 2 (black) to move"));
    // Piped output is plain text.
    assert!(!out.stdout.contains('\x1b'));
}

#[test]
fn moves_by_number() {
    let first = play(&chess(), "");
    let n = number_of(&first.stdout, "g1f3");
    let out = play(&chess(), &format!("{n}\n"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("played g1f3"), "{}", out.stdout);
    let b = last_board(&out);
    assert_eq!(b["f3"], "♘");
    assert_eq!(b["g1"], "·");
    // The list is sorted by name: 1 is a2a3 at the start of chess.
    let out = play(&chess(), "1\n");
    assert!(out.stdout.contains("played a2a3"), "{}", out.stdout);
    let out = play(&chess(), "21\n0\n");
    assert!(
        out.stdout.contains("there is no move 21; pick 1 to 20"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("there is no move 0"), "{}", out.stdout);
}

#[test]
fn undo_restores_the_board() {
    let out = play(&chess(), "undo\ne2e4\nd7d5\nundo\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("nothing to undo"), "{}", out.stdout);
    assert!(out.stdout.contains("took back d7d5"), "{}", out.stdout);
    let all = boards(&out.stdout);
    assert_eq!(all.len(), 4);
    assert_eq!(all[3], all[1], "undo gives the board after e2e4 back");
    assert_ne!(all[3], all[2]);
    assert_eq!(all[3]["d7"], "♟");
    assert_eq!(all[3]["e4"], "♙");
    // Black is to move again.
    assert!(out.stdout.trim_end().ends_with(">"));
    let tail = out.stdout.rsplit("took back").next().unwrap();
    assert!(tail.contains("turn 2 of 2 (black) to move"), "{tail}");
}

#[test]
fn ambiguous_and_unknown_input_is_reported_and_play_goes_on() {
    let out = play(&chess(), "e2\nfoo\ne2e5\n\ne2e4\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("`e2` could be any of 2 moves"), "{}", out.stdout);
    assert!(out.stdout.contains("e2e3") && out.stdout.contains("e2e4"));
    assert!(
        out.stdout.contains("`foo` is neither a legal move nor a command"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("no legal move takes a piece from e2 to e5"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("played e2e4"), "{}", out.stdout);
    assert_eq!(last_board(&out)["e4"], "♙");
    // Promotions need the full name (or an ASCII spelling).
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let out = run_input(&["play", chess().to_str().unwrap(), "--fen", fen], "a7a8\na7a8=N\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("`a7a8` could be any of 4 moves"), "{}", out.stdout);
    assert!(out.stdout.contains("a7a8=♕, 2. a7a8=♖"), "{}", out.stdout);
    assert_eq!(last_board(&out)["a8"], "♘");
}

#[test]
fn help_moves_and_quit() {
    let out = play(&chess(), "help\nmoves\nquit\ne2e4\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("undo"));
    assert_eq!(out.stdout.matches("20 legal moves:").count(), 2, "{}", out.stdout);
    assert!(!out.stdout.contains("played"), "nothing is read after quit");
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn end_of_input_ends_the_game() {
    let out = play(&chess(), "e2e4");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains("played e2e4"),
        "a last line without a newline counts"
    );
    let out = play(&chess(), "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(boards(&out.stdout).len(), 1);
}

#[test]
fn the_game_ends_when_the_side_to_move_has_no_moves() {
    let dir = TempDir::new("over");
    let file = dir.write(
        "tiny.alg",
        "// One white pawn that can step up; black's pawn is stuck behind it.\n\
         start = ♙;.;♟\n\
         up = %♙: (% + u. -> . + u%)\n\
         down = %♟: (% + d. -> . + d%)\n\
         game tiny(start) = up, down\n",
    );
    let out = play(&file, "moves\na1a2\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains("turn 1 of 2 (up) to move, 1 legal move:"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("game over: no moves for turn 2 of 2 (down)"),
        "{}",
        out.stdout
    );
    let b = last_board(&out);
    assert_eq!((b["a1"].as_str(), b["a2"].as_str(), b["a3"].as_str()), ("·", "♙", "♟"));
    // The game ended before `quit` was read.
    assert!(out
        .stdout
        .trim_end()
        .ends_with("game over: no moves for turn 2 of 2 (down)"));

    // A board with a square off it, and a side with no moves at the start.
    let out = run_input(
        &["play", file.to_str().unwrap(), "--board", "♟#/♙./..", "--turn", "1"],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("░"), "{}", out.stdout);
    assert!(
        out.stdout.contains("game over: no moves for turn 2 of 2 (down)"),
        "{}",
        out.stdout
    );
}

#[test]
fn help_flags_and_errors() {
    let out = run_input(&["play", "--help"], "");
    assert_eq!(out.code, Some(0));
    assert!(
        out.stdout.contains("--game") && out.stdout.contains("--fen"),
        "{}",
        out.stdout
    );
    let out = run_input(&["--help"], "");
    assert!(out.stdout.contains("play"));
    let out = run_input(&["play", chess().to_str().unwrap(), "--bogus"], "");
    assert_eq!(out.code, Some(2));
    let out = run_input(&["play"], "");
    assert_eq!(out.code, Some(2));
    let out = run_input(&["play", chess().to_str().unwrap(), "--game", "draughts"], "");
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("declares no game `draughts`"), "{}", out.stderr);
    let out = run_input(&["play", chess().to_str().unwrap(), "--turn", "2"], "");
    assert_eq!(out.code, Some(2));

    let dir = TempDir::new("errors");
    let bad = dir.write("bad.alg", "start = ♙\ngame g(start) = nowhere\n");
    let out = run_input(&["play", bad.to_str().unwrap()], "");
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("nowhere"), "{}", out.stderr);
}
