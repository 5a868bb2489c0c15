//! `algchess puzzle`: placement puzzles and tours against published
//! figures (OEIS, the classic maxima of chess pieces) and against a
//! reference written from the pieces' definitions
//! (`tests/fixtures/puzzle/generate.py`) where none is published; and
//! boards drawn with `--svg` by every command that takes it.

use crate::common::{run, run_input, TempDir};
use algchess::puzzle::{place, read_pieces, tour, Board, Goal, Limits, Mode, PlaceOptions, TourOptions};
use algchess::{Files, MemoryLimit, Tiling};
use serde_json::Value;
use std::path::Path;

fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert_eq!(out.code, Some(0), "{args:?}: {}{}", out.stdout, out.stderr);
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", out.stdout))
}

fn place_json(piece: &str, board: &str, extra: &[&str]) -> Value {
    let mut args = vec!["puzzle", "place", "--piece", piece, "--board", board, "--json"];
    args.extend_from_slice(extra);
    json(&args)
}

fn tour_json(board: &str, extra: &[&str]) -> Value {
    let mut args = vec!["puzzle", "tour", "--piece", r#"betza"N""#, "--board", board, "--json"];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn n_queens_counts_as_oeis_a000170() {
    let want = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    for (n, count) in (1..).zip(want) {
        let board = format!("{n}x{n}");
        let out = place_json(r#"betza"Q""#, &board, &["--pieces", &n.to_string(), "--count"]);
        assert_eq!(
            (out["pieces"].as_u64(), out["count"].as_u64()),
            (Some(n), Some(count)),
            "{n} queens"
        );
    }
}

/// The benchmark's figure (`cargo bench --bench puzzle` times it).
#[test]
fn fourteen_queens_count_365596() {
    let out = place_json(r#"betza"Q""#, "14x14", &["--pieces", "14", "--count"]);
    assert_eq!(out["count"], 365_596);
}

#[test]
fn eight_queens_are_twelve_up_to_symmetry() {
    let out = place_json(r#"betza"Q""#, "8x8", &["--pieces", "8", "--unique"]);
    assert_eq!((out["unique"].as_u64(), out["count"].as_u64()), (Some(12), Some(92)));
    assert_eq!(out["symmetries"], 8);
    let solutions = out["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 12);
    // No two of them are one solution turned or mirrored.
    let canon = |s: &Value| -> Vec<(i32, i32)> {
        let squares: Vec<(i32, i32)> = s
            .as_array()
            .unwrap()
            .iter()
            .map(|q| {
                let q = q.as_str().unwrap().as_bytes();
                (i32::from(q[0] - b'a'), i32::from(q[1] - b'1'))
            })
            .collect();
        type Xy = (i32, i32);
        let maps: [fn(Xy) -> Xy; 8] = [
            |(x, y)| (x, y),
            |(x, y)| (7 - x, y),
            |(x, y)| (x, 7 - y),
            |(x, y)| (7 - x, 7 - y),
            |(x, y)| (y, x),
            |(x, y)| (7 - y, x),
            |(x, y)| (y, 7 - x),
            |(x, y)| (7 - y, 7 - x),
        ];
        maps.iter()
            .map(|m| {
                let mut v: Vec<(i32, i32)> = squares.iter().map(|q| m(*q)).collect();
                v.sort();
                v
            })
            .min()
            .unwrap()
    };
    let mut classes: Vec<Vec<(i32, i32)>> = solutions.iter().map(canon).collect();
    classes.sort();
    classes.dedup();
    assert_eq!(classes.len(), 12);
}

#[test]
fn the_most_of_each_chess_piece_on_8x8_and_in_how_many_ways() {
    for (piece, most, ways) in [
        (r#"betza"K""#, 16, 281_571),
        (r#"betza"N""#, 32, 2),
        (r#"betza"B""#, 14, 256),
        (r#"betza"R""#, 8, 40_320),
        (r#"betza"Q""#, 8, 92),
    ] {
        let out = place_json(piece, "8x8", &["--max", "--count"]);
        assert_eq!(
            (out["pieces"].as_u64(), out["count"].as_u64()),
            (Some(most), Some(ways)),
            "{piece}"
        );
    }
    // The rule file's own pieces, read off chess's moves, agree.
    let out = json(&[
        "puzzle",
        "place",
        "--rules",
        "rules/chess.alg",
        "--piece",
        "knight",
        "--max",
        "--count",
        "--json",
    ]);
    assert_eq!((out["pieces"].as_u64(), out["count"].as_u64()), (Some(32), Some(2)));
}

#[test]
fn the_interface_the_issue_names() {
    let out = place_json(r#"betza"Q""#, "8x8", &["--max", "--count"]);
    assert_eq!((out["pieces"].as_u64(), out["count"].as_u64()), (Some(8), Some(92)));
    let out = place_json(r#"betza"Q""#, "10x10", &["--pieces", "10", "--count"]);
    assert_eq!(out["count"], 724);
    let out = tour_json("6x6", &["--closed", "--count"]);
    assert_eq!(
        (out["count"].as_u64(), out["found"].as_bool()),
        (Some(9862), Some(true))
    );
    let first = place_json(r#"betza"Q""#, "8x8", &["--pieces", "8"]);
    assert_eq!(first["found"], true);
    assert_eq!(first["solution"].as_array().unwrap().len(), 8);
}

/// Whether `tour` names every square of a `w`×`h` board once, each step
/// a knight's.
fn knights_tour(tour: &Value, w: i32, h: i32, closed: bool) -> bool {
    let squares: Vec<(i32, i32)> = tour
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let q: algchess::Square = q.as_str().unwrap().parse().unwrap();
            (q.x, q.y)
        })
        .collect();
    let mut seen = squares.clone();
    seen.sort();
    seen.dedup();
    let knight = |a: (i32, i32), b: (i32, i32)| {
        let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        (dx, dy) == (1, 2) || (dx, dy) == (2, 1)
    };
    seen.len() == (w * h) as usize
        && squares.iter().all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
        && squares.windows(2).all(|p| knight(p[0], p[1]))
        && (!closed || knight(squares[0], squares[squares.len() - 1]))
}

#[test]
fn knights_tours_as_published() {
    let none = tour_json("4x4", &[]);
    assert_eq!(
        (none["found"].as_bool(), none["none"]["why"].as_str()),
        (Some(false), Some("searched"))
    );
    let out = tour_json("8x8", &[]);
    assert!(knights_tour(&out["tour"], 8, 8, false), "{out}");
    let out = tour_json("8x8", &["--closed"]);
    assert!(knights_tour(&out["tour"], 8, 8, true), "{out}");
    let out = tour_json("30x30", &[]);
    assert!(knights_tour(&out["tour"], 30, 30, false));
    // Two opposite corners out: settled by the colours, with no search.
    let out = tour_json("8x8-a1-h8", &["--closed"]);
    assert_eq!(out["found"], false);
    assert_eq!(out["none"]["why"], "colours");
    assert_eq!(
        (out["none"]["first"].as_u64(), out["none"]["second"].as_u64()),
        (Some(32), Some(30))
    );
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .contains("32 of one and 30 of the other"),
        "{out}"
    );
    let text = run([
        "puzzle",
        "tour",
        "--piece",
        r#"betza"N""#,
        "--board",
        "8x8-a1-h8",
        "--closed",
    ]);
    assert_eq!(text.code, Some(0));
    assert!(
        text.stdout.starts_with("no closed tour: every move goes between"),
        "{}",
        text.stdout
    );
}

#[test]
fn mixed_sets_are_placed_together() {
    // Eight queens fill every rank of 8×8: a ninth piece has no square.
    let none = json(&[
        "puzzle",
        "place",
        "--piece",
        r#"betza"Q""#,
        "--pieces",
        "8",
        "--piece",
        r#"betza"N""#,
        "--pieces",
        "1",
        "--board",
        "8x8",
        "--count",
        "--json",
    ]);
    assert_eq!(none["count"], 0);
    let out = json(&[
        "puzzle",
        "place",
        "--piece",
        r#"%♕: betza"Q""#,
        "--pieces",
        "8",
        "--piece",
        r#"%♘: betza"N""#,
        "--pieces",
        "1",
        "--board",
        "9x9",
        "--json",
    ]);
    assert_eq!(out["of_each"], serde_json::json!([8, 1]));
    let s = out["solution"].as_array().unwrap();
    let at = |p: &Value| -> (i32, i32) {
        let q: algchess::Square = p["square"].as_str().unwrap().parse().unwrap();
        (q.x, q.y)
    };
    let queens: Vec<(i32, i32)> = s.iter().filter(|p| p["piece"] == "♕").map(at).collect();
    let knights: Vec<(i32, i32)> = s.iter().filter(|p| p["piece"] == "♘").map(at).collect();
    assert_eq!((queens.len(), knights.len()), (8, 1));
    let line = |a: (i32, i32), b: (i32, i32)| a.0 == b.0 || a.1 == b.1 || (a.0 - b.0).abs() == (a.1 - b.1).abs();
    let leap = |a: (i32, i32), b: (i32, i32)| [(1, 2), (2, 1)].contains(&((a.0 - b.0).abs(), (a.1 - b.1).abs()));
    for (i, &q) in queens.iter().enumerate() {
        assert!(queens[i + 1..].iter().all(|&r| !line(q, r)), "{out}");
        assert!(!line(q, knights[0]) && !leap(q, knights[0]), "{out}");
    }
}

/// The fixture's cases, each run through the library as the command
/// runs it.
#[test]
fn fixtures_agree_with_the_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/fixtures/puzzle/cases.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let texts: Vec<String> = match &case["piece"] {
            Value::Array(a) => a.iter().map(|p| p.as_str().unwrap().to_string()).collect(),
            p => vec![p.as_str().unwrap().to_string()],
        };
        let rules = case["rules"].as_str().map(|r| root.join(r));
        let set = read_pieces(rules.as_deref(), &texts, Tiling::Square, &Files, MemoryLimit::NONE).unwrap();
        let grid = algchess::puzzle::brief(case["board"].as_str().unwrap(), set.tiling)
            .unwrap()
            .unwrap();
        let board = Board::new(&grid, set.tiling).unwrap();
        let count = case["count"].as_u64().unwrap();
        match case["puzzle"].as_str().unwrap() {
            "place" => {
                let goal = match (&case["max"], &case["pieces"]) {
                    (Value::Bool(true), _) => Goal::Most,
                    (_, Value::Array(a)) => Goal::Exactly(a.iter().map(|n| n.as_u64().unwrap() as usize).collect()),
                    (_, n) => Goal::Exactly(vec![n.as_u64().unwrap() as usize]),
                };
                let options = PlaceOptions {
                    goal,
                    mode: Mode::Count,
                    limits: Limits::default(),
                };
                let r = place(&set, &board, &options, &mut |_| {}, &|_, _| {}).unwrap();
                let pieces: u64 = match &case["pieces"] {
                    Value::Array(a) => a.iter().map(|n| n.as_u64().unwrap()).sum(),
                    n => n.as_u64().unwrap(),
                };
                assert_eq!((r.pieces as u64, r.count), (pieces, count), "{line}");
            }
            _ => {
                let options = TourOptions {
                    closed: case["closed"].as_bool().unwrap(),
                    count: true,
                    start: None,
                    limits: Limits::default(),
                };
                let r = tour(&set, &board, &options, &|_, _| {}).unwrap();
                assert_eq!(r.count, Some(count), "{line}");
                assert_eq!(r.tour.is_some(), count > 0, "{line}");
            }
        }
        checked += 1;
    }
    assert!(checked > 90, "only {checked} cases");
}

#[test]
fn bad_input_is_a_clear_error_and_long_runs_end_at_their_limits() {
    let bad = |args: &[&str], says: &str| {
        let out = run(args);
        assert_eq!(out.code, Some(2), "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("internal error"), "{}", out.stderr);
    };
    for (line, says) in [
        (
            "puzzle place --piece fail --board 8x8 --pieces 1",
            "this piece has no moves",
        ),
        ("puzzle tour --piece betza\"mN\" --board 2x2", "neither moves nor takes"),
        (
            "puzzle place --piece betza\"Q\" --board 1x1-a1 --max",
            "the board has no square",
        ),
        (
            "puzzle place --piece betza\"Q\" --board 1000x1000 --max",
            "at most 4096 squares; this one has 1000000",
        ),
        (
            "puzzle place --piece betza\"Q\" --board 8x8-z9 --max",
            "not a square of this board",
        ),
        ("puzzle place --piece u --board 8x8 --max", "not a move"),
        (
            "puzzle place --piece betza\"Q\" --pieces 1 --piece betza\"N\" --board 8x8",
            "give --pieces N for each --piece",
        ),
        // A grasshopper takes over a hurdle: no pair of pieces settles it.
        (
            "puzzle place --piece betza\"gQ\" --board 8x8 --max",
            "need a third piece on the board",
        ),
        ("puzzle tour --piece betza\"N\"", "give a board"),
        (
            "puzzle tour --piece betza\"N\" --board 1000x1000",
            "at most 65536 squares; this one has 1000000",
        ),
        // Which of 4,096 squares attack which is 4 MB, twice.
        (
            "puzzle place --piece betza\"Q\" --board 64x64 --max --memory-limit 3M",
            "the memory limit was met",
        ),
    ] {
        let args = words(line);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        bad(&args, says);
    }
    // A count far too long for its timeout ends with what it found.
    let out = run([
        "puzzle",
        "place",
        "--piece",
        r#"betza"Q""#,
        "--board",
        "20x20",
        "--pieces",
        "20",
        "--count",
        "--json",
        "--timeout",
        "0.3",
    ]);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(v["stopped"], "timeout");
    let out = run([
        "puzzle",
        "tour",
        "--piece",
        r#"betza"N""#,
        "--board",
        "9x9",
        "--count",
        "--json",
        "--timeout",
        "0.3",
    ]);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains(r#""stopped":"timeout""#), "{}", out.stdout);
}

/// The `<text>` elements of an SVG that hold only `text`.
fn texts(svg: &str, text: &str) -> usize {
    svg.matches(&format!(">{text}</text>")).count()
}

/// Runs `algchess ARGS --svg PATH`, which must exit with `code`.
fn svg_to(args: &[&str], path: &Path, code: i32) {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--svg", path.to_str().unwrap()]);
    let out = run(&all);
    assert_eq!(out.code, Some(code), "{all:?}: {}{}", out.stdout, out.stderr);
}

#[test]
fn puzzles_draw_their_solutions_and_tours() {
    let dir = TempDir::new("puzzle-svg");
    let tour = dir.path().join("tour.svg");
    svg_to(
        &["puzzle", "tour", "--piece", r#"betza"N""#, "--board", "8x8"],
        &tour,
        0,
    );
    let svg = std::fs::read_to_string(&tour).unwrap();
    assert!(svg.starts_with("<svg") && (1..=64).all(|n| texts(&svg, &n.to_string()) >= 1));
    assert_eq!(svg.matches("marker-end").count(), 63);
    let all = dir.path().join("queens");
    let queens = ["puzzle", "place", "--piece", r#"%♕: betza"Q""#];
    svg_to(
        &[&queens[..], &["--board", "6x6", "--pieces", "6", "--all"]].concat(),
        &all,
        0,
    );
    let mut files: Vec<_> = std::fs::read_dir(&all).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4);
    for f in &files {
        assert_eq!(texts(&std::fs::read_to_string(f).unwrap(), "♕"), 6, "{}", f.display());
    }
    // A count draws the first placement it can find.
    let one = dir.path().join("one.svg");
    svg_to(
        &[&queens[..], &["--board", "8x8", "--max", "--count"]].concat(),
        &one,
        0,
    );
    assert_eq!(texts(&std::fs::read_to_string(&one).unwrap(), "♕"), 8);
}

#[test]
fn counterexamples_moves_and_games_are_drawn() {
    let dir = TempDir::new("svg-commands");
    let file = dir.write(
        "claims.alg",
        "A = (% + u. -> . + u%)\ntheorem twice: %♖: A{2} = %♖: A | (% + u. + uu. -> . + u. + uu%)\n\
         theorem once: %♖: A = %♖: A\n",
    );
    let cx = dir.path().join("cx");
    for command in ["check", "prove"] {
        svg_to(&[command, file.to_str().unwrap(), "--positions", "0"], &cx, 1);
        // One picture, of the one counterexample: the board and the
        // right side's result, the rook moved.
        let svg = std::fs::read_to_string(cx.join("twice.svg")).unwrap();
        assert!(svg.contains("twice: left gives 0, right gives 1"), "{svg}");
        assert_eq!(texts(&svg, "♖"), 2);
        assert_eq!(std::fs::read_dir(&cx).unwrap().count(), 1);
    }
    let moves = dir.path().join("moves.svg");
    let knight = [
        "moves",
        "rules/chess.alg",
        "--move",
        "knight",
        "--board",
        "..../..../.♘../....",
    ];
    svg_to(&knight, &moves, 0);
    // The board and its four results (d1, d3, a4, c4), in one file.
    assert_eq!(texts(&std::fs::read_to_string(&moves).unwrap(), "♘"), 5);
    let pgn = dir.write(
        "mate.pgn",
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    let games = dir.path().join("games");
    svg_to(&["referee", pgn.to_str().unwrap()], &games, 0);
    let svg = std::fs::read_to_string(games.join("mate-game-1.svg")).unwrap();
    assert!(svg.contains("game 1: 1-0, checkmate"), "{svg}");
    // The white queen stands on f7, the black king beside it.
    assert_eq!(texts(&svg, "♕"), 1);
    assert_eq!(texts(&svg, "♚"), 1);
    let played = dir.path().join("played");
    let out = run_input(
        &["play", "rules/chess.alg", "--svg", played.to_str().unwrap()],
        "e2e4\nquit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut boards: Vec<_> = std::fs::read_dir(&played)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    boards.sort();
    assert_eq!(boards, ["board-0000.svg", "board-0001.svg"]);
    // The second board tints the two squares the pawn's move changed.
    let second = std::fs::read_to_string(played.join("board-0001.svg")).unwrap();
    assert_eq!(second.matches("#9bc700").count(), 2);
}

#[test]
fn help_names_the_puzzles() {
    for args in [["puzzle", "place", "--help"], ["puzzle", "tour", "--help"]] {
        let out = run(args);
        assert_eq!(out.code, Some(0));
        assert!(
            out.stdout.contains("--board") && out.stdout.contains("--svg"),
            "{}",
            out.stdout
        );
    }
}

/// A command line split into words as a shell splits this one: blanks
/// between words, single quotes around a word with blanks or quotes.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (vec![], String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// The pictures in `docs/pictures/` are what the guide's commands draw
/// (`docs/cli.md`, under Puzzles and pictures), and the guide shows each.
#[test]
fn the_guides_pictures_are_what_their_commands_draw() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/cli.md")).unwrap();
    let dir = TempDir::new("guide-pictures");
    let mut drawn = 0;
    for line in page
        .lines()
        .filter_map(|l| l.strip_prefix("$ algchess "))
        .filter(|l| l.contains("--svg "))
    {
        let mut args = words(line);
        let at = args.iter().position(|a| a == "--svg").unwrap() + 1;
        let name = args[at].clone();
        let committed = root.join("docs/pictures").join(&name);
        let fresh = dir.path().join(&name);
        args[at] = fresh.display().to_string();
        let out = run(&args);
        assert!(out.code == Some(0), "{line}: {}", out.stderr);
        assert_eq!(
            std::fs::read_to_string(&fresh).unwrap(),
            std::fs::read_to_string(&committed).unwrap(),
            "{line} draws another picture than {}",
            committed.display()
        );
        assert!(
            page.contains(&format!("](pictures/{name})")),
            "{line}: the guide shows its picture"
        );
        drawn += 1;
    }
    assert!(drawn >= 3, "only {drawn} pictures");
}
