//! The referee against python-chess on the same real PGN files: plies a
//! second for `algchess referee` (one thread, and one per core) and for
//! python-chess reading each game and replaying its moves, best of three,
//! with the ratios. Run with `cargo bench --bench referee`; python-chess is
//! skipped, with a note, where `python3 -c "import chess"` fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus's files of standard chess games, from public repositories
/// (see tests/fixtures/pgn_corpus/SOURCES.md).
const FILES: [&str; 7] = [
    "mliebelt_pgn-parser__twic-01-232games.pgn",
    "pychess_pychess__dortmund.pgn",
    "niklasf_python-chess__immortal-games.pgn",
    "jhlywa_chess.js__benchmark.pgn",
    "niklasf_shakmaty__lichess_db_100k.pgn",
    "niklasf_shakmaty__twic1599_100k.pgn",
    "lichess-org_scalachess__uzchesscup.pgn",
];

/// python-chess's side: `read_game` for each game, then its moves pushed
/// on a board, as a user replays a file; prints plies and seconds.
const PYTHON: &str = r#"
import chess.pgn, sys, time
plies, start = 0, time.perf_counter()
for name in sys.argv[1:]:
    with open(name, encoding="utf-8-sig", errors="replace") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            b = g.board()
            for m in g.mainline_moves():
                b.push(m)
                plies += 1
print(plies, time.perf_counter() - start)
"#;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pgn_corpus/files");
    let files: Vec<PathBuf> = FILES.iter().map(|f| dir.join(f)).collect();
    let ours = |jobs: &str| {
        best(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_algchess"))
                .args(["referee", "--json", "--jobs", jobs])
                .args(&files)
                .output()
                .expect("the referee runs");
            let text = String::from_utf8(out.stdout).expect("JSON is UTF-8");
            let last = text.lines().last().expect("a summary line");
            let v: serde_json::Value = serde_json::from_str(last).expect("the summary is JSON");
            let s = &v["summary"];
            (
                s["plies"].as_u64().expect("plies"),
                s["seconds"].as_f64().expect("seconds"),
            )
        })
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = ours("1");
    let all = ours(&cores.to_string());
    println!(
        "referee, one thread:  {:>9.0} plies/s ({} plies)",
        one.0 as f64 / one.1,
        one.0
    );
    println!("referee, {cores} threads:   {:>9.0} plies/s", all.0 as f64 / all.1);
    let python = Command::new("python3").args(["-c", "import chess"]).status();
    if !python.is_ok_and(|s| s.success()) {
        println!("python-chess: not installed here (pip install chess), no ratio");
        return;
    }
    let pc = best(|| {
        let out = Command::new("python3")
            .args(["-c", PYTHON])
            .args(&files)
            .output()
            .expect("python3 runs");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        let mut words = text.split_whitespace();
        let plies = words.next().and_then(|w| w.parse().ok()).expect("plies");
        let seconds = words.next().and_then(|w| w.parse().ok()).expect("seconds");
        (plies, seconds)
    });
    let rate = |r: (u64, f64)| r.0 as f64 / r.1;
    println!("python-chess:         {:>9.0} plies/s ({} plies)", rate(pc), pc.0);
    println!(
        "ratio: {:.2}x on one thread, {:.2}x on {cores}",
        rate(one) / rate(pc),
        rate(all) / rate(pc)
    );
}

/// The fastest of three runs, each `(plies, seconds)`.
fn best(run: impl Fn() -> (u64, f64)) -> (u64, f64) {
    (0..3)
        .map(|_| run())
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("three runs")
}
