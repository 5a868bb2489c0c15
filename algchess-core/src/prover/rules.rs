//! Laws as egg rewrites.
//!
//! Each usable direction of a law becomes one rewrite: its left side is the
//! searcher, and a custom applier checks that every metavariable matched a
//! class of its sort, decides the side conditions on the classes' analysis
//! data (binding the metavariables they compute), and unites the match with
//! the instantiated right side through `union_instantiations`, so that the
//! explanation names the law.

use super::analysis::{Algebra, Graph};
use super::lang::{leaf, ENode};
use crate::elab::{Condition, Predicate};
use crate::ir::{Meta, Node, Sort, Term};
use crate::laws::{conds, Laws};
use egg::{Applier, ENodeOrVar, Id, Pattern, PatternAst, RecExpr, Rewrite, Subst, Symbol, Var};

/// The egg variable of a metavariable.
pub(crate) fn var(m: &Meta) -> Var {
    format!("?{}", m.name)
        .parse()
        .expect("metavariable names are valid egg variables")
}

/// A law side as an egg pattern.
pub(crate) fn pattern_ast(t: &Term) -> PatternAst<ENode> {
    fn go(t: &Term, out: &mut PatternAst<ENode>) -> Id {
        if let Node::Var(m) = t.node() {
            return out.add(ENodeOrVar::Var(var(m)));
        }
        let n = t.node().map_children(|c| go(c, out));
        out.add(ENodeOrVar::ENode(n))
    }
    let mut out = RecExpr::default();
    go(t, &mut out);
    out
}

/// One direction of one law.
#[derive(Clone, Debug)]
pub struct LawRule {
    /// The law's index in `Laws`.
    pub law: usize,
    /// True when the rewrite runs the law from right to left.
    pub reversed: bool,
    pub from: Term,
    pub to: Term,
    pub conds: Vec<Condition>,
    rhs: PatternAst<ENode>,
    metas: Vec<Meta>,
}

impl LawRule {
    /// The rewrite's name, as explanations report it.
    pub fn name(&self, laws: &Laws) -> String {
        let n = laws.laws[self.law].name();
        if self.reversed {
            format!("{n}<=")
        } else {
            n.to_string()
        }
    }
}

/// Whether a class may stand for a metavariable of `sort`.
fn fits(egraph: &Graph, id: Id, sort: Sort) -> bool {
    let data = &egraph[id].data;
    if sort == Sort::Count {
        // Counts are numbers; `∞` appears only where a law writes it.
        return data.sort == Sort::Count && !matches!(data.constant.as_ref().map(|c| c.node()), Some(Node::Inf));
    }
    data.sort.fits(sort)
}

impl Applier<ENode, Algebra> for LawRule {
    fn apply_one(
        &self,
        egraph: &mut Graph,
        eclass: Id,
        subst: &Subst,
        searcher_ast: Option<&PatternAst<ENode>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        // Limits hold between single unions, not only between iterations.
        if egraph.analysis.guard.over(egraph.total_size()) {
            return vec![];
        }
        for m in &self.metas {
            if let Some(id) = subst.get(var(m)) {
                if !fits(egraph, *id, m.sort) {
                    return vec![];
                }
            }
        }
        let mut subst = subst.clone();
        for c in &self.conds {
            if c.pred == Predicate::Before {
                // Chains of `|` are sorted by e-class.
                let (m, n) = (subst[var(&c.args[0])], subst[var(&c.args[1])]);
                if egraph.find(m) < egraph.find(n) {
                    continue;
                }
                return vec![];
            }
            let inputs: Option<Vec<Term>> = c
                .inputs()
                .iter()
                .map(|a| egraph[subst[var(a)]].data.constant.clone())
                .collect();
            let Some(outputs) = inputs.and_then(|i| conds::decide(c.pred, &i, &egraph.analysis.pieces)) else {
                return vec![];
            };
            for (a, value) in c.outputs().iter().zip(outputs) {
                let id = egraph.add(leaf(&value));
                match subst.get(var(a)) {
                    // Already bound by the match: the condition must agree.
                    Some(bound) if egraph.find(*bound) != egraph.find(id) => return vec![],
                    Some(_) => {}
                    None => {
                        subst.insert(var(a), id);
                    }
                }
            }
        }
        match searcher_ast {
            Some(ast) => {
                let (id, united) = egraph.union_instantiations(ast, &self.rhs, &subst, rule_name);
                if united {
                    vec![id]
                } else {
                    vec![]
                }
            }
            None => {
                let id = egraph.add_instantiation(&self.rhs, &subst);
                if egraph.union(eclass, id) {
                    vec![eclass]
                } else {
                    vec![]
                }
            }
        }
    }
}

/// Every rewrite of every law, with the table that maps rewrite names back
/// to laws.
pub struct Rewrites {
    /// Every rewrite, the growing ones last.
    pub rewrites: Vec<Rewrite<ENode, Algebra>>,
    /// How many of `rewrites`, from the start, do not grow terms.
    pub tidy: usize,
    /// Each rewrite's name with the law and direction it comes from.
    pub table: Vec<(String, LawRule)>,
}

impl Rewrites {
    /// The rewrites of every law in both directions it can be used in.
    pub fn new(laws: &Laws) -> Rewrites {
        let mut rewrites = vec![];
        let mut growing = vec![];
        let mut table = vec![];
        for (i, law) in laws.laws.iter().enumerate() {
            for (k, d) in law.directions().into_iter().enumerate() {
                let d2 = d.clone();
                let rule = LawRule {
                    law: i,
                    reversed: k == 1,
                    rhs: pattern_ast(&d.to),
                    metas: d.from.metas().into_iter().chain(d.to.metas()).collect(),
                    from: d.from,
                    to: d.to,
                    conds: d.conds,
                };
                let name = rule.name(laws);
                let searcher = Pattern::new(pattern_ast(&rule.from));
                let rw = Rewrite::new(name.clone(), searcher, rule.clone()).expect("directions bind their variables");
                if d2.grows {
                    growing.push(rw);
                } else {
                    rewrites.push(rw);
                }
                table.push((name, rule));
            }
        }
        let tidy = rewrites.len();
        rewrites.extend(growing);
        Rewrites { rewrites, tidy, table }
    }

    /// The rewrite named `name`, as egg's explanations name it.
    pub fn get(&self, name: &str) -> Option<&LawRule> {
        self.table.iter().find(|(n, _)| n == name).map(|(_, r)| r)
    }
}
