//! `std::sync::Mutex` and `std::sync::RwLock`. Guards deref to the data; poisoning is
//! the inner lock's own: a panic while a wrapped guard is held poisons the lock, and a
//! poisoned lock hands out the wrapped guard inside the same `PoisonError`.

use std::sync::{self, LockResult, PoisonError, TryLockError, TryLockResult};

use super::acquire::acquire;
use super::entry::{mutex_entry, rw_lock_entry, Held, Mode, MutexEntry, MutexSite, RwLockEntry, RwLockSite};
use super::instrument::{InstrumentMutex, InstrumentRwLock};

/// A wrapped [`std::sync::Mutex`].
pub struct Mutex<T: ?Sized> {
    entry: &'static MutexEntry,
    inner: sync::Mutex<T>,
}

/// A wrapped [`std::sync::MutexGuard`]; records the hold time when dropped.
pub struct MutexGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: sync::MutexGuard<'a, T>,
}

/// A wrapped [`std::sync::RwLock`].
pub struct RwLock<T: ?Sized> {
    entry: &'static RwLockEntry,
    inner: sync::RwLock<T>,
}

/// A wrapped [`std::sync::RwLockReadGuard`].
pub struct RwLockReadGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: sync::RwLockReadGuard<'a, T>,
}

/// A wrapped [`std::sync::RwLockWriteGuard`].
pub struct RwLockWriteGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: sync::RwLockWriteGuard<'a, T>,
}

impl<T> InstrumentMutex for sync::Mutex<T> {
    type Output = Mutex<T>;
    fn instrument(self, site: &'static MutexSite, label: Option<&str>) -> Mutex<T> {
        Mutex { entry: mutex_entry::<T>(site, label, "std"), inner: self }
    }
}

impl<T> InstrumentRwLock for sync::RwLock<T> {
    type Output = RwLock<T>;
    fn instrument(self, site: &'static RwLockSite, label: Option<&str>) -> RwLock<T> {
        RwLock { entry: rw_lock_entry::<T>(site, label, "std"), inner: self }
    }
}

/// A std try as the shared core takes it: `None` when the lock is taken; a poisoned
/// lock is acquired all the same, its guard inside the `PoisonError`.
#[inline(always)]
fn tried<G>(result: TryLockResult<G>) -> Option<LockResult<G>> {
    match result {
        Ok(guard) => Some(Ok(guard)),
        Err(TryLockError::Poisoned(poisoned)) => Some(Err(poisoned)),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// An acquired std guard wrapped with its `Held`, a poisoned one kept poisoned.
#[inline(always)]
fn wrapped<G, W>(held: Held, result: LockResult<G>, wrap: impl FnOnce(Held, G) -> W) -> LockResult<W> {
    match result {
        Ok(guard) => Ok(wrap(held, guard)),
        Err(poisoned) => Err(PoisonError::new(wrap(held, poisoned.into_inner()))),
    }
}

/// The shared `acquire!` over std's results: `try` maps as [`tried`] does, written as
/// patterns so that the uncontended path branches once (through `tried`'s `Option` the
/// `lock` row of `scripts/bench icount` measured 81 instructions instead of 76).
macro_rules! acquire_std {
    ($mode:expr, $try:expr, $wait:expr, $wrap:expr) => {
        acquire!(
            $mode,
            match ($try) {
                Ok(guard) => Ok(guard),
                Err(TryLockError::Poisoned(poisoned)) => Err(poisoned);
                Err(TryLockError::WouldBlock)
            },
            $wait;
            |held, result| wrapped(held, result, $wrap)
        )
    };
}

/// `try_` acquisitions: never wait, so never contended.
#[inline(always)]
fn try_acquire_std<G, W>(
    mode: &'static Mode,
    result: TryLockResult<G>,
    wrap: impl FnOnce(Held, G) -> W,
) -> TryLockResult<W> {
    match tried(result) {
        Some(result) => wrapped(Held::now(mode), result, wrap).map_err(TryLockError::Poisoned),
        None => Err(TryLockError::WouldBlock),
    }
}

impl<T: ?Sized> Mutex<T> {
    /// As [`std::sync::Mutex::lock`].
    #[inline]
    pub fn lock(&self) -> LockResult<MutexGuard<'_, T>> {
        let wrap = |held, inner| MutexGuard { _held: held, inner };
        acquire_std!(&self.entry.mode, self.inner.try_lock(), self.inner.lock(), wrap)
    }

    /// As [`std::sync::Mutex::try_lock`].
    #[inline]
    pub fn try_lock(&self) -> TryLockResult<MutexGuard<'_, T>> {
        let wrap = |held, inner| MutexGuard { _held: held, inner };
        try_acquire_std(&self.entry.mode, self.inner.try_lock(), wrap)
    }

    crate::reach::forward! { "std::sync::Mutex";
        fn is_poisoned(&self) -> bool;
        fn clear_poison(&self);
        fn get_mut(&mut self) -> LockResult<&mut T>;
    }
}

impl<T> Mutex<T> {
    /// As [`std::sync::Mutex::into_inner`].
    pub fn into_inner(self) -> LockResult<T> {
        self.inner.into_inner()
    }
}

impl<T: ?Sized> RwLock<T> {
    /// As [`std::sync::RwLock::read`].
    #[inline]
    pub fn read(&self) -> LockResult<RwLockReadGuard<'_, T>> {
        let wrap = |held, inner| RwLockReadGuard { _held: held, inner };
        acquire_std!(&self.entry.read, self.inner.try_read(), self.inner.read(), wrap)
    }

    /// As [`std::sync::RwLock::write`].
    #[inline]
    pub fn write(&self) -> LockResult<RwLockWriteGuard<'_, T>> {
        let wrap = |held, inner| RwLockWriteGuard { _held: held, inner };
        acquire_std!(&self.entry.write, self.inner.try_write(), self.inner.write(), wrap)
    }

    /// As [`std::sync::RwLock::try_read`].
    #[inline]
    pub fn try_read(&self) -> TryLockResult<RwLockReadGuard<'_, T>> {
        let wrap = |held, inner| RwLockReadGuard { _held: held, inner };
        try_acquire_std(&self.entry.read, self.inner.try_read(), wrap)
    }

    /// As [`std::sync::RwLock::try_write`].
    #[inline]
    pub fn try_write(&self) -> TryLockResult<RwLockWriteGuard<'_, T>> {
        let wrap = |held, inner| RwLockWriteGuard { _held: held, inner };
        try_acquire_std(&self.entry.write, self.inner.try_write(), wrap)
    }

    crate::reach::forward! { "std::sync::RwLock";
        fn is_poisoned(&self) -> bool;
        fn clear_poison(&self);
        fn get_mut(&mut self) -> LockResult<&mut T>;
    }
}

impl<T> RwLock<T> {
    /// As [`std::sync::RwLock::into_inner`].
    pub fn into_inner(self) -> LockResult<T> {
        self.inner.into_inner()
    }
}

super::guard::lock_impls!(Mutex, sync::Mutex);
super::guard::lock_impls!(RwLock, sync::RwLock);
super::guard::guard_impls!(MutexGuard, mut);
super::guard::guard_impls!(RwLockReadGuard);
super::guard::guard_impls!(RwLockWriteGuard, mut);
