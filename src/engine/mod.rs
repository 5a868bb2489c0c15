//! The fast path for playing games: each turn's compiled move planned for
//! the board's box and run in place on one board, results as diffs made
//! and unmade. Every move it makes comes from the rule file; it falls back
//! to the interpreter for any shape it does not plan, and agrees with the
//! interpreter on every result set.

mod exec;
mod mailbox;
mod plan;

use exec::{Ctx, Diff};
use mailbox::Mailbox;
use plan::{Op, Planner};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

use crate::geometry::Square;
use crate::semantics::{Grid, Prog};

/// The turns of a game, ready to be planned for any board box.
pub struct Engine {
    turns: Vec<Prog>,
    pad: i32,
    plans: Mutex<Vec<(Square, i32, i32, Arc<Plan>)>>,
}

/// The turns planned for one board box.
pub struct Plan {
    pad: i32,
    turns: Vec<Op>,
}

/// A move handed to the interpreter made more states than its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooBig(pub usize);

impl Engine {
    pub fn new(turns: &[Prog]) -> Engine {
        Engine {
            pad: turns.iter().map(plan::pad).max().unwrap_or(0),
            turns: turns.to_vec(),
            plans: Mutex::new(vec![]),
        }
    }

    /// The plan for `board`'s box, made once per box.
    pub fn plan(&self, board: &Grid) -> Arc<Plan> {
        let key = (board.origin(), board.width(), board.height());
        let mut plans = self.plans.lock().expect("no panic while planning");
        if let Some((.., p)) = plans.iter().find(|(o, w, h, _)| (*o, *w, *h) == key) {
            return p.clone();
        }
        let planner = Planner {
            stride: board.width() + 2 * self.pad,
            pad: self.pad,
        };
        let plan = Arc::new(Plan {
            pad: self.pad,
            turns: self.turns.iter().map(|t| planner.plan(t)).collect(),
        });
        plans.push((key.0, key.1, key.2, plan.clone()));
        plan
    }

    /// The boards the side to move reaches, without repeats.
    pub fn successors(&self, board: &Grid, turn: usize) -> Result<Vec<Grid>, TooBig> {
        let plan = self.plan(board);
        let mut ctx = Ctx::new(Mailbox::new(board, plan.pad));
        let moves = plan.moves(&mut ctx, turn)?;
        Ok(moves
            .iter()
            .map(|d| {
                let mark = ctx.mark();
                ctx.apply(d);
                let g = ctx.board.grid();
                ctx.undo(mark);
                g
            })
            .collect())
    }

    /// Leaves `depth` plies below the position (the last ply counted, not
    /// played); with `threads` above 1, the root moves in parallel.
    pub fn perft(&self, board: &Grid, turn: usize, depth: u32) -> Result<u64, TooBig> {
        let plan = self.plan(board);
        let mut ctx = Ctx::new(Mailbox::new(board, plan.pad));
        plan.perft(&mut ctx, turn, depth)
    }

    /// Perft with the root moves spread over rayon's threads.
    pub fn perft_parallel(&self, board: &Grid, turn: usize, depth: u32) -> Result<u64, TooBig> {
        if depth < 2 {
            return self.perft(board, turn, depth);
        }
        let plan = self.plan(board);
        let root = Mailbox::new(board, plan.pad);
        let moves = plan.moves(&mut Ctx::new(root.clone()), turn)?;
        let next = (turn + 1) % plan.turns.len();
        moves
            .par_iter()
            .map(|d| {
                let mut ctx = Ctx::new(root.clone());
                ctx.apply(d);
                plan.perft(&mut ctx, next, depth - 1)
            })
            .sum()
    }
}

impl Plan {
    /// The distinct results of the turn's move, as diffs from the board.
    fn moves(&self, ctx: &mut Ctx, turn: usize) -> Result<Vec<Diff>, TooBig> {
        let mark = ctx.mark();
        let mut out: Vec<Diff> = vec![];
        ctx.run(&self.turns[turn], &mut |c: &mut Ctx| {
            out.push(c.diff(mark));
            false
        });
        if let Some(n) = ctx.too_big.take() {
            return Err(TooBig(n));
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    fn perft(&self, ctx: &mut Ctx, turn: usize, depth: u32) -> Result<u64, TooBig> {
        if depth == 0 {
            return Ok(1);
        }
        let moves = self.moves(ctx, turn)?;
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        let next = (turn + 1) % self.turns.len();
        let mut total = 0;
        for d in &moves {
            let mark = ctx.mark();
            ctx.apply(d);
            let n = self.perft(ctx, next, depth - 1);
            ctx.undo(mark);
            total += n?;
        }
        Ok(total)
    }
}
