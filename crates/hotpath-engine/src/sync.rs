//! Small synchronization helpers. Locking never panics: a poisoned lock still holds
//! consistent profiler data, because every critical section only adds numbers.
//!
//! The lock-free structures (`record::cells`, `cpu::ring`, `channels::ring`) take
//! their atomics and cells from [`atomic`] and [`cell`]: std's, or loom's when the
//! unit tests are built with `--cfg loom` to model-check them (`scripts/test-unsafe`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// std's atomics, or loom's in a loom test build. (Some are only used with the
/// features that compile their structure.)
#[allow(unused_imports)]
pub(crate) mod atomic {
    #[cfg(all(loom, test))]
    pub(crate) use loom::sync::atomic::{fence, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
    #[cfg(not(all(loom, test)))]
    pub(crate) use std::sync::atomic::{fence, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
}

/// An `UnsafeCell` with loom's closure-based access, so that the code loom checks is
/// the code that runs.
#[cfg(any(all(feature = "cpu", target_os = "linux"), all(loom, test)))]
pub(crate) mod cell {
    #[cfg(all(loom, test))]
    pub(crate) use loom::cell::UnsafeCell;

    #[cfg(not(all(loom, test)))]
    pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

    #[cfg(not(all(loom, test)))]
    impl<T> UnsafeCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            Self(std::cell::UnsafeCell::new(value))
        }

        /// Shared access through a raw pointer; the caller upholds the aliasing rules.
        #[inline(always)]
        pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
            f(self.0.get())
        }

        /// Exclusive access through a raw pointer; the caller upholds the aliasing rules.
        #[inline(always)]
        pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

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
