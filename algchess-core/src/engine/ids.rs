//! Numbers the planner gives a plan's `not` tests and probes, so that a
//! search's memos are keyed by what a test is, not where it lies.

use std::cell::Cell;

/// A `not` test's number among its plan's: the key of its memo in a
/// search's `Cache`. Copies of one test (a plan kept to some moves clones
/// its tests) share it, and answer alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MemoId(pub u32);

/// A probe's number among its plan's: how a memo names the read tree it
/// walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ProbeId(pub u32);

/// The numbers given out so far by one planner.
#[derive(Default)]
pub(super) struct Ids {
    memos: Cell<u32>,
    probes: Cell<u32>,
}

impl Ids {
    /// A new `MemoId`.
    pub(super) fn memo(&self) -> MemoId {
        MemoId(next(&self.memos))
    }

    /// A new `ProbeId`.
    pub(super) fn probe(&self) -> ProbeId {
        ProbeId(next(&self.probes))
    }
}

fn next(counter: &Cell<u32>) -> u32 {
    let n = counter.get();
    counter.set(n + 1);
    n
}
