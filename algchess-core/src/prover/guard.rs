//! Limits that hold during saturation, not only between iterations.
//!
//! egg checks its time and node limits between rules, and never looks at
//! memory; one rule's matches, or one iteration's unions, can outgrow the
//! machine first. A `Guard` lives in the analysis, where the scheduler
//! (before each rule's search and application) and the law appliers
//! (before each union) consult it. Once a limit is passed it stays tripped:
//! every further search finds nothing and every application adds nothing,
//! and the runner's hook ends the run naming the limit.

use crate::clock::{Deadline, Timer};
use crate::memory::MemoryLimit;
use std::fmt;
use std::sync::OnceLock;

/// Why saturation stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// The two sides of the claim reached one e-class.
    Met,
    /// No rewrite changes the e-graph any more.
    Saturated,
    /// The iteration limit, reached.
    Iterations(usize),
    /// The e-graph outgrew the node limit.
    Nodes(usize),
    /// The time limit, in seconds.
    Time(f64),
    /// The process held more heap than this.
    Memory(MemoryLimit),
    /// The sides met, but the explanation would take more than this much
    /// work to write out and replay.
    ProofTooLong(u64),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Met => f.write_str("the two sides met"),
            Stop::Saturated => f.write_str("saturated"),
            Stop::Iterations(n) => write!(f, "iteration limit ({n})"),
            Stop::Nodes(n) => write!(f, "node limit ({n})"),
            Stop::Time(t) => write!(f, "time limit ({t:.1} s)"),
            Stop::Memory(m) => write!(f, "memory limit ({m})"),
            Stop::ProofTooLong(n) => write!(f, "proof too long to replay (about {n} steps)"),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Stop {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The limits of one saturation, checked from inside it.
#[derive(Debug)]
pub struct Guard {
    deadline: Deadline,
    time_limit: Timer,
    node_limit: usize,
    memory: MemoryLimit,
    tripped: OnceLock<Stop>,
}

impl Default for Guard {
    fn default() -> Guard {
        Guard::new(Timer::NONE, usize::MAX, MemoryLimit::NONE)
    }
}

impl Guard {
    pub fn new(time_limit: Timer, node_limit: usize, memory: MemoryLimit) -> Guard {
        Guard {
            deadline: time_limit.start(),
            time_limit,
            node_limit,
            memory,
            tripped: OnceLock::new(),
        }
    }

    /// Whether a limit has been passed; checks them now, given the
    /// e-graph's size.
    pub fn over(&self, nodes: usize) -> bool {
        if self.tripped.get().is_some() {
            return true;
        }
        let stop = if nodes > self.node_limit {
            Stop::Nodes(nodes)
        } else if self.memory.exceeded() {
            Stop::Memory(self.memory)
        } else if self.deadline.passed() {
            Stop::Time(self.time_limit.limit().unwrap_or_default().as_secs_f64())
        } else {
            return false;
        };
        let _ = self.tripped.set(stop);
        true
    }

    /// The limit that was passed, if one was.
    pub fn tripped(&self) -> Option<&Stop> {
        self.tripped.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A meter for a limit that is only printed.
    struct NoHeap;

    impl crate::memory::Meter for NoHeap {
        fn live(&self) -> usize {
            0
        }
    }

    static NO_HEAP: NoHeap = NoHeap;

    #[test]
    fn a_guard_trips_once_and_names_the_limit() {
        let g = Guard::new(
            Timer::limited(Duration::from_secs(60), &crate::clock::SystemClock),
            100,
            MemoryLimit::NONE,
        );
        assert!(!g.over(50));
        assert!(g.over(101));
        assert_eq!(g.tripped(), Some(&Stop::Nodes(101)));
        // Tripped for good, whatever the size now.
        assert!(g.over(0));
        let g = Guard::new(
            Timer::limited(Duration::ZERO, &crate::clock::SystemClock),
            100,
            MemoryLimit::NONE,
        );
        std::thread::sleep(Duration::from_millis(1));
        assert!(g.over(0));
        assert!(matches!(g.tripped(), Some(Stop::Time(_))));
        assert_eq!(
            Stop::Memory(MemoryLimit::new(1 << 30, &NO_HEAP)).to_string(),
            "memory limit (1.0 GiB)"
        );
    }
}
