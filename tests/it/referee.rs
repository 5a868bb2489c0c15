//! The referee against python-chess: the games of
//! `tests/fixtures/referee/games.txt` (made by `generate.py` there) replayed
//! ply by ply, each ply's SAN, check mark and FEN (counters included)
//! compared, and each game's ending, result and claimable draws; copies of
//! the games with an illegal ply mixed in must be rejected there.

use algchess::referee::referee;
use algchess::{move_names, pgn, Rules};
use algchess::{Match, MoveError, PositionError};
use std::path::Path;
use std::time::Instant;

fn chess() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg");
    let prog = algchess::load(&path).unwrap_or_else(|e| panic!("{e}"));
    Rules::new(prog.game("chess").expect("declared"))
}

fn fnv(s: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in s.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// Replays every `stride`-th game; returns the plies checked.
fn replay(stride: usize) -> usize {
    let rules = chess();
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/referee/games.txt"))
        .expect("fixtures");
    let mut plies = 0;
    let mut endings = std::collections::BTreeSet::new();
    for (n, line) in text.lines().enumerate().step_by(stride) {
        let f: Vec<&str> = line.split('|').collect();
        let [ending, result, claims, moves, final_fen, illegal] = f[..] else {
            panic!("game {n}: {} fields", f.len())
        };
        let moves: Vec<(&str, &str)> = moves.split(' ').map(|m| m.split_once(':').expect("SAN:FEN")).collect();
        let mut m = Match::new(&rules, rules.start(), 0, 1).unwrap();
        let (bad_at, bad) = illegal.split_once(' ').unwrap();
        let bad_at: usize = bad_at.parse().unwrap();
        for (i, (san, fen)) in moves.iter().enumerate() {
            let at = format!("game {n} ply {i} {san}, from {:?}", m.fen());
            assert_eq!(m.end().unwrap(), None, "{at}: over too early");
            if i == bad_at {
                assert!(m.find(bad).is_err(), "{at}: {bad} is illegal");
            }
            let j = m.find(san).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(m.san(j).unwrap(), *san, "{at}");
            // Reading the move by its engine name finds the same one.
            let uci = move_names::uci(&m.pos.board, &m.legal()[j].board, &m.rules.pieces).expect("one piece moves");
            assert_eq!(m.find(&uci), Ok(j), "{at}: {uci}");
            let ours = m.fen().unwrap();
            m.play(j).unwrap();
            let after = m.fen().unwrap();
            if fen.contains('/') {
                let full = fen.replace('_', " ");
                assert_eq!(after, full, "{at}");
                // FEN round-trips, counters, castling and en passant included.
                let read = Match::from_fen(&rules, &full).unwrap_or_else(|e| panic!("{at}: {full}: {e}"));
                assert_eq!(read.fen().as_deref(), Some(full.as_str()), "{at}");
            } else {
                assert_eq!(
                    fnv(&after),
                    *fen,
                    "{at}: after it {after}, not python-chess's (before: {ours})"
                );
            }
            plies += 1;
        }
        // The copy with the illegal ply mixed in, as PGN: the referee stops
        // there and says which ply it is.
        let mut words = vec![];
        for (i, (san, _)) in moves.iter().enumerate().take(bad_at) {
            if i % 2 == 0 {
                words.push(format!("{}.", i / 2 + 1));
            }
            words.push(san.to_string());
        }
        words.push(bad.to_string());
        words.extend(moves.iter().skip(bad_at).take(3).map(|(s, _)| s.to_string()));
        let copy = pgn::read(&format!("[Event \"copy {n}\"]\n\n{} *\n", words.join(" "))).unwrap();
        let report = referee(&rules, &copy[0]).unwrap();
        let illegal = report
            .illegal
            .unwrap_or_else(|| panic!("game {n}: {bad} at ply {bad_at} accepted"));
        assert_eq!((illegal.ply, report.plies), (bad_at + 1, bad_at), "game {n}");
        let end = m
            .end()
            .unwrap()
            .unwrap_or_else(|| panic!("game {n}: no end, python-chess: {ending}"));
        assert_eq!(end.ending.name(), ending, "game {n}");
        assert_eq!(end.result(), result, "game {n}");
        let ours: Vec<&str> = m.claimable().unwrap().iter().map(|c| c.name()).collect();
        let theirs: Vec<&str> = if claims == "-" {
            vec![]
        } else {
            claims.split(',').collect()
        };
        assert_eq!(ours, theirs, "game {n}: claimable draws");
        assert_eq!(m.fen().unwrap(), final_fen, "game {n}");
        endings.insert(ending.to_string());
    }
    assert_eq!(endings.len(), 5, "every kind of ending is replayed: {endings:?}");
    plies
}

#[test]
fn python_chess_games_sampled() {
    let t = Instant::now();
    let plies = replay(10);
    eprintln!("{plies} plies in {:.1} s", t.elapsed().as_secs_f64());
}

#[test]
#[ignore = "every game: about a minute in release"]
fn python_chess_games_all() {
    let t = Instant::now();
    let plies = replay(1);
    eprintln!("{plies} plies in {:.1} s", t.elapsed().as_secs_f64());
}

#[test]
fn the_seed_s_scholar_s_mate() {
    let rules = chess();
    let text = "    1. e4     e5\n    2. Bc4    h6?\n    3. Qh5    ...    Qf3 would also serve.\n    3. ...    a5??\n    4. Qxf7#\n";
    let games = pgn::read(text).unwrap();
    let r = referee(&rules, &games[0]).unwrap();
    assert_eq!(r.illegal, None);
    assert_eq!(r.san, ["e4", "e5", "Bc4", "h6", "Qh5", "a5", "Qxf7#"]);
    assert_eq!(r.end.map(|o| o.ending.name()), Some("checkmate"));
    assert_eq!(r.result(), "1-0");
    assert_eq!(
        r.final_fen.as_deref(),
        Some("rnbqkbnr/1ppp1Qp1/7p/p3p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
    );
}

#[test]
fn san_and_uci_are_read_with_their_errors() {
    let rules = chess();
    let mut m = Match::new(&rules, rules.start(), 0, 1).unwrap();
    for (text, san) in [
        ("e4", "e4"),
        ("e2e4", "e4"),
        ("Nf3!?", "Nf3"),
        ("g1f3", "Nf3"),
        ("Ngf3", "Nf3"),
    ] {
        let i = m.find(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.san(i).unwrap(), san);
    }
    assert!(m.find("e5").unwrap_err().to_string().contains("not a legal move"));
    assert!(m.find("Z9z").unwrap_err().to_string().contains("not a move in SAN"));
    assert!(m
        .find("Zz9")
        .unwrap_err()
        .to_string()
        .contains("z9, which is not on the board"));
    assert!(m.find("Zh5").unwrap_err().to_string().contains("not a legal move"));
    // Two knights reach d3: the file tells them apart.
    let mut m = Match::from_fen(&rules, "4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1").unwrap();
    assert!(
        m.find("Nd3")
            .unwrap_err()
            .to_string()
            .contains("ambiguous: it could be Nbd3 or Nfd3"),
        "{:?}",
        m.find("Nd3")
    );
    assert!(matches!(m.find("Nd3"), Err(MoveError::Ambiguous { could_be, .. }) if could_be.len() == 2));
    let i = m.find("Nfd3").unwrap();
    assert_eq!(m.san(i).unwrap(), "Nfd3");
}

#[test]
fn fen_that_is_not_a_position_is_rejected() {
    let rules = chess();
    for (fen, why) in [
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "first or last rank"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "one black king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "one white king"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move clock"),
    ] {
        let e = Match::from_fen(&rules, fen)
            .err()
            .unwrap_or_else(|| panic!("{fen} accepted"));
        assert!(e.to_string().contains(why), "{fen}: {e}");
    }
    // The kinds, for a caller that answers each its own way.
    assert!(matches!(
        Match::from_fen(&rules, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        Err(PositionError::InCheck)
    ));
    assert!(matches!(
        Match::from_fen(&rules, "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(PositionError::Kings {
            side: "black",
            want: 1,
            found: 0
        })
    ));
    let m = Match::from_fen(&rules, "4k3/8/8/8/8/8/8/4K3 b - - 12 40").unwrap();
    assert_eq!(m.fen().unwrap(), "4k3/8/8/8/8/8/8/4K3 b - - 12 40");
}

/// Null moves pass the turn, with a warning; plies after a dead position
/// are replayed, as python-chess does, the end being the first reached.
#[test]
fn null_moves_and_plies_after_the_end() {
    let rules = chess();
    let games = pgn::read("1. e4 e5 2. -- Nc6 3. Z0 d6 4. Nf3 *").unwrap();
    let r = referee(&rules, &games[0]).unwrap();
    assert_eq!(r.illegal, None, "{:?}", r.illegal);
    assert_eq!(r.plies, 7);
    assert_eq!(r.san[2], "--");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("null moves") && w.contains("3, 5")),
        "{:?}",
        r.warnings
    );
    assert_eq!(
        r.final_fen.as_deref(),
        Some("r1bqkbnr/ppp2ppp/2np4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 4")
    );
    // Two kings: a dead position from the start; the kings walk on.
    let games = pgn::read("[FEN \"8/8/8/8/8/8/k7/7K w - - 0 1\"]\n\n1. Kg2 Kb2 2. Kf2 1/2-1/2").unwrap();
    let r = referee(&rules, &games[0]).unwrap();
    assert_eq!(r.illegal, None);
    assert_eq!(r.plies, 3);
    assert_eq!(r.end.map(|o| o.ending.name()), Some("insufficient_material"));
    assert!(r.result_matches());
    assert!(r.warnings[0].contains("ended before ply 1"), "{:?}", r.warnings);
    // No move is left after checkmate: a ply there is illegal.
    let games = pgn::read("1. f3 e5 2. g4 Qh4# 3. a3 0-1").unwrap();
    let r = referee(&rules, &games[0]).unwrap();
    assert!(r.illegal.unwrap().why.contains("the game is over: checkmate"));
}
