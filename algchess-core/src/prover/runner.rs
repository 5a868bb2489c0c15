//! The one egg runner set-up, for the prover and the simplifier alike: a
//! `Guard` in the analysis holds the limits inside each iteration, the
//! scheduler consults it before each rule, and a hook ends the run when it
//! trips or when the caller's goal is reached.

use super::analysis::Algebra;
use super::guard::Guard;
use super::lang::ENode;
use crate::clock::Timer;
use crate::ir::Pieces;
use crate::memory::MemoryLimit;
use egg::{BackoffScheduler, EGraph, Rewrite, RewriteScheduler, Runner, SearchMatches};
use std::time::Duration;

/// Limits of one saturation.
#[derive(Clone, Debug)]
pub struct SaturationLimits {
    /// Saturation stops after this many iterations.
    pub iter_limit: usize,
    /// Saturation stops when the e-graph has more e-nodes than this.
    pub node_limit: usize,
    /// Saturation stops after this long on the timer's clock, if set: a
    /// cap for safety. The limits of work (iterations, nodes) are what end
    /// a run the same way on any machine.
    pub time_limit: Timer,
    /// Saturation stops when the process holds more heap than this.
    pub memory: MemoryLimit,
}

/// An empty runner whose guard holds `limits`, from now on, for terms
/// over `pieces`.
pub(crate) fn guarded(limits: &SaturationLimits, pieces: &Pieces) -> Runner<ENode, Algebra> {
    Runner::new(Algebra {
        guard: Guard::new(limits.time_limit, limits.node_limit, limits.memory),
        pieces: pieces.clone(),
    })
}

/// The message of a run that ended because its goal was reached.
pub(crate) const GOAL: &str = "the two sides met";

/// Runs `rewrites` on `runner` within `limits` (egg's own, checked between
/// rules) and its guard's (checked inside them). The run ends early when
/// `goal` holds, with the message `GOAL`.
pub(crate) fn run(
    runner: Runner<ENode, Algebra>,
    rewrites: &[Rewrite<ENode, Algebra>],
    limits: &SaturationLimits,
    goal: fn(&Runner<ENode, Algebra>) -> bool,
) -> Runner<ENode, Algebra> {
    runner
        .with_iter_limit(limits.iter_limit)
        .with_node_limit(limits.node_limit)
        // Time is read on the caller's clock, by the guard: egg's own
        // clock never ends a run.
        .with_time_limit(Duration::MAX)
        .with_scheduler(Guarded(BackoffScheduler::default()))
        .with_hook(move |runner| {
            if goal(runner) {
                Err(GOAL.into())
            } else if let Some(stop) = runner.egraph.analysis.guard.tripped() {
                Err(stop.to_string())
            } else {
                Ok(())
            }
        })
        .run(rewrites)
}

/// egg's backoff scheduler, which keeps explosive rules from taking over,
/// under a guard that stops searching and applying once a limit is passed.
struct Guarded(BackoffScheduler);

type Graph = EGraph<ENode, Algebra>;

impl RewriteScheduler<ENode, Algebra> for Guarded {
    fn can_stop(&mut self, iteration: usize) -> bool {
        RewriteScheduler::<ENode, Algebra>::can_stop(&mut self.0, iteration)
    }

    fn search_rewrite<'a>(
        &mut self,
        iteration: usize,
        egraph: &Graph,
        rewrite: &'a Rewrite<ENode, Algebra>,
    ) -> Vec<SearchMatches<'a, ENode>> {
        if egraph.analysis.guard.over(egraph.total_size()) {
            return vec![];
        }
        self.0.search_rewrite(iteration, egraph, rewrite)
    }

    fn apply_rewrite(
        &mut self,
        iteration: usize,
        egraph: &mut Graph,
        rewrite: &Rewrite<ENode, Algebra>,
        matches: Vec<SearchMatches<ENode>>,
    ) -> usize {
        if egraph.analysis.guard.over(egraph.total_size()) {
            return 0;
        }
        self.0.apply_rewrite(iteration, egraph, rewrite, matches)
    }
}
