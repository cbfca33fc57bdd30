//! Per-thread allocation counters.
//!
//! Each thread claims a slot of a static table on its first allocation (a CAS scan
//! plus one `gettid`, without allocating) and from then on the allocator only does
//! plain load+store bumps on its own slot. Slots are cumulative, so a measured frame
//! attributes allocations by reading its thread's counters at entry and exit.
//! The threads sampler reads every slot by thread id, and reclaims the slots of
//! threads that have exited, folding their numbers into process totals. A thread
//! it could not see is never taken for exited: its slot stays its own.
//! A thread that finds the table full counts into a thread-local fallback slot: its
//! functions are still attributed, but the threads view cannot see it.

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::os;
use crate::sync::bump;

const SLOTS: usize = 16_384;
const FREE: u64 = 0;
/// Owner tag of a slot being reclaimed: never a thread id, so no thread claims it.
const RECLAIMING: u64 = u64::MAX;

/// Cumulative counters of one thread.
pub(crate) struct Slot {
    /// OS thread id of the owner, or [`FREE`].
    tid: AtomicU64,
    alloc_bytes: AtomicU64,
    alloc_count: AtomicU64,
    free_bytes: AtomicU64,
    free_count: AtomicU64,
}

impl Slot {
    const fn new() -> Self {
        Self {
            tid: AtomicU64::new(FREE),
            alloc_bytes: AtomicU64::new(0),
            alloc_count: AtomicU64::new(0),
            free_bytes: AtomicU64::new(0),
            free_count: AtomicU64::new(0),
        }
    }

    // Only the threads view's sampler reclaims slots.
    #[cfg(feature = "threads")]
    fn take(&self) -> ThreadAllocs {
        let read = |c: &AtomicU64| c.swap(0, Ordering::Relaxed);
        ThreadAllocs {
            alloc_bytes: read(&self.alloc_bytes),
            alloc_count: read(&self.alloc_count),
            free_bytes: read(&self.free_bytes),
            free_count: read(&self.free_count),
        }
    }

    fn read(&self) -> ThreadAllocs {
        let read = |c: &AtomicU64| c.load(Ordering::Relaxed);
        ThreadAllocs {
            alloc_bytes: read(&self.alloc_bytes),
            alloc_count: read(&self.alloc_count),
            free_bytes: read(&self.free_bytes),
            free_count: read(&self.free_count),
        }
    }
}

/// Allocation totals of a thread (or of a set of threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ThreadAllocs {
    pub(crate) alloc_bytes: u64,
    pub(crate) alloc_count: u64,
    pub(crate) free_bytes: u64,
    pub(crate) free_count: u64,
}

impl ThreadAllocs {
    fn add(&mut self, other: ThreadAllocs) {
        self.alloc_bytes += other.alloc_bytes;
        self.alloc_count += other.alloc_count;
        self.free_bytes += other.free_bytes;
        self.free_count += other.free_count;
    }
}

// Zero-initialized statics live in .bss: pages of the table are only resident once used.
static TABLE: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];
static NEXT: AtomicUsize = AtomicUsize::new(0);
static EXITED: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];
static UNTRACKED_THREADS: AtomicU64 = AtomicU64::new(0);
/// Called on each thread's first counted allocation (the threads view asks for the
/// thread's exit record). Runs inside the allocator: it must not allocate.
static ON_NEW_THREAD: OnceLock<fn()> = OnceLock::new();

/// Sets what runs on each thread's first counted allocation; the first call wins.
#[cfg(feature = "threads")]
pub(crate) fn on_new_thread(f: fn()) {
    let _ = ON_NEW_THREAD.set(f);
}

struct ThreadState {
    slot: Cell<*const Slot>,
    /// Non-zero while the profiler itself runs on this thread: not counted.
    paused: Cell<u32>,
    fallback: Slot,
}

thread_local! {
    // Const-initialized and without a destructor, so the allocator can use it at any
    // point of a thread's life without allocating or registering anything.
    static STATE: ThreadState = const {
        ThreadState { slot: Cell::new(ptr::null()), paused: Cell::new(0), fallback: Slot::new() }
    };
}

/// Counts an allocation of `size` bytes on this thread.
#[inline(always)]
pub(crate) fn allocated(size: usize) {
    STATE.with(|s| {
        if s.paused.get() == 0 {
            let slot = slot(s);
            bump(&slot.alloc_bytes, size as u64);
            bump(&slot.alloc_count, 1);
        }
    });
}

/// Counts a deallocation of `size` bytes on this thread.
#[inline(always)]
pub(crate) fn freed(size: usize) {
    STATE.with(|s| {
        if s.paused.get() == 0 {
            let slot = slot(s);
            bump(&slot.free_bytes, size as u64);
            bump(&slot.free_count, 1);
        }
    });
}

#[inline(always)]
fn slot(state: &ThreadState) -> &Slot {
    let p = state.slot.get();
    if p.is_null() {
        claim(state)
    } else {
        // SAFETY: slots are statics, or this thread's own fallback slot.
        unsafe { &*p }
    }
}

#[cold]
#[inline(never)]
fn claim(state: &ThreadState) -> &Slot {
    let tid = os::current_tid().max(1);
    let start = NEXT.fetch_add(1, Ordering::Relaxed);
    let slot = TABLE
        .iter()
        .cycle()
        .skip(start % SLOTS)
        .take(SLOTS)
        .find(|slot| slot.tid.compare_exchange(FREE, tid, Ordering::AcqRel, Ordering::Relaxed).is_ok())
        .unwrap_or_else(|| {
            UNTRACKED_THREADS.fetch_add(1, Ordering::Relaxed);
            &state.fallback
        });
    state.slot.set(slot);
    if let Some(f) = ON_NEW_THREAD.get() {
        f();
    }
    slot
}

/// This thread's cumulative (bytes, count) allocated, for frame attribution.
#[inline(always)]
pub(crate) fn thread_allocated() -> (u64, u64) {
    STATE.with(|s| {
        let p = s.slot.get();
        if p.is_null() {
            (0, 0)
        } else {
            // SAFETY: as in `slot`.
            let slot = unsafe { &*p };
            (slot.alloc_bytes.load(Ordering::Relaxed), slot.alloc_count.load(Ordering::Relaxed))
        }
    })
}

/// Runs `f` without counting its allocations: the profiler's own work.
pub(crate) fn untracked<R>(f: impl FnOnce() -> R) -> R {
    struct Resume;
    impl Drop for Resume {
        fn drop(&mut self) {
            STATE.with(|s| s.paused.set(s.paused.get() - 1));
        }
    }
    STATE.with(|s| s.paused.set(s.paused.get() + 1));
    let _resume = Resume;
    f()
}

/// Whether the profiler itself runs on this thread now (its own thread, or inside
/// [`untracked`]): what it allocates is not the program's.
#[cfg(all(feature = "heap", target_os = "linux"))]
#[inline]
pub(crate) fn paused() -> bool {
    STATE.try_with(|s| s.paused.get() != 0).unwrap_or(true)
}

/// Stops counting this thread for good: for the profiler's own threads. What the
/// thread allocated before (the standard library's start of a named thread copies its
/// name, 9 bytes for `hp-budget`, before the thread's own code runs) is taken back: its
/// slot is zeroed and freed, so neither the process's totals nor the threads view
/// count it.
pub(crate) fn ignore_this_thread() {
    STATE.with(|s| {
        s.paused.set(s.paused.get() + 1);
        let p = s.slot.replace(ptr::null());
        if p.is_null() || ptr::eq(p, &s.fallback) {
            return;
        }
        // SAFETY: a non-null slot other than the fallback is one of `TABLE`'s statics.
        let slot = unsafe { &*p };
        for c in [&slot.alloc_bytes, &slot.alloc_count, &slot.free_bytes, &slot.free_count] {
            c.store(0, Ordering::Relaxed);
        }
        // Released after the zeroes: the next owner starts from them.
        slot.tid.store(FREE, Ordering::Release);
    });
}

/// Live threads' totals by OS thread id.
pub(crate) fn per_thread() -> Vec<(u64, ThreadAllocs)> {
    TABLE
        .iter()
        .filter_map(|slot| match slot.tid.load(Ordering::Acquire) {
            FREE | RECLAIMING => None,
            tid => Some((tid, slot.read())),
        })
        .collect()
}

/// Totals of the whole process: live slots plus exited threads (threads that ran
/// out of slots are not included; see [`untracked_threads`]).
pub(crate) fn process_totals() -> ThreadAllocs {
    let mut total = exited();
    per_thread().into_iter().for_each(|(_, t)| total.add(t));
    total
}

fn exited() -> ThreadAllocs {
    let read = |i: usize| EXITED[i].load(Ordering::Relaxed);
    ThreadAllocs { alloc_bytes: read(0), alloc_count: read(1), free_bytes: read(2), free_count: read(3) }
}

/// Threads whose allocations the threads view could not see (the table was full).
pub(crate) fn untracked_threads() -> u64 {
    UNTRACKED_THREADS.load(Ordering::Relaxed)
}

/// Claimed slots as (index, owner), read before the threads sampler lists the
/// threads, so that every owner it then misses has exited (see [`reclaim`]).
#[cfg(feature = "threads")]
pub(crate) fn claimed() -> Vec<(usize, u64)> {
    TABLE
        .iter()
        .enumerate()
        .filter_map(|(i, slot)| match slot.tid.load(Ordering::Acquire) {
            FREE | RECLAIMING => None,
            tid => Some((i, tid)),
        })
        .collect()
}

/// Frees the slots among `claimed` (read with [`claimed`] before the listing) whose
/// owner is not in `alive`, a complete listing of the threads that exist, folding
/// their numbers into the exited totals. A slot that changed owner meanwhile (another
/// reclaim freed it and a new thread took it) is left alone.
#[cfg(feature = "threads")]
pub(crate) fn reclaim(claimed: &[(usize, u64)], alive: &[u64]) {
    let mut alive = alive.to_vec();
    alive.sort_unstable();
    for &(i, tid) in claimed {
        if alive.binary_search(&tid).is_ok() {
            continue;
        }
        let slot = &TABLE[i];
        if slot.tid.compare_exchange(tid, RECLAIMING, Ordering::Acquire, Ordering::Relaxed).is_err() {
            continue;
        }
        let t = slot.take();
        for (counter, value) in EXITED.iter().zip([t.alloc_bytes, t.alloc_count, t.free_bytes, t.free_count]) {
            counter.fetch_add(value, Ordering::Relaxed);
        }
        slot.tid.store(FREE, Ordering::Release);
    }
}

// Reclaiming exists only with the threads view.
#[cfg(all(test, feature = "threads"))]
mod tests {
    use super::*;

    #[test]
    fn counts_per_thread_and_reclaims_exited_threads() {
        let tid = std::thread::spawn(|| {
            allocated(100);
            allocated(20);
            freed(100);
            untracked(|| allocated(1_000_000));
            assert_eq!(thread_allocated(), (120, 2));
            os::current_tid()
        })
        .join()
        .unwrap();
        let mine = per_thread().into_iter().find(|(t, _)| *t == tid).unwrap().1;
        assert_eq!(mine, ThreadAllocs { alloc_bytes: 120, alloc_count: 2, free_bytes: 100, free_count: 1 });
        let before = exited();
        let claimed = claimed();
        reclaim(&claimed, &[os::current_tid(), tid]);
        assert!(per_thread().iter().any(|(t, _)| *t == tid), "a listed thread keeps its slot");
        reclaim(&claimed, &[os::current_tid()]);
        assert!(per_thread().iter().all(|(t, _)| *t != tid));
        let after = exited();
        assert!(after.alloc_bytes >= before.alloc_bytes + 120);
        reclaim(&claimed, &[os::current_tid()]);
        assert_eq!(exited().alloc_bytes, after.alloc_bytes, "a slot is folded once");
    }
}
