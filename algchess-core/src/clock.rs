//! Time. The library reads no clock of its own: a time limit is read
//! through a [`Clock`] its caller supplies, as a memory limit is read
//! through a [`Meter`](crate::Meter), so a time limit without a clock is
//! impossible to write. A run given no clock measures no time (its
//! elapsed times read zero) and never times out.

use std::fmt;
use std::time::{Duration, Instant};

/// Tells the time.
pub trait Clock: Sync {
    /// The time now.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock, for callers that want wall time.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    // The library never reads this itself: a caller passes it in.
    #[allow(clippy::disallowed_methods)]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// Whether two optional references name the same object (or are both
/// absent): how limits compare the clock or meter they read.
pub(crate) fn same_ref<T: ?Sized>(a: Option<&T>, b: Option<&T>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::addr_eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// The clock a run is measured by, and how long it may take.
#[derive(Clone, Copy, Default)]
pub struct Timer {
    clock: Option<&'static dyn Clock>,
    limit: Option<Duration>,
}

impl Timer {
    /// No clock: nothing is measured and nothing times out.
    pub const NONE: Timer = Timer {
        clock: None,
        limit: None,
    };

    /// Measured on `clock`, with no limit.
    pub fn new(clock: &'static dyn Clock) -> Timer {
        Timer {
            clock: Some(clock),
            limit: None,
        }
    }

    /// At most `limit`, as `clock` tells it.
    pub fn limited(limit: Duration, clock: &'static dyn Clock) -> Timer {
        Timer {
            clock: Some(clock),
            limit: Some(limit),
        }
    }

    /// Measured on `clock`, within `limit` if one is given.
    pub fn within(limit: Option<Duration>, clock: &'static dyn Clock) -> Timer {
        Timer {
            clock: Some(clock),
            limit,
        }
    }

    /// The time allowed, if any.
    pub fn limit(&self) -> Option<Duration> {
        self.limit
    }

    /// Starts the run now: its deadline.
    pub fn start(&self) -> Deadline {
        let began = self.clock.map(|c| c.now());
        Deadline {
            clock: self.clock,
            began,
            // A limit too far off to represent is no limit.
            at: began.zip(self.limit).and_then(|(b, l)| b.checked_add(l)),
        }
    }
}

impl Timer {
    /// Whichever of two timers ends sooner (one with no limit never ends),
    /// on its own clock.
    pub fn sooner(self, other: Timer) -> Timer {
        match (self.limit, other.limit) {
            (Some(a), Some(b)) if b < a => other,
            (None, Some(_)) => other,
            _ => self,
        }
    }
}

impl fmt::Debug for Timer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Timer")
            .field("clocked", &self.clock.is_some())
            .field("limit", &self.limit)
            .finish()
    }
}

impl PartialEq for Timer {
    fn eq(&self, other: &Timer) -> bool {
        self.limit == other.limit && same_ref(self.clock, other.clock)
    }
}

impl Eq for Timer {}

impl std::hash::Hash for Timer {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.limit.hash(h);
        self.clock.map(|c| std::ptr::from_ref(c).cast::<()>()).hash(h);
    }
}

/// A started run: when it began and when it must stop, read on its
/// timer's clock.
#[derive(Clone, Copy, Default)]
pub struct Deadline {
    clock: Option<&'static dyn Clock>,
    began: Option<Instant>,
    at: Option<Instant>,
}

impl Deadline {
    /// Never passes; measures nothing.
    pub const NONE: Deadline = Deadline {
        clock: None,
        began: None,
        at: None,
    };

    /// Whether the run has a time limit.
    pub fn is_set(&self) -> bool {
        self.at.is_some()
    }

    /// Whether the time is up.
    pub fn passed(&self) -> bool {
        match (self.clock, self.at) {
            (Some(c), Some(at)) => c.now() >= at,
            _ => false,
        }
    }

    /// The time since the start (zero without a clock).
    pub fn elapsed(&self) -> Duration {
        match (self.clock, self.began) {
            (Some(c), Some(b)) => c.now().saturating_duration_since(b),
            _ => Duration::ZERO,
        }
    }

    /// Whether more than `part` of the limit is spent (never without one).
    pub fn spent_more_than(&self, part: f64) -> bool {
        match (self.began, self.at) {
            (Some(b), Some(at)) => self.elapsed() > (at - b).mul_f64(part),
            _ => false,
        }
    }

    /// A deadline on the same clock from the same start, at `part` of this
    /// one's limit.
    pub fn part(&self, part: f64) -> Deadline {
        Deadline {
            at: self.began.zip(self.at).map(|(b, at)| b + (at - b).mul_f64(part)),
            ..*self
        }
    }

    /// What is left of the time as a timer on the same clock, for a part
    /// of the run started later.
    pub fn rest(&self) -> Timer {
        let limit = match (self.clock, self.at) {
            (Some(c), Some(at)) => Some(at.saturating_duration_since(c.now())),
            _ => None,
        };
        Timer {
            clock: self.clock,
            limit,
        }
    }
}

impl fmt::Debug for Deadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deadline")
            .field("elapsed", &self.elapsed())
            .field("set", &self.is_set())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;

    /// A clock that moves only when told, from a fixed start.
    struct Hand(AtomicU64);

    fn base() -> Instant {
        static BASE: OnceLock<Instant> = OnceLock::new();
        *BASE.get_or_init(Instant::now)
    }

    impl Clock for Hand {
        fn now(&self) -> Instant {
            base() + Duration::from_millis(self.0.load(Ordering::Relaxed))
        }
    }

    #[test]
    fn a_deadline_passes_when_the_clock_says_so() {
        static HAND: Hand = Hand(AtomicU64::new(0));
        let d = Timer::limited(Duration::from_millis(100), &HAND).start();
        assert!(!d.passed());
        HAND.0.fetch_add(60, Ordering::Relaxed);
        assert!(!d.passed());
        assert!(d.spent_more_than(0.5));
        assert_eq!(d.elapsed(), Duration::from_millis(60));
        assert_eq!(d.rest().limit(), Some(Duration::from_millis(40)));
        assert!(d.part(0.5).passed());
        HAND.0.fetch_add(40, Ordering::Relaxed);
        assert!(d.passed());
    }

    #[test]
    fn without_a_clock_nothing_is_measured_or_timed_out() {
        let d = Timer::NONE.start();
        assert!(!d.passed() && !d.is_set());
        assert_eq!(d.elapsed(), Duration::ZERO);
        assert_eq!(d.rest(), Timer::NONE);
        let unlimited = Timer::new(&SystemClock).start();
        assert!(!unlimited.passed() && !unlimited.spent_more_than(0.0));
        assert_eq!(
            Timer::new(&SystemClock)
                .sooner(Timer::limited(Duration::from_secs(1), &SystemClock))
                .limit(),
            Some(Duration::from_secs(1))
        );
    }
}
