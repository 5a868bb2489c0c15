//! The work one decision may do, counted in steps of its searches, so that
//! it ends the same way on any machine; a wall-clock cap is optional and
//! reported apart.

use crate::clock::{Deadline, Timer};
use std::cell::Cell;

/// What ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exhausted {
    /// The budget of work.
    Work,
    /// The optional time cap.
    Time,
}

/// A decision's budget, shared by its searches, the binders it compares
/// and the facts it drops.
#[derive(Debug)]
pub(crate) struct Spend {
    left: Cell<u64>,
    deadline: Deadline,
    out: Cell<Option<Exhausted>>,
}

impl Spend {
    pub(crate) fn new(work: u64, time: Timer) -> Spend {
        Spend {
            left: Cell::new(work),
            deadline: time.start(),
            out: Cell::new(None),
        }
    }

    /// Takes `n` steps: false, from then on, once the work or the time has
    /// run out.
    pub(crate) fn take(&self, n: u64) -> bool {
        if self.out.get().is_some() {
            return false;
        }
        let Some(left) = self.left.get().checked_sub(n) else {
            self.left.set(0);
            self.out.set(Some(Exhausted::Work));
            return false;
        };
        self.left.set(left);
        if self.deadline.passed() {
            self.out.set(Some(Exhausted::Time));
            return false;
        }
        true
    }

    /// A budget of `n` steps (at most those left) with the same time cap,
    /// spent apart: the caller takes what it spent from this one.
    pub(crate) fn part(&self, n: u64) -> Spend {
        Spend {
            left: Cell::new(n.min(self.left.get())),
            deadline: self.deadline,
            out: Cell::new(None),
        }
    }

    /// The steps left.
    pub(crate) fn left(&self) -> u64 {
        self.left.get()
    }

    /// What has run out, if anything.
    pub(crate) fn out(&self) -> Option<Exhausted> {
        self.out.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn work_runs_out_at_its_count_and_stays_out() {
        let s = Spend::new(10, Timer::NONE);
        assert!(s.take(4));
        assert!(s.take(6));
        assert_eq!(s.out(), None);
        assert!(!s.take(1));
        assert_eq!(s.out(), Some(Exhausted::Work));
        assert!(!s.take(0), "once out, nothing more is taken");
        let t = Spend::new(u64::MAX, Timer::limited(Duration::ZERO, &crate::clock::SystemClock));
        std::thread::sleep(Duration::from_millis(1));
        assert!(!t.take(1));
        assert_eq!(t.out(), Some(Exhausted::Time));
    }
}
