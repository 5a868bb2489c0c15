//! Benchmarks of the exhaustive checker (`algchess::check`).
//!
//! * `checker/appendix_a`: the seed's Appendix A claims from
//!   `theorems/seed.alg` (`appendix_a`, which holds, and
//!   `appendix_a_twice_is_not_the_choice`, which is refuted), checked with
//!   `check_claim` over every box of up to 16 squares. Throughput is the
//!   number of concrete states the verdict covers (`CheckerReport.boards`), so the
//!   report reads in boards per second.
//! * `checker/full_search`: the same comparison with the binder
//!   decomposition turned off (`EnumerationOptions::decompose`), so `compare` runs the
//!   full search over cubes. It is exponential in the box size, so it runs at
//!   8 and 10 squares only. Throughput is the number of symbolic leaves
//!   (`Stats.leaves`).
//!
//! Run from the crate root (the claims are read from `theorems/seed.alg`):
//!
//! ```text
//! cargo bench --bench checker
//! cargo bench --bench checker -- --warm-up-time 1 --measurement-time 3
//! ```

use algchess::compile;
use algchess::Program;
use algchess::{check_claim, compare, ClaimOptions, EnumerationOptions, Outcome, Stats};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;

const SEED: &str = "theorems/seed.alg";
const APPENDIX_A: [&str; 2] = ["appendix_a", "appendix_a_twice_is_not_the_choice"];

fn load() -> Program {
    algchess::load(Path::new(SEED)).unwrap_or_else(|e| panic!("cannot load {SEED} (run from the crate root): {e}"))
}

fn claim_options(max_cells: usize) -> ClaimOptions {
    ClaimOptions {
        search: EnumerationOptions {
            max_cells,
            ..EnumerationOptions::default()
        },
        ..ClaimOptions::default()
    }
}

fn appendix_a(c: &mut Criterion) {
    let program = load();
    let options = claim_options(16);
    let mut group = c.benchmark_group("checker/appendix_a");
    for name in APPENDIX_A {
        let claim = program
            .claims()
            .iter()
            .find(|cl| cl.name == name)
            .unwrap_or_else(|| panic!("no claim `{name}` in {SEED}"));
        // One run up front: it fixes the throughput and checks the verdict.
        let report = check_claim(claim, &options, &|_, _, _| {});
        assert!(report.agrees(), "`{name}` disagrees with its relation: {report:?}");
        eprintln!(
            "{name}: {:?} up to {} squares, {} leaves, {} boards",
            report.verdict, report.cells, report.leaves, report.boards
        );
        group.throughput(Throughput::Elements(report.boards as u64));
        group.bench_function(BenchmarkId::new(name, "max_cells=16"), |b| {
            b.iter(|| {
                let r = check_claim(black_box(claim), black_box(&options), &|_, _, _| {});
                black_box((r.verdict, r.boards))
            })
        });
    }
    group.finish();
}

fn stats(outcome: &Outcome) -> Option<&Stats> {
    match outcome {
        Outcome::HoldsUpTo { stats, .. } | Outcome::Refuted { stats, .. } => Some(stats),
        Outcome::TooBig { .. } | Outcome::OutOfMemory { .. } | Outcome::TooManyPieces { .. } => None,
    }
}

fn full_search(c: &mut Criterion) {
    let mut program = load();
    let pairs = [("appendix_a", "%♖: A A?", "%♖: A | (% + u. + uu. -> . + u. + uu%)")];
    let mut group = c.benchmark_group("checker/full_search");
    group.sample_size(10);
    for (name, lhs, rhs) in pairs {
        let (l, r) = (
            program.expr("lhs", lhs).expect("lhs elaborates"),
            program.expr("rhs", rhs).expect("rhs elaborates"),
        );
        let (lp, rp) = (compile(&l).expect("lhs compiles"), compile(&r).expect("rhs compiles"));
        let open = l.is_open() || r.is_open();
        for max_cells in [8, 10] {
            let options = EnumerationOptions {
                max_cells,
                decompose: false,
                ..EnumerationOptions::default()
            };
            let outcome = compare(program.pieces(), &lp, &rp, open, &options, &|_, _, _| {});
            assert!(
                matches!(outcome, Outcome::HoldsUpTo { cells, stopped: None, .. } if cells == max_cells),
                "`{lhs} = {rhs}` should hold up to {max_cells} squares: {outcome:?}"
            );
            let s = stats(&outcome).expect("the search finished");
            eprintln!(
                "{name} (full search), max_cells {max_cells}: {} leaves, {} runs, {} boards",
                s.leaves, s.runs, s.boards
            );
            group.throughput(Throughput::Elements(s.leaves));
            group.bench_function(BenchmarkId::new(name, format!("max_cells={max_cells}")), |b| {
                b.iter(|| {
                    let o = compare(
                        program.pieces(),
                        black_box(&lp),
                        black_box(&rp),
                        open,
                        black_box(&options),
                        &|_, _, _| {},
                    );
                    black_box(stats(&o).map(|s| s.leaves))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, appendix_a, full_search);
criterion_main!(benches);
