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

use super::lang::{leaf, ENode};
use crate::ir::{Node, Pieces, Sort, Term};
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
    /// How movements act on the pieces of the terms in the e-graph.
    pub pieces: Pieces,
}

pub(crate) type Graph = EGraph<ENode, Algebra>;

/// The reason explanations give for a union made by the analysis.
pub(crate) const NORMALISE: &str = "normalise";

/// The value a node folds to, when its children have values.
fn fold(egraph: &Graph, n: &ENode) -> Option<Term> {
    match n {
        Node::Mov(_) | Node::Cell(_) | Node::Frag(_) | Node::Pat(_) | Node::Num(_) | Node::Inf => {
            return n.as_leaf().map(Term::raw)
        }
        Node::Compose(_) | Node::Power(..) | Node::Apply(_) | Node::Single(_) | Node::Glue(_) | Node::Union(_) => {}
        _ => return None,
    }
    let values = n
        .try_map_children(|c| egraph[*c].data.constant.clone().ok_or(()))
        .ok()?;
    let folded = Term::build(values, &egraph.analysis.pieces).ok()?;
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
        let sort = enode.sort(|c| egraph[*c].data.sort);
        let constant = fold(egraph, enode);
        let folded = match (&constant, enode.is_leaf()) {
            (Some(_), false) => {
                let mut ast: RecExpr<ENodeOrVar<ENode>> = RecExpr::default();
                let node = enode.map_children(|c| {
                    let t = egraph[*c].data.constant.as_ref().expect("folded from constants");
                    ast.add(ENodeOrVar::ENode(leaf(t)))
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
            split.add(ENodeOrVar::ENode(Node::Union([a, b])));
            egraph.union_instantiations(&split, &constant, &Default::default(), NORMALISE);
        }
    }
}
