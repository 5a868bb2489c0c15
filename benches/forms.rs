//! How fast a game runs does not depend on how its rules are written:
//! each file of `benches/forms/` (chess and three variants in other
//! natural forms: Betza's pieces, castling as a walk, attacks unrolled,
//! the king on its own) against the bundled file of the same game, in
//! processor time per leaf, best of `RUNS` with the two interleaved. The
//! target: every form within `TARGET` of its bundled file. Counts must be
//! equal, or the bench stops.
//!
//! ```text
//! cargo bench --bench forms
//! ```
//!
//! Times are the thread's processor time (`/proc/thread-self/schedstat`),
//! so a thread waiting for a core on a shared machine is not charged.
//! `FORMS_ONLY=K FORMS_SIDE=form|bundled` counts row `K` once, for a
//! profiler (`valgrind --tool=callgrind`).

use algchess::{fen, perft, Position, Rules};
use std::path::Path;
use std::time::Duration;

const RUNS: usize = 3;
const TARGET: f64 = 1.25;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A form, the bundled file it is compared with, the game, a FEN (`None`:
/// the start) and the depth.
struct Row {
    form: &'static str,
    bundled: &'static str,
    game: &'static str,
    fen: Option<&'static str>,
    depth: u32,
}

const fn row(
    form: &'static str,
    bundled: &'static str,
    game: &'static str,
    fen: Option<&'static str>,
    depth: u32,
) -> Row {
    Row {
        form,
        bundled,
        game,
        fen,
        depth,
    }
}

const TABLE: [Row; 9] = [
    row("chess_betza", "rules/chess.alg", "chess", Some(START), 5),
    row("chess_betza", "rules/chess.alg", "chess", Some(KIWIPETE), 4),
    row("chess_unrolled", "rules/chess.alg", "chess", Some(START), 5),
    row("chess_unrolled", "rules/chess.alg", "chess", Some(KIWIPETE), 4),
    row("chess_walk_castling", "rules/chess.alg", "chess", Some(START), 5),
    row("chess_walk_castling", "rules/chess.alg", "chess", Some(KIWIPETE), 4),
    row("nocastle_betza", "rules/variants/nocastle.alg", "nocastle", None, 5),
    row(
        "shatranj_king_alone",
        "rules/variants/shatranj.alg",
        "shatranj",
        None,
        6,
    ),
    row("makruk_king_alone", "rules/variants/makruk.alg", "makruk", None, 5),
];

fn load(file: &str, game: &str, at: Option<&str>) -> (Rules, Position) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let prog = algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let game = prog.game(game).unwrap_or_else(|| panic!("{file} declares `{game}`"));
    let rules = Rules::fast(game);
    let pos = match at {
        None => rules.start(),
        Some(text) => {
            let (board, black) = fen::read(text, &rules.pieces).unwrap_or_else(|e| panic!("{text}: {}", e.message));
            Position {
                board,
                turn: usize::from(black),
            }
        }
    };
    (rules, pos)
}

/// This thread's processor time so far.
fn cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    Duration::from_nanos(text.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0))
}

/// Leaves and the processor time of one count.
fn timed(rules: &Rules, pos: &Position, depth: u32) -> (u64, Duration) {
    let t = cpu();
    let leaves = perft(rules, pos, depth).expect("within budget");
    (leaves, cpu() - t)
}

fn main() {
    if let Ok(k) = std::env::var("FORMS_ONLY") {
        let r = &TABLE[k.parse::<usize>().expect("a row number")];
        let form = format!("benches/forms/{}.alg", r.form);
        let file = match std::env::var("FORMS_SIDE").as_deref() {
            Ok("bundled") => r.bundled,
            _ => &form,
        };
        let (rules, pos) = load(file, r.game, r.fen);
        println!(
            "{file}: perft {} = {}",
            r.depth,
            perft(&rules, &pos, r.depth).expect("within budget")
        );
        return;
    }
    println!(
        "{:<20} {:<9} {:>2} {:>10} {:>11} {:>11} {:>6}",
        "form", "position", "d", "leaves", "form ns/lf", "bundled", "ratio"
    );
    let mut over = vec![];
    let mut ratios = vec![];
    for r in &TABLE {
        let form = load(&format!("benches/forms/{}.alg", r.form), r.game, r.fen);
        let bundled = load(r.bundled, r.game, r.fen);
        let (mut best_form, mut best_bundled) = (Duration::MAX, Duration::MAX);
        let mut leaves = 0;
        for _ in 0..RUNS {
            let (a, ta) = timed(&form.0, &form.1, r.depth);
            let (b, tb) = timed(&bundled.0, &bundled.1, r.depth);
            assert_eq!(a, b, "{}: the form counts {a}, {} counts {b}", r.form, r.bundled);
            leaves = a;
            best_form = best_form.min(ta);
            best_bundled = best_bundled.min(tb);
        }
        let ns = |t: Duration| t.as_nanos() as f64 / leaves.max(1) as f64;
        let ratio = ns(best_form) / ns(best_bundled);
        ratios.push(ratio);
        let at = match r.fen {
            Some(START) | None => "start",
            Some(_) => "kiwipete",
        };
        println!(
            "{:<20} {at:<9} {:>2} {leaves:>10} {:>11.1} {:>11.1} {ratio:>5.2}x",
            r.form,
            r.depth,
            ns(best_form),
            ns(best_bundled)
        );
        if ratio > TARGET {
            over.push(r.form);
        }
    }
    let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    println!(
        "geometric mean: {geomean:.3}x; worst: {:.3}x",
        ratios.iter().cloned().fold(0.0, f64::max)
    );
    if over.is_empty() {
        println!("every form within {TARGET}x of its bundled file");
    } else {
        println!("over {TARGET}x: {}", over.join(", "));
    }
}
