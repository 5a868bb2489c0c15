//! Iterative deepening negamax with principal variation search, a
//! transposition table, quiescence on moves that win material, and one
//! more ply for a move that gives check. Scores are centipawns for the
//! side to move; an end the rules declare scores as they declare it: a
//! win `MATE` less the plies to it, a draw 0, a split point its share.

use super::hash::{board_key, change_key, turn_key};
use super::order::{gain, pick, Order};
use super::tt::{Bound, Entry, Table};
use super::values::Values;
use crate::play::end::Outcome;
use crate::play::referee::Match;
use crate::play::TooBig;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a win on the board; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 100_000;
/// The scores of wins found by the search are above this.
const WON: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// A split point (Gliński's stalemate, 3 to 1) is worth this times the
/// difference of the shares.
const PARTIAL: f64 = 10_000.0;
const MAX_PLY: usize = 100;

/// A flag another thread sets to stop the search.
pub type Stop = Arc<AtomicBool>;

/// When to stop: after a depth, a number of nodes, a time, or when the
/// flag is set, whichever comes first. The search finishes depth 1 unless
/// stopped by the flag.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub stop: Stop,
}

/// What a finished iteration found.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    /// Centipawns for the side to move at the root, or a win (see [`mate_in`]).
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// The principal variation, as indices into each position's moves.
    pub pv: Vec<usize>,
}

impl Info {
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
pub fn end_score(o: &Outcome, turn: usize, ply: usize) -> i32 {
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

    /// Forgets what earlier searches found (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.order = Order::new();
    }

    /// Searches the position of `m` within `limits`; `history` holds the
    /// keys (`board_key ^ turn_key`) of the game's positions before it,
    /// for repetition. `report` hears of each finished depth. `None` when
    /// the side to move has no move.
    pub fn search(
        &mut self,
        m: &mut Match,
        history: &[u64],
        values: &Values,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> Result<Option<Info>, TooBig> {
        if m.count() == 0 {
            return Ok(None);
        }
        self.order.age();
        let start = Instant::now();
        let mut run = Run {
            values,
            table: &mut self.table,
            order: &mut self.order,
            stop: &limits.stop,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            nodes: 0,
            stopped: false,
            keys: history.to_vec(),
            board: board_key(&m.pos.board),
            pv: vec![vec![]; MAX_PLY + 2],
            repetition: m.rules.ends.repetition,
            root_depth: 1,
        };
        let max = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let mut last: Option<Info> = None;
        for depth in 1..=max {
            run.root_depth = depth as i32;
            let count = m.count() as i32;
            let score = run.negamax(m, depth as i32, -INF, INF, 0, count)?;
            if run.stopped {
                if last.is_none() && !run.pv[0].is_empty() {
                    last = Some(Info {
                        depth,
                        score,
                        nodes: run.nodes,
                        time: start.elapsed(),
                        pv: run.pv[0].clone(),
                    });
                }
                break;
            }
            let info = Info {
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
            let half = limits.time.is_some_and(|t| start.elapsed() * 2 > t);
            if decided || half || m.count() == 1 && limits.time.is_some() {
                break;
            }
        }
        Ok(Some(last.unwrap_or(Info {
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
    deadline: Option<Instant>,
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
        if self.nodes & 255 == 0 {
            self.stopped |= self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.node_limit.is_some_and(|n| self.nodes >= n);
        }
        self.stopped
    }

    fn key(&self, m: &Match) -> u64 {
        self.board ^ turn_key(m.pos.turn)
    }

    /// Whether the position was reached before, since the last ply that
    /// cannot be undone (a capture, a pawn's move), when the rules draw
    /// repetitions.
    fn repeated(&self, m: &Match) -> bool {
        if !self.repetition {
            return false;
        }
        let key = self.key(m);
        let n = (m.halfmove as usize).min(self.keys.len());
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

    fn set_pv(&mut self, ply: usize, i: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(i);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        m: &mut Match,
        depth: i32,
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
        if ply >= MAX_PLY {
            return Ok(self.eval(m, parent_count));
        }
        if depth <= 0 {
            return self.quiesce(m, alpha, beta, ply, parent_count);
        }
        let key = self.key(m);
        let n = m.count();
        let mut hint = None;
        if let Some(e) = self.table.get(key) {
            if e.best > 0 && (e.best as usize) <= n {
                hint = Some(e.best as usize - 1);
            }
            if ply > 0 && e.depth >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return Ok(s),
                    Bound::Lower if s >= beta => return Ok(s),
                    Bound::Upper if s <= alpha => return Ok(s),
                    _ => {}
                }
            }
        }
        let side = m.pos.turn;
        let keys: Vec<u64> = m.changes().iter().map(|c| change_key(&m.pos.board, c)).collect();
        let gains: Vec<(i32, i32)> = m
            .changes()
            .iter()
            .map(|c| gain(self.values, &m.pos.board, c, side))
            .collect();
        let mut list: Vec<(i32, usize)> = self
            .order
            .scores(&keys, &gains, hint, ply)
            .into_iter()
            .zip(0..)
            .collect();
        let alpha0 = alpha;
        let (mut best, mut best_i) = (-INF, 0);
        let extend = ply < 2 * self.root_depth as usize;
        let count = n as i32;
        for k in 0..n {
            let i = pick(&mut list, k);
            let s = self.child(m, i, keys[i], |r, m| {
                let d = depth - 1 + i32::from(extend && m.in_check()?);
                if k == 0 {
                    return Ok(-r.negamax(m, d, -beta, -alpha, ply + 1, count)?);
                }
                let s = -r.negamax(m, d, -alpha - 1, -alpha, ply + 1, count)?;
                if s > alpha && s < beta {
                    return Ok(-r.negamax(m, d, -beta, -alpha, ply + 1, count)?);
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
        let mut list: Vec<(i32, usize)> = vec![];
        let mut keys = vec![];
        for (i, c) in m.changes().iter().enumerate() {
            let (g, a) = gain(self.values, &m.pos.board, c, side);
            if g > 0 {
                list.push((g * 16 - a / 16, i));
                keys.push(change_key(&m.pos.board, c));
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
