//! Each program owns its pieces: two programs in one process may spell
//! different pieces alike, and each reads, moves, plays and prints its own.

use algchess::{fen, perft, Pieces, Program, Rules};

/// `'X` with a black twin `'x`, sliding up.
const PAIR: &str = "piece 'X / 'x\nb = 'X;.;.\ngame g(b) = %'X: (% + u. -> . + u%)+\n";

/// `'X` alone (colour reversal leaves it as it is), declared after `'Y`,
/// stepping up once.
const LONE: &str = "piece 'Y\npiece 'X\nb = 'X;.;.\ngame g(b) = %'X: (% + u. -> . + u%)\n";

fn program(text: &str) -> Program {
    Program::from_text("t.alg", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn two_programs_declare_one_spelling_as_different_pieces() {
    let mut pair = program(PAIR);
    let mut lone = program(LONE);
    let (x_pair, x_lone) = (pair.pieces().lookup("'X").unwrap(), lone.pieces().lookup("'X").unwrap());
    // Declared in another order, `'X` is another id in each program.
    assert_ne!(x_pair, x_lone);
    assert_eq!(lone.pieces().lookup("'x"), None);
    assert_eq!(pair.pieces().lookup("'Y"), None);

    // Colour reversal moves each program's `'X` as that program declares it.
    let c_pair = pair.expr("c", "C 'X").unwrap();
    let c_lone = lone.expr("c", "C 'X").unwrap();
    assert_eq!(pair.pieces().show(&c_pair).to_string(), "'x");
    assert_eq!(lone.pieces().show(&c_lone).to_string(), "'X");
    let moved = pair.expr("m", "C(%'X: (% + u. -> . + u%))").unwrap();
    assert_eq!(pair.pieces().show(&moved).to_string(), "%'x: %;. -> .;%");

    // Each plays its own game: the pair's `'X` slides, the lone one steps.
    let (rp, rl) = (
        Rules::fast(pair.game("g").unwrap()),
        Rules::fast(lone.game("g").unwrap()),
    );
    assert_eq!(perft(&rp, &rp.start(), 1).unwrap(), 2);
    assert_eq!(perft(&rl, &rl.start(), 1).unwrap(), 1);
    assert_eq!(rp.start().board.rows(&rp.pieces), [".", ".", "'X"]);
    assert_eq!(rl.start().board.rows(&rl.pieces), [".", ".", "'X"]);
    // The id alone names no piece: the pair's `'X` is the lone program's
    // first declaration, `'Y`.
    assert_eq!(rp.start().board.rows(&rl.pieces), [".", ".", "'Y"]);

    // FEN reads the letters each program declares.
    let board = fen::placement("x/1/X", pair.pieces()).unwrap();
    assert_eq!(board.rows(pair.pieces()), ["'x", ".", "'X"]);
    let e = fen::placement("x/1/X", lone.pieces()).unwrap_err();
    assert!(e.message.contains("`x` is not a FEN piece letter"), "{}", e.message);
}

#[test]
fn a_spelling_one_program_declares_is_unknown_to_another() {
    let _pair = program(PAIR);
    let e = Program::from_text("t.alg", "t = 'x\n")
        .err()
        .expect("`'x` is not declared here");
    assert!(e.to_string().contains("unknown piece `'x`"), "{e}");
    // And a fresh program has chess's pieces alone.
    assert_eq!(program("").pieces().len(), Pieces::chess().len());
}
