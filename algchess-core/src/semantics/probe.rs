//! Existence tests compiled to a tree of reads.
//!
//! Under `not`, only whether a move has a result matters. There a rule
//! anchored at the POI is just a list of reads around the POI: its guard,
//! its `#` cells off the board and its other written cells on it. Such
//! rules often share their first reads (`% + u. + uu♜` and
//! `% + u. + uu. + uuu♜`), so a tree reads each shared prefix once instead
//! of once per rule; a check test over many lines becomes a walk along
//! each line.

use super::cell_set::CellSet;
use super::rule::{Pivot, Rule};
use super::store::{State, Store};
use crate::geometry::Square;
use crate::ir::Cell;

/// Whether any of a set of anchored rules fits, as a tree of reads
/// relative to the POI; and lines of any length, `(% + e. -> . + e%)* R`,
/// which follow the board's size.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// Some rule reads nothing but the POI's own square (`% -> 0`,
    /// `% -> .`): it fits whenever a POI is bound.
    always: bool,
    /// Each rule's reads, the source of `branches`.
    lists: Vec<Reads>,
    branches: Vec<Branch>,
    rays: Vec<Ray>,
}

/// A rule's reads relative to the POI, nearest first, one per square.
pub(crate) type Reads = Vec<(Square, CellSet)>;

/// Reads that fit where either `a` or `b` does, when they read the same
/// squares and differ in what at most one of them reads (a grasshopper's
/// hurdle, any piece): that square reads either set.
pub(crate) fn either(a: &Reads, b: &Reads) -> Option<Reads> {
    if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.0 != y.0) {
        return None;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i].1 != b[i].1).collect();
    let mut out = a.clone();
    match differ[..] {
        [] => {}
        [i] => out[i].1 = a[i].1.union(&b[i].1),
        _ => return None,
    }
    Some(out)
}

/// `(% + step. -> . + step%){min,} R`: the POI walks over empty squares,
/// then one of the rules of `R` fits where it stops. A walk ends at the
/// board's edge, so the line is as long as the board allows.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ray {
    /// Reads before the walk, relative to the POI, as the board stands
    /// (a grasshopper's hurdle, and the square it lands beyond).
    pre: Reads,
    /// Where the walk starts, relative to the POI; once it is not the
    /// POI's own square, that square reads empty (the token left it).
    from: Square,
    step: Square,
    min: u32,
    /// The reads of each rule of `R`, relative to where the walk stops.
    rest: Vec<Reads>,
}

impl Ray {
    /// The longest walk a board of `width` by `height` squares has room
    /// for.
    fn longest(&self, width: i32, height: i32) -> u32 {
        let room = |d: i32, size: i32| {
            if d == 0 {
                u32::MAX
            } else {
                ((size - 1).max(0) / d.abs()) as u32
            }
        };
        room(self.step.x, width).min(room(self.step.y, height))
    }
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

fn empty() -> CellSet {
    CellSet::single(Cell::EMPTY)
}

fn chebyshev(q: Square) -> i32 {
    q.x.abs().max(q.y.abs())
}

/// `reads` with each square once (the sets intersected), nearest first;
/// `None` when a square can read nothing.
fn tidy(raw: impl IntoIterator<Item = (Square, CellSet)>) -> Option<Reads> {
    let mut reads: Reads = vec![];
    for (at, set) in raw {
        match reads.iter_mut().find(|(b, _)| *b == at) {
            Some((_, s)) => *s = s.intersection(&set),
            None => reads.push((at, set)),
        }
    }
    if reads.iter().any(|(_, s)| s.is_empty()) {
        return None;
    }
    reads.sort_by_key(|(q, _)| (chebyshev(*q), *q));
    Some(reads)
}

impl Probe {
    /// The probe of `rules`, or `None` when one of them is not anchored at
    /// the POI.
    pub fn new(rules: &[Rule]) -> Option<Probe> {
        let mut p = Probe::default();
        for r in rules {
            // `None`: the rule can never fit, and adds no branch.
            if let Some(reads) = Probe::reads(r)? {
                p.insert(reads);
            }
        }
        Some(p)
    }

    /// The probe of `(% + step. -> . + step%){min,} R` for the rules of
    /// `R`, or `None` when one of them is not anchored at the POI.
    pub fn ray(step: Square, min: u32, rules: &[Rule]) -> Option<Probe> {
        let mut rest = vec![];
        for r in rules {
            if let Some(reads) = Probe::reads(r)? {
                rest.push(reads);
            }
        }
        let mut p = Probe::default();
        if !rest.is_empty() {
            p.rays.push(Ray {
                pre: vec![],
                from: Square::ORIGIN,
                step,
                min,
                rest,
            });
        }
        Some(p)
    }

    /// The probe of a line that starts elsewhere: `pre` read first, then
    /// `(% + step. -> . + step%){min,} R` from `from`. `None` when a rule
    /// of `R` is not anchored, or `pre` can never fit.
    pub fn ray_from(pre: Reads, from: Square, step: Square, min: u32, rules: &[Rule]) -> Option<Probe> {
        let mut p = Probe::ray(step, min, rules)?;
        let pre = tidy(pre)?;
        for r in &mut p.rays {
            r.pre = pre.clone();
            r.from = from;
        }
        Some(p)
    }

    /// Whether either probe fits.
    pub fn or(mut self, o: Probe) -> Probe {
        self.always |= o.always;
        for reads in o.lists {
            self.insert(reads);
        }
        for r in o.rays {
            self.add_ray(r);
        }
        self
    }

    /// Adds a line, merged with one that differs from it only in what one
    /// square before the walk reads (a grasshopper's hurdle, any piece).
    fn add_ray(&mut self, r: Ray) {
        for q in &mut self.rays {
            if (q.from, q.step, q.min) != (r.from, r.step, r.min) || q.rest != r.rest {
                continue;
            }
            if let Some(pre) = either(&q.pre, &r.pre) {
                q.pre = pre;
                return;
            }
        }
        self.rays.push(r);
    }

    /// The reads of an anchored rule, nearest the POI first, one per
    /// square; `Some(None)` when it can never fit.
    #[allow(clippy::option_option)]
    pub(crate) fn reads(r: &Rule) -> Option<Option<Reads>> {
        let Pivot::Anchor(a) = r.pivot else { return None };
        let off = CellSet::single(Cell::Off);
        let on = on_board();
        let guard = r.guard.iter().map(|(q, s)| (*q, *s));
        let offs = r.offs.iter().map(|q| (*q, off));
        let writes = r.writes.iter().map(|(q, _)| (*q, on));
        let mut raw = vec![];
        for (q, set) in guard.chain(offs).chain(writes) {
            if q == a {
                // The POI's square reads `%` (the anchor) and is on the
                // board, so only a `#` there fails.
                if set == off {
                    return Some(None);
                }
                continue;
            }
            raw.push((q - a, set));
        }
        Some(tidy(raw))
    }

    /// Adds a rule's reads, unless a rule already there fits wherever it
    /// does (its reads are a subset, each no narrower); rules that it
    /// covers that way go.
    fn insert(&mut self, reads: Reads) {
        if reads.is_empty() {
            self.always = true;
            return;
        }
        // `a` fits wherever `b` does.
        let covers = |a: &Reads, b: &Reads| {
            a.iter()
                .all(|(q, s)| b.iter().any(|(r, t)| r == q && t.intersection(s) == *t))
        };
        if self.lists.iter().any(|l| covers(l, &reads)) {
            return;
        }
        if self.lists.iter().any(|l| covers(&reads, l)) {
            let kept: Vec<Reads> = std::mem::take(&mut self.lists)
                .into_iter()
                .filter(|l| !covers(&reads, l))
                .collect();
            self.branches.clear();
            for l in kept {
                self.grow(l);
            }
        }
        self.grow(reads);
    }

    /// Adds a rule's reads to the tree.
    fn grow(&mut self, reads: Reads) {
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
        self.lists.push(reads);
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
        let Some(p) = s.poi else { return Ok(false) };
        if self.always || go(&self.branches, &s.board, p)? {
            return Ok(true);
        }
        for r in &self.rays {
            if r.any(&s.board, p)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether some rule fits whenever a POI is bound, and the tree of
    /// reads: for back-ends that run the tree their own way. Lines of any
    /// length are not in the tree: see [`Probe::unrolled`].
    pub fn parts(&self) -> (bool, &[Branch]) {
        debug_assert!(self.rays.is_empty(), "unroll the lines first");
        (self.always, &self.branches)
    }

    /// Whether some line reads squares before its walk (`line_from`).
    #[cfg(test)]
    pub(crate) fn has_lines_from(&self) -> bool {
        self.rays.iter().any(|r| !r.pre.is_empty())
    }

    /// Whether the probe has lines of any length.
    pub fn has_lines(&self) -> bool {
        !self.rays.is_empty()
    }

    /// How many reads [`unrolled`](Probe::unrolled) writes for its lines:
    /// a line of length `k` is `k` reads, for each length the board has
    /// room for, so a board 65,536 squares wide has billions.
    pub fn unrolled_reads(&self, width: i32, height: i32) -> u64 {
        self.rays
            .iter()
            .map(|r| {
                let (lo, hi) = (u64::from(r.min), u64::from(r.longest(width, height)));
                let walks = (lo..=hi).map(|k| k + r.pre.len() as u64).sum::<u64>();
                walks.saturating_mul(r.rest.len() as u64)
            })
            .fold(0u64, u64::saturating_add)
    }

    /// The same probe on boards of at most `width` by `height` squares,
    /// each line written out to the longest the board has room for, so
    /// that it is a tree of reads.
    pub fn unrolled(&self, width: i32, height: i32) -> Probe {
        let mut p = Probe {
            always: self.always,
            lists: vec![],
            branches: vec![],
            rays: vec![],
        };
        for reads in &self.lists {
            p.insert(reads.clone());
        }
        for r in &self.rays {
            let longest = r.longest(width, height);
            let moved = r.from != Square::ORIGIN;
            for k in r.min..=longest {
                let walk = (1..=k as i32).map(|j| (r.from + Square::new(r.step.x * j, r.step.y * j), empty()));
                let there = r.from + Square::new(r.step.x * k as i32, r.step.y * k as i32);
                'rule: for rest in &r.rest {
                    let mut raw: Reads = r.pre.clone();
                    for (at, set) in walk.clone() {
                        if at == Square::ORIGIN {
                            continue;
                        }
                        raw.push((at, set));
                    }
                    for &(q, set) in rest {
                        let at = q + there;
                        if (moved || k > 0) && at == Square::ORIGIN {
                            // The walk has left the POI's square empty.
                            if !set.contains(Cell::EMPTY) {
                                continue 'rule;
                            }
                            continue;
                        }
                        raw.push((at, set));
                    }
                    if let Some(reads) = tidy(raw) {
                        p.insert(reads);
                    }
                }
            }
        }
        p
    }

    /// How far from the POI the probe reads, a line counted from where
    /// its walk stops (a square on the board): the border a mailbox needs.
    pub fn reach(&self) -> i32 {
        let far = |reads: &Reads| reads.iter().map(|(q, _)| chebyshev(*q)).max().unwrap_or(0);
        let lists = self.lists.iter().map(far);
        let rays = self.rays.iter().map(|r| {
            chebyshev(r.step)
                .max(r.rest.iter().map(far).max().unwrap_or(0))
                .max(far(&r.pre))
                .max(chebyshev(r.from))
        });
        lists.chain(rays).max().unwrap_or(0)
    }

    /// Number of reads in the tree.
    pub fn size(&self) -> usize {
        fn go(bs: &[Branch]) -> usize {
            bs.iter().map(|b| 1 + go(&b.then)).sum()
        }
        go(&self.branches)
    }
}

impl Ray {
    /// Whether the line fits from the POI `x`: reads as the walk would
    /// see the board, with the POI's square left empty once it has moved.
    fn any<S: Store>(&self, b: &S, x: Square) -> Result<bool, S::Unknown> {
        for &(q, set) in &self.pre {
            if !b.reads(x + q, &set)? {
                return Ok(false);
            }
        }
        let moved = self.from != Square::ORIGIN;
        let mut at = x + self.from;
        let mut k = 0u32;
        loop {
            if k >= self.min {
                for rest in &self.rest {
                    let mut fits = true;
                    for &(q, set) in rest {
                        let sq = at + q;
                        let ok = if (moved || k > 0) && sq == x {
                            set.contains(Cell::EMPTY)
                        } else {
                            b.reads(sq, &set)?
                        };
                        if !ok {
                            fits = false;
                            break;
                        }
                    }
                    if fits {
                        return Ok(true);
                    }
                }
            }
            let next = at + self.step;
            if next != x && !b.reads(next, &empty())? {
                return Ok(false);
            }
            at = next;
            k += 1;
        }
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
            let g = Grid::parse(rows, &crate::ir::Pieces::chess()).unwrap();
            let king = g.candidates(crate::ir::Content::Piece(crate::ir::PieceId::chess("♔").unwrap()))[0];
            let s = State {
                board: g,
                poi: Some(king),
            };
            let expected = crate::semantics::Eval::default().exists(&prog, &s).unwrap();
            assert_eq!(p.any(&s).unwrap(), expected, "{rows}");
        }
    }
}
