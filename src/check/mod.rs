//! The exhaustive checker: claims decided on every small board (§9).

mod claim;
pub mod cube;
mod search;

pub use claim::{check_claim, ClaimOptions, CounterReport, Report, StateReport, Verdict};
pub use search::{boxes, compare, other_piece, Counterexample, Options, Outcome, Stats};
