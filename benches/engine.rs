//! The engine against Fairy-Stockfish: perft on the standard chess
//! positions, one thread each, in leaves per second and as a ratio. Our
//! counts run `rules/chess.alg` on the engine (the interpreter's rate on
//! the start position is printed for reference); Fairy-Stockfish runs
//! `go perft` over UCI with `Threads 1`. Without its binary (Debian package
//! `fairy-stockfish`, or `FAIRY_STOCKFISH=PATH`) only ours run.
//!
//! Then every file of `rules/variants/` from its start, at the depth that
//! gives a few million leaves, as a ratio to chess's rate on the engine
//! (the target: within 1.2×), and to Fairy-Stockfish's where it knows the
//! variant.
//!
//! ```text
//! cargo bench --bench engine
//! ```
//!
//! The machine may be shared: each side's time is the best of `RUNS`.

use algchess::{fen, perft, Position, Program, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// The positions and depths: a few million leaves each.
const POSITIONS: [(&str, &str, u32); 6] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
];

/// The best time of `RUNS` runs of `f`, and its result.
fn best<T: PartialEq + std::fmt::Debug>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut out = None;
    let mut fastest = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = f();
        fastest = fastest.min(t.elapsed());
        if let Some(prev) = &out {
            assert_eq!(prev, &r, "two runs disagree");
        }
        out = Some(r);
    }
    (out.expect("at least one run"), fastest)
}

/// A Fairy-Stockfish process spoken to over UCI.
struct Uci {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Uci {
    fn start() -> Option<Uci> {
        let path = std::env::var("FAIRY_STOCKFISH").unwrap_or_else(|_| {
            ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
                .into_iter()
                .find(|p| std::path::Path::new(p).exists())
                .unwrap_or("fairy-stockfish")
                .to_string()
        });
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let out = BufReader::new(child.stdout.take()?);
        let mut uci = Uci { child, out };
        uci.send("uci");
        uci.until("uciok")?;
        uci.send("setoption name Threads value 1");
        uci.send("isready");
        uci.until("readyok")?;
        Some(uci)
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .expect("the engine reads");
    }

    /// Reads lines up to one starting with `prefix`; that line.
    fn until(&mut self, prefix: &str) -> Option<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.out.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.starts_with(prefix) {
                return Some(line.trim().to_string());
            }
        }
    }

    /// Perft from the start of `variant`; `None` when the engine does not
    /// know it (it keeps the variant it had).
    fn variant_perft(&mut self, variant: &str, depth: u32) -> Option<u64> {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send("position startpos");
        self.send("isready");
        self.until("readyok")?;
        self.send(&format!("go perft {depth}"));
        let line = self.until("Nodes searched")?;
        let n = line.rsplit(' ').next().and_then(|n| n.parse().ok());
        self.send("setoption name UCI_Variant value chess");
        n
    }

    fn perft(&mut self, fen: &str, depth: u32) -> u64 {
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.until("readyok").expect("ready");
        self.send(&format!("go perft {depth}"));
        let line = self.until("Nodes searched").expect("a perft count");
        line.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a number")
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter is not supported.
    if let Ok(name) = std::env::var("ENGINE_BENCH_VARIANT") {
        let chess_rate = std::env::var("ENGINE_BENCH_CHESS").ok().and_then(|r| r.parse().ok());
        return variant(&name, chess_rate.expect("the parent passes chess's rate"));
    }
    let prog = Program::load(std::path::Path::new("rules/chess.alg")).expect("run from the crate root");
    let game = prog.game("chess").expect("the chess game");
    let fast = Rules::fast(game);
    let mut fsf = Uci::start();
    if fsf.is_none() {
        println!("Fairy-Stockfish not found (apt-get install fairy-stockfish, or set FAIRY_STOCKFISH): ours only");
    }
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    println!(
        "{:<11} {:>5} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "leaves", "ours/s", "fsf/s", "ratio"
    );
    let mut ratios = vec![];
    for (name, f, depth) in POSITIONS {
        let (board, black) = fen::read(f).expect("a valid FEN");
        let pos = Position {
            board,
            turn: usize::from(black),
        };
        let (n, ours) = best(|| one.install(|| perft(&fast, &pos, depth).expect("within budget")));
        let rate = n as f64 / ours.as_secs_f64();
        let theirs = fsf.as_mut().map(|e| best(|| e.perft(f, depth)));
        match theirs {
            Some((m, t)) => {
                assert_eq!(m, n, "{name}: Fairy-Stockfish counts {m}, we count {n}");
                let their_rate = m as f64 / t.as_secs_f64();
                ratios.push(rate / their_rate);
                println!(
                    "{name:<11} {depth:>5} {n:>10} {rate:>12.0} {their_rate:>12.0} {:>6.3}x",
                    rate / their_rate
                );
            }
            None => println!("{name:<11} {depth:>5} {n:>10} {rate:>12.0} {:>12} {:>7}", "-", "-"),
        }
    }
    if !ratios.is_empty() {
        let geo = ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64;
        println!("geometric mean ratio: {:.3}x", geo.exp());
    }
    let chess_rate = {
        let start = fast.start();
        let (n, t) = best(|| one.install(|| perft(&fast, &start, 5).expect("within budget")));
        n as f64 / t.as_secs_f64()
    };
    variants(chess_rate);
    // The interpreter, for the before/after ratio.
    let slow = Rules::new(game);
    let start = slow.start();
    let (n, t) = best(|| one.install(|| perft(&slow, &start, 4).expect("within budget")));
    let (m, u) = best(|| one.install(|| perft(&fast, &start, 4).expect("within budget")));
    assert_eq!(n, m);
    println!(
        "start position, perft 4: interpreter {:.0}/s, engine {:.0}/s ({:.2}x)",
        n as f64 / t.as_secs_f64(),
        m as f64 / u.as_secs_f64(),
        t.as_secs_f64() / u.as_secs_f64()
    );
}

/// Each bundled variant's rate from its start against chess's, each in
/// a process of its own: pieces declared by one file are not in the
/// sets of the next.
fn variants(chess_rate: f64) {
    println!(
        "\n{:<13} {:>5} {:>10} {:>12} {:>9} {:>12} {:>7}",
        "variant", "depth", "leaves", "ours/s", "chess/it", "fsf/s", "ratio"
    );
    let mut files: Vec<String> = std::fs::read_dir("rules/variants")
        .expect("run from the crate root")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "alg"))
        .map(|p| p.file_stem().expect("a file").to_string_lossy().to_string())
        .collect();
    files.sort();
    // `VARIANTS=a,b` runs only those.
    if let Ok(only) = std::env::var("VARIANTS") {
        let only: Vec<&str> = only.split(',').collect();
        files.retain(|n| only.contains(&n.as_str()));
    }
    let me = std::env::current_exe().expect("the bench binary");
    let mut slowdowns = vec![];
    for name in files {
        let out = Command::new(&me)
            .env("ENGINE_BENCH_VARIANT", &name)
            .env("ENGINE_BENCH_CHESS", chess_rate.to_string())
            .output()
            .expect("the bench runs itself");
        let text = String::from_utf8_lossy(&out.stdout);
        print!("{text}");
        let slowdown = text
            .split_whitespace()
            .nth(4)
            .and_then(|x| x.trim_end_matches('x').parse::<f64>().ok());
        slowdowns.push(slowdown.unwrap_or_else(|| panic!("{name}: {text}")));
    }
    let geo = slowdowns.iter().map(|r| r.ln()).sum::<f64>() / slowdowns.len() as f64;
    let worst = slowdowns.iter().cloned().fold(0.0, f64::max);
    println!(
        "chess's rate {chess_rate:.0}/s; variants slower by {:.3}x (geometric mean), {worst:.2}x at most",
        geo.exp()
    );
}

/// One variant's row: its rate, chess's over it, and Fairy-Stockfish's
/// where it knows the variant.
fn variant(name: &str, chess_rate: f64) {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let path = std::path::Path::new("rules/variants").join(format!("{name}.alg"));
    let prog = Program::load(&path).expect("a bundled variant loads");
    let rules = Rules::fast(prog.game(name).expect("the file's game"));
    let start = rules.start();
    // Deep enough for a few million leaves.
    let mut depth = 3;
    while depth < 7 && one.install(|| perft(&rules, &start, depth)).expect("within budget") < 1_500_000 {
        depth += 1;
    }
    let (n, t) = best(|| one.install(|| perft(&rules, &start, depth).expect("within budget")));
    let rate = n as f64 / t.as_secs_f64();
    let theirs = Uci::start()
        .and_then(|mut e| {
            let (m, u) = best(|| e.variant_perft(name, depth));
            (m == Some(n)).then(|| n as f64 / u.as_secs_f64())
        })
        .map_or(("-".to_string(), "-".to_string()), |r| {
            (format!("{r:.0}"), format!("{:.3}x", rate / r))
        });
    println!(
        "{name:<13} {depth:>5} {n:>10} {rate:>12.0} {:>8.2}x {:>12} {:>7}",
        chess_rate / rate,
        theirs.0,
        theirs.1
    );
}
