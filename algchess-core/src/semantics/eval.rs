//! The evaluator: a compiled move maps a state to its finite set of result
//! states, exactly as "What moves mean" in docs/language.md says.

use super::code::Code;
use super::compile::Prog;
use super::rule::{Pivot, Rule};
use super::store::{State, Store};
use crate::geometry::Square;
use crate::ir::{Bounds, Cell};
use crate::memory::{Budget, MemoryLimit, Spent};
use rustc_hash::FxHashSet;

/// Why evaluation stopped without a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt<U> {
    /// The store could not answer a question (symbolic boards only).
    Unknown(U),
    /// More intermediate states than the budget allows.
    Budget(usize),
    /// The process held more heap than the limit allows.
    Memory(MemoryLimit),
    /// The budget's deadline passed, or its flag was set.
    Time,
}

impl<U> From<U> for Halt<U> {
    fn from(u: U) -> Halt<U> {
        Halt::Unknown(u)
    }
}

type Res<T, S> = Result<T, Halt<<S as Store>::Unknown>>;

/// Runs compiled moves, counting the states it makes against a budget.
pub struct Eval {
    budget: usize,
    made: usize,
    memory: MemoryLimit,
    /// The clock and flag of the caller's budget, read every
    /// `CLOCK_EVERY` states; `None` when it has neither.
    clock: Option<Budget>,
}

/// States made between two readings of a budget's clock and flag.
const CLOCK_EVERY: usize = 1024;

impl Eval {
    /// The states a run may make unless told otherwise: far more than any
    /// bundled move needs, few enough to end a runaway in seconds.
    pub const DEFAULT_BUDGET: usize = 50_000_000;
}

impl Default for Eval {
    fn default() -> Self {
        Eval::new(Eval::DEFAULT_BUDGET)
    }
}

/// Whether two lists of distinct states hold the same states.
fn same_states<S: Store>(a: &[State<S>], b: &[State<S>]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        return a.iter().all(|x| b.contains(x));
    }
    let set: FxHashSet<&State<S>> = b.iter().collect();
    a.iter().all(|x| set.contains(x))
}

/// The states without repeats, in first-seen order. Most result sets are
/// small, and comparing a few boards is cheaper than hashing them.
fn dedup<S: Store>(v: Vec<State<S>>) -> Vec<State<S>> {
    use std::hash::BuildHasher;
    if v.len() <= 1 {
        return v;
    }
    let mut out: Vec<State<S>> = Vec::with_capacity(v.len());
    if v.len() <= 16 {
        for s in v {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        return out;
    }
    let build = rustc_hash::FxBuildHasher;
    let mut by_hash: rustc_hash::FxHashMap<u64, smallvec::SmallVec<[usize; 1]>> = Default::default();
    for s in v {
        let slot = by_hash.entry(build.hash_one(&s)).or_default();
        if slot.iter().any(|&i| out[i] == s) {
            continue;
        }
        slot.push(out.len());
        out.push(s);
    }
    out
}

impl Eval {
    /// An evaluator that gives up after making `budget` states.
    pub fn new(budget: usize) -> Eval {
        Eval {
            budget,
            made: 0,
            memory: MemoryLimit::NONE,
            clock: None,
        }
    }

    /// The same evaluator, also stopping when the process holds more heap
    /// than `limit`.
    pub fn with_memory(self, limit: MemoryLimit) -> Eval {
        Eval { memory: limit, ..self }
    }

    /// The same evaluator, also stopping when `budget` is spent: its
    /// memory limit, its deadline or its flag.
    pub fn within(self, budget: &Budget) -> Eval {
        let clock = (budget.deadline.is_set() || budget.stop.is_some()).then(|| Budget {
            memory: MemoryLimit::NONE,
            ..budget.clone()
        });
        Eval {
            memory: budget.memory,
            clock,
            ..self
        }
    }

    /// States made so far.
    pub fn made(&self) -> usize {
        self.made
    }

    fn tick<U>(&mut self) -> Result<(), Halt<U>> {
        self.made += 1;
        if self.made > self.budget {
            return Err(Halt::Budget(self.budget));
        }
        // Before every state is made: a state is a whole board, and 1,024
        // boards of four million squares are four gigabytes. Reading the
        // counter is one relaxed load.
        if self.memory != MemoryLimit::NONE && self.memory.exceeded() {
            return Err(Halt::Memory(self.memory));
        }
        if self.made.is_multiple_of(CLOCK_EVERY) && self.clock.as_ref().is_some_and(|c| c.spent() == Some(Spent::Time))
        {
            return Err(Halt::Time);
        }
        Ok(())
    }

    /// Every result of `prog` on `s`, without duplicates.
    pub fn run<S: Store>(&mut self, prog: &Prog, s: &State<S>) -> Res<Vec<State<S>>, S> {
        let mut out = vec![];
        self.step(prog, s, &mut out)?;
        Ok(dedup(out))
    }

    /// Every result of `prog` on any of `states`, without duplicates.
    pub fn run_all<S: Store>(&mut self, prog: &Prog, states: &[State<S>]) -> Res<Vec<State<S>>, S> {
        let mut out = vec![];
        for s in states {
            self.step(prog, s, &mut out)?;
        }
        Ok(dedup(out))
    }

    /// Pushes the results of `prog` on `s` to `out`, possibly repeated.
    fn step<S: Store>(&mut self, prog: &Prog, s: &State<S>, out: &mut Vec<State<S>>) -> Res<(), S> {
        match prog {
            Prog::Nil => out.push(s.clone()),
            Prog::Fail => {}
            Prog::Rules(rules) => {
                for r in rules {
                    self.rule(r, s, out)?;
                }
            }
            Prog::Bind(c, body) => {
                for q in s.board.candidates(*c) {
                    if Some(q) == s.poi || !s.board.holds(q, *c)? {
                        continue;
                    }
                    let inner = State {
                        board: s.board.clone(),
                        poi: Some(q),
                    };
                    // Results keep the enclosing binder's POI.
                    for r in self.run(body, &inner)? {
                        out.push(State {
                            board: r.board,
                            poi: s.poi,
                        });
                    }
                }
            }
            Prog::Seq(a, b) => {
                let mid = self.run(a, s)?;
                for m in &mid {
                    self.step(b, m, out)?;
                }
            }
            Prog::Alt(arms) => {
                for a in arms {
                    self.step(a, s, out)?;
                }
            }
            Prog::Repeat(m, bounds) => out.extend(self.repeat(m, *bounds, s)?),
            Prog::Not(m) => {
                if !self.exists(m, s)? {
                    out.push(s.clone());
                }
            }
            Prog::Greedy(m) => out.extend(self.greedy(m, s)?),
            Prog::Probe(m, _) | Prog::Count(m, ..) => self.step(m, s, out)?,
        }
        Ok(())
    }

    /// Whether `prog` has a result on `s`, stopping at the first.
    pub fn exists<S: Store>(&mut self, prog: &Prog, s: &State<S>) -> Res<bool, S> {
        Ok(match prog {
            Prog::Nil => true,
            Prog::Fail => false,
            Prog::Rules(rules) => {
                for r in rules {
                    if self.rule_applies(r, s)? {
                        return Ok(true);
                    }
                }
                false
            }
            Prog::Bind(c, body) => {
                for q in s.board.candidates(*c) {
                    if Some(q) == s.poi || !s.board.holds(q, *c)? {
                        continue;
                    }
                    let inner = State {
                        board: s.board.clone(),
                        poi: Some(q),
                    };
                    if self.exists(body, &inner)? {
                        return Ok(true);
                    }
                }
                false
            }
            Prog::Seq(a, b) => {
                for m in self.run(a, s)? {
                    if self.exists(b, &m)? {
                        return Ok(true);
                    }
                }
                false
            }
            Prog::Alt(arms) => {
                for a in arms {
                    if self.exists(a, s)? {
                        return Ok(true);
                    }
                }
                false
            }
            Prog::Repeat(_, b) if b.lo == 0 => true,
            Prog::Not(m) => !self.exists(m, s)?,
            Prog::Probe(_, p) => p.any(s)?,
            Prog::Count(m, ..) => self.exists(m, s)?,
            _ => !self.run(prog, s)?.is_empty(),
        })
    }

    /// `M*!`: the states reachable by `M*` on which `M` has no result.
    fn greedy<S: Store>(&mut self, m: &Prog, s: &State<S>) -> Res<Vec<State<S>>, S> {
        let mut seen: FxHashSet<State<S>> = FxHashSet::default();
        seen.insert(s.clone());
        let mut frontier = vec![s.clone()];
        let mut out = vec![];
        while let Some(x) = frontier.pop() {
            self.tick()?;
            let next = self.run(m, &x)?;
            if next.is_empty() {
                out.push(x);
                continue;
            }
            for y in next {
                if seen.insert(y.clone()) {
                    frontier.push(y);
                }
            }
        }
        Ok(out)
    }

    /// `M{lo,hi}`: the states exactly `lo` steps away, then every state
    /// within `hi - lo` further steps of them.
    fn repeat<S: Store>(&mut self, m: &Prog, b: Bounds, s: &State<S>) -> Res<Vec<State<S>>, S> {
        let layer = self.layer(m, b.lo, s)?;
        // The union of layers lo..=hi is every state within hi - lo steps
        // of layer lo (a state k steps away is in layer lo + k), so a
        // breadth-first search over new states finds it: each state is
        // expanded once, whatever the bounds.
        let mut seen: FxHashSet<State<S>> = layer.iter().cloned().collect();
        let mut out = layer.clone();
        let mut frontier = layer;
        let mut depth: u32 = 0;
        while !frontier.is_empty() && b.hi.is_none_or(|hi| depth < hi - b.lo) {
            self.tick()?;
            let next = self.run_all(m, &frontier)?;
            frontier = next.into_iter().filter(|x| seen.insert(x.clone())).collect();
            out.extend(frontier.iter().cloned());
            depth += 1;
        }
        Ok(out)
    }

    /// The states exactly `n` steps of `m` away from `s`. On a fixed board
    /// the layers are eventually periodic; Brent's cycle detection finds a
    /// period, and a huge count (`M{4000000000}`) skips whole periods.
    fn layer<S: Store>(&mut self, m: &Prog, n: u32, s: &State<S>) -> Res<Vec<State<S>>, S> {
        let n = u64::from(n);
        let mut layer = vec![s.clone()];
        let (mut mark, mut mark_at, mut power) = (layer.clone(), 0u64, 1u64);
        let mut k = 0u64;
        while k < n && !layer.is_empty() {
            self.tick()?;
            layer = self.run_all(m, &layer)?;
            k += 1;
            if same_states(&layer, &mark) {
                // Layer k repeats layer `mark_at`, so layer n is the layer
                // (n - k) mod period steps on.
                for _ in 0..(n - k) % (k - mark_at) {
                    self.tick()?;
                    layer = self.run_all(m, &layer)?;
                }
                return Ok(layer);
            }
            if k - mark_at == power {
                mark = layer.clone();
                mark_at = k;
                power *= 2;
            }
        }
        Ok(layer)
    }

    fn rule<S: Store>(&mut self, r: &Rule, s: &State<S>, out: &mut Vec<State<S>>) -> Res<(), S> {
        self.rule_up_to(r, s, out, usize::MAX)
    }

    /// Applies `r` at its candidate translations until `out` holds `limit`
    /// states.
    fn rule_up_to<S: Store>(&mut self, r: &Rule, s: &State<S>, out: &mut Vec<State<S>>, limit: usize) -> Res<(), S> {
        if let Pivot::Identity = r.pivot {
            if !r.needs_poi || s.poi.is_some() {
                out.push(s.clone());
            }
            return Ok(());
        }
        self.translations(r, s, &mut |this, t| {
            if this.fits(r, s, t)? {
                this.tick()?;
                out.push(apply(r, s, t));
            }
            Ok(out.len() >= limit)
        })
    }

    /// Whether `r` applies anywhere on `s`, without making the result.
    fn rule_applies<S: Store>(&mut self, r: &Rule, s: &State<S>) -> Res<bool, S> {
        if let Pivot::Identity = r.pivot {
            return Ok(!r.needs_poi || s.poi.is_some());
        }
        let mut found = false;
        self.translations(r, s, &mut |this, t| {
            found = this.fits(r, s, t)?;
            Ok(found)
        })?;
        Ok(found)
    }

    /// Calls `each` with every translation at which `r` may apply, as its
    /// pivot finds them, until `each` says to stop.
    fn translations<S: Store>(
        &mut self,
        r: &Rule,
        s: &State<S>,
        each: &mut dyn FnMut(&mut Self, Square) -> Res<bool, S>,
    ) -> Res<(), S> {
        if r.needs_poi && s.poi.is_none() {
            return Ok(());
        }
        match r.pivot {
            Pivot::Identity => {}
            Pivot::Anchor(a) => {
                if let Some(p) = s.poi {
                    each(self, p - a)?;
                }
            }
            Pivot::Guard(at, c) => {
                for q in s.board.candidates(c) {
                    if Some(q) != s.poi && s.board.holds(q, c)? && each(self, q - at)? {
                        break;
                    }
                }
            }
            Pivot::GuardAny(at) => {
                let set = r.guard[0].1;
                for q in s.board.squares().iter() {
                    if Some(q) != s.poi && s.board.reads(q, &set)? && each(self, q - at)? {
                        break;
                    }
                }
            }
            Pivot::Write(at) => {
                for q in s.board.squares().iter() {
                    if s.board.on_board(q)? && each(self, q - at)? {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether `r` applies at translation `t`: every cell of `f` reads
    /// as written, `g`'s `#` cells land off the board and its other cells
    /// on it.
    fn fits<S: Store>(&mut self, r: &Rule, s: &State<S>, t: Square) -> Res<bool, S> {
        let b = &s.board;
        for (at, set) in &r.guard {
            let q = *at + t;
            // The POI's square reads `%` and nothing else.
            let ok = if Some(q) == s.poi {
                set.contains_code(Code::POI)
            } else {
                b.reads(q, set)?
            };
            if !ok {
                return Ok(false);
            }
        }
        for &at in &r.offs {
            if b.on_board(at + t)? {
                return Ok(false);
            }
        }
        for &(at, _) in &r.writes {
            if !b.on_board(at + t)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Applies `r` at translation `t`, where it fits: every cell of `g` written
/// at once.
fn apply<S: Store>(r: &Rule, s: &State<S>, t: Square) -> State<S> {
    let b = &s.board;
    let mut board = b.clone();
    let mut poi = s.poi;
    let mut moved_to = None;
    for &(at, cell) in &r.writes {
        let q = at + t;
        match cell {
            Cell::Is(c) => {
                board.set(q, c);
                if Some(q) == s.poi {
                    poi = None;
                }
            }
            Cell::Poi => {
                let from = s.poi.expect("a rule that writes `%` runs only with a POI");
                board.set_value(q, b.value(from));
                moved_to = Some(q);
            }
            Cell::Off => unreachable!("`#` cells are in offs"),
        }
    }
    State {
        board,
        poi: moved_to.or(poi),
    }
}

/// Runs a compiled move on a concrete state with the default budget.
pub fn results<S: Store<Unknown = std::convert::Infallible>>(
    prog: &Prog,
    s: &State<S>,
) -> Result<Vec<State<S>>, usize> {
    Eval::default().run(prog, s).map_err(|h| match h {
        Halt::Budget(n) => n,
        Halt::Unknown(never) => match never {},
        Halt::Memory(_) | Halt::Time => unreachable!("the default evaluator has no memory limit or clock"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::semantics::{compile, Grid};

    /// Result boards of `expr` on `board`, as sorted rows.
    fn run(expr: &str, board: &str, poi: Option<(i32, i32)>) -> Vec<Vec<String>> {
        let mut p = Program::from_text("t.alg", "").unwrap();
        let t = p.expr("e", expr).unwrap();
        let prog = compile(&t).unwrap();
        let s = State {
            board: Grid::parse(board, &crate::ir::Pieces::chess()).unwrap(),
            poi: poi.map(|(x, y)| Square::new(x, y)),
        };
        let mut out: Vec<Vec<String>> = results(&prog, &s)
            .unwrap()
            .iter()
            .map(|s| s.board.rows(&crate::ir::Pieces::chess()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn some_pawn_moves_up() {
        // The seed's picture: either pawn may move.
        let r = run("♙ -> . + u♙", ".......\n..♙.♙..", None);
        assert_eq!(r, vec![vec!["....♙..", "..♙...."], vec!["..♙....", "....♙.."]]);
    }

    #[test]
    fn rook_slides_until_blocked() {
        let r = run("%♖: (% + u. -> . + u%)+", "♟\n.\n.\n♖", None);
        assert_eq!(r, vec![vec!["♟", ".", "♖", "."], vec!["♟", "♖", ".", "."]]);
    }

    #[test]
    fn appendix_a_forms_differ_where_the_seed_says() {
        let a = "(% + u. -> . + u%)";
        let board = ".\n.\n♖";
        let twice = run(&format!("%♖: {a}{{2}}"), board, None);
        let maybe = run(&format!("%♖: {a} {a}?"), board, None);
        let choice = run(&format!("%♖: {a} | (% + u. + uu. -> . + u. + uu%)"), board, None);
        assert_eq!(twice.len(), 1);
        assert_eq!(maybe, choice);
        assert_eq!(maybe.len(), 2);
    }

    #[test]
    fn binder_without_its_piece_has_no_result() {
        assert!(run("%♖: nil", "...", None).is_empty());
        assert_eq!(run("nil", "...", None).len(), 1);
    }

    #[test]
    fn hash_cells_test_the_edge() {
        // Double step only from the rank above the edge.
        let r = run("d# + ♙ + u. + uu. -> d# + . + u. + uu♙", ".\n.\n♙\n.", None);
        assert!(r.is_empty());
        let r = run("d# + ♙ + u. + uu. -> d# + . + u. + uu♙", ".\n.\n♙", None);
        assert_eq!(r, vec![vec!["♙", ".", "."]]);
    }

    #[test]
    fn open_moves_need_and_move_the_poi() {
        assert!(run("% + u. -> . + u%", ".\n♖", None).is_empty());
        assert_eq!(run("% + u. -> . + u%", ".\n♖", Some((0, 0))), vec![vec!["♖", "."]]);
        // Overwriting the POI square unbinds it, so `%` can no longer move.
        assert!(run("(% -> .)(% -> %)", "♖", Some((0, 0))).is_empty());
    }

    #[test]
    fn repetition_layers() {
        let step = "(♙ + u. -> . + u♙)";
        assert_eq!(run(&format!("{step}{{0}}"), ".\n.\n♙", None).len(), 1);
        assert_eq!(run(&format!("{step}{{1,2}}"), ".\n.\n♙", None).len(), 2);
        assert_eq!(run(&format!("{step}*"), ".\n.\n♙", None).len(), 3);
        assert_eq!(run(&format!("{step}{{3}}"), ".\n.\n♙", None).len(), 0);
        assert_eq!(run(&format!("{step}{{1,}}"), ".\n.\n♙", None).len(), 2);
    }

    /// Runs a term on a state; the result set in a canonical order, or
    /// `None` past the state budget (a random move under a star can make
    /// more states than any budget: that says nothing of the law).
    fn eval_set(t: &crate::ir::Term, s: &State<Grid>) -> Option<std::collections::BTreeSet<State<Grid>>> {
        Some(results(&compile(t).unwrap(), s).ok()?.into_iter().collect())
    }

    /// Whether two sides agree, wherever both fit the budget.
    fn agree(
        a: Option<std::collections::BTreeSet<State<Grid>>>,
        b: Option<std::collections::BTreeSet<State<Grid>>>,
    ) -> bool {
        a.zip(b).is_none_or(|(a, b)| a == b)
    }

    /// Random closed moves on random boards, with the POI on a random
    /// square when the move is open.
    fn sample(seed: u64) -> (crate::ir::Term, State<Grid>) {
        let mut g = crate::rng::Rng::new(seed);
        let m = crate::ir::gen::a_move(&mut g, 2);
        let board = crate::semantics::Grid::random(&mut g, 3, 3);
        let on: Vec<Square> = board.squares().iter().filter(|q| board.get(*q).is_some()).collect();
        let poi = if m.is_open() && !on.is_empty() {
            Some(on[seed as usize % on.len()])
        } else {
            None
        };
        (m, State { board, poi })
    }

    quickcheck::quickcheck! {
        fn star_unfolds(seed: u64) -> bool {
            use crate::ir::{Bounds, Term};
            let (m, s) = sample(seed);
            let star = Term::repeat(&m, Bounds::STAR);
            agree(eval_set(&star, &s), eval_set(&Term::alt(&Term::nil(), &Term::seq(&m, &star)), &s))
        }

        fn bounded_repetition_unfolds(seed: u64) -> bool {
            use crate::ir::{Bounds, Term};
            let (m, s) = sample(seed);
            let lhs = Term::repeat(&m, Bounds { lo: 2, hi: Some(3) });
            let rhs = Term::seq(&m, &Term::seq(&m, &Term::repeat(&m, Bounds::OPT)));
            agree(eval_set(&lhs, &s), eval_set(&rhs, &s))
        }

        fn at_least_is_count_then_star(seed: u64) -> bool {
            use crate::ir::{Bounds, Term};
            let (m, s) = sample(seed);
            let lhs = Term::repeat(&m, Bounds { lo: 2, hi: None });
            let rhs = Term::seq(&Term::repeat(&m, Bounds::exactly(2)), &Term::repeat(&m, Bounds::STAR));
            agree(eval_set(&lhs, &s), eval_set(&rhs, &s))
        }
    }

    #[test]
    fn huge_counts_finish() {
        assert_eq!(run("nil{4000000000}", "..", None).len(), 1);
        assert_eq!(run("(%♖: nil){4000000000,}", "♖.", None).len(), 1);
        assert!(run("fail{4000000000}", "..", None).is_empty());
    }

    #[test]
    fn budget_stops_runaway_evaluation() {
        let mut p = Program::from_text("t.alg", "").unwrap();
        let t = p.expr("e", "(. -> ♙ | ♟)*").unwrap();
        let prog = compile(&t).unwrap();
        let s = State {
            board: Grid::parse("........", &crate::ir::Pieces::chess()).unwrap(),
            poi: None,
        };
        assert_eq!(Eval::new(1000).run(&prog, &s), Err(Halt::Budget(1000)));
    }
}
