//! # algchess
//!
//! The algebra of chess: board fragments, movements and moves written as
//! algebraic rewrite rules, with a checker that decides claims about them on
//! every small board.
//!
//! A rule file defines moves and states claims:
//!
//! ```
//! use algchess::{check_claim, ClaimOptions, Program, Verdict};
//!
//! let file = "
//! A = (% + u. -> . + u%)
//! theorem appendix_a: %♖: A A? = %♖: A | (% + u. + uu. -> . + u. + uu%)
//! theorem not_twice: %♖: A{2} != %♖: A | (% + u. + uu. -> . + u. + uu%)
//! ";
//! let program = Program::from_text("appendix.alg", file).unwrap();
//! let [equal, differ] = program.claims() else { panic!() };
//!
//! let report = check_claim(equal, &ClaimOptions::default(), &|_, _, _| {});
//! assert_eq!(report.verdict, Verdict::HoldsUpTo);
//! assert_eq!(report.cells, 16);
//!
//! let report = check_claim(differ, &ClaimOptions::default(), &|_, _, _| {});
//! assert_eq!(report.verdict, Verdict::Refuted);
//! ```
//!
//! The path through the crate: text is lexed and parsed ([`parse`]) into a
//! syntax tree, elaborated ([`elab`]) into one typed core IR ([`core`]),
//! which the evaluator ([`semantics`]) runs and the checker ([`check`])
//! searches. `ARCHITECTURE.md` describes each part and its invariants.

pub mod check;
pub mod cli;
pub mod core;
pub mod diag;
pub mod elab;
pub mod geometry;
pub mod laws;
pub mod memory;
pub mod parse;
pub mod play;
pub mod prover;
pub mod semantics;

pub use check::{check_claim, ClaimOptions, Report, Verdict};
pub use core::{Sort, Term};
pub use diag::{Diag, Diags};
pub use elab::{Claim, Program};
pub use semantics::{compile, results, Grid, State};
