//! Checking one claim: moves by bounded search, movements, fragments and
//! patterns by their normal forms, and laws (claims with metavariables) on
//! random instances of their metavariables.

use super::cube::MAX_NAMED;
pub use super::enumerate::Limit;
use super::enumerate::{compare, Bound, Counterexample, EnumerationOptions, Outcome};
use crate::clock::Deadline;
use crate::elab::Claim;
use crate::geometry::Square;
use crate::ir::{gen, Cell, Content, Fragment, Meta, Pieces, Rel, Sort, Term};
use crate::semantics::{compile, Grid, State};
use std::collections::BTreeMap;
use std::time::Duration;

/// Limits for checking claims.
#[derive(Clone, Debug)]
pub struct ClaimOptions {
    /// How boards are enumerated for a move claim.
    pub search: EnumerationOptions,
    /// Random instances tried for a law.
    pub instances: usize,
    /// The largest box for each instance of a law.
    pub instance_cells: usize,
    /// Seed of the random instances of a law, so a run is reproducible.
    pub seed: u64,
}

impl Default for ClaimOptions {
    fn default() -> Self {
        ClaimOptions {
            search: EnumerationOptions::default(),
            instances: 32,
            instance_cells: 6,
            seed: 0x5eed,
        }
    }
}

/// What checking a claim found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Finding {
    /// The two sides differ: there is a counterexample.
    Refuted,
    /// No difference on any board up to the size searched: evidence, not proof.
    HoldsUpTo,
}

/// One result state: a board (rows, top to bottom) and the POI square.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StateReport {
    /// The board's rows, top to bottom, as they print.
    pub board: Vec<String>,
    /// The POI's square, `[x, y]`, if there is one.
    pub poi: Option<[i32; 2]>,
    /// The POI's square by name (`a1`), or on hex its cell (`b1`, see
    /// `Grid::hex_name`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub poi_cell: Option<String>,
}

impl StateReport {
    /// `s`, its board drawn with `pieces`.
    pub fn new(s: &State<Grid>, pieces: &Pieces) -> StateReport {
        StateReport {
            board: s.board.rows(pieces),
            poi: s.poi.map(|q| [q.x, q.y]),
            poi_cell: None,
        }
    }
}

/// Where two sides differ.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "kebab-case"))]
pub enum CounterReport {
    /// A board on which two moves give different result sets.
    Board {
        /// The counterexample board, rows top to bottom.
        board: Vec<String>,
        /// The POI's square on that board, when the moves have one.
        poi: Option<[i32; 2]>,
        /// The POI's square by name, as FEN and SAN name squares (`a1`,
        /// the box's bottom-left square); on hex, its cell (`b1`).
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        poi_cell: Option<String>,
        /// What the POI's square holds: a piece as the board draws it, or
        /// `.` for an empty square.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        poi_on: Option<String>,
        /// On-board squares of the board.
        squares: usize,
        /// The left side's result states.
        left: Vec<StateReport>,
        /// The right side's result states.
        right: Vec<StateReport>,
        /// For a law, the metavariables' values (printed) that refute it.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        instance: Option<BTreeMap<String, String>>,
    },
    /// Two movements, fragments or patterns with different normal forms.
    NormalForm {
        /// The left side's normal form, printed.
        left: String,
        /// The right side's normal form, printed.
        right: String,
        /// For a law, the metavariables' values (printed) that refute it.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        instance: Option<BTreeMap<String, String>>,
    },
}

/// The outcome of checking one claim, as `check --json` prints it.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CheckerReport {
    /// The claim's name as written.
    pub name: String,
    /// The relation the claim states.
    pub relation: Rel,
    /// What the check found.
    pub verdict: Finding,
    /// Where the sides differ, when they do.
    pub counterexample: Option<CounterReport>,
    /// The largest box searched in full, in squares (0 when the claim was
    /// decided by normal forms).
    pub cells: usize,
    /// Wall-clock time of the check, in milliseconds.
    pub ms: u64,
    /// False when a time or evaluation limit cut the search short.
    pub complete: bool,
    /// Which limit cut it short.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub stopped_by: Option<Limit>,
    /// True when the claim was decided exactly, by normal forms, not by
    /// searching boards.
    pub exact: bool,
    /// Set when the search was a decision, not evidence: both sides are
    /// moves anchored on the POI, and every board of this box around
    /// their windows was covered, so they are equal on every board (the
    /// small-model bound; see ARCHITECTURE.md).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub bound: Option<Bound>,
    /// Instances tried, for a law.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub instances: Option<usize>,
    /// Symbolic leaves (cubes of boards) run.
    pub leaves: u64,
    /// The work the search did: the states its evaluations made, and one
    /// for each (what `--work` bounds).
    pub work: u64,
    /// Concrete states (board and POI) the leaves cover.
    pub boards: f64,
    /// Why the search stopped short or checked no board, in words.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub note: Option<String>,
}

impl CheckerReport {
    /// Whether the verdict agrees with the claimed relation. A search that
    /// covered no board agrees with nothing.
    pub fn agrees(&self) -> bool {
        match (self.relation, self.verdict) {
            (Rel::Eq | Rel::Oriented, Finding::HoldsUpTo) => self.exact || self.cells > 0,
            (Rel::Ne, Finding::Refuted) => true,
            _ => false,
        }
    }
}

/// What one instance of a claim came to.
enum Found {
    Same {
        cells: usize,
        complete: bool,
        stopped_by: Option<Limit>,
        exact: bool,
        bound: Option<Bound>,
        leaves: u64,
        work: u64,
        boards: f64,
        note: Option<String>,
    },
    Differ {
        cells: usize,
        report: CounterReport,
        leaves: u64,
        work: u64,
        boards: f64,
    },
}

impl Found {
    /// The sides agree as far as `cells` squares, with no board enumerated
    /// (the same term, equal normal forms, or a search that could not
    /// start).
    fn unsearched(cells: usize, complete: bool, stopped_by: Option<Limit>, exact: bool, note: Option<String>) -> Found {
        Found::Same {
            cells,
            complete,
            stopped_by,
            exact,
            bound: None,
            leaves: 0,
            work: 0,
            boards: 0.0,
            note,
        }
    }

    /// The work it took.
    fn work(&self) -> u64 {
        match self {
            Found::Same { work, .. } | Found::Differ { work, .. } => *work,
        }
    }
}

fn counter_board(pieces: &Pieces, c: &Counterexample, instance: Option<BTreeMap<String, String>>) -> CounterReport {
    CounterReport::Board {
        board: c.board.rows(pieces),
        poi: c.poi.map(|q| [q.x, q.y]),
        poi_cell: None,
        poi_on: None,
        squares: c.squares(),
        left: c.left.iter().map(|s| StateReport::new(s, pieces)).collect(),
        right: c.right.iter().map(|s| StateReport::new(s, pieces)).collect(),
        instance,
    }
}

fn compare_terms(
    pieces: &Pieces,
    lhs: &Term,
    rhs: &Term,
    options: &EnumerationOptions,
    instance: Option<BTreeMap<String, String>>,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Found {
    // The same term on both sides: equal on every board, no search needed.
    if lhs == rhs {
        return Found::unsearched(0, true, None, true, None);
    }
    if lhs.sort() != Sort::Move {
        return compare_forms(pieces, lhs, rhs, instance);
    }
    let (l, r) = (
        compile(lhs).expect("a closed move compiles"),
        compile(rhs).expect("a closed move compiles"),
    );
    let open = lhs.is_open() || rhs.is_open();
    let outcome = compare(pieces, &l, &r, open, options, progress);
    found(pieces, outcome, options, instance)
}

/// Movements, fragments and patterns compared by their normal forms.
fn compare_forms(pieces: &Pieces, lhs: &Term, rhs: &Term, instance: Option<BTreeMap<String, String>>) -> Found {
    let same = match (lhs.as_pattern(), rhs.as_pattern()) {
        (Some(a), Some(b)) => a == b,
        _ => lhs == rhs,
    };
    if same {
        return Found::unsearched(0, true, None, true, None);
    }
    Found::Differ {
        cells: 0,
        report: CounterReport::NormalForm {
            left: pieces.show(lhs).to_string(),
            right: pieces.show(rhs).to_string(),
            instance,
        },
        leaves: 0,
        work: 0,
        boards: 0.0,
    }
}

/// What a search of boards found, as the claim's report reads it.
fn found(
    pieces: &Pieces,
    outcome: Outcome,
    options: &EnumerationOptions,
    instance: Option<BTreeMap<String, String>>,
) -> Found {
    match outcome {
        Outcome::HoldsUpTo {
            cells,
            stopped,
            bound,
            stats,
        } => Found::Same {
            cells,
            complete: stopped.is_none(),
            stopped_by: stopped,
            exact: false,
            bound,
            leaves: stats.leaves,
            work: stats.work,
            boards: stats.boards,
            note: stopped.map(|l| format!("{} stopped the search", limit_name(l, options))),
        },
        Outcome::Refuted {
            cells,
            counterexample,
            stats,
        } => Found::Differ {
            cells,
            report: counter_board(pieces, &counterexample, instance),
            leaves: stats.leaves,
            work: stats.work,
            boards: stats.boards,
        },
        Outcome::OutOfMemory { cells, limit } => Found::unsearched(
            cells / 2,
            false,
            Some(Limit::Memory),
            false,
            Some(format!(
                "the memory limit ({limit}) stopped the search on a {cells}-square box"
            )),
        ),
        Outcome::TooManyPieces { pieces } => Found::unsearched(
            0,
            false,
            None,
            false,
            Some(format!(
                "the moves name {pieces} pieces; the search tells at most {MAX_NAMED} apart, so it checked no board"
            )),
        ),
        Outcome::TooBig { cells, budget } => Found::unsearched(
            cells / 2,
            false,
            Some(Limit::StateBudget),
            false,
            Some(format!(
                "the state budget stopped the search: one evaluation made more than {budget} states on a {cells}-square box"
            )),
        ),
    }
}

/// The limit in words, with its value.
fn limit_name(limit: Limit, options: &EnumerationOptions) -> String {
    match limit {
        Limit::Timeout => {
            let t = options
                .timeout
                .limit()
                .map_or(String::new(), |t| format!(" ({} s)", t.as_secs_f64()));
            format!("the enumeration's timeout{t}")
        }
        Limit::Work => {
            let w = options.work.map_or(String::new(), |w| format!(" ({w})"));
            format!("the enumeration's work limit{w}")
        }
        Limit::StateBudget => "the state budget".into(),
        Limit::Memory => "the memory limit".into(),
    }
}

/// A random instance of a law's metavariables: inputs drawn at random (as
/// its side conditions suggest), outputs computed by the conditions. `None`
/// when a condition fails on the draw.
fn instance(claim: &Claim, metas: &[Meta], g: &mut crate::rng::Rng) -> Option<(Term, Term, BTreeMap<String, String>)> {
    let output = |m: &Meta| claim.conds.iter().any(|c| c.outputs().contains(m));
    let mut chosen: BTreeMap<String, Term> = BTreeMap::new();
    for m in metas.iter().filter(|m| !output(m)) {
        let hinted = claim.conds.iter().find_map(|c| {
            let i = c.args.iter().position(|a| a == m)?;
            crate::laws::conds::sample_input(c.pred, i, g)
        });
        chosen.insert(
            m.name.to_string(),
            hinted.unwrap_or_else(|| gen::term_on(g, m.sort, claim.tiling)),
        );
    }
    for c in &claim.conds {
        let inputs: Vec<Term> = c
            .inputs()
            .iter()
            .map(|a| chosen.get(&*a.name).cloned())
            .collect::<Option<_>>()?;
        let outputs = crate::laws::conds::decide(c.pred, &inputs, &claim.pieces)?;
        for (a, v) in c.outputs().iter().zip(outputs) {
            chosen.insert(a.name.to_string(), v);
        }
    }
    let subst = |m: &Meta| chosen.get(&*m.name).cloned();
    let l = claim.lhs.substitute(&subst, &claim.pieces).ok()?;
    let r = claim.rhs.substitute(&subst, &claim.pieces).ok()?;
    Some((
        l,
        r,
        chosen
            .iter()
            .map(|(k, v)| (k.clone(), claim.pieces.show(v).to_string()))
            .collect(),
    ))
}

/// The instance of a law about moves only where each metavariable is one
/// piece's step up a line (a rook's for the first, a pawn's for the
/// second): what counts of repetition say shows on a long line with one
/// piece, a board sparse search reaches and small boxes do not.
fn climbing_instance(claim: &Claim, metas: &[Meta]) -> Option<(Term, Term, BTreeMap<String, String>)> {
    if !claim.conds.is_empty() || metas.len() > 2 || metas.iter().any(|m| m.sort != Sort::Move) {
        return None;
    }
    let up = Square::new(0, 1);
    let step = |p| {
        let cells = |a, b| Fragment::from_cells([(Square::ORIGIN, a), (up, b)]).map(Term::fragment);
        let (here, there) = (Cell::Is(Content::Piece(p)), Cell::Is(Content::Empty));
        Some(Term::rule(&cells(here, there).ok()?, &cells(there, here).ok()?))
    };
    let chosen: BTreeMap<String, Term> = metas
        .iter()
        .zip(gen::palette())
        .map(|(m, p)| Some((m.name.to_string(), step(p)?)))
        .collect::<Option<_>>()?;
    let subst = |m: &Meta| chosen.get(&*m.name).cloned();
    let l = claim.lhs.substitute(&subst, &claim.pieces).ok()?;
    let r = claim.rhs.substitute(&subst, &claim.pieces).ok()?;
    Some((
        l,
        r,
        chosen
            .iter()
            .map(|(k, v)| (k.clone(), claim.pieces.show(v).to_string()))
            .collect(),
    ))
}

/// Checks one claim on boards (`check_claim_on`, beside the positions,
/// compares it on reachable positions too).
pub fn check_claim(
    claim: &Claim,
    options: &ClaimOptions,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> CheckerReport {
    let start = options.search.timeout.start();
    let metas: Vec<Meta> = {
        let mut v = claim.lhs.metas();
        for m in claim.rhs.metas() {
            if !v.contains(&m) {
                v.push(m);
            }
        }
        v
    };
    let mut report = CheckerReport {
        name: claim.name.clone(),
        relation: claim.rel,
        verdict: Finding::HoldsUpTo,
        counterexample: None,
        cells: 0,
        ms: 0,
        complete: true,
        stopped_by: None,
        exact: false,
        bound: None,
        instances: None,
        leaves: 0,
        work: 0,
        boards: 0.0,
        note: None,
    };
    let mut tally = Tally {
        reached: None,
        all_exact: true,
        law: !metas.is_empty(),
    };
    if metas.is_empty() {
        let found = compare_terms(&claim.pieces, &claim.lhs, &claim.rhs, &options.search, None, progress);
        tally.absorb(&mut report, found);
    } else {
        check_instances(claim, &metas, options, start, &mut report, &mut tally, progress);
    }
    report.ms = start.elapsed().as_millis() as u64;
    if let Some(c) = &mut report.counterexample {
        c.draw_on(claim.tiling, &claim.pieces);
    }
    report
}

/// What a claim's report gathers over the comparisons made.
struct Tally {
    /// The bound reported for a law: the one every instance reached.
    reached: Option<usize>,
    all_exact: bool,
    /// The claim has metavariables: its comparisons are instances.
    law: bool,
}

impl Tally {
    /// Adds `found` to `report`; true when it refutes the claim.
    fn absorb(&mut self, report: &mut CheckerReport, found: Found) -> bool {
        match found {
            Found::Same {
                cells,
                complete,
                stopped_by,
                exact,
                bound,
                leaves,
                work,
                boards,
                note,
            } => {
                // An instance decided exactly (both sides the same term)
                // says nothing of how far the others were searched.
                if !exact {
                    self.reached = Some(self.reached.map_or(cells, |r| r.min(cells)));
                }
                report.cells = self.reached.unwrap_or(0);
                report.complete &= complete;
                report.stopped_by = report.stopped_by.or(stopped_by);
                self.all_exact &= exact;
                report.exact = self.all_exact;
                // A bound decides a closed claim; instances of a law are
                // samples, and a sample decides nothing of the rest.
                report.bound = if self.law { None } else { bound };
                report.leaves += leaves;
                report.work += work;
                report.boards += boards;
                report.note = report.note.take().or(note);
                false
            }
            Found::Differ {
                cells,
                report: c,
                leaves,
                work,
                boards,
            } => {
                report.verdict = Finding::Refuted;
                report.cells = cells;
                report.counterexample = Some(c);
                report.leaves += leaves;
                report.work += work;
                report.boards += boards;
                true
            }
        }
    }
}

/// Checks a law on random instances of its metavariables, sharing the
/// claim's work and timeout among them, then (time left) on its
/// climbing instance.
fn check_instances(
    claim: &Claim,
    metas: &[Meta],
    options: &ClaimOptions,
    start: Deadline,
    report: &mut CheckerReport,
    tally: &mut Tally,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) {
    // Instances are many and small: no sparse boards.
    let mut per_instance = EnumerationOptions {
        max_cells: options.search.max_cells.min(options.instance_cells),
        sparse: false,
        ..options.search.clone()
    };
    let mut g = crate::rng::Rng::new(options.seed);
    let mut tried = 0;
    let mut attempts = 0;
    // The climbing instance, when there is one, keeps half the work
    // and a quarter of the timeout, so the random instances cannot
    // spend it all before the one that shows what counts of
    // repetition say.
    let climbing = options.search.sparse.then(|| climbing_instance(claim, metas)).flatten();
    let half = |x: u64| if climbing.is_some() { x - x / 2 } else { x };
    let random_work = options.search.work.map(half);
    let random_limit = if climbing.is_some() { start.part(0.75) } else { start };
    let mut spent = 0u64;
    while tried < options.instances && attempts < options.instances * 8 {
        attempts += 1;
        let Some((l, r, shown)) = instance(claim, metas, &mut g) else {
            continue;
        };
        // The work and the timeout are the claim's, shared by its
        // instances: each gets an even share of what is left.
        let work_left = random_work.map(|w| w.saturating_sub(spent));
        let time_left = random_limit.rest();
        let out = if time_left.limit() == Some(Duration::ZERO) {
            Some(Limit::Timeout)
        } else if work_left == Some(0) {
            Some(Limit::Work)
        } else {
            None
        };
        if let Some(limit) = out {
            report.complete = false;
            report.stopped_by = Some(limit);
            report.note = Some(format!(
                "{} stopped it after {tried} instances",
                limit_name(limit, &options.search)
            ));
            break;
        }
        per_instance.work = work_left.map(|w| (w / (options.instances - tried) as u64).max(1));
        per_instance.timeout = time_left;
        tried += 1;
        let mut found = compare_terms(&claim.pieces, &l, &r, &per_instance, Some(shown), &|_, _, _| {});
        spent += found.work();
        note_share_stopped(&mut found, tried, &options.search);
        // An instance a limit stopped before it covered any board says
        // nothing. One its share of the work was too small for is
        // passed over (a smaller one may fit, and the share is spent);
        // after a timeout or the memory limit the instances before it
        // stand.
        if let Found::Same {
            cells: 0,
            exact: false,
            stopped_by: Some(limit),
            ..
        } = found
        {
            if limit == Limit::Work {
                tried -= 1;
                report.complete = false;
                report.stopped_by.get_or_insert(limit);
                continue;
            }
            if tried > 1 {
                tried -= 1;
                report.complete = false;
                report.stopped_by = Some(limit);
                break;
            }
        }
        progress(per_instance.max_cells, tried, options.instances);
        if tally.absorb(report, found) {
            break;
        }
    }
    // Then, time left, the climbing instance on sparse boards too, with
    // the work left.
    let time_left = !start.passed();
    if report.verdict != Finding::Refuted && time_left {
        if let Some(found) = climbing.and_then(|c| climb(claim, c, &per_instance, &options.search, start, spent)) {
            tried += 1;
            tally.absorb(report, found);
            // Refuted: what stopped the random instances no
            // longer bears on the verdict.
            report.note = None;
            report.stopped_by = None;
        }
    }
    report.instances = Some(tried);
}

/// A share of the work stopped instance `tried`: the claim's work limit
/// showing, and said so.
fn note_share_stopped(found: &mut Found, tried: usize, options: &EnumerationOptions) {
    if let Found::Same {
        stopped_by: Some(Limit::Work),
        note: note @ Some(_),
        cells,
        ..
    } = found
    {
        *note = Some(format!(
            "{} stopped instance {tried} at {} squares",
            limit_name(Limit::Work, options),
            cells
        ));
    }
}

/// The climbing instance on sparse boards too, with the work (of the
/// claim's, `spent` gone) and the time left: what it found when it
/// refutes the law.
fn climb(
    claim: &Claim,
    (l, r, shown): (Term, Term, BTreeMap<String, String>),
    per_instance: &EnumerationOptions,
    options: &EnumerationOptions,
    start: Deadline,
    spent: u64,
) -> Option<Found> {
    let sparse = EnumerationOptions {
        sparse: true,
        work: options.work.map(|w| w.saturating_sub(spent)),
        timeout: start.rest(),
        ..per_instance.clone()
    };
    match compare_terms(&claim.pieces, &l, &r, &sparse, Some(shown), &|_, _, _| {}) {
        found @ Found::Differ { .. } => Some(found),
        Found::Same { .. } => None,
    }
}

impl CounterReport {
    /// Redraws the boards, made as square rows, as `tiling` draws them.
    /// Coordinates (the POI's) stay those of the rows' box; the POI is
    /// also named as FEN and SAN name squares (`a1`, from the box's
    /// bottom-left), or on hex by its cell (`b1`), and what it holds is
    /// said.
    pub fn draw_on(&mut self, tiling: crate::geometry::Tiling, pieces: &Pieces) {
        let redraw = |rows: &mut Vec<String>, poi: Option<[i32; 2]>, cell: &mut Option<String>| {
            let g = Grid::parse(&rows.join("\n"), pieces).ok()?;
            let q = poi
                .map(|[x, y]| crate::geometry::Square::new(x, y))
                .filter(|q| g.get(*q).is_some());
            *cell = q.map(|q| match tiling {
                crate::geometry::Tiling::Hex => g.hex_name(q),
                crate::geometry::Tiling::Square => q.name(),
            });
            *rows = g.lines_on(tiling, pieces);
            q.and_then(|q| g.get(q)).map(|c| pieces.show(&c).to_string())
        };
        if let CounterReport::Board {
            board,
            poi,
            poi_cell,
            poi_on,
            left,
            right,
            ..
        } = self
        {
            *poi_on = redraw(board, *poi, poi_cell);
            left.iter_mut().chain(right.iter_mut()).for_each(|s| {
                redraw(&mut s.board, s.poi, &mut s.poi_cell);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use std::time::Duration;

    /// A law that only a long line refutes (eight steps against seven) is
    /// refuted even when random instances could fill the whole timeout:
    /// the climbing instance keeps its share.
    #[test]
    fn climbing_keeps_its_share_of_the_timeout() {
        let program = Program::from_text("t.alg", "theorem t: M{2,3} M{1,4} != M{3,8}\n").unwrap();
        let options = ClaimOptions {
            search: EnumerationOptions {
                timeout: crate::clock::Timer::limited(Duration::from_secs(2), &crate::clock::SystemClock),
                sparse: true,
                ..EnumerationOptions::default()
            },
            instances: 1_000_000,
            ..ClaimOptions::default()
        };
        let r = check_claim(&program.claims()[0], &options, &|_, _, _| {});
        assert_eq!(
            r.verdict,
            Finding::Refuted,
            "{:?} after {:?} instances",
            r.note,
            r.instances
        );
    }
}
