//! Existence tests compiled to a tree of reads.
//!
//! Under `not`, only whether a move has a result matters. There a rule
//! anchored at the POI is just a list of reads around the POI: its guard,
//! its `#` cells off the board and its other written cells on it (§6). Such
//! rules often share their first reads (`% + u. + uu♜` and
//! `% + u. + uu. + uuu♜`), so a tree reads each shared prefix once instead
//! of once per rule; a check test over many lines becomes a walk along
//! each line.

use super::compile::{CellSet, Pivot, Rule};
use super::store::{State, Store};
use crate::core::Cell;
use crate::geometry::Square;

/// Whether any of a set of anchored rules fits, as a tree of reads
/// relative to the POI.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// Some rule reads nothing but the POI's own square (`% -> 0`,
    /// `% -> .`): it fits whenever a POI is bound.
    always: bool,
    branches: Vec<Branch>,
}

/// One read: the square at `at` from the POI reads one of `set`; then a
/// rule is complete (`done`) or one of `then` must hold too.
#[derive(Clone, Debug)]
pub struct Branch {
    pub at: Square,
    pub set: CellSet,
    pub done: bool,
    pub then: Vec<Branch>,
}

/// Every cell a square on the board may read.
fn on_board() -> CellSet {
    CellSet::single(Cell::Off).complement()
}

impl Probe {
    /// The probe of `rules`, or `None` when one of them is not anchored at
    /// the POI.
    pub fn new(rules: &[Rule]) -> Option<Probe> {
        let mut p = Probe::default();
        for r in rules {
            // `None`: the rule can never fit, and adds no branch.
            if let Some(reads) = Probe::reads(r)? {
                p.insert(&reads);
            }
        }
        Some(p)
    }

    /// The reads of an anchored rule, nearest the POI first, one per
    /// square; `Some(None)` when it can never fit.
    #[allow(clippy::option_option)]
    fn reads(r: &Rule) -> Option<Option<Vec<(Square, CellSet)>>> {
        let Pivot::Anchor(a) = r.pivot else { return None };
        let mut reads: Vec<(Square, CellSet)> = vec![];
        let off = CellSet::single(Cell::Off);
        let on = on_board();
        let guard = r.guard.iter().map(|(q, s)| (*q, *s));
        let offs = r.offs.iter().map(|q| (*q, off));
        let writes = r.writes.iter().map(|(q, _)| (*q, on));
        for (q, set) in guard.chain(offs).chain(writes) {
            if q == a {
                // The POI's square reads `%` (the anchor) and is on the
                // board, so only a `#` there fails.
                if set == off {
                    return Some(None);
                }
                continue;
            }
            let at = q - a;
            match reads.iter_mut().find(|(b, _)| *b == at) {
                Some((_, s)) => *s = s.intersection(&set),
                None => reads.push((at, set)),
            }
        }
        if reads.iter().any(|(_, s)| s.is_empty()) {
            return Some(None);
        }
        reads.sort_by_key(|(q, _)| (q.x.abs().max(q.y.abs()), *q));
        Some(Some(reads))
    }

    fn insert(&mut self, reads: &[(Square, CellSet)]) {
        if reads.is_empty() {
            self.always = true;
            return;
        }
        let mut level = &mut self.branches;
        for (k, &(at, set)) in reads.iter().enumerate() {
            let i = match level.iter().position(|b| b.at == at && b.set == set) {
                Some(i) => i,
                None => {
                    level.push(Branch {
                        at,
                        set,
                        done: false,
                        then: vec![],
                    });
                    level.len() - 1
                }
            };
            if k + 1 == reads.len() {
                level[i].done = true;
            }
            level = &mut level[i].then;
        }
    }

    /// Whether one of the rules fits `s`.
    pub fn any<S: Store>(&self, s: &State<S>) -> Result<bool, S::Unknown> {
        fn go<S: Store>(bs: &[Branch], b: &S, p: Square) -> Result<bool, S::Unknown> {
            for br in bs {
                if b.reads(p + br.at, &br.set)? && (br.done || go(&br.then, b, p)?) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        match s.poi {
            Some(p) => Ok(self.always || go(&self.branches, &s.board, p)?),
            None => Ok(false),
        }
    }

    /// Whether some rule fits whenever a POI is bound, and the tree of
    /// reads: for back-ends that run the tree their own way.
    pub fn parts(&self) -> (bool, &[Branch]) {
        (self.always, &self.branches)
    }

    /// Number of reads in the tree.
    pub fn size(&self) -> usize {
        fn go(bs: &[Branch]) -> usize {
            bs.iter().map(|b| 1 + go(&b.then)).sum()
        }
        go(&self.branches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::{compile, Grid, Prog};

    fn probe(src: &str) -> (Prog, Probe) {
        let mut prog = crate::elab::Program::from_text("t.alg", "").unwrap();
        let t = prog.expr("test", src).unwrap();
        let p = compile(&t).unwrap();
        let rules = match &p {
            Prog::Rules(r) => r.clone(),
            Prog::Alt(arms) => arms
                .iter()
                .flat_map(|a| match a {
                    Prog::Rules(r) => r.clone(),
                    _ => panic!("only rules"),
                })
                .collect(),
            _ => panic!("only rules"),
        };
        (p, Probe::new(&rules).expect("anchored"))
    }

    #[test]
    fn shared_prefixes_are_read_once() {
        let (_, p) = probe("(% + u. + uu♜ -> % + u. + uu♜) | (% + u. + uu. + uuu♜ -> % + u. + uu. + uuu♜)");
        // `u.` and `uu.` once each, then the two rooks.
        assert_eq!(p.size(), 4);
    }

    #[test]
    fn probes_agree_with_the_evaluator() {
        let (prog, p) = probe("(% + u. + uu♜ -> .) | (% + r# -> %) | (% + u♜ -> . + u%) | (% -> #)");
        for rows in ["♜\n.\n♔", ".\n♜\n♔", "♜\n♜\n♔", "♔♜\n..", ".\n.\n♔"] {
            let g = Grid::parse(rows).unwrap();
            let king = g.candidates(crate::core::Content::Piece(crate::core::PieceId::lookup("♔").unwrap()))[0];
            let s = State {
                board: g,
                poi: Some(king),
            };
            let expected = crate::semantics::Eval::default().exists(&prog, &s).unwrap();
            assert_eq!(p.any(&s).unwrap(), expected, "{rows}");
        }
    }
}
