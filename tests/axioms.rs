//! Soundness of the axioms: every law in `axioms/` is checked against the
//! evaluator on random instances of its metavariables (quickcheck's
//! generator), each instance on every board of up to 6 squares; and
//! tempting laws that are false must be refuted.

use algchess::Laws;
use algchess::Program;
use algchess::{check_claim, ClaimOptions, CounterReport, Finding};

fn options(instances: usize) -> ClaimOptions {
    ClaimOptions {
        instances,
        instance_cells: 6,
        ..ClaimOptions::default()
    }
}

#[test]
fn every_axiom_holds_on_its_instances() {
    let laws = Laws::bundled();
    assert!(laws.laws.len() >= 40, "{} laws", laws.laws.len());
    let mut failures = vec![];
    for law in &laws.laws {
        let report = check_claim(&law.claim, &options(48), &|_, _, _| {});
        if report.verdict != Finding::HoldsUpTo {
            failures.push(format!(
                "{} ({}): {:?}",
                law.name(),
                law.location(),
                report.counterexample
            ));
            continue;
        }
        // A law whose side conditions are rarely met would be checked on
        // few instances, or none; every law must get most of them.
        if let Some(n) = report.instances {
            if n < 40 {
                failures.push(format!("{} was checked on only {n} instances", law.name()));
            }
        }
        if !report.complete {
            failures.push(format!("{}: the search was cut short", law.name()));
        }
    }
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
    let laws = Laws::bundled();
    let failures: Vec<String> = laws
        .laws
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
            (report.verdict != Finding::HoldsUpTo)
                .then(|| format!("{} ({}): {:?}", law.name(), law.location(), report.counterexample))
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
