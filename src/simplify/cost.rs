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

use crate::core::Node;
use crate::core::Term;
use crate::prover::analysis::{Algebra, Graph};
use crate::prover::lang::{to_expr, ENode};
use egg::Extractor;
use egg::{CostFunction, Id};
use std::collections::HashMap;

/// Squares of a typical board.
const SQUARES: f64 = 64.0;
/// Times a repetition is taken to run.
const REPEATS: f64 = 3.0;

/// Work and fan-out of a move; ordered by work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub work: f64,
    pub fan: f64,
}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.work.partial_cmp(&other.work)
    }
}

/// The cost function, reading constants from the analysis.
pub struct Work<'a> {
    pub egraph: &'a Graph,
    /// The cost of each metavariable that stands for a named definition.
    pub named: &'a HashMap<String, Cost>,
}

impl Work<'_> {
    /// Members of a pattern class and cells per member, from its constant.
    fn shape(&self, id: Id) -> Option<(f64, f64, bool)> {
        let p = self.egraph[id].data.constant.as_ref()?.as_pattern()?;
        let members = p.len() as f64;
        let cells = p.members().map(|f| f.len()).sum::<usize>() as f64 / members;
        let anchored = p.members().all(|f| f.poi().is_some());
        Some((members, cells.max(1.0), anchored))
    }
}

impl CostFunction<ENode> for Work<'_> {
    type Cost = Cost;

    fn cost<C>(&mut self, enode: &ENode, mut costs: C) -> Cost
    where
        C: FnMut(Id) -> Cost,
    {
        let kid = |i: usize, costs: &mut C| costs(enode.children()[i]);
        let leaf = Cost { work: 0.0, fan: 1.0 };
        // Monotone: a node always costs more than any of its children.
        // Among equal fragments that differ by a translation (anchored rules
        // do not care), prefer the one placed nearest the centre.
        let placed =
            |f: &crate::core::Fragment| f.cells().map(|(q, _)| q.x.abs() + q.y.abs()).min().unwrap_or(0) as f64 * 1e-4;
        match enode {
            ENode::Frag(f) => Cost {
                work: placed(f),
                fan: 1.0,
            },
            ENode::Pat(p) => Cost {
                work: p.members().map(placed).sum(),
                fan: 1.0,
            },
            ENode::Var(m) => self.named.get(&*m.name).copied().unwrap_or(leaf),
            ENode::Mov(_) | ENode::Cell(_) | ENode::Num(_) | ENode::Inf => leaf,
            ENode::Compose(_)
            | ENode::Power(..)
            | ENode::Apply(_)
            | ENode::Single(_)
            | ENode::Glue(_)
            | ENode::Union(_) => {
                let inner: f64 = enode.children().iter().map(|c| costs(*c).work).sum();
                Cost {
                    work: 1e6 + inner,
                    fan: 1.0,
                }
            }
            ENode::Nil => Cost { work: 0.1, fan: 1.0 },
            ENode::Fail => Cost { work: 0.1, fan: 0.0 },
            ENode::Rule([f, g]) => {
                let (fm, fc, anchored) = self.shape(*f).unwrap_or((1.0, 1.0, false));
                let (gm, gc, _) = self.shape(*g).unwrap_or((1.0, 1.0, false));
                let pairs = fm * gm;
                let tests = if anchored { fc + gc } else { SQUARES + (fc + gc) * 4.0 };
                Cost {
                    work: 1.0 + pairs * tests + kid(0, &mut costs).work + kid(1, &mut costs).work,
                    fan: if anchored { 0.5 * pairs } else { 2.0 * pairs },
                }
            }
            ENode::Bind(_) => {
                let body = kid(1, &mut costs);
                Cost {
                    work: SQUARES + 2.0 * body.work,
                    fan: 2.0 * body.fan,
                }
            }
            ENode::Seq(_) => {
                let (a, b) = (kid(0, &mut costs), kid(1, &mut costs));
                Cost {
                    work: 1.0 + a.work + b.work * a.fan.max(1.0),
                    fan: a.fan * b.fan,
                }
            }
            ENode::Alt(_) => {
                let (a, b) = (kid(0, &mut costs), kid(1, &mut costs));
                Cost {
                    work: 1.0 + a.work + b.work,
                    fan: a.fan + b.fan,
                }
            }
            ENode::Repeat([m, lo, hi]) => {
                let body = costs(*m);
                let count = |id: &Id| match self.egraph[*id].data.constant.as_ref().map(|c| c.node().clone()) {
                    Some(Node::Num(n)) => Some(f64::from(n).min(8.0)),
                    _ => None,
                };
                let reps = match (count(lo), count(hi)) {
                    (Some(l), Some(h)) => h.max(l),
                    (Some(l), None) => l + REPEATS,
                    _ => REPEATS,
                };
                Cost {
                    work: 1.0 + reps * body.work * body.fan.max(1.0),
                    fan: 1.0 + reps * body.fan,
                }
            }
            ENode::Not(_) => {
                let m = kid(0, &mut costs);
                Cost {
                    work: 1.0 + m.work,
                    fan: 0.5,
                }
            }
            ENode::Greedy(_) => {
                let m = kid(0, &mut costs);
                Cost {
                    work: 1.0 + (REPEATS + 1.0) * m.work * m.fan.max(1.0),
                    fan: 1.0,
                }
            }
        }
    }
}

/// The estimated cost of a term whose metavariables stand for named
/// definitions of the given costs.
pub(super) fn cost_over(t: &Term, named: &HashMap<String, Cost>) -> Cost {
    let mut g = Graph::new(Algebra::default());
    let id = g.add_expr(&to_expr(t));
    g.rebuild();
    let (c, _): (Cost, _) = Extractor::new(&g, Work { egraph: &g, named }).find_best(id);
    c
}
