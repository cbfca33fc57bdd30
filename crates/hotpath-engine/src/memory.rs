//! The profiler's own resources: accounting of its heap memory, so tests and reports
//! can show that it is bounded by sites × live threads and not by calls or by threads
//! ever started; its allocations kept out of the program's counts; and its threads,
//! which the threads view leaves out.

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
    return crate::alloc_counters::untracked(f);
    #[cfg(not(feature = "alloc"))]
    f()
}

/// Marks the calling thread as one of the profiler's own (`hp-*`): never counted.
pub fn profiler_thread() {
    #[cfg(feature = "alloc")]
    crate::alloc_counters::ignore_this_thread();
    #[cfg(feature = "threads")]
    mark_profiler_thread(crate::os::current_tid());
}

/// OS ids of the profiler's own threads, known from their first instruction, so the
/// view leaves them out even when sampled before their name is set. A fixed table of
/// atomics: marking allocates nothing, so a profiler thread that never allocates (the
/// idle starter) never makes the allocator set up an arena for it. Beyond its size the
/// `hp-` name alone tells them apart.
#[cfg(feature = "threads")]
static PROFILER_THREADS: [std::sync::atomic::AtomicU64; 64] = [const { std::sync::atomic::AtomicU64::new(0) }; 64];

/// Records the calling profiler thread (cold: once per `hp-*` thread).
#[cfg(feature = "threads")]
pub(crate) fn mark_profiler_thread(tid: u64) {
    use std::sync::atomic::Ordering::{AcqRel, Acquire};
    for slot in &PROFILER_THREADS {
        match slot.compare_exchange(0, tid, AcqRel, Acquire) {
            Ok(_) => return,
            Err(held) if held == tid => return,
            Err(_) => {}
        }
    }
}

/// Whether `tid` (or `name`) is one of the profiler's threads.
#[cfg(feature = "threads")]
pub(crate) fn is_profiler_thread(tid: u64, name: &str) -> bool {
    name.starts_with("hp-")
        || PROFILER_THREADS.iter().any(|slot| slot.load(std::sync::atomic::Ordering::Acquire) == tid)
}
