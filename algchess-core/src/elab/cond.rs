//! The side conditions a law may state, such as `translation(t)` or
//! `fuse(f_1, g_1, f_2, g_2, f, g)`: their names and signatures, which
//! elaboration checks. What each decides is in `laws::conds`.

use crate::ir::{Meta, Sort};
use std::fmt;

/// A side condition, resolved from its name during elaboration.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Predicate {
    Translation,
    Moved,
    Succ,
    Pred,
    Less,
    Placed,
    Before,
    Never,
    Fuse,
    Guard,
    OffOnly,
    /// Kept last because it only fails: the fused pair never applies.
    Clash,
}

/// What a condition takes: its name as written, the sorts of its
/// arguments, and how many of the last arguments it computes.
pub struct Signature {
    pub name: &'static str,
    pub args: &'static [Sort],
    pub outputs: usize,
    pub doc: &'static str,
}

use Sort::{Cell, Count, Fragment, Move, Movement, Pattern};

impl Predicate {
    /// Every condition, in the order messages list them.
    pub const ALL: [Predicate; 12] = [
        Predicate::Translation,
        Predicate::Moved,
        Predicate::Succ,
        Predicate::Pred,
        Predicate::Less,
        Predicate::Placed,
        Predicate::Before,
        Predicate::Never,
        Predicate::Fuse,
        Predicate::Guard,
        Predicate::OffOnly,
        Predicate::Clash,
    ];

    pub fn signature(self) -> &'static Signature {
        match self {
            Predicate::Translation => &Signature {
                name: "translation",
                args: &[Movement],
                outputs: 0,
                doc: "the movement is a pure translation",
            },
            Predicate::Moved => &Signature {
                name: "moved",
                args: &[Movement, Cell, Cell],
                outputs: 1,
                doc: "the third is the piece the movement makes of the second",
            },
            Predicate::Succ => &Signature {
                name: "succ",
                args: &[Count, Count],
                outputs: 1,
                doc: "the second count is the first plus one",
            },
            Predicate::Pred => &Signature {
                name: "pred",
                args: &[Count, Count],
                outputs: 1,
                doc: "the first count is positive and the second is one less",
            },
            Predicate::Less => &Signature {
                name: "less",
                args: &[Count, Count],
                outputs: 0,
                doc: "the first count is less than the second",
            },
            Predicate::Placed => &Signature {
                name: "placed",
                args: &[Pattern, Pattern, Movement],
                outputs: 1,
                doc: "the translation t moves the rule P -> Q so that its lowest, leftmost cell is on (0, 0); \
                      it fails when the rule is there already",
            },
            Predicate::Before => &Signature {
                name: "before",
                args: &[Move, Move],
                outputs: 0,
                doc: "M comes before N in a fixed order of terms (of e-classes, in the prover); it only decides \
                      which way to sort a chain of `|`, and bears on no law's truth",
            },
            Predicate::Never => &Signature {
                name: "never",
                args: &[Fragment, Fragment],
                outputs: 0,
                doc: "the rule f -> g never applies: a square f needs on the board g needs off it, or the reverse",
            },
            Predicate::Fuse => &Signature {
                name: "fuse",
                args: &[Fragment, Fragment, Fragment, Fragment, Fragment, Fragment],
                outputs: 2,
                doc: "the anchored rules f_1 -> g_1 then f_2 -> g_2 are the one rule f -> g: the second rule \
                      read where the first leaves `%`, guards joined where they overlap and writes laid one \
                      over the other",
            },
            Predicate::Guard => &Signature {
                name: "guard",
                args: &[Fragment, Fragment, Fragment],
                outputs: 1,
                doc: "the rule f -> g writes back only what f reads, and asks off the board only for squares f \
                      does not name: it is the guard h -> 0, where h is f with g's `#` cells; it fails when g is \
                      `0` already",
            },
            Predicate::OffOnly => &Signature {
                name: "off_only",
                args: &[Fragment, Fragment],
                outputs: 0,
                doc: "f and g hold only `#` cells (or none): the rule f -> g is the identity",
            },
            Predicate::Clash => &Signature {
                name: "clash",
                args: &[Fragment, Fragment, Fragment, Fragment],
                outputs: 0,
                doc: "the anchored rules f_1 -> g_1 then f_2 -> g_2 never apply together: read where the first \
                      leaves `%`, the second's guard disagrees with what the first read or wrote, or one needs \
                      on the board a square the other needs off it",
            },
        }
    }

    /// The condition of this name, if there is one.
    pub fn named(name: &str) -> Option<Predicate> {
        Predicate::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn name(self) -> &'static str {
        self.signature().name
    }

    /// How many of the last arguments the condition computes.
    pub fn outputs(self) -> usize {
        self.signature().outputs
    }
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A side condition of a law, decided by the analysis, such as
/// `translation(t)`: its arguments are metavariables of the law, of the
/// sorts its signature names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub pred: Predicate,
    pub args: Vec<Meta>,
}

impl Condition {
    /// The arguments the condition reads; the rest it computes.
    pub fn inputs(&self) -> &[Meta] {
        &self.args[..self.args.len() - self.pred.outputs()]
    }

    /// The arguments the condition computes.
    pub fn outputs(&self) -> &[Meta] {
        &self.args[self.args.len() - self.pred.outputs()..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_their_conditions() {
        for p in Predicate::ALL {
            assert_eq!(Predicate::named(p.name()), Some(p));
            assert_eq!(p.to_string(), p.name());
            let s = p.signature();
            assert!(s.outputs < s.args.len(), "{p} computes all its arguments");
        }
        assert_eq!(Predicate::named("fusion"), None);
    }

    /// What a reader is told of a condition cites no source file: the
    /// help of an error, and where a proof's step names it.
    #[test]
    fn conditions_are_told_without_source_paths() {
        for p in Predicate::ALL {
            let doc = p.signature().doc;
            assert!(!doc.contains("src/") && !doc.contains(".rs"), "{p}: {doc}");
        }
    }
}
