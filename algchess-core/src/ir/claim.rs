//! What a claim states: its kind and the relation between its sides. The
//! parser reads them; elaboration, the laws, the checker and the prover
//! act on them, and reports print the relation.

use std::fmt;

/// Whether a claim is to be proved or checked (`theorem`) or is a law the
/// prover may use (`axiom`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    /// `theorem`: to be proved or checked.
    Theorem,
    /// `axiom`: a law; the bundled ones are checked by the test suite.
    Axiom,
}

/// The relation a claim states. Serialised as its symbol, as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Rel {
    /// `=`: the sides have the same meaning.
    #[cfg_attr(feature = "serde", serde(rename = "="))]
    Eq,
    /// `!=`: the sides differ on some board.
    #[cfg_attr(feature = "serde", serde(rename = "!="))]
    Ne,
    /// `=>`: equal, and the prover rewrites only from left to right.
    #[cfg_attr(feature = "serde", serde(rename = "=>"))]
    Oriented,
}

impl Rel {
    /// The relation as written in a rule file.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Ne => "!=",
            Rel::Oriented => "=>",
        }
    }
}

impl fmt::Display for Rel {
    /// The symbol, padded when a width is given.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.pad(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports print the relation as it is written in the claim.
    #[test]
    fn relations_serialise_as_their_symbols() {
        for r in [Rel::Eq, Rel::Ne, Rel::Oriented] {
            #[cfg(feature = "serde")]
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{}\"", r.symbol()));
            assert_eq!(r.to_string(), r.symbol());
        }
        assert_eq!(format!("{:>3}", Rel::Eq), "  =");
    }
}
