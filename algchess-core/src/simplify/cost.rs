//! The cost model for simplification: the work of evaluating a move on a
//! typical position, counted in squares tested, not in term size.
//!
//! Each move is given the work of one evaluation and the number of results
//! it is expected to give (its fan-out), which is what the next move in a
//! sequence runs on. A rule anchored on `%` tests its own cells; one that is
//! not tries every square of the board as its pivot. A binder scans the
//! board once. Repetition is taken to run a few times. The figures are
//! estimates for ordering terms, not measurements; the benchmarks measure.
//!
//! Constants have no cost, and structure that elaboration folds away
//! (movements applied, fragments glued) costs a great deal, so extraction
//! always prefers the folded form.

use crate::ir::Node;
use crate::ir::Term;
use crate::prover::analysis::Graph;
use crate::prover::lang::ENode;
use egg::{CostFunction, Id};
use std::collections::HashMap;

/// Squares of a typical board.
const SQUARES: f64 = 64.0;
/// Times a repetition is taken to run.
const REPEATS: f64 = 3.0;

/// Work and fan-out of a move; ordered by work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cost {
    pub work: f64,
    pub fan: f64,
}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.work.partial_cmp(&other.work)
    }
}

/// The cost function, reading constants from the analysis.
pub(super) struct Work<'a> {
    pub egraph: &'a Graph,
    /// The cost of each metavariable that stands for a named definition.
    pub named: &'a HashMap<String, Cost>,
    /// Each class's pattern shape and count, read once: extraction costs
    /// every node many times, and a pattern may have many members.
    pub known: HashMap<Id, (Option<Shape>, Option<f64>)>,
}

/// A pattern constant's members, cells per member, and whether every
/// member is anchored on `%`.
pub(super) type Shape = (f64, f64, bool);

/// What the cost of a node needs to know of a child besides its cost: the
/// shape of a pattern constant (members, cells per member, anchored) and
/// the value of a count.
struct Child {
    cost: Cost,
    shape: Option<Shape>,
    count: Option<f64>,
}

fn shape_of(t: &Term) -> Option<Shape> {
    let p = t.as_pattern()?;
    let members = p.len() as f64;
    let cells = p.members().map(|f| f.len()).sum::<usize>() as f64 / members;
    let anchored = p.members().all(|f| f.poi().is_some());
    Some((members, cells.max(1.0), anchored))
}

fn count_of(t: &Term) -> Option<f64> {
    match t.node() {
        Node::Num(n) => Some(f64::from(*n).min(8.0)),
        _ => None,
    }
}

/// The cost of one node from what is known of its children: one model
/// for the e-graph's extraction and for a term as written.
fn node_cost<C>(node: &Node<C>, kids: &[Child], named: &HashMap<String, Cost>) -> Cost {
    let kid = |i: usize| kids[i].cost;
    let leaf = Cost { work: 0.0, fan: 1.0 };
    // Monotone: a node always costs more than any of its children.
    // Among equal fragments that differ by a translation (anchored rules
    // do not care), prefer the one placed nearest the centre.
    let placed =
        |f: &crate::ir::Fragment| f.cells().map(|(q, _)| q.x.abs() + q.y.abs()).min().unwrap_or(0) as f64 * 1e-4;
    match node {
        Node::Frag(f) => Cost {
            work: placed(f),
            fan: 1.0,
        },
        Node::Pat(p) => Cost {
            work: p.members().map(placed).sum(),
            fan: 1.0,
        },
        // A name costs what its body does, less a little: where the two
        // tie, the name is kept, as the file wrote it.
        Node::Var(m) => named.get(&*m.name).map_or(leaf, |c| Cost {
            work: (c.work - 1e-3).max(0.0),
            fan: c.fan,
        }),
        Node::Mov(_) | Node::Cell(_) | Node::Num(_) | Node::Inf => leaf,
        Node::Compose(_) | Node::Power(..) | Node::Apply(_) | Node::Single(_) | Node::Glue(_) | Node::Union(_) => {
            let inner: f64 = kids.iter().map(|c| c.cost.work).sum();
            Cost {
                work: 1e6 + inner,
                fan: 1.0,
            }
        }
        Node::Nil => Cost { work: 0.1, fan: 1.0 },
        Node::Fail => Cost { work: 0.1, fan: 0.0 },
        Node::Rule(_) => {
            let (fm, fc, anchored) = kids[0].shape.unwrap_or((1.0, 1.0, false));
            let (gm, gc, _) = kids[1].shape.unwrap_or((1.0, 1.0, false));
            let pairs = fm * gm;
            let tests = if anchored { fc + gc } else { SQUARES + (fc + gc) * 4.0 };
            Cost {
                work: 1.0 + pairs * tests + kid(0).work + kid(1).work,
                fan: if anchored { 0.5 * pairs } else { 2.0 * pairs },
            }
        }
        Node::Bind(_) => {
            let body = kid(1);
            Cost {
                work: SQUARES + 2.0 * body.work,
                fan: 2.0 * body.fan,
            }
        }
        Node::Seq(_) => {
            let (a, b) = (kid(0), kid(1));
            Cost {
                work: 1.0 + a.work + b.work * a.fan.max(1.0),
                fan: a.fan * b.fan,
            }
        }
        Node::Alt(_) => {
            let (a, b) = (kid(0), kid(1));
            Cost {
                work: 1.0 + a.work + b.work,
                fan: a.fan + b.fan,
            }
        }
        Node::Repeat(_) => {
            let body = kid(0);
            let reps = match (kids[1].count, kids[2].count) {
                (Some(l), Some(h)) => h.max(l),
                (Some(l), None) => l + REPEATS,
                _ => REPEATS,
            };
            Cost {
                work: 1.0 + reps * body.work * body.fan.max(1.0),
                fan: 1.0 + reps * body.fan,
            }
        }
        // A test mostly lets the state through (a king is seldom in
        // check): tests side by side cost each test's work, so one test
        // over a union is never dearer than the tests apart.
        Node::Not(_) => Cost {
            work: 1.0 + kid(0).work,
            fan: 1.0,
        },
        Node::Greedy(_) => {
            let m = kid(0);
            Cost {
                work: 1.0 + (REPEATS + 1.0) * m.work * m.fan.max(1.0),
                fan: 1.0,
            }
        }
    }
}

impl CostFunction<ENode> for Work<'_> {
    type Cost = Cost;

    fn cost<C>(&mut self, enode: &ENode, mut costs: C) -> Cost
    where
        C: FnMut(Id) -> Cost,
    {
        let kids: Vec<Child> = enode
            .children()
            .iter()
            .map(|id| {
                let egraph = self.egraph;
                let (shape, count) = *self.known.entry(egraph.find(*id)).or_insert_with(|| {
                    let constant = egraph[*id].data.constant.as_ref();
                    (constant.and_then(shape_of), constant.and_then(count_of))
                });
                Child {
                    cost: costs(*id),
                    shape,
                    count,
                }
            })
            .collect();
        node_cost(enode, &kids, self.named)
    }
}

/// The estimated cost of a term whose metavariables stand for named
/// definitions of the given costs: the term as it is, without an e-graph
/// (adding a large definition to one folds every constant again).
pub(super) fn cost_over(t: &Term, named: &HashMap<String, Cost>) -> Cost {
    let kids: Vec<Child> = t
        .children()
        .iter()
        .map(|c| Child {
            cost: cost_over(c, named),
            shape: shape_of(c),
            count: count_of(c),
        })
        .collect();
    node_cost(t.node(), &kids, named)
}
