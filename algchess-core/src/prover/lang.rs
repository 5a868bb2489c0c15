//! The e-graph language: the core IR's `Node` with e-class ids as
//! children.
//!
//! `to_expr` and `from_expr` convert between terms and expressions; they
//! are inverse (a property test). Law patterns use the same nodes with
//! metavariables as egg pattern variables.

use crate::ir::{Node, Term};
use egg::{Id, Language, RecExpr};
use std::fmt;

/// A node of the e-graph. A `Var` is a theorem's metavariable: an
/// arbitrary but fixed value.
pub(crate) type ENode = Node<Id>;

impl Language for ENode {
    type Discriminant = std::mem::Discriminant<ENode>;

    fn discriminant(&self) -> Self::Discriminant {
        std::mem::discriminant(self)
    }

    fn matches(&self, other: &Self) -> bool {
        self.same_op(other)
    }

    fn children(&self) -> &[Id] {
        Node::children(self)
    }

    fn children_mut(&mut self) -> &mut [Id] {
        Node::children_mut(self)
    }
}

impl fmt::Display for ENode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Mov(m) => write!(f, "{m}"),
            // egg's name of an operator, not a user's text: no registry.
            Node::Cell(c) => write!(f, "{c:?}"),
            Node::Frag(x) => write!(f, "{x:?}"),
            Node::Pat(_) => f.write_str("pattern"),
            Node::Var(m) => f.write_str(&m.name),
            Node::Num(n) => write!(f, "{n}"),
            Node::Inf => f.write_str("inf"),
            Node::Compose(_) => f.write_str("compose"),
            Node::Power(_, k) => write!(f, "power{k}"),
            Node::Apply(_) => f.write_str("apply"),
            Node::Single(_) => f.write_str("single"),
            Node::Glue(_) => f.write_str("+"),
            Node::Union(_) => f.write_str("|"),
            Node::Nil => f.write_str("nil"),
            Node::Fail => f.write_str("fail"),
            Node::Rule(_) => f.write_str("->"),
            Node::Bind(_) => f.write_str("bind"),
            Node::Seq(_) => f.write_str("seq"),
            Node::Alt(_) => f.write_str("alt"),
            Node::Repeat(_) => f.write_str("repeat"),
            Node::Not(_) => f.write_str("not"),
            Node::Greedy(_) => f.write_str("greedy"),
        }
    }
}

/// A constant (a leaf) as an e-node.
pub(crate) fn leaf(t: &Term) -> ENode {
    t.node().as_leaf().expect("constants are leaves")
}

/// A term as an e-graph expression.
pub(crate) fn to_expr(t: &Term) -> RecExpr<ENode> {
    fn go(t: &Term, out: &mut RecExpr<ENode>) -> Id {
        let n = t.node().map_children(|c| go(c, out));
        out.add(n)
    }
    let mut out = RecExpr::default();
    go(t, &mut out);
    out
}

/// An e-graph expression back as a term, each node as it is, without
/// folding: proof steps show the terms the rewrites produced.
pub(crate) fn from_expr(e: &RecExpr<ENode>) -> Term {
    let mut terms: Vec<Term> = Vec::with_capacity(e.as_ref().len());
    for n in e.as_ref() {
        let t = Term::raw(n.map_children(|i| terms[usize::from(*i)].clone()));
        terms.push(t);
    }
    terms.pop().expect("a non-empty expression")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{gen, Sort};

    #[test]
    fn conversion_is_one_to_one() {
        for seed in 0..500 {
            let mut g = crate::rng::Rng::new(seed);
            for sort in [Sort::Movement, Sort::Fragment, Sort::Pattern, Sort::Move] {
                let t = gen::term(&mut g, sort);
                assert_eq!(from_expr(&to_expr(&t)), t);
            }
        }
        let law = crate::elab::Program::from_text("t", "theorem t: m(%p: M{i,j}) | (n f -> P) = nil\n").unwrap();
        let t = &law.claims()[0].lhs;
        assert_eq!(&from_expr(&to_expr(t)), t);
    }
}
