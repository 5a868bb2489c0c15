//! The referee against python-chess on the same real PGN files: plies a
//! second for `algchess referee` (one thread, and one per core) and for
//! python-chess reading each game and replaying its moves, run side by
//! side, best of three, with the ratios: of the games' time each reports,
//! and of the whole processes. Run with `cargo bench --bench referee`; python-chess is
//! skipped, with a note, where `python3 -c "import chess"` fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

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

/// One run of the referee over `files` with `jobs` threads: the plies
/// and the seconds its summary reports (the games' time, the rules read
/// and planned before the clock starts, as python-chess's is timed after
/// `import chess`), and the seconds the whole process took.
fn referee(files: &[PathBuf], jobs: &str) -> (u64, f64, f64) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args(["referee", "--json", "--jobs", jobs])
        .args(files)
        .output()
        .expect("the referee runs");
    let whole = started.elapsed().as_secs_f64();
    let text = String::from_utf8(out.stdout).expect("JSON is UTF-8");
    let last = text.lines().last().expect("a summary line");
    let v: serde_json::Value = serde_json::from_str(last).expect("the summary is JSON");
    let s = &v["summary"];
    (
        s["plies"].as_u64().expect("plies"),
        s["seconds"].as_f64().expect("seconds"),
        whole,
    )
}

/// One run of python-chess over `files`: plies, the seconds it reports,
/// and the seconds the whole process took.
fn python(files: &[PathBuf]) -> (u64, f64, f64) {
    let started = Instant::now();
    let out = Command::new("python3")
        .args(["-c", PYTHON])
        .args(files)
        .output()
        .expect("python3 runs");
    let whole = started.elapsed().as_secs_f64();
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut words = text.split_whitespace();
    let plies = words.next().and_then(|w| w.parse().ok()).expect("plies");
    let seconds = words.next().and_then(|w| w.parse().ok()).expect("seconds");
    (plies, seconds, whole)
}

/// The fastest of each column over the runs.
fn best(runs: &[(u64, f64, f64)]) -> (u64, f64, f64) {
    let min = |f: fn(&(u64, f64, f64)) -> f64| runs.iter().map(f).fold(f64::INFINITY, f64::min);
    (runs[0].0, min(|r| r.1), min(|r| r.2))
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pgn_corpus/files");
    let files: Vec<PathBuf> = FILES.iter().map(|f| dir.join(f)).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let has_python = Command::new("python3")
        .args(["-c", "import chess"])
        .output()
        .is_ok_and(|o| o.status.success());
    // The contestants side by side, each round running each once, so that
    // the machine's load falls on all of them alike; the best of three.
    let (mut one, mut all, mut pc) = (vec![], vec![], vec![]);
    for _ in 0..3 {
        one.push(referee(&files, "1"));
        all.push(referee(&files, &cores.to_string()));
        if has_python {
            pc.push(python(&files));
        }
    }
    let (one, all) = (best(&one), best(&all));
    let rate = |plies: u64, s: f64| plies as f64 / s;
    println!(
        "referee, one thread:  {:>9.0} plies/s ({} plies; whole run {:.3} s)",
        rate(one.0, one.1),
        one.0,
        one.2
    );
    println!(
        "referee, {cores} threads:   {:>9.0} plies/s (whole run {:.3} s)",
        rate(all.0, all.1),
        all.2
    );
    if !has_python {
        println!("python-chess: not installed here (pip install chess), no ratio");
        return;
    }
    let pc = best(&pc);
    assert_eq!(pc.0, one.0, "both read the same plies");
    println!(
        "python-chess:         {:>9.0} plies/s ({} plies; whole run {:.3} s)",
        rate(pc.0, pc.1),
        pc.0,
        pc.2
    );
    println!(
        "ratio: {:.2}x on one thread, {:.2}x on {cores}; whole runs (start-up included): {:.2}x and {:.2}x",
        pc.1 / one.1,
        pc.1 / all.1,
        pc.2 / one.2,
        pc.2 / all.2
    );
}
