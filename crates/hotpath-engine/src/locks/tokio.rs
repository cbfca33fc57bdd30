//! `tokio::sync::Mutex` and `tokio::sync::RwLock` (feature `tokio`). The async
//! acquisitions try first and await only when the lock is taken; tokio's locks are fair,
//! so a `try_` never overtakes queued waiters. `lock_owned` and the other `Arc<Self>`
//! methods need the inner lock in an `Arc` and are not available on the wrapper.

use ::tokio::sync as ts;
use ::tokio::sync::TryLockError;

use super::acquire::acquire;
use super::entry::{mutex_entry, rw_lock_entry, Held, MutexEntry, MutexSite, RwLockEntry, RwLockSite};
use super::instrument::{InstrumentMutex, InstrumentRwLock};

/// A wrapped [`tokio::sync::Mutex`].
pub struct Mutex<T: ?Sized> {
    entry: &'static MutexEntry,
    inner: ts::Mutex<T>,
}

/// A wrapped [`tokio::sync::MutexGuard`]; records the hold time when dropped.
pub struct MutexGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: ts::MutexGuard<'a, T>,
}

/// A wrapped [`tokio::sync::RwLock`].
pub struct RwLock<T: ?Sized> {
    entry: &'static RwLockEntry,
    inner: ts::RwLock<T>,
}

/// A wrapped [`tokio::sync::RwLockReadGuard`].
pub struct RwLockReadGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: ts::RwLockReadGuard<'a, T>,
}

/// A wrapped [`tokio::sync::RwLockWriteGuard`].
pub struct RwLockWriteGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: ts::RwLockWriteGuard<'a, T>,
}

impl<T> InstrumentMutex for ts::Mutex<T> {
    type Output = Mutex<T>;
    fn instrument(self, site: &'static MutexSite, label: Option<&str>) -> Mutex<T> {
        Mutex { entry: mutex_entry::<T>(site, label, "tokio"), inner: self }
    }
}

impl<T> InstrumentRwLock for ts::RwLock<T> {
    type Output = RwLock<T>;
    fn instrument(self, site: &'static RwLockSite, label: Option<&str>) -> RwLock<T> {
        RwLock { entry: rw_lock_entry::<T>(site, label, "tokio"), inner: self }
    }
}

impl<T: ?Sized> Mutex<T> {
    /// As [`tokio::sync::Mutex::lock`].
    pub async fn lock(&self) -> MutexGuard<'_, T> {
        acquire!(&self.entry.mode, self.inner.try_lock().ok(), await self.inner.lock(), MutexGuard)
    }

    /// As [`tokio::sync::Mutex::blocking_lock`].
    pub fn blocking_lock(&self) -> MutexGuard<'_, T> {
        acquire!(&self.entry.mode, self.inner.try_lock().ok(), self.inner.blocking_lock(), MutexGuard)
    }

    /// As [`tokio::sync::Mutex::try_lock`].
    pub fn try_lock(&self) -> Result<MutexGuard<'_, T>, TryLockError> {
        Ok(MutexGuard { inner: self.inner.try_lock()?, _held: Held::now(&self.entry.mode) })
    }

    crate::reach::forward! { "tokio::sync::Mutex";
        fn get_mut(&mut self) -> &mut T;
    }
}

impl<T> Mutex<T> {
    /// As [`tokio::sync::Mutex::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<T: ?Sized> RwLock<T> {
    /// As [`tokio::sync::RwLock::read`].
    pub async fn read(&self) -> RwLockReadGuard<'_, T> {
        acquire!(&self.entry.read, self.inner.try_read().ok(), await self.inner.read(), RwLockReadGuard)
    }

    /// As [`tokio::sync::RwLock::write`].
    pub async fn write(&self) -> RwLockWriteGuard<'_, T> {
        acquire!(&self.entry.write, self.inner.try_write().ok(), await self.inner.write(), RwLockWriteGuard)
    }

    /// As [`tokio::sync::RwLock::blocking_read`].
    pub fn blocking_read(&self) -> RwLockReadGuard<'_, T> {
        acquire!(&self.entry.read, self.inner.try_read().ok(), self.inner.blocking_read(), RwLockReadGuard)
    }

    /// As [`tokio::sync::RwLock::blocking_write`].
    pub fn blocking_write(&self) -> RwLockWriteGuard<'_, T> {
        acquire!(&self.entry.write, self.inner.try_write().ok(), self.inner.blocking_write(), RwLockWriteGuard)
    }

    /// As [`tokio::sync::RwLock::try_read`].
    pub fn try_read(&self) -> Result<RwLockReadGuard<'_, T>, TryLockError> {
        Ok(RwLockReadGuard { inner: self.inner.try_read()?, _held: Held::now(&self.entry.read) })
    }

    /// As [`tokio::sync::RwLock::try_write`].
    pub fn try_write(&self) -> Result<RwLockWriteGuard<'_, T>, TryLockError> {
        Ok(RwLockWriteGuard { inner: self.inner.try_write()?, _held: Held::now(&self.entry.write) })
    }

    crate::reach::forward! { "tokio::sync::RwLock";
        fn get_mut(&mut self) -> &mut T;
    }
}

impl<T> RwLock<T> {
    /// As [`tokio::sync::RwLock::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

super::guard::lock_impls!(Mutex, ts::Mutex);
super::guard::lock_impls!(RwLock, ts::RwLock);
super::guard::guard_impls!(MutexGuard, mut);
super::guard::guard_impls!(RwLockReadGuard);
super::guard::guard_impls!(RwLockWriteGuard, mut);
