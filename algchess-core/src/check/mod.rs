//! The exhaustive checker: claims decided on every small board, and
//! compared on positions reachable in play.

mod claim;
pub(crate) mod cube;
pub mod positions;
mod search;
mod window;

pub use claim::{check_claim, ClaimOptions, CounterReport, Finding, Report};
pub use claim::{Limit, StateReport};
pub use positions::check_claim_on;
pub use search::{compare, Bound, Outcome, SearchOptions, Stats};
