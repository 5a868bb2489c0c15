//! Iterative deepening negamax with principal variation search in an
//! aspiration window, a transposition table, null-move pruning, late move
//! reductions, quiescence on moves that win material, and one more ply
//! for a move that gives check. Scores are centipawns for the
//! side to move; an end the rules declare scores as they declare it: a
//! win `MATE` less the plies to it, a draw 0, a split point its share.

use super::order::{gain, pick, Order, KILLER};
use super::tt::{Bound, Entry, Table, TableError};
use super::values::Values;
use crate::clock::{Deadline, Timer};
use crate::play::end::GameOutcome;
use crate::play::Match;
use crate::play::TooBig;
use crate::semantics::{board_hash, change_hash, with_turn};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The score of a win on the board; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 100_000;
/// The scores of wins found by the search are above this.
const WON: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// A split point (Gliński's stalemate, 3 to 1) is worth this times the
/// difference of the shares.
const PARTIAL: f64 = 10_000.0;
const MAX_PLY: usize = 100;
/// The half-width of the first window around the last depth's score.
const WINDOW: i32 = 50;

/// A flag another thread sets to stop the search.
pub(super) type StopFlag = Arc<AtomicBool>;

/// When to stop: after a depth, a number of nodes, a time, or when the
/// flag is set, whichever comes first. A search stopped before depth 1 is
/// done gives the best move found so far, or the first move.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration to run; no limit when `None`.
    pub depth: Option<u32>,
    /// Stop after visiting this many nodes (the clock and the flag are
    /// read every 256).
    pub nodes: Option<u64>,
    /// Stop after this long; the clock the search's time is read on.
    pub time: Timer,
    /// Set by another thread to stop the search (UCI's `stop`).
    pub stop: StopFlag,
}

/// What a finished iteration found.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// Centipawns for the side to move at the root, or a win (see [`mate_in`]).
    pub score: i32,
    /// Nodes visited since the search began.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The principal variation, as indices into each position's moves.
    pub pv: Vec<usize>,
}

impl SearchInfo {
    /// Nodes a second.
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / us) as u64
    }
}

/// Moves to a win (positive) or to a loss (negative) when `score` is one.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > WON {
        Some((MATE - score + 1) / 2)
    } else if score < -WON {
        Some(-(MATE + score + 1) / 2)
    } else {
        None
    }
}

/// The score of end `o` for turn `turn` to move, `ply` plies from the root.
pub(super) fn end_score(o: &GameOutcome, turn: usize, ply: usize) -> i32 {
    if o.draw {
        return 0;
    }
    let s = match (o.winner, o.split) {
        (Some(_), None) => MATE - ply as i32,
        (Some(_), Some(split)) => {
            let [(a, b), (c, d)] = split.fractions();
            ((f64::from(a) / f64::from(b) - f64::from(c) / f64::from(d)) * PARTIAL) as i32
        }
        (None, _) => return 0,
    };
    if o.winner == Some(turn) {
        s
    } else {
        -s
    }
}

/// What stays from one search to the next: the table and the history.
pub struct Searcher {
    /// The transposition table, kept between searches of one game.
    pub table: Table,
    order: Order,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(64)
    }
}

impl Searcher {
    /// A searcher with a table of about `mb` megabytes.
    pub fn new(mb: usize) -> Searcher {
        Searcher {
            table: Table::with_megabytes(mb),
            order: Order::new(),
        }
    }

    /// Makes the table about `mb` megabytes, emptied; when the memory
    /// limit or the allocator refuses, the table is kept as it was.
    pub fn resize(&mut self, mb: usize, memory: crate::memory::MemoryLimit) -> Result<(), TableError> {
        self.table.resize(mb, memory)
    }

    /// Forgets what earlier searches found (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.order = Order::new();
    }

    /// Searches the position of `m` within `limits`; `history` holds the
    /// keys (`position_hash`) of the game's positions before it,
    /// for repetition. `report` hears of each finished depth. `None` when
    /// the side to move has no move.
    pub fn search(
        &mut self,
        m: &mut Match,
        history: &[u64],
        values: &Values,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Option<SearchInfo>, TooBig> {
        if m.count() == 0 {
            return Ok(None);
        }
        self.order.age();
        let start = limits.time.start();
        let mut run = Run {
            values,
            table: &mut self.table,
            order: &mut self.order,
            stop: &limits.stop,
            deadline: start,
            node_limit: limits.nodes,
            nodes: 0,
            stopped: false,
            keys: history.to_vec(),
            board: board_hash(&m.pos.board),
            pv: vec![vec![]; MAX_PLY + 2],
            repetition: m.rules.ends.repetition,
            root_depth: 1,
            floor: 0,
            null: vec![false; MAX_PLY + 2],
        };
        let root_check = m.in_check()?;
        let max = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let mut last: Option<SearchInfo> = None;
        for depth in 1..=max {
            run.root_depth = depth as i32;
            let count = m.count() as i32;
            // A window around the last score, widened on the side it fails.
            let (mut lo, mut hi) = match &last {
                Some(l) if depth >= 4 && mate_in(l.score).is_none() => (l.score - WINDOW, l.score + WINDOW),
                _ => (-INF, INF),
            };
            let score = loop {
                let s = run.negamax(m, depth as i32, lo, hi, 0, count, root_check)?;
                if run.stopped || (s > lo && s < hi) {
                    break s;
                }
                if s <= lo {
                    lo = -INF;
                } else {
                    hi = INF;
                }
            };
            if run.stopped {
                if last.is_none() && !run.pv[0].is_empty() {
                    last = Some(SearchInfo {
                        depth,
                        score,
                        nodes: run.nodes,
                        time: start.elapsed(),
                        pv: run.pv[0].clone(),
                    });
                }
                break;
            }
            let info = SearchInfo {
                depth,
                score,
                nodes: run.nodes,
                time: start.elapsed(),
                pv: run.pv[0].clone(),
            };
            report(&info);
            last = Some(info);
            // A win or loss found shorter than the depth gets no shorter;
            // half the time spent leaves too little for another depth.
            let decided = mate_in(score).is_some_and(|n| 2 * n.unsigned_abs() < depth);
            let half = start.spent_more_than(0.5);
            if decided || half || m.count() == 1 && start.is_set() {
                break;
            }
        }
        Ok(Some(last.unwrap_or(SearchInfo {
            depth: 0,
            score: 0,
            nodes: run.nodes,
            time: start.elapsed(),
            pv: vec![0],
        })))
    }
}

/// One search.
struct Run<'s> {
    values: &'s Values,
    table: &'s mut Table,
    order: &'s mut Order,
    stop: &'s AtomicBool,
    deadline: Deadline,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
    /// The keys of the positions before the one searched: the game's, then
    /// the search's path.
    keys: Vec<u64>,
    /// The key of the board searched.
    board: u64,
    /// The principal variation from each ply.
    pv: Vec<Vec<usize>>,
    repetition: bool,
    root_depth: i32,
    /// The keys below this index were before a null move: no repetition.
    floor: usize,
    /// Whether the ply to each depth of the path was a null move.
    null: Vec<bool>,
}

fn to_table(s: i32, ply: usize) -> i32 {
    if s > WON {
        s + ply as i32
    } else if s < -WON {
        s - ply as i32
    } else {
        s
    }
}

fn from_table(s: i32, ply: usize) -> i32 {
    if s > WON {
        s - ply as i32
    } else if s < -WON {
        s + ply as i32
    } else {
        s
    }
}

impl Run<'_> {
    /// Counts a node; whether the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // The node limit at every node (a compare), the flag and the clock
        // every 256.
        self.stopped |= self.node_limit.is_some_and(|n| self.nodes >= n);
        if self.nodes & 255 == 0 {
            self.stopped |= self.stop.load(Ordering::Relaxed) || self.deadline.passed();
        }
        self.stopped
    }

    fn key(&self, m: &Match) -> u64 {
        with_turn(self.board, m.pos.turn)
    }

    /// Whether the position was reached before, since the last ply that
    /// cannot be undone (a capture, a pawn's move), when the rules draw
    /// repetitions.
    fn repeated(&self, m: &Match) -> bool {
        if !self.repetition {
            return false;
        }
        let key = self.key(m);
        let n = (m.halfmove as usize).min(self.keys.len() - self.floor);
        self.keys[self.keys.len() - n..].iter().rev().any(|&k| k == key)
    }

    /// The static score for the side to move: material and mobility, the
    /// other side's taken from the position before.
    fn eval(&self, m: &Match, parent_count: i32) -> i32 {
        self.values.material(&m.pos.board, m.pos.turn) + self.values.per_move * (m.count() as i32 - parent_count)
    }

    /// The end the rules declare on the board, scored; `Some(0)` for a side
    /// with no move and no declared end.
    fn ended(&mut self, m: &mut Match, ply: usize) -> Result<Option<i32>, TooBig> {
        if ply > 0 && self.repeated(m) {
            return Ok(Some(0));
        }
        if let Some(o) = m.end()? {
            return Ok(Some(end_score(&o, m.pos.turn, ply)));
        }
        Ok((m.count() == 0).then_some(0))
    }

    /// Plays move `i` (fingerprint `key`), runs `f` on the position it
    /// reaches, and takes it back.
    fn child<T>(
        &mut self,
        m: &mut Match,
        i: usize,
        key: u64,
        f: impl FnOnce(&mut Self, &mut Match) -> Result<T, TooBig>,
    ) -> Result<T, TooBig> {
        let here = self.key(m);
        let ply = m.enter_for_search(i)?;
        self.keys.push(here);
        self.board ^= key;
        let out = f(self, m);
        self.board ^= key;
        self.keys.pop();
        m.leave(ply);
        out
    }

    /// Passes (a null move) at `ply`, runs `f` on the position it
    /// reaches, and takes it back.
    fn null_child<T>(
        &mut self,
        m: &mut Match,
        ply: usize,
        f: impl FnOnce(&mut Self, &mut Match) -> Result<T, TooBig>,
    ) -> Result<T, TooBig> {
        let here = self.key(m);
        let board = self.board;
        let floor = self.floor;
        let undo = m.pass_for_search()?;
        self.keys.push(here);
        self.floor = self.keys.len();
        self.board = board_hash(&m.pos.board);
        self.null[ply + 1] = true;
        let out = f(self, m);
        self.null[ply + 1] = false;
        self.board = board;
        self.floor = floor;
        self.keys.pop();
        m.leave(undo);
        out
    }

    /// Whether passing may stand for the best move of the side to move:
    /// it has two pieces or more worth more than the unit piece (a pawn;
    /// its king is one), so that a position where every move spoils it
    /// (zugzwang, as in endings of pawns) is not cut off as good.
    fn may_pass(&self, m: &Match) -> bool {
        let side = m.pos.turn;
        let unit = 100;
        m.pos
            .board
            .codes()
            .iter()
            .filter(|&&v| self.values.owner[usize::from(v)] == Some(side) && self.values.value[usize::from(v)] > unit)
            .nth(1)
            .is_some()
    }

    fn set_pv(&mut self, ply: usize, i: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(i);
        head[ply].extend_from_slice(&tail[0]);
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        m: &mut Match,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        parent_count: i32,
        in_check: bool,
    ) -> Result<i32, TooBig> {
        self.pv[ply].clear();
        if self.tick() {
            return Ok(0);
        }
        if let Some(s) = self.ended(m, ply)? {
            return Ok(s);
        }
        if ply >= MAX_PLY {
            return Ok(self.eval(m, parent_count));
        }
        if depth <= 0 {
            return self.quiesce(m, alpha, beta, ply, parent_count);
        }
        let key = self.key(m);
        let n = m.count();
        let (hint, settled) = self.probe(key, n, ply, depth, alpha, beta);
        if let Some(s) = settled {
            return Ok(s);
        }
        let count = n as i32;
        // Null move: when passing still holds beta at a reduced depth, a
        // move would too. Not in check, not twice in a row, not in a
        // null window's search for a win.
        if ply > 0
            && depth >= 3
            && !in_check
            && !self.null[ply]
            && beta.abs() < WON
            && self.may_pass(m)
            && self.eval(m, parent_count) >= beta
        {
            if let Some(s) = self.null_move(m, depth, beta, ply, count)? {
                return Ok(s);
            }
        }
        let (keys, gains, mut list) = self.ordered(m, hint, ply);
        let alpha0 = alpha;
        let (mut best, mut best_i) = (-INF, 0);
        let extend = ply < 2 * self.root_depth as usize;
        for k in 0..n {
            let i = pick(&mut list, k);
            // Late quiet moves are searched a ply shallower first, and
            // again at full depth when they raise alpha.
            let late = depth >= 3 && k >= 3 && !in_check && gains[i].0 <= 0 && list[k].0 < KILLER;
            let s = self.child(m, i, keys[i], |r, m| {
                let chk = m.in_check()?;
                let d = depth - 1 + i32::from(extend && chk);
                if k == 0 {
                    return Ok(-r.negamax(m, d, -beta, -alpha, ply + 1, count, chk)?);
                }
                let cut = if late && !chk {
                    1 + i32::from(k >= 12 && depth >= 6)
                } else {
                    0
                };
                let mut s = -r.negamax(m, d - cut, -alpha - 1, -alpha, ply + 1, count, chk)?;
                if cut > 0 && s > alpha && !r.stopped {
                    s = -r.negamax(m, d, -alpha - 1, -alpha, ply + 1, count, chk)?;
                }
                if s > alpha && s < beta && !r.stopped {
                    s = -r.negamax(m, d, -beta, -alpha, ply + 1, count, chk)?;
                }
                Ok(s)
            })?;
            if self.stopped {
                return Ok(best.max(s));
            }
            if s > best {
                best = s;
                best_i = i;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, i);
                }
                if alpha >= beta {
                    if gains[i].0 <= 0 {
                        self.order.cut(keys[i], ply, depth);
                    }
                    break;
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.put(Entry {
            key,
            score: to_table(best, ply),
            depth,
            bound,
            best: best_i as u32 + 1,
        });
        Ok(best)
    }

    /// The table's word on `key` at a node of `n` moves searched `depth`
    /// deep in `alpha`..`beta`: the move to try first, and the score when
    /// an entry deep enough settles the node.
    #[inline]
    fn probe(&self, key: u64, n: usize, ply: usize, depth: i32, alpha: i32, beta: i32) -> (Option<usize>, Option<i32>) {
        let mut hint = None;
        if let Some(e) = self.table.get(key) {
            if e.best > 0 && (e.best as usize) <= n {
                hint = Some(e.best as usize - 1);
            }
            if ply > 0 && e.depth >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return (hint, Some(s)),
                    Bound::Lower if s >= beta => return (hint, Some(s)),
                    Bound::Upper if s <= alpha => return (hint, Some(s)),
                    _ => {}
                }
            }
        }
        (hint, None)
    }

    /// The null move's search, the side to move passing at a depth
    /// reduced by 2 or 3: the score that cuts the node off when passing
    /// still holds `beta` (or the search was stopped), else `None`.
    fn null_move(
        &mut self,
        m: &mut Match,
        depth: i32,
        beta: i32,
        ply: usize,
        count: i32,
    ) -> Result<Option<i32>, TooBig> {
        let cut = 2 + i32::from(depth >= 6);
        let s = self.null_child(m, ply, |r, m| {
            let chk = m.in_check()?;
            Ok(-r.negamax(m, depth - 1 - cut, -beta, -beta + 1, ply + 1, count, chk)?)
        })?;
        if self.stopped {
            return Ok(Some(s));
        }
        if s >= beta {
            return Ok(Some(if s > WON { beta } else { s }));
        }
        Ok(None)
    }

    /// The legal moves' keys and material gains, and the list that
    /// [`pick`] takes them from in the order to try them: score, key,
    /// index.
    #[inline]
    #[allow(clippy::type_complexity)]
    fn ordered(
        &self,
        m: &Match,
        hint: Option<usize>,
        ply: usize,
    ) -> (Vec<u64>, Vec<(i32, i32)>, Vec<(i32, u64, usize)>) {
        let side = m.pos.turn;
        let keys: Vec<u64> = m.changes().iter().map(|c| change_hash(&m.pos.board, c)).collect();
        let gains: Vec<(i32, i32)> = m
            .changes()
            .iter()
            .map(|c| gain(self.values, &m.pos.board, c, side))
            .collect();
        let list: Vec<(i32, u64, usize)> = self
            .order
            .scores(&keys, &gains, hint, ply)
            .into_iter()
            .zip(keys.iter().copied())
            .zip(0..)
            .map(|((s, k), i)| (s, k, i))
            .collect();
        (keys, gains, list)
    }

    /// Only moves that win material, until none is left or standing pat
    /// is good enough.
    fn quiesce(
        &mut self,
        m: &mut Match,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        parent_count: i32,
    ) -> Result<i32, TooBig> {
        self.pv[ply].clear();
        if self.tick() {
            return Ok(0);
        }
        if let Some(s) = self.ended(m, ply)? {
            return Ok(s);
        }
        let stand = self.eval(m, parent_count);
        if ply >= MAX_PLY || stand >= beta {
            return Ok(stand);
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let side = m.pos.turn;
        let mut list: Vec<(i32, u64, usize)> = vec![];
        let mut keys = vec![];
        for (i, c) in m.changes().iter().enumerate() {
            let (g, a) = gain(self.values, &m.pos.board, c, side);
            if g > 0 {
                let key = change_hash(&m.pos.board, c);
                list.push((g * 16 - a / 16, key, i));
                keys.push(key);
            } else {
                keys.push(0);
            }
        }
        let count = m.count() as i32;
        for k in 0..list.len() {
            let i = pick(&mut list, k);
            let s = self.child(m, i, keys[i], |r, m| {
                Ok(-r.quiesce(m, -beta, -alpha, ply + 1, count)?)
            })?;
            if self.stopped {
                return Ok(best.max(s));
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, i);
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(best)
    }
}
