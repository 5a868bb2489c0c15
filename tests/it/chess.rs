//! FIDE chess as written in `rules/chess.alg`: the published perft counts,
//! the rules they rest on (castling, en passant, promotion, check), and FEN
//! in and out.
//!
//! Perft 6 of the start position takes minutes and is ignored by default:
//! `cargo test --release --test chess -- --ignored`.

use algchess::{divide, fen, move_names, perft, Position, Rules};
use std::collections::BTreeSet;
use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";

fn rules() -> Rules {
    let prog = algchess::load(std::path::Path::new("rules/chess.alg")).expect("chess.alg loads");
    Rules::new(prog.game("chess").expect("the chess game"))
}

fn position(rules: &Rules, fen: &str) -> Position {
    let (board, black) = fen::read(fen, &rules.pieces).expect("a valid FEN");
    Position {
        board,
        turn: usize::from(black),
    }
}

/// Leaves at depths `1..=max`.
fn counts(rules: &Rules, fen: &str, max: u32) -> Vec<u64> {
    let pos = position(rules, fen);
    (1..=max)
        .map(|d| perft(rules, &pos, d).expect("within budget"))
        .collect()
}

/// The legal moves, by engine name.
fn moves(rules: &Rules, pos: &Position) -> BTreeSet<String> {
    rules
        .successors(pos)
        .expect("within budget")
        .iter()
        .map(|p| move_names::uci(&pos.board, &p.board, &rules.pieces).expect("one piece moves"))
        .collect()
}

/// The position after the move named `name`.
fn play(rules: &Rules, pos: &Position, name: &str) -> Position {
    rules
        .successors(pos)
        .expect("within budget")
        .into_iter()
        .find(|p| move_names::uci(&pos.board, &p.board, &rules.pieces).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not legal here: {:?}", moves(rules, pos)))
}

#[test]
fn published_perft_counts() {
    let r = rules();
    assert_eq!(counts(&r, START, 4), vec![20, 400, 8_902, 197_281]);
    assert_eq!(counts(&r, KIWIPETE, 3), vec![48, 2_039, 97_862]);
    assert_eq!(counts(&r, POSITION_3, 4), vec![14, 191, 2_812, 43_238]);
    assert_eq!(counts(&r, POSITION_4, 3), vec![6, 264, 9_467]);
    assert_eq!(counts(&r, POSITION_5, 3), vec![44, 1_486, 62_379]);
}

/// Leaves at `depth`, the first moves in parallel.
fn deep(r: &Rules, fen: &str, depth: u32) -> u64 {
    divide(r, &position(r, fen), depth, &|_, _| {}, &|_| String::new())
        .expect("within budget")
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// One level deeper on every row of the table; seconds on two cores.
#[test]
fn published_perft_counts_deeper() {
    let r = rules();
    let deep = |fen: &str, depth: u32| deep(&r, fen, depth);
    assert_eq!(deep(START, 5), 4_865_609);
    assert_eq!(deep(KIWIPETE, 4), 4_085_603);
    assert_eq!(deep(POSITION_3, 5), 674_624);
    assert_eq!(deep(POSITION_4, 4), 422_333);
    assert_eq!(deep(POSITION_5, 4), 2_103_487);
}

#[test]
#[ignore]
fn start_position_perft_6() {
    assert_eq!(deep(&rules(), START, 6), 119_060_324);
}

#[test]
fn castling_needs_rights_and_safe_squares() {
    let r = rules();
    let both = moves(&r, &position(&r, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    assert!(both.contains("e1g1") && both.contains("e1c1"), "{both:?}");
    // Without the rights (king or rooks have moved), no castling.
    let none = moves(&r, &position(&r, "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1"));
    assert!(!none.contains("e1g1") && !none.contains("e1c1"));
    // f1 attacked: the king may not pass over it; the queen side is free.
    let through = moves(&r, &position(&r, "5r2/8/8/8/8/8/8/R3K2R w KQ - 0 1"));
    assert!(!through.contains("e1g1") && through.contains("e1c1"), "{through:?}");
    // g1 attacked: not into check.
    let into = moves(&r, &position(&r, "6r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"));
    assert!(!into.contains("e1g1") && into.contains("e1c1"), "{into:?}");
    // In check: not out of it.
    let out = moves(&r, &position(&r, "4r3/8/8/8/8/8/8/R3K2R w KQ - 0 1"));
    assert!(!out.contains("e1g1") && !out.contains("e1c1"), "{out:?}");
    // b1 attacked: the king does not cross it, so long castling stands.
    let b1 = moves(&r, &position(&r, "1r6/8/8/8/8/8/8/R3K2R w KQ - 0 1"));
    assert!(b1.contains("e1c1") && b1.contains("e1g1"), "{b1:?}");
    // A piece between king and rook blocks.
    let blocked = moves(&r, &position(&r, "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1"));
    assert!(!blocked.contains("e1g1") && !blocked.contains("e1c1"));
    // Castling moves the rook too, and a king that moved loses its rights.
    let castled = play(&r, &position(&r, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "e1g1");
    assert_eq!(
        fen::write(&castled.board, true, &r.pieces).unwrap(),
        "4k3/8/8/8/8/8/8/R4RK1 b - - 0 1"
    );
    let walked = play(&r, &position(&r, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "e1e2");
    assert_eq!(
        fen::write(&walked.board, true, &r.pieces).unwrap(),
        "4k3/8/8/8/8/8/4K3/R6R b - - 0 1"
    );
    // A rook that moves gives up its side only.
    let rook = play(&r, &position(&r, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "h1h2");
    assert_eq!(
        fen::write(&rook.board, true, &r.pieces).unwrap(),
        "4k3/8/8/8/8/8/7R/R3K3 b Q - 0 1"
    );
}

#[test]
fn en_passant_is_open_for_one_ply_only() {
    let r = rules();
    let start = position(&r, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let pushed = play(&r, &start, "d7d5");
    assert_eq!(
        fen::write(&pushed.board, false, &r.pieces).unwrap(),
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    );
    let taken = play(&r, &pushed, "e5d6");
    assert_eq!(
        fen::write(&taken.board, true, &r.pieces).unwrap(),
        "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"
    );
    // A move later the chance is gone.
    let waited = play(&r, &play(&r, &pushed, "e1d1"), "e8d8");
    assert!(!moves(&r, &waited).contains("e5d6"), "{:?}", moves(&r, &waited));
    // A single step gives no chance at all.
    let stepped = play(&r, &play(&r, &start, "d7d6"), "e1d1");
    let stepped = play(&r, &stepped, "d6d5");
    assert!(!moves(&r, &stepped).contains("e5d6"));
}

#[test]
fn pawns_promote_to_four_pieces() {
    let r = rules();
    let m = moves(&r, &position(&r, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
    for piece in ["q", "r", "b", "n"] {
        assert!(m.contains(&format!("a7a8{piece}")), "{m:?}");
    }
    assert!(!m.contains("a7a8"), "a pawn may not stay a pawn: {m:?}");
    // Black promotes downwards, by taking too.
    let m = moves(&r, &position(&r, "4k3/8/8/8/8/8/6p1/4K2R b - - 0 1"));
    assert!(m.contains("g2g1q") && m.contains("g2h1n"), "{m:?}");
}

#[test]
fn no_move_leaves_the_king_attacked() {
    let r = rules();
    // The bishop on e2 is pinned by the rook on e7.
    let pinned = moves(&r, &position(&r, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"));
    assert!(pinned.iter().all(|m| !m.starts_with("e2")), "{pinned:?}");
    assert!(!pinned.is_empty());
    // In check from a knight, only king moves and the capture help.
    let check = moves(&r, &position(&r, "4k3/8/8/8/8/3n4/8/1B2K3 w - - 0 1"));
    let expected: BTreeSet<String> = ["e1d1", "e1d2", "e1e2", "e1f1", "b1d3"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(check, expected);
    // Mate: no moves at all.
    assert!(moves(&r, &position(&r, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")).is_empty());
}

#[test]
fn fen_round_trips_through_the_markers() {
    let r = rules();
    for fen in [
        START,
        KIWIPETE,
        POSITION_3,
        POSITION_4,
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    ] {
        let (board, black) = fen::read(fen, &r.pieces).unwrap();
        assert_eq!(fen::write(&board, black, &r.pieces).unwrap(), fen);
    }
    // The move counters are not kept.
    let (board, black) = fen::read(POSITION_5, &r.pieces).unwrap();
    assert_eq!(
        fen::write(&board, black, &r.pieces).unwrap(),
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 0 1"
    );
    for (bad, why) in [
        ("8/8/8/8/8/8/8/R3K2R w KX - 0 1", "not a castling right"),
        (
            "8/8/8/8/8/8/8/R3K3 w K - 0 1",
            "needs a rook right of the king on rank 1",
        ),
        ("8/8/8/8/8/8/8/4K3 b - e3 0 1", "needs a pawn on e4"),
        ("8/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("8/8/8/8/4P3/8/8/4K3 w - e3 0 1", "with white to move it is on rank 6"),
    ] {
        let e = fen::read(bad, &r.pieces).unwrap_err();
        assert!(e.message.contains(why), "{bad}: {}", e.message);
    }
}

#[test]
fn perft_cli_divides_by_engine_move_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args([
            "perft",
            "rules/chess.alg",
            "--fen",
            KIWIPETE,
            "--depth",
            "2",
            "--divide",
            "--json",
        ])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let divide = v["divide"].as_array().expect("a divide list");
    assert_eq!(divide.len(), 48);
    let leaves = |name: &str| {
        divide
            .iter()
            .find(|d| d["move"] == name)
            .and_then(|d| d["leaves"].as_u64())
            .unwrap_or_else(|| panic!("{name} is listed"))
    };
    // Per-move counts as engines report them for Kiwipete.
    assert_eq!(leaves("e1g1"), 43);
    assert_eq!(leaves("e1c1"), 43);
    assert_eq!(leaves("d5e6"), 46);
    let total: u64 = divide.iter().map(|d| d["leaves"].as_u64().unwrap()).sum();
    assert_eq!(total, 2_039);
    assert_eq!(v["depths"][1]["leaves"], 2_039);
}
