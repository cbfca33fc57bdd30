//! What `mutex!` and `rw_lock!` call: one implementation per supported lock type.

use super::entry::{MutexSite, RwLockSite};

/// A mutex that `mutex!` can wrap.
pub trait InstrumentMutex {
    /// The wrapper, with the same methods.
    type Output;
    /// Wraps the lock, counted under `site`.
    fn instrument(self, site: &'static MutexSite) -> Self::Output;
}

/// An RwLock that `rw_lock!` can wrap.
pub trait InstrumentRwLock {
    /// The wrapper, with the same methods.
    type Output;
    /// Wraps the lock, counted under `site`.
    fn instrument(self, site: &'static RwLockSite) -> Self::Output;
}

/// Wraps a mutex created at `site` (the expansion of `mutex!`).
#[inline]
pub fn mutex<M: InstrumentMutex>(site: &'static MutexSite, lock: M) -> M::Output {
    lock.instrument(site)
}

/// Wraps an RwLock created at `site` (the expansion of `rw_lock!`).
#[inline]
pub fn rw_lock<L: InstrumentRwLock>(site: &'static RwLockSite, lock: L) -> L::Output {
    lock.instrument(site)
}
