//! The equality-saturation prover: the core IR in an egg e-graph, the laws
//! of `axioms/` as rewrites, and proofs explained and replayed.

pub(crate) mod analysis;
mod choices;
mod decide;
mod guard;
pub(crate) mod kat;
pub(crate) mod lang;
mod proof;
mod prove;
pub(crate) mod rules;
mod runner;

pub use guard::Stop;
pub use kat::{CertificateError, KatError};
pub use proof::{explain, render, LawError, ProofNames, ReplayError, Step, StepError, Why};
pub use prove::{prove_claim, prove_claim_on, saturate, ProofReport, ProveOptions, Saturation, Verdict};
pub use rules::Rewrites;
pub use runner::SaturationLimits;
pub(crate) use runner::{guarded, run};
