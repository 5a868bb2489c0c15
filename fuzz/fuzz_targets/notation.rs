//! Each notation's lowering: the first byte picks path, referee, Parlett
//! or Betza, the rest is the literal's text, read in a file that declares
//! chess's marker pieces (as the Referee lowering expects); the second
//! byte picks the grid. What lowers is run on a small board.
#![no_main]

use algchess_core::{compile, Eval, Grid, Notation, Program, State};
use libfuzzer_sys::fuzz_target;

const PRELUDE: &str =
    "piece 'Kc / 'kc\npiece 'Rc / 'rc\npiece 'Pe / 'pe\nenemy = black_pieces\nfriend = white_pieces\n";

fuzz_target!(|data: &[u8]| {
    let [which, grid, rest @ ..] = data else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    // A literal ends at its line's `"`.
    if text.contains(['"', '\n', '\r']) {
        return;
    }
    let n = Notation::ALL[*which as usize % Notation::ALL.len()];
    let hex = if grid % 4 == 0 { "grid hex\n" } else { "" };
    let file = format!("{hex}{PRELUDE}m = {}\"{text}\"\n", n.name());
    algchess_fuzz::on_big_stack(|| {
        let Ok(program) = Program::from_text("notation.alg", &file) else {
            return;
        };
        let Some(m) = program.definition("m") else { return };
        let Ok(prog) = compile(m) else { return };
        if hex.is_empty() {
            let board = Grid::parse("...\n.♖♟\n...", program.pieces()).expect("a board");
            let poi = Some(algchess_core::Square { x: 1, y: 1 });
            let _ = Eval::new(50_000).run(&prog, &State { board, poi });
        }
    });
});
