//! What simplification earns: perft on naive rule files (rules/naive/),
//! the same files simplified as `perft` simplifies them by default, and
//! the idiomatic files, simplified or not (`--no-simplify`). One thread;
//! each time is the best of `RUNS`; every count must agree.
//!
//! ```text
//! cargo bench --bench simplify
//! ```

use algchess::{perft, Laws, Program, Rewrites, Rules};
use algchess::{simplify_text, SimplifyOptions};
use std::path::Path;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// Each game: its naive file, its idiomatic file, the depth.
const GAMES: [(&str, &str, &str, u32); 2] = [
    ("chess", "rules/naive/naive_chess.alg", "rules/chess.alg", 5),
    ("fairy", "rules/naive/naive_fairy.alg", "rules/naive/fairy_game.alg", 4),
];

/// The file as written, and as simplified on the way to the engine.
fn programs(path: &str) -> (Program, Program, Duration) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let prog = algchess::load(&path).expect("the rule file loads");
    let text = std::fs::read_to_string(&path).expect("the rule file reads");
    let laws = Laws::bundled_on(prog.tiling());
    let rules = Rewrites::new(&laws);
    let name = path.display().to_string();
    let t = Instant::now();
    let out =
        simplify_text(&name, &text, &algchess::Files, &rules, &SimplifyOptions::quick()).expect("the file simplifies");
    let took = t.elapsed();
    let simplified =
        Program::from_text_with(&name, &out.text, prog.tiling(), &algchess::Files).expect("the simplified file loads");
    (prog, simplified, took)
}

/// Perft from the game's start on the engine for each program: leaves
/// and best time. The runs take turns, so that a busy spell on a shared
/// machine does not fall on one program only.
fn timed(progs: &[&Program], game: &str, depth: u32) -> Vec<(u64, Duration)> {
    let rules: Vec<Rules> = progs
        .iter()
        .map(|p| Rules::fast(p.game(game).expect("the game is declared")))
        .collect();
    let mut out: Vec<(Option<u64>, Duration)> = vec![(None, Duration::MAX); progs.len()];
    for _ in 0..RUNS {
        for (r, (leaves, fastest)) in rules.iter().zip(out.iter_mut()) {
            let t = Instant::now();
            let n = perft(r, &r.start(), depth).expect("perft runs");
            *fastest = (*fastest).min(t.elapsed());
            assert!(leaves.is_none_or(|l| l == n), "two runs disagree");
            *leaves = Some(n);
        }
    }
    out.into_iter().map(|(l, t)| (l.expect("one run"), t)).collect()
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(64 << 20)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        println!(
            "{:<6} {:>5} {:>10} {:>10} {:>10} {:>10} {:>12} {:>12} {:>12}",
            "game",
            "depth",
            "naive",
            "simplified",
            "idiomatic",
            "idiom.simp",
            "naive/simp",
            "simp/idiom",
            "simplify ms"
        );
        for (game, naive, idiomatic, depth) in GAMES {
            let (n, ns, nt) = programs(naive);
            let (i, is, _) = programs(idiomatic);
            let results = timed(&[&n, &ns, &i, &is], game, depth);
            let leaves = results[0].0;
            assert!(
                results.iter().all(|(l, _)| *l == leaves),
                "{game}: the four files disagree: {results:?}"
            );
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            let [a, b, c, d] = [0, 1, 2, 3].map(|k| ms(results[k].1));
            println!(
                "{game:<6} {depth:>5} {a:>8.0}ms {b:>8.0}ms {c:>8.0}ms {d:>8.0}ms {:>11.2}x {:>11.2}x {:>12.0}",
                a / b,
                b / c,
                ms(nt)
            );
        }
    });
}
