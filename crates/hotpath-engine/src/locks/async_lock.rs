//! `async_lock::Mutex` and `async_lock::RwLock` (feature `async-lock`). Acquisitions try
//! first and wait (`.await` or a blocking call) only when the lock is taken, timed as
//! contended. An upgradable read is held in read mode; its upgrade waits in write mode.
//! The `Arc<Self>` methods (`lock_arc`, `read_arc`, ...) need the inner lock in an `Arc`
//! and are not available on the wrapper.

use ::async_lock as al;

use super::acquire::acquire;
use super::entry::{mutex_entry, rw_lock_entry, Held, MutexEntry, MutexSite, RwLockEntry, RwLockSite};
use super::instrument::{InstrumentMutex, InstrumentRwLock};
use crate::clock;

/// A wrapped [`async_lock::Mutex`].
pub struct Mutex<T: ?Sized> {
    entry: &'static MutexEntry,
    inner: al::Mutex<T>,
}

/// A wrapped [`async_lock::MutexGuard`]; records the hold time when dropped.
pub struct MutexGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: al::MutexGuard<'a, T>,
}

/// A wrapped [`async_lock::RwLock`].
pub struct RwLock<T: ?Sized> {
    entry: &'static RwLockEntry,
    inner: al::RwLock<T>,
}

/// A wrapped [`async_lock::RwLockReadGuard`].
pub struct RwLockReadGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: al::RwLockReadGuard<'a, T>,
}

/// A wrapped [`async_lock::RwLockUpgradableReadGuard`].
pub struct RwLockUpgradableReadGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: al::RwLockUpgradableReadGuard<'a, T>,
    entry: &'static RwLockEntry,
}

/// A wrapped [`async_lock::RwLockWriteGuard`].
pub struct RwLockWriteGuard<'a, T: ?Sized + 'a> {
    // Declared first: dropped (hold time recorded) before the inner guard unlocks.
    _held: Held,
    inner: al::RwLockWriteGuard<'a, T>,
}

impl<T> InstrumentMutex for al::Mutex<T> {
    type Output = Mutex<T>;
    fn instrument(self, site: &'static MutexSite, label: Option<&str>) -> Mutex<T> {
        Mutex { entry: mutex_entry::<T>(site, label, "async_lock"), inner: self }
    }
}

impl<T> InstrumentRwLock for al::RwLock<T> {
    type Output = RwLock<T>;
    fn instrument(self, site: &'static RwLockSite, label: Option<&str>) -> RwLock<T> {
        RwLock { entry: rw_lock_entry::<T>(site, label, "async_lock"), inner: self }
    }
}

impl<T: ?Sized> Mutex<T> {
    /// As [`async_lock::Mutex::lock`].
    pub async fn lock(&self) -> MutexGuard<'_, T> {
        acquire!(&self.entry.mode, self.inner.try_lock(), await self.inner.lock(), MutexGuard)
    }

    /// As [`async_lock::Mutex::lock_blocking`].
    pub fn lock_blocking(&self) -> MutexGuard<'_, T> {
        acquire!(&self.entry.mode, self.inner.try_lock(), self.inner.lock_blocking(), MutexGuard)
    }

    /// As [`async_lock::Mutex::try_lock`].
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        Some(MutexGuard { inner: self.inner.try_lock()?, _held: Held::now(&self.entry.mode) })
    }

    crate::reach::forward! { "async_lock::Mutex";
        fn get_mut(&mut self) -> &mut T;
    }
}

impl<T> Mutex<T> {
    /// As [`async_lock::Mutex::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<T: ?Sized> RwLock<T> {
    /// As [`async_lock::RwLock::read`].
    pub async fn read(&self) -> RwLockReadGuard<'_, T> {
        acquire!(&self.entry.read, self.inner.try_read(), await self.inner.read(), RwLockReadGuard)
    }

    /// As [`async_lock::RwLock::read_blocking`].
    pub fn read_blocking(&self) -> RwLockReadGuard<'_, T> {
        acquire!(&self.entry.read, self.inner.try_read(), self.inner.read_blocking(), RwLockReadGuard)
    }

    /// As [`async_lock::RwLock::try_read`].
    pub fn try_read(&self) -> Option<RwLockReadGuard<'_, T>> {
        Some(RwLockReadGuard { inner: self.inner.try_read()?, _held: Held::now(&self.entry.read) })
    }

    /// As [`async_lock::RwLock::upgradable_read`].
    pub async fn upgradable_read(&self) -> RwLockUpgradableReadGuard<'_, T> {
        let (try_it, entry) = (self.inner.try_upgradable_read(), self.entry);
        acquire!(&entry.read, try_it, await self.inner.upgradable_read(), RwLockUpgradableReadGuard, entry: entry)
    }

    /// As [`async_lock::RwLock::upgradable_read_blocking`].
    pub fn upgradable_read_blocking(&self) -> RwLockUpgradableReadGuard<'_, T> {
        let (try_it, entry) = (self.inner.try_upgradable_read(), self.entry);
        acquire!(&entry.read, try_it, self.inner.upgradable_read_blocking(), RwLockUpgradableReadGuard, entry: entry)
    }

    /// As [`async_lock::RwLock::try_upgradable_read`].
    pub fn try_upgradable_read(&self) -> Option<RwLockUpgradableReadGuard<'_, T>> {
        let inner = self.inner.try_upgradable_read()?;
        Some(RwLockUpgradableReadGuard { inner, _held: Held::now(&self.entry.read), entry: self.entry })
    }

    /// As [`async_lock::RwLock::write`].
    pub async fn write(&self) -> RwLockWriteGuard<'_, T> {
        acquire!(&self.entry.write, self.inner.try_write(), await self.inner.write(), RwLockWriteGuard)
    }

    /// As [`async_lock::RwLock::write_blocking`].
    pub fn write_blocking(&self) -> RwLockWriteGuard<'_, T> {
        acquire!(&self.entry.write, self.inner.try_write(), self.inner.write_blocking(), RwLockWriteGuard)
    }

    /// As [`async_lock::RwLock::try_write`].
    pub fn try_write(&self) -> Option<RwLockWriteGuard<'_, T>> {
        Some(RwLockWriteGuard { inner: self.inner.try_write()?, _held: Held::now(&self.entry.write) })
    }

    crate::reach::forward! { "async_lock::RwLock";
        fn get_mut(&mut self) -> &mut T;
    }
}

impl<T> RwLock<T> {
    /// As [`async_lock::RwLock::into_inner`].
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<'a, T: ?Sized> RwLockUpgradableReadGuard<'a, T> {
    /// As [`async_lock::RwLockUpgradableReadGuard::upgrade`]: the read hold ends, the
    /// wait for the other readers to leave is timed in write mode.
    pub async fn upgrade(guard: Self) -> RwLockWriteGuard<'a, T> {
        let Self { _held, inner, entry } = guard;
        drop(_held);
        let mode = &entry.write;
        match al::RwLockUpgradableReadGuard::try_upgrade(inner) {
            Ok(inner) => RwLockWriteGuard { _held: Held::now(mode), inner },
            Err(inner) => {
                let start = clock::now();
                let inner = al::RwLockUpgradableReadGuard::upgrade(inner).await;
                RwLockWriteGuard { _held: mode.contended(start), inner }
            }
        }
    }

    /// As [`async_lock::RwLockUpgradableReadGuard::try_upgrade`]: the guard comes back
    /// unchanged when other readers hold the lock.
    pub fn try_upgrade(guard: Self) -> Result<RwLockWriteGuard<'a, T>, Self> {
        let Self { _held, inner, entry } = guard;
        match al::RwLockUpgradableReadGuard::try_upgrade(inner) {
            Ok(inner) => {
                drop(_held);
                Ok(RwLockWriteGuard { _held: Held::now(&entry.write), inner })
            }
            Err(inner) => Err(Self { _held, inner, entry }),
        }
    }

    /// As [`async_lock::RwLockUpgradableReadGuard::downgrade`].
    pub fn downgrade(guard: Self) -> RwLockReadGuard<'a, T> {
        let Self { _held, inner, .. } = guard;
        RwLockReadGuard { _held, inner: al::RwLockUpgradableReadGuard::downgrade(inner) }
    }
}

super::guard::lock_impls!(Mutex, al::Mutex);
super::guard::lock_impls!(RwLock, al::RwLock);
super::guard::guard_impls!(MutexGuard, mut);
super::guard::guard_impls!(RwLockReadGuard);
super::guard::guard_impls!(RwLockUpgradableReadGuard);
super::guard::guard_impls!(RwLockWriteGuard, mut);
