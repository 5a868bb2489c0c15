//! The laws of `theorems/laws.alg` (guards, off-board rules, rules read
//! only on the POI, binders, tests, repetition, choice, movements and
//! fragments): at least 95% of the true ones are proved, every false one is
//! refuted, and no claim gets the wrong verdict. The enumeration that
//! confirms each proof uses small boxes, so the run takes seconds.

use algchess::Laws;
use algchess::Rel;
use algchess::{prove_claim, ProveOptions, Rewrites, Verdict};
use algchess::{ClaimOptions, EnumerationOptions};
use rayon::prelude::*;
use std::path::Path;

#[test]
fn laws_are_proved_and_false_ones_refuted() {
    let program = algchess::load(Path::new("theorems/laws.alg")).unwrap();
    let laws = Laws::bundled();
    let rules = Rewrites::new(&laws);
    let options = ProveOptions {
        check: ClaimOptions {
            search: EnumerationOptions {
                max_cells: 6,
                // Work, not a clock, so a loaded machine gives the same
                // verdicts.
                work: Some(2_000_000),
                ..EnumerationOptions::default()
            },
            instances: 32,
            instance_cells: 6,
            ..ClaimOptions::default()
        },
        ..ProveOptions::default()
    };
    let reports: Vec<_> = program
        .claims()
        .par_iter()
        .map(|c| (c.rel, prove_claim(c, &laws, &rules, &options, &|_, _, _| {})))
        .collect();
    let true_ones: Vec<_> = reports.iter().filter(|(rel, _)| *rel == Rel::Eq).collect();
    let false_ones: Vec<_> = reports.iter().filter(|(rel, _)| *rel == Rel::Ne).collect();
    assert!(true_ones.len() >= 120, "{} true claims", true_ones.len());
    assert!(false_ones.len() >= 30, "{} false claims", false_ones.len());
    let wrong: Vec<&str> = reports
        .iter()
        .filter(|(rel, r)| match rel {
            Rel::Ne => r.verdict == Verdict::Proved,
            _ => r.verdict == Verdict::Refuted,
        })
        .map(|(_, r)| r.name.as_str())
        .collect();
    assert!(wrong.is_empty(), "wrong verdicts: {wrong:?}");
    let unrefuted: Vec<&str> = false_ones
        .iter()
        .filter(|(_, r)| r.verdict != Verdict::Refuted)
        .map(|(_, r)| r.name.as_str())
        .collect();
    assert!(unrefuted.is_empty(), "false claims not refuted: {unrefuted:?}");
    let unproved: Vec<&str> = true_ones
        .iter()
        .filter(|(_, r)| r.verdict != Verdict::Proved)
        .map(|(_, r)| r.name.as_str())
        .collect();
    assert!(
        unproved.len() * 20 <= true_ones.len(),
        "{} of {} true claims not proved: {unproved:?}",
        unproved.len(),
        true_ones.len()
    );
}
