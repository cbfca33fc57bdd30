//! What `mutex!` and `rw_lock!` call: one implementation per supported lock type.

use super::entry::{MutexSite, RwLockSite};

/// A mutex that `mutex!` can wrap.
#[diagnostic::on_unimplemented(
    message = "`hotpath::mutex!` cannot wrap `{Self}`",
    label = "not a mutex of a lock backend that is enabled",
    note = "mutex! takes the lock a constructor returns: std::sync::Mutex always; parking_lot::Mutex needs hotpath's `parking_lot` feature, tokio::sync::Mutex `tokio`, async_lock::Mutex `async-lock` (e.g. features = [\"hotpath/hotpath\", \"hotpath/tokio\"])",
    note = "the wrapper is named hotpath::wrap::<backend>::Mutex<T>, such as hotpath::wrap::std::sync::Mutex<T>; use that path in signatures and fields so they compile with the `hotpath` feature on and off"
)]
pub trait InstrumentMutex {
    /// The wrapper, with the same methods.
    type Output;
    /// Wraps the lock, counted under `site` (in the row of `label` when one was
    /// computed at run time).
    fn instrument(self, site: &'static MutexSite, label: Option<&str>) -> Self::Output;
}

/// An RwLock that `rw_lock!` can wrap.
#[diagnostic::on_unimplemented(
    message = "`hotpath::rw_lock!` cannot wrap `{Self}`",
    label = "not an RwLock of a lock backend that is enabled",
    note = "rw_lock! takes the lock a constructor returns: std::sync::RwLock always; parking_lot::RwLock needs hotpath's `parking_lot` feature, tokio::sync::RwLock `tokio`, async_lock::RwLock `async-lock` (e.g. features = [\"hotpath/hotpath\", \"hotpath/tokio\"])",
    note = "the wrapper is named hotpath::wrap::<backend>::RwLock<T>, such as hotpath::wrap::std::sync::RwLock<T>; use that path in signatures and fields so they compile with the `hotpath` feature on and off"
)]
pub trait InstrumentRwLock {
    /// The wrapper, with the same methods.
    type Output;
    /// Wraps the lock, counted under `site` (in the row of `label` when one was
    /// computed at run time).
    fn instrument(self, site: &'static RwLockSite, label: Option<&str>) -> Self::Output;
}

/// Wraps a mutex created at `site` (the expansion of `mutex!`).
#[inline]
pub fn mutex<M: InstrumentMutex>(site: &'static MutexSite, label: Option<&str>, lock: M) -> M::Output {
    lock.instrument(site, label)
}

/// Wraps an RwLock created at `site` (the expansion of `rw_lock!`).
#[inline]
pub fn rw_lock<L: InstrumentRwLock>(site: &'static RwLockSite, label: Option<&str>, lock: L) -> L::Output {
    lock.instrument(site, label)
}
