//! What `check` and `prove` share: loading rule files, the enumeration's
//! limits, positions from the files' games, sharding, and running every
//! claim with a progress bar, a verdict printed as soon as it is decided,
//! and a summary.

use super::output::{plain_error, seconds, Progress};
use algchess_core::positions::{self, OnPositions, PositionOptions, PositionPool, Sample};
use algchess_core::Diags;
use algchess_core::{Claim, Game, Program};
use algchess_core::{EnumerationOptions, SystemClock, Timer};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The flags `check` and `prove` share for runs in CI.
#[derive(clap::Args, Clone, Debug)]
pub(super) struct RunArgs {
    /// Also compare each claim's two sides on this many positions reachable
    /// in play of the games its file declares or imports (random games from
    /// the start, and for chess the standard perft positions); 0 turns this
    /// off. Laws (claims with metavariables) are not checked on positions.
    /// At most 1,000,000: the positions are sampled before any claim runs.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1_000_000))]
    pub positions: usize,
    /// Exit with status 0 when the only claims not confirmed are unknown.
    #[arg(long)]
    pub allow_unknown: bool,
    /// Run only shard I of N (1-based, as in `--shard 2/3`): the claims
    /// whose position, counted over all files in order from 0, is I-1
    /// modulo N. The shards of a run together give the verdicts of the
    /// whole run.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Search only the boxes of `--max-cells`, not the boards past them
    /// that are empty but for one or two pieces (lines up to 24 squares).
    #[arg(long)]
    pub no_sparse: bool,
    /// Do not decide moves anchored on the piece of interest on the box
    /// around their windows (the small-model bound): search the boxes of
    /// `--max-cells` only, as a reference that does not rest on the bound.
    #[arg(long)]
    pub no_window: bool,
}

/// One shard of a run: claims `index - 1` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the claim at position `i` (from 0) is in this shard.
    pub(super) fn holds(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

/// A `--shard` value that is not `I/N` with `1 <= I <= N`, kept to quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct BadShard(String);

impl std::fmt::Display for BadShard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: expected I/N with 1 <= I <= N, as in 2/3", self.0)
    }
}

impl std::error::Error for BadShard {}

/// Reads `I/N` with `1 <= I <= N`.
pub(super) fn parse_shard(s: &str) -> Result<Shard, BadShard> {
    let bad = || BadShard(s.to_string());
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let (index, count) = (number(i)?, number(n)?);
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The `.alg` files behind `paths`, elaborated within `memory`; every
/// file's errors at once.
pub(super) fn load(paths: &[PathBuf], memory: algchess_core::MemoryLimit) -> Result<Vec<Program>, Diags> {
    let mut programs = vec![];
    let mut errors = vec![];
    for f in &super::expand_paths(paths)? {
        match Program::load(f, memory, &crate::Files) {
            Ok(p) => programs.push(p),
            Err(d) => errors.extend(d.0),
        }
    }
    if !errors.is_empty() {
        return Err(Diags(errors));
    }
    Ok(programs)
}

/// The enumeration's limits, from `--max-cells`, `--work`, `--timeout`
/// and `--no-sparse`.
pub(super) fn search(
    max_cells: usize,
    work: u64,
    timeout: Option<f64>,
    run: &RunArgs,
) -> Result<EnumerationOptions, Diags> {
    if max_cells == 0 || max_cells > 64 {
        return Err(plain_error("--max-cells must be between 1 and 64".into()));
    }
    if work == 0 {
        return Err(plain_error("--work must be at least 1".into()));
    }
    Ok(EnumerationOptions {
        max_cells,
        work: Some(work),
        timeout: Timer::within(
            timeout.map(|t| seconds("--timeout", t, true)).transpose()?,
            &SystemClock,
        ),
        sparse: !run.no_sparse,
        window: !run.no_window,
        ..EnumerationOptions::default()
    })
}

/// The games of each program (kept by its elaboration, imported files'
/// too), and the pool their positions are sampled into when a claim
/// needs them.
pub(super) struct Positions {
    games: Vec<Vec<Game>>,
    pool: PositionPool,
}

impl Positions {
    pub(super) fn new(programs: &[Program], n: usize) -> Positions {
        let games = if n == 0 {
            vec![vec![]; programs.len()]
        } else {
            programs.iter().map(positions::games).collect()
        };
        Positions {
            games,
            pool: PositionPool::new(n),
        }
    }

    /// Where the claims of program `prog` find their positions.
    pub(super) fn on<'a>(
        &'a self,
        prog: usize,
        first: &'a [Sample],
        options: &'a PositionOptions,
        after_proof: usize,
        progress: &'a (dyn Fn(usize, usize) + Sync),
    ) -> OnPositions<'a> {
        OnPositions {
            pool: &self.pool,
            games: &self.games[prog],
            first,
            options,
            after_proof,
            progress,
        }
    }
}

/// How a verdict stands against its claim's relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// The verdict the relation asks for.
    Agrees = 0,
    /// The opposite verdict.
    Disagrees = 1,
    /// Neither: no proof and no counterexample, or no evidence at all.
    Unknown = 2,
}

/// One claim decided: its verdict's name (for the summary), how it stands,
/// and its account (a line of JSON, or text).
pub(super) struct Decided {
    pub verdict: &'static str,
    pub status: Status,
    pub text: String,
    /// Whether a limit left the verdict open (unknown, or a search or a
    /// check on positions cut short): a claim so left while the memory
    /// limit was met beside it is run again alone.
    pub open: bool,
}

/// Claims run side by side, except that one may ask to run alone: the
/// memory limit is the whole process's, so a claim that filled the heap
/// would starve the ones beside it.
#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: std::sync::Condvar,
}

#[derive(Default)]
struct GateState {
    /// Claims running side by side.
    running: usize,
    /// Claims waiting to run alone.
    waiting: usize,
    /// Whether a claim runs alone.
    alone: bool,
    /// Claims started side by side so far.
    started: usize,
}

/// A claim's place in the run side by side: what it saw when it started.
struct Entry {
    started: usize,
    beside: bool,
}

impl Gate {
    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().expect("no claim panicked holding the gate")
    }

    fn wait<'a>(&self, g: std::sync::MutexGuard<'a, GateState>) -> std::sync::MutexGuard<'a, GateState> {
        self.changed.wait(g).expect("no claim panicked holding the gate")
    }

    /// Starts a claim beside the others, once none waits to run alone.
    fn enter(&self) -> Entry {
        let mut g = self.lock();
        while g.alone || g.waiting > 0 {
            g = self.wait(g);
        }
        g.running += 1;
        g.started += 1;
        Entry {
            started: g.started,
            beside: g.running > 1,
        }
    }

    /// Ends a claim started by `enter`: whether another claim ran beside it.
    fn leave(&self, entry: Entry) -> bool {
        let mut g = self.lock();
        g.running -= 1;
        self.changed.notify_all();
        entry.beside || g.started != entry.started || g.running > 0
    }

    /// Waits until no other claim runs, and keeps new ones from starting.
    fn enter_alone(&self) {
        let mut g = self.lock();
        g.waiting += 1;
        while g.alone || g.running > 0 {
            g = self.wait(g);
        }
        g.waiting -= 1;
        g.alone = true;
    }

    fn leave_alone(&self) {
        self.lock().alone = false;
        self.changed.notify_all();
    }
}

/// How to run the claims.
pub(super) struct Run<'a> {
    pub json: bool,
    pub only: Option<&'a str>,
    pub shard: Option<Shard>,
    pub allow_unknown: bool,
    /// The verdicts the summary counts, in order, even when none occurs.
    pub verdicts: &'static [&'static str],
}

/// Runs `decide` on every claim (each program's, then its `extra` ones) selected by `--only` and `--shard`, as
/// many at a time as there are cores, taken in order, each under a
/// progress bar; prints each account in claim order as soon as it and the
/// ones before it are decided (flushed, so a run stopped from outside keeps
/// what it printed), then a summary. Returns the exit status.
///
/// The memory limit is the process's: a claim left open while the limit
/// was met, with other claims running beside it, is run again alone, with
/// the whole heap to itself, and that verdict is the one printed.
pub(super) fn run_each(
    programs: &[Program],
    extra: &[Vec<Claim>],
    run: &Run,
    decide: impl Fn(usize, &Claim, &Progress) -> Decided + Sync,
) -> i32 {
    let start = Instant::now();
    let selected = select(programs, extra, run);
    let screen = super::output::bars();
    let stdout = std::io::stdout();
    let emit = |text: &str| {
        let write = || {
            let mut out = stdout.lock();
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
        };
        match &screen {
            Some(s) => s.suspend(write),
            None => write(),
        }
    };
    struct Printed {
        next: usize,
        ready: std::collections::BTreeMap<usize, Decided>,
        file: Option<usize>,
        counts: Vec<(&'static str, usize)>,
        statuses: [usize; 3],
    }
    let printed = Mutex::new(Printed {
        next: 0,
        ready: Default::default(),
        file: None,
        counts: run.verdicts.iter().map(|v| (*v, 0)).collect(),
        statuses: [0; 3],
    });
    let taken = AtomicUsize::new(0);
    let gate = Gate::default();
    let work = || loop {
        let k = taken.fetch_add(1, Ordering::Relaxed);
        let Some(&(p, claim)) = selected.get(k) else { break };
        let entry = gate.enter();
        let stops = crate::stops();
        let bar = Progress::start(&claim.name, screen.as_ref());
        let mut decided = decide(p, claim, &bar);
        bar.finish();
        let met = crate::stops() != stops;
        let beside = gate.leave(entry);
        if decided.open && met && beside {
            gate.enter_alone();
            let bar = Progress::start(&claim.name, screen.as_ref());
            decided = decide(p, claim, &bar);
            bar.finish();
            gate.leave_alone();
        }
        let mut pr = printed.lock().expect("no printer panicked");
        pr.ready.insert(k, decided);
        loop {
            let next = pr.next;
            let Some(d) = pr.ready.remove(&next) else { break };
            let p = selected[next].0;
            if !run.json && programs.len() > 1 && pr.file != Some(p) {
                emit(&format!("{}\n", programs[p].source().name));
            }
            pr.file = Some(p);
            match pr.counts.iter_mut().find(|(v, _)| *v == d.verdict) {
                Some((_, n)) => *n += 1,
                None => pr.counts.push((d.verdict, 1)),
            }
            pr.statuses[d.status as usize] += 1;
            emit(&d.text);
            pr.next += 1;
        }
    };
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads() {
            s.spawn(|_| work());
        }
    });
    let printed = printed.into_inner().expect("no printer panicked");
    let counts = printed.counts;
    let [_, disagree, unknown] = printed.statuses;
    let code = if disagree > 0 || (unknown > 0 && !run.allow_unknown) {
        super::DISAGREE
    } else {
        super::OK
    };
    let elapsed = start.elapsed().as_millis() as u64;
    let summary = summary(run, &counts, printed.statuses, code, elapsed);
    emit(&summary);
    code
}

/// The claims `run` selects, each with its program's index: each
/// program's, then its `extra` ones, by `--only` and `--shard`.
fn select<'a>(programs: &'a [Program], extra: &'a [Vec<Claim>], run: &Run) -> Vec<(usize, &'a Claim)> {
    let mut selected: Vec<(usize, &'a Claim)> = vec![];
    let mut index = 0;
    for (p, prog) in programs.iter().enumerate() {
        for claim in prog.claims().iter().chain(extra.get(p).into_iter().flatten()) {
            if run.only.is_some_and(|o| !claim.name.contains(o)) {
                continue;
            }
            if run.shard.is_none_or(|s| s.holds(index)) {
                selected.push((p, claim));
            }
            index += 1;
        }
    }
    selected
}

/// The summary line: the claims decided, by verdict (`counts`) and by
/// standing (`statuses`: as claimed, contradicted, unknown), with the
/// exit status `code` in JSON and the time taken, `elapsed` ms.
fn summary(run: &Run, counts: &[(&'static str, usize)], statuses: [usize; 3], code: i32, elapsed: u64) -> String {
    let [agree, disagree, unknown] = statuses;
    let claims = agree + disagree + unknown;
    if run.json {
        let mut s = serde_json::Map::new();
        s.insert("claims".into(), claims.into());
        for (v, n) in counts {
            s.insert((*v).into(), (*n).into());
        }
        s.insert("agree".into(), agree.into());
        s.insert("disagree".into(), disagree.into());
        s.insert("unknown".into(), unknown.into());
        if let Some(sh) = run.shard {
            s.insert("shard".into(), format!("{}/{}", sh.index, sh.count).into());
        }
        s.insert("exit".into(), code.into());
        s.insert("ms".into(), elapsed.into());
        format!("{}\n", serde_json::json!({ "summary": s }))
    } else {
        let verdicts: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
        let mut standing = vec![format!("{agree} as claimed")];
        if disagree > 0 {
            standing.push(format!("{disagree} contradicted"));
        }
        if unknown > 0 {
            let passes = if run.allow_unknown { ", allowed" } else { "" };
            standing.push(format!("{unknown} unknown{passes}"));
        }
        let shard = run
            .shard
            .map_or(String::new(), |s| format!(" in shard {}/{}", s.index, s.count));
        format!(
            "summary: {claims} claim{}{shard}: {}; {} [{}]\n",
            if claims == 1 { "" } else { "s" },
            verdicts.join(", "),
            standing.join(", "),
            ms(elapsed)
        )
    }
}

/// A duration in milliseconds, in seconds past one.
pub(super) fn ms(ms: u64) -> String {
    if ms >= 1000 {
        format!("{:.2} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_split_every_claim_once() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(parse_shard(" 1 / 1 "), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2/3", "-1/2", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for claim in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(claim)).count(), 1, "{claim}");
        }
    }
}
