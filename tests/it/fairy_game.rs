//! The fairy game of `rules/naive/` (camels, zebras, nightriders,
//! princesses and a royal king) against Fairy-Stockfish:
//! `tests/fixtures/fairy/perft.txt`, made by `generate.py` there, holds its
//! perft counts from the start and from positions of random play, and
//! whether the side to move is in check. Both files of the game, on the
//! engine and in the interpreter, count the same and see the same checks.

use algchess::{perft, Grid, Pieces, Position, Program, Rules};
use std::path::Path;

fn load(file: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// A position from Fairy-Stockfish's FEN: `c z n a k` are the camel,
/// zebra, nightrider, princess and king, upper case white; white moves
/// first (turn 0).
fn position(fen: &str, pieces: &Pieces) -> Position {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().expect("a placement");
    let rows: Vec<String> = placement
        .split('/')
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    '1'..='8' => ".".repeat(c as usize - '0' as usize),
                    'C' => "'Camel".into(),
                    'Z' => "'Zebra".into(),
                    'N' => "'Nightrider".into(),
                    'A' => "'Princess".into(),
                    'K' => "♔".into(),
                    'c' => "'camel".into(),
                    'z' => "'zebra".into(),
                    'n' => "'nightrider".into(),
                    'a' => "'princess".into(),
                    'k' => "♚".into(),
                    _ => panic!("{fen}: unexpected {c:?}"),
                })
                .collect()
        })
        .collect();
    let turn = match fields.next() {
        Some("w") => 0,
        Some("b") => 1,
        other => panic!("{fen}: side to move {other:?}"),
    };
    let board = Grid::parse(&rows.join("\n"), pieces).unwrap_or_else(|e| panic!("{fen}: {}", e.message));
    Position { board, turn }
}

/// A line of the fixture: a position, whether the side to move is in
/// check, and its counts at depth 1, 2, ...
struct Line {
    fen: String,
    check: bool,
    counts: Vec<u64>,
}

fn fixture() -> Vec<Line> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fairy/perft.txt");
    let text = std::fs::read_to_string(path).expect("the fixture");
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('|').collect();
            let [fen, check, counts] = fields[..] else {
                panic!("not fen|check|counts: {line}")
            };
            Line {
                fen: fen.to_string(),
                check: check == "check",
                counts: counts.split(' ').map(|n| n.parse().expect("a count")).collect(),
            }
        })
        .collect()
}

#[test]
fn both_fairy_files_count_and_check_as_fairy_stockfish() {
    let lines = fixture();
    // generate.py makes sure of checks and a mate among them.
    assert!(lines.len() >= 10, "{} positions", lines.len());
    assert!(lines.iter().filter(|l| l.check).count() >= 3);
    assert!(lines.iter().any(|l| l.check && l.counts[0] == 0), "no mate");
    for file in ["rules/naive/fairy_game.alg", "rules/naive/naive_fairy.alg"] {
        let prog = load(file);
        let game = prog.game("fairy").expect("the game is declared");
        let (slow, fast) = (Rules::new(game), Rules::fast(game));
        assert_eq!(slow.start(), position(&lines[0].fen, &slow.pieces), "{file}: the start");
        for Line { fen, check, counts } in &lines {
            let pos = position(fen, &slow.pieces);
            assert_eq!(slow.in_check(&pos.board, pos.turn).unwrap(), *check, "{file}: {fen}");
            for (depth, &want) in (1..).zip(counts) {
                assert_eq!(
                    perft(&fast, &pos, depth).unwrap(),
                    want,
                    "{file}, engine: {fen} at depth {depth}"
                );
                // The interpreter to depth 3: the start's depth 4 is
                // 1,421,522 leaves.
                if depth <= 3 {
                    assert_eq!(
                        perft(&slow, &pos, depth).unwrap(),
                        want,
                        "{file}: {fen} at depth {depth}"
                    );
                }
            }
        }
    }
}
