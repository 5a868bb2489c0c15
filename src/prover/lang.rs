//! The e-graph language: a one-to-one image of the core IR's `Node`, with
//! children as e-class ids.
//!
//! `to_expr` and `from_expr` convert between the two; they are inverse (a
//! property test). Law patterns use the same nodes with metavariables as
//! egg pattern variables.

use crate::core::{Content, Fragment, Meta, Node, Pattern, Term};
use crate::geometry::Movement;
use egg::{Id, Language, RecExpr};
use std::fmt;

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum ENode {
    Mov(Movement),
    Cell(Content),
    Frag(Fragment),
    Pat(Pattern),
    /// A theorem's metavariable: an arbitrary but fixed value.
    Var(Meta),
    Num(u32),
    Inf,
    Compose([Id; 2]),
    Power(i64, [Id; 1]),
    Apply([Id; 2]),
    Single([Id; 1]),
    Glue([Id; 2]),
    Union([Id; 2]),
    Nil,
    Fail,
    Rule([Id; 2]),
    Bind([Id; 2]),
    Seq([Id; 2]),
    Alt([Id; 2]),
    Repeat([Id; 3]),
    Not([Id; 1]),
    Greedy([Id; 1]),
}

impl Language for ENode {
    type Discriminant = std::mem::Discriminant<ENode>;

    fn discriminant(&self) -> Self::Discriminant {
        std::mem::discriminant(self)
    }

    fn matches(&self, other: &Self) -> bool {
        match (self, other) {
            (ENode::Mov(a), ENode::Mov(b)) => a == b,
            (ENode::Cell(a), ENode::Cell(b)) => a == b,
            (ENode::Frag(a), ENode::Frag(b)) => a == b,
            (ENode::Pat(a), ENode::Pat(b)) => a == b,
            (ENode::Var(a), ENode::Var(b)) => a == b,
            (ENode::Num(a), ENode::Num(b)) => a == b,
            (ENode::Power(a, _), ENode::Power(b, _)) => a == b,
            _ => self.discriminant() == other.discriminant(),
        }
    }

    fn children(&self) -> &[Id] {
        match self {
            ENode::Mov(_)
            | ENode::Cell(_)
            | ENode::Frag(_)
            | ENode::Pat(_)
            | ENode::Var(_)
            | ENode::Num(_)
            | ENode::Inf
            | ENode::Nil
            | ENode::Fail => &[],
            ENode::Power(_, c) | ENode::Single(c) | ENode::Not(c) | ENode::Greedy(c) => c,
            ENode::Compose(c)
            | ENode::Apply(c)
            | ENode::Glue(c)
            | ENode::Union(c)
            | ENode::Rule(c)
            | ENode::Bind(c)
            | ENode::Seq(c)
            | ENode::Alt(c) => c,
            ENode::Repeat(c) => c,
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            ENode::Mov(_)
            | ENode::Cell(_)
            | ENode::Frag(_)
            | ENode::Pat(_)
            | ENode::Var(_)
            | ENode::Num(_)
            | ENode::Inf
            | ENode::Nil
            | ENode::Fail => &mut [],
            ENode::Power(_, c) | ENode::Single(c) | ENode::Not(c) | ENode::Greedy(c) => c,
            ENode::Compose(c)
            | ENode::Apply(c)
            | ENode::Glue(c)
            | ENode::Union(c)
            | ENode::Rule(c)
            | ENode::Bind(c)
            | ENode::Seq(c)
            | ENode::Alt(c) => c,
            ENode::Repeat(c) => c,
        }
    }
}

impl fmt::Display for ENode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ENode::Mov(m) => write!(f, "{m}"),
            ENode::Cell(c) => write!(f, "{c}"),
            ENode::Frag(x) => write!(f, "{x}"),
            ENode::Pat(_) => f.write_str("pattern"),
            ENode::Var(m) => f.write_str(&m.name),
            ENode::Num(n) => write!(f, "{n}"),
            ENode::Inf => f.write_str("inf"),
            ENode::Compose(_) => f.write_str("compose"),
            ENode::Power(k, _) => write!(f, "power{k}"),
            ENode::Apply(_) => f.write_str("apply"),
            ENode::Single(_) => f.write_str("single"),
            ENode::Glue(_) => f.write_str("+"),
            ENode::Union(_) => f.write_str("|"),
            ENode::Nil => f.write_str("nil"),
            ENode::Fail => f.write_str("fail"),
            ENode::Rule(_) => f.write_str("->"),
            ENode::Bind(_) => f.write_str("bind"),
            ENode::Seq(_) => f.write_str("seq"),
            ENode::Alt(_) => f.write_str("alt"),
            ENode::Repeat(_) => f.write_str("repeat"),
            ENode::Not(_) => f.write_str("not"),
            ENode::Greedy(_) => f.write_str("greedy"),
        }
    }
}

/// The node of a term, with its children replaced by ids.
pub fn node_of(t: &Term, ids: &[Id]) -> ENode {
    let two = || [ids[0], ids[1]];
    match t.node() {
        Node::Mov(m) => ENode::Mov(*m),
        Node::Cell(c) => ENode::Cell(*c),
        Node::Frag(f) => ENode::Frag(f.clone()),
        Node::Pat(p) => ENode::Pat(p.clone()),
        Node::Var(m) => ENode::Var(m.clone()),
        Node::Num(n) => ENode::Num(*n),
        Node::Inf => ENode::Inf,
        Node::Compose(..) => ENode::Compose(two()),
        Node::Power(_, k) => ENode::Power(*k, [ids[0]]),
        Node::Apply(..) => ENode::Apply(two()),
        Node::Single(_) => ENode::Single([ids[0]]),
        Node::Glue(..) => ENode::Glue(two()),
        Node::Union(..) => ENode::Union(two()),
        Node::Nil => ENode::Nil,
        Node::Fail => ENode::Fail,
        Node::Rule(..) => ENode::Rule(two()),
        Node::Bind(..) => ENode::Bind(two()),
        Node::Seq(..) => ENode::Seq(two()),
        Node::Alt(..) => ENode::Alt(two()),
        Node::Repeat(..) => ENode::Repeat([ids[0], ids[1], ids[2]]),
        Node::Not(_) => ENode::Not([ids[0]]),
        Node::Greedy(_) => ENode::Greedy([ids[0]]),
    }
}

/// A term as an e-graph expression.
pub fn to_expr(t: &Term) -> RecExpr<ENode> {
    fn go(t: &Term, out: &mut RecExpr<ENode>) -> Id {
        let ids: Vec<Id> = t.children().into_iter().map(|c| go(c, out)).collect();
        out.add(node_of(t, &ids))
    }
    let mut out = RecExpr::default();
    go(t, &mut out);
    out
}

/// `t`'s node over other children, without folding.
pub fn with_children(t: &Term, kids: &[Term]) -> Term {
    term_of(&node_of(t, &vec![Id::from(0usize); kids.len()]), kids)
}

/// The term a node builds from its children's terms, as it is, without
/// folding: proof steps show the terms the rewrites produced.
pub fn term_of(n: &ENode, kids: &[Term]) -> Term {
    let k = |i: usize| kids[i].clone();
    Term::raw(match n {
        ENode::Mov(m) => Node::Mov(*m),
        ENode::Cell(c) => Node::Cell(*c),
        ENode::Frag(f) => Node::Frag(f.clone()),
        ENode::Pat(p) => Node::Pat(p.clone()),
        ENode::Var(m) => Node::Var(m.clone()),
        ENode::Num(x) => Node::Num(*x),
        ENode::Inf => Node::Inf,
        ENode::Compose(_) => Node::Compose(k(0), k(1)),
        ENode::Power(p, _) => Node::Power(k(0), *p),
        ENode::Apply(_) => Node::Apply(k(0), k(1)),
        ENode::Single(_) => Node::Single(k(0)),
        ENode::Glue(_) => Node::Glue(k(0), k(1)),
        ENode::Union(_) => Node::Union(k(0), k(1)),
        ENode::Nil => Node::Nil,
        ENode::Fail => Node::Fail,
        ENode::Rule(_) => Node::Rule(k(0), k(1)),
        ENode::Bind(_) => Node::Bind(k(0), k(1)),
        ENode::Seq(_) => Node::Seq(k(0), k(1)),
        ENode::Alt(_) => Node::Alt(k(0), k(1)),
        ENode::Repeat(_) => Node::Repeat(k(0), k(1), k(2)),
        ENode::Not(_) => Node::Not(k(0)),
        ENode::Greedy(_) => Node::Greedy(k(0)),
    })
}

/// An e-graph expression back as a term.
pub fn from_expr(e: &RecExpr<ENode>) -> Term {
    let nodes = e.as_ref();
    let mut terms: Vec<Term> = Vec::with_capacity(nodes.len());
    for n in nodes {
        let kids: Vec<Term> = n.children().iter().map(|i| terms[usize::from(*i)].clone()).collect();
        terms.push(term_of(n, &kids));
    }
    terms.pop().expect("a non-empty expression")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{gen, Sort};

    #[test]
    fn conversion_is_one_to_one() {
        for seed in 0..500 {
            let mut g = quickcheck::Gen::from_size_and_seed(8, seed);
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
