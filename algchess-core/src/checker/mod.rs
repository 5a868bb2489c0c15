//! The exhaustive checker: claims decided on every small board, and
//! compared on positions reachable in play.

mod claim;
pub(crate) mod cube;
mod enumerate;
pub mod positions;
mod window;

pub use claim::{check_claim, CheckerReport, ClaimOptions, CounterReport, Finding};
pub use claim::{Limit, StateReport};
pub use enumerate::{compare, Bound, EnumerationOptions, Outcome, Stats};
pub use positions::check_claim_on;
