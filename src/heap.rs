//! The heap, counted: a global allocator that counts the bytes it hands
//! out, and the [`Meter`] that reads the count, so that a run stops at a
//! memory limit with a clear verdict instead of being killed.
//!
//! The `algchess` binary installs [`Counting`] as its global allocator.

use algchess_core::{MemoryLimit, Meter};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
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

/// The heap as [`Counting`] counts it.
#[derive(Debug)]
pub struct Heap;

/// The meter of this process's heap.
pub static HEAP: Heap = Heap;

impl Meter for Heap {
    /// Heap bytes in use now, to within 64 KiB per thread.
    fn live(&self) -> usize {
        LIVE.load(Relaxed).max(0) as usize
    }

    fn tripped(&self) {
        STOPS.fetch_add(1, Relaxed);
    }
}

impl Heap {
    /// Whether [`Counting`] is this process's allocator: without it the
    /// count never moves, and a limit read from it would never trip.
    pub fn counting(&self) -> bool {
        let before = self.live();
        let probe = std::hint::black_box(vec![1u8; 4 * DRIFT as usize]);
        let counted = self.live() > before;
        drop(probe);
        counted
    }
}

/// How many times so far a limit read through [`HEAP`] was found
/// exceeded, in any thread: a run of claims side by side compares it
/// before and after a claim to learn whether a memory limit may have cut
/// the claim short.
pub fn stops() -> usize {
    STOPS.load(Relaxed)
}

/// A limit of `text` bytes (`512M`, `2G`) on this process's heap; an error
/// when the text is not a size or the heap is not counted.
pub fn memory_limit(text: &str) -> Result<MemoryLimit, LimitError> {
    let bytes = parse_size(text).map_err(LimitError::NotASize)?;
    if !HEAP.counting() {
        return Err(LimitError::NotCounted);
    }
    Ok(MemoryLimit::new(bytes, &HEAP))
}

/// Why a memory limit cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// The text is not a size.
    NotASize(ParseSizeError),
    /// [`Counting`] is not the global allocator, so no limit would trip.
    NotCounted,
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitError::NotASize(e) => e.fmt(f),
            LimitError::NotCounted => f.write_str("a memory limit needs algchess::Counting as the global allocator"),
        }
    }
}

impl std::error::Error for LimitError {}

/// Text that is not a size, kept to quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSizeError(pub String);

impl std::fmt::Display for ParseSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a size: write bytes, or a number with K, M or G", self.0)
    }
}

impl std::error::Error for ParseSizeError {}

/// Reads `512M`, `2G`, `1.5G`, `800K` or a number of bytes.
pub fn parse_size(text: &str) -> Result<usize, ParseSizeError> {
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
        Ok(n) if n.is_finite() && n > 0.0 && n * scale < 1e18 => Ok((n * scale) as usize),
        _ => Err(ParseSizeError(text.to_string())),
    }
}

/// The heap this process could still be given: the machine's memory, less
/// what the address-space and data limits (`ulimit -v`, `ulimit -d`) have
/// already used up. `None` where it cannot be read.
pub fn room() -> Option<usize> {
    // SAFETY: `sysinfo` and `getrlimit` only write the structs passed.
    let (ram, rlimits) = unsafe {
        let mut info: libc::sysinfo = std::mem::zeroed();
        if libc::sysinfo(&mut info) != 0 {
            return None;
        }
        let ram = (info.totalram as u128 * u128::from(info.mem_unit)).min(usize::MAX as u128) as usize;
        let mut out = [usize::MAX; 2];
        for (slot, which) in out.iter_mut().zip([libc::RLIMIT_AS, libc::RLIMIT_DATA]) {
            let mut l: libc::rlimit = std::mem::zeroed();
            if libc::getrlimit(which, &mut l) == 0 && l.rlim_cur != libc::RLIM_INFINITY {
                *slot = usize::try_from(l.rlim_cur).unwrap_or(usize::MAX);
            }
        }
        (ram, out)
    };
    // What the process already holds of each: its address space, and its
    // data (pages in `/proc/self/statm`: size, resident, shared, text,
    // lib, data).
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: Vec<usize> = statm.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    // SAFETY: `sysconf` reads a constant.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    let (size, data) = (pages.first()? * page, pages.get(5)? * page);
    Some(
        ram.min(rlimits[0].saturating_sub(size))
            .min(rlimits[1].saturating_sub(data)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        for bad in ["", "0", "-1G", "2T", "lots", "1e30"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    /// The library's tests run on the system allocator: nothing is
    /// counted, and a limit is refused rather than silently ignored.
    #[test]
    fn a_limit_is_refused_when_the_heap_is_not_counted() {
        assert!(!HEAP.counting());
        assert_eq!(memory_limit("1G"), Err(LimitError::NotCounted));
        assert!(memory_limit("1G").unwrap_err().to_string().contains("Counting"));
        assert_eq!(
            memory_limit("lots"),
            Err(LimitError::NotASize(ParseSizeError("lots".into())))
        );
        assert!(memory_limit("lots").unwrap_err().to_string().contains("not a size"));
    }
}
