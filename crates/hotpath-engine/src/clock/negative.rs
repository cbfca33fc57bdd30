//! Counting intervals that came out negative, without touching shared memory on
//! the measuring thread.
//!
//! Each thread counts into its own thread-local counter with a plain store. The
//! counter is listed in a registry on its thread's first negative interval (a cold
//! path) and folded into a process total when the thread exits, so a report sums
//! the live counters plus that total. A thread that is already tearing down its
//! thread-locals counts straight into the total.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::memory;
use crate::sync::{bump, lock};

/// One thread's count. Written only by its thread; read by reports under [`LIVE`].
struct Local {
    count: AtomicU64,
    listed: Cell<bool>,
}

/// The address of a listed [`Local`]; it stays valid until that thread removes it.
struct Listed(*const Local);

// SAFETY: the pointer is only dereferenced to load the atomic counter, under the
// `LIVE` lock, and the owning thread unlists it under the same lock before it is freed.
unsafe impl Send for Listed {}

static LIVE: Mutex<Vec<Listed>> = Mutex::new(Vec::new());
/// Counts of exited threads, and of threads past their thread-local teardown.
static EXITED: AtomicU64 = AtomicU64::new(0);

thread_local! {
    // Touched only on a negative interval, so its destructor is registered lazily.
    static LOCAL: Local = const { Local { count: AtomicU64::new(0), listed: Cell::new(false) } };
}

impl Drop for Local {
    fn drop(&mut self) {
        if self.listed.get() {
            let mut live = lock(&LIVE);
            live.retain(|l| !std::ptr::eq(l.0, self));
            EXITED.fetch_add(self.count.load(Relaxed), Relaxed);
        }
    }
}

/// Counts one negative interval on this thread.
#[cold]
#[inline(never)]
pub(super) fn count() {
    let counted = LOCAL.try_with(|local| {
        bump(&local.count, 1);
        if !local.listed.get() {
            local.listed.set(true);
            memory::untracked(|| lock(&LIVE).push(Listed(local)));
        }
    });
    if counted.is_err() {
        EXITED.fetch_add(1, Relaxed);
    }
}

/// Negative intervals over every thread so far.
pub(crate) fn total() -> u64 {
    let live = lock(&LIVE);
    // SAFETY: listed counters are alive while they are in `LIVE` (see `Listed`).
    let sum: u64 = live.iter().map(|l| unsafe { &*l.0 }.count.load(Relaxed)).sum();
    sum + EXITED.load(Relaxed)
}
