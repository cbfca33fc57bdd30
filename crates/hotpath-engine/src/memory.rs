//! Accounting of the profiler's own heap memory, so tests and reports can show that
//! it is bounded by sites × live threads and not by calls or by threads ever started.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static BYTES: AtomicUsize = AtomicUsize::new(0);

/// Records that the profiler allocated `bytes` (cold paths only).
pub(crate) fn allocated(bytes: usize) {
    BYTES.fetch_add(bytes, Relaxed);
}

/// Records that the profiler freed `bytes`.
pub(crate) fn freed(bytes: usize) {
    BYTES.fetch_sub(bytes, Relaxed);
}

/// Bytes the recorders currently hold.
pub fn profiler_bytes() -> usize {
    BYTES.load(Relaxed)
}

/// Runs profiler work (registration, cold-path allocation, reports) so that its
/// allocations are not counted for the program or attributed to a measured function.
#[inline]
pub fn untracked<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "alloc")]
    return crate::alloc::counters::untracked(f);
    #[cfg(not(feature = "alloc"))]
    f()
}

/// Marks the calling thread as one of the profiler's own (`hp-*`): never counted.
pub fn profiler_thread() {
    #[cfg(feature = "alloc")]
    crate::alloc::counters::ignore_this_thread();
    #[cfg(feature = "threads")]
    crate::threads::mark_profiler_thread(crate::os::current_tid());
}
