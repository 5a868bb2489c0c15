//! The rule files of `benches/forms/`: chess and three variants written
//! in other natural forms (Betza's pieces, castling as a walk, attacks
//! unrolled square by square, the king on its own) are the same games.
//! Each counts as Fairy-Stockfish does (`tests/fixtures/variants/perft.txt`)
//! or as the published perft tables do for chess. The bench `forms`
//! compares their speed with the bundled files'.

use algchess::{perft, Rules};
use std::path::Path;

/// The published perft counts (depths 1 to 3) of the standard positions.
const CHESS: [(&str, [u64; 3]); 5] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [20, 400, 8_902],
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2_039, 97_862],
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2_812]),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        [6, 264, 9_467],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        [44, 1_486, 62_379],
    ),
];

/// The largest count a variant's position is taken to.
const MOST_LEAVES: u64 = 500_000;

fn rules(file: &str, game: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/forms").join(file);
    let prog = algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let game = prog.game(game).unwrap_or_else(|| panic!("{file} declares `{game}`"));
    Rules::fast(game)
}

/// Counts `file`'s game from each position, as far as `counts` go.
fn counts_as(file: &str, game: &str, table: &[(String, Vec<u64>)]) -> usize {
    let rules = rules(file, game);
    let mut counted = 0;
    for (text, counts) in table {
        let pos = crate::variants::position(text, &rules.pieces);
        for (depth, &want) in (1..).zip(counts).filter(|(_, &n)| n <= MOST_LEAVES) {
            assert_eq!(
                perft(&rules, &pos, depth).unwrap(),
                want,
                "{file}: {text}, depth {depth}"
            );
            counted += 1;
        }
    }
    counted
}

#[test]
fn chess_in_other_forms_counts_as_the_published_tables() {
    let table: Vec<(String, Vec<u64>)> = CHESS.iter().map(|(f, c)| (f.to_string(), c.to_vec())).collect();
    for file in ["chess_betza.alg", "chess_unrolled.alg", "chess_walk_castling.alg"] {
        assert_eq!(counts_as(file, "chess", &table), 15, "{file}");
    }
}

#[test]
fn variants_in_other_forms_count_as_fairy_stockfish() {
    let fixture = crate::variants::fixture();
    for (file, game) in [
        ("nocastle_betza.alg", "nocastle"),
        ("shatranj_king_alone.alg", "shatranj"),
        ("makruk_king_alone.alg", "makruk"),
    ] {
        let table = &fixture[game];
        assert!(table.len() >= 10, "{game}: {} positions", table.len());
        // Every position, at depths up to a few hundred thousand leaves.
        assert!(counts_as(file, game, table) >= 3 * table.len(), "{file}");
    }
}
