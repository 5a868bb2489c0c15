//! # algchess-core
//!
//! The algebra of chess: board fragments, movements and moves written as
//! algebraic rewrite rules. algchess runs them on boards, proves that two
//! moves are the same by equality saturation, and refutes false claims with
//! a counterexample board found by exhaustive search.
//!
//! A rule file defines moves and states claims. The prover proves the
//! algebra's Appendix A (a rook's step, repeated or not) from the bundled axioms, with a proof whose every step
//! replays; the checker refutes the tempting claim beside it:
//!
//! ```
//! use algchess_core::{check_claim, prove_claim, render, ClaimOptions, Finding, Laws, Program, ProveOptions, Rewrites, Verdict};
//!
//! let file = "
//! A = (% + u. -> . + u%)
//! theorem appendix_a: %♖: A A? = %♖: A | (% + u. + uu. -> . + u. + uu%)
//! theorem not_twice: %♖: A{2} != %♖: A | (% + u. + uu. -> . + u. + uu%)
//! ";
//! let program = Program::from_text("appendix.alg", file).unwrap();
//! let [equal, differ] = program.claims() else { panic!() };
//!
//! let laws = Laws::bundled();
//! let rewrites = Rewrites::new(&laws);
//! let proof = prove_claim(equal, &laws, &rewrites, &ProveOptions::default(), &|_, _, _| {});
//! assert_eq!(proof.verdict, Verdict::Proved);
//! let steps = render(&equal.pieces, proof.proof.as_ref().unwrap());
//! assert!(steps.contains("by fuse"), "{steps}");
//!
//! // The rook's moves are anchored on it: a run reads only the three squares
//! // up its line, so the checker covers every board that bears on the claim.
//! let report = check_claim(equal, &ClaimOptions::default(), &|_, _, _| {});
//! assert_eq!((report.verdict, report.cells), (Finding::HoldsUpTo, 3));
//! assert!(report.bound.is_some());
//! let report = check_claim(differ, &ClaimOptions::default(), &|_, _, _| {});
//! assert_eq!(report.verdict, Finding::Refuted);
//! ```
//!
//! The path through the crate: text is parsed into a syntax tree,
//! elaborated ([`Program`]) into one typed core IR ([`Term`]), which the
//! evaluator ([`compile`], [`Eval`]) runs, the checker ([`check_claim`])
//! searches and the prover ([`prove_claim`]) rewrites. `ARCHITECTURE.md`
//! describes each part and its invariants; the [`tutorial`] walks through
//! the four jobs with examples that run as tests.

#![warn(missing_docs, unreachable_pub)]
// The library reads no file, writes to no terminal and keeps no global
// state: what it needs from the world (imports, a memory meter, limits)
// its caller passes in. Its own tests read the project's files.
#![deny(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::print_stdout,
    clippy::print_stderr
)]
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        clippy::disallowed_types,
        clippy::print_stdout,
        clippy::print_stderr
    )
)]

mod checker;
mod clock;
mod diag;
mod elab;
mod engine;
mod geometry;
mod ir;
mod laws;
mod memory;
mod notation;
mod par;
mod parse;
pub mod picture;
mod play;
mod prover;
pub mod puzzle;
mod record;
mod rng;
mod search;
mod semantics;
mod simplify;
#[cfg(test)]
mod testing;
pub mod tutorial;

pub use checker::positions;
pub use checker::{
    check_claim, check_claim_on, compare, Bound, CheckerReport, ClaimOptions, CounterReport, EnumerationOptions,
    Finding, Limit, Outcome, StateReport, Stats,
};
pub use clock::{Clock, Deadline, SystemClock, Timer};
pub use diag::{clip, Diag, Diags, Source, Span};
pub use elab::{Claim, Game, Lint, Loader, NoFiles, Program};
pub use geometry::{Movement, ParseSquareError, Square, Tiling};
pub use ir::{
    print, Bounds, Cell, ClaimKind, Content, DeclareError, Fragment, GlueError, Meta, Node, Pattern, PieceId, Pieces,
    Rel, Sort, Term,
};
pub use laws::{Direction, Law, Laws};
pub use memory::{Budget, MemoryLimit, Meter, Spent};
pub use notation::{to_algebra, to_betza, Notation};
/// The syntax tree that [`parse_file`] and [`parse_expr`] give.
pub use parse::ast as syntax;
pub use parse::{format_file, parse_expr, parse_file, SyntaxError};
pub use play::{
    divide, perft, Backend, Count, DrawClaim, Ending, Entered, GameOutcome, Match, Position, Rules, TooBig,
};
pub use prover::kat::KatLimits;
pub use prover::{
    explain, prove_claim, prove_claim_on, render, saturate, CertificateError, KatError, LawError, ProofNames,
    ProofReport, ProveOptions, ReplayError, Rewrites, Saturation, SaturationLimits, Step, StepError, Stop, Verdict,
    Why,
};
pub use record::{fen, move_names, move_words, pdn, pgn, referee};
pub use record::{fen_count, fen_fits, MoveError, PositionError};
pub use rng::Rng;
pub use search::{mate_in, Limits, SearchInfo, Searcher, TableError, Values, MATE};
pub use semantics::{
    compile, position_hash, results, BoardError, Code, Eval, Grid, Halt, NotABoard, Prog, State, Store,
};
pub use simplify::{simplify_program, simplify_text, Change, Simplified, SimplifyOptions};
