//! Why a KAT proof did not replay, by kind.

use std::fmt;

/// Why a KAT proof did not replay.
#[derive(Clone, Debug, PartialEq)]
pub enum KatError {
    /// A side is too large to write out as an expression.
    TooLarge,
    /// More primitive tests than an atom can hold.
    TooManyPrims(usize),
    /// More atoms than the limit.
    TooManyAtoms(usize),
    /// The proof's view of the sides is not the one they have.
    ViewDiffers,
    /// A merged letter is not a binder.
    MergedNotBinder,
    /// Merged binders bind different pieces.
    MergedPieces,
    /// Two merged binders' bodies are not equal by KAT.
    BodiesDiffer(String, String),
    /// The proof uses a fact its letters do not give.
    NotAFact(String),
    /// No certificate with the proof's facts.
    NoCertificate,
    /// The certificate found does not check.
    Certificate(CertificateError),
}

/// Why a certificate does not check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// The start states under an atom are not related.
    StartUnrelated(u32),
    /// A pair reads under two atoms.
    TwoAtoms,
    /// A pair accepts on the left only (an inclusion).
    LeftOnly,
    /// A pair disagrees on acceptance.
    Acceptance,
    /// A step leaves the relation.
    Leaves,
}

impl fmt::Display for KatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KatError::TooLarge => f.write_str("too large to write out"),
            KatError::TooManyPrims(n) => write!(f, "too many tests (Prims({n}))"),
            KatError::TooManyAtoms(n) => write!(f, "too many tests (Atoms({n}))"),
            KatError::ViewDiffers => f.write_str("the view's rewrites are not the proof's"),
            KatError::MergedNotBinder => f.write_str("a merged letter is not a binder"),
            KatError::MergedPieces => f.write_str("merged binders of different pieces"),
            KatError::BodiesDiffer(a, b) => write!(f, "the bodies `{a}` and `{b}` are not equal by KAT"),
            KatError::NotAFact(fact) => write!(f, "`{fact}` is not a fact of these moves"),
            KatError::NoCertificate => f.write_str("no certificate with these facts"),
            KatError::Certificate(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateError::StartUnrelated(a) => write!(f, "the start states under atom {a} are not related"),
            CertificateError::TwoAtoms => f.write_str("a pair reads under two atoms"),
            CertificateError::LeftOnly => f.write_str("a pair accepts on the left only"),
            CertificateError::Acceptance => f.write_str("a pair disagrees on acceptance"),
            CertificateError::Leaves => f.write_str("a step leaves the relation"),
        }
    }
}

impl std::error::Error for KatError {}

impl std::error::Error for CertificateError {}

impl From<CertificateError> for KatError {
    fn from(e: CertificateError) -> KatError {
        KatError::Certificate(e)
    }
}
