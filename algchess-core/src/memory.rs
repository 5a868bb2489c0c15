//! Memory limits. The library holds no counter of its own: a limit is read
//! through a [`Meter`] its caller supplies (the `algchess` binary's counts
//! the bytes its global allocator hands out), so a limit without a meter is
//! impossible to write, not silently ignored.

use crate::clock::{same_ref, Deadline};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Tells how many heap bytes the process holds now.
pub trait Meter: Sync {
    /// Heap bytes in use now.
    fn live(&self) -> usize;

    /// Told each time a limit read through this meter is found exceeded,
    /// so that a caller running claims side by side can learn whether a
    /// limit cut one short.
    fn tripped(&self) {}
}

/// A limit on the heap bytes a run may hold, and the meter that measures
/// them.
#[derive(Clone, Copy)]
pub struct MemoryLimit {
    bytes: usize,
    meter: Option<&'static dyn Meter>,
}

impl MemoryLimit {
    /// No limit.
    pub const NONE: MemoryLimit = MemoryLimit {
        bytes: usize::MAX,
        meter: None,
    };

    /// At most `bytes` of heap, as `meter` counts them.
    pub fn new(bytes: usize, meter: &'static dyn Meter) -> MemoryLimit {
        MemoryLimit {
            bytes,
            meter: Some(meter),
        }
    }

    /// The bytes allowed (`usize::MAX` for no limit).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Whether this is no limit at all.
    pub fn is_none(&self) -> bool {
        self.meter.is_none()
    }

    /// Whether the process now holds more than the limit.
    pub fn exceeded(&self) -> bool {
        let Some(meter) = self.meter else { return false };
        let over = meter.live() > self.bytes;
        if over {
            meter.tripped();
        }
        over
    }
}

impl Default for MemoryLimit {
    fn default() -> MemoryLimit {
        MemoryLimit::NONE
    }
}

impl MemoryLimit {
    /// Whether `extra` more bytes would still be within the limit (always
    /// without a meter).
    pub fn allows(&self, extra: usize) -> bool {
        self.meter.is_none_or(|m| m.live().saturating_add(extra) <= self.bytes)
    }
}

/// What a run may spend besides its count of states: heap (a
/// [`MemoryLimit`]), time up to a deadline the caller sets on its own
/// clock, and a flag another thread may set to stop it (a protocol's
/// `quit`).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// The heap the run may hold.
    pub memory: MemoryLimit,
    /// When the run must stop, on the caller's clock.
    pub deadline: Deadline,
    /// Set by another thread to stop the run.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Which part of a [`Budget`] is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// The heap outgrew the limit.
    Memory(MemoryLimit),
    /// The deadline passed, or the run was told to stop.
    Time,
}

impl Budget {
    /// No limit but the heap's.
    pub fn memory(memory: MemoryLimit) -> Budget {
        Budget {
            memory,
            ..Budget::default()
        }
    }

    /// Whether nothing but a count of states bounds the run.
    pub fn is_none(&self) -> bool {
        self.memory.is_none() && !self.deadline.is_set() && self.stop.is_none()
    }

    /// What is spent now, if anything: the heap read through the meter,
    /// then the clock and the flag.
    pub fn spent(&self) -> Option<Spent> {
        if self.memory.exceeded() {
            return Some(Spent::Memory(self.memory));
        }
        let late = self.deadline.passed();
        let told = self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        (late || told).then_some(Spent::Time)
    }
}

impl PartialEq for MemoryLimit {
    fn eq(&self, other: &MemoryLimit) -> bool {
        self.bytes == other.bytes && same_ref(self.meter, other.meter)
    }
}

impl Eq for MemoryLimit {}

impl fmt::Debug for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.meter {
            None => f.write_str("MemoryLimit::NONE"),
            Some(_) => write!(f, "MemoryLimit({} bytes)", self.bytes),
        }
    }
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gib = self.bytes as f64 / (1u64 << 30) as f64;
        if gib >= 1.0 {
            write!(f, "{gib:.1} GiB")
        } else {
            write!(f, "{:.0} MiB", self.bytes as f64 / (1u64 << 20) as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    /// A meter whose reading the test sets.
    struct Fixed(AtomicUsize, AtomicUsize);

    impl Meter for Fixed {
        fn live(&self) -> usize {
            self.0.load(Relaxed)
        }
        fn tripped(&self) {
            self.1.fetch_add(1, Relaxed);
        }
    }

    #[test]
    fn a_limit_reads_its_meter_and_tells_it_when_exceeded() {
        static METER: Fixed = Fixed(AtomicUsize::new(100), AtomicUsize::new(0));
        let limit = MemoryLimit::new(150, &METER);
        assert!(!limit.exceeded());
        METER.0.store(151, Relaxed);
        assert!(limit.exceeded());
        assert_eq!(METER.1.load(Relaxed), 1);
        assert!(!MemoryLimit::NONE.exceeded());
        assert!(MemoryLimit::NONE.is_none() && !limit.is_none());
        assert_ne!(limit, MemoryLimit::NONE);
        assert_eq!(limit, MemoryLimit::new(150, &METER));
    }

    #[test]
    fn limits_print_in_mib_or_gib() {
        static METER: Fixed = Fixed(AtomicUsize::new(0), AtomicUsize::new(0));
        assert_eq!(MemoryLimit::new(2 << 30, &METER).to_string(), "2.0 GiB");
        assert_eq!(MemoryLimit::new(512 << 20, &METER).to_string(), "512 MiB");
    }
}
