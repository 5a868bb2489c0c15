//! Chess960 against the published perft of all 960 starts
//! (`tests/fixtures/chess960/perft.epd`, from python-chess's examples: the
//! chessprogramming wiki's table): castling from any start, rights read
//! from Shredder-FEN letters.

use algchess::{fen, perft, Position, Rules};
use std::path::Path;

/// Each position's FEN and its counts from depth 1 up.
fn table() -> Vec<(String, Vec<u64>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chess960/perft.epd");
    let text = std::fs::read_to_string(path).expect("the table");
    let mut out: Vec<(String, Vec<u64>)> = vec![];
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("epd ") {
            out.push((fen.to_string(), vec![]));
        } else if let Some(count) = line.strip_prefix("perft ") {
            let (depth, n) = count.split_once(' ').expect("perft DEPTH COUNT");
            let last = out.last_mut().expect("a position first");
            assert_eq!(depth.parse::<usize>().unwrap(), last.1.len() + 1);
            last.1.push(n.parse().unwrap());
        }
    }
    out
}

fn rules() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/variants/chess960.alg");
    let prog = algchess::load(&path).unwrap_or_else(|e| panic!("{e}"));
    Rules::fast(prog.game("chess960").expect("declared"))
}

fn check(max_depth: usize) -> u64 {
    let rules = rules();
    let table = table();
    assert_eq!(table.len(), 960);
    let mut leaves = 0;
    for (fen, counts) in &table {
        let (board, black) = fen::read(fen, &rules.pieces).unwrap_or_else(|e| panic!("{fen}: {}", e.message));
        let pos = Position {
            board,
            turn: usize::from(black),
        };
        for (depth, &want) in (1..=max_depth as u32).zip(counts) {
            assert_eq!(perft(&rules, &pos, depth).unwrap(), want, "{fen}, depth {depth}");
            leaves += want;
        }
    }
    leaves
}

#[test]
fn every_start_counts_as_published() {
    assert!(check(3) > 10_000_000);
}

#[test]
#[ignore = "depth 4 of all 960: about a minute in release"]
fn every_start_counts_as_published_deep() {
    check(4);
}

/// Rights read from file letters name the rooks, and are written back as
/// X-FEN writes them: `K`/`Q` for the outermost rook, else the file.
#[test]
fn rights_by_file_are_read_and_written() {
    let rules = rules();
    for (shredder, xfen) in [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "KQkq",
        ),
        ("nrkbqnbr/pppppppp/8/8/8/8/PPPPPPPP/NRKBQNBR w HBhb - 0 1", "KQkq"),
        ("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", "KQkq"),
        ("1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1", "Ee"),
    ] {
        let (board, black) = fen::read(shredder, &rules.pieces).unwrap_or_else(|e| panic!("{shredder}: {}", e.message));
        let written = fen::write(&board, black, &rules.pieces).unwrap();
        assert_eq!(written.split(' ').nth(2), Some(xfen), "{shredder}");
    }
    assert!(
        fen::read("rk6/8/8/8/8/8/8/RK6 w C - 0 1", &rules.pieces).is_err(),
        "no rook on c1"
    );
}

/// `perft --divide` names Chess960's castling as UCI does there, the
/// king's move onto its rook, so that a king's step to the square castling
/// puts it on has a name of its own.
#[test]
fn divide_names_castling_king_takes_rook() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args([
            "perft",
            "rules/variants/chess960.alg",
            "--fen",
            "rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1",
            "--depth",
            "1",
            "--divide",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split(": ").next())
        .filter(|n| n.len() == 4)
        .collect();
    // Fairy-Stockfish's 23 moves: the king's step b1c1 and long castling
    // b1a1, each once (short castling would land on g1, which g8's rook
    // attacks).
    assert_eq!(names.len(), 23, "{text}");
    for m in ["b1c1", "b1a1"] {
        assert_eq!(names.iter().filter(|n| **n == m).count(), 1, "{m}: {text}");
    }
}

/// UCI's `b1c1` is the king's step when castling would put the king on
/// c1 too: castling is `b1a1`, the king's move onto its rook.
#[test]
fn a_king_s_step_is_not_castling_in_uci() {
    let rules = rules();
    let fen = "rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1";
    let play = |uci: &str| {
        let mut m = algchess::Match::from_fen(&rules, fen).unwrap();
        let i = m.find(uci).unwrap();
        m.play(i).unwrap();
        m.fen().unwrap()
    };
    assert_eq!(play("b1c1"), "rk4r1/8/8/8/8/8/8/R1K3R1 b kq - 1 1");
    assert_eq!(play("b1a1"), "rk4r1/8/8/8/8/8/8/2KR2R1 b kq - 1 1");
}
