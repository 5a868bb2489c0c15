//! Benchmarks of the evaluator (`algchess::semantics`) on concrete 8×8
//! boards.
//!
//! * `evaluator/rook_move`: the seed's rook move in all four directions,
//!   `rook_move = %♖: (rook_move_u | R rook_move_u | R² rook_move_u | R³ rook_move_u)`
//!   with `rook_move_u = (% + u. -> . + u%)+`, on an empty board with one
//!   rook in the middle, on an empty board with a rook in each corner, and
//!   on the start position without pawns.
//! * `evaluator/other_moves`: a single pawn step for every pawn on the start
//!   position, and a knight move written with `in_any_direction`, on the
//!   start position and on an empty board with one knight in the middle.
//!
//! Throughput is the number of result states one run returns, so the report
//! reads in result states per second.
//!
//! ```text
//! cargo bench --bench evaluator
//! cargo bench --bench evaluator -- --warm-up-time 1 --measurement-time 3
//! ```

use algchess::Program;
use algchess::{compile, results, Grid, Prog, State};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// The moves, written as in the seed.
const MOVES: &str = "
in_any_direction(M) = M | R M | R² M | R³ M
rook_move_u = (% + u. -> . + u%)+
rook_move = %♖: (rook_move_u | R rook_move_u | R² rook_move_u | R³ rook_move_u)
pawn_up = ♙ + u. -> . + u♙
knight_jump_u = (% + uur. -> . + uur%) | (% + uul. -> . + uul%)
knight_move = %♘: in_any_direction(knight_jump_u)
";

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const START_NO_PAWNS: &str = "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1";
const ROOK_MIDDLE: &str = "8/8/8/8/3R4/8/8/8 w - - 0 1";
const ROOK_CORNERS: &str = "R6R/8/8/8/8/8/8/R6R w - - 0 1";
const KNIGHT_MIDDLE: &str = "8/8/8/8/3N4/8/8/8 w - - 0 1";

fn prog(program: &Program, name: &str) -> Prog {
    let term = program
        .definition(name)
        .unwrap_or_else(|| panic!("`{name}` is not defined"));
    compile(term).unwrap_or_else(|e| panic!("`{name}` does not compile: {e:?}"))
}

fn state(fen: &str) -> State<Grid> {
    State {
        board: algchess::fen::placement(fen, &algchess::Pieces::chess())
            .unwrap_or_else(|e| panic!("bad FEN `{fen}`: {e}")),
        poi: None,
    }
}

/// Benchmarks `moves` (name, definition, board name, FEN) in one group.
fn bench_group(c: &mut Criterion, group_name: &str, program: &Program, moves: &[(&str, &str, &str, &str)]) {
    let mut group = c.benchmark_group(group_name);
    for &(label, def, board, fen) in moves {
        let p = prog(program, def);
        let s = state(fen);
        // One run up front fixes the throughput.
        let n = results(&p, &s).expect("within the evaluation budget").len();
        assert!(n > 0, "`{def}` has no result on {board}");
        eprintln!("{label} on {board}: {n} result states");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new(label, board), |b| {
            b.iter(|| results(black_box(&p), black_box(&s)).expect("within the evaluation budget"))
        });
    }
    group.finish();
}

fn evaluator(c: &mut Criterion) {
    let program = Program::from_text("moves.alg", MOVES).unwrap_or_else(|e| panic!("{e}"));
    bench_group(
        c,
        "evaluator/rook_move",
        &program,
        &[
            ("rook_move", "rook_move", "empty, rook d4", ROOK_MIDDLE),
            ("rook_move", "rook_move", "empty, rooks in corners", ROOK_CORNERS),
            ("rook_move", "rook_move", "start, no pawns", START_NO_PAWNS),
        ],
    );
    bench_group(
        c,
        "evaluator/other_moves",
        &program,
        &[
            ("pawn_up", "pawn_up", "start", START),
            ("knight_move", "knight_move", "start", START),
            ("knight_move", "knight_move", "empty, knight d4", KNIGHT_MIDDLE),
        ],
    );
}

criterion_group!(benches, evaluator);
criterion_main!(benches);
