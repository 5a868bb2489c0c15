//! `algchess check`: every theorem decided on all small boards, and
//! compared on positions reachable in play.

use super::claims::{self, ms, Decided, Positions, Run, RunArgs, Status};
use super::findings::{add_positions, claim_key, counterexample_row, counterexample_text, positions_phrase};
use super::pictures::{Pictures, SvgArgs};
use algchess_core::positions::{pairs, PositionOptions, PositionsReport, Sample};
use algchess_core::Diags;
use algchess_core::MemoryLimit;
use algchess_core::Rel;
use algchess_core::{check_claim_on, CheckerReport, ClaimOptions, Finding, Limit};
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Args {
    /// Rule files, or directories of `.alg` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Search boards in boxes of up to this many squares.
    #[arg(long, default_value_t = 16)]
    max_cells: usize,
    /// Stop searching one claim after this much work (the states its
    /// evaluations make, and one for each), and report the boxes covered
    /// by then. Work, not time, bounds a claim, so verdicts do not depend
    /// on the machine.
    #[arg(long, value_name = "N", default_value_t = 5_000_000)]
    work: u64,
    /// A cap of this many seconds per claim, for safety: the search
    /// reports the boxes covered by then, and the check on positions
    /// gets as long again.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Random instances tried for a law (a claim with metavariables).
    #[arg(long, default_value_t = 32)]
    instances: usize,
    /// The largest box for each instance of a law (1 or more squares).
    #[arg(long, default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    instance_cells: usize,
    /// Stop a claim's search when the process holds more heap than this
    /// (`512M`, `2G`), and report the boxes covered by then.
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
    /// Only claims whose name contains this text.
    #[arg(long)]
    only: Option<String>,
    /// Print one JSON object per claim and line, then a summary object.
    #[arg(long)]
    json: bool,
    /// Skip the lint of each game's check test: by default it is compared
    /// with the attacks read off the other side's moves (`attacked_by`),
    /// on the game's positions and on boards of its size holding a king
    /// and one other piece.
    #[arg(long)]
    no_lint: bool,
    #[command(flatten)]
    run: RunArgs,
    /// Draw each counterexample: its board and both sides' results.
    #[command(flatten)]
    svg: SvgArgs,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let pictures = Pictures::new(&args.svg)?;
    let mut search = claims::search(args.max_cells, args.work, args.timeout, &args.run)?;
    search.memory = args.memory_limit;
    let programs = claims::load(&args.paths, args.memory_limit)?;
    let positions = Positions::new(&programs, args.run.positions);
    let on_positions = PositionOptions {
        eval_budget: search.eval_budget,
        timeout: search.timeout,
        memory: args.memory_limit,
    };
    let options = ClaimOptions {
        search,
        instances: args.instances,
        instance_cells: args.instance_cells,
        ..ClaimOptions::default()
    };
    let run = Run {
        json: args.json,
        only: args.only.as_deref(),
        shard: args.run.shard,
        allow_unknown: args.run.allow_unknown,
        verdicts: &["holds", "refuted"],
    };
    let lints: Vec<Vec<(algchess_core::Claim, Vec<Sample>)>> = programs
        .iter()
        .map(|prog| if args.no_lint { vec![] } else { lints(prog) })
        .collect();
    let extra: Vec<Vec<algchess_core::Claim>> = lints
        .iter()
        .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
        .collect();
    // A lint's sides differ on boards of other sizes (lines written out to
    // the game's board), so it is compared on the game's boards only.
    let mut on_game = options.clone();
    on_game.search.max_cells = 1;
    on_game.search.sparse = false;
    let code = claims::run_each(&programs, &extra, &run, |p, claim, bar| {
        let lint = extra[p].iter().position(|c| std::ptr::eq(c, claim));
        let options = if lint.is_some() { &on_game } else { &options };
        let first: &[Sample] = match lint {
            Some(k) => &lints[p][k].1,
            None => &[],
        };
        let heard = |done, total| bar.set("positions".into(), done, total);
        let on = positions.on(p, first, &on_positions, usize::MAX, &heard);
        let (report, played) = check_claim_on(claim, options, Some(&on), &|cells, done, total| {
            bar.set(format!("{cells} cells"), done, total)
        });
        let played = played.as_ref();
        if let Some(row) = report
            .counterexample
            .as_ref()
            .and_then(|c| counterexample_row(c, claim))
        {
            pictures.add(claim_key(&programs, &extra, p, claim), &claim.name, row);
        }
        let status = status(&report, played);
        let text = if args.json {
            let mut value = serde_json::to_value(&report).expect("reports serialise");
            add_positions(&mut value, played);
            format!("{value}\n")
        } else {
            describe(&report, played, status)
        };
        Decided {
            verdict: match report.verdict {
                Finding::HoldsUpTo => "holds",
                Finding::Refuted => "refuted",
            },
            status,
            text,
            open: report.verdict != Finding::Refuted
                && (report.stopped_by == Some(Limit::Memory) || played.is_some_and(|p| p.stopped_by_memory)),
        }
    });
    pictures.finish()?;
    Ok(code)
}

/// The lints of a program's games with the boards each is compared on
/// first (a king and one other piece on every pair of squares).
fn lints(prog: &algchess_core::Program) -> Vec<(algchess_core::Claim, Vec<Sample>)> {
    prog.attack_lints()
        .into_iter()
        .map(|lint| {
            let kings: Vec<_> = lint
                .kings
                .iter()
                .filter_map(|k| match k {
                    algchess_core::Content::Piece(p) => Some(*p),
                    _ => None,
                })
                .collect();
            let boards = pairs(&prog.games()[lint.game], &kings);
            (lint.claim, boards)
        })
        .collect()
}

/// How a check stands against its claim: a search that covered no board,
/// and no position, is evidence of nothing.
fn status(r: &CheckerReport, played: Option<&PositionsReport>) -> Status {
    let evidence = r.exact || r.cells > 0 || played.is_some_and(|p| p.checked > 0);
    match (r.relation, r.verdict) {
        (_, Finding::HoldsUpTo) if !evidence => Status::Unknown,
        (Rel::Eq | Rel::Oriented, Finding::HoldsUpTo) | (Rel::Ne, Finding::Refuted) => Status::Agrees,
        _ => Status::Disagrees,
    }
}

/// The limit that stopped an enumeration, for a verdict's line.
pub(super) fn limit_phrase(limit: Option<Limit>) -> &'static str {
    match limit {
        None => "",
        Some(Limit::Timeout) => " (stopped by the timeout)",
        Some(Limit::Work) => " (stopped by the work limit)",
        Some(Limit::StateBudget) => " (stopped by the state budget)",
        Some(Limit::Memory) => " (stopped by the memory limit)",
    }
}

/// The human-readable account of one report, with what the check on
/// positions found.
pub(super) fn describe(r: &CheckerReport, played: Option<&PositionsReport>, status: Status) -> String {
    let mark = if status == Status::Agrees { "✓" } else { "✗" };
    let on_positions = played.filter(|p| p.counterexample.is_none());
    let mut out = match r.verdict {
        Finding::HoldsUpTo if r.exact => {
            format!(
                "{mark} {} ({}): equal normal forms [{}]\n",
                r.name,
                r.relation,
                ms(r.ms)
            )
        }
        Finding::HoldsUpTo => {
            let on = match r.instances {
                Some(n) => format!("{n} random instances, each on"),
                None => "every board of".to_string(),
            };
            format!(
                "{mark} {} ({}): holds on {on} up to {} squares{}{} [{}]\n",
                r.name,
                r.relation,
                r.cells,
                limit_phrase(r.stopped_by),
                positions_phrase(on_positions, "and on"),
                ms(r.ms)
            )
        }
        Finding::Refuted => {
            let on = if played.is_some_and(|p| p.counterexample.is_some()) {
                " on a reachable position"
            } else {
                ""
            };
            format!("{mark} {} ({}): refuted{on} [{}]\n", r.name, r.relation, ms(r.ms))
        }
    };
    if let Some(note) = &r.note {
        out.push_str(&format!("    note: {note}\n"));
    }
    if let Some(c) = &r.counterexample {
        out.push_str(&counterexample_text(c, played));
    }
    out
}
