//! The puzzles' targets, on one core: the number of ways to place 14
//! queens on 14×14 (365,596) through the generic path, which reads the
//! queen's attacks off `betza"Q"` as the command does, against a
//! specialised bitmask solver written here (the textbook one: a word each
//! for the files and the two diagonals taken, shifted rank by rank), with
//! the ratio. The generic count takes the first clique's squares one of
//! each class under the board's symmetries (a queen's first rank
//! mirrored), so the bitmask solver is also timed with the same mirror.
//! Then a knight's tour of 8×8 and of 30×30, and the count of closed
//! knight's tours of 6×6 (9,862).
//!
//! ```text
//! cargo bench --bench puzzle
//! ```

use algchess::puzzle::{place, read_pieces, tour, Board, Goal, Limits, Mode, PieceSet, PlaceOptions, TourOptions};
use algchess::{Files, MemoryLimit, Tiling};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A piece read off its notation, and a brief board.
fn read(piece: &str, board: &str) -> (PieceSet, Board) {
    let set = read_pieces(None, &[piece.to_string()], Tiling::Square, &Files, MemoryLimit::NONE).expect("a piece");
    let grid = algchess::puzzle::brief(board, Tiling::Square)
        .expect("a brief board")
        .expect("a board");
    (set, Board::new(&grid, Tiling::Square).expect("squares"))
}

/// The count the generic path gives: the queen read off its notation,
/// its attacks off its captures, then the search.
fn generic(n: usize) -> u64 {
    let (set, board) = read(r#"betza"Q""#, &format!("{n}x{n}"));
    let options = PlaceOptions {
        goal: Goal::Exactly(vec![n]),
        mode: Mode::Count,
        limits: Limits::default(),
    };
    place(&set, &board, &options, &mut |_| {}, &|_, _| {})
        .expect("a count")
        .count
}

/// The specialised solver's ranks from here: the files and the two
/// diagonals taken, as words, shifted a rank at each step.
fn ranks(all: u32, files: u32, left: u32, right: u32) -> u64 {
    if files == all {
        return 1;
    }
    let mut free = all & !(files | left | right);
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        count += ranks(all, files | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    count
}

/// The specialised solver.
fn bitmask(n: u32) -> u64 {
    ranks((1 << n) - 1, 0, 0, 0)
}

/// The specialised solver with the first rank's mirror: the queens of
/// its left half counted twice, the middle one once.
fn bitmask_mirrored(n: u32) -> u64 {
    let all = (1 << n) - 1;
    let first = |file: u32| {
        let bit = 1 << file;
        ranks(all, bit, bit << 1, bit >> 1)
    };
    let half: u64 = (0..n / 2).map(first).sum();
    2 * half + if n % 2 == 1 { first(n / 2) } else { 0 }
}

/// The best of `runs` timings of `f`, which must give `want`.
fn best(runs: usize, want: u64, f: impl Fn() -> u64) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            assert_eq!(f(), want);
            t.elapsed()
        })
        .min()
        .expect("a run")
}

fn knights(board: &str, closed: bool, count: bool) -> (bool, Option<u64>) {
    let (set, board) = read(r#"betza"N""#, board);
    let options = TourOptions {
        closed,
        count,
        start: None,
        limits: Limits::default(),
    };
    let r = tour(&set, &board, &options, &|_, _| {}).expect("a tour");
    (r.tour.is_some(), r.count)
}

fn queens(c: &mut Criterion) {
    // The ratios, from the best of five runs of each, taking turns.
    let (mut g, mut s, mut m) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        g = g.min(best(1, 365_596, || generic(black_box(14))));
        s = s.min(best(1, 365_596, || bitmask(black_box(14))));
        m = m.min(best(1, 365_596, || bitmask_mirrored(black_box(14))));
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "14 queens, 365,596 ways, one core: generic {:.0} ms, bitmask {:.0} ms, bitmask mirrored {:.0} ms: \
         generic at {:.2}× the bitmask's speed, {:.2}× the mirrored one's",
        ms(g),
        ms(s),
        ms(m),
        s.as_secs_f64() / g.as_secs_f64(),
        m.as_secs_f64() / g.as_secs_f64()
    );
    let mut group = c.benchmark_group("puzzle/queens");
    group.sample_size(10);
    group.bench_function("generic 14", |b| b.iter(|| black_box(generic(14))));
    group.bench_function("bitmask 14", |b| b.iter(|| black_box(bitmask(black_box(14)))));
    group.bench_function("bitmask mirrored 14", |b| {
        b.iter(|| black_box(bitmask_mirrored(black_box(14))))
    });
    group.finish();
}

fn tours(c: &mut Criterion) {
    let mut group = c.benchmark_group("puzzle/knight");
    group.sample_size(10);
    group.bench_function("tour 8x8", |b| b.iter(|| assert!(knights("8x8", false, false).0)));
    group.bench_function("tour 30x30", |b| b.iter(|| assert!(knights("30x30", false, false).0)));
    group.bench_function("closed tours of 6x6", |b| {
        b.iter(|| assert_eq!(knights("6x6", true, true).1, Some(9862)))
    });
    group.finish();
}

criterion_group!(benches, queens, tours);
criterion_main!(benches);
