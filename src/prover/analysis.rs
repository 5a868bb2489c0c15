//! The e-class analysis: the cheap algebra, owned by the e-graph.
//!
//! Each class knows its sort and, when it has one, its closed value: a
//! movement in normal form, a cell, a fragment or a pattern as a canonical
//! map or set, or a count. A node whose children all have values gets the
//! folded value (the core constructors compute it), and the class is united
//! with the constant, justified as `normalise` so that explanations can show
//! the step. Gluing and choice of known fragments thus never need
//! commutativity or associativity rewrites, which blow e-graphs up.
//!
//! A pattern constant with several members is also given one node
//! `first | rest`, so that laws written with `|` match it.

use super::lang::{node_of, ENode};
use crate::core::{Node, Sort, Term};
use egg::{Analysis, DidMerge, EGraph, ENodeOrVar, Id, Language, PatternAst, RecExpr};

/// What the analysis knows of a class.
#[derive(Clone, Debug)]
pub struct Data {
    pub sort: Sort,
    /// The class's closed value, as a constant term (`Mov`, `Cell`, `Frag`,
    /// `Pat`, `Num` or `Inf`).
    pub constant: Option<Term>,
    /// The node that folded to the constant, with constant children: the
    /// left side of its `normalise` step.
    folded: Option<PatternAst<ENode>>,
}

/// The analysis, and the limits of the saturation it serves (see
/// `guard`): the scheduler and the appliers can reach them here.
#[derive(Default)]
pub struct Algebra {
    pub guard: super::guard::Guard,
}

pub type Graph = EGraph<ENode, Algebra>;

/// The reason explanations give for a union made by the analysis.
pub const NORMALISE: &str = "normalise";

fn sort_of(egraph: &Graph, n: &ENode) -> Sort {
    let child = |i: usize| egraph[n.children()[i]].data.sort;
    match n {
        ENode::Mov(_) | ENode::Compose(_) | ENode::Power(..) => Sort::Movement,
        ENode::Cell(_) => Sort::Cell,
        ENode::Frag(_) | ENode::Single(_) => Sort::Fragment,
        ENode::Pat(_) | ENode::Union(_) => Sort::Pattern,
        ENode::Var(m) => m.sort,
        ENode::Num(_) | ENode::Inf => Sort::Count,
        ENode::Apply(_) => child(1),
        ENode::Glue(_) => {
            if child(0) == Sort::Pattern || child(1) == Sort::Pattern {
                Sort::Pattern
            } else {
                Sort::Fragment
            }
        }
        ENode::Nil
        | ENode::Fail
        | ENode::Rule(_)
        | ENode::Bind(_)
        | ENode::Seq(_)
        | ENode::Alt(_)
        | ENode::Repeat(_)
        | ENode::Not(_)
        | ENode::Greedy(_) => Sort::Move,
    }
}

/// A constant term as the single node of a pattern.
fn leaf(t: &Term) -> ENode {
    node_of(t, &[])
}

/// The value a node folds to, when its children have values.
fn fold(egraph: &Graph, n: &ENode) -> Option<Term> {
    let value = |i: usize| egraph[n.children()[i]].data.constant.clone();
    let folded = match n {
        ENode::Mov(_) | ENode::Cell(_) | ENode::Frag(_) | ENode::Pat(_) | ENode::Num(_) | ENode::Inf => {
            let kids: [Term; 0] = [];
            return Some(super::lang::term_of(n, &kids));
        }
        ENode::Compose(_) => Term::compose(&value(0)?, &value(1)?),
        ENode::Power(k, _) => Term::power(&value(0)?, *k),
        ENode::Apply(_) => {
            let (m, x) = (value(0)?, value(1)?);
            if m.sort() != Sort::Movement {
                return None;
            }
            Term::apply(&m, &x)
        }
        ENode::Single(_) => value(0)?.as_fragment_term(),
        ENode::Glue(_) => Term::glue(&value(0)?, &value(1)?).ok()?,
        ENode::Union(_) => Term::union(&value(0)?, &value(1)?),
        _ => return None,
    };
    // Only leaves are constants; anything else is structure.
    matches!(
        folded.node(),
        Node::Mov(_) | Node::Cell(_) | Node::Frag(_) | Node::Pat(_) | Node::Num(_) | Node::Inf
    )
    .then_some(folded)
}

impl Analysis<ENode> for Algebra {
    type Data = Data;

    fn make(egraph: &mut Graph, enode: &ENode, _id: Id) -> Data {
        let sort = sort_of(egraph, enode);
        let constant = fold(egraph, enode);
        let folded = match (&constant, enode.is_leaf()) {
            (Some(_), false) => {
                let mut ast: RecExpr<ENodeOrVar<ENode>> = RecExpr::default();
                let ids: Vec<Id> = enode
                    .children()
                    .iter()
                    .map(|c| {
                        let t = egraph[*c].data.constant.as_ref().expect("folded from constants");
                        ast.add(ENodeOrVar::ENode(leaf(t)))
                    })
                    .collect();
                let mut i = 0;
                let node = enode.clone().map_children(|_| {
                    i += 1;
                    ids[i - 1]
                });
                ast.add(ENodeOrVar::ENode(node));
                Some(ast)
            }
            _ => None,
        };
        Data { sort, constant, folded }
    }

    fn merge(&mut self, to: &mut Data, from: Data) -> DidMerge {
        let (mut to_changed, mut from_changed) = (false, false);
        // A fragment is a one-member pattern: the class has the narrower sort.
        if from.sort != to.sort {
            debug_assert!(
                from.sort.fits(to.sort) || to.sort.fits(from.sort),
                "united a {} and a {}",
                to.sort,
                from.sort
            );
            if from.sort.fits(to.sort) {
                to.sort = from.sort;
                to_changed = true;
            } else {
                from_changed = true;
            }
        }
        match (&to.constant, from.constant) {
            (None, Some(c)) => {
                to.constant = Some(c);
                to.folded = from.folded;
                to_changed = true;
            }
            (Some(a), Some(b)) => debug_assert_eq!(*a, b, "united different constants"),
            (Some(_), None) => from_changed = true,
            (None, None) => {}
        }
        DidMerge(to_changed, from_changed)
    }

    fn modify(egraph: &mut Graph, id: Id) {
        let data = egraph[id].data.clone();
        let Some(c) = data.constant else { return };
        let mut constant: PatternAst<ENode> = RecExpr::default();
        constant.add(ENodeOrVar::ENode(leaf(&c)));
        // `union_instantiations` records the step for explanations, and is
        // a plain union when they are off.
        if let Some(folded) = &data.folded {
            egraph.union_instantiations(folded, &constant, &Default::default(), NORMALISE);
        }
        // A pattern constant also reads as `first | rest`.
        if let Node::Pat(p) = c.node() {
            let mut members = p.members();
            let first = members.next().expect("a pattern has members").clone();
            let rest = Term::pattern(members.cloned().collect());
            let mut split: PatternAst<ENode> = RecExpr::default();
            let a = split.add(ENodeOrVar::ENode(leaf(&Term::fragment(first))));
            let b = split.add(ENodeOrVar::ENode(leaf(&rest)));
            split.add(ENodeOrVar::ENode(ENode::Union([a, b])));
            egraph.union_instantiations(&split, &constant, &Default::default(), NORMALISE);
        }
    }
}
