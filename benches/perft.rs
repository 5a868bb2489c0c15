//! Perft from the chess start position, for `rules/chess.alg` (FIDE chess)
//! as written (`raw`) and as `algchess simplify` rewrites it
//! (`simplified`), in leaves per second, on one core; perft 5 of the start
//! position, whose target is under 10 s on one core; and Othello for
//! comparison.
//!
//! Run from the crate root:
//!
//! ```text
//! cargo bench --bench perft
//! cargo bench --bench perft -- --warm-up-time 1 --measurement-time 5
//! ```

use algchess::Laws;
use algchess::Program;
use algchess::Rewrites;
use algchess::{perft, Rules};
use algchess::{simplify_text, SimplifyOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Instant;

fn game(text: &str, name: &str) -> Rules {
    let p = Program::from_text("bench.alg", text).expect("the rule file loads");
    Rules::new(p.game(name).expect("the game is declared"))
}

/// Runs `f` on a pool of one thread: the figures are for one core.
fn one_core<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool")
        .install(f)
}

fn chess(c: &mut Criterion) {
    let raw = std::fs::read_to_string("rules/chess.alg").expect("run from the crate root");
    let laws = Laws::bundled();
    let start = Instant::now();
    let simplified = simplify_text(
        "chess.alg",
        &raw,
        &algchess::Files,
        &Rewrites::new(&laws),
        &SimplifyOptions::default(),
    )
    .unwrap()
    .text;
    eprintln!("simplify rules/chess.alg: {:.2} s", start.elapsed().as_secs_f64());
    let mut group = c.benchmark_group("perft/chess");
    group.sample_size(10);
    for (label, text) in [("raw", &raw), ("simplified", &simplified)] {
        let rules = game(text, "chess");
        let pos = rules.start();
        for depth in [3, 4] {
            let leaves = perft(&rules, &pos, depth).unwrap();
            assert_eq!(
                leaves,
                [0, 20, 400, 8902, 197_281][depth as usize],
                "{label} perft {depth}"
            );
            group.throughput(Throughput::Elements(leaves));
            group.bench_function(BenchmarkId::new(label, depth), |b| {
                b.iter(|| one_core(|| black_box(perft(&rules, black_box(&pos), depth).unwrap())))
            });
        }
    }
    group.finish();
    // The issue's target: perft 5 of the start position on one core.
    let rules = game(&raw, "chess");
    let pos = rules.start();
    let mut group = c.benchmark_group("perft/chess-one-core");
    group.sample_size(10);
    group.throughput(Throughput::Elements(4_865_609));
    group.bench_function(BenchmarkId::new("start", 5), |b| {
        b.iter(|| {
            let leaves = one_core(|| perft(&rules, black_box(&pos), 5).unwrap());
            assert_eq!(leaves, 4_865_609);
            leaves
        })
    });
    group.finish();
}

fn othello(c: &mut Criterion) {
    let text = std::fs::read_to_string("rules/othello.alg").expect("run from the crate root");
    let rules = game(&text, "othello");
    let pos = rules.start();
    let leaves = perft(&rules, &pos, 5).unwrap();
    assert_eq!(leaves, 1396);
    let mut group = c.benchmark_group("perft/othello");
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(BenchmarkId::new("start", 5), |b| {
        b.iter(|| black_box(perft(&rules, black_box(&pos), 5).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, chess, othello);
criterion_main!(benches);
