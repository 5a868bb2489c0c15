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
//! board in it; a job keeps the one with the fewest on-board squares,
//! pruning every cube that forces as many squares onto the board, and the
//! search takes the first job's, in the jobs' order (smaller boxes first).
//! Jobs after one that found a counterexample cannot change that, so they
//! stop.
//!
//! Work, not time, bounds a search by default: its evaluations are
//! counted, and a budget's share goes to each job of a box size before it
//! starts. What a job finds within its share depends on no other job, so
//! it is the same on any machine and under any thread schedule, and so is
//! the verdict. A timeout is an optional cap, reported apart.

use super::cube::{Cube, Domain, Split, Sym, Universe, OFF};
use super::window::{bounding, window};
use crate::clock::{Deadline, Timer};
use crate::geometry::Square;
use crate::ir::{Cell, Content, PieceId, Pieces};
use crate::memory::MemoryLimit;
use crate::par::*;
use crate::semantics::{results, Eval, Grid, Halt, Pivot, Prog, State};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Limits of a search.
#[derive(Clone, Debug)]
pub struct EnumerationOptions {
    /// The largest box, in squares.
    pub max_cells: usize,
    /// The most work the search may do, counted as the states its
    /// evaluations make (both moves run on a cube of boards, or on a sparse
    /// board) and one for each evaluation; `None` for no bound. Each box
    /// size's jobs share what the smaller sizes left evenly; a size whose
    /// jobs do not all end within their shares is not covered.
    pub work: Option<u64>,
    /// Give up (reporting the last complete budget) after this long on
    /// the timer's clock: a cap for safety, which unlike `work` depends on
    /// the machine.
    pub timeout: Timer,
    /// States one evaluation may make before the search gives up.
    pub eval_budget: usize,
    /// Compare unions of binders binder by binder first (sound, and far
    /// cheaper; see `decompose`). Off only to measure or test the full
    /// search.
    pub decompose: bool,
    /// Give up when the process holds more heap than this.
    pub memory: MemoryLimit,
    /// After the exhaustive search, try boards past its bound that are
    /// empty but for one or two pieces (long lines, larger squares), with
    /// a fifth of the work (and of the timeout). Off by default: with no
    /// bound it probes its whole budget of boards.
    pub sparse: bool,
    /// Decide moves anchored on the POI on the box around their windows
    /// (`window.rs`) before the boxes of `max_cells`. Off only to settle
    /// truth by plain enumeration, as a reference for the bound itself.
    pub window: bool,
}

impl Default for EnumerationOptions {
    fn default() -> Self {
        EnumerationOptions {
            max_cells: 16,
            work: None,
            timeout: Timer::NONE,
            eval_budget: 1_000_000,
            decompose: true,
            memory: MemoryLimit::NONE,
            sparse: false,
            window: true,
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

/// The limit that stopped a search short of its largest box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Limit {
    /// The budget of work: evaluations, instances, positions (`--work`).
    Work,
    /// The optional time cap (`--timeout`).
    Timeout,
    /// The states one evaluation may make.
    StateBudget,
    /// The heap the process may hold (`--memory-limit`).
    Memory,
}

/// The box a claim of anchored moves was decided in, by the small-model
/// bound (`window.rs`): holding there, it holds on every board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Bound {
    /// The box's width.
    pub width: i32,
    /// The box's height.
    pub height: i32,
    /// The squares of each side's window.
    pub windows: [usize; 2],
}

impl Bound {
    /// The squares of the box.
    pub fn squares(&self) -> usize {
        (self.width * self.height) as usize
    }

    /// The larger of two bounds, each side's window the larger.
    fn max(self, o: Bound) -> Bound {
        let big = if o.squares() > self.squares() { o } else { self };
        Bound {
            windows: [self.windows[0].max(o.windows[0]), self.windows[1].max(o.windows[1])],
            ..big
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// No counterexample among boards of up to `cells` squares.
    HoldsUpTo {
        /// The largest box, in squares, searched in full.
        cells: usize,
        /// What stopped a larger box short, if anything did.
        stopped: Option<Limit>,
        /// Set when the search covered every board that bears on the
        /// claim: the sides are equal.
        bound: Option<Bound>,
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
    /// The work they took: the states they made, and one for each.
    pub work: u64,
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
    cube: Cube,
}

/// What the jobs share: the moves, the caps that stop them all, and the
/// first job (in order) known to end the search.
struct Search<'a> {
    mode: Mode,
    left: &'a Prog,
    right: &'a Prog,
    universe: &'a Universe,
    options: &'a EnumerationOptions,
    deadline: Deadline,
    timed_out: AtomicBool,
    out_of_memory: AtomicBool,
    decided_by: AtomicUsize,
}

/// One job's own search: its share of the work, what it did, and the
/// smallest counterexample it found.
struct Run {
    job: usize,
    share: Option<u64>,
    over: bool,
    too_big: bool,
    best: Option<Best>,
    stats: Stats,
}

impl Run {
    fn new(job: usize, share: Option<u64>) -> Run {
        Run {
            job,
            share,
            over: false,
            too_big: false,
            best: None,
            stats: Stats::default(),
        }
    }

    /// Whether the job ends the search: it found a counterexample, or an
    /// evaluation too big for the budget.
    fn decides(&self) -> bool {
        self.best.is_some() || self.too_big
    }

    /// Counts one evaluation: false when the share is spent.
    fn spend(&mut self) -> bool {
        if self.share.is_some_and(|s| self.stats.work >= s) {
            self.over = true;
            return false;
        }
        self.stats.runs += 1;
        true
    }
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
    fn new<'a>(
        mode: Mode,
        left: &'a Prog,
        right: &'a Prog,
        universe: &'a Universe,
        options: &'a EnumerationOptions,
        deadline: Deadline,
    ) -> Search<'a> {
        Search {
            mode,
            left,
            right,
            universe,
            options,
            deadline,
            timed_out: AtomicBool::new(false),
            out_of_memory: AtomicBool::new(false),
            decided_by: AtomicUsize::new(usize::MAX),
        }
    }

    /// Whether a cap stopped the search, or a job before this one ended
    /// it.
    fn stopped(&self, run: &Run) -> bool {
        self.timed_out.load(Ordering::Relaxed)
            || self.out_of_memory.load(Ordering::Relaxed)
            || self.decided_by.load(Ordering::Relaxed) < run.job
    }

    /// Whether the two result sets are equal on every board of the cube.
    /// `work` counts the states the evaluation made, and one for it.
    fn decide(&self, cube: &Cube, poi: Option<usize>, work: &mut u64) -> Result<bool, Undecided> {
        let start = State {
            board: Sym::initial(cube, self.universe),
            poi: poi.map(|i| cube.squares[i]),
        };
        let mut eval = Eval::new(self.options.eval_budget).with_memory(self.options.memory);
        let both = eval
            .run(self.left, &start)
            .and_then(|a| Ok((a, eval.run(self.right, &start)?)));
        *work += 1 + eval.made() as u64;
        let (a, b) = both?;
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

    fn dfs(&self, cube: Cube, run: &mut Run, poi: Option<usize>) {
        if run.over || run.too_big || self.stopped(run) {
            return;
        }
        if self.options.memory.exceeded() {
            self.out_of_memory.store(true, Ordering::Relaxed);
            return;
        }
        if self.deadline.passed() {
            self.timed_out.store(true, Ordering::Relaxed);
            return;
        }
        // A cube forcing as many squares as the job's best cannot beat it.
        if run.best.as_ref().is_some_and(|b| cube.forced_on() >= b.squares) || !run.spend() {
            return;
        }
        match self.decide(&cube, poi, &mut run.stats.work) {
            Ok(same) => {
                run.stats.leaves += 1;
                run.stats.boards += cube.boards();
                if !same {
                    let squares = cube
                        .doms
                        .iter()
                        .filter(|d| self.universe.representative(**d) != OFF)
                        .count();
                    if run.best.as_ref().is_none_or(|b| squares < b.squares) {
                        run.best = Some(Best { squares, cube });
                        self.decided_by.fetch_min(run.job, Ordering::Relaxed);
                    }
                }
            }
            Err(Undecided::Split(s)) => {
                for half in cube.split(s) {
                    self.dfs(half, run, poi);
                }
            }
            Err(Undecided::TooBig) => {
                run.too_big = true;
                self.decided_by.fetch_min(run.job, Ordering::Relaxed);
            }
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
    options: &EnumerationOptions,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    let mut named = left.pieces();
    named.extend(right.pieces());
    named.sort();
    named.dedup();
    let Some(universe) = Universe::new(&named, other_piece(&named, pieces)) else {
        return Outcome::TooManyPieces { pieces: named.len() };
    };
    let deadline = options.timeout.start();
    // The exhaustive search leaves a fifth of the work, and of the time,
    // to sparse boards.
    let (work, exhaustive) = match options.sparse {
        true => (options.work.map(|w| w - w / 5), deadline.part(0.8)),
        false => (options.work, deadline),
    };
    let mode = if open { Mode::Open } else { Mode::Closed };
    let found = exhaust(left, right, open, &universe, options, work, exhaustive, progress);
    match found {
        Outcome::HoldsUpTo {
            cells,
            stopped,
            bound: None,
            mut stats,
        } if options.sparse => {
            let left_over = options.work.map(|w| w.saturating_sub(stats.work));
            match sparse(
                mode, left, right, &universe, options, cells, left_over, deadline, &mut stats,
            ) {
                Some(refuted) => refuted,
                None => Outcome::HoldsUpTo {
                    cells,
                    stopped,
                    bound: None,
                    stats,
                },
            }
        }
        other => other,
    }
}

/// The exhaustive search within `work` evaluations: binder by binder
/// first, then whole boards.
#[allow(clippy::too_many_arguments)]
fn exhaust(
    left: &Prog,
    right: &Prog,
    open: bool,
    universe: &Universe,
    options: &EnumerationOptions,
    work: Option<u64>,
    deadline: Deadline,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    let mut spent = 0;
    if !open && options.decompose {
        if let (Some(l), Some(r)) = (decompose(left), decompose(right)) {
            let mut pieces: Vec<Content> = l.keys().chain(r.keys()).copied().collect();
            pieces.sort();
            pieces.dedup();
            let mut stats = Stats::default();
            let mut cells = options.max_cells;
            let mut stopped = None;
            let mut bounds = Some(None::<Bound>);
            let mut all_hold = true;
            for c in pieces {
                let side = |m: &BTreeMap<Content, Vec<Prog>>| m.get(&c).map_or(Prog::Fail, |v| Prog::Alt(v.clone()));
                let (lp, rp) = (side(&l), side(&r));
                let left_over = work.map(|w| w.saturating_sub(stats.work));
                match search(
                    Mode::Bound(c),
                    &lp,
                    &rp,
                    universe,
                    options,
                    left_over,
                    deadline,
                    progress,
                ) {
                    Outcome::HoldsUpTo {
                        cells: n,
                        stopped: s,
                        bound,
                        stats: done,
                    } => {
                        cells = cells.min(n);
                        stopped = stopped.or(s);
                        stats.add(&done);
                        // Decided when every binder's bodies were.
                        bounds = match (bounds, bound) {
                            (Some(b), Some(c)) => Some(Some(b.map_or(c, |b| b.max(c)))),
                            _ => None,
                        };
                    }
                    _ => {
                        all_hold = false;
                        break;
                    }
                }
            }
            if all_hold {
                return match bounds.flatten() {
                    Some(b) => Outcome::HoldsUpTo {
                        cells: b.squares(),
                        stopped: None,
                        bound: Some(b),
                        stats,
                    },
                    None => Outcome::HoldsUpTo {
                        cells,
                        stopped,
                        bound: None,
                        stats,
                    },
                };
            }
            spent = stats.work;
        }
    }
    let mode = if open { Mode::Open } else { Mode::Closed };
    let work = work.map(|w| w.saturating_sub(spent));
    search(mode, left, right, universe, options, work, deadline, progress)
}

/// The longest line of squares sparse boards reach.
const SPARSE_LINE: i32 = 24;
/// The most sparse boards one search tries.
const SPARSE_BOARDS: usize = 50_000;

/// Boards past the exhaustive bound that long moves need: lines and
/// squares larger than `done` squares, empty but for one or two pieces
/// (the POI on a piece, or at either end of the board), within `work`
/// of them. A board where the sides differ refutes the claim like any
/// other; none found adds nothing to what the exhaustive search showed.
#[allow(clippy::too_many_arguments)]
fn sparse(
    mode: Mode,
    left: &Prog,
    right: &Prog,
    universe: &Universe,
    options: &EnumerationOptions,
    done: usize,
    work: Option<u64>,
    deadline: Deadline,
    stats: &mut Stats,
) -> Option<Outcome> {
    let search = Search::new(mode, left, right, universe, options, deadline);
    let before = stats.work;
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
                    || work.is_some_and(|w| stats.work - before >= w)
                    || tried.is_multiple_of(64) && (deadline.passed() || options.memory.exceeded())
                {
                    return None;
                }
                stats.runs += 1;
                if let Ok(false) = search.decide(&cube, poi, &mut stats.work) {
                    let at = poi.map(|i| cube.squares[i]);
                    return Some(Outcome::Refuted {
                        cells: n,
                        counterexample: concretise(left, right, universe, &cube, at),
                        stats: stats.clone(),
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
        self.work += o.work;
        self.boards += o.boards;
    }
}

/// The search proper, budget by budget, within `work` evaluations.
#[allow(clippy::too_many_arguments)]
fn search(
    mode: Mode,
    left: &Prog,
    right: &Prog,
    universe: &Universe,
    options: &EnumerationOptions,
    work: Option<u64>,
    deadline: Deadline,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Outcome {
    let mut stats = Stats::default();
    if mode != Mode::Closed && options.window {
        match in_window(mode, left, right, universe, options, work, deadline) {
            Ok(decided) => return decided,
            Err(spent) => stats = spent,
        }
    }
    let mut done_cells = 0;
    let mut stopped = None;
    let mut budgets = vec![];
    let mut n = 1;
    while n < options.max_cells {
        budgets.push(n);
        n *= 2;
    }
    budgets.push(options.max_cells);
    let search = Search::new(mode, left, right, universe, options, deadline);
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
        // Each job's share is fixed before any starts.
        let share = work.map(|w| w.saturating_sub(stats.work) / jobs.len() as u64);
        let finished = AtomicUsize::new(0);
        let base = search.decided_by.load(Ordering::Relaxed);
        debug_assert_eq!(base, usize::MAX, "a decided search ends at its size");
        let runs: Vec<Run> = jobs
            .par_iter()
            .enumerate()
            .map(|(j, job)| {
                let mut run = Run::new(j, share);
                let mut cube = Cube::new(job.width, job.height, universe.full());
                if let Some(p) = job.poi {
                    cube.doms[p] = match mode {
                        Mode::Bound(c) => universe.bit(c),
                        // The POI is a square of the board.
                        _ => cube.doms[p] & !OFF,
                    };
                }
                search.dfs(cube, &mut run, job.poi);
                progress(cells, finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                run
            })
            .collect();
        if search.out_of_memory.load(Ordering::Relaxed) {
            return Outcome::OutOfMemory {
                cells,
                limit: options.memory,
            };
        }
        // The first job that ends the search decides, whatever ran first;
        // the jobs after it, stopped wherever they were, are not counted.
        let decisive = runs.iter().position(Run::decides);
        for r in &runs[..decisive.map_or(runs.len(), |j| j + 1)] {
            stats.add(&r.stats);
        }
        if let Some(j) = decisive {
            let run = &runs[j];
            let Some(best) = &run.best else {
                return Outcome::TooBig {
                    cells,
                    budget: options.eval_budget,
                };
            };
            let poi = jobs[j].poi.map(|i| best.cube.squares[i]);
            return Outcome::Refuted {
                cells,
                counterexample: concretise(left, right, universe, &best.cube, poi),
                stats,
            };
        }
        if search.timed_out.load(Ordering::Relaxed) {
            return Outcome::HoldsUpTo {
                cells: done_cells,
                stopped: Some(Limit::Timeout),
                bound: None,
                stats,
            };
        }
        // A size some job could not finish is not covered, but larger boxes
        // may still show a counterexample quickly: they get the work left.
        if runs.iter().any(|r| r.over) {
            stopped = Some(Limit::Work);
        } else if stopped.is_none() {
            done_cells = cells;
        }
        if work.is_some_and(|w| stats.work >= w) {
            break;
        }
    }
    Outcome::HoldsUpTo {
        cells: done_cells,
        stopped,
        bound: None,
        stats,
    }
}

/// The search of moves anchored on the POI within their window's box, the
/// POI at its place: a decision (see `window.rs`). `Err` with the work
/// done when the moves have no window, or the box was not searched to its
/// end within `work`.
#[allow(clippy::too_many_arguments)]
fn in_window(
    mode: Mode,
    left: &Prog,
    right: &Prog,
    universe: &Universe,
    options: &EnumerationOptions,
    work: Option<u64>,
    deadline: Deadline,
) -> Result<Outcome, Stats> {
    let (Some(wl), Some(wr)) = (window(left), window(right)) else {
        return Err(Stats::default());
    };
    let Some((corner, width, height)) = bounding(&wl.union(&wr).copied().collect()) else {
        return Err(Stats::default());
    };
    let mut cube = Cube::new(width, height, universe.full());
    let poi = cube
        .squares
        .iter()
        .position(|q| *q == Square::ORIGIN - corner)
        .expect("the box holds the POI's square");
    cube.doms[poi] = match mode {
        Mode::Bound(c) => universe.bit(c),
        _ => cube.doms[poi] & !OFF,
    };
    let search = Search::new(mode, left, right, universe, options, deadline);
    let mut run = Run::new(0, work);
    search.dfs(cube, &mut run, Some(poi));
    let cells = (width * height) as usize;
    if search.out_of_memory.load(Ordering::Relaxed) {
        return Ok(Outcome::OutOfMemory {
            cells,
            limit: options.memory,
        });
    }
    if run.too_big {
        return Ok(Outcome::TooBig {
            cells,
            budget: options.eval_budget,
        });
    }
    if let Some(best) = &run.best {
        let at = Some(best.cube.squares[poi]);
        return Ok(Outcome::Refuted {
            cells,
            counterexample: concretise(left, right, universe, &best.cube, at),
            stats: run.stats,
        });
    }
    if run.over || search.timed_out.load(Ordering::Relaxed) {
        return Err(run.stats);
    }
    Ok(Outcome::HoldsUpTo {
        cells,
        stopped: None,
        bound: Some(Bound {
            width,
            height,
            windows: [wl.len(), wr.len()],
        }),
        stats: run.stats,
    })
}

/// Turns a leaf cube into a concrete counterexample, running the ordinary
/// evaluator on its representative board: a cross-check of the symbolic
/// run.
fn concretise(left: &Prog, right: &Prog, u: &Universe, cube: &Cube, poi: Option<Square>) -> Counterexample {
    let board = cube.shown(u, poi);
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
    use crate::ir::{gen, Content, Term};
    use crate::semantics::{compile, Store};
    use quickcheck::{QuickCheck, TestResult};

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
        let mut options = EnumerationOptions {
            max_cells: 6,
            timeout: Timer::limited(std::time::Duration::from_secs(20), &crate::clock::SystemClock),
            ..EnumerationOptions::default()
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
            let mut g = crate::rng::Rng::new(seed);
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
                let options = EnumerationOptions {
                    max_cells: 4,
                    decompose,
                    ..EnumerationOptions::default()
                };
                let outcome = compare(&Pieces::chess(), &l, &r, open, &options, &|_, _, _| {});
                // The window of anchored moves reaches past the brute
                // force's boxes: a counterexample there is no disagreement.
                let beyond = matches!(&outcome, Outcome::Refuted { counterexample, .. }
                    if counterexample.board.width() * counterexample.board.height() > 4);
                let found = matches!(outcome, Outcome::Refuted { .. });
                if found != truth && !(found && beyond) {
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
