//! Small synchronization helpers. Locking never panics: a poisoned lock still holds
//! consistent profiler data, because every critical section only adds numbers.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// Adds to a counter that only the owning thread writes: a plain load and store,
/// never a locked read-modify-write. Other threads may read it at any time.
#[inline(always)]
pub(crate) fn bump(counter: &AtomicU64, by: u64) {
    counter.store(counter.load(Relaxed).wrapping_add(by), Relaxed);
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Keeps `T` on cache lines of its own, so counters written by producers and by
/// consumers do not share a line (128 bytes: adjacent-line prefetch pairs lines on x86).
#[repr(align(128))]
#[derive(Default)]
pub(crate) struct Padded<T>(pub(crate) T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}
