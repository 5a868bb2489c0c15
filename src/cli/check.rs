//! `algchess check`: every theorem decided on all small boards, and
//! compared on positions reachable in play.

use super::claims::{self, ms, Decided, Positions, Run, RunArgs, Status};
use super::output::side_by_side;
use crate::check::positions::{check_positions, pairs, PositionOptions, PositionsReport, Sample};
use crate::check::{check_claim, ClaimOptions, CounterReport, Finding, Limit, Report, StateReport};
use crate::core::Rel;
use crate::diag::Diags;
use crate::memory::MemoryLimit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Args {
    /// Rule files, or directories of `.alg` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Search boards in boxes of up to this many squares.
    #[arg(long, default_value_t = 16)]
    max_cells: usize,
    /// Stop searching one claim after this many seconds, and report the
    /// boxes covered by then; the check on positions gets as long again.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
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
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let mut search = claims::search(args.max_cells, args.timeout, &args.run)?;
    search.memory = args.memory_limit;
    let programs = claims::load(&args.paths, args.memory_limit)?;
    let positions = Positions::new(&programs, args.run.positions)?;
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
    let lints: Vec<Vec<(crate::elab::Claim, Vec<Sample>)>> = programs
        .iter()
        .map(|prog| if args.no_lint { vec![] } else { lints(prog) })
        .collect();
    let extra: Vec<Vec<crate::elab::Claim>> = lints
        .iter()
        .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
        .collect();
    // A lint's sides differ on boards of other sizes (lines written out to
    // the game's board), so it is compared on the game's boards only.
    let mut on_game = options.clone();
    on_game.search.max_cells = 1;
    on_game.search.sparse = false;
    Ok(claims::run_each(&programs, &extra, &run, |p, claim, bar| {
        let lint = extra[p].iter().position(|c| std::ptr::eq(c, claim));
        let options = if lint.is_some() { &on_game } else { &options };
        let mut report = check_claim(claim, options, &|cells, done, total| {
            bar.set(format!("{cells} cells"), done, total)
        });
        let sampled = positions.for_claim(p, claim, &on_positions);
        let mut samples = std::borrow::Cow::Borrowed(&sampled.samples);
        if let Some(k) = lint {
            let mut all = lints[p][k].1.clone();
            all.extend(samples.iter().cloned());
            samples = std::borrow::Cow::Owned(all);
        }
        let played = (!samples.is_empty() && report.verdict != Finding::Refuted).then(|| {
            bar.set("positions".into(), 0, samples.len());
            let mut played = check_positions(claim, &samples, &on_positions, &|done, total| {
                bar.set("positions".into(), done, total)
            });
            sampled.mark(&mut played);
            played
        });
        if let Some(cx) = played.as_ref().and_then(|p| p.counterexample.clone()) {
            report.verdict = Finding::Refuted;
            report.counterexample = Some(cx);
        }
        if let Some(p) = &played {
            report.ms += p.ms;
        }
        let status = status(&report, played.as_ref());
        let text = if args.json {
            let mut value = serde_json::to_value(&report).expect("reports serialise");
            add_positions(&mut value, played.as_ref());
            format!("{value}\n")
        } else {
            describe(&report, played.as_ref(), status)
        };
        Decided {
            verdict: match report.verdict {
                Finding::HoldsUpTo => "holds",
                Finding::Refuted => "refuted",
            },
            status,
            text,
            open: report.verdict != Finding::Refuted
                && (report.stopped_by == Some(Limit::Memory) || played.as_ref().is_some_and(|p| p.stopped_by_memory)),
        }
    }))
}

/// The lints of a program's games with the boards each is compared on
/// first (a king and one other piece on every pair of squares).
fn lints(prog: &crate::elab::Program) -> Vec<(crate::elab::Claim, Vec<Sample>)> {
    prog.attack_lints()
        .into_iter()
        .map(|lint| {
            let kings: Vec<_> = lint
                .kings
                .iter()
                .filter_map(|k| match k {
                    crate::core::Content::Piece(p) => Some(*p),
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
fn status(r: &Report, played: Option<&PositionsReport>) -> Status {
    let evidence = r.exact || r.cells > 0 || played.is_some_and(|p| p.checked > 0);
    match (r.relation, r.verdict) {
        (_, Finding::HoldsUpTo) if !evidence => Status::Unknown,
        (Rel::Eq | Rel::Oriented, Finding::HoldsUpTo) | (Rel::Ne, Finding::Refuted) => Status::Agrees,
        _ => Status::Disagrees,
    }
}

/// Adds what the check on positions found to a report's JSON: `positions`
/// (how many were compared), and where a counterexample's position comes
/// from.
pub(super) fn add_positions(value: &mut serde_json::Value, played: Option<&PositionsReport>) {
    let Some(p) = played else {
        return;
    };
    value["positions"] = p.checked.into();
    if p.over_budget > 0 {
        value["positions_over_budget"] = p.over_budget.into();
    }
    if !p.complete {
        let by = if p.stopped_by_memory { "memory" } else { "timeout" };
        value["positions_stopped_by"] = by.into();
    }
    if p.counterexample.is_some() {
        value["refuted_on"] = "position".into();
        let cx = &mut value["counterexample"];
        cx["position"] = p.origin.clone().into();
        cx["fen"] = p.fen.clone().into();
    }
}

/// What the check on positions covered, for a verdict's line: `and on N
/// reachable positions`, with what cut it short.
pub(super) fn positions_phrase(played: Option<&PositionsReport>, joint: &str) -> String {
    let Some(p) = played else {
        return String::new();
    };
    let mut out = format!(
        " {joint} {} reachable position{}",
        p.checked,
        if p.checked == 1 { "" } else { "s" }
    );
    let mut cut = vec![];
    let limit = if p.stopped_by_memory { "memory limit" } else { "timeout" };
    if !p.sampling_complete {
        cut.push(format!(
            "the {limit} stopped the sampling after {} positions",
            p.sampled
        ));
    } else if !p.complete {
        cut.push(format!(
            "the {limit} stopped it after {} of {}",
            p.checked + p.over_budget,
            p.sampled
        ));
    }
    if p.over_budget > 0 {
        cut.push(format!("{} over the state budget", p.over_budget));
    }
    if !cut.is_empty() {
        out.push_str(&format!(" ({})", cut.join("; ")));
    }
    out
}

/// The limit that stopped an enumeration, for a verdict's line.
pub(super) fn limit_phrase(limit: Option<Limit>) -> &'static str {
    match limit {
        None => "",
        Some(Limit::Timeout) => " (stopped by the timeout)",
        Some(Limit::StateBudget) => " (stopped by the state budget)",
        Some(Limit::Memory) => " (stopped by the memory limit)",
    }
}

fn states(v: &[&StateReport]) -> Vec<String> {
    let mut rows = vec![];
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            rows.push(String::new());
        }
        rows.extend(s.board.iter().cloned());
        match (&s.poi_cell, s.poi) {
            (Some(cell), _) => rows.push(format!("(POI {cell})")),
            (None, Some([x, y])) => rows.push(format!("(POI {x},{y})")),
            (None, None) => {}
        }
    }
    if v.is_empty() {
        rows.push("(none)".into());
    }
    rows
}

/// The human-readable account of one report, with what the check on
/// positions found.
pub(super) fn describe(r: &Report, played: Option<&PositionsReport>, status: Status) -> String {
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

/// Result sets this large are shown by their difference only.
const SHOWN: usize = 8;

/// A counterexample as text: the instance, the board (for a position,
/// where it comes from) and both result sets, or when they are large, the
/// results only one side gives.
pub(super) fn counterexample_text(c: &CounterReport, played: Option<&PositionsReport>) -> String {
    let mut out = String::new();
    match c {
        CounterReport::Board {
            board,
            poi,
            poi_cell,
            squares,
            left,
            right,
            instance,
        } => {
            if let Some(inst) = instance {
                for (k, v) in inst {
                    out.push_str(&format!("    with {k} = {v}\n"));
                }
            }
            let poi = match (poi_cell, poi) {
                (Some(cell), _) => format!(", POI at {cell}"),
                (None, Some([x, y])) => format!(", POI at {x},{y}"),
                (None, None) => String::new(),
            };
            match played.filter(|p| p.counterexample.is_some()) {
                Some(p) => {
                    let origin = p.origin.as_deref().unwrap_or("a reachable position");
                    let fen = p.fen.as_ref().map_or(String::new(), |f| format!(" ({f})"));
                    out.push_str(&format!("    on {origin}{fen}{poi}:\n"));
                }
                None => {
                    let plural = if *squares == 1 { "" } else { "s" };
                    out.push_str(&format!("    on this board of {squares} square{plural}{poi}:\n"));
                }
            }
            let (l, r): (Vec<&StateReport>, Vec<&StateReport>) = (left.iter().collect(), right.iter().collect());
            if l.len() + r.len() <= 2 * SHOWN {
                out.push_str(&side_by_side(&[
                    ("board".into(), board.clone()),
                    (format!("left gives {}", l.len()), states(&l)),
                    (format!("right gives {}", r.len()), states(&r)),
                ]));
            } else {
                let only_l: Vec<&StateReport> = l.iter().copied().filter(|s| !right.contains(s)).collect();
                let only_r: Vec<&StateReport> = r.iter().copied().filter(|s| !left.contains(s)).collect();
                let both = l.len() - only_l.len();
                out.push_str(&format!(
                    "    left gives {}, right gives {}; the {both} both give are not shown\n",
                    l.len(),
                    r.len()
                ));
                out.push_str(&side_by_side(&[
                    ("board".into(), board.clone()),
                    (format!("only left gives {}", only_l.len()), states(&only_l)),
                    (format!("only right gives {}", only_r.len()), states(&only_r)),
                ]));
            }
        }
        CounterReport::NormalForm { left, right, instance } => {
            if let Some(inst) = instance {
                for (k, v) in inst {
                    out.push_str(&format!("    with {k} = {v}\n"));
                }
            }
            out.push_str(&format!("    left is {left}\n    right is {right}\n"));
        }
    }
    out
}
