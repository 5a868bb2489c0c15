//! Claims compared on positions reachable in play (`check --positions`):
//! sampling positions of chess, and checking each equation of
//! `theorems/chess.alg` on them, in positions per second, on one core and
//! on every core.
//!
//! Run from the crate root:
//!
//! ```text
//! cargo bench --bench positions
//! ```

use algchess::positions::{applies, check_positions, games, sample, PositionOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;

const N: usize = 1000;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

fn positions(c: &mut Criterion) {
    let prog = algchess::load(Path::new("theorems/chess.alg")).expect("run from the crate root");
    let games = games(&prog);
    let options = PositionOptions {
        eval_budget: 1_000_000,
        timeout: algchess::Timer::NONE,
        memory: algchess::MemoryLimit::NONE,
    };
    let cores = rayon::current_num_threads();
    let mut group = c.benchmark_group("positions");
    group.sample_size(10);
    group.throughput(Throughput::Elements(N as u64));
    for threads in [1, cores] {
        let pool = pool(threads);
        group.bench_function(BenchmarkId::new("sample", threads), |b| {
            b.iter(|| pool.install(|| black_box(sample(&games, N, 1, &options))))
        });
    }
    let samples = sample(&games, N, 1, &options).samples;
    // Claims that hold, so that every position is checked (a refuted claim
    // stops at its counterexample).
    for claim in prog.claims().iter().filter(|c| applies(c) && c.rel.symbol() == "=") {
        for threads in [1, cores] {
            let pool = pool(threads);
            group.bench_function(BenchmarkId::new(&claim.name, threads), |b| {
                b.iter(|| pool.install(|| black_box(check_positions(claim, &samples, &options, &|_, _| {}))))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, positions);
criterion_main!(benches);
