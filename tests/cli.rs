//! End-to-end tests of the `algchess` binary: `moves`, `check` and `fmt`,
//! their JSON output, exit statuses and error reports.
//!
//! Exit statuses: 0 when every verdict agrees with its claim, 1 when one
//! disagrees or is unknown (unless `--allow-unknown`), or `fmt --check`
//! finds an unformatted file, 2 on bad input.

use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{run, Out, TempDir};

const PIECES: &str = "tests/fixtures/pieces.alg";
const SEED: &str = "theorems/seed.alg";
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

type Board = Vec<String>;

fn board(rows: &[&str]) -> Board {
    rows.iter().map(|r| r.to_string()).collect()
}

fn boards(list: &[&[&str]]) -> Vec<Board> {
    list.iter().map(|b| board(b)).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array of strings, got {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("expected a string, got {s}"))
                .to_string()
        })
        .collect()
}

/// Runs `moves FILE --move EXPR --json` plus `extra`, checks that it
/// succeeds and prints exactly `{"results": [...]}` with the boards sorted
/// and without duplicates, and returns the boards.
fn moves_json(file: &str, expr: &str, extra: &[&str]) -> Vec<Board> {
    let mut args = vec!["moves", file, "--move", expr, "--json"];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(out.code, Some(0), "moves {args:?} failed: {out:?}");
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "one line of JSON: {}", out.stdout);
    let v: Value = serde_json::from_str(&out.stdout).expect("moves --json prints JSON");
    let obj = v.as_object().expect("a JSON object");
    assert_eq!(
        obj.keys().collect::<Vec<_>>(),
        vec!["results"],
        "only a `results` key: {v}"
    );
    let results: Vec<Board> = obj["results"]
        .as_array()
        .expect("`results` is an array")
        .iter()
        .map(strings)
        .collect();
    for w in results.windows(2) {
        assert!(w[0] < w[1], "results must be sorted without duplicates: {results:?}");
    }
    results
}

/// Asserts a bad-input exit: status 2, nothing on stdout, no panic, and a
/// line of stderr holding `LOCATION: ` and the message fragment.
fn assert_bad_input(out: &Out, location: &str, message: &str) {
    assert_eq!(out.code, Some(2), "expected exit status 2: {out:?}");
    assert!(!out.stderr.contains("panicked"), "the binary panicked: {}", out.stderr);
    assert!(out.stdout.is_empty(), "nothing on stdout: {out:?}");
    let prefix = format!("{location}: ");
    assert!(
        out.stderr.lines().any(|l| l.contains(&prefix) && l.contains(message)),
        "expected `{prefix}` and `{message}` on one line of stderr, got:\n{}",
        out.stderr
    );
}

/// Asserts a bad-input exit whose message has no source location.
fn assert_bad_input_message(out: &Out, message: &str) {
    assert_eq!(out.code, Some(2), "expected exit status 2: {out:?}");
    assert!(!out.stderr.contains("panicked"), "the binary panicked: {}", out.stderr);
    assert!(out.stdout.is_empty(), "nothing on stdout: {out:?}");
    assert!(
        out.stderr.contains(message),
        "expected `{message}` in stderr, got:\n{}",
        out.stderr
    );
}

/// Writes a rule file and runs `check` on it.
fn check_text(dir: &TempDir, name: &str, text: &str) -> (PathBuf, Out) {
    let path = dir.write(name, text);
    let out = run([OsStr::new("check"), path.as_os_str()]);
    (path, out)
}

/// Runs `check --json` and parses every line, checking the fields every
/// report has and the summary that ends the run.
fn check_json(args: &[&OsStr]) -> (Option<i32>, Vec<Value>) {
    let (code, reports, _) = check_json_summary(args);
    (code, reports)
}

/// As `check_json`, with the summary object.
fn check_json_summary(args: &[&OsStr]) -> (Option<i32>, Vec<Value>, Value) {
    let mut all: Vec<&OsStr> = vec![OsStr::new("check"), OsStr::new("--json")];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    let mut reports: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let summary = reports.pop().expect("a summary line");
    for r in &reports {
        assert!(r["name"].is_string(), "name: {r}");
        let rel = r["relation"].as_str().expect("relation");
        assert!(rel == "=" || rel == "!=", "relation: {r}");
        let verdict = r["verdict"].as_str().expect("verdict");
        assert!(verdict == "refuted" || verdict == "holds-up-to", "verdict: {r}");
        let cx = &r["counterexample"];
        assert!(cx.is_object() || cx.is_null(), "counterexample: {r}");
        assert_eq!(
            cx.is_object(),
            verdict == "refuted",
            "a counterexample iff refuted: {r}"
        );
        assert!(r["cells"].is_u64(), "cells: {r}");
        assert!(r["ms"].is_u64(), "ms: {r}");
    }
    check_summary(&summary, &reports, out.code, |r| match r["verdict"].as_str() {
        Some("holds-up-to") => "holds",
        _ => "refuted",
    });
    (out.code, reports, summary)
}

/// Checks a `{"summary": {...}}` line against the reports before it: the
/// counts of each verdict (named by `verdict`) and of agreements, and the
/// exit status.
fn check_summary(summary: &Value, reports: &[Value], code: Option<i32>, verdict: impl Fn(&Value) -> &'static str) {
    let s = &summary["summary"];
    assert!(s.is_object(), "the last line is the summary: {summary}");
    assert_eq!(s["claims"].as_u64(), Some(reports.len() as u64), "{summary}");
    let mut named = std::collections::BTreeMap::new();
    for r in reports {
        *named.entry(verdict(r)).or_insert(0u64) += 1;
    }
    for (v, n) in named {
        assert_eq!(s[v].as_u64(), Some(n), "`{v}` in {summary}");
    }
    let counted: u64 = ["agree", "disagree", "unknown"]
        .iter()
        .map(|k| s[k].as_u64().unwrap_or_else(|| panic!("`{k}` in {summary}")))
        .sum();
    assert_eq!(counted, reports.len() as u64, "{summary}");
    assert_eq!(s["exit"].as_i64(), code.map(i64::from), "{summary}");
    assert!(s["ms"].is_u64(), "{summary}");
}

fn report<'a>(reports: &'a [Value], name: &str) -> &'a Value {
    reports
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no report for {name} in {reports:?}"))
}

fn agrees(r: &Value) -> bool {
    matches!(
        (r["relation"].as_str(), r["verdict"].as_str()),
        (Some("="), Some("holds-up-to")) | (Some("!="), Some("refuted"))
    )
}

/// The boards of a counterexample side, checking each entry is
/// `{"board": [...], "poi": ...}`.
fn side_boards(side: &Value, closed: bool) -> BTreeSet<Board> {
    side.as_array()
        .expect("a side is an array of states")
        .iter()
        .map(|s| {
            let obj = s.as_object().expect("a state is an object");
            assert!(obj.contains_key("board") && obj.contains_key("poi"), "state: {s}");
            if closed {
                assert!(s["poi"].is_null(), "a closed move leaves no POI: {s}");
            }
            strings(&s["board"])
        })
        .collect()
}

/// Checks a board counterexample against `moves`: running each side on the
/// counterexample's board (and POI) gives exactly the boards reported.
fn confirm_counterexample(file: &str, lhs: &str, rhs: &str, cx: &Value) {
    assert_eq!(cx["kind"], "board", "{cx}");
    let rows = strings(&cx["board"]);
    assert!(!rows.is_empty(), "{cx}");
    let on_board = rows.iter().flat_map(|r| r.chars()).filter(|&c| c != '#').count();
    assert_eq!(
        cx["squares"].as_u64(),
        Some(on_board as u64),
        "squares counts on-board cells: {cx}"
    );
    let poi = match &cx["poi"] {
        Value::Null => None,
        p => {
            let xy = p.as_array().expect("poi is [x, y]");
            Some(format!("{},{}", xy[0], xy[1]))
        }
    };
    let joined = rows.join("/");
    let mut extra = vec!["--board", joined.as_str()];
    if let Some(p) = &poi {
        extra.extend_from_slice(&["--poi", p.as_str()]);
    }
    let closed = poi.is_none();
    let left = side_boards(&cx["left"], closed);
    let right = side_boards(&cx["right"], closed);
    let ran_left: BTreeSet<Board> = moves_json(file, lhs, &extra).into_iter().collect();
    let ran_right: BTreeSet<Board> = moves_json(file, rhs, &extra).into_iter().collect();
    assert_eq!(ran_left, left, "left side `{lhs}` on {rows:?}");
    assert_eq!(ran_right, right, "right side `{rhs}` on {rows:?}");
    if closed {
        assert_ne!(left, right, "a counterexample's sides differ: {cx}");
    } else {
        assert_ne!(cx["left"], cx["right"], "a counterexample's sides differ: {cx}");
    }
}

// ---------------------------------------------------------------------------
// moves
// ---------------------------------------------------------------------------

#[test]
fn moves_pawn_up_with_two_pawns() {
    let got = moves_json(PIECES, "♙ -> . + u♙", &["--board", ".......\n..♙.♙.."]);
    assert_eq!(
        got,
        boards(&[&["....♙..", "..♙...."], &["..♙....", "....♙.."]]),
        "each pawn moves up once"
    );
    // With the guard on the square above, the same two results.
    let guarded = moves_json(PIECES, "♙ + u. -> . + u♙", &["--board", ".......\n..♙.♙.."]);
    assert_eq!(guarded, got);
}

#[test]
fn moves_rook_slides() {
    let got = moves_json(PIECES, "%♖: (% + u. -> . + u%)+", &["--board", ".\n.\n.\n♖"]);
    assert_eq!(
        got,
        boards(&[&[".", ".", "♖", "."], &[".", "♖", ".", "."], &["♖", ".", ".", "."]])
    );
    // A piece in the way stops the slide.
    let blocked = moves_json(PIECES, "%♖: (% + u. -> . + u%)+", &["--board", ".\n♟\n.\n♖"]);
    assert_eq!(blocked, boards(&[&[".", "♟", "♖", "."]]));
}

#[test]
fn moves_board_rows_split_by_slash_or_newline() {
    let slash = moves_json(PIECES, "%♖: (% + u. -> . + u%)+", &["--board", "./././♖"]);
    let newline = moves_json(PIECES, "%♖: (% + u. -> . + u%)+", &["--board", ".\n.\n.\n♖"]);
    assert_eq!(slash.len(), 3);
    assert_eq!(slash, newline);
}

#[test]
fn moves_board_from_file() {
    let dir = TempDir::new("moves_board_from_file");
    let path = dir.write("board.txt", ".\n.\n♖\n");
    let at = format!("@{}", path.display());
    let got = moves_json(PIECES, "%♖: (% + u. -> . + u%)+", &["--board", &at]);
    assert_eq!(got, boards(&[&[".", "♖", "."], &["♖", ".", "."]]));
}

#[test]
fn moves_capture() {
    let got = moves_json(PIECES, "♙ + ur♟ -> . + ur♙", &["--board", ".♟/♙."]);
    assert_eq!(got, boards(&[&[".♙", ".."]]));
    // Nothing to take: no results.
    let none = moves_json(PIECES, "♙ + ur♟ -> . + ur♙", &["--board", "♟./♙."]);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn moves_pawn_double_step_needs_the_edge() {
    let expr = "dd# + ♙ + u. + uu. -> dd# + . + u. + uu♙";
    // The pawn is on its starting rank: two below it is off the board.
    let got = moves_json(PIECES, expr, &["--board", "./././♙/."]);
    assert_eq!(got, boards(&[&[".", "♙", ".", ".", "."]]));
    // Two squares below it are on the board: the rule does not apply.
    let none = moves_json(PIECES, expr, &["--board", "././♙/./."]);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn moves_uses_definitions_from_the_file() {
    let got = moves_json(PIECES, "rook_move", &["--board", ".../.♖./..."]);
    assert_eq!(
        got,
        boards(&[
            &["...", "...", ".♖."],
            &["...", "..♖", "..."],
            &["...", "♖..", "..."],
            &[".♖.", "...", "..."],
        ])
    );
    let takes = moves_json(PIECES, "pawn_takes", &["--board", "♟.♞/.♙./..."]);
    assert_eq!(takes, boards(&[&["♙.♞", "...", "..."], &["♟.♙", "...", "..."]]));
    let rook = moves_json(PIECES, "rook_move_or_take", &["--board", ".♟./.♖./..."]);
    assert_eq!(rook.len(), 4, "three moves and one capture: {rook:?}");
    assert!(rook.contains(&board(&[".♖.", "...", "..."])), "{rook:?}");
    let promote = moves_json(PIECES, "promotion", &["--board", "♙.♙"]);
    assert_eq!(promote, boards(&[&["♕.♙"], &["♙.♕"]]));
}

#[test]
fn moves_fen_start_position() {
    let start = board(&[
        "♜♞♝♛♚♝♞♜",
        "♟♟♟♟♟♟♟♟",
        "........",
        "........",
        "........",
        "........",
        "♙♙♙♙♙♙♙♙",
        "♖♘♗♕♔♗♘♖",
    ]);
    assert_eq!(moves_json(PIECES, "nil", &["--fen", START_FEN]), vec![start.clone()]);

    let steps = moves_json(PIECES, "pawn_step", &["--fen", START_FEN]);
    assert_eq!(steps.len(), 8, "{steps:?}");
    for b in &steps {
        assert_eq!(b[..5], start[..5], "the top of the board is untouched");
        assert_eq!(b[7], start[7], "the back rank is untouched");
        assert_eq!(b[5].matches('♙').count(), 1);
        assert_eq!(b[6].matches('♙').count(), 7);
    }
    let both = moves_json(PIECES, "pawn_step | pawn_double", &["--fen", START_FEN]);
    assert_eq!(both.len(), 16);
    assert!(moves_json(PIECES, "rook_move", &["--fen", START_FEN]).is_empty());
    // Black pawns move down: the white pawn move, flipped.
    let black = moves_json(PIECES, "R² C pawn_step", &["--fen", START_FEN]);
    assert_eq!(black.len(), 8);
    assert!(black.iter().all(|b| b[1].matches('♟').count() == 7));
    // Only the placement field is needed.
    let lone_rook = moves_json(PIECES, "rook_move", &["--fen", "8/8/8/8/8/8/8/R7"]);
    assert_eq!(lone_rook.len(), 14);
}

#[test]
fn moves_open_move_with_poi() {
    let expr = "% + u. -> . + u%";
    let want = boards(&[&[".", "♖", "."]]);
    assert_eq!(moves_json(PIECES, expr, &["--board", "././♖", "--poi", "0,0"]), want);
    assert_eq!(moves_json(PIECES, expr, &["--board", "././♖", "--poi", "a1"]), want);
    // A square name other than a1.
    let b1 = moves_json(PIECES, expr, &["--board", "../../.♖", "--poi", "b1"]);
    assert_eq!(b1, boards(&[&["..", ".♖", ".."]]));
    assert_eq!(moves_json(PIECES, expr, &["--board", "../../.♖", "--poi", "1,0"]), b1);
    // Repeated, the open move slides the same piece.
    let slide = moves_json(PIECES, "(% + u. -> . + u%)+", &["--board", "././♖", "--poi", "a1"]);
    assert_eq!(slide, boards(&[&[".", "♖", "."], &["♖", ".", "."]]));
}

#[test]
fn moves_results_are_deduplicated() {
    // Both orders of removing the two pawns give the same board.
    let got = moves_json(PIECES, "(♙ -> .)(♙ -> .)", &["--board", "♙♙"]);
    assert_eq!(got, boards(&[&[".."]]));
    let union = moves_json(PIECES, "(♙ -> .) | (♙ -> .)", &["--board", "♙♙"]);
    assert_eq!(union, boards(&[&[".♙"], &["♙."]]));
}

#[test]
fn moves_plain_text_counts_results() {
    let two = run(["moves", PIECES, "--move", "♙ -> . + u♙", "--board", ".......\n..♙.♙.."]);
    assert_eq!(two.code, Some(0), "{two:?}");
    assert!(two.stdout.contains("2 results"), "{}", two.stdout);
    assert!(two.stdout.contains("....♙.."), "the boards are shown: {}", two.stdout);
    let one = run(["moves", PIECES, "--move", "♙ + ur♟ -> . + ur♙", "--board", ".♟/♙."]);
    assert_eq!(one.code, Some(0), "{one:?}");
    assert!(one.stdout.contains("1 result"), "{}", one.stdout);
    assert!(!one.stdout.contains("1 results"), "{}", one.stdout);
    let none = run(["moves", PIECES, "--move", "fail", "--board", "♙"]);
    assert_eq!(none.code, Some(0), "{none:?}");
    assert!(none.stdout.contains("0 results"), "{}", none.stdout);
}

// ---------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------

#[test]
fn check_seed_theorems_json() {
    let (code, reports) = check_json(&[OsStr::new(SEED)]);
    assert_eq!(code, Some(0), "every verdict in the seed agrees: {reports:?}");
    assert!(reports.iter().all(agrees), "{reports:?}");

    let a = report(&reports, "appendix_a");
    assert_eq!(a["relation"], "=");
    assert_eq!(a["verdict"], "holds-up-to");
    // The rook's moves are anchored: every board of their window, three
    // squares up its line, was covered.
    assert_eq!(a["cells"], 3);
    assert_eq!(a["bound"]["windows"], serde_json::json!([3, 3]), "{a}");
    assert!(a["counterexample"].is_null());

    let law = report(&reports, "rule_over_choice");
    assert_eq!(law["relation"], "=");
    assert_eq!(law["verdict"], "holds-up-to");
    assert!(law["instances"].as_u64().is_some_and(|n| n > 0), "{law}");

    assert_eq!(report(&reports, "king_path_poi")["verdict"], "holds-up-to");

    // Every refutation in the seed is confirmed by running both sides.
    let refuted = [
        (
            "appendix_a_twice_is_not_the_choice",
            "%♖: A{2}",
            "%♖: A | (% + u. + uu. -> . + u. + uu%)",
        ),
        ("some_pawn_twice", "pawn_up pawn_up", "(♙ + u. + uu. -> . + u. + uu♙)"),
        ("king_up_right", "king_up king_right", "(♔ + ur. -> . + ur♔)"),
        (
            "king_up_right_poi",
            "%♔: (% + u. -> . + u%)(% + r. -> . + r%)",
            "%♔: (% + ur. -> . + ur%)",
        ),
        ("king_path", "king_up king_right", "(♔ + u. + ur. -> . + u. + ur♔)"),
    ];
    for (name, lhs, rhs) in refuted {
        let r = report(&reports, name);
        assert_eq!(r["relation"], "!=", "{r}");
        assert_eq!(r["verdict"], "refuted", "{r}");
        confirm_counterexample(SEED, lhs, rhs, &r["counterexample"]);
    }
    let cx = &report(&reports, "appendix_a_twice_is_not_the_choice")["counterexample"];
    assert!(
        strings(&cx["board"]).concat().contains('♖'),
        "the board has a rook: {cx}"
    );
}

#[test]
fn check_a_directory() {
    // Small explicit bounds: the verdicts, not the machine's speed, are
    // under test.
    let args = [
        "theorems/",
        "--positions",
        "200",
        "--max-cells",
        "6",
        "--work",
        "200000",
    ];
    let (code, reports) = check_json(&args.map(OsStr::new));
    assert_eq!(code, Some(0), "{reports:?}");
    assert!(reports.iter().all(agrees), "{reports:?}");
    for name in ["appendix_a", "appendix_a_twice_is_not_the_choice", "king_path"] {
        report(&reports, name);
    }
    // Claims about chess are also compared on positions of play; claims of
    // files without a game are not.
    assert_eq!(report(&reports, "legal_ply_leaves_no_check")["positions"], 200);
    assert!(report(&reports, "appendix_a").get("positions").is_none());
}

#[test]
fn check_settles_the_kat_suite() {
    // The truth of the prover's hard suite, settled by enumeration alone:
    // the checker shares no code with the prover. Lines of nine squares
    // (`M{8}`) are reached by sparse boards past the boxes.
    let args = ["theorems/kat/", "--max-cells", "8", "--work", "300000"];
    let (code, reports) = check_json(&args.map(OsStr::new));
    assert!(reports.len() >= 150, "{}", reports.len());
    let wrong: Vec<&Value> = reports.iter().filter(|r| !agrees(r)).collect();
    assert!(wrong.is_empty(), "{wrong:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn check_settles_the_finite_suite() {
    // The truth of theorems/finite/ by plain enumeration of boxes, without
    // the small-model bound the prover proves by: every claim agrees.
    let args = [
        "theorems/finite/",
        "--no-window",
        "--max-cells",
        "8",
        "--work",
        "1000000",
    ];
    let (code, reports) = check_json(&args.map(OsStr::new));
    assert!(reports.len() >= 100, "{}", reports.len());
    let wrong: Vec<&Value> = reports.iter().filter(|r| !agrees(r)).collect();
    assert!(wrong.is_empty(), "{wrong:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn check_plain_text_and_several_files() {
    let dir = TempDir::new("check_plain_text_and_several_files");
    dir.write("a.alg", "theorem ok: (♙ + r. -> . + r♙) = (r. + ♙ -> r♙ + .)\n");
    dir.write("b.alg", "theorem moves: u = ru\n");
    dir.write("notes.txt", "not a rule file\n");
    let out = run([OsStr::new("check"), dir.path().as_os_str()]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("a.alg") && out.stdout.contains("b.alg"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("✓ ok (=)"), "{}", out.stdout);
    assert!(out.stdout.contains("✗ moves (=): refuted"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("notes"),
        "only .alg files are read: {}",
        out.stdout
    );
}

#[test]
fn check_disagreeing_equality_exits_1() {
    let dir = TempDir::new("check_disagreeing_equality_exits_1");
    let lhs = "(♙ + u. -> . + u♙)";
    let rhs = "(♙ + u. + uu. -> . + u. + uu♙)";
    let path = dir.write("wrong.alg", &format!("theorem wrong: {lhs} = {rhs}\n"));
    let (code, reports) = check_json(&[path.as_os_str()]);
    assert_eq!(code, Some(1), "{reports:?}");
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(r["name"], "wrong");
    assert_eq!(r["relation"], "=");
    assert_eq!(r["verdict"], "refuted");
    assert!(r["counterexample"]["poi"].is_null(), "{r}");
    confirm_counterexample(path.to_str().unwrap(), lhs, rhs, &r["counterexample"]);

    let text = run([OsStr::new("check"), path.as_os_str()]);
    assert_eq!(text.code, Some(1), "{text:?}");
    assert!(text.stdout.contains("✗ wrong (=): refuted"), "{}", text.stdout);
}

#[test]
fn check_disagreeing_open_equality_has_a_poi() {
    let dir = TempDir::new("check_disagreeing_open_equality_has_a_poi");
    let lhs = "(% + u. -> . + u%)";
    let rhs = "(% + u. + uu. -> . + u. + uu%)";
    let path = dir.write("open.alg", &format!("theorem open: {lhs} = {rhs}\n"));
    let (code, reports) = check_json(&[path.as_os_str()]);
    assert_eq!(code, Some(1), "{reports:?}");
    let cx = &report(&reports, "open")["counterexample"];
    assert!(cx["poi"].is_array(), "an open claim's counterexample names a POI: {cx}");
    confirm_counterexample(path.to_str().unwrap(), lhs, rhs, cx);
}

#[test]
fn check_false_inequality_exits_1() {
    let dir = TempDir::new("check_false_inequality_exits_1");
    let path = dir.write(
        "same.alg",
        "// Gluing is commutative, so these are the same move.\n\
         theorem same: (♙ + u. -> . + u♙) != (u. + ♙ -> u♙ + .)\n",
    );
    let (code, reports) = check_json(&[path.as_os_str()]);
    assert_eq!(code, Some(1), "{reports:?}");
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["relation"], "!=");
    assert_eq!(reports[0]["verdict"], "holds-up-to");
    assert!(reports[0]["counterexample"].is_null());
    // Decided exactly (the two sides elaborate to one term) or by a search
    // that covered boards.
    assert!(reports[0]["exact"] == true || reports[0]["cells"].as_u64().unwrap() > 0);
}

#[test]
fn check_one_disagreement_among_agreements_exits_1() {
    let dir = TempDir::new("check_one_disagreement_among_agreements_exits_1");
    let path = dir.write(
        "mixed.alg",
        "theorem group: ur = ru\ntheorem differ: u != d\ntheorem bad: u = d\n",
    );
    let (code, reports) = check_json(&[path.as_os_str()]);
    assert_eq!(code, Some(1), "{reports:?}");
    assert_eq!(reports.len(), 3, "every claim is reported: {reports:?}");
    assert!(agrees(report(&reports, "group")));
    assert!(agrees(report(&reports, "differ")));
    let bad = report(&reports, "bad");
    assert!(!agrees(bad));
    assert_eq!(bad["counterexample"]["kind"], "normal-form", "{bad}");
    // --only picks the agreeing claims, so the run agrees.
    let (code, only) = check_json(&[path.as_os_str(), OsStr::new("--only"), OsStr::new("group")]);
    assert_eq!(code, Some(0), "{only:?}");
    assert_eq!(only.len(), 1);
}

// ---------------------------------------------------------------------------
// Bad input: exit status 2, `file:line:col` and a message, never a panic
// ---------------------------------------------------------------------------

#[test]
fn error_syntax() {
    let dir = TempDir::new("error_syntax");
    let (path, out) = check_text(&dir, "e.alg", "a = .\nb = ♙ + + .\n");
    assert_bad_input(&out, &format!("{}:2:9", path.display()), "unexpected `+`");
    let (path, out) = check_text(&dir, "end.alg", "a = . +\n");
    assert_bad_input(&out, &format!("{}:1:8", path.display()), "unexpected end of input");
}

#[test]
fn error_location_line_3_column_5() {
    let dir = TempDir::new("error_location_line_3_column_5");
    let (path, out) = check_text(&dir, "e.alg", "// a comment\ngood = ♙ -> .\nx = zzz\n");
    assert_bad_input(&out, &format!("{}:3:5", path.display()), "unknown name `zzz`");
}

#[test]
fn error_location_counts_characters() {
    let dir = TempDir::new("error_location_counts_characters");
    // `zz` is the 14th character but the 18th byte.
    let (path, out) = check_text(&dir, "e.alg", "a = ♙ + r♙ + zz\n");
    assert_bad_input(&out, &format!("{}:1:14", path.display()), "unknown name `zz`");
    let (path, out) = check_text(&dir, "f.alg", "a = ♙ + r♙\nb = ♙ + zz\n");
    assert_bad_input(&out, &format!("{}:2:9", path.display()), "unknown name `zz`");
}

#[test]
fn error_locations_agree_after_non_ascii() {
    let dir = TempDir::new("error_locations_agree_after_non_ascii");
    let (path, out) = check_text(&dir, "f.alg", "a = ♙ + r♙\nb = ♙ + zz\n");
    let name = path.display().to_string();
    assert_eq!(out.code, Some(2));
    let locations: BTreeSet<String> = out
        .stderr
        .match_indices(&name)
        .map(|(i, _)| {
            let rest = &out.stderr[i + name.len()..];
            let loc: String = rest.chars().take_while(|c| *c == ':' || c.is_ascii_digit()).collect();
            loc.trim_end_matches(':').to_string()
        })
        .collect();
    assert_eq!(
        locations,
        BTreeSet::from([":2:9".to_string()]),
        "every location printed for one error agrees:\n{}",
        out.stderr
    );
}

#[test]
fn error_unknown_name() {
    let dir = TempDir::new("error_unknown_name");
    let (path, out) = check_text(&dir, "e.alg", "a = zzz\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "unknown name `zzz`");
    // In --move too, with the column inside the expression.
    let out = run(["moves", PIECES, "--move", "♙ -> . + zzz", "--board", "♙"]);
    assert_bad_input(&out, "--move:1:10", "unknown name `zzz`");
}

#[test]
fn error_every_error_in_a_file_is_reported() {
    let dir = TempDir::new("error_every_error_in_a_file_is_reported");
    let (path, out) = check_text(&dir, "e.alg", "a = zzz\nb = yyy\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "unknown name `zzz`");
    assert_bad_input(&out, &format!("{}:2:5", path.display()), "unknown name `yyy`");
}

#[test]
fn error_glue_on_one_square() {
    let dir = TempDir::new("error_glue_on_one_square");
    let (path, out) = check_text(&dir, "e.alg", "a = ♙ + ♙\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "cannot glue");
    assert!(out.stderr.contains("(0, 0)"), "the square is named: {}", out.stderr);
    let out = run(["moves", PIECES, "--move", "♙ + ♙ -> .", "--board", "♙"]);
    assert_bad_input(&out, "--move:1:1", "cannot glue");
}

#[test]
fn error_two_pois_in_one_fragment() {
    let dir = TempDir::new("error_two_pois_in_one_fragment");
    let (path, out) = check_text(&dir, "e.alg", "a = % + r%\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "two `%`");
}

#[test]
fn error_type_mismatch() {
    let dir = TempDir::new("error_type_mismatch");
    let (path, out) = check_text(&dir, "e.alg", "a = u -> .\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "movement");
    let (path, out) = check_text(&dir, "claim.alg", "theorem t: (♙ -> .) = ♙\n");
    assert_bad_input(&out, &format!("{}:1:12", path.display()), "differ in sort");
    let out = run(["moves", PIECES, "--move", "u", "--board", "♙"]);
    assert_bad_input(&out, "--move:1:1", "not a move");
}

#[test]
fn error_recursion() {
    let dir = TempDir::new("error_recursion");
    let (path, out) = check_text(&dir, "e.alg", "a = b\nb = a\n");
    assert_bad_input(&out, &format!("{}:2:5", path.display()), "recursive");
    let (path, out) = check_text(&dir, "self.alg", "a = (♙ -> .) a\n");
    assert_bad_input(&out, &format!("{}:1:14", path.display()), "recursive");
}

#[test]
fn error_duplicate_definition() {
    let dir = TempDir::new("error_duplicate_definition");
    let (path, out) = check_text(&dir, "e.alg", "a = ♙\na = ♟\n");
    assert_bad_input(&out, &format!("{}:2:1", path.display()), "defined twice");
}

#[test]
fn error_empty_range() {
    let dir = TempDir::new("error_empty_range");
    let (path, out) = check_text(&dir, "e.alg", "a = (♙ -> .){3,1}\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "empty range");
}

#[test]
fn error_negative_count() {
    let dir = TempDir::new("error_negative_count");
    let (path, out) = check_text(&dir, "e.alg", "a = (♙ -> .){-1}\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "-1");
    let (path, out) = check_text(&dir, "range.alg", "a = (♙ -> .){-1,2}\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "-1");
}

#[test]
fn error_unknown_piece_glyph() {
    let dir = TempDir::new("error_unknown_piece_glyph");
    let (path, out) = check_text(&dir, "e.alg", "a = ★\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "unknown piece `★`");
    let (path, out) = check_text(&dir, "ascii.alg", "a = 'zz\n");
    assert_bad_input(&out, &format!("{}:1:5", path.display()), "unknown piece `'zz`");
}

#[test]
fn error_open_move_without_poi() {
    let out = run(["moves", PIECES, "--move", "% + u. -> . + u%", "--board", "././♖"]);
    assert_bad_input(&out, "--move:1:1", "piece of interest");
    assert!(out.stderr.contains("--poi"), "the error mentions --poi: {}", out.stderr);
    // A definition with a free `%` is open too.
    let out = run(["moves", PIECES, "--move", "rook_move_u", "--board", "././♖"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--poi"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn error_bad_poi() {
    let expr = "% + u. -> . + u%";
    let out = run(["moves", PIECES, "--move", expr, "--board", "././♖", "--poi", "zz"]);
    assert_bad_input(&out, "--poi:1:1", "expected `x,y`");
    let out = run(["moves", PIECES, "--move", expr, "--board", "././♖", "--poi", "a9"]);
    assert_bad_input(&out, "--poi:1:1", "not on the board");
}

#[test]
fn error_malformed_board() {
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--board", "..\n.x"]);
    assert_bad_input(&out, "--board:2:2", "unknown piece `x`");
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--board", "♙./."]);
    assert_bad_input(&out, "--board:1:4", "rows differ in length");
    // Neither --board nor --fen.
    let out = run(["moves", PIECES, "--move", "♙ -> ."]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--board"), "{}", out.stderr);
    // Both.
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--board", "♙", "--fen", START_FEN]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);
}

#[test]
fn error_bad_fen() {
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", "8"]);
    assert_bad_input(&out, "--fen:1:1", "2 to 26 ranks");
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", "9/8/8/8/8/8/8/8"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("FEN rank 7 has 8 squares, and rank 8 has 9"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", "X7/8/8/8/8/8/8/8"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("`X` is not a FEN piece letter"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    // Rights the rules cannot hold are dropped with a warning.
    let out = run(["moves", PIECES, "--move", "nil", "--fen", "8/8/8/8/8/8/8/8 w KQ - 0 1"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.contains("warning: `KQ` is not kept"), "{}", out.stderr);
}

#[test]
fn error_bad_fen_letter_location() {
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", "X7/8/8/8/8/8/8/8"]);
    assert_bad_input(&out, "--fen:1:1", "`X` is not a FEN piece letter");
    let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", "8/8/8/8/8/8/8/7X w"]);
    assert_bad_input(&out, "--fen:1:16", "`X` is not a FEN piece letter");
}

#[test]
fn error_bad_fen_rank_location() {
    // The location must fall on the offending rank: its first character or
    // the end of it, and the span must lie inside the FEN text.
    let on_rank = |fen: &str, cols: [usize; 2], message: &str| {
        let out = run(["moves", PIECES, "--move", "♙ -> .", "--fen", fen]);
        assert_eq!(out.code, Some(2), "{out:?}");
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        assert!(
            !out.stderr.contains("Failed to read"),
            "the span is in bounds: {}",
            out.stderr
        );
        assert!(
            cols.iter()
                .any(|c| out.stderr.contains(&format!("--fen:1:{c}: {message}"))),
            "expected --fen:1:{cols:?}: {message}, got:\n{}",
            out.stderr
        );
    };
    on_rank("8/8/8/8/8/8/8/7", [15, 16], "FEN rank 1 has 7 squares");
    on_rank("9/8/8/8/8/8/8/8", [3, 4], "FEN rank 7 has 8 squares, and rank 8 has 9");
    on_rank("8/8/8/8/8/8/8/9 w - - 0 1", [15, 16], "FEN rank 1 has 9 squares");
}

#[test]
fn error_missing_file() {
    let dir = TempDir::new("error_missing_file");
    let missing = dir.path().join("no-such-file.alg");
    let m = missing.to_str().unwrap();
    for args in [
        vec!["moves", m, "--move", "nil", "--board", "."],
        vec!["check", m],
        vec!["fmt", m],
    ] {
        let out = run(&args);
        assert_bad_input_message(&out, "cannot read");
        assert!(out.stderr.contains(m), "the path is named: {}", out.stderr);
    }
    let empty = dir.path().join("empty-dir");
    fs::create_dir(&empty).unwrap();
    let out = run([OsStr::new("check"), empty.as_os_str()]);
    assert_bad_input_message(&out, "no .alg files");
}

#[test]
fn error_bad_options() {
    let out = run(["check", "--max-cells", "0", PIECES]);
    assert_bad_input_message(&out, "--max-cells");
    let out = run(["frobnicate"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(!out.stderr.is_empty());
    let out = run::<[&str; 0], &str>([]);
    assert_eq!(out.code, Some(2), "no subcommand: {out:?}");
    assert!(out.stderr.contains("Usage"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------
// --help
// ---------------------------------------------------------------------------

#[test]
fn help_everywhere() {
    let top = run(["--help"]);
    assert_eq!(top.code, Some(0), "{top:?}");
    for sub in ["moves", "check", "fmt"] {
        assert!(top.stdout.contains(sub), "top-level help lists {sub}: {}", top.stdout);
    }
    let cases: [(&str, &[&str]); 3] = [
        ("moves", &["--move", "--board", "--fen", "--poi", "--json"]),
        ("check", &["--json", "--only", "--max-cells"]),
        ("fmt", &["--write", "--check"]),
    ];
    for (sub, flags) in cases {
        let out = run([sub, "--help"]);
        assert_eq!(out.code, Some(0), "{sub} --help: {out:?}");
        assert!(out.stdout.contains("Usage: algchess"), "{sub}: {}", out.stdout);
        for f in flags {
            assert!(out.stdout.contains(f), "{sub} --help documents {f}: {}", out.stdout);
        }
        let help = run(["help", sub]);
        assert_eq!(help.code, Some(0), "help {sub}: {help:?}");
        assert!(help.stdout.contains("Usage: algchess"), "{}", help.stdout);
    }
    let version = run(["--version"]);
    assert_eq!(version.code, Some(0));
    assert!(version.stdout.starts_with("algchess "), "{}", version.stdout);
}

// ---------------------------------------------------------------------------
// fmt
// ---------------------------------------------------------------------------

const UNFORMATTED: &str = "// top comment\n\
A=(%+u.->.+u%)   // trailing comment\n\
\n\n\n\
// about pawns\n\
pawn_up=♙+u.->.+u♙\n\
theorem  t :  pawn_up   pawn_up!=  (♙+u.+uu.->.+u.+uu♙)\n\
twice(X)=X X\n";

#[test]
fn fmt_prints_stable_output_with_comments() {
    let dir = TempDir::new("fmt_prints_stable_output_with_comments");
    let src = dir.write("u.alg", UNFORMATTED);
    let out = run([OsStr::new("fmt"), src.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let formatted = out.stdout;
    assert_ne!(formatted, UNFORMATTED, "the file was not formatted");
    for comment in ["// top comment", "// trailing comment", "// about pawns"] {
        assert!(formatted.contains(comment), "comment `{comment}` kept:\n{formatted}");
    }
    assert!(formatted.contains("pawn_up = ♙ + u. -> . + u♙"), "{formatted}");

    let again_path = dir.write("f.alg", &formatted);
    let again = run([OsStr::new("fmt"), again_path.as_os_str()]);
    assert_eq!(again.code, Some(0), "{again:?}");
    assert_eq!(again.stdout, formatted, "fmt is stable");
}

#[test]
fn fmt_keeps_meaning() {
    let dir = TempDir::new("fmt_keeps_meaning");
    let src = dir.write("u.alg", UNFORMATTED);
    let out = run([OsStr::new("fmt"), src.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let dst = dir.write("f.alg", &out.stdout);
    for expr in ["pawn_up pawn_up", "%♙: twice(A)"] {
        let a = moves_json(src.to_str().unwrap(), expr, &["--board", "../../♙♙"]);
        let b = moves_json(dst.to_str().unwrap(), expr, &["--board", "../../♙♙"]);
        assert!(!a.is_empty(), "{expr}");
        assert_eq!(a, b, "{expr} means the same after fmt");
    }
    let verdicts = |p: &Path| {
        let (code, reports) = check_json(&[p.as_os_str()]);
        let v: Vec<(Value, Value)> = reports
            .iter()
            .map(|r| (r["name"].clone(), r["verdict"].clone()))
            .collect();
        (code, v)
    };
    let before = verdicts(&src);
    assert_eq!(before.0, Some(0));
    assert_eq!(before, verdicts(&dst));
}

/// Every `.alg` file the project ships, subfolders included, is kept as
/// `fmt` writes it.
#[test]
fn bundled_files_are_formatted() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "alg") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for top in ["rules", "theorems", "axioms"] {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(top), &mut files);
    }
    assert!(files.len() > 20, "{files:?}");
    let out = run(std::iter::once(OsStr::new("fmt"))
        .chain(std::iter::once(OsStr::new("--check")))
        .chain(files.iter().map(|f| f.as_os_str())));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn fmt_check() {
    let dir = TempDir::new("fmt_check");
    let src = dir.write("u.alg", UNFORMATTED);
    let out = run([OsStr::new("fmt"), OsStr::new("--check"), src.as_os_str()]);
    assert_eq!(out.code, Some(1), "an unformatted file: {out:?}");
    assert!(
        out.stdout.is_empty(),
        "--check prints nothing on stdout: {}",
        out.stdout
    );
    assert!(out.stderr.contains("not formatted"), "{}", out.stderr);

    let formatted = run([OsStr::new("fmt"), src.as_os_str()]).stdout;
    let ok = dir.write("f.alg", &formatted);
    let out = run([OsStr::new("fmt"), OsStr::new("--check"), ok.as_os_str()]);
    assert_eq!(out.code, Some(0), "a formatted file: {out:?}");
    assert!(out.stdout.is_empty());

    // The example fixture is kept formatted.
    let out = run(["fmt", "--check", PIECES]);
    assert_eq!(out.code, Some(0), "{out:?}");

    // One unformatted file among several is enough.
    let out = run([
        OsStr::new("fmt"),
        OsStr::new("--check"),
        ok.as_os_str(),
        src.as_os_str(),
    ]);
    assert_eq!(out.code, Some(1), "{out:?}");
}

#[test]
fn fmt_write_rewrites_in_place() {
    let dir = TempDir::new("fmt_write_rewrites_in_place");
    let src = dir.write("u.alg", UNFORMATTED);
    let expected = run([OsStr::new("fmt"), src.as_os_str()]).stdout;
    let out = run([OsStr::new("fmt"), OsStr::new("--write"), src.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "--write prints nothing: {}", out.stdout);
    assert_eq!(fs::read_to_string(&src).unwrap(), expected);
    let out = run([OsStr::new("fmt"), OsStr::new("--check"), src.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // Again: nothing changes.
    let out = run([OsStr::new("fmt"), OsStr::new("-w"), src.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(fs::read_to_string(&src).unwrap(), expected);
    // --write and --check together are refused.
    let out = run([
        OsStr::new("fmt"),
        OsStr::new("--write"),
        OsStr::new("--check"),
        src.as_os_str(),
    ]);
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn fmt_syntax_error() {
    let dir = TempDir::new("fmt_syntax_error");
    let src = dir.write("e.alg", "// fine\na = ♙ + )\n");
    let out = run([OsStr::new("fmt"), src.as_os_str()]);
    assert_bad_input(&out, &format!("{}:2:9", src.display()), "unexpected `)`");
    let out = run([OsStr::new("fmt"), OsStr::new("--write"), src.as_os_str()]);
    assert_eq!(out.code, Some(2));
    assert_eq!(
        fs::read_to_string(&src).unwrap(),
        "// fine\na = ♙ + )\n",
        "a bad file is left alone"
    );
}

// ---------------------------------------------------------------------------
// import
// ---------------------------------------------------------------------------

#[test]
fn import_brings_pieces_and_definitions_but_not_claims() {
    let dir = TempDir::new("import_ok");
    fs::create_dir_all(dir.path().join("rules")).unwrap();
    dir.write(
        "rules/lib.alg",
        "piece ◆ / ◇\nstep = (% + u. -> . + u%)\nhop = %◆: step step\ntheorem in_lib: step = step\n",
    );
    let (_, out) = check_text(
        &dir,
        "main.alg",
        "import \"rules/lib.alg\"\ntheorem two_steps: hop = %◆: (% + u. + uu. -> . + u. + uu%)\ntheorem black_is_other: C hop != hop\n",
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("two_steps") && out.stdout.contains("black_is_other"),
        "{out:?}"
    );
    assert!(
        !out.stdout.contains("in_lib"),
        "claims of an imported file stay there: {out:?}"
    );
}

#[test]
fn import_errors_point_at_the_right_file() {
    let dir = TempDir::new("import_errors");
    let (main, out) = check_text(&dir, "main.alg", "a = nil\nimport \"missing.alg\"\n");
    assert_bad_input(&out, &format!("{}:2:8", main.display()), "cannot read");
    dir.write("broken.alg", "x = (nil\n");
    let (_, out) = check_text(&dir, "main.alg", "import \"broken.alg\"\n");
    assert_bad_input(&out, "broken.alg:1:9", "unexpected");
    dir.write("lib.alg", "a = nil\n");
    let (main, out) = check_text(&dir, "main.alg", "import \"lib.alg\"\na = fail\n");
    assert_bad_input(&out, &format!("{}:2:1", main.display()), "`a` is defined twice");
    assert!(out.stderr.contains("lib.alg:1:1"), "{}", out.stderr);
    let (main, out) = check_text(&dir, "main.alg", "import \"lib.alg\n");
    assert_bad_input(&out, &format!("{}:1:8", main.display()), "no closing");
}

#[test]
fn import_cycles_and_repeats_read_each_file_once() {
    let dir = TempDir::new("import_cycle");
    dir.write("a.alg", "import \"b.alg\"\nA = (% + u. -> . + u%)\n");
    dir.write("b.alg", "import \"a.alg\"\nB = A A\n");
    let (_, out) = check_text(
        &dir,
        "main.alg",
        "import \"a.alg\"\nimport \"b.alg\"\ntheorem b: B = A A\n",
    );
    assert_eq!(out.code, Some(0), "{out:?}");
}

#[test]
fn fmt_keeps_imports() {
    let dir = TempDir::new("fmt_import");
    dir.write("lib.alg", "a = nil\n");
    let path = dir.write("main.alg", "import   \"lib.alg\"\nb = a   a\n");
    let out = run([OsStr::new("fmt"), path.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.starts_with("import \"lib.alg\"\n"), "{}", out.stdout);
}

#[test]
fn bundled_rule_files_are_formatted() {
    let out = run(["fmt", "--check", "axioms", "theorems", "rules"]);
    assert_eq!(out.code, Some(0), "{out:?}");
}

// ---------------------------------------------------------------------------
// check --positions: evidence on positions reachable in play
// ---------------------------------------------------------------------------

const CHESS_THEOREMS: &str = "theorems/chess.alg";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A rule file in `dir` that imports the bundled chess rules, then `body`.
fn chess_file(dir: &TempDir, body: &str) -> PathBuf {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg");
    dir.write("main.alg", &format!("import \"{}\"\n{body}", rules.display()))
}

/// Small bounds for the enumeration, so that only positions can refute.
const TINY: [&str; 5] = ["--max-cells", "1", "--work", "10000", "--no-sparse"];

fn with<'a>(first: &'a [&'a str], rest: &[&'a OsStr]) -> Vec<&'a OsStr> {
    first.iter().map(OsStr::new).chain(rest.iter().copied()).collect()
}

#[test]
fn check_positions_refute_what_small_boards_cannot() {
    // Short castling mirrored is not long castling; on boards of one square
    // nothing castles, but Kiwipete, the first position where both sides
    // can castle, tells them apart.
    let name = "castle_short_mirrored_is_not_long";
    let base = [
        CHESS_THEOREMS,
        "--only",
        name,
        "--max-cells",
        "1",
        "--work",
        "10000",
        "--no-sparse",
    ];
    let (code, reports) = check_json(&with(&base, &[OsStr::new("--positions"), OsStr::new("20")]));
    assert_eq!(code, Some(0), "a refuted `!=` is confirmed: {reports:?}");
    let r = report(&reports, name);
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(r["refuted_on"], "position", "{r}");
    assert!(r["positions"].is_u64(), "{r}");
    let cx = &r["counterexample"];
    assert_eq!(cx["position"], "Kiwipete", "{cx}");
    assert_eq!(cx["fen"], KIWIPETE, "{cx}");
    assert!(cx["poi"].is_null(), "{cx}");
    assert_eq!(cx["squares"], 64, "{cx}");
    // Both result sets are what `moves` gives on that position.
    for (side, expr) in [("left", "F castle_short"), ("right", "castle_long")] {
        let got: BTreeSet<Board> = moves_json(CHESS_THEOREMS, expr, &["--fen", KIWIPETE])
            .into_iter()
            .collect();
        assert_eq!(got, side_boards(&cx[side], true), "{side}: {expr}");
    }

    // Without positions, boards of one square cannot refute it.
    let (code, reports) = check_json(&with(&base, &[OsStr::new("--positions"), OsStr::new("0")]));
    assert_eq!(code, Some(1), "{reports:?}");
    let r = report(&reports, name);
    assert_eq!(r["verdict"], "holds-up-to", "{r}");
    assert!(r.get("positions").is_none(), "{r}");
}

#[test]
fn check_positions_refute_a_false_equation_in_text_and_json() {
    let dir = TempDir::new("positions_false_equation");
    let file = chess_file(
        &dir,
        "// Pseudo-legal moves are not legal moves.\n\
         theorem pseudo_legal: white = clear_ep white_move\n\
         theorem idempotent: M | M = M\n\
         theorem no_check: white in_check = fail\n",
    );
    let (code, reports, summary) = check_json_summary(&with(
        &TINY,
        &[file.as_os_str(), OsStr::new("--positions"), OsStr::new("300")],
    ));
    assert_eq!(code, Some(1), "{reports:?}");
    let r = report(&reports, "pseudo_legal");
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(r["refuted_on"], "position", "{r}");
    let cx = &r["counterexample"];
    let fen = cx["fen"].as_str().unwrap_or_else(|| panic!("a FEN: {cx}"));
    let (left, right) = (side_boards(&cx["left"], true), side_boards(&cx["right"], true));
    assert!(left.is_subset(&right) && left.len() < right.len(), "{cx}");
    let legal: BTreeSet<Board> = moves_json(file.to_str().unwrap(), "white", &["--fen", fen])
        .into_iter()
        .collect();
    assert_eq!(legal, left, "the left side on {fen}");
    // A law is checked on random instances only; a true claim holds on
    // every position sampled.
    assert!(report(&reports, "idempotent").get("positions").is_none());
    assert_eq!(report(&reports, "no_check")["positions"], 300);
    assert_eq!(summary["summary"]["refuted"], 1, "{summary}");

    let text = run(with(
        &["check"],
        &with(&TINY, &[file.as_os_str(), OsStr::new("--positions"), OsStr::new("300")]),
    ));
    assert_eq!(text.code, Some(1), "{text:?}");
    assert!(
        text.stdout
            .contains("✗ pseudo_legal (=): refuted on a reachable position"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains(&format!("({fen})")),
        "the FEN is shown: {}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("✓ no_check (=): holds on every board of up to 1 squares and on 300 reachable positions"),
        "{}",
        text.stdout
    );
}

// ---------------------------------------------------------------------------
// Runs in CI: summaries, exit statuses, shards, streaming
// ---------------------------------------------------------------------------

#[test]
fn check_ends_with_a_summary() {
    let dir = TempDir::new("check_summary");
    let path = dir.write(
        "mixed.alg",
        "theorem group: ur = ru\ntheorem differ: u != d\ntheorem bad: u = d\n",
    );
    let text = run([OsStr::new("check"), path.as_os_str()]);
    assert_eq!(text.code, Some(1), "{text:?}");
    let last = text.stdout.lines().last().unwrap();
    assert!(
        last.starts_with("summary: 3 claims: 1 holds, 2 refuted; 2 as claimed, 1 contradicted ["),
        "{last}"
    );
    let (code, _, summary) = check_json_summary(&[path.as_os_str()]);
    assert_eq!(code, Some(1));
    let s = &summary["summary"];
    assert_eq!(
        (&s["agree"], &s["disagree"], &s["unknown"]),
        (&2.into(), &1.into(), &0.into())
    );
}

#[test]
fn unknowns_fail_unless_allowed() {
    let dir = TempDir::new("check_unknown");
    // With no work to search, a true claim gets no evidence: unknown.
    let path = dir.write(
        "true.alg",
        "theorem up: (♙ + u. -> . + u♙) (♙ + u. -> . + u♙) = (♙ + u. -> . + u♙){2}\n",
    );
    let args = [path.as_os_str(), OsStr::new("--work"), OsStr::new("1")];
    let (code, reports, summary) = check_json_summary(&args);
    assert_eq!(code, Some(1), "{reports:?}");
    assert_eq!(summary["summary"]["unknown"], 1, "{summary}");
    let mut allowed = args.to_vec();
    allowed.push(OsStr::new("--allow-unknown"));
    let (code, _, _) = check_json_summary(&allowed);
    assert_eq!(code, Some(0), "--allow-unknown lets an unknown pass");
    let text = run([OsStr::new("check")].iter().copied().chain(allowed.iter().copied()));
    assert_eq!(text.code, Some(0));
    assert!(text.stdout.contains("1 unknown, allowed"), "{}", text.stdout);

    // ...but not a refutation.
    let wrong = dir.write(
        "wrong.alg",
        "theorem down: u = d\ntheorem up: (♙ + u. -> . + u♙) (♙ + u. -> . + u♙) = (♙ + u. -> . + u♙){2}\n",
    );
    let (code, _, summary) = check_json_summary(&[
        wrong.as_os_str(),
        OsStr::new("--work"),
        OsStr::new("1"),
        OsStr::new("--allow-unknown"),
    ]);
    assert_eq!(code, Some(1), "{summary}");
    assert_eq!(
        (&summary["summary"]["disagree"], &summary["summary"]["unknown"]),
        (&1.into(), &1.into())
    );
}

#[test]
fn shards_split_the_claims_of_a_directory() {
    let args = ["theorems/", "--max-cells", "3", "--work", "50000", "--positions", "10"];
    let verdicts = |reports: &[Value]| -> Vec<(String, String)> {
        reports
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_string(),
                    r["verdict"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let (code, whole, summary) = check_json_summary(&os_args(&args));
    let whole = verdicts(&whole);
    assert!(whole.len() >= 40, "{whole:?}");
    let mut union: Vec<(String, String)> = vec![];
    let mut failed = 0;
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut a = os_args(&args);
        a.extend([OsStr::new("--shard"), OsStr::new(&shard)]);
        let (shard_code, part, s) = check_json_summary(&a);
        assert_eq!(s["summary"]["shard"], shard.as_str(), "{s}");
        let part = verdicts(&part);
        assert!(!part.is_empty(), "shard {shard}");
        failed += s["summary"]["disagree"].as_u64().unwrap();
        assert_eq!(shard_code == Some(0), s["summary"]["disagree"] == 0, "{s}");
        union.extend(part);
    }
    assert_eq!(union.len(), whole.len(), "every claim in exactly one shard");
    union.sort();
    let mut sorted = whole.clone();
    sorted.sort();
    assert_eq!(union, sorted, "the shards' verdicts are the whole run's");
    assert_eq!(Some(failed), summary["summary"]["disagree"].as_u64());
    assert_eq!(code == Some(0), failed == 0);
}

fn os_args<'a>(args: &[&'a str]) -> Vec<&'a OsStr> {
    args.iter().map(|a| OsStr::new(*a)).collect()
}

#[test]
fn bad_shards_exit_2() {
    for bad in ["0/3", "4/3", "1/0", "2", "a/b", "1/2/3"] {
        for cmd in ["check", "prove"] {
            let out = run([cmd, SEED, "--shard", bad]);
            assert_eq!(out.code, Some(2), "{cmd} --shard {bad}: {out:?}");
            assert!(out.stdout.is_empty(), "{out:?}");
            assert!(
                out.stderr.contains("--shard") && out.stderr.contains("1 <= I <= N"),
                "{cmd} --shard {bad}: {}",
                out.stderr
            );
        }
    }
}

/// Each verdict is printed as soon as it is decided: the first claim's
/// line arrives while the second is still being searched, and survives
/// the run being killed.
#[test]
fn verdicts_stream_before_the_run_ends() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = TempDir::new("streaming");
    let file = chess_file(&dir, "theorem fast: ur = ru\ntheorem slow: white in_check = fail\n");
    for args in [
        vec!["check", "--json", "--timeout", "120", "--positions", "0"],
        vec!["prove", "--timeout", "120", "--positions", "0"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_algchess"))
            .args(&args)
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let running = child.try_wait().unwrap().is_none();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(running, "{args:?}: the run is still searching `slow`");
        if args.contains(&"--json") {
            let r: Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("{e}: {first}"));
            assert_eq!(r["name"], "fast", "{r}");
        } else {
            assert!(first.starts_with("✓ fast (=): proved"), "{first}");
        }
    }
}

#[test]
fn check_help_lists_the_ci_flags() {
    for cmd in ["check", "prove"] {
        let out = run([cmd, "--help"]);
        assert_eq!(out.code, Some(0));
        for flag in ["--positions", "--allow-unknown", "--shard"] {
            assert!(out.stdout.contains(flag), "{cmd} --help documents {flag}");
        }
    }
}
