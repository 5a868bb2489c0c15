//! The engine against Fairy-Stockfish: perft, one thread each, best of
//! `RUNS` with the contestants interleaved, in leaves per second and as
//! ratios.
//!
//! Three Fairy-Stockfish binaries may take part, each spoken to over UCI
//! (`Threads 1`, `Hash 1`, `go perft N`):
//!
//! - `FSF_NATIVE=PATH`: a Fairy-Stockfish built for this CPU, for boards
//!   up to 8×8 (`largeboards=no`);
//! - `FSF_NATIVE_LARGE=PATH`: one built for this CPU with large boards
//!   (`largeboards=yes`), for the variants the first does not know
//!   (10×8: capablanca, gothic, janus);
//! - `FAIRY_STOCKFISH=PATH`, else `/usr/games/fairy-stockfish`: the
//!   generic Debian package, for comparison.
//!
//! And on the chess rows, Stockfish (`STOCKFISH=PATH`, else
//! `/usr/games/stockfish`, Debian's), spoken to the same way.
//!
//! `bash benches/fsf/build.sh DIR` builds the first two from the source
//! archive beside it, fetching nothing.
//!
//! Times are processor time (`/proc/PID/task/*/schedstat`), so a process
//! waiting for a core on a shared machine is not charged for it; the
//! two-thread column alone is wall-clock. Any Fairy-Stockfish missing
//! leaves its column empty. The table: the chess start (depth 6),
//! kiwipete (5), position 3 (7) and positions 4 to 6 of the standard
//! perft positions, on `rules/chess.alg`, then variants of
//! `rules/variants/` from their start; each row as our rate over the
//! native build's (the geometric mean below it), over Debian's, the peak
//! resident memory of each process, and our speed on two threads (root
//! moves in parallel) over ours on one. Fairy-Stockfish's perft runs on
//! one thread whatever its `Threads`. Every count must equal each
//! Fairy-Stockfish's in the same run, or the bench stops.
//!
//! Then every file of `rules/variants/` from its start, as a ratio to
//! chess's rate on the engine (the target: within 1.2×) and to each
//! Fairy-Stockfish that knows the variant (`VARIANTS=a,b` runs only
//! those, `VARIANTS=none` none).
//!
//! ```text
//! FSF_NATIVE=... FSF_NATIVE_LARGE=... cargo bench --bench engine
//! ```
//!
//! Each row runs in a process of its own (pieces declared by one file are
//! not in the sets of the next, and its peak memory is its own).

use algchess::{divide, fen, perft, Position, Rules};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

/// A row of the table: a label, the rule file and its game, a FEN (`None`:
/// the game's start), the depth (`None`: the first giving at least
/// 1.5 million leaves), and the variant's name in Fairy-Stockfish.
struct Row {
    label: &'static str,
    file: &'static str,
    game: &'static str,
    fen: Option<&'static str>,
    depth: Option<u32>,
    variant: &'static str,
}

const fn chess(label: &'static str, fen: &'static str, depth: u32) -> Row {
    Row {
        label,
        file: "rules/chess.alg",
        game: "chess",
        fen: Some(fen),
        depth: Some(depth),
        variant: "chess",
    }
}

const fn variant(name: &'static str) -> Row {
    Row {
        label: name,
        file: "",
        game: name,
        fen: None,
        depth: None,
        variant: name,
    }
}

/// The table: positions with a few million leaves or more each.
const TABLE: [Row; 14] = [
    chess("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    chess(
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    chess("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    chess(
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    chess(
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    chess(
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
    variant("amazon"),
    variant("knightmate"),
    variant("makruk"),
    variant("shatranj"),
    variant("grasshopper"),
    variant("capablanca"),
    variant("gothic"),
    variant("janus"),
];

/// The engines we race, by column: three Fairy-Stockfish binaries, and
/// Stockfish on chess.
#[derive(Clone, Copy, PartialEq)]
enum Rival {
    Native,
    NativeLarge,
    Debian,
    Stockfish,
}

impl Rival {
    fn path(self) -> Option<String> {
        let var = |v: &str| std::env::var(v).ok().filter(|p| !p.is_empty());
        let installed = |paths: [&str; 2]| paths.into_iter().find(|p| Path::new(p).exists()).map(String::from);
        match self {
            Rival::Native => var("FSF_NATIVE"),
            Rival::NativeLarge => var("FSF_NATIVE_LARGE"),
            Rival::Debian => {
                var("FAIRY_STOCKFISH").or_else(|| installed(["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]))
            }
            Rival::Stockfish => var("STOCKFISH").or_else(|| installed(["/usr/games/stockfish", "/usr/bin/stockfish"])),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Rival::Native | Rival::NativeLarge => "native Fairy-Stockfish",
            Rival::Debian => "Debian Fairy-Stockfish",
            Rival::Stockfish => "Stockfish",
        }
    }
}

/// An engine process spoken to over UCI.
struct Uci {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    /// The variants it knows (Stockfish, with no `UCI_Variant` option:
    /// chess alone).
    variants: Vec<String>,
    /// Whether it has a `UCI_Variant` option.
    variant_option: bool,
}

impl Uci {
    fn start(path: &str) -> Option<Uci> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let out = BufReader::new(child.stdout.take()?);
        let mut uci = Uci {
            child,
            out,
            variants: vec!["chess".to_string()],
            variant_option: false,
        };
        uci.send("uci");
        let mut line = String::new();
        loop {
            line.clear();
            if uci.out.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.starts_with("uciok") {
                break;
            }
            // `option name UCI_Variant type combo default chess var a var b ...`
            if line.starts_with("option name UCI_Variant ") {
                let words: Vec<&str> = line.split_whitespace().collect();
                uci.variants = words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect();
                uci.variant_option = true;
            }
        }
        uci.send("setoption name Threads value 1");
        uci.send("setoption name Hash value 1");
        uci.send("isready");
        uci.until("readyok")?;
        Some(uci)
    }

    fn knows(&self, variant: &str) -> bool {
        self.variants.iter().any(|v| v == variant)
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

    /// Sets up `variant` at `fen` (its start for `None`).
    fn setup(&mut self, variant: &str, fen: Option<&str>) {
        if self.variant_option {
            self.send(&format!("setoption name UCI_Variant value {variant}"));
        }
        match fen {
            Some(f) => self.send(&format!("position fen {f}")),
            None => self.send("position startpos"),
        }
        self.send("isready");
        self.until("readyok").expect("ready");
    }

    /// Perft of the position set up, and the processor time it took.
    fn perft(&mut self, depth: u32) -> (u64, Duration) {
        let pid = self.child.id().to_string();
        let t = cpu(&pid);
        self.send(&format!("go perft {depth}"));
        let line = self.until("Nodes searched").expect("a perft count");
        let elapsed = cpu(&pid).saturating_sub(t);
        let n = line.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a number");
        (n, elapsed)
    }

    /// Its peak resident memory so far, in kB.
    fn peak_kb(&self) -> Option<u64> {
        peak_kb(&format!("/proc/{}/status", self.child.id()))
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// The processor time of process `pid` (`self` for this one) so far,
/// its threads' together, in nanoseconds from `/proc/PID/task/*/schedstat`:
/// on a shared machine a waiting process is not charged, so this is the
/// time on one core.
fn cpu(pid: &str) -> Duration {
    let ns: u64 = std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Duration::from_nanos(ns)
}

/// `VmHWM` of a `/proc/*/status` file, in kB.
fn peak_kb(status: &str) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One row's figures, as a child process prints them on one line.
#[derive(Default, Debug)]
struct Figures {
    depth: u32,
    leaves: u64,
    /// Leaves per second of processor time on one thread, and the speed
    /// on two threads over that on one (wall-clock).
    ours: f64,
    ours2: f64,
    ours_kb: u64,
    native: Option<(f64, u64)>,
    debian: Option<(f64, u64)>,
    stockfish: Option<(f64, u64)>,
}

impl Figures {
    fn line(&self) -> String {
        let opt = |x: Option<(f64, u64)>| x.map_or("- -".to_string(), |(r, kb)| format!("{r} {kb}"));
        format!(
            "ROW {} {} {} {} {} {} {} {}",
            self.depth,
            self.leaves,
            self.ours,
            self.ours2,
            self.ours_kb,
            opt(self.native),
            opt(self.debian),
            opt(self.stockfish)
        )
    }

    fn parse(text: &str) -> Option<Figures> {
        let line = text.lines().find(|l| l.starts_with("ROW "))?;
        let w: Vec<&str> = line.split_whitespace().skip(1).collect();
        let pair = |a: &str, b: &str| Some((a.parse().ok()?, b.parse().ok()?));
        Some(Figures {
            depth: w[0].parse().ok()?,
            leaves: w[1].parse().ok()?,
            ours: w[2].parse().ok()?,
            ours2: w[3].parse().ok()?,
            ours_kb: w[4].parse().ok()?,
            native: pair(w[5], w[6]),
            debian: pair(w[7], w[8]),
            stockfish: pair(w[9], w[10]),
        })
    }
}

/// The row's game on the engine, and its position.
fn load(row: &Row) -> (Rules, Position) {
    let path = if row.file.is_empty() {
        Path::new("rules/variants").join(format!("{}.alg", row.game))
    } else {
        Path::new(row.file).to_path_buf()
    };
    let prog = algchess::load(&path).expect("run from the crate root");
    let rules = Rules::fast(prog.game(row.game).expect("the file's game"));
    let pos = match row.fen {
        Some(f) => {
            let (board, black) = fen::read(f, &rules.pieces).expect("a valid FEN");
            Position {
                board,
                turn: usize::from(black),
            }
        }
        None => rules.start(),
    };
    (rules, pos)
}

/// Runs `row` in this process: ours on one thread and each rival
/// interleaved, best of `RUNS`; then ours on two threads. A rival whose
/// count differs from ours stops the bench when `strict`, and is left out
/// otherwise (a variant of the same name whose rules differ).
fn run_row(row: &Row, strict: bool) -> Figures {
    let (rules, pos) = load(row);
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a pool");
    let (one, two) = (pool(1), pool(2));
    let depth = row.depth.unwrap_or_else(|| {
        let mut depth = 3;
        while depth < 7 && one.install(|| perft(&rules, &pos, depth)).expect("within budget") < 1_500_000 {
            depth += 1;
        }
        depth
    });
    // The native build that knows the variant, and Debian's.
    let native = [Rival::Native, Rival::NativeLarge]
        .into_iter()
        .filter_map(|f| Uci::start(&f.path()?))
        .find(|u| u.knows(row.variant));
    let knows = |r: Rival| r.path().and_then(|p| Uci::start(&p)).filter(|u| u.knows(row.variant));
    let mut fsfs: Vec<(Rival, Uci)> = [
        (Rival::Native, native),
        (Rival::Debian, knows(Rival::Debian)),
        (Rival::Stockfish, knows(Rival::Stockfish)),
    ]
    .into_iter()
    .filter_map(|(f, u)| Some((f, u?)))
    .collect();
    for (_, u) in &mut fsfs {
        u.setup(row.variant, row.fen);
    }
    let (mut ours, mut ours_wall) = (Duration::MAX, Duration::MAX);
    let mut theirs = vec![Duration::MAX; fsfs.len()];
    let mut leaves = None;
    for _ in 0..RUNS {
        let (t, wall) = (cpu("self"), Instant::now());
        let n = one.install(|| perft(&rules, &pos, depth)).expect("within budget");
        ours_wall = ours_wall.min(wall.elapsed());
        ours = ours.min(cpu("self").saturating_sub(t));
        assert!(leaves.is_none_or(|m| m == n), "{}: two runs disagree", row.label);
        leaves = Some(n);
        for ((f, u), best) in fsfs.iter_mut().zip(&mut theirs) {
            if *best == Duration::ZERO {
                continue;
            }
            let (m, t) = u.perft(depth);
            assert!(
                m == n || !strict,
                "{}: {} counts {m}, we count {n}",
                row.label,
                f.name()
            );
            // `Duration::ZERO`: left out.
            *best = if m == n { (*best).min(t) } else { Duration::ZERO };
        }
    }
    let leaves = leaves.expect("at least one run");
    let mut ours2 = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        let split = two
            .install(|| divide(&rules, &pos, depth, &|_, _| {}, &|_| String::new()))
            .expect("within budget");
        ours2 = ours2.min(t.elapsed());
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), leaves);
    }
    let rate = |t: Duration| leaves as f64 / t.as_secs_f64();
    let mut out = Figures {
        depth,
        leaves,
        ours: rate(ours),
        ours2: rate(ours2) / rate(ours_wall),
        ours_kb: peak_kb("/proc/self/status").unwrap_or(0),
        ..Figures::default()
    };
    for ((f, u), t) in fsfs.iter().zip(theirs).filter(|(_, t)| !t.is_zero()) {
        let fig = Some((rate(t), u.peak_kb().unwrap_or(0)));
        match f {
            Rival::Debian => out.debian = fig,
            Rival::Stockfish => out.stockfish = fig,
            _ => out.native = fig,
        }
    }
    out
}

/// Runs a row in a child process of this bench.
fn child_row(env: (&str, &str)) -> Figures {
    let me = std::env::current_exe().expect("the bench binary");
    let out = Command::new(&me)
        .env(env.0, env.1)
        .output()
        .expect("the bench runs itself");
    let text = String::from_utf8_lossy(&out.stdout);
    Figures::parse(&text).unwrap_or_else(|| {
        panic!(
            "{}: no figures\n{text}\n{}",
            env.1,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|r| r.ln()).sum::<f64>() / xs.len().max(1) as f64).exp()
}

fn main() {
    // `cargo bench` passes `--bench`; a filter is not supported.
    if let Ok(k) = std::env::var("ENGINE_BENCH_ONLY") {
        // One count of ours, for a profiler (`valgrind --tool=callgrind`).
        let row = &TABLE[k.parse::<usize>().expect("a row number")];
        let depth = std::env::var("ENGINE_BENCH_DEPTH").ok().and_then(|d| d.parse().ok());
        let (rules, pos) = load(row);
        let depth = depth.or(row.depth).unwrap_or(4);
        println!(
            "{}: perft {depth} = {}",
            row.label,
            perft(&rules, &pos, depth).expect("within budget")
        );
        return;
    }
    if let Ok(k) = std::env::var("ENGINE_BENCH_ROW") {
        let row = &TABLE[k.parse::<usize>().expect("a row number")];
        println!("{}", run_row(row, true).line());
        return;
    }
    if let Ok(name) = std::env::var("ENGINE_BENCH_VARIANT") {
        let name: &'static str = Box::leak(name.into_boxed_str());
        println!("{}", run_row(&variant(name), false).line());
        return;
    }
    for (f, what) in [
        (Rival::Native, "FSF_NATIVE"),
        (Rival::NativeLarge, "FSF_NATIVE_LARGE"),
        (Rival::Debian, "FAIRY_STOCKFISH (Debian)"),
        (Rival::Stockfish, "STOCKFISH"),
    ] {
        println!("{what}: {}", f.path().unwrap_or_else(|| "not given".into()));
    }
    println!(
        "\n{:<11} {:>2} {:>11} {:>11} {:>11} {:>7} {:>11} {:>7} {:>16} {:>6}",
        "position", "d", "leaves", "ours/s", "native/s", "ratio", "debian/s", "ratio", "peak MB o/n/d", "2 thr"
    );
    let (mut native, mut debian, mut stockfish) = (vec![], vec![], vec![]);
    // The chess start's rate (the first row), for the variants below.
    let mut chess_rate = 0.0;
    let mb = |kb: u64| kb as f64 / 1024.0;
    for (k, row) in TABLE.iter().enumerate() {
        let f = child_row(("ENGINE_BENCH_ROW", &k.to_string()));
        if k == 0 {
            chess_rate = f.ours;
        }
        let col = |x: Option<(f64, u64)>, all: &mut Vec<f64>| match x {
            Some((r, _)) => {
                all.push(f.ours / r);
                (format!("{r:.0}"), format!("{:.3}x", f.ours / r))
            }
            None => ("-".into(), "-".into()),
        };
        let (n, nr) = col(f.native, &mut native);
        let (d, dr) = col(f.debian, &mut debian);
        col(f.stockfish, &mut stockfish);
        let kb = |x: Option<(f64, u64)>| x.map_or("-".to_string(), |(_, kb)| format!("{:.0}", mb(kb)));
        println!(
            "{:<11} {:>2} {:>11} {:>11.0} {n:>11} {nr:>7} {d:>11} {dr:>7} {:>16} {:>5.2}x",
            row.label,
            f.depth,
            f.leaves,
            f.ours,
            format!("{:.0}/{}/{}", mb(f.ours_kb), kb(f.native), kb(f.debian)),
            f.ours2
        );
    }
    if !native.is_empty() {
        println!(
            "geometric mean over {} rows: {:.3}x native",
            native.len(),
            geomean(&native)
        );
    }
    if !debian.is_empty() {
        println!(
            "geometric mean over {} rows: {:.3}x Debian",
            debian.len(),
            geomean(&debian)
        );
    }
    if !stockfish.is_empty() {
        let each: Vec<String> = stockfish.iter().map(|r| format!("{r:.3}")).collect();
        println!(
            "on chess: {:.3}x Stockfish (geometric mean over {} rows: {}; 1/{:.1})",
            geomean(&stockfish),
            stockfish.len(),
            each.join(" "),
            1.0 / geomean(&stockfish)
        );
    }
    variants(chess_rate);
}

/// Each bundled variant's rate from its start against chess's, and
/// against each Fairy-Stockfish that knows it.
fn variants(chess_rate: f64) {
    let mut files: Vec<String> = std::fs::read_dir("rules/variants")
        .expect("run from the crate root")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "alg"))
        .map(|p| p.file_stem().expect("a file").to_string_lossy().to_string())
        .collect();
    files.sort();
    if let Ok(only) = std::env::var("VARIANTS") {
        let only: Vec<&str> = only.split(',').collect();
        files.retain(|n| only.contains(&n.as_str()));
    }
    if files.is_empty() {
        return;
    }
    println!(
        "\n{:<22} {:>2} {:>10} {:>11} {:>9} {:>8} {:>8}",
        "variant", "d", "leaves", "ours/s", "chess/it", "/native", "/debian"
    );
    let mut slowdowns = vec![];
    for name in files {
        let f = child_row(("ENGINE_BENCH_VARIANT", &name));
        let ratio = |x: Option<(f64, u64)>| x.map_or("-".to_string(), |(r, _)| format!("{:.3}x", f.ours / r));
        slowdowns.push(chess_rate / f.ours);
        println!(
            "{name:<22} {:>2} {:>10} {:>11.0} {:>8.2}x {:>8} {:>8}",
            f.depth,
            f.leaves,
            f.ours,
            chess_rate / f.ours,
            ratio(f.native),
            ratio(f.debian)
        );
    }
    let worst = slowdowns.iter().cloned().fold(0.0, f64::max);
    println!(
        "chess's rate {chess_rate:.0}/s; variants slower by {:.3}x (geometric mean), {worst:.2}x at most",
        geomean(&slowdowns)
    );
}
