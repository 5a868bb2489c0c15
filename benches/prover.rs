//! Benchmarks of the equality-saturation prover (`algchess::prover`).
//!
//! * A table, printed once to stderr before anything is measured: every
//!   claim of every file in `theorems/`, proved once with the default
//!   `ProveOptions` (those of `algchess prove`), with its verdict, time,
//!   e-graph size, iterations and proof steps, and the time of its two
//!   public parts measured apart (saturation with explanation, and the
//!   enumeration). The set-up panics if a verdict disagrees with its claim's
//!   relation (`ProofReport::agrees`) or an e-graph grows past 100,000
//!   nodes, so a broken prover is never measured.
//! * `prover/appendix_a`: the seed's Appendix A claim (`appendix_a` in
//!   `theorems/seed.alg`). `prove_claim` is the whole proof: saturation,
//!   explanation, replay and the quick enumeration cross-check (target:
//!   under 5 ms). `saturate_explain` is `prover::saturate` alone: saturation,
//!   egg's explanation and its replay; `cross_check` is the enumeration
//!   (`check_claim`) that `prove_claim` runs before it says `proved`.
//! * `prover/theorems`: every claim of every file in `theorems/`, one after
//!   the other, in one iteration; and `cli`, the wall time of the command a
//!   user runs, `algchess prove theorems/`, positions included (target:
//!   under 2 s, aiming for 0.5 s).
//!
//! Run from the crate root:
//!
//! ```text
//! cargo bench --bench prover
//! cargo bench --bench prover -- --warm-up-time 1 --measurement-time 3
//! ```

use algchess::check_claim;
use algchess::Laws;
use algchess::{prove_claim, saturate, ProofReport, ProveOptions, Rewrites, Saturation, Verdict};
use algchess::{Claim, Program};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const THEOREMS: &str = "theorems";
const SEED: &str = "theorems/seed.alg";
const APPENDIX_A: &str = "appendix_a";
/// No claim's e-graph may grow past this.
const MAX_NODES: usize = 100_000;

/// The laws, their rewrites, and every file of `theorems/`.
struct Fixture {
    laws: Laws,
    rules: Rewrites,
    programs: Vec<Program>,
    options: ProveOptions,
}

impl Fixture {
    fn load() -> Fixture {
        let laws = Laws::bundled();
        let rules = Rewrites::new(&laws);
        let theorems = Path::new(env!("CARGO_MANIFEST_DIR")).join(THEOREMS);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&theorems)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", theorems.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "alg"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no .alg files in {}", theorems.display());
        let programs = files
            .iter()
            .map(|f| algchess::load(f).unwrap_or_else(|e| panic!("cannot load {}: {e}", f.display())))
            .collect();
        Fixture {
            laws,
            rules,
            programs,
            options: ProveOptions::default(),
        }
    }

    /// Every claim, with the name of its file.
    fn claims(&self) -> impl Iterator<Item = (&str, &Claim)> {
        self.programs
            .iter()
            .flat_map(|p| p.claims().iter().map(move |c| (&*p.source().name, c)))
    }

    fn appendix_a(&self) -> &Claim {
        let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join(SEED);
        self.claims()
            .find(|(file, c)| Path::new(file) == seed && c.name == APPENDIX_A)
            .map(|(_, c)| c)
            .unwrap_or_else(|| panic!("no claim `{APPENDIX_A}` in {SEED}"))
    }

    fn prove(&self, claim: &Claim) -> ProofReport {
        prove_claim(claim, &self.laws, &self.rules, &self.options, &|_, _, _| {})
    }
}

/// The saturation, explanation and replay of `prove_claim`, without the
/// enumeration.
fn saturate_explain(fx: &Fixture, claim: &Claim) -> Saturation {
    saturate(claim, &fx.laws, &fx.rules, &fx.options)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, ms(start.elapsed()))
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Proved => "proved",
        Verdict::Refuted => "refuted",
        Verdict::Unknown => "unknown",
    }
}

/// Proves every claim once and prints the table; panics if a verdict
/// disagrees or an e-graph is too big.
fn table(_: &mut Criterion) {
    let (fx, load_ms) = timed(Fixture::load);
    eprintln!(
        "{} laws, {} rewrites ({} tidy), {} claims in {} files; loaded in {load_ms:.1} ms",
        fx.laws.laws.len(),
        fx.rules.rewrites.len(),
        fx.rules.tidy,
        fx.claims().count(),
        fx.programs.len()
    );
    eprintln!(
        "{:<44} {:>3} {:>8} {:>9} {:>9} {:>9} {:>7} {:>5} {:>5}",
        "claim", "rel", "verdict", "ms", "sat+expl", "enum", "nodes", "iters", "steps"
    );
    let mut rows = vec![];
    let mut failures = vec![];

    let (mut total, mut total_sat, mut total_enum) = (0.0, 0.0, 0.0);
    for (file, claim) in fx.claims() {
        let (report, t) = timed(|| fx.prove(claim));
        // The parts, apart: saturation only where `prove_claim` saturated
        // (a refuted `!=` claim never reaches it).
        let sat = (report.iterations > 0).then(|| timed(|| saturate_explain(&fx, claim)));
        let (_, t_enum) = timed(|| check_claim(claim, &fx.options.cross_check, &|_, _, _| {}));

        let t_sat = sat.as_ref().map_or(0.0, |(_, t)| *t);
        total += t;
        total_sat += t_sat;
        total_enum += t_enum;
        eprintln!(
            "{:<44} {:>3} {:>8} {:>9.2} {:>9} {:>9.2} {:>7} {:>5} {:>5}{}",
            claim.name,
            report.relation,
            verdict(report.verdict),
            t,
            sat.as_ref().map_or("-".to_string(), |(_, t)| format!("{t:.2}")),
            t_enum,
            report.egraph_nodes,
            report.iterations,
            report.proof_steps.map_or("-".to_string(), |s| s.to_string()),
            if report.agrees() { "" } else { "  DISAGREES" }
        );
        if !report.agrees() {
            failures.push(format!(
                "{file}: `{}` ({}) is {}: {:?}",
                claim.name,
                report.relation,
                verdict(report.verdict),
                report.note.clone().or(report.stop.as_ref().map(|s| s.to_string()))
            ));
        }
        if report.egraph_nodes > MAX_NODES {
            failures.push(format!(
                "{file}: `{}` grew an e-graph of {} nodes (more than {MAX_NODES})",
                claim.name, report.egraph_nodes
            ));
        }
        rows.push((claim.name.clone(), t, report.egraph_nodes));
    }
    eprintln!(
        "total {total:.1} ms over {} claims (one run each): saturation and explanation {total_sat:.1} ms, enumeration {total_enum:.1} ms, \
         the rest (replay, bookkeeping) {:.1} ms",
        rows.len(),
        total - total_sat - total_enum
    );
    let largest = rows.iter().max_by_key(|r| r.2).expect("there are claims");
    eprintln!(
        "largest e-graph: {} nodes (`{}`), limit {MAX_NODES}",
        largest.2, largest.0
    );
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    let slowest: Vec<String> = rows.iter().take(5).map(|(n, t, _)| format!("{n} {t:.1} ms")).collect();
    eprintln!("slowest: {}", slowest.join(", "));

    assert!(
        failures.is_empty(),
        "the prover is broken:\n  {}",
        failures.join("\n  ")
    );
}

fn appendix_a(c: &mut Criterion) {
    let fx = Fixture::load();
    let claim = fx.appendix_a();
    let report = fx.prove(claim);
    assert!(
        report.agrees(),
        "`{APPENDIX_A}` disagrees with its relation: {report:?}"
    );
    assert_eq!(
        report.verdict,
        Verdict::Proved,
        "`{APPENDIX_A}` is not proved: {report:?}"
    );

    let mut group = c.benchmark_group("prover/appendix_a");
    group.bench_function(BenchmarkId::new("prove_claim", APPENDIX_A), |b| {
        b.iter(|| {
            let r = prove_claim(
                black_box(claim),
                black_box(&fx.laws),
                black_box(&fx.rules),
                black_box(&fx.options),
                &|_, _, _| {},
            );
            black_box((r.verdict, r.proof_steps))
        })
    });
    group.bench_function(BenchmarkId::new("saturate_explain", APPENDIX_A), |b| {
        b.iter(|| black_box(saturate_explain(black_box(&fx), black_box(claim)).nodes))
    });
    group.bench_function(BenchmarkId::new("cross_check", APPENDIX_A), |b| {
        b.iter(|| {
            let r = check_claim(black_box(claim), black_box(&fx.options.cross_check), &|_, _, _| {});
            black_box((r.verdict, r.cells))
        })
    });
    group.finish();
}

fn theorems(c: &mut Criterion) {
    let fx = Fixture::load();
    let claims: Vec<&Claim> = fx.claims().map(|(_, c)| c).collect();
    let mut group = c.benchmark_group("prover/theorems");
    group.sample_size(10);
    group.throughput(Throughput::Elements(claims.len() as u64));
    group.bench_function(
        BenchmarkId::new("prove_claim", format!("{}_claims", claims.len())),
        |b| {
            b.iter(|| {
                let agree = claims.iter().filter(|c| fx.prove(black_box(c)).agrees()).count();
                black_box(agree)
            })
        },
    );
    group.bench_function(BenchmarkId::new("cli", "prove theorems/"), |b| {
        b.iter(|| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_algchess"))
                .args(["prove", "theorems/"])
                .output()
                .expect("the binary runs");
            assert!(out.status.success(), "prove theorems/ failed");
        })
    });
    group.finish();
}

criterion_group!(benches, table, appendix_a, theorems);
criterion_main!(benches);
