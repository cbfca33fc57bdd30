//! Lock entries: one `mutex!` or `rw_lock!` site and data type, and the timing shared
//! by every lock wrapper.
//!
//! An acquisition first tries the lock without waiting. If that succeeds the wait is
//! zero and nothing is recorded for it; if it fails the acquisition is *contended*: the
//! blocking acquire that follows is timed into the entry's `contended` metric cell. Every
//! acquisition is counted, exactly, in the acquiring thread's `hold` cell; wait
//! percentiles add the uncontended acquisitions as zeros.
//!
//! Hold times are sampled, because two clock reads would cost more than the lock: a
//! thread times every contended acquisition and 1 in [`HOLD_SAMPLE`] of the others (its
//! first included). The guard keeps the acquisition tick of a timed acquisition and
//! records the hold time when dropped; an untimed guard costs nothing on release.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::clock;
use crate::entries::{entry, Entry, EntryHeader, Instrument, WrapSite};
use crate::functions::{count_metric, record_metric, FnSite};

/// One in this many uncontended acquisitions per thread and lock mode has its hold timed.
pub(crate) const HOLD_SAMPLE: u64 = 16;

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
        count_metric(self.hold, 1);
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

/// What a guard wrapper carries: where to record, and the acquisition tick when its
/// hold is timed (0 when not).
pub(crate) struct Held {
    mode: &'static Mode,
    acquired: u64,
}

impl Held {
    /// A contended acquisition (counted by [`Mode::contended`]) at tick `acquired`.
    #[inline(always)]
    pub(crate) fn new(mode: &'static Mode, acquired: u64) -> Self {
        Self { mode, acquired }
    }

    /// An uncontended acquisition, now: counted, and timed if it is this thread's sample.
    #[inline(always)]
    pub(crate) fn now(mode: &'static Mode) -> Self {
        let count = count_metric(mode.hold, 1);
        let acquired = if count % HOLD_SAMPLE == 1 { clock::now() } else { 0 };
        Self { mode, acquired }
    }
}

impl Held {
    #[cold]
    #[inline(never)]
    fn record(&self) {
        record_metric(self.mode.hold, clock::now().saturating_sub(self.acquired));
    }
}

impl Drop for Held {
    #[inline(always)]
    fn drop(&mut self) {
        if self.acquired != 0 {
            self.record();
        }
    }
}

/// The slow path of a blocking acquisition whose first try found the lock taken:
/// `wait` acquires it, timed as a contended wait. Out of line, so that the uncontended
/// path inlines into the caller.
#[cold]
#[inline(never)]
pub(crate) fn contended<G>(mode: &'static Mode, wait: impl FnOnce() -> G) -> (Held, G) {
    let start = clock::now();
    let guard = wait();
    (Held::new(mode, mode.contended(start)), guard)
}

/// [`contended`] for a wait that can time out: a timeout is no acquisition and records
/// nothing.
#[cold]
#[inline(never)]
#[cfg_attr(not(feature = "parking_lot"), allow(dead_code))]
pub(crate) fn contended_for<G>(mode: &'static Mode, wait: impl FnOnce() -> Option<G>) -> Option<(Held, G)> {
    let start = clock::now();
    let guard = wait()?;
    Some((Held::new(mode, mode.contended(start)), guard))
}
