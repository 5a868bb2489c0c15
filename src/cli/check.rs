//! `algchess check`: every theorem decided on all small boards.

use super::claims::{self, ms};
use super::output::side_by_side;
use crate::check::{check_claim, ClaimOptions, CounterReport, Report, StateReport, Verdict};
use crate::diag::Diags;
use crate::memory::MemoryLimit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Rule files, or directories of `.alg` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Search boards in boxes of up to this many squares.
    #[arg(long, default_value_t = 16)]
    max_cells: usize,
    /// Stop searching one claim after this many seconds, and report the
    /// boxes covered by then.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// Random instances tried for a law (a claim with metavariables).
    #[arg(long, default_value_t = 32)]
    instances: usize,
    /// The largest box for each instance of a law.
    #[arg(long, default_value_t = 6)]
    instance_cells: usize,
    /// Stop a claim's search when the process holds more heap than this
    /// (`512M`, `2G`), and report the boxes covered by then.
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
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
    let programs = claims::load(&args.paths)?;
    let options = ClaimOptions {
        search,
        instances: args.instances,
        instance_cells: args.instance_cells,
        ..ClaimOptions::default()
    };
    Ok(claims::run_each(
        &programs,
        args.json,
        args.only.as_deref(),
        |claim, bar| {
            let report = check_claim(claim, &options, bar);
            let text = if args.json {
                format!("{}\n", serde_json::to_string(&report).expect("reports serialise"))
            } else {
                describe(&report)
            };
            (report.agrees(), text)
        },
    ))
}

fn states(v: &[StateReport]) -> Vec<String> {
    let mut rows = vec![];
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            rows.push(String::new());
        }
        rows.extend(s.board.iter().cloned());
        if let Some([x, y]) = s.poi {
            rows.push(format!("(POI {x},{y})"));
        }
    }
    if v.is_empty() {
        rows.push("(none)".into());
    }
    rows
}

/// The human-readable account of one report.
pub fn describe(r: &Report) -> String {
    let mark = if r.agrees() { "✓" } else { "✗" };
    let mut out = match r.verdict {
        Verdict::HoldsUpTo if r.exact => {
            format!(
                "{mark} {} ({}): equal normal forms [{}]\n",
                r.name,
                r.relation,
                ms(r.ms)
            )
        }
        Verdict::HoldsUpTo => {
            let on = match r.instances {
                Some(n) => format!("{n} random instances, each on"),
                None => "every board of".to_string(),
            };
            let partial = if r.complete { "" } else { " (search cut short)" };
            format!(
                "{mark} {} ({}): holds on {on} up to {} squares{partial} [{}]\n",
                r.name,
                r.relation,
                r.cells,
                ms(r.ms)
            )
        }
        Verdict::Refuted => format!("{mark} {} ({}): refuted [{}]\n", r.name, r.relation, ms(r.ms)),
    };
    if let Some(note) = &r.note {
        out.push_str(&format!("    note: {note}\n"));
    }
    if let Some(c) = &r.counterexample {
        out.push_str(&counterexample_text(c));
    }
    out
}

/// A counterexample as text: the instance, the board and both result sets.
pub fn counterexample_text(c: &CounterReport) -> String {
    let mut out = String::new();
    match c {
        CounterReport::Board {
            board,
            poi,
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
            let poi = poi.map_or(String::new(), |[x, y]| format!(", POI at {x},{y}"));
            let plural = if *squares == 1 { "" } else { "s" };
            out.push_str(&format!("    on this board of {squares} square{plural}{poi}:\n"));
            out.push_str(&side_by_side(&[
                ("board".into(), board.clone()),
                (format!("left gives {}", left.len()), states(left)),
                (format!("right gives {}", right.len()), states(right)),
            ]));
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
