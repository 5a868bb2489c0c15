//! The fairy pieces of rules/fairy.alg (seed 003), each run on a 15×15
//! board with the evaluator.
//!
//! Every expected list of destination squares is written out by hand from
//! the seed's definition of the piece, as `(x, y)` with `(0, 0)` the
//! bottom-left square. The white piece stands on the centre square (7, 7)
//! unless a test says otherwise.

use algchess::Program;
use algchess::Square;
use algchess::{compile, results, Grid, State};
use algchess::{Content, Pieces};
use std::collections::BTreeSet;
use std::path::Path;

const SIZE: i32 = 15;
const CENTRE: (i32, i32) = (7, 7);

fn program() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/fairy.alg");
    algchess::load(&path).unwrap_or_else(|e| panic!("rules/fairy.alg loads: {e:?}"))
}

/// Board text for a 15×15 board, empty but for `pieces` (square, spelling).
/// Rows go from the top (y = 14) to the bottom (y = 0).
fn board_text(pieces: &[((i32, i32), &str)]) -> String {
    let mut rows = vec![];
    for y in (0..SIZE).rev() {
        let mut row = String::new();
        for x in 0..SIZE {
            let here: Vec<&str> = pieces.iter().filter(|(q, _)| *q == (x, y)).map(|(_, p)| *p).collect();
            assert!(here.len() <= 1, "two pieces on ({x}, {y})");
            row.push_str(here.first().copied().unwrap_or("."));
        }
        rows.push(row);
    }
    rows.join("\n")
}

/// Runs the definition `def` of rules/fairy.alg on the board, and returns
/// the start board and the result boards.
/// The start board, the result boards, and the file's pieces.
fn run(def: &str, pieces: &[((i32, i32), &str)]) -> (Grid, Vec<Grid>, Pieces) {
    let mut program = program();
    let term = program
        .expr("e", def)
        .unwrap_or_else(|e| panic!("`{def}` elaborates: {e:?}"));
    let prog = compile(&term).unwrap_or_else(|e| panic!("`{def}` compiles: {e:?}"));
    let start = Grid::parse(&board_text(pieces), program.pieces()).expect("the board parses");
    let state = State {
        board: start.clone(),
        poi: None,
    };
    let out = results(&prog, &state).unwrap_or_else(|n| panic!("`{def}` ran out of budget ({n})"));
    (
        start,
        out.into_iter().map(|s| s.board).collect(),
        program.pieces().clone(),
    )
}

/// Runs `def` on the board, where `piece` stands on `from`, and checks that
/// the result boards are exactly the moves of that piece to the squares of
/// `expected`: one board per square, each differing from the start only in
/// `from` being emptied and the destination holding the piece (so a piece
/// standing there is taken).
fn check(def: &str, piece: &str, from: (i32, i32), pieces: &[((i32, i32), &str)], expected: &[(i32, i32)]) {
    let wanted: BTreeSet<(i32, i32)> = expected.iter().copied().collect();
    assert_eq!(
        wanted.len(),
        expected.len(),
        "the expected list of `{def}` repeats a square"
    );
    assert!(
        pieces.contains(&(from, piece)),
        "the board must hold {piece} on {from:?}"
    );
    let (start, boards, declared) = run(def, pieces);
    let id = declared.lookup(piece).unwrap_or_else(|| panic!("{piece} is declared"));
    let mut got = BTreeSet::new();
    for b in &boards {
        let mut changed: Vec<(i32, i32)> = start.diff(b).iter().map(|q| (q.x, q.y)).collect();
        changed.sort();
        let from_sq = Square::new(from.0, from.1);
        assert_eq!(
            b.get(from_sq),
            Some(Content::Empty),
            "`{def}`: {piece} left {from:?} empty:\n{}",
            b.rows(&declared).join("\n")
        );
        let dests: Vec<(i32, i32)> = changed.iter().copied().filter(|&q| q != from).collect();
        assert_eq!(
            dests.len(),
            1,
            "`{def}`: one square besides {from:?} changes:\n{}",
            b.rows(&declared).join("\n")
        );
        let to = dests[0];
        assert_eq!(b.get(Square::new(to.0, to.1)), Some(Content::Piece(id)));
        assert!(got.insert(to), "`{def}`: two results move to {to:?}");
    }
    let missing: Vec<_> = wanted.difference(&got).collect();
    let extra: Vec<_> = got.difference(&wanted).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "`{def}`: missing destinations {missing:?}, unexpected destinations {extra:?}"
    );
    assert_eq!(boards.len(), expected.len(), "`{def}`: number of results");
}

/// The white piece alone on the centre square of an empty board.
fn alone(piece: &str) -> Vec<((i32, i32), &str)> {
    vec![(CENTRE, piece)]
}

// ---------------------------------------------------------------------------
// Princess (archbishop): bishop + knight
// ---------------------------------------------------------------------------

#[test]
fn princess_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        // up-right, up-left, down-right, down-left diagonals
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0),
        // knight leaps
        (8, 9), (6, 9), (9, 8), (5, 8), (9, 6), (5, 6), (8, 5), (6, 5),
    ];
    assert_eq!(expected.len(), 36);
    check("princess", "'Princess", CENTRE, &alone("'Princess"), &expected);
}

#[test]
fn princess_blocked_and_taking() {
    // ♟ on (9, 9) is taken and hides the rest of the up-right diagonal; ♙ on
    // (6, 6) hides the whole down-left diagonal; the knight takes ♟ on
    // (6, 9) and cannot go to (8, 9), where ♙ stands.
    let pieces = [
        (CENTRE, "'Princess"),
        ((9, 9), "♟"),
        ((6, 6), "♙"),
        ((6, 9), "♟"),
        ((8, 9), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (8, 8), (9, 9),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 9), (9, 8), (5, 8), (9, 6), (5, 6), (8, 5), (6, 5),
    ];
    assert_eq!(expected.len(), 23);
    check("princess", "'Princess", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Empress (chancellor): rook + knight
// ---------------------------------------------------------------------------

#[test]
fn empress_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        // up, down, left, right
        (7, 8), (7, 9), (7, 10), (7, 11), (7, 12), (7, 13), (7, 14),
        (7, 6), (7, 5), (7, 4), (7, 3), (7, 2), (7, 1), (7, 0),
        (6, 7), (5, 7), (4, 7), (3, 7), (2, 7), (1, 7), (0, 7),
        (8, 7), (9, 7), (10, 7), (11, 7), (12, 7), (13, 7), (14, 7),
        // knight leaps
        (8, 9), (6, 9), (9, 8), (5, 8), (9, 6), (5, 6), (8, 5), (6, 5),
    ];
    assert_eq!(expected.len(), 36);
    check("empress", "'Empress", CENTRE, &alone("'Empress"), &expected);
}

#[test]
fn empress_blocked_and_taking() {
    // A black fairy piece on (7, 10) is taken and ends the up line; a white
    // princess on (10, 7) ends the right line before it; the knight takes
    // ♟ on (9, 8) and cannot go to (5, 6), where ♙ stands.
    let pieces = [
        (CENTRE, "'Empress"),
        ((7, 10), "'camel"),
        ((10, 7), "'Princess"),
        ((9, 8), "♟"),
        ((5, 6), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (7, 8), (7, 9), (7, 10),
        (7, 6), (7, 5), (7, 4), (7, 3), (7, 2), (7, 1), (7, 0),
        (6, 7), (5, 7), (4, 7), (3, 7), (2, 7), (1, 7), (0, 7),
        (8, 7), (9, 7),
        (8, 9), (6, 9), (9, 8), (5, 8), (9, 6), (8, 5), (6, 5),
    ];
    assert_eq!(expected.len(), 26);
    check("empress", "'Empress", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Camel: (3,1) leaper
// ---------------------------------------------------------------------------

#[test]
fn camel_on_an_empty_board() {
    let expected = [(8, 10), (6, 10), (10, 8), (4, 8), (10, 6), (4, 6), (8, 4), (6, 4)];
    check("camel", "'Camel", CENTRE, &alone("'Camel"), &expected);
}

#[test]
fn camel_blocked_and_taking() {
    // Takes the black camel on (10, 8); ♙ on (4, 6) stops that leap; ♙ on
    // (7, 8), next to it, is leapt over.
    let pieces = [(CENTRE, "'Camel"), ((10, 8), "'camel"), ((4, 6), "♙"), ((7, 8), "♙")];
    let expected = [(8, 10), (6, 10), (10, 8), (4, 8), (10, 6), (8, 4), (6, 4)];
    check("camel", "'Camel", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Nightrider: knight rider
// ---------------------------------------------------------------------------

#[test]
fn nightrider_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (8, 9), (9, 11), (10, 13),
        (6, 9), (5, 11), (4, 13),
        (9, 8), (11, 9), (13, 10),
        (5, 8), (3, 9), (1, 10),
        (9, 6), (11, 5), (13, 4),
        (5, 6), (3, 5), (1, 4),
        (8, 5), (9, 3), (10, 1),
        (6, 5), (5, 3), (4, 1),
    ];
    assert_eq!(expected.len(), 24);
    check("nightrider", "'Nightrider", CENTRE, &alone("'Nightrider"), &expected);
}

#[test]
fn nightrider_blocked_and_taking() {
    // ♟ on (9, 11) is taken and hides (10, 13); ♙ on (5, 8) hides its whole
    // line (5, 8), (3, 9), (1, 10); ♙ on (8, 8) is on no landing square and
    // blocks nothing.
    let pieces = [(CENTRE, "'Nightrider"), ((9, 11), "♟"), ((5, 8), "♙"), ((8, 8), "♙")];
    #[rustfmt::skip]
    let expected = [
        (8, 9), (9, 11),
        (6, 9), (5, 11), (4, 13),
        (9, 8), (11, 9), (13, 10),
        (9, 6), (11, 5), (13, 4),
        (5, 6), (3, 5), (1, 4),
        (8, 5), (9, 3), (10, 1),
        (6, 5), (5, 3), (4, 1),
    ];
    assert_eq!(expected.len(), 20);
    check("nightrider", "'Nightrider", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Amazon: queen + knight
// ---------------------------------------------------------------------------

#[test]
fn amazon_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (7, 8), (7, 9), (7, 10), (7, 11), (7, 12), (7, 13), (7, 14),
        (7, 6), (7, 5), (7, 4), (7, 3), (7, 2), (7, 1), (7, 0),
        (6, 7), (5, 7), (4, 7), (3, 7), (2, 7), (1, 7), (0, 7),
        (8, 7), (9, 7), (10, 7), (11, 7), (12, 7), (13, 7), (14, 7),
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0),
        (8, 9), (6, 9), (9, 8), (5, 8), (9, 6), (5, 6), (8, 5), (6, 5),
    ];
    assert_eq!(expected.len(), 64);
    check("amazon", "'Amazon", CENTRE, &alone("'Amazon"), &expected);
}

#[test]
fn amazon_blocked_and_taking() {
    // ♟ on (7, 9) is taken and hides (7, 10) to (7, 14); ♙ on (5, 5) hides
    // (5, 5) to (0, 0); the knight takes ♟ on (9, 6) and cannot go to
    // (6, 5), where ♙ stands.
    let pieces = [
        (CENTRE, "'Amazon"),
        ((7, 9), "♟"),
        ((5, 5), "♙"),
        ((9, 6), "♟"),
        ((6, 5), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (7, 8), (7, 9),
        (7, 6), (7, 5), (7, 4), (7, 3), (7, 2), (7, 1), (7, 0),
        (6, 7), (5, 7), (4, 7), (3, 7), (2, 7), (1, 7), (0, 7),
        (8, 7), (9, 7), (10, 7), (11, 7), (12, 7), (13, 7), (14, 7),
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6),
        (8, 9), (6, 9), (9, 8), (5, 8), (9, 6), (5, 6), (8, 5),
    ];
    assert_eq!(expected.len(), 52);
    check("amazon", "'Amazon", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Aanca: one step orthogonally, then any number diagonally outwards
// ---------------------------------------------------------------------------

#[test]
fn aanca_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        // up to (7, 8), then up-left and up-right
        (7, 8),
        (6, 9), (5, 10), (4, 11), (3, 12), (2, 13), (1, 14),
        (8, 9), (9, 10), (10, 11), (11, 12), (12, 13), (13, 14),
        // down to (7, 6), then down-left and down-right
        (7, 6),
        (6, 5), (5, 4), (4, 3), (3, 2), (2, 1), (1, 0),
        (8, 5), (9, 4), (10, 3), (11, 2), (12, 1), (13, 0),
        // right to (8, 7), then right-up and right-down
        (8, 7),
        (9, 8), (10, 9), (11, 10), (12, 11), (13, 12), (14, 13),
        (9, 6), (10, 5), (11, 4), (12, 3), (13, 2), (14, 1),
        // left to (6, 7), then left-up and left-down
        (6, 7),
        (5, 8), (4, 9), (3, 10), (2, 11), (1, 12), (0, 13),
        (5, 6), (4, 5), (3, 4), (2, 3), (1, 2), (0, 1),
    ];
    assert_eq!(expected.len(), 52);
    check("aanca", "'Aanca", CENTRE, &alone("'Aanca"), &expected);
}

#[test]
fn aanca_blocked_and_taking() {
    // ♙ on (7, 8) stops the first step up and so everything beyond it; ♟
    // on (8, 7) is taken by the first step right, which goes no further;
    // ♟ on (4, 5) is taken on the left-down diagonal and hides (3, 4) to
    // (0, 1); ♙ on (9, 4) hides (9, 4) to (13, 0) on the down-right one.
    let pieces = [
        (CENTRE, "'Aanca"),
        ((7, 8), "♙"),
        ((8, 7), "♟"),
        ((4, 5), "♟"),
        ((9, 4), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (7, 6),
        (6, 5), (5, 4), (4, 3), (3, 2), (2, 1), (1, 0),
        (8, 5),
        (8, 7),
        (6, 7),
        (5, 8), (4, 9), (3, 10), (2, 11), (1, 12), (0, 13),
        (5, 6), (4, 5),
    ];
    assert_eq!(expected.len(), 18);
    check("aanca", "'Aanca", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Adjutant: one step forwards or backwards
// ---------------------------------------------------------------------------

#[test]
fn adjutant_on_an_empty_board() {
    check("adjutant", "'Adjutant", CENTRE, &alone("'Adjutant"), &[(7, 8), (7, 6)]);
}

#[test]
fn adjutant_blocked_and_taking() {
    // Takes ♟ above, is blocked by ♙ below; pieces beside it do not matter.
    let pieces = [(CENTRE, "'Adjutant"), ((7, 8), "♟"), ((7, 6), "♙"), ((8, 7), "♟")];
    check("adjutant", "'Adjutant", CENTRE, &pieces, &[(7, 8)]);
}

// ---------------------------------------------------------------------------
// Advisor: one step diagonally
// ---------------------------------------------------------------------------

#[test]
fn advisor_on_an_empty_board() {
    let expected = [(8, 8), (6, 8), (8, 6), (6, 6)];
    check("advisor", "'Advisor", CENTRE, &alone("'Advisor"), &expected);
}

#[test]
fn advisor_blocked_and_taking() {
    let pieces = [(CENTRE, "'Advisor"), ((8, 8), "♟"), ((6, 6), "♙")];
    check("advisor", "'Advisor", CENTRE, &pieces, &[(8, 8), (6, 8), (8, 6)]);
}

// ---------------------------------------------------------------------------
// Alfil: (2,2) leaper
// ---------------------------------------------------------------------------

#[test]
fn alfil_on_an_empty_board() {
    let expected = [(9, 9), (5, 9), (9, 5), (5, 5)];
    check("alfil", "'Alfil", CENTRE, &alone("'Alfil"), &expected);
}

#[test]
fn alfil_blocked_and_taking() {
    // Takes ♟ on (9, 9), is stopped by ♙ on (5, 5), leaps over ♙ on (8, 8).
    let pieces = [(CENTRE, "'Alfil"), ((9, 9), "♟"), ((5, 5), "♙"), ((8, 8), "♙")];
    check("alfil", "'Alfil", CENTRE, &pieces, &[(9, 9), (5, 9), (9, 5)]);
}

// ---------------------------------------------------------------------------
// Alfilrider: (2,2) rider
// ---------------------------------------------------------------------------

#[test]
fn alfilrider_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (9, 9), (11, 11), (13, 13),
        (5, 9), (3, 11), (1, 13),
        (9, 5), (11, 3), (13, 1),
        (5, 5), (3, 3), (1, 1),
    ];
    check("alfilrider", "'Alfilrider", CENTRE, &alone("'Alfilrider"), &expected);
}

#[test]
fn alfilrider_blocked_and_taking() {
    // ♟ on (11, 11) is taken and hides (13, 13); ♙ on (5, 9) hides its line;
    // ♙ on (6, 6) stands between landing squares and blocks nothing.
    let pieces = [(CENTRE, "'Alfilrider"), ((11, 11), "♟"), ((5, 9), "♙"), ((6, 6), "♙")];
    #[rustfmt::skip]
    let expected = [
        (9, 9), (11, 11),
        (9, 5), (11, 3), (13, 1),
        (5, 5), (3, 3), (1, 1),
    ];
    check("alfilrider", "'Alfilrider", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Alibaba: (2,2) rider + (0,2) rider
// ---------------------------------------------------------------------------

#[test]
fn alibaba_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (9, 9), (11, 11), (13, 13),
        (5, 9), (3, 11), (1, 13),
        (9, 5), (11, 3), (13, 1),
        (5, 5), (3, 3), (1, 1),
        (7, 9), (7, 11), (7, 13),
        (7, 5), (7, 3), (7, 1),
        (9, 7), (11, 7), (13, 7),
        (5, 7), (3, 7), (1, 7),
    ];
    assert_eq!(expected.len(), 24);
    check("alibaba", "'Alibaba", CENTRE, &alone("'Alibaba"), &expected);
}

#[test]
fn alibaba_blocked_and_taking() {
    // As for the alfilrider on the diagonals; ♟ on (7, 9) is taken and
    // hides (7, 11) and (7, 13); ♙ on (3, 7) hides (3, 7) and (1, 7); ♙ on
    // (7, 6) stands between landing squares and blocks nothing.
    let pieces = [
        (CENTRE, "'Alibaba"),
        ((11, 11), "♟"),
        ((5, 9), "♙"),
        ((6, 6), "♙"),
        ((7, 9), "♟"),
        ((3, 7), "♙"),
        ((7, 6), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (9, 9), (11, 11),
        (9, 5), (11, 3), (13, 1),
        (5, 5), (3, 3), (1, 1),
        (7, 9),
        (7, 5), (7, 3), (7, 1),
        (9, 7), (11, 7), (13, 7),
        (5, 7),
    ];
    check("alibaba", "'Alibaba", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Antelope: (3,4) leaper
// ---------------------------------------------------------------------------

#[test]
fn antelope_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (10, 11), (4, 11), (10, 3), (4, 3),
        (11, 10), (3, 10), (11, 4), (3, 4),
    ];
    check("antelope", "'Antelope", CENTRE, &alone("'Antelope"), &expected);
}

#[test]
fn antelope_blocked_and_taking() {
    let pieces = [(CENTRE, "'Antelope"), ((10, 11), "♟"), ((11, 4), "♙"), ((8, 8), "♙")];
    #[rustfmt::skip]
    let expected = [
        (10, 11), (4, 11), (10, 3), (4, 3),
        (11, 10), (3, 10), (3, 4),
    ];
    check("antelope", "'Antelope", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Arrow pawn: moves one square orthogonally, takes one square diagonally
// ---------------------------------------------------------------------------

#[test]
fn arrow_pawn_on_an_empty_board() {
    let expected = [(7, 8), (7, 6), (6, 7), (8, 7)];
    check("arrow_pawn", "'Arrow_pawn", CENTRE, &alone("'Arrow_pawn"), &expected);
}

#[test]
fn arrow_pawn_blocked_and_taking() {
    // Takes ♟ on (8, 8) and (6, 8) diagonally; cannot take ♟ on (7, 8)
    // straight ahead; ♙ on (8, 7) blocks; ♙ on (6, 6) cannot be taken.
    let pieces = [
        (CENTRE, "'Arrow_pawn"),
        ((8, 8), "♟"),
        ((6, 8), "♟"),
        ((7, 8), "♟"),
        ((8, 7), "♙"),
        ((6, 6), "♙"),
    ];
    let expected = [(8, 8), (6, 8), (7, 6), (6, 7)];
    check("arrow_pawn", "'Arrow_pawn", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Backslider: one step backwards
// ---------------------------------------------------------------------------

#[test]
fn backslider_on_an_empty_board() {
    check("backslider", "'Backslider", CENTRE, &alone("'Backslider"), &[(7, 6)]);
}

#[test]
fn backslider_blocked_and_taking() {
    let takes = [(CENTRE, "'Backslider"), ((7, 6), "♟"), ((7, 8), "♟")];
    check("backslider", "'Backslider", CENTRE, &takes, &[(7, 6)]);
    let blocked = [(CENTRE, "'Backslider"), ((7, 6), "♙")];
    check("backslider", "'Backslider", CENTRE, &blocked, &[]);
}

// ---------------------------------------------------------------------------
// Banshee: bishop + nightrider
// ---------------------------------------------------------------------------

#[test]
fn banshee_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0),
        (8, 9), (9, 11), (10, 13),
        (6, 9), (5, 11), (4, 13),
        (9, 8), (11, 9), (13, 10),
        (5, 8), (3, 9), (1, 10),
        (9, 6), (11, 5), (13, 4),
        (5, 6), (3, 5), (1, 4),
        (8, 5), (9, 3), (10, 1),
        (6, 5), (5, 3), (4, 1),
    ];
    assert_eq!(expected.len(), 52);
    check("banshee", "'Banshee", CENTRE, &alone("'Banshee"), &expected);
}

#[test]
fn banshee_blocked_and_taking() {
    // ♟ on (9, 9) is taken and hides (10, 10) to (14, 14); ♙ on (4, 4)
    // hides (4, 4) to (0, 0); ♟ on (9, 11) is taken and hides (10, 13); ♙
    // on (5, 8) hides (5, 8), (3, 9), (1, 10).
    let pieces = [
        (CENTRE, "'Banshee"),
        ((9, 9), "♟"),
        ((4, 4), "♙"),
        ((9, 11), "♟"),
        ((5, 8), "♙"),
    ];
    #[rustfmt::skip]
    let expected = [
        (8, 8), (9, 9),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6), (5, 5),
        (8, 9), (9, 11),
        (6, 9), (5, 11), (4, 13),
        (9, 8), (11, 9), (13, 10),
        (9, 6), (11, 5), (13, 4),
        (5, 6), (3, 5), (1, 4),
        (8, 5), (9, 3), (10, 1),
        (6, 5), (5, 3), (4, 1),
    ];
    assert_eq!(expected.len(), 38);
    check("banshee", "'Banshee", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Bede: bishop + (0,2) rider
// ---------------------------------------------------------------------------

#[test]
fn bede_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9), (4, 10), (3, 11), (2, 12), (1, 13), (0, 14),
        (8, 6), (9, 5), (10, 4), (11, 3), (12, 2), (13, 1), (14, 0),
        (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0),
        (7, 9), (7, 11), (7, 13),
        (7, 5), (7, 3), (7, 1),
        (9, 7), (11, 7), (13, 7),
        (5, 7), (3, 7), (1, 7),
    ];
    assert_eq!(expected.len(), 40);
    check("bede", "'Bede", CENTRE, &alone("'Bede"), &expected);
}

#[test]
fn bede_blocked_and_taking() {
    // ♟ on (7, 9) is taken and hides (7, 11), (7, 13); ♙ on (8, 7) stands
    // between landing squares and blocks nothing; ♙ on (10, 4) hides
    // (10, 4) to (14, 0); ♟ on (5, 9) is taken and hides (4, 10) to (0, 14).
    let pieces = [
        (CENTRE, "'Bede"),
        ((7, 9), "♟"),
        ((8, 7), "♙"),
        ((10, 4), "♙"),
        ((5, 9), "♟"),
    ];
    #[rustfmt::skip]
    let expected = [
        (8, 8), (9, 9), (10, 10), (11, 11), (12, 12), (13, 13), (14, 14),
        (6, 8), (5, 9),
        (8, 6), (9, 5),
        (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0),
        (7, 9),
        (7, 5), (7, 3), (7, 1),
        (9, 7), (11, 7), (13, 7),
        (5, 7), (3, 7), (1, 7),
    ];
    assert_eq!(expected.len(), 28);
    check("bede", "'Bede", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Berolina pawn: moves diagonally forwards, takes straight forwards
// ---------------------------------------------------------------------------

#[test]
fn berolina_pawn_on_an_empty_board() {
    // Not on its home rank: single steps only.
    check(
        "berolina_pawn",
        "'Berolina_pawn",
        CENTRE,
        &alone("'Berolina_pawn"),
        &[(6, 8), (8, 8)],
    );
}

#[test]
fn berolina_pawn_blocked_and_taking() {
    // Takes ♟ straight ahead; ♙ on (6, 8) blocks; ♟ on (8, 8) cannot be
    // taken diagonally, and blocks.
    let pieces = [(CENTRE, "'Berolina_pawn"), ((7, 8), "♟"), ((6, 8), "♙"), ((8, 8), "♟")];
    check("berolina_pawn", "'Berolina_pawn", CENTRE, &pieces, &[(7, 8)]);
}

#[test]
fn berolina_pawn_on_its_home_rank() {
    // On (7, 1) the square two below is off the board: one or two squares
    // diagonally forwards.
    let from = (7, 1);
    let pieces = [(from, "'Berolina_pawn")];
    let expected = [(6, 2), (8, 2), (5, 3), (9, 3)];
    check("berolina_pawn", "'Berolina_pawn", from, &pieces, &expected);
}

#[test]
fn berolina_pawn_on_its_home_rank_blocked_and_taking() {
    // ♙ on (6, 2) blocks both moves up-left; the double move up-right
    // cannot take ♟ on (9, 3); ♟ straight ahead on (7, 2) is taken.
    let from = (7, 1);
    let pieces = [(from, "'Berolina_pawn"), ((6, 2), "♙"), ((9, 3), "♟"), ((7, 2), "♟")];
    check("berolina_pawn", "'Berolina_pawn", from, &pieces, &[(8, 2), (7, 2)]);
}

// ---------------------------------------------------------------------------
// Zebra: (3,2) leaper
// ---------------------------------------------------------------------------

#[test]
fn zebra_on_an_empty_board() {
    #[rustfmt::skip]
    let expected = [
        (10, 9), (4, 9), (10, 5), (4, 5),
        (9, 10), (5, 10), (9, 4), (5, 4),
    ];
    check("zebra", "'Zebra", CENTRE, &alone("'Zebra"), &expected);
}

#[test]
fn zebra_blocked_and_taking() {
    let pieces = [(CENTRE, "'Zebra"), ((10, 9), "♟"), ((5, 4), "♙")];
    #[rustfmt::skip]
    let expected = [
        (10, 9), (4, 9), (10, 5), (4, 5),
        (9, 10), (5, 10), (9, 4),
    ];
    check("zebra", "'Zebra", CENTRE, &pieces, &expected);
}

// ---------------------------------------------------------------------------
// Grasshopper: hops over the first piece on a queen line
// ---------------------------------------------------------------------------

#[test]
fn grasshopper_on_an_empty_board() {
    // Nothing to hop over: no move.
    check("grasshopper", "'Grasshopper", CENTRE, &alone("'Grasshopper"), &[]);
}

#[test]
fn grasshopper_hops() {
    let pieces = [
        (CENTRE, "'Grasshopper"),
        // up: over ♟ on (7, 10) to the empty (7, 11), not on to ♟ on (7, 12)
        ((7, 10), "♟"),
        ((7, 12), "♟"),
        // up-right: over a white piece on (10, 10) to (11, 11)
        ((10, 10), "♙"),
        // left: over ♟ on (4, 7), taking ♟ on (3, 7)
        ((4, 7), "♟"),
        ((3, 7), "♟"),
        // down: over ♙ on (7, 5) onto ♙ on (7, 4): no move
        ((7, 5), "♙"),
        ((7, 4), "♙"),
        // right: over the adjacent ♟ on (8, 7) to (9, 7)
        ((8, 7), "♟"),
        // down-right: over ♙ on (12, 2) to (13, 1)
        ((12, 2), "♙"),
        // up-left: over ♟ on (1, 13) to the corner (0, 14)
        ((1, 13), "♟"),
        // down-left: ♟ on the corner (0, 0) has no square beyond it
        ((0, 0), "♟"),
    ];
    let expected = [(7, 11), (11, 11), (3, 7), (9, 7), (13, 1), (0, 14)];
    check("grasshopper", "'Grasshopper", CENTRE, &pieces, &expected);
}

#[test]
fn grasshopper_hops_over_fairy_pieces_and_takes_them() {
    // Over a white camel on (7, 9) onto a black zebra on (7, 10).
    let pieces = [(CENTRE, "'Grasshopper"), ((7, 9), "'Camel"), ((7, 10), "'zebra")];
    check("grasshopper", "'Grasshopper", CENTRE, &pieces, &[(7, 10)]);
}

// ---------------------------------------------------------------------------
// All the white pieces together, and black
// ---------------------------------------------------------------------------

#[test]
fn fairy_white_moves_each_white_piece() {
    // A camel and a backslider in opposite corners: fairy_white holds both.
    let pieces = [((0, 0), "'Camel"), ((14, 14), "'Backslider")];
    let (_, boards, _) = run("fairy_white", &pieces);
    // Camel from (0, 0): (1, 3) and (3, 1); backslider: (14, 13).
    assert_eq!(boards.len(), 3);
}

#[test]
fn black_berolina_pawn_moves_down() {
    // Black's home rank is the second from the top: the square two above
    // is off the board. It takes ♙ straight ahead (down), not ♟.
    let pieces = [((7, 13), "'berolina_pawn"), ((7, 12), "♙")];
    let expected = [(6, 12), (8, 12), (5, 11), (9, 11), (7, 12)];
    check("fairy_black", "'berolina_pawn", (7, 13), &pieces, &expected);
    let pieces = [((7, 13), "'berolina_pawn"), ((7, 12), "♟")];
    let expected = [(6, 12), (8, 12), (5, 11), (9, 11)];
    check("fairy_black", "'berolina_pawn", (7, 13), &pieces, &expected);
}
