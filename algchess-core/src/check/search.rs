//! The bounded search for a counterexample to `A = B` on moves, over the boards of a box.
//!
//! Budgets of cells grow by doubling up to the maximum: 1, 2, 4, 8, ...
//! At each budget `N` the search covers every board whose domain fits a box
//! of at most `N` squares; rules are invariant under translation, so the
//! maximal boxes at the origin (`N×1`, `N/2×2`, ...) suffice. Each box, and
//! for open moves each POI square in it, is one job; jobs run in parallel.
//!
//! A job is a depth-first search over cubes: run both moves on the cube; if
//! a question splits the cube, recurse on both halves; at a leaf, compare
//! the result sets. A leaf where they differ is a counterexample for every
//! board in it; the search keeps the one with the fewest on-board squares,
//! pruning every cube that already forces more squares onto the board.

use super::cube::{Cube, Domain, Split, Sym, Universe, OFF};
use crate::core::{Cell, Content, PieceId, Pieces};
use crate::geometry::Square;
use crate::memory::MemoryLimit;
use crate::semantics::{results, Eval, Grid, Halt, Pivot, Prog, State};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Limits of a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The largest box, in squares.
    pub max_cells: usize,
    /// Give up (reporting the last complete budget) after this long.
    pub timeout: Option<Duration>,
    /// States one evaluation may make before the search gives up.
    pub eval_budget: usize,
    /// Compare unions of binders binder by binder first (sound, and far
    /// cheaper; see `decompose`). Off only to measure or test the full
    /// search.
    pub decompose: bool,
    /// Give up when the process holds more heap than this.
    pub memory: MemoryLimit,
    /// After the exhaustive search, try boards past its bound that are
    /// empty but for one or two pieces (long lines, larger squares), in
    /// the last fifth of the time. Off by default: with no timeout it
    /// probes its whole budget of boards.
    pub sparse: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_cells: 16,
            timeout: None,
            eval_budget: 1_000_000,
            decompose: true,
            memory: MemoryLimit::NONE,
            sparse: false,
        }
    }
}

/// A board on which two moves differ, with both result sets. Boards are
/// trimmed to the squares on the board; POIs are in the trimmed
/// coordinates.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub board: Grid,
    pub poi: Option<Square>,
    pub left: Vec<State<Grid>>,
    pub right: Vec<State<Grid>>,
}

impl Counterexample {
    /// Number of on-board squares.
    pub fn squares(&self) -> usize {
        self.board.size()
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// No counterexample among boards of up to `cells` squares.
    HoldsUpTo {
        /// The largest box, in squares, searched in full.
        cells: usize,
        /// False when the time limit stopped a larger budget early.
        complete: bool,
        /// The work done.
        stats: Stats,
    },
    /// The two moves differ on a board.
    Refuted {
        /// The box, in squares, the counterexample was found in.
        cells: usize,
        /// The board and both result sets.
        counterexample: Counterexample,
        /// The work done.
        stats: Stats,
    },
    /// A single evaluation made more states than allowed.
    TooBig {
        /// The box, in squares, being searched.
        cells: usize,
        /// The states one evaluation may make.
        budget: usize,
    },
    /// The process held more heap than allowed.
    OutOfMemory {
        /// The box, in squares, being searched.
        cells: usize,
        /// The limit passed.
        limit: MemoryLimit,
    },
    /// The moves name more pieces than a search can tell apart.
    TooManyPieces {
        /// The pieces the moves name.
        pieces: usize,
    },
}

/// How much work a search did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Cubes run to the end.
    pub leaves: u64,
    /// Evaluations of both moves, including those that stopped at a split.
    pub runs: u64,
    /// Concrete states (board and POI) covered by the leaves.
    pub boards: f64,
}

/// The maximal boxes of at most `n` squares, smallest area first.
pub(super) fn boxes(n: usize) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = vec![];
    for h in 1..=n {
        let w = n / h;
        // A box is redundant when a wider box of the same height, or a
        // taller one of the same width, is already in the list.
        if out.iter().any(|&(ow, oh)| ow as usize >= w && oh as usize >= h) {
            continue;
        }
        out.retain(|&(ow, oh)| !(w >= ow as usize && h >= oh as usize));
        out.push((w as i32, h as i32));
    }
    out.sort_by_key(|&(w, h)| (w * h, -w));
    out
}

/// A piece that neither side names, to stand for all of them: one of
/// `pieces` when there is one (so counterexamples show a real piece), else
/// the reserved `PieceId::OTHER`.
pub(super) fn other_piece(named: &[PieceId], pieces: &Pieces) -> PieceId {
    pieces.all().find(|p| !named.contains(p)).unwrap_or(PieceId::OTHER)
}

/// Which states a search starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// No POI: closed moves.
    Closed,
    /// The POI on every square: moves with a free `%`.
    Open,
    /// The POI on every square holding this content, comparing boards only:
    /// the bodies of two binders `%c:` (see `decompose`).
    Bound(Content),
}

struct Job {
    width: i32,
    height: i32,
    poi: Option<usize>,
}

struct Best {
    squares: usize,
    job: usize,
    cube: Cube,
}

struct Search<'a> {
    mode: Mode,
    left: &'a Prog,
    right: &'a Prog,
    universe: &'a Universe,
    options: &'a SearchOptions,
    deadline: Option<Instant>,
    best: Mutex<Option<Best>>,
    timed_out: AtomicBool,
    too_big: AtomicBool,
    out_of_memory: AtomicBool,
    leaves: AtomicUsize,
    runs: AtomicUsize,
    boards: Mutex<f64>,
}

/// Why a cube could not be decided by one run.
enum Undecided {
    Split(Split),
    TooBig,
    OutOfMemory,
}

impl From<Halt<Split>> for Undecided {
    fn from(h: Halt<Split>) -> Undecided {
        match h {
            Halt::Unknown(s) => Undecided::Split(s),
            // The checker's evaluators are given no clock.
            Halt::Budget(_) | Halt::Time => Undecided::TooBig,
            Halt::Memory(_) => Undecided::OutOfMemory,
        }
    }
}

impl Search<'_> {
    fn pruned(&self, forced: usize, job: usize) -> bool {
        match &*self.best.lock().unwrap() {
            None => false,
            Some(b) => forced > b.squares || (forced == b.squares && b.job <= job),
        }
    }

    /// Whether the two result sets are equal on every board of the cube.
    fn decide(&self, cube: &Cube, poi: Option<usize>) -> Result<bool, Undecided> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let start = State {
            board: Sym::initial(cube, self.universe),
            poi: poi.map(|i| cube.squares[i]),
        };
        let mut eval = Eval::new(self.options.eval_budget).with_memory(self.options.memory);
        let a = eval.run(self.left, &start)?;
        let b = eval.run(self.right, &start)?;
        for (xs, ys) in [(&a, &b), (&b, &a)] {
            for x in xs {
                let mut undecided = None;
                let mut matched = false;
                for y in ys {
                    if x.poi != y.poi && !matches!(self.mode, Mode::Bound(_)) {
                        continue;
                    }
                    match x.board.compare(&y.board) {
                        Ok(true) => {
                            matched = true;
                            break;
                        }
                        Ok(false) => {}
                        Err(s) => {
                            undecided.get_or_insert(s);
                        }
                    }
                }
                if !matched {
                    return match undecided {
                        Some(s) => Err(Undecided::Split(s)),
                        None => Ok(false),
                    };
                }
            }
        }
        Ok(true)
    }

    fn dfs(&self, cube: Cube, job: usize, poi: Option<usize>) {
        if self.timed_out.load(Ordering::Relaxed)
            || self.too_big.load(Ordering::Relaxed)
            || self.out_of_memory.load(Ordering::Relaxed)
        {
            return;
        }
        if self.options.memory.exceeded() {
            self.out_of_memory.store(true, Ordering::Relaxed);
            return;
        }
        if self.deadline.is_some_and(|d| Instant::now() > d) {
            self.timed_out.store(true, Ordering::Relaxed);
            return;
        }
        let forced = cube.forced_on();
        if self.pruned(forced, job) {
            return;
        }
        match self.decide(&cube, poi) {
            Ok(same) => {
                self.leaves.fetch_add(1, Ordering::Relaxed);
                *self.boards.lock().unwrap() += cube.boards();
                if !same {
                    let squares = cube
                        .doms
                        .iter()
                        .filter(|d| self.universe.representative(**d) != OFF)
                        .count();
                    let mut best = self.best.lock().unwrap();
                    let better = match &*best {
                        None => true,
                        Some(b) => (squares, job) < (b.squares, b.job),
                    };
                    if better {
                        *best = Some(Best { squares, job, cube });
                    }
                }
            }
            Err(Undecided::Split(s)) => {
                for half in cube.split(s) {
                    self.dfs(half, job, poi);
                }
            }
            Err(Undecided::TooBig) => self.too_big.store(true, Ordering::Relaxed),
            Err(Undecided::OutOfMemory) => self.out_of_memory.store(true, Ordering::Relaxed),
        }
    }
}

/// Searches for a board on which `left` and `right` differ. `open` moves
/// are tried with the POI on every square.
///
/// Closed moves that are unions of binders are first compared binder by
/// binder (see `decompose`), which needs no search over where the binder's
/// pieces stand. Only when that comparison fails does the full search run:
/// it finds the counterexample, or shows that the per-binder difference is
/// hidden by the union.
pub fn compare(
    pieces: &Pieces,
    left: &Prog,
    right: &Prog,
    open: bool,
    options: &SearchOptions,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    let mut named = left.pieces();
    named.extend(right.pieces());
    named.sort();
    named.dedup();
    let Some(universe) = Universe::new(&named, other_piece(&named, pieces)) else {
        return Outcome::TooManyPieces { pieces: named.len() };
    };
    let start = Instant::now();
    let deadline = options.timeout.map(|t| start + t);
    // The exhaustive search leaves a fifth of the time to sparse boards.
    let exhaustive = match options.sparse {
        true => options.timeout.map(|t| start + t.mul_f64(0.8)),
        false => deadline,
    };
    let mode = if open { Mode::Open } else { Mode::Closed };
    let found = exhaust(left, right, open, &universe, options, exhaustive, progress);
    match found {
        Outcome::HoldsUpTo { cells, complete, stats } if options.sparse => {
            match sparse(mode, left, right, &universe, options, cells, deadline) {
                Some(refuted) => refuted,
                None => Outcome::HoldsUpTo { cells, complete, stats },
            }
        }
        other => other,
    }
}

/// The exhaustive search: binder by binder first, then whole boards.
fn exhaust(
    left: &Prog,
    right: &Prog,
    open: bool,
    universe: &Universe,
    options: &SearchOptions,
    deadline: Option<Instant>,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    if !open && options.decompose {
        if let (Some(l), Some(r)) = (decompose(left), decompose(right)) {
            let mut pieces: Vec<Content> = l.keys().chain(r.keys()).copied().collect();
            pieces.sort();
            pieces.dedup();
            let mut stats = Stats::default();
            let mut cells = options.max_cells;
            let mut complete = true;
            let mut all_hold = true;
            for c in pieces {
                let side = |m: &BTreeMap<Content, Vec<Prog>>| m.get(&c).map_or(Prog::Fail, |v| Prog::Alt(v.clone()));
                let (lp, rp) = (side(&l), side(&r));
                match search(Mode::Bound(c), &lp, &rp, universe, options, deadline, progress) {
                    Outcome::HoldsUpTo {
                        cells: n,
                        complete: done,
                        stats: s,
                    } => {
                        cells = cells.min(n);
                        complete &= done;
                        stats.add(&s);
                    }
                    _ => {
                        all_hold = false;
                        break;
                    }
                }
            }
            if all_hold {
                return Outcome::HoldsUpTo { cells, complete, stats };
            }
        }
    }
    let mode = if open { Mode::Open } else { Mode::Closed };
    search(mode, left, right, universe, options, deadline, progress)
}

/// The longest line of squares sparse boards reach.
const SPARSE_LINE: i32 = 24;
/// The most sparse boards one search tries.
const SPARSE_BOARDS: usize = 50_000;

/// Boards past the exhaustive bound that long moves need: lines and
/// squares larger than `done` squares, empty but for one or two pieces
/// (the POI on a piece, or at either end of the board). A board where the
/// sides differ refutes the claim like any other; none found adds nothing
/// to what the exhaustive search showed.
fn sparse(
    mode: Mode,
    left: &Prog,
    right: &Prog,
    universe: &Universe,
    options: &SearchOptions,
    done: usize,
    deadline: Option<Instant>,
) -> Option<Outcome> {
    let search = Search {
        mode,
        left,
        right,
        universe,
        options,
        deadline,
        best: Mutex::new(None),
        timed_out: AtomicBool::new(false),
        too_big: AtomicBool::new(false),
        out_of_memory: AtomicBool::new(false),
        leaves: AtomicUsize::new(0),
        runs: AtomicUsize::new(0),
        boards: Mutex::new(0.0),
    };
    // Every box past the bound, up to 64 squares (lines up to 24), the
    // smallest first.
    let mut shapes: Vec<(i32, i32)> = vec![];
    for w in 1..=SPARSE_LINE {
        for h in 1..=SPARSE_LINE {
            let n = (w * h) as usize;
            if n > done && n <= 64 && (w.min(h) > 1 || n <= SPARSE_LINE as usize) {
                shapes.push((w, h));
            }
        }
    }
    shapes.sort_by_key(|&(w, h)| (w * h, (w - h).abs(), -w));
    let pieces: Vec<Domain> = (2..64)
        .map(|b| 1u64 << b)
        .filter(|b| universe.full() & b != 0)
        .collect();
    let empty = universe.bit(Content::Empty);
    let mut tried = 0usize;
    for (w, h) in shapes {
        let n = (w * h) as usize;
        // One piece anywhere, then two.
        let mut placements: Vec<Vec<(usize, Domain)>> = vec![];
        for i in 0..n {
            for &a in &pieces {
                placements.push(vec![(i, a)]);
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                for &a in &pieces {
                    for &b in &pieces {
                        placements.push(vec![(i, a), (j, b)]);
                    }
                }
            }
        }
        for place in placements {
            let mut cube = Cube::new(w, h, empty);
            for &(i, d) in &place {
                cube.doms[i] = d;
            }
            let pois: Vec<Option<usize>> = match mode {
                Mode::Closed => vec![None],
                Mode::Open => {
                    let mut v: Vec<Option<usize>> = place.iter().map(|(i, _)| Some(*i)).collect();
                    v.extend([Some(0), Some(n - 1)]);
                    v.dedup();
                    v
                }
                Mode::Bound(c) => {
                    let bit = universe.bit(c);
                    (0..n).filter(|&i| cube.doms[i] == bit).map(Some).collect()
                }
            };
            for poi in pois {
                tried += 1;
                if tried > SPARSE_BOARDS
                    || tried.is_multiple_of(64)
                        && (deadline.is_some_and(|d| Instant::now() > d) || options.memory.exceeded())
                {
                    return None;
                }
                if let Ok(false) = search.decide(&cube, poi) {
                    let at = poi.map(|i| cube.squares[i]);
                    return Some(Outcome::Refuted {
                        cells: n,
                        counterexample: concretise(left, right, universe, &cube, at),
                        stats: Stats::default(),
                    });
                }
            }
        }
    }
    None
}

/// A move as a union of binders, grouped by the binder's content: the
/// moves `M` with `%c: M` for each `c`. An unanchored rule without `%` is a
/// binder on its pivot cell: `f -> g` is `%c: f' -> g` where `f'` puts `%`
/// in place of the pivot's `c`.
///
/// Soundness: `⟦%c: M⟧(B)` is the union over squares `q` holding `c` of
/// the boards of `⟦M⟧(B, q)`. So two unions of binders are equal on `B`
/// whenever, for each `c`, their bodies give the same boards from every
/// state whose POI holds `c`; that is what `Mode::Bound(c)` checks.
pub(super) fn decompose(p: &Prog) -> Option<BTreeMap<Content, Vec<Prog>>> {
    let mut out: BTreeMap<Content, Vec<Prog>> = BTreeMap::new();
    match p {
        Prog::Fail => {}
        Prog::Bind(c, body) => out.entry(*c).or_default().push((**body).clone()),
        Prog::Rules(rules) => {
            for r in rules {
                // The pivot's contents: one, or a set (merged pattern
                // members), each bound on its own.
                let (at, contents): (_, Vec<Content>) = match r.pivot {
                    Pivot::Guard(at, c) => (at, vec![c]),
                    Pivot::GuardAny(at) => (
                        at,
                        r.guard[0]
                            .1
                            .cells()
                            .map(|c| match c {
                                Cell::Is(c) => Some(c),
                                _ => None,
                            })
                            .collect::<Option<_>>()?,
                    ),
                    _ => return None,
                };
                if r.needs_poi || r.guard.iter().any(|(_, set)| set.contains(Cell::Poi)) {
                    return None;
                }
                let mut bound = r.clone();
                bound.guard[0] = (at, crate::semantics::CellSet::single(Cell::Poi));
                bound.pivot = Pivot::Anchor(at);
                for c in contents {
                    out.entry(c).or_default().push(Prog::Rules(vec![bound.clone()]));
                }
            }
        }
        Prog::Alt(arms) => {
            for a in arms {
                for (c, v) in decompose(a)? {
                    out.entry(c).or_default().extend(v);
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.leaves += o.leaves;
        self.runs += o.runs;
        self.boards += o.boards;
    }
}

/// The search proper, budget by budget.
fn search(
    mode: Mode,
    left: &Prog,
    right: &Prog,
    universe: &Universe,
    options: &SearchOptions,
    deadline: Option<Instant>,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    let mut stats = Stats::default();
    let mut done_cells = 0;
    let mut budgets = vec![];
    let mut n = 1;
    while n < options.max_cells {
        budgets.push(n);
        n *= 2;
    }
    budgets.push(options.max_cells);
    for cells in budgets {
        let mut jobs = vec![];
        for (w, h) in boxes(cells) {
            if mode == Mode::Closed {
                jobs.push(Job {
                    width: w,
                    height: h,
                    poi: None,
                });
            } else {
                jobs.extend((0..(w * h) as usize).map(|i| Job {
                    width: w,
                    height: h,
                    poi: Some(i),
                }));
            }
        }
        let search = Search {
            mode,
            left,
            right,
            universe,
            options,
            deadline,
            best: Mutex::new(None),
            timed_out: AtomicBool::new(false),
            too_big: AtomicBool::new(false),
            out_of_memory: AtomicBool::new(false),
            leaves: AtomicUsize::new(0),
            runs: AtomicUsize::new(0),
            boards: Mutex::new(0.0),
        };
        let finished = AtomicUsize::new(0);
        jobs.par_iter().enumerate().for_each(|(j, job)| {
            let mut cube = Cube::new(job.width, job.height, universe.full());
            if let Some(p) = job.poi {
                cube.doms[p] = match mode {
                    Mode::Bound(c) => universe.bit(c),
                    // The POI is a square of the board.
                    _ => cube.doms[p] & !OFF,
                };
            }
            search.dfs(cube, j, job.poi);
            progress(cells, finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
        });
        stats.leaves += search.leaves.load(Ordering::Relaxed) as u64;
        stats.runs += search.runs.load(Ordering::Relaxed) as u64;
        stats.boards += *search.boards.lock().unwrap();
        if search.too_big.load(Ordering::Relaxed) {
            return Outcome::TooBig {
                cells,
                budget: options.eval_budget,
            };
        }
        if search.out_of_memory.load(Ordering::Relaxed) {
            return Outcome::OutOfMemory {
                cells,
                limit: options.memory,
            };
        }
        if let Some(best) = search.best.into_inner().unwrap() {
            let poi = jobs[best.job].poi.map(|i| best.cube.squares[i]);
            return Outcome::Refuted {
                cells,
                counterexample: concretise(left, right, universe, &best.cube, poi),
                stats,
            };
        }
        if search.timed_out.load(Ordering::Relaxed) {
            return Outcome::HoldsUpTo {
                cells: done_cells,
                complete: false,
                stats,
            };
        }
        done_cells = cells;
    }
    Outcome::HoldsUpTo {
        cells: done_cells,
        complete: true,
        stats,
    }
}

/// Turns a leaf cube into a concrete counterexample, running the ordinary
/// evaluator on its representative board: a cross-check of the symbolic
/// run.
fn concretise(left: &Prog, right: &Prog, u: &Universe, cube: &Cube, poi: Option<Square>) -> Counterexample {
    let board = cube.representative(u);
    let start = State { board, poi };
    let run = |p: &Prog| -> Vec<State<Grid>> {
        let mut r = results(p, &start).expect("a leaf's evaluation fits the budget");
        r.sort();
        r
    };
    let (l, r) = (run(left), run(right));
    let as_set = |v: &Vec<State<Grid>>| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
    assert_ne!(
        as_set(&l),
        as_set(&r),
        "the symbolic and concrete evaluations disagree on {:?}",
        start.board
    );
    let trimmed = start.board.trimmed();
    let shift = trimmed.origin();
    let rebase = |s: &State<Grid>| State {
        board: s.board.trimmed().rebased(),
        poi: s.poi.map(|q| q - shift),
    };
    Counterexample {
        board: trimmed.rebased(),
        poi: poi.map(|q| q - shift),
        left: l.iter().map(rebase).collect(),
        right: r.iter().map(rebase).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{gen, Content, Term};
    use crate::semantics::{compile, Store};
    use quickcheck::{Gen, QuickCheck, TestResult};

    /// Every board of every box of at most `n` squares, over `.`, `#`, the
    /// palette pieces and one other piece: the universe of the bounded search, by brute
    /// force.
    fn all_boards(n: usize, named: &[PieceId]) -> Vec<Grid> {
        let mut values = vec![
            None,
            Some(Content::Empty),
            Some(Content::Piece(other_piece(named, &Pieces::chess()))),
        ];
        values.extend(named.iter().map(|p| Some(Content::Piece(*p))));
        let mut out = vec![];
        for (w, h) in boxes(n) {
            let cells = (w * h) as u32;
            for code in 0..values.len().pow(cells) {
                let mut g = Grid::off(Square::ORIGIN, w, h);
                let mut c = code;
                for i in 0..cells as i32 {
                    g.put(Square::new(i % w, i / w), values[c % values.len()]);
                    c /= values.len();
                }
                out.push(g);
            }
        }
        out
    }

    /// Whether the moves differ on some board, with the POI on every
    /// square of the board when `open`.
    fn differ_somewhere(l: &Prog, r: &Prog, boards: &[Grid], open: bool) -> bool {
        boards.iter().any(|b| {
            let pois: Vec<Option<Square>> = if open {
                b.squares().iter().filter(|q| b.get(*q).is_some()).map(Some).collect()
            } else {
                vec![None]
            };
            pois.into_iter().any(|poi| {
                let s = State { board: b.clone(), poi };
                let set = |p: &Prog| {
                    results(p, &s)
                        .unwrap()
                        .into_iter()
                        .collect::<std::collections::BTreeSet<_>>()
                };
                set(l) != set(r)
            })
        })
    }

    static SEEN: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

    /// The symbolic search, with and without the binder decomposition,
    /// agrees with brute-force enumeration on random moves, open or closed.
    #[test]
    fn sparse_boards_reach_past_the_bound() {
        let prog =
            crate::elab::Program::from_text("t.alg", "U = (% + u. -> . + u%)\nx = %♖: U{9}\ny = %♖: U{10}\n").unwrap();
        let (l, r) = (
            compile(prog.definition("x").unwrap()).unwrap(),
            compile(prog.definition("y").unwrap()).unwrap(),
        );
        // `U{9}` needs a column of ten squares; boxes of 6 cannot show it.
        let mut options = SearchOptions {
            max_cells: 6,
            timeout: Some(std::time::Duration::from_secs(20)),
            ..SearchOptions::default()
        };
        let holds = |o: &Outcome| matches!(o, Outcome::HoldsUpTo { .. });
        let first = compare(&Pieces::chess(), &l, &r, false, &options, &|_, _, _| {});
        assert!(holds(&first), "{first:?}");
        options.sparse = true;
        match compare(&Pieces::chess(), &l, &r, false, &options, &|_, _, _| {}) {
            Outcome::Refuted {
                cells, counterexample, ..
            } => {
                assert!(cells >= 10, "a column of ten squares: {cells}");
                assert_ne!(counterexample.left, counterexample.right);
            }
            other => panic!("sparse boards find the column: {other:?}"),
        }
    }

    #[test]
    fn search_agrees_with_brute_force() {
        fn prop(seed: u64) -> TestResult {
            let mut g = Gen::from_size_and_seed(8, seed);
            let (lt, rt) = (gen::a_move(&mut g, 2), gen::a_move(&mut g, 2));
            // A shared part makes equal pairs common enough to matter.
            let rt = if seed.is_multiple_of(3) {
                Term::alt(&lt, &rt)
            } else {
                rt
            };
            let open = lt.is_open() || rt.is_open();
            let (l, r) = (compile(&lt).unwrap(), compile(&rt).unwrap());
            let mut named = l.pieces();
            named.extend(r.pieces());
            named.sort();
            named.dedup();
            let truth = differ_somewhere(&l, &r, &all_boards(4, &named), open);
            SEEN[truth as usize].fetch_add(1, Ordering::Relaxed);
            for decompose in [true, false] {
                let options = SearchOptions {
                    max_cells: 4,
                    decompose,
                    ..SearchOptions::default()
                };
                let found = matches!(
                    compare(&Pieces::chess(), &l, &r, open, &options, &|_, _, _| {}),
                    Outcome::Refuted { .. }
                );
                if found != truth {
                    return TestResult::error(format!(
                        "{lt:?}  vs  {rt:?}: search says differ={found}, brute force {truth} (decompose {decompose})"
                    ));
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(150)
            .max_tests(2000)
            .quickcheck(prop as fn(u64) -> TestResult);
        // Both verdicts must have been exercised for the test to mean much.
        let (same, differ) = (SEEN[0].load(Ordering::Relaxed), SEEN[1].load(Ordering::Relaxed));
        assert!(same >= 20 && differ >= 20, "same {same}, differ {differ}");
    }

    #[test]
    fn maximal_boxes() {
        assert_eq!(boxes(1), vec![(1, 1)]);
        assert_eq!(boxes(4), vec![(4, 1), (2, 2), (1, 4)]);
        let b16 = boxes(16);
        assert_eq!(b16.len(), 7);
        assert!(b16.contains(&(5, 3)) && b16.contains(&(4, 4)) && b16.contains(&(1, 16)));
    }
}
