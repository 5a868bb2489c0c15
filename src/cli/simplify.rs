//! `algchess simplify`: rule files made cheaper to play, meaning kept.

use super::output::plain_error;
use algchess_core::Diags;
use algchess_core::Laws;
use algchess_core::{simplify_text, SimplifyOptions};
use algchess_core::{Rewrites, SaturationLimits, SystemClock, Timer};
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Args {
    /// The rule file to simplify.
    file: PathBuf,
    /// Write the simplified file here instead of printing it.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// The directory of axiom files (default: the bundled `axioms/`).
    #[arg(long, value_name = "DIR")]
    axioms: Option<PathBuf>,
    /// Saturation per definition: at most this many iterations.
    #[arg(long, default_value_t = 12)]
    iter_limit: usize,
    /// Saturation per definition: at most this many e-nodes.
    #[arg(long, default_value_t = 20_000)]
    node_limit: usize,
    /// Saturation per definition: at most this many seconds. A cap for
    /// safety: the iteration and node limits are what end a saturation
    /// the same way on any machine, and a definition the clock cuts short
    /// is named in the report.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    time_limit: f64,
    /// The whole file: past this many seconds, the definitions left are
    /// not saturated (a cap for safety, as --time-limit).
    #[arg(long, default_value_t = 120.0, value_name = "SECONDS")]
    total_limit: f64,
    /// Print a JSON report of the changes instead of the file (the file
    /// still goes to `-o` when given).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let text =
        crate::read_text(&args.file).map_err(|e| plain_error(format!("cannot read {}: {e}", args.file.display())))?;
    // The laws of the file's grid.
    let tiling = algchess_core::Program::from_text_with(
        &args.file.display().to_string(),
        &text,
        algchess_core::Tiling::Square,
        &crate::Files,
    )?
    .tiling();
    if let Some(dir) = &args.axioms {
        super::output::warn_unchecked_axioms(dir);
    }
    let laws = match &args.axioms {
        Some(dir) => Laws::from_texts(&super::output::read_axioms(dir)?, tiling, &crate::Files)?,
        None => Laws::bundled_on(tiling),
    };
    let rules = Rewrites::new(&laws);
    let options = SimplifyOptions {
        saturation: SaturationLimits {
            iter_limit: args.iter_limit,
            node_limit: args.node_limit,
            time_limit: Timer::limited(
                super::output::seconds("--time-limit", args.time_limit, false)?,
                &SystemClock,
            ),
            memory: algchess_core::MemoryLimit::NONE,
        },
        total_limit: Timer::limited(
            super::output::seconds("--total-limit", args.total_limit, false)?,
            &SystemClock,
        ),
    };
    let out = simplify_text(&args.file.display().to_string(), &text, &crate::Files, &rules, &options)?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, &out.text).map_err(|e| plain_error(format!("cannot write {}: {e}", path.display())))?
        }
        None if !args.json => print!("{}", out.text),
        None => {}
    }
    let report = |c: &algchess_core::Change| {
        format!(
            "{}: cost {:.0} -> {:.0}{}",
            c.name,
            c.cost_before,
            c.cost_after,
            if c.hoisted { " (rules made binders)" } else { "" }
        )
    };
    let clock = (!out.clock_stopped.is_empty()).then(|| {
        format!(
            "note: the clock stopped the saturation of {}: on another machine they may come out otherwise (raise --time-limit or --total-limit)",
            out.clock_stopped.join(", ")
        )
    });
    if args.json {
        let changes: Vec<_> = out
            .changes
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "cost_before": c.cost_before,
                    "cost_after": c.cost_after,
                    "hoisted": c.hoisted,
                    "written": c.written,
                    "after": out.pieces.show(&c.after).to_string(),
                })
            })
            .collect();
        println!("{}", json!({ "changes": changes, "clock_stopped": out.clock_stopped }));
    } else {
        // The file goes to stdout or to `-o`; what changed, to stderr.
        for c in &out.changes {
            eprintln!("{}", report(c));
        }
        if out.changes.is_empty() {
            eprintln!(
                "nothing to simplify: no definition of {} gets cheaper by the laws within the limits, so it is written as it is",
                args.file.display()
            );
        }
        if let Some(note) = clock {
            eprintln!("{note}");
        }
    }
    Ok(super::OK)
}
