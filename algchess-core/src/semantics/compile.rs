//! Closed core terms to a form the evaluator runs directly: patterns
//! expanded into rule pairs, and each rule's cells sorted for matching.

use super::cell_set::CellSet;
use super::probe::Probe;
use super::rule::{merged, Pivot, Rule};
use crate::geometry::Square;
use crate::ir::{Bounds, Cell, Content, Fragment, Node, PieceId, Term};

/// A compiled move. It mirrors the move constructors of the core IR one for
/// one; only rules change shape.
#[derive(Clone, Debug)]
pub enum Prog {
    /// `nil`: the state itself.
    Nil,
    /// `fail`: no result.
    Fail,
    /// The union of these rules (`P -> Q` is one rule per pair).
    Rules(Vec<Rule>),
    /// `%c: M`: the body with the POI on each square holding `c`.
    Bind(Content, Box<Prog>),
    /// The first, then the second on each of its results.
    Seq(Box<Prog>, Box<Prog>),
    /// The results of every branch.
    Alt(Vec<Prog>),
    /// `M{lo,hi}`.
    Repeat(Box<Prog>, Bounds),
    /// `not M`: the state itself when the body has no result on it.
    Not(Box<Prog>),
    /// `M*!`: repeat while the body applies; the states where it stops.
    Greedy(Box<Prog>),
    /// Anchored rules where only whether one fits matters (under `not`):
    /// the rules, and the same as a tree of reads.
    Probe(Box<Prog>, Probe),
    /// Where only whether it has a result matters (under `not`): pieces of
    /// a set taken off one at a time, then one more asked for (`(S -> .)
    /// (S -> .) holds(S)`), which is whether at least this many squares
    /// (the POI's aside) hold one of the set. The move it was compiled
    /// from is kept, for the evaluator.
    Count(Box<Prog>, CellSet, u32),
}

impl Prog {
    /// The same move for a caller that asks only whether it has a result:
    /// anchored rules, wherever they decide that, become probes, and so do
    /// lines of any length, `(% + e. -> . + e%)* R` with `R` anchored rules.
    fn for_existence(self) -> Prog {
        if let Some((set, n)) = count(&self) {
            return Prog::Count(Box::new(self), set, n);
        }
        match self {
            Prog::Rules(rules) => match Probe::new(&rules) {
                Some(p) => Prog::Probe(Box::new(Prog::Rules(rules)), p),
                None => Prog::Rules(rules),
            },
            Prog::Bind(c, body) => Prog::Bind(c, Box::new(body.for_existence())),
            Prog::Seq(a, b) => match line(&a, &b).or_else(|| line_from(&a, &b)) {
                Some(p) => Prog::Probe(Box::new(Prog::Seq(a, b)), p),
                None => Prog::Seq(a, Box::new(b.for_existence())),
            },
            // `not not M` has a result exactly when `M` has one.
            Prog::Not(m) => match *m {
                Prog::Not(inner) => *inner,
                m => Prog::Not(Box::new(m)),
            },
            Prog::Alt(arms) => {
                // The arms that are anchored rules or lines become one probe.
                let mut probe: Option<(Vec<Prog>, Probe)> = None;
                let mut rest = vec![];
                for a in arms {
                    let p = match &a {
                        Prog::Rules(rules) => Probe::new(rules),
                        Prog::Seq(x, y) => line(x, y).or_else(|| line_from(x, y)),
                        _ => None,
                    };
                    match (p, &mut probe) {
                        (Some(p), Some((progs, acc))) => {
                            progs.push(a);
                            *acc = std::mem::take(acc).or(p);
                        }
                        (Some(p), None) => probe = Some((vec![a], p)),
                        (None, _) => rest.push(a.for_existence()),
                    }
                }
                let mut arms = rest;
                if let Some((mut progs, p)) = probe {
                    let plain = if progs.len() == 1 {
                        progs.pop().expect("one arm")
                    } else {
                        Prog::Alt(progs)
                    };
                    arms.insert(0, Prog::Probe(Box::new(plain), p));
                }
                if arms.len() == 1 {
                    arms.pop().expect("one arm")
                } else {
                    Prog::Alt(arms)
                }
            }
            p => p,
        }
    }

    /// Every piece the move reads, writes or binds.
    pub fn pieces(&self) -> Vec<PieceId> {
        fn go(p: &Prog, out: &mut Vec<PieceId>) {
            match p {
                Prog::Nil | Prog::Fail => {}
                Prog::Rules(rules) => {
                    for r in rules {
                        let guard = r.guard.iter().flat_map(|(_, s)| s.cells().collect::<Vec<_>>());
                        for c in guard.chain(r.writes.iter().map(|(_, c)| *c)) {
                            if let Cell::Is(Content::Piece(p)) = c {
                                out.push(p);
                            }
                        }
                    }
                }
                Prog::Bind(c, body) => {
                    if let Content::Piece(p) = c {
                        out.push(*p);
                    }
                    go(body, out);
                }
                Prog::Seq(a, b) => {
                    go(a, out);
                    go(b, out);
                }
                Prog::Alt(arms) => arms.iter().for_each(|a| go(a, out)),
                Prog::Repeat(a, _) | Prog::Not(a) | Prog::Greedy(a) | Prog::Probe(a, _) | Prog::Count(a, ..) => {
                    go(a, out)
                }
            }
        }
        let mut out = vec![];
        go(self, &mut out);
        out.sort();
        out.dedup();
        out
    }
}

/// The pieces a rule reads on the one square it reads, when it reads
/// one, and that square is whichever holds one of them (the POI's aside):
/// no `%`, no `#`, no empty square read.
fn one_square(r: &Rule) -> Option<CellSet> {
    let [(q, set)] = &r.guard[..] else { return None };
    let pieces_only = set.cells().all(|c| matches!(c, Cell::Is(Content::Piece(_))));
    let here = r.offs.is_empty() && !r.needs_poi && r.writes.iter().all(|(w, c)| w == q && *c != Cell::Poi);
    (*q == Square::ORIGIN && pieces_only && here && !set.is_empty()).then_some(*set)
}

/// `S -> .`: the pieces of `S` taken off wherever they stand; `S`.
fn takes(p: &Prog) -> Option<CellSet> {
    let Prog::Rules(rules) = p else { return None };
    let empty = Cell::Is(Content::Empty);
    rules.iter().try_fold(CellSet::default(), |acc, r| {
        let set = one_square(r)?;
        matches!(&r.writes[..], [(_, c)] if *c == empty).then(|| acc.union(&set))
    })
}

/// A move that, where only whether it has a result matters, asks for at
/// least `n` squares holding pieces of a set `S`: rules that read one
/// square holding one of `S` (`holds(S)`, `n = 1`), after `S -> .` taken
/// `n - 1` times (each takes a piece of `S` off, as the squares it
/// empties can hold none again).
fn count(p: &Prog) -> Option<(CellSet, u32)> {
    match p {
        Prog::Rules(rules) if !rules.is_empty() => rules
            .iter()
            .try_fold(CellSet::default(), |acc, r| Some(acc.union(&one_square(r)?)))
            .map(|s| (s, 1)),
        Prog::Seq(a, b) => {
            let s = takes(a)?;
            let (t, n) = count(b)?;
            (s == t).then_some((s, n + 1))
        }
        Prog::Count(_, s, n) => Some((*s, *n)),
        _ => None,
    }
}

/// `walk{i,} R`, a walk of the POI over empty squares (`% + e. -> . +
/// e%`) then anchored rules: the walk's step, its least length and the
/// rules.
fn walk_then(walk: &Prog, rest: &Prog) -> Option<(Square, u32, Vec<Rule>)> {
    let Prog::Repeat(m, Bounds { lo, hi: None }) = walk else {
        return None;
    };
    let Prog::Rules(w) = &**m else { return None };
    let [w] = &w[..] else { return None };
    let step = w.walk_step()?;
    let rules: Vec<Rule> = match rest {
        Prog::Rules(rules) => rules.clone(),
        Prog::Alt(arms) => arms
            .iter()
            .map(|a| match a {
                Prog::Rules(rules) => Some(rules.clone()),
                Prog::Fail => Some(vec![]),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?
            .concat(),
        _ => return None,
    };
    Some((step, *lo, rules))
}

/// `walk{i,} R` as a line's probe.
fn line(walk: &Prog, rest: &Prog) -> Option<Probe> {
    let (step, lo, rules) = walk_then(walk, rest)?;
    Probe::ray(step, lo, &rules)
}

/// `T… S walk{i,} R`: tests `T` (anchored rules that leave the POI where
/// it is), then at most one step `S` of the POI (`% + d X -> . + d%`), then
/// a line: as a line's probe that starts where the step leads. A
/// grasshopper's derived attack reads so: the hurdle beside the king, the
/// step over it, then the line back to the grasshopper.
///
/// Only whether the move has a result matters, so a test counts by its
/// reads alone, provided nothing after it reads a square it writes.
fn line_from(a: &Prog, b: &Prog) -> Option<Probe> {
    fn flat<'p>(p: &'p Prog, out: &mut Vec<&'p Prog>) {
        match p {
            Prog::Seq(x, y) => {
                flat(x, out);
                flat(y, out);
            }
            Prog::Nil => {}
            _ => out.push(p),
        }
    }
    // A union of rules, as one list.
    fn rules_of(p: &Prog) -> Option<Vec<Rule>> {
        match p {
            Prog::Rules(r) => Some(r.clone()),
            Prog::Alt(arms) => Some(arms.iter().map(rules_of).collect::<Option<Vec<_>>>()?.concat()),
            _ => None,
        }
    }
    let mut items = vec![];
    flat(a, &mut items);
    flat(b, &mut items);
    let [pre @ .., walk, rest] = &items[..] else {
        return None;
    };
    if pre.is_empty() {
        return None;
    }
    let (tests, step) = match pre {
        [tests @ .., Prog::Rules(s)] if s.len() == 1 && s[0].step().is_some() => (tests, s[0].step()),
        _ => (pre, None),
    };
    let mut reads = vec![];
    let mut written = vec![];
    for item in tests {
        let rules = rules_of(item)?;
        // Tests that differ in what one square reads: one test.
        let mut one: Option<Vec<(Square, CellSet)>> = None;
        for r in &rules {
            let Pivot::Anchor(at) = r.pivot else { return None };
            if !r.writes.contains(&(at, Cell::Poi)) {
                return None;
            }
            written.extend(r.writes.iter().filter(|(q, _)| *q != at).map(|(q, _)| *q - at));
            let Some(these) = Probe::reads(r)? else { continue };
            one = Some(match one {
                None => these,
                Some(one) => super::probe::either(&one, &these)?,
            });
        }
        // A test that can never fit: leave the move as it is.
        reads.extend(one?);
    }
    let from = match step {
        Some((d, set)) => {
            reads.push((d, set));
            d
        }
        None => Square::ORIGIN,
    };
    let (dir, lo, rules) = walk_then(walk, rest)?;
    // Whether `v` is a whole number of the walk's steps, none or more.
    let along = |v: Square| {
        let k = if dir.x != 0 { v.x / dir.x } else { v.y / dir.y };
        k >= 0 && v == Square::new(dir.x * k, dir.y * k)
    };
    let rests: Vec<(Square, CellSet)> = rules
        .iter()
        .filter_map(|r| Probe::reads(r).flatten())
        .flatten()
        .collect();
    // The step, the walk, or a rule of `R` from where the walk may stop.
    let read_later = |q: Square| from == q || along(q - from) || rests.iter().any(|(r, _)| along(q - *r - from));
    if written.iter().any(|q| read_later(*q)) {
        return None;
    }
    Probe::ray_from(reads, from, dir, lo, &rules)
}

/// Why a term cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    NotAMove,
    /// The term still has metavariables; laws are checked by instantiating
    /// them first.
    Open,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CompileError::NotAMove => "not a move",
            CompileError::Open => "the term has metavariables",
        })
    }
}

impl std::error::Error for CompileError {}

fn members(t: &Term) -> Result<Vec<Fragment>, CompileError> {
    t.as_pattern()
        .map(|p| p.members().cloned().collect())
        .ok_or(CompileError::Open)
}

/// `(M{i,j}){k,l}` as one repetition where that is exact, so that a star
/// of a star runs as one fixpoint, not as a fixpoint from every state of
/// another.
///
/// `(M{0,j})^t` is `M{0,jt}`, so the union over `t` in `k..=l` is
/// `M{0,jl}`; `(M{i,})^t` is `M{it,}` for `t ≥ 1`, so the union is
/// `M{ik,}` when `k ≥ 1`, and `nil | M{i,}` when `k = 0`.
fn nested(inner: Prog, outer: Bounds) -> Prog {
    let keep = |inner: Prog| Prog::Repeat(Box::new(inner), outer);
    let Prog::Repeat(m, ib) = &inner else {
        return keep(inner);
    };
    if outer.hi == Some(0) {
        return Prog::Nil;
    }
    let m = m.clone();
    match (ib.lo, ib.hi, outer.hi) {
        (0, Some(0), _) => Prog::Nil,
        (0, Some(j), Some(l)) => match j.checked_mul(l) {
            Some(hi) => Prog::Repeat(m, Bounds { lo: 0, hi: Some(hi) }),
            None => keep(inner),
        },
        (0, _, _) => Prog::Repeat(m, Bounds::STAR),
        (1, None, _) if outer.lo == 0 => Prog::Repeat(m, Bounds::STAR),
        (i, None, _) if outer.lo == 0 => Prog::Alt(vec![Prog::Nil, Prog::Repeat(m, Bounds { lo: i, hi: None })]),
        (i, None, _) => match i.checked_mul(outer.lo) {
            Some(lo) => Prog::Repeat(m, Bounds { lo, hi: None }),
            None => keep(inner),
        },
        _ => keep(inner),
    }
}

/// Compiles a closed move.
pub fn compile(t: &Term) -> Result<Prog, CompileError> {
    Ok(match t.node() {
        Node::Nil => Prog::Nil,
        Node::Fail => Prog::Fail,
        Node::Rule([f, g]) => {
            let (fs, gs) = (members(f)?, members(g)?);
            Prog::Rules(merged(
                fs.iter()
                    .flat_map(|f| gs.iter().map(move |g| Rule::new(f, g)))
                    .collect(),
            ))
        }
        Node::Bind([c, body]) => match c.node() {
            Node::Cell(c) => Prog::Bind(*c, Box::new(compile(body)?)),
            _ => return Err(CompileError::Open),
        },
        Node::Seq([a, b]) => Prog::Seq(Box::new(compile(a)?), Box::new(compile(b)?)),
        Node::Alt([a, b]) => {
            let mut arms = vec![];
            for x in [a, b] {
                match compile(x)? {
                    Prog::Alt(v) => arms.extend(v),
                    p => arms.push(p),
                }
            }
            Prog::Alt(arms)
        }
        Node::Repeat([a, ..]) => nested(compile(a)?, t.bounds().ok_or(CompileError::Open)?),
        Node::Not([a]) => Prog::Not(Box::new(compile(a)?.for_existence())),
        Node::Greedy([a]) => Prog::Greedy(Box::new(compile(a)?)),
        Node::Var(_) | Node::Apply(..) => return Err(CompileError::Open),
        _ => return Err(CompileError::NotAMove),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Movement;
    use crate::ir::{gen, Bounds, Cell, Fragment, Pattern};
    use crate::semantics::{Eval, Grid, State, Store};

    /// The same program with every probe replaced by the rules it was
    /// compiled from: the plain rule-by-rule meaning.
    fn plain(p: &Prog) -> Prog {
        let b = |p: &Prog| Box::new(plain(p));
        match p {
            Prog::Nil | Prog::Fail | Prog::Rules(_) => p.clone(),
            Prog::Bind(c, m) => Prog::Bind(*c, b(m)),
            Prog::Seq(x, y) => Prog::Seq(b(x), b(y)),
            Prog::Alt(arms) => Prog::Alt(arms.iter().map(plain).collect()),
            Prog::Repeat(m, bounds) => Prog::Repeat(b(m), *bounds),
            Prog::Not(m) => Prog::Not(b(m)),
            Prog::Greedy(m) => Prog::Greedy(b(m)),
            Prog::Probe(m, _) | Prog::Count(m, ..) => plain(m),
        }
    }

    fn probes(p: &Prog) -> usize {
        match p {
            Prog::Nil | Prog::Fail | Prog::Rules(_) => 0,
            Prog::Probe(m, _) => 1 + probes(m),
            Prog::Bind(_, m) | Prog::Repeat(m, _) | Prog::Not(m) | Prog::Greedy(m) | Prog::Count(m, ..) => probes(m),
            Prog::Seq(x, y) => probes(x) + probes(y),
            Prog::Alt(arms) => arms.iter().map(probes).sum(),
        }
    }

    /// Pieces taken off one at a time and one more asked for, under
    /// `not`, is a count of the pieces (the POI's square aside), and
    /// answers as the rules it stands for.
    #[test]
    fn pieces_taken_off_are_counted() {
        let prog = crate::elab::Program::from_text(
            "count.alg",
            "s = ♙ | ♘\nholds(f) = f -> f\nthree = not ((s -> .) (s -> .) holds(s))\nnear = not ((s -> .) holds(♘))\n",
        )
        .unwrap();
        let three = compile(prog.definition("three").unwrap()).unwrap();
        let Prog::Not(inner) = &three else { panic!("{three:?}") };
        assert!(matches!(**inner, Prog::Count(_, _, 3)), "{inner:?}");
        // Taking one set off and asking for another is no count.
        let near = compile(prog.definition("near").unwrap()).unwrap();
        let Prog::Not(inner) = &near else { panic!("{near:?}") };
        assert!(!matches!(**inner, Prog::Count(..)), "{inner:?}");
        let pieces = prog.pieces();
        for (board, fewer) in [
            ("♙♘./...", true),
            ("♙♘♙/...", false),
            ("♙../♘.♞", true),
            ("♘♘♘/♘..", false),
        ] {
            let g = Grid::parse(board, pieces).unwrap();
            let state = State { board: g, poi: None };
            let counted = !Eval::default().run(&three, &state).unwrap().is_empty();
            assert_eq!(counted, fewer, "{board}");
            assert_eq!(
                counted,
                !Eval::default().run(&plain(&three), &state).unwrap().is_empty(),
                "{board}"
            );
        }
    }

    /// Nested repetitions compiled as one mean what the nesting means.
    #[test]
    fn nested_repetitions_flatten_exactly() {
        let bounds = |g: &mut crate::rng::Rng| {
            let pick = |g: &mut crate::rng::Rng, n: u32| g.below(n);
            let lo = pick(g, 3);
            match pick(g, 3) {
                0 => Bounds { lo, hi: None },
                _ => Bounds {
                    lo,
                    hi: Some(lo + pick(g, 3)),
                },
            }
        };
        let mut flattened = 0;
        for seed in 0..400u64 {
            let mut g = crate::rng::Rng::new(seed);
            let m = compile(&gen::a_move(&mut g, 1)).unwrap();
            let (ib, ob) = (bounds(&mut g), bounds(&mut g));
            let slow = Prog::Repeat(Box::new(Prog::Repeat(Box::new(m.clone()), ib)), ob);
            let fast = nested(Prog::Repeat(Box::new(m), ib), ob);
            flattened += !matches!(&fast, Prog::Repeat(x, _) if matches!(**x, Prog::Repeat(..))) as usize;
            for b in 0..4 {
                let board: Grid = Grid::random(&mut g, 1 + (b % 2), 1 + (b / 2));
                let s = State { board, poi: None };
                let mut e = Eval::default();
                let set = |v: Vec<State<Grid>>| v.into_iter().collect::<std::collections::BTreeSet<_>>();
                assert_eq!(
                    set(e.run(&fast, &s).unwrap()),
                    set(e.run(&slow, &s).unwrap()),
                    "{ib:?} inside {ob:?} on {:?}",
                    s.board
                );
            }
        }
        assert!(flattened >= 150, "only {flattened} flattened");
    }

    /// A union of rules anchored on `%`, the shape probes compile: some
    /// read only the POI's square, some read or write nothing else, some
    /// put cells off the board.
    fn anchored_union(g: &mut crate::rng::Rng) -> Term {
        let pick = |g: &mut crate::rng::Rng, n: u32| g.below(n);
        let mut t = Term::fail();
        for _ in 0..1 + pick(g, 4) {
            let f = match pick(g, 3) {
                0 => Fragment::single(Cell::Poi),
                _ => gen::fragment(g, false)
                    .glue(&Fragment::single(Cell::Poi).shifted(&Movement::translation(1, 0)))
                    .unwrap_or_else(|_| Fragment::single(Cell::Poi)),
            };
            let g_ = match pick(g, 4) {
                0 => Fragment::empty(),
                1 => Fragment::single(Cell::Poi),
                _ => gen::fragment(g, true),
            };
            let rule = Term::rule(&Term::pattern(Pattern::single(f)), &Term::pattern(Pattern::single(g_)));
            t = Term::alt(&rule, &t);
        }
        if pick(g, 3) == 0 {
            t = Term::bind(&Term::content(gen::content(g)), &t);
        }
        t
    }

    fn lines_of(p: &Prog) -> Vec<&Probe> {
        match p {
            Prog::Nil | Prog::Fail | Prog::Rules(_) => vec![],
            Prog::Probe(m, probe) => {
                let mut v = lines_of(m);
                if probe.has_lines() {
                    v.push(probe);
                }
                v
            }
            Prog::Bind(_, m) | Prog::Repeat(m, _) | Prog::Not(m) | Prog::Greedy(m) | Prog::Count(m, ..) => lines_of(m),
            Prog::Seq(x, y) => [lines_of(x), lines_of(y)].concat(),
            Prog::Alt(arms) => arms.iter().flat_map(lines_of).collect(),
        }
    }

    /// A line: the POI walks over empty squares, at least 0 or 1 steps,
    /// then anchored rules read where it stops.
    fn a_line(g: &mut crate::rng::Rng) -> Term {
        let pick = |g: &mut crate::rng::Rng, n: u32| g.below(n);
        let e = [(1, 0), (0, 1), (1, 1), (-1, 2), (-1, 0)][pick(g, 5) as usize];
        let m = Movement::translation(e.0, e.1);
        let f = Fragment::single(Cell::Poi)
            .glue(&Fragment::single(Cell::Is(crate::ir::Content::Empty)).shifted(&m))
            .unwrap();
        let g_ = Fragment::single(Cell::Is(crate::ir::Content::Empty))
            .glue(&Fragment::single(Cell::Poi).shifted(&m))
            .unwrap();
        let walk = Term::rule(&Term::pattern(Pattern::single(f)), &Term::pattern(Pattern::single(g_)));
        let lo = pick(g, 2);
        Term::seq(&Term::repeat(&walk, Bounds { lo, hi: None }), &anchored_union(g))
    }

    /// Tests that keep the POI where it is, a step of the POI to a square
    /// reading something, then a line (a grasshopper's attack): the shape
    /// of `line_from`.
    fn a_line_from(g: &mut crate::rng::Rng) -> Term {
        let pick = |g: &mut crate::rng::Rng, n: u32| g.below(n);
        let at = Movement::translation(pick(g, 3) as i32 - 1, pick(g, 3) as i32 - 1);
        let poi = Fragment::single(Cell::Poi);
        let test = |g: &mut crate::rng::Rng| {
            let f = gen::fragment(g, false)
                .glue(&poi.shifted(&at))
                .unwrap_or_else(|_| poi.clone());
            let g_ = match pick(g, 2) {
                0 => f.clone(),
                _ => gen::fragment(g, true)
                    .glue(&poi.shifted(&at))
                    .unwrap_or_else(|_| poi.clone()),
            };
            Term::rule(&Term::pattern(Pattern::single(f)), &Term::pattern(Pattern::single(g_)))
        };
        let mut t = Term::nil();
        for _ in 0..pick(g, 3) {
            let one = Term::alt(&test(g), &test(g));
            t = Term::seq(&t, &one);
        }
        if pick(g, 3) > 0 {
            let d = [(0, 2), (2, 2), (-1, 0), (1, 2)][pick(g, 4) as usize];
            let m = Movement::translation(d.0, d.1);
            let what = match pick(g, 2) {
                0 => Cell::Is(crate::ir::Content::Empty),
                _ => Cell::Is(gen::content(g)),
            };
            let f = poi.glue(&Fragment::single(what).shifted(&m)).unwrap();
            let g_ = Fragment::single(Cell::Is(crate::ir::Content::Empty))
                .glue(&poi.shifted(&m))
                .unwrap();
            t = Term::seq(
                &t,
                &Term::rule(&Term::pattern(Pattern::single(f)), &Term::pattern(Pattern::single(g_))),
            );
        }
        Term::seq(&t, &a_line(g))
    }

    /// Every test compiled with probes answers as the same test run rule by
    /// rule, on random boards with the POI on every square.
    #[test]
    fn probes_answer_as_their_rules() {
        let (mut probed, mut lines, mut lines_from) = (0, 0, 0);
        for seed in 0..1200u64 {
            let mut g = crate::rng::Rng::new(seed);
            let m = match seed % 4 {
                0 => anchored_union(&mut g),
                1 => gen::a_move(&mut g, 2),
                2 => a_line(&mut g),
                _ => a_line_from(&mut g),
            };
            let test = Term::not(&m);
            let fast = compile(&test).unwrap();
            let slow = plain(&fast);
            probed += probes(&fast);
            lines += lines_of(&fast).len();
            lines_from += lines_of(&fast).iter().filter(|p| p.has_lines_from()).count();
            for b in 0..8 {
                let board: Grid = Grid::random(&mut g, 1 + (b % 4), 1 + (b / 4) * 3);
                let mut pois: Vec<Option<crate::geometry::Square>> = vec![None];
                pois.extend(board.squares().iter().filter(|q| board.get(*q).is_some()).map(Some));
                for poi in pois {
                    let s = State {
                        board: board.clone(),
                        poi,
                    };
                    let mut e = Eval::default();
                    // The engine's form of a line, written out to the board.
                    if s.poi.is_some() {
                        for p in lines_of(&fast) {
                            let unrolled = p.unrolled(board.width(), board.height());
                            assert_eq!(unrolled.any(&s), p.any(&s), "{m:?} on {:?} with POI {poi:?}", board);
                        }
                    }
                    assert_eq!(
                        e.run(&fast, &s).unwrap(),
                        e.run(&slow, &s).unwrap(),
                        "not ({m:?}) on {:?} with POI {poi:?}",
                        board
                    );
                }
            }
        }
        assert!(probed >= 300, "only {probed} probes exercised");
        assert!(lines >= 150, "only {lines} lines exercised");
        assert!(
            lines_from >= 30,
            "only {lines_from} lines after tests and a step exercised"
        );
    }
}
