//! Rule files written from the grammar, taken through everything: parsing,
//! formatting, elaboration, evaluation of each definition on small boards,
//! the checker and the prover with tiny limits, and a game's first plies.
#![no_main]

use algchess_core::{check_claim, compile, prove_claim, Eval, Grid, Laws, Program, Rewrites, Rules, State};
use algchess_fuzz::{on_big_stack, tiny_check, tiny_prove, RuleFile};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static LAWS: LazyLock<(Laws, Rewrites)> = LazyLock::new(|| {
    let laws = Laws::bundled();
    let rewrites = Rewrites::new(&laws);
    (laws, rewrites)
});

fuzz_target!(|file: RuleFile| {
    let text = &file.0;
    on_big_stack(|| {
        if let Ok(f) = algchess_core::parse_file(text) {
            let _ = algchess_core::format_file(&f, text);
        }
        let Ok(program) = Program::from_text("generated.alg", text) else {
            return;
        };
        let boards = ["..♖.\n♟..♙", "♔.\n.♚", "♙"];
        for (_, t) in program.definitions().take(8) {
            let Ok(prog) = compile(t) else { continue };
            for b in boards {
                let board = Grid::parse(b, program.pieces()).expect("a board");
                let _ = Eval::new(20_000).run(&prog, &State { board, poi: None });
            }
        }
        for game in program.games() {
            let rules = Rules::new(game);
            let start = rules.start();
            if let Ok(next) = rules.successors(&start) {
                // A ply with many successors is slow by its nature (16
                // pieces that may each vanish are 65,535 boards): one is
                // enough to take the input through the rules.
                let deeper = if next.len() > 256 { 0 } else { 4 };
                for p in next.iter().take(deeper) {
                    let _ = rules.successors(p);
                    let _ = rules.in_check(&p.board, p.turn);
                    let _ = rules.lost(&p.board, p.turn);
                    let _ = rules.won(&p.board, p.turn);
                }
            }
        }
        let (laws, rewrites) = &*LAWS;
        let (check, prove) = (tiny_check(), tiny_prove());
        for claim in program.claims().iter().take(3) {
            let _ = check_claim(claim, &check, &|_, _, _| {});
            let _ = prove_claim(claim, laws, rewrites, &prove, &|_, _, _| {});
        }
    });
});
