//! Why a proof did not replay: typed, so that a caller can tell a step that
//! names no law from one whose law does not fit; `Display` gives the
//! message `prove` prints.

use crate::elab::Predicate;
use crate::prover::kat::KatError;
use std::fmt;

/// Why egg's explanation did not replay as a proof.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError {
    /// The explanation has a step without a rewrite.
    NoRewrite,
    /// Step `step` (from 1) changes more than the subterm it rewrites.
    Outside {
        /// The step's number, from 1.
        step: usize,
    },
    /// Step `step` (from 1) is not justified.
    Step {
        /// The step's number, from 1.
        step: usize,
        /// What is wrong with it.
        why: StepError,
    },
}

/// Why one step is not justified.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    /// A `choices` step between different sets of choices (the terms,
    /// printed).
    NotSameChoices(String, String),
    /// A `normalise` step between terms that fold apart (printed).
    NotSameFold(String, String),
    /// The step names a rewrite the laws do not have.
    UnknownRewrite(String),
    /// The named law's rewrite does not give the step.
    Law {
        /// The law's name.
        name: String,
        /// Why its rewrite does not fit.
        why: LawError,
    },
    /// A `decide` step between different normal forms.
    Decided(String, String),
    /// A step of Kleene algebra with tests whose certificate fails.
    Kat(KatError),
}

/// Why a law's rewrite does not give a step.
#[derive(Clone, Debug, PartialEq)]
pub enum LawError {
    /// A side of the law does not match its side of the step.
    NoMatch {
        /// The law's side, printed.
        pattern: String,
        /// The step's side it should match, printed.
        term: String,
    },
    /// A side condition reads a variable neither side binds.
    Unbound(Predicate),
    /// A side condition is false of what the sides matched.
    Fails(Predicate),
}

/// Why Kleene algebra with tests gave no proof of a claim.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum KatMiss {
    /// Its time limit is zero.
    NotTried,
    /// The claim is not about moves.
    NotMoves,
    /// The sides differ as guarded strings, on this word (not a
    /// refutation: the moves may still agree on every board).
    Differ(String),
    /// A limit, or a shape KAT does not read.
    Unknown(String),
    /// KAT's proof did not replay.
    Replay(ReplayError),
}

impl fmt::Display for KatMiss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KatMiss::NotTried => f.write_str("not tried (`--kat-limit 0`)"),
            KatMiss::NotMoves => f.write_str("not a claim about moves"),
            KatMiss::Differ(w) => write!(f, "the sides differ as guarded strings, on {w}"),
            KatMiss::Unknown(why) => f.write_str(why),
            KatMiss::Replay(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NoRewrite => f.write_str("a step without a rewrite"),
            ReplayError::Outside { step } => write!(f, "step {step} changes more than the rewritten subterm"),
            ReplayError::Step { step, why } => write!(f, "step {step}: {why}"),
        }
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::NotSameChoices(a, b) => write!(f, "`{a}` and `{b}` are not the same set of choices"),
            StepError::NotSameFold(a, b) => write!(f, "`{a}` and `{b}` do not fold to the same term"),
            StepError::UnknownRewrite(name) => write!(f, "no rewrite named `{name}`"),
            StepError::Law { name, why } => write!(f, "{name}: {why}"),
            StepError::Decided(a, b) => write!(f, "`{a}` and `{b}` do not have the same normal form"),
            StepError::Kat(why) => write!(f, "KAT: {why}"),
        }
    }
}

impl fmt::Display for LawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LawError::NoMatch { pattern, term } => write!(f, "`{pattern}` does not match `{term}`"),
            LawError::Unbound(pred) => write!(f, "`{pred}` has an unbound argument"),
            LawError::Fails(pred) => write!(f, "`{pred}` does not hold"),
        }
    }
}

impl std::error::Error for LawError {}

impl std::error::Error for StepError {}

impl std::error::Error for ReplayError {}
