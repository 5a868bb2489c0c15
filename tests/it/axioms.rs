//! Soundness of the axioms: every law in `axioms/` is checked against the
//! evaluator on random instances of its metavariables (quickcheck's
//! generator), each instance on every board of up to 6 squares; and
//! tempting laws that are false must be refuted. A law for every grid is
//! checked on each grid, with that grid's movements; a law marked
//! `grid square` or `grid hex` on its own grid only.

use algchess::Program;
use algchess::{check_claim, ClaimOptions, CounterReport, Finding};
use algchess::{Laws, Tiling};

fn options(instances: usize) -> ClaimOptions {
    ClaimOptions {
        instances,
        instance_cells: 6,
        ..ClaimOptions::default()
    }
}

/// Every law of every grid, each elaborated on its grid.
fn all_laws() -> Vec<algchess::Law> {
    let (square, hex) = (Laws::bundled_on(Tiling::Square), Laws::bundled_on(Tiling::Hex));
    assert!(square.laws.len() >= 40, "{} laws", square.laws.len());
    // The grid-only laws are marked and kept apart.
    assert!(square.get("turn_quarters").is_some() && square.get("turn_sixths").is_none());
    assert!(hex.get("turn_sixths").is_some() && hex.get("turn_quarters").is_none());
    assert_eq!(hex.laws.len(), square.laws.len());
    assert!(hex.laws.iter().all(|l| l.claim.tiling == Tiling::Hex));
    square.laws.into_iter().chain(hex.laws).collect()
}

#[test]
fn every_axiom_holds_on_its_instances() {
    use rayon::prelude::*;
    let laws = all_laws();
    let failures: Vec<String> = laws
        .par_iter()
        .flat_map_iter(|law| {
            let report = check_claim(&law.claim, &options(48), &|_, _, _| {});
            let mut failures = vec![];
            if report.verdict != Finding::HoldsUpTo {
                failures.push(format!(
                    "{} ({}, {} grid): {:?}",
                    law.name(),
                    law.location(),
                    law.claim.tiling,
                    report.counterexample
                ));
                return failures;
            }
            // A law whose side conditions are rarely met would be checked
            // on few instances, or none; every law must get most of them.
            if let Some(n) = report.instances {
                if n < 40 {
                    failures.push(format!("{} was checked on only {n} instances", law.name()));
                }
            }
            if !report.complete {
                failures.push(format!("{}: the search was cut short", law.name()));
            }
            failures
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The prover rewrites inside binders, where a POI is bound, so every law
/// of moves must hold there too, not only on the states its claim is
/// compared on (closed instances are compared without a POI): `A = B` is
/// checked as `%q: A = %q: B`, for random pieces `q`.
#[test]
fn every_axiom_holds_where_a_poi_is_bound() {
    use algchess::{Sort, Term};
    use rayon::prelude::*;
    let laws = all_laws();
    let failures: Vec<String> = laws
        .par_iter()
        .filter(|law| law.claim.lhs.sort() == Sort::Move)
        .filter_map(|law| {
            let mut claim = law.claim.clone();
            let q = Term::var("q_0", Sort::Cell);
            claim.lhs = Term::bind(&q, &claim.lhs);
            claim.rhs = Term::bind(&q, &claim.rhs);
            let options = ClaimOptions {
                instances: 32,
                instance_cells: 5,
                ..ClaimOptions::default()
            };
            let report = check_claim(&claim, &options, &|_, _, _| {});
            (report.verdict != Finding::HoldsUpTo).then(|| {
                format!(
                    "{} ({}, {} grid): {:?}",
                    law.name(),
                    law.location(),
                    law.claim.tiling,
                    report.counterexample
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Laws that look right and are not. Each must be refuted, with a
/// counterexample board.
const FALSE_LAWS: &str = "
// Binding needs the piece to be there.
theorem bind_nil_is_nil: %p: nil = nil
// Each binder picks its own square.
theorem bind_seq: %p: (M N) = (%p: M) (%p: N)
// Without `%`, the second step may move another piece.
theorem fuse_without_poi: (♙ + u. -> . + u♙) (♙ + u. -> . + u♙) = ♙ + u. + uu. -> . + u. + uu♙
// Star does not distribute over choice.
theorem star_over_choice: (M | N)* = M* N*
// Rules are invariant under translation, not under turns.
theorem turn_rule: R(f -> g) = f -> g
// Sequencing is not commutative.
theorem seq_comm: M N = N M
// Nor idempotent.
theorem seq_idem: M M = M
";

#[test]
fn tempting_false_laws_are_refuted() {
    let program = Program::from_text("false.alg", FALSE_LAWS).unwrap();
    assert_eq!(program.claims().len(), 7);
    for claim in program.claims() {
        let report = check_claim(claim, &options(64), &|_, _, _| {});
        assert_eq!(report.verdict, Finding::Refuted, "{} was not refuted", claim.name);
        assert!(
            matches!(report.counterexample, Some(CounterReport::Board { .. })),
            "{}: {:?}",
            claim.name,
            report.counterexample
        );
    }
}

/// The square grid's law, stated on the hex grid, is false there: the mark
/// that keeps it to its grid matters.
const FALSE_ON_HEX: &str = "
grid hex
theorem turn_quarters_on_hex: R (M | R M | R² M | R³ M) = M | R M | R² M | R³ M
theorem half_turn_pair: R² (M | R² M) = M | R² M
";

#[test]
fn square_laws_are_refuted_on_hex() {
    let program = Program::from_text("false_hex.alg", FALSE_ON_HEX).unwrap();
    assert_eq!(program.claims().len(), 2);
    for claim in program.claims() {
        let report = check_claim(claim, &options(64), &|_, _, _| {});
        assert_eq!(report.verdict, Finding::Refuted, "{} was not refuted", claim.name);
    }
    // The same claims hold on the square grid, where they are laws.
    let square = Program::from_text("square.alg", &FALSE_ON_HEX.replace("grid hex", "")).unwrap();
    for claim in square.claims() {
        let report = check_claim(claim, &options(32), &|_, _, _| {});
        assert_eq!(report.verdict, Finding::HoldsUpTo, "{} on the square grid", claim.name);
    }
}
