//! Live heap bytes, counted by a global allocator, so that a run can stop
//! at a memory limit with a clear verdict instead of being killed.
//!
//! The `algchess` binary installs [`Counting`] as its global allocator; a
//! library user may do the same. Without it [`live`] stays 0, and memory
//! limits never trigger.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

static LIVE: AtomicIsize = AtomicIsize::new(0);

/// How many times a limit was found exceeded, by any thread.
static STOPS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's count not yet added to `LIVE`: one shared counter
    /// updated on every allocation would make threads contend for it.
    static PENDING: Cell<isize> = const { Cell::new(0) };
}

/// How far a thread's count may drift before it is added to `LIVE`.
const DRIFT: isize = 1 << 16;

fn count(bytes: isize) {
    // A thread being torn down has no `PENDING`; count it at once.
    let flushed = PENDING.try_with(|p| {
        let v = p.get() + bytes;
        if v.abs() >= DRIFT {
            LIVE.fetch_add(v, Relaxed);
            p.set(0);
        } else {
            p.set(v);
        }
    });
    if flushed.is_err() {
        LIVE.fetch_add(bytes, Relaxed);
    }
}

/// The system allocator, counting the bytes it has handed out and not yet
/// taken back.
pub struct Counting;

// SAFETY: every call is forwarded to `System` unchanged; the counter is
// only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Heap bytes in use now, as counted by [`Counting`] (0 without it), to
/// within 64 KiB per thread.
pub(crate) fn live() -> usize {
    LIVE.load(Relaxed).max(0) as usize
}

/// How many times so far [`MemoryLimit::exceeded`] has said yes, in any
/// thread: a run of claims side by side compares it before and after a
/// claim to learn whether a memory limit may have cut the claim short.
pub(crate) fn stops() -> usize {
    STOPS.load(Relaxed)
}

/// A limit on the heap bytes a run may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit(pub usize);

impl MemoryLimit {
    /// No limit.
    pub const NONE: MemoryLimit = MemoryLimit(usize::MAX);
    /// The default of the command line: far below a CI machine's memory,
    /// and far above what any bundled claim or game needs.
    pub const DEFAULT: MemoryLimit = MemoryLimit(2 << 30);

    /// Whether the process now holds more than the limit.
    pub fn exceeded(&self) -> bool {
        let over = live() > self.0;
        if over {
            STOPS.fetch_add(1, Relaxed);
        }
        over
    }

    /// Reads `512M`, `2G`, `1.5G`, `800K` or a number of bytes.
    pub fn parse(text: &str) -> Result<MemoryLimit, ParseSizeError> {
        let t = text.trim();
        let (digits, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
            Some((i, _)) => (&t[..i], t[i..].to_ascii_uppercase()),
            None => (t, String::new()),
        };
        let scale: f64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
            "" => 1.0,
            "K" => 1024.0,
            "M" => 1024.0 * 1024.0,
            "G" => 1024.0 * 1024.0 * 1024.0,
            _ => return Err(ParseSizeError(text.to_string())),
        };
        match digits.trim().parse::<f64>() {
            Ok(n) if n.is_finite() && n > 0.0 && n * scale < 1e18 => Ok(MemoryLimit((n * scale) as usize)),
            _ => Err(ParseSizeError(text.to_string())),
        }
    }
}

/// Text that is not a size, kept to quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSizeError(pub String);

impl fmt::Display for ParseSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a size: write bytes, or a number with K, M or G", self.0)
    }
}

impl std::error::Error for ParseSizeError {}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gib = self.0 as f64 / (1u64 << 30) as f64;
        if gib >= 1.0 {
            write!(f, "{gib:.1} GiB")
        } else {
            write!(f, "{:.0} MiB", self.0 as f64 / (1u64 << 20) as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(MemoryLimit::parse("2G"), Ok(MemoryLimit(2 << 30)));
        assert_eq!(MemoryLimit::parse("512M"), Ok(MemoryLimit(512 << 20)));
        assert_eq!(MemoryLimit::parse("1.5GiB"), Ok(MemoryLimit(3 << 29)));
        assert_eq!(MemoryLimit::parse("4096"), Ok(MemoryLimit(4096)));
        for bad in ["", "0", "-1G", "2T", "lots", "1e30"] {
            assert!(MemoryLimit::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(MemoryLimit(2 << 30).to_string(), "2.0 GiB");
        assert_eq!(MemoryLimit(512 << 20).to_string(), "512 MiB");
    }
}
