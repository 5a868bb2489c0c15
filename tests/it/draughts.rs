//! English and international draughts (`rules/draughts/`) against
//! pydraughts: `tests/fixtures/draughts/*.txt`, made by `generate.py`
//! there, hold perft counts from the start and from positions of random
//! play. The engine and the interpreter count as pydraughts does, each
//! distinct resulting position of a move once.

use algchess::{perft, Grid, Pieces, Position, Program, Rules};
use std::path::Path;
use std::time::Instant;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(file: &str) -> Program {
    algchess::load(&root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// A position from pydraughts' FEN (`B:W21,K30:B1,2`): the side to move,
/// then each side's squares, numbered from 1 along the dark squares of each
/// row from the top left, `K` before a king. `side` is the board's width
/// and height; `first` the letter of the side that moves first.
fn position(fen: &str, side: usize, first: char, pieces: &Pieces) -> Position {
    let mut rows = vec![vec!['.'; side]; side];
    let mut fields = fen.split(':');
    let to_move = fields.next().and_then(|f| f.chars().next()).expect("a side to move");
    for field in fields {
        let mut chars = field.chars();
        let colour = chars.next().expect("a colour");
        for square in chars.as_str().split(',').filter(|s| !s.is_empty()) {
            let (king, number) = match square.strip_prefix('K') {
                Some(n) => (true, n),
                None => (false, square),
            };
            let n: usize = number.parse().unwrap_or_else(|_| panic!("{fen}: square {square}"));
            let per_row = side / 2;
            let (row, col) = ((n - 1) / per_row, (n - 1) % per_row);
            // Row 0 is the top; a1, bottom left, is dark.
            let x = if row % 2 == 0 { 2 * col + 1 } else { 2 * col };
            rows[row][x] = match (colour, king) {
                ('W', false) => '⛀',
                ('W', true) => '⛁',
                ('B', false) => '⛂',
                ('B', true) => '⛃',
                _ => panic!("{fen}: colour {colour}"),
            };
        }
    }
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let board = Grid::parse(&text.join("\n"), pieces).unwrap_or_else(|e| panic!("{fen}: {}", e.message));
    Position {
        board,
        turn: usize::from(to_move != first),
    }
}

/// A line of a fixture: a position and its distinct counts at depth 1, 2,
/// ... (pydraughts' own count of moves, the third field, is the same on
/// every position recorded: `generate.py` reports where it is not).
fn fixture(name: &str) -> Vec<(String, Vec<u64>, Vec<u64>)> {
    let path = root().join("tests/fixtures/draughts").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let numbers = |s: &str| -> Vec<u64> { s.split(' ').map(|n| n.parse().expect("a count")).collect() };
    text.lines()
        .map(|line| {
            let [fen, distinct, moves] = line.split('|').collect::<Vec<_>>()[..] else {
                panic!("not fen|distinct|moves: {line}")
            };
            (fen.to_string(), numbers(distinct), numbers(moves))
        })
        .collect()
}

/// Checks every position of the fixture on the engine and, up to
/// `slow_depth`, in the interpreter.
fn check(file: &str, game: &str, fixture_name: &str, side: usize, first: char, slow_depth: u32) {
    let prog = load(file);
    let game = prog.game(game).expect("the game is declared");
    let (slow, fast) = (Rules::new(game), Rules::fast(game));
    let lines = fixture(fixture_name);
    assert!(lines.len() >= 21, "{} positions", lines.len());
    assert_eq!(
        slow.start(),
        position(&lines[0].0, side, first, &slow.pieces),
        "{file}: the start"
    );
    // The random positions hold kings, and a game's end (no move).
    assert!(lines.iter().filter(|(fen, ..)| fen.contains('K')).count() >= 6);
    assert!(
        lines.iter().any(|(_, counts, _)| counts[0] == 0),
        "no position without a move"
    );
    for (fen, distinct, moves) in &lines {
        let pos = position(fen, side, first, &slow.pieces);
        for (depth, (&want, &listed)) in (1..).zip(distinct.iter().zip(moves)) {
            assert!(want <= listed, "{fen}: pydraughts lists fewer moves than positions");
            assert_eq!(
                perft(&fast, &pos, depth).unwrap(),
                want,
                "{file}, engine: {fen} at depth {depth}"
            );
            if depth <= slow_depth {
                assert_eq!(
                    perft(&slow, &pos, depth).unwrap(),
                    want,
                    "{file}: {fen} at depth {depth}"
                );
            }
        }
    }
}

#[test]
fn english_draughts_counts_as_pydraughts() {
    check("rules/draughts/english.alg", "english", "english.txt", 8, 'B', 4);
}

#[test]
fn international_draughts_counts_as_pydraughts() {
    check(
        "rules/draughts/international.alg",
        "international",
        "international.txt",
        10,
        'W',
        3,
    );
}

/// Deeper than pydraughts is run: the engine against the interpreter from
/// the start and every position of the fixtures, two plies further, and
/// English draughts' published perft from the start (Aart Bik's perft for
/// checkers: 179,740 at depth 7, 845,931 at depth 8), with the engine's
/// rate.
#[test]
#[ignore]
fn deeper_counts_agree() {
    for (file, game, name, side, first, extra) in [
        ("rules/draughts/english.alg", "english", "english.txt", 8, 'B', 2),
        (
            "rules/draughts/international.alg",
            "international",
            "international.txt",
            10,
            'W',
            1,
        ),
    ] {
        let prog = load(file);
        let game = prog.game(game).expect("the game is declared");
        let (slow, fast) = (Rules::new(game), Rules::fast(game));
        for (fen, distinct, _) in fixture(name) {
            let pos = position(&fen, side, first, &slow.pieces);
            let depth = distinct.len() as u32 + extra;
            assert_eq!(
                perft(&fast, &pos, depth).unwrap(),
                perft(&slow, &pos, depth).unwrap(),
                "{fen}"
            );
        }
    }
    let prog = load("rules/draughts/english.alg");
    let fast = Rules::fast(prog.game("english").unwrap());
    let start = fast.start();
    assert_eq!(perft(&fast, &start, 7).unwrap(), 179_740);
    let clock = Instant::now();
    assert_eq!(perft(&fast, &start, 8).unwrap(), 845_931);
    let secs = clock.elapsed().as_secs_f64();
    eprintln!("english perft 8: {:.0} leaves/s", 845_931.0 / secs);
}

/// Runs the binary with `args`, `input` on its stdin.
fn run(args: &[&str], input: &str) -> (Option<i32>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The plies of a PDN file, move numbers, tags and the result left out.
fn plies(pdn: &str) -> Vec<String> {
    pdn.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(|l| l.split_whitespace())
        .filter(|w| !w.ends_with('.') && w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter(|w| !matches!(*w, "1-0" | "0-1" | "2-0" | "0-2" | "1-1"))
        .map(str::to_string)
        .collect()
}

/// A game of each kind played by pydraughts to its end (the side to move
/// has none) and written in PDN, captures of several pieces among its plies:
/// the referee reads every ply, ends the game where pydraughts did, and
/// gives its result; `play` takes the same plies, echoes each in PDN as the
/// file writes it, and announces the end.
#[test]
fn pydraughts_games_in_pdn_are_refereed_and_played_to_their_end() {
    for (file, pdn) in [
        ("rules/draughts/english.alg", "tests/fixtures/draughts/english.pdn"),
        (
            "rules/draughts/international.alg",
            "tests/fixtures/draughts/international.pdn",
        ),
    ] {
        let text = std::fs::read_to_string(root().join(pdn)).unwrap();
        let plies = plies(&text);
        assert!(plies.len() >= 20, "{pdn}: {} plies", plies.len());
        assert!(plies.iter().any(|p| p.contains('x')), "{pdn}: no capture");
        let (code, out) = run(&["referee", "--json", "--rules", file, pdn], "");
        let report: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(code, Some(0), "{pdn}: {out}");
        assert_eq!(report["plies"], plies.len(), "{pdn}: {report}");
        assert!(report["illegal"].is_null(), "{pdn}: {report}");
        assert_eq!(report["end"], "no_moves", "{pdn}: {report}");
        assert_eq!(report["result_matches"], true, "{pdn}: {report}");

        let (code, out) = run(&["play", file], &(plies.join("\n") + "\n"));
        assert_eq!(code, Some(0), "{file}: {out}");
        let echoed: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("played "))
            .map(|l| l.rsplit(' ').next().unwrap())
            .collect();
        assert_eq!(echoed, plies, "{file}: the plies echoed in PDN");
        let over = out
            .lines()
            .find(|l| l.starts_with("game over"))
            .expect("the end is announced");
        assert!(over.contains("no moves"), "{over}");
        assert!(over.ends_with(report["result"].as_str().unwrap()), "{over} / {report}");
    }
}

/// A ply that is not legal, or names no square of the board, is an error
/// that says which; a multi-capture is read with or without its middle
/// squares.
#[test]
fn bad_pdn_plies_are_refused_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("algchess-draughts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (moves, why) in [
        ("1. 11-15 23-19 2. 15-40", "no square 40"),
        ("1. 11-15 23-19 2. 15-11", "not a legal move"),
    ] {
        let path = dir.join("game.pdn");
        std::fs::write(&path, format!("[Event \"bad\"]\n\n{moves} *\n")).unwrap();
        let (code, out) = referee_english(&path);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains(why), "{moves}: {out}");
    }
    // pydraughts writes the double capture 4x20 by its ends; with its
    // landing square it reads the same, with a wrong one it is refused.
    let text = std::fs::read_to_string(root().join("tests/fixtures/draughts/english.pdn")).unwrap();
    assert!(text.contains(" 4x20 "));
    for (written, legal) in [("4x11x20", true), ("4x15x20", false)] {
        let path = dir.join("long.pdn");
        std::fs::write(&path, text.replace(" 4x20 ", &format!(" {written} "))).unwrap();
        let (code, out) = referee_english(&path);
        assert_eq!(code == Some(0), legal, "{written}: {out}");
        // The summary's count, not a rate that happens to end in 44.
        assert_eq!(out.contains(", 44 plies in "), legal, "{written}: {out}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `referee --rules rules/draughts/english.alg FILE`: its status and output.
fn referee_english(path: &std::path::Path) -> (Option<i32>, String) {
    run(
        &[
            "referee",
            "--rules",
            "rules/draughts/english.alg",
            path.to_str().unwrap(),
        ],
        "",
    )
}
