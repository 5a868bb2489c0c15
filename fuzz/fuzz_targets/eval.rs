//! The evaluator: a move written from the grammar, run on a small board
//! with a budget.
#![no_main]

use algchess_core::{compile, Eval, Program};
use algchess_fuzz::{on_big_stack, ClosedMove, SmallBoard};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (ClosedMove, SmallBoard, u16)| {
    let (m, board, budget) = input;
    let file = format!("{}\nm = {}\n", m.decls.join("\n"), m.text);
    on_big_stack(|| {
        let Ok(program) = Program::from_text("eval.alg", &file) else {
            return;
        };
        let (Some(t), Some(state)) = (program.definition("m"), board.state(program.pieces())) else {
            return;
        };
        let Ok(prog) = compile(t) else { return };
        let _ = Eval::new(1 + budget as usize * 4).run(&prog, &state);
    });
});
