//! Lock entries: one `mutex!` or `rw_lock!` site and data type, and the timing shared
//! by every lock wrapper.
//!
//! An acquisition first tries the lock without waiting. If that succeeds the wait is
//! zero and nothing is recorded for it; if it fails the acquisition is *contended*: the
//! blocking acquire that follows is timed into the entry's `contended` metric cell. The
//! guard keeps its acquisition tick and records the hold time into the `hold` cell when
//! dropped. Acquisitions are counted by hold times (guards released); wait percentiles
//! add the uncontended acquisitions as zeros.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::clock;
use crate::entries::{entry, Entry, EntryHeader, Instrument, WrapSite};
use crate::functions::{record_metric, FnSite};

static MUTEXES: Mutex<Vec<&'static MutexEntry>> = Mutex::new(Vec::new());
static RW_LOCKS: Mutex<Vec<&'static RwLockEntry>> = Mutex::new(Vec::new());

/// The metric sites of one lock mode (a mutex, or one side of an RwLock).
pub(crate) struct Mode {
    pub(crate) contended: &'static FnSite,
    pub(crate) hold: &'static FnSite,
}

impl Mode {
    fn new() -> Self {
        Self { contended: FnSite::metric(), hold: FnSite::metric() }
    }

    /// Ends a contended acquisition that started waiting at `start`; returns the
    /// acquisition tick.
    #[inline]
    pub(crate) fn contended(&'static self, start: u64) -> u64 {
        let now = clock::now();
        record_metric(self.contended, now.saturating_sub(start));
        now
    }
}

/// Identity and counters every lock entry has.
pub(crate) struct LockCore {
    pub(crate) kind: &'static str,
    pub(crate) instances: AtomicU64,
}

#[repr(C)]
pub(crate) struct MutexEntry {
    header: EntryHeader,
    pub(crate) core: LockCore,
    pub(crate) mode: Mode,
}

#[repr(C)]
pub(crate) struct RwLockEntry {
    header: EntryHeader,
    pub(crate) core: LockCore,
    pub(crate) read: Mode,
    pub(crate) write: Mode,
}

// SAFETY: repr(C) with the header first; the only entry type using Instrument::Mutex.
unsafe impl Entry for MutexEntry {
    const INSTRUMENT: Instrument = Instrument::Mutex;
    fn registry() -> &'static Mutex<Vec<&'static Self>> {
        &MUTEXES
    }
    fn header(&self) -> &EntryHeader {
        &self.header
    }
}

// SAFETY: repr(C) with the header first; the only entry type using Instrument::RwLock.
unsafe impl Entry for RwLockEntry {
    const INSTRUMENT: Instrument = Instrument::RwLock;
    fn registry() -> &'static Mutex<Vec<&'static Self>> {
        &RW_LOCKS
    }
    fn header(&self) -> &EntryHeader {
        &self.header
    }
}

/// The entry of a mutex of `T` wrapped at `site`, counting one more instance.
pub(crate) fn mutex_entry<T: ?Sized>(site: &'static WrapSite, kind: &'static str) -> &'static MutexEntry {
    let e = entry(site, std::any::type_name::<T>(), |header| MutexEntry {
        header,
        core: LockCore { kind, instances: AtomicU64::new(0) },
        mode: Mode::new(),
    });
    e.core.instances.fetch_add(1, Relaxed);
    e
}

/// The entry of an RwLock of `T` wrapped at `site`, counting one more instance.
pub(crate) fn rw_lock_entry<T: ?Sized>(site: &'static WrapSite, kind: &'static str) -> &'static RwLockEntry {
    let e = entry(site, std::any::type_name::<T>(), |header| RwLockEntry {
        header,
        core: LockCore { kind, instances: AtomicU64::new(0) },
        read: Mode::new(),
        write: Mode::new(),
    });
    e.core.instances.fetch_add(1, Relaxed);
    e
}

/// What a guard wrapper carries: where to record and when it was acquired.
pub(crate) struct Held {
    mode: &'static Mode,
    acquired: u64,
}

impl Held {
    #[inline(always)]
    pub(crate) fn new(mode: &'static Mode, acquired: u64) -> Self {
        Self { mode, acquired }
    }

    /// An uncontended acquisition, now.
    #[inline(always)]
    pub(crate) fn now(mode: &'static Mode) -> Self {
        Self { mode, acquired: clock::now() }
    }
}

impl Drop for Held {
    #[inline(always)]
    fn drop(&mut self) {
        record_metric(self.mode.hold, clock::now().saturating_sub(self.acquired));
    }
}
