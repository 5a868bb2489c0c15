//! What `check` and `prove` share: loading rule files, the enumeration's
//! limits, and running every claim with a progress bar and a report each.

use super::output::{plain_error, progress, seconds};
use crate::check::Options;
use crate::diag::Diags;
use crate::elab::{Claim, Program};
use std::path::PathBuf;

/// The `.alg` files behind `paths`, elaborated; every file's errors at once.
pub fn load(paths: &[PathBuf]) -> Result<Vec<Program>, Diags> {
    let mut programs = vec![];
    let mut errors = vec![];
    for f in &super::expand_paths(paths)? {
        match Program::load(f) {
            Ok(p) => programs.push(p),
            Err(d) => errors.extend(d.0),
        }
    }
    if !errors.is_empty() {
        return Err(Diags(errors));
    }
    Ok(programs)
}

/// The enumeration's limits, from `--max-cells` and `--timeout`.
pub fn search(max_cells: usize, timeout: f64) -> Result<Options, Diags> {
    if max_cells == 0 || max_cells > 64 {
        return Err(plain_error("--max-cells must be between 1 and 64".into()));
    }
    Ok(Options {
        max_cells,
        timeout: Some(seconds("--timeout", timeout, true)?),
        ..Options::default()
    })
}

/// Runs `decide` on every claim whose name contains `only`, under a
/// progress bar, and prints what it returns: whether the verdict agrees
/// with the claim, and the report's text. The exit status.
pub fn run_each(
    programs: &[Program],
    json: bool,
    only: Option<&str>,
    mut decide: impl FnMut(&Claim, &(dyn Fn(usize, usize, usize) + Sync)) -> (bool, String),
) -> i32 {
    let mut all_agree = true;
    for prog in programs {
        if !json && programs.len() > 1 {
            println!("{}", prog.source().name);
        }
        for claim in prog.claims() {
            if only.is_some_and(|o| !claim.name.contains(o)) {
                continue;
            }
            let bar = progress(&claim.name);
            let (agrees, text) = decide(claim, &|cells, done, total| {
                bar.set_message(format!("{cells} cells"));
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            });
            bar.finish_and_clear();
            all_agree &= agrees;
            print!("{text}");
        }
    }
    if all_agree {
        super::OK
    } else {
        super::DISAGREE
    }
}

/// A duration in milliseconds, in seconds past one.
pub fn ms(ms: u64) -> String {
    if ms >= 1000 {
        format!("{:.2} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}
