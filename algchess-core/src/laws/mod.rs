//! Laws: the axioms in `axioms/*.alg`, their side conditions, and the
//! calculations (fusion) that conditions name.
//!
//! Axiom files are rule files whose claims are `axiom NAME: A = B`
//! (or `A => B`, used left to right only), optionally `where` side
//! conditions. They are read at run time; the prover turns each into
//! rewrites, and the tests validate each against the evaluator.
//!
//! A file without a `grid` line holds on every grid: it is elaborated once
//! per grid (its `R` and `F` are that grid's) and validated on each. A file
//! that declares `grid square` or `grid hex` holds only there, and the
//! prover uses it only on claims of that grid.

pub(crate) mod conds;
pub(crate) mod fusion;

use crate::diag::{Diag, Diags};
use crate::elab::{Claim, Condition, Loader, NoFiles, Program};
use crate::geometry::Tiling;
use crate::ir::{ClaimKind, Meta, Node, Rel, Term};

/// One axiom.
#[derive(Clone, Debug)]
pub struct Law {
    /// The axiom as elaborated from its file.
    pub claim: Claim,
}

/// One way of using a law: rewrite `from` into `to`, deciding `conds` in
/// this order (each one's inputs bound by `from` or an earlier output).
#[derive(Clone, Debug)]
pub struct Direction {
    /// The side matched.
    pub from: Term,
    /// The side written in its place.
    pub to: Term,
    /// The side conditions, in the order they are decided.
    pub conds: Vec<Condition>,
    /// The rewrite makes the term bigger, or copies a metavariable: it can
    /// feed itself and others without end (unfolding a star, distributing).
    /// The prover tries the other rewrites first.
    pub grows: bool,
}

/// How many times each metavariable occurs.
fn occurrences(t: &Term, out: &mut std::collections::BTreeMap<String, usize>) {
    if let Node::Var(m) = t.node() {
        *out.entry(m.name.to_string()).or_default() += 1;
    }
    for c in t.children() {
        occurrences(c, out);
    }
}

fn grows(from: &Term, to: &Term) -> bool {
    let (mut f, mut t) = (Default::default(), Default::default());
    occurrences(from, &mut f);
    occurrences(to, &mut t);
    to.size() > from.size() || t.iter().any(|(m, n)| f.get(m).is_some_and(|k| n > k))
}

impl Law {
    /// The axiom's name, as proofs cite it.
    pub fn name(&self) -> &str {
        &self.claim.name
    }

    /// `file:line` of the axiom.
    pub fn location(&self) -> String {
        self.claim.location()
    }

    /// Whether both sides elaborate to the same term (`M? = M{0,1}`): the
    /// law holds by definition and gives no rewrite.
    pub fn definitional(&self) -> bool {
        self.claim.lhs == self.claim.rhs
    }

    /// The directions the prover can use: left to right, and right to left
    /// unless the law is oriented. A direction is unusable when its left
    /// side is a bare metavariable (it would match everything) or when it
    /// cannot bind every metavariable of its right side.
    pub fn directions(&self) -> Vec<Direction> {
        if self.definitional() {
            return vec![];
        }
        let c = &self.claim;
        let mut out = vec![];
        let mut sides = vec![(&c.lhs, &c.rhs)];
        if c.rel != Rel::Oriented {
            sides.push((&c.rhs, &c.lhs));
        }
        for (from, to) in sides {
            if let Some(conds) = order(from, to, &c.conds) {
                out.push(Direction {
                    grows: grows(from, to),
                    from: from.clone(),
                    to: to.clone(),
                    conds,
                });
            }
        }
        out
    }
}

/// The conditions in an order that binds every metavariable of `to`, if
/// there is one.
fn order(from: &Term, to: &Term, conds: &[Condition]) -> Option<Vec<Condition>> {
    if matches!(from.node(), Node::Var(_)) {
        return None;
    }
    let mut bound: Vec<Meta> = from.metas();
    let mut left: Vec<&Condition> = conds.iter().collect();
    let mut out = vec![];
    while !left.is_empty() {
        let pos = left.iter().position(|c| c.inputs().iter().all(|a| bound.contains(a)))?;
        let c = left.remove(pos);
        bound.extend(c.args.iter().cloned());
        out.push(c.clone());
    }
    to.metas().iter().all(|m| bound.contains(m)).then_some(out)
}

/// The axioms of a directory of `.alg` files, in file and line order.
#[derive(Clone, Debug, Default)]
pub struct Laws {
    /// The axioms, in file and line order.
    pub laws: Vec<Law>,
}

/// The bundled axiom files, built into the binary so that a copied or
/// installed `algchess` has them: `(path, text)`, in name order.
const BUNDLED: [(&str, &str); 7] = [
    ("axioms/guards.alg", include_str!("../../axioms/guards.alg")),
    ("axioms/hex.alg", include_str!("../../axioms/hex.alg")),
    ("axioms/kleene.alg", include_str!("../../axioms/kleene.alg")),
    ("axioms/movements.alg", include_str!("../../axioms/movements.alg")),
    ("axioms/rules.alg", include_str!("../../axioms/rules.alg")),
    ("axioms/square.alg", include_str!("../../axioms/square.alg")),
    ("axioms/tests.alg", include_str!("../../axioms/tests.alg")),
];

/// The programs of axiom files that hold on `tiling`, elaborated on it.
fn on_grid(files: &[(String, String)], tiling: Tiling, loader: &dyn Loader) -> Vec<Result<Program, Diags>> {
    files
        .iter()
        .map(|(name, text)| Program::from_text_with(name, text, tiling, loader))
        .filter(|p| p.as_ref().map_or(true, |p| p.tiling() == tiling))
        .collect()
}

impl Laws {
    /// The axioms of `files` (each a name and its text, in order) that
    /// hold on `tiling`, their imports read through `loader`
    /// (`prove --axioms DIR` reads the folder's `.alg` files).
    pub fn from_texts(files: &[(String, String)], tiling: Tiling, loader: &dyn Loader) -> Result<Laws, Diags> {
        Laws::of(on_grid(files, tiling, loader).into_iter())
    }

    /// The bundled axioms of `axioms/` for the square grid, as built into
    /// the binary.
    pub fn bundled() -> Laws {
        Laws::bundled_on(Tiling::Square)
    }

    /// The bundled axioms that hold on `tiling`.
    pub fn bundled_on(tiling: Tiling) -> Laws {
        let texts: Vec<(String, String)> = BUNDLED
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        Laws::from_texts(&texts, tiling, &NoFiles).expect("the bundled axioms elaborate (a test checks them)")
    }

    /// The axioms of elaborated files: each claim must be an `axiom`, each
    /// name stated once.
    fn of(programs: impl Iterator<Item = Result<Program, Diags>>) -> Result<Laws, Diags> {
        let mut laws = vec![];
        let mut errors = vec![];
        for p in programs {
            match p {
                Ok(p) => {
                    for c in p.claims() {
                        if c.kind != ClaimKind::Axiom {
                            errors.push(Diag::new(&c.source, c.span, "an axiom file states only `axiom`s"));
                            continue;
                        }
                        if laws.iter().any(|l: &Law| l.name() == c.name) {
                            errors.push(Diag::new(
                                &c.source,
                                c.span,
                                format!("axiom `{}` is stated twice", c.name),
                            ));
                            continue;
                        }
                        laws.push(Law { claim: c.clone() });
                    }
                }
                Err(d) => errors.extend(d.0),
            }
        }
        if !errors.is_empty() {
            return Err(Diags(errors));
        }
        Ok(Laws { laws })
    }

    /// The axiom called `name`.
    pub fn get(&self, name: &str) -> Option<&Law> {
        self.laws.iter().find(|l| l.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The axioms built into the binary are the files of `axioms/`, all of
    /// them, as they are now.
    #[test]
    fn the_built_in_axioms_are_the_axiom_files() {
        let dir = crate::testing::root().join("axioms");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| format!("axioms/{}", e.unwrap().file_name().to_string_lossy()))
            .filter(|n| n.ends_with(".alg"))
            .collect();
        names.sort();
        let bundled: Vec<String> = BUNDLED.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(bundled, names, "list every file of axioms/ in BUNDLED");
        let files: Vec<(String, String)> = names.iter().map(|n| (n.clone(), crate::testing::read(n))).collect();
        let from_disk = Laws::from_texts(&files, Tiling::Square, &NoFiles).unwrap();
        let built_in = Laws::bundled();
        let claims = |l: &Laws| {
            l.laws
                .iter()
                .map(|x| (x.claim.lhs.clone(), x.claim.rhs.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(claims(&from_disk), claims(&built_in));
    }

    #[test]
    fn bundled_axioms_load_with_usable_directions() {
        let laws = Laws::bundled();
        assert!(laws.laws.len() >= 40);
        let dirs = |n: &str| laws.get(n).unwrap().directions().len();
        assert_eq!(dirs("seq_assoc"), 2);
        assert_eq!(dirs("seq_nil_left"), 1);
        // The binder's new piece is computed left to right only.
        assert_eq!(dirs("move_bind"), 1);
        assert_eq!(dirs("fuse"), 1);
        assert_eq!(dirs("opt_range"), 0);
        assert!(laws.get("opt_range").unwrap().definitional());
        for l in &laws.laws {
            assert!(
                l.definitional() || !l.directions().is_empty(),
                "{} cannot be used",
                l.name()
            );
        }
    }
}
