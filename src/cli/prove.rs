//! `algchess prove`: every claim proved by equality saturation, or refuted
//! by a counterexample.

use super::claims::{self, ms, Decided, Positions, Run, RunArgs, Status};
use super::findings::{add_positions, claim_key, counterexample_row, counterexample_text, positions_phrase};
use super::pictures::{Pictures, SvgArgs};
use algchess_core::positions::{PositionOptions, PositionsReport};
use algchess_core::ClaimOptions;
use algchess_core::Diags;
use algchess_core::Laws;
use algchess_core::MemoryLimit;
use algchess_core::Pieces;
use algchess_core::Tiling;
use algchess_core::{
    explain as explain_proof, prove_claim_on, render, KatLimits, ProofNames, ProofReport, ProveOptions, Rewrites,
    SaturationLimits, Stop, Verdict,
};
use algchess_core::{EnumerationOptions, Program, SystemClock, Timer};
use std::path::PathBuf;
use std::time::Duration;

/// The positions a replayed proof is confirmed on, unless `--full-check`.
const QUICK_POSITIONS: usize = 200;

#[derive(clap::Args)]
pub(super) struct Args {
    /// Rule files, or directories of `.alg` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The directory of axiom files (default: the bundled `axioms/`).
    #[arg(long, value_name = "DIR")]
    axioms: Option<PathBuf>,
    /// Print each proof as numbered steps.
    #[arg(long)]
    explain: bool,
    /// Saturation: at most this many iterations per claim.
    #[arg(long, default_value_t = 30)]
    iter_limit: usize,
    /// Saturation: at most this many e-nodes per claim.
    #[arg(long, default_value_t = 20_000)]
    node_limit: usize,
    /// Saturation: a cap of this many seconds per claim, for safety. By
    /// default only work limits a claim (`--iter-limit`, `--node-limit`,
    /// `--kat-work`, `--work`), so verdicts do not depend on the machine.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Kleene algebra with tests, tried first: at most this many steps
    /// (pairs compared and transitions followed) per claim; 0 skips it.
    #[arg(long, default_value_t = KatLimits::default().work, value_name = "STEPS")]
    kat_work: u64,
    /// Kleene algebra with tests: a cap of this many seconds per claim,
    /// for safety; 0 skips it.
    #[arg(long, value_name = "SECONDS")]
    kat_limit: Option<f64>,
    /// The enumeration: boxes of up to this many squares.
    #[arg(long, default_value_t = 16)]
    max_cells: usize,
    /// The enumeration of a claim with no proof: at most this much work
    /// (the states its evaluations make, and one for each), then the boxes
    /// covered are reported (default 100,000, or 5,000,000 with
    /// `--full-check`).
    #[arg(long, value_name = "N")]
    work: Option<u64>,
    /// The enumeration and the check on positions: a cap of this many
    /// seconds per claim, for safety.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Stop a claim's saturation or search when the process holds more
    /// heap than this (`512M`, `2G`); the claim is then `unknown`.
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
    /// Spend longer: confirm each proof with the full enumeration
    /// (`--max-cells`, `--work`, `--positions`) instead of the quick one
    /// (boxes of up to 6 squares within 100,000 of work, and 200
    /// positions), and give claims without a proof 5,000,000 of work
    /// unless `--work` says otherwise.
    #[arg(long)]
    full_check: bool,
    /// Only claims whose name contains this text.
    #[arg(long)]
    only: Option<String>,
    /// Print one JSON object per claim and line, then a summary object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    run: RunArgs,
    /// Draw each counterexample: its board and both sides' results.
    #[command(flatten)]
    svg: SvgArgs,
}

/// The enumeration's default work for a claim with no proof: well under a
/// second on one core for most claims.
const QUICK_WORK: u64 = 100_000;
/// The same with `--full-check`.
const FULL_WORK: u64 = 5_000_000;

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let pictures = Pictures::new(&args.svg)?;
    // Quick by default: a claim nothing settles is `unknown` in about a
    // second.
    let work = args
        .work
        .unwrap_or(if args.full_check { FULL_WORK } else { QUICK_WORK });
    let mut search = claims::search(args.max_cells, work, args.timeout, &args.run)?;
    search.memory = args.memory_limit;
    let time_limit = args
        .time_limit
        .map(|t| super::output::seconds("--time-limit", t, false))
        .transpose()?;
    let kat_limit = args
        .kat_limit
        .map(|t| super::output::seconds("--kat-limit", t, true))
        .transpose()?;
    let programs = claims::load(&args.paths, args.memory_limit)?;
    // The names `--explain` prints each program's terms with.
    let names: Vec<ProofNames> = if args.explain {
        programs.iter().map(ProofNames::of).collect()
    } else {
        vec![]
    };
    let (square, hex) = laws(&args, &programs)?;
    let (square_rules, hex_rules) = (Rewrites::new(&square), Rewrites::new(&hex));
    let positions = Positions::new(&programs, args.run.positions);
    let on_positions = PositionOptions {
        eval_budget: search.eval_budget,
        timeout: search.timeout,
        memory: args.memory_limit,
    };
    let options = options(&args, search, time_limit, kat_limit);
    let run = Run {
        json: args.json,
        only: args.only.as_deref(),
        shard: args.run.shard,
        allow_unknown: args.run.allow_unknown,
        verdicts: &["proved", "refuted", "unknown"],
    };
    let code = claims::run_each(&programs, &[], &run, |p, claim, bar| {
        let (laws, rules) = match claim.tiling {
            Tiling::Square => (&square, &square_rules),
            Tiling::Hex => (&hex, &hex_rules),
        };
        let after_proof = if args.full_check { usize::MAX } else { QUICK_POSITIONS };
        let heard = |done, total| bar.set("positions".into(), done, total);
        let on = positions.on(p, &[], &on_positions, after_proof, &heard);
        let report = prove_claim_on(claim, laws, rules, &options, Some(&on), &|cells, done, total| {
            bar.set(format!("{cells} cells"), done, total)
        });
        let played = report.positions.as_ref();
        if let Some(row) = report
            .counterexample
            .as_ref()
            .and_then(|c| counterexample_row(c, claim))
        {
            pictures.add(claim_key(&programs, &[], p, claim), &claim.name, row);
        }
        let status = if report.agrees() {
            Status::Agrees
        } else if report.verdict == Verdict::Unknown {
            Status::Unknown
        } else {
            Status::Disagrees
        };
        let text = if args.json {
            let mut value = serde_json::to_value(&report).expect("reports serialise");
            if args.explain {
                value["proof"] = serde_json::json!(report.proof.as_ref().map(|p| render(&claim.pieces, p)));
            }
            add_positions(&mut value, played);
            format!("{value}\n")
        } else {
            describe(&report, played, names.get(p), &claim.pieces)
        };
        Decided {
            verdict: match report.verdict {
                Verdict::Proved => "proved",
                Verdict::Refuted => "refuted",
                Verdict::Unknown => "unknown",
            },
            status,
            text,
            open: report.verdict == Verdict::Unknown
                || (report.verdict == Verdict::Proved && played.is_some_and(|p| p.stopped_by_memory)),
        }
    });
    pictures.finish()?;
    Ok(code)
}

/// The laws of square boards, and of hex ones when a program plays there:
/// `--axioms`' files, or the bundled ones. Each grid has its own laws; the
/// prover uses only those of the claim's grid, and the hex ones are read
/// only when a program plays on hex.
fn laws(args: &Args, programs: &[Program]) -> Result<(Laws, Laws), Diags> {
    let axioms = match &args.axioms {
        Some(dir) => {
            super::output::warn_unchecked_axioms(dir);
            Some(super::output::read_axioms(dir)?)
        }
        None => None,
    };
    let laws_on = |t: Tiling| match &axioms {
        Some(files) => Laws::from_texts(files, t, &crate::Files),
        None => Ok(Laws::bundled_on(t)),
    };
    let square = laws_on(Tiling::Square)?;
    let hex = match programs.iter().any(|p| p.tiling() == Tiling::Hex) {
        true => laws_on(Tiling::Hex)?,
        false => Laws::default(),
    };
    Ok((square, hex))
}

/// What the prover may spend on a claim, and how its verdict is checked:
/// against `search`'s positions with `--full-check`, else quickly.
fn options(
    args: &Args,
    search: EnumerationOptions,
    time_limit: Option<Duration>,
    kat_limit: Option<Duration>,
) -> ProveOptions {
    ProveOptions {
        saturation: SaturationLimits {
            iter_limit: args.iter_limit,
            node_limit: args.node_limit,
            time_limit: Timer::within(time_limit, &SystemClock),
            memory: args.memory_limit,
        },
        check: ClaimOptions {
            search: search.clone(),
            ..ClaimOptions::default()
        },
        cross_check: match args.full_check {
            true => ClaimOptions {
                search,
                ..ClaimOptions::default()
            },
            false => {
                let mut quick = ProveOptions::quick_check(args.memory_limit);
                quick.search.timeout = search.timeout;
                quick
            }
        },
        kat: KatLimits {
            work: args.kat_work,
            time: Timer::within(kat_limit, &SystemClock),
            ..Default::default()
        },
        timer: Timer::new(&SystemClock),
    }
}

/// The human-readable account of one report.
/// With `explain`, the proof too, in the names of the claim's program.
pub(super) fn describe(
    r: &ProofReport,
    played: Option<&PositionsReport>,
    explain: Option<&ProofNames>,
    pieces: &Pieces,
) -> String {
    let mark = if r.agrees() { "✓" } else { "✗" };
    let graph = format!("e-graph {} nodes, {} iterations", r.egraph_nodes, r.iterations);
    let on_positions = played.filter(|p| p.counterexample.is_none());
    let mut out = match r.verdict {
        Verdict::Proved if r.proof_steps == Some(1) && r.bound.is_some() => {
            let b = r.bound.expect("a bound");
            format!(
                "{mark} {} ({}): proved by enumeration: decided on every board of up to {} squares (bound from windows of {} and {} squares){} [{}]\n",
                r.name,
                r.relation,
                b.squares(),
                b.windows[0],
                b.windows[1],
                positions_phrase(on_positions, "and checked on"),
                ms(r.ms)
            )
        }
        Verdict::Proved => format!(
            "{mark} {} ({}): proved in {} step{}, checked on boards of up to {} squares{} [{}; {graph}]\n",
            r.name,
            r.relation,
            r.proof_steps.unwrap_or(0),
            if r.proof_steps == Some(1) { "" } else { "s" },
            r.cells,
            positions_phrase(on_positions, "and on"),
            ms(r.ms)
        ),
        Verdict::Refuted => {
            let on = if played.is_some_and(|p| p.counterexample.is_some()) {
                " on a reachable position"
            } else {
                ""
            };
            format!("{mark} {} ({}): refuted{on} [{}]\n", r.name, r.relation, ms(r.ms))
        }
        Verdict::Unknown => {
            let proof = match &r.stop {
                Some(Stop::Met) => "a proof, not confirmed".to_string(),
                Some(s) => format!("no proof (saturation stopped: {s})"),
                None => "no proof".to_string(),
            };
            format!(
                "{mark} {} ({}): unknown: {proof}, no counterexample on boards of up to {} squares{} [{}; {graph}]\n",
                r.name,
                r.relation,
                r.cells,
                positions_phrase(on_positions, "or on"),
                ms(r.ms)
            )
        }
    };
    if let Some(note) = &r.note {
        out.push_str(&format!("    note: {note}\n"));
    }
    if let Some(c) = &r.counterexample {
        out.push_str(&counterexample_text(c, played));
    }
    if let (Some(names), Some(p)) = (explain, &r.proof) {
        out.push_str(&explain_proof(pieces, p, names));
    }
    out
}
