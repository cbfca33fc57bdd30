//! `parking_lot::Mutex` and `parking_lot::RwLock` (feature `parking_lot`). Methods not
//! wrapped here (upgradable reads, `try_lock_until`, `is_locked`, ...) are reached
//! through `Deref` and are not measured.

use std::time::Duration;

use ::parking_lot as pl;

use super::acquire::acquire;
use super::entry::{contended_for, mutex_entry, rw_lock_entry, Held, MutexEntry, MutexSite, RwLockEntry, RwLockSite};
use super::instrument::{InstrumentMutex, InstrumentRwLock};

/// A wrapped [`parking_lot::Mutex`].
pub struct Mutex<T: ?Sized> {
    entry: &'static MutexEntry,
    inner: pl::Mutex<T>,
}

/// A wrapped [`parking_lot::MutexGuard`]; records the hold time when dropped.
pub struct MutexGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: pl::MutexGuard<'a, T>,
}

/// A wrapped [`parking_lot::RwLock`].
pub struct RwLock<T: ?Sized> {
    entry: &'static RwLockEntry,
    inner: pl::RwLock<T>,
}

/// A wrapped [`parking_lot::RwLockReadGuard`].
pub struct RwLockReadGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: pl::RwLockReadGuard<'a, T>,
}

/// A wrapped [`parking_lot::RwLockWriteGuard`].
pub struct RwLockWriteGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: pl::RwLockWriteGuard<'a, T>,
}

impl<T> InstrumentMutex for pl::Mutex<T> {
    type Output = Mutex<T>;
    fn instrument(self, site: &'static MutexSite, label: Option<&str>) -> Mutex<T> {
        Mutex { entry: mutex_entry::<T>(site, label, "parking_lot"), inner: self }
    }
}

impl<T> InstrumentRwLock for pl::RwLock<T> {
    type Output = RwLock<T>;
    fn instrument(self, site: &'static RwLockSite, label: Option<&str>) -> RwLock<T> {
        RwLock { entry: rw_lock_entry::<T>(site, label, "parking_lot"), inner: self }
    }
}

/// Tries without waiting, then waits at most a timeout (timed as contended when it
/// succeeds; a timeout is no acquisition).
macro_rules! acquire_for {
    ($mode:expr, $try:expr, $wait:expr, $wrap:ident) => {{
        let mode = $mode;
        match $try {
            Some(inner) => Some($wrap { _held: Held::now(mode), inner }),
            None => {
                let (_held, inner) = contended_for(mode, || $wait)?;
                Some($wrap { _held, inner })
            }
        }
    }};
}

impl<T: ?Sized> Mutex<T> {
    /// As [`parking_lot::Mutex::lock`].
    #[inline]
    pub fn lock(&self) -> MutexGuard<'_, T> {
        acquire!(&self.entry.mode, self.inner.try_lock(), self.inner.lock(), MutexGuard)
    }

    /// As [`parking_lot::Mutex::try_lock`].
    #[inline]
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        Some(MutexGuard { inner: self.inner.try_lock()?, _held: Held::now(&self.entry.mode) })
    }

    /// As [`parking_lot::Mutex::try_lock_for`].
    #[inline]
    pub fn try_lock_for(&self, timeout: Duration) -> Option<MutexGuard<'_, T>> {
        acquire_for!(&self.entry.mode, self.inner.try_lock(), self.inner.try_lock_for(timeout), MutexGuard)
    }

    crate::reach::forward! { "parking_lot::Mutex";
        fn is_locked(&self) -> bool;
        fn get_mut(&mut self) -> &mut T;
        fn data_ptr(&self) -> *mut T;
    }
}

impl<T> Mutex<T> {
    /// As [`parking_lot::Mutex::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<T: ?Sized> RwLock<T> {
    /// As [`parking_lot::RwLock::read`].
    #[inline]
    pub fn read(&self) -> RwLockReadGuard<'_, T> {
        acquire!(&self.entry.read, self.inner.try_read(), self.inner.read(), RwLockReadGuard)
    }

    /// As [`parking_lot::RwLock::write`].
    #[inline]
    pub fn write(&self) -> RwLockWriteGuard<'_, T> {
        acquire!(&self.entry.write, self.inner.try_write(), self.inner.write(), RwLockWriteGuard)
    }

    /// As [`parking_lot::RwLock::try_read`].
    #[inline]
    pub fn try_read(&self) -> Option<RwLockReadGuard<'_, T>> {
        Some(RwLockReadGuard { inner: self.inner.try_read()?, _held: Held::now(&self.entry.read) })
    }

    /// As [`parking_lot::RwLock::try_write`].
    #[inline]
    pub fn try_write(&self) -> Option<RwLockWriteGuard<'_, T>> {
        Some(RwLockWriteGuard { inner: self.inner.try_write()?, _held: Held::now(&self.entry.write) })
    }

    /// As [`parking_lot::RwLock::try_read_for`].
    #[inline]
    pub fn try_read_for(&self, timeout: Duration) -> Option<RwLockReadGuard<'_, T>> {
        acquire_for!(&self.entry.read, self.inner.try_read(), self.inner.try_read_for(timeout), RwLockReadGuard)
    }

    /// As [`parking_lot::RwLock::try_write_for`].
    #[inline]
    pub fn try_write_for(&self, timeout: Duration) -> Option<RwLockWriteGuard<'_, T>> {
        acquire_for!(&self.entry.write, self.inner.try_write(), self.inner.try_write_for(timeout), RwLockWriteGuard)
    }

    crate::reach::forward! { "parking_lot::RwLock";
        fn is_locked(&self) -> bool;
        fn is_locked_exclusive(&self) -> bool;
        fn get_mut(&mut self) -> &mut T;
        fn data_ptr(&self) -> *mut T;
    }
}

impl<T> RwLock<T> {
    /// As [`parking_lot::RwLock::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

super::guard::lock_impls!(Mutex, pl::Mutex);
super::guard::lock_impls!(RwLock, pl::RwLock);
super::guard::guard_impls!(MutexGuard, mut);
super::guard::guard_impls!(RwLockReadGuard);
super::guard::guard_impls!(RwLockWriteGuard, mut);
