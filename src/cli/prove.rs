//! `algchess prove`: every claim proved by equality saturation, or refuted
//! by a counterexample.

use super::check::counterexample_text;
use super::claims::{self, ms};
use crate::check::ClaimOptions;
use crate::diag::Diags;
use crate::laws::Laws;
use crate::memory::MemoryLimit;
use crate::prover::{prove_claim, render, ProofReport, ProveOptions, Rules, Verdict};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
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
    /// Saturation: at most this many seconds per claim.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    time_limit: f64,
    /// The enumeration: boxes of up to this many squares.
    #[arg(long, default_value_t = 16)]
    max_cells: usize,
    /// The enumeration: stop after this many seconds per claim, and report
    /// the boxes covered by then.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// Stop a claim's saturation or search when the process holds more
    /// heap than this (`512M`, `2G`); the claim is then `unknown`.
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
    /// Confirm each proof with the full enumeration (`--max-cells`,
    /// `--timeout`) instead of the quick one (boxes of up to 6 squares,
    /// 0.25 s).
    #[arg(long)]
    full_check: bool,
    /// Only claims whose name contains this text.
    #[arg(long)]
    only: Option<String>,
    /// Print one JSON object per claim and line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<i32, Diags> {
    let mut search = claims::search(args.max_cells, args.timeout)?;
    search.memory = args.memory_limit;
    let time_limit = super::output::seconds("--time-limit", args.time_limit, false)?;
    let laws = Laws::load(&args.axioms.clone().unwrap_or_else(Laws::default_dir))?;
    let rules = Rules::new(&laws);
    let programs = claims::load(&args.paths)?;
    let options = ProveOptions {
        iter_limit: args.iter_limit,
        node_limit: args.node_limit,
        time_limit,
        memory: args.memory_limit,
        check: ClaimOptions {
            search: search.clone(),
            ..ClaimOptions::default()
        },
        cross_check: match args.full_check {
            true => ClaimOptions {
                search,
                ..ClaimOptions::default()
            },
            false => ProveOptions::quick_check(args.memory_limit),
        },
    };
    Ok(claims::run_each(
        &programs,
        args.json,
        args.only.as_deref(),
        |claim, bar| {
            let report = prove_claim(claim, &laws, &rules, &options, bar);
            let text = if args.json {
                let mut value = serde_json::to_value(&report).expect("reports serialise");
                if args.explain {
                    value["proof"] = serde_json::json!(report.proof.as_ref().map(|p| render(p)));
                }
                format!("{value}\n")
            } else {
                describe(&report, args.explain)
            };
            (report.agrees(), text)
        },
    ))
}

/// The human-readable account of one report.
pub fn describe(r: &ProofReport, explain: bool) -> String {
    let mark = if r.agrees() { "✓" } else { "✗" };
    let graph = format!("e-graph {} nodes, {} iterations", r.egraph_nodes, r.iterations);
    let mut out =
        match r.verdict {
            Verdict::Proved => format!(
                "{mark} {} ({}): proved in {} step{}, checked on boards of up to {} squares [{}; {graph}]\n",
                r.name,
                r.relation,
                r.proof_steps.unwrap_or(0),
                if r.proof_steps == Some(1) { "" } else { "s" },
                r.cells,
                ms(r.ms)
            ),
            Verdict::Refuted => format!("{mark} {} ({}): refuted [{}]\n", r.name, r.relation, ms(r.ms)),
            Verdict::Unknown => format!(
            "{mark} {} ({}): unknown: no proof ({}), no counterexample on boards of up to {} squares [{}; {graph}]\n",
            r.name,
            r.relation,
            r.stop.as_ref().map_or("the sides did not meet".to_string(), |s| s.to_string()),
            r.cells,
            ms(r.ms)
        ),
        };
    if let Some(note) = &r.note {
        out.push_str(&format!("    note: {note}\n"));
    }
    if let Some(c) = &r.counterexample {
        out.push_str(&counterexample_text(c));
    }
    if explain {
        if let Some(p) = &r.proof {
            out.push_str(&render(p));
        }
    }
    out
}
