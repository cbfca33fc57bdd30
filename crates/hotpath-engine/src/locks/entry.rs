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

use crate::clock;
use crate::entries::{Entry, Instrument, Registry, Site};
use crate::reach::Derefs;
use crate::record::{count_metric, metric_timed, record_metric, Metric};
use crate::sampling::Sampled;
use crate::timeline::{self, Kind};

/// One in this many uncontended acquisitions per thread and lock mode has its hold timed.
pub(crate) const HOLD_SAMPLE: u64 = 16;

/// The call site `mutex!` emits as a `static`. Not a public API.
pub type MutexSite = Site<MutexEntry>;

/// The call site `rw_lock!` emits as a `static`. Not a public API.
pub type RwLockSite = Site<RwLockEntry>;

static MUTEXES: Registry<Entry<MutexEntry>> = Registry::new();
static RW_LOCKS: Registry<Entry<RwLockEntry>> = Registry::new();

/// The metrics of one lock mode (a mutex, or one side of an RwLock).
pub(crate) struct Mode {
    /// Contended acquisitions: every one counted (events), the timed ones' waits recorded.
    pub(crate) contended: Metric,
    pub(crate) hold: Metric,
    /// The time-sampling rate that applies (mutexes or RwLocks).
    sampled: Sampled,
}

impl Mode {
    fn new(sampled: Sampled) -> Self {
        Self { contended: Metric::new(), hold: Metric::new(), sampled }
    }

    /// Ends a contended acquisition that started waiting at `start`: its hold is timed
    /// when its wait is (at the wait's rate, under the overhead budget).
    #[inline]
    pub(crate) fn contended(&'static self, start: u64) -> Held {
        let now = clock::now();
        count_metric(self.contended, 1);
        count_metric(self.hold, 1);
        let Some(shift) = metric_timed(self.sampled, self.contended) else {
            return Held { mode: self, acquired: 0, shift: 0 };
        };
        record_metric(self.contended, now.saturating_sub(start), shift);
        if timeline::on() {
            timeline::slice(Kind::LockWait, self.contended.id(), start, now.saturating_sub(start), 0);
        }
        Held { mode: self, acquired: now, shift }
    }
}

/// Identity and counters every lock entry has.
pub(crate) struct LockCore {
    pub(crate) kind: &'static str,
    pub(crate) instances: AtomicU64,
    /// Code reached the inner lock through `Deref`: its acquisitions may be unmeasured.
    pub(crate) derefs: Derefs,
}

impl LockCore {
    fn new(kind: &'static str) -> Self {
        Self { kind, instances: AtomicU64::new(0), derefs: Derefs::new() }
    }
}

/// A `mutex!` entry's own data. Not a public API.
pub struct MutexEntry {
    pub(crate) core: LockCore,
    pub(crate) mode: Mode,
}

/// An `rw_lock!` entry's own data. Not a public API.
pub struct RwLockEntry {
    pub(crate) core: LockCore,
    pub(crate) read: Mode,
    pub(crate) write: Mode,
}

impl Instrument for MutexEntry {
    const MACRO: &'static str = "mutex!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &MUTEXES
    }
}

impl Instrument for RwLockEntry {
    const MACRO: &'static str = "rw_lock!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &RW_LOCKS
    }
}

/// The entry of a mutex of `T` wrapped at `site`, counting one more instance.
pub(crate) fn mutex_entry<T: ?Sized>(
    site: &'static MutexSite,
    label: Option<&str>,
    kind: &'static str,
) -> &'static MutexEntry {
    let e =
        site.entry_labelled::<T>(label, || MutexEntry { core: LockCore::new(kind), mode: Mode::new(Sampled::Mutexes) });
    e.core.instances.fetch_add(1, Relaxed);
    e
}

/// The entry of an RwLock of `T` wrapped at `site`, counting one more instance.
pub(crate) fn rw_lock_entry<T: ?Sized>(
    site: &'static RwLockSite,
    label: Option<&str>,
    kind: &'static str,
) -> &'static RwLockEntry {
    let e = site.entry_labelled::<T>(label, || RwLockEntry {
        core: LockCore::new(kind),
        read: Mode::new(Sampled::RwLocks),
        write: Mode::new(Sampled::RwLocks),
    });
    e.core.instances.fetch_add(1, Relaxed);
    e
}

/// What a guard wrapper carries: where to record, the acquisition tick when its hold
/// is timed (0 when not) and the shift of its weight (the overhead budget's rate).
pub(crate) struct Held {
    mode: &'static Mode,
    acquired: u64,
    shift: u32,
}

impl Held {
    /// An uncontended acquisition, now: counted, and timed if it is this thread's sample.
    #[inline(always)]
    pub(crate) fn now(mode: &'static Mode) -> Self {
        let count = count_metric(mode.hold, 1);
        if count % HOLD_SAMPLE != 1 {
            // On the timeline every hold is timed, so each shows as a slice.
            return if timeline::on() { Self::timed(mode) } else { Self { mode, acquired: 0, shift: 0 } };
        }
        Self::timed(mode)
    }

    /// A hold this thread samples (or that the timeline records): timed at the hold
    /// metric's rate.
    #[inline(always)]
    fn timed(mode: &'static Mode) -> Self {
        match metric_timed(mode.sampled, mode.hold) {
            Some(shift) => Self { mode, acquired: clock::now(), shift },
            None => Self { mode, acquired: 0, shift: 0 },
        }
    }
}

impl Held {
    #[cold]
    #[inline(never)]
    fn record(&self) {
        let held = clock::now().saturating_sub(self.acquired);
        record_metric(self.mode.hold, held, self.shift);
        if timeline::on() {
            timeline::slice(Kind::LockHold, self.mode.hold.id(), self.acquired, held, 0);
        }
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
    (mode.contended(start), guard)
}

/// [`contended`] for a wait that can time out: a timeout is no acquisition and records
/// nothing.
#[cold]
#[inline(never)]
#[cfg(feature = "parking_lot")]
pub(crate) fn contended_for<G>(mode: &'static Mode, wait: impl FnOnce() -> Option<G>) -> Option<(Held, G)> {
    let start = clock::now();
    let guard = wait()?;
    Some((mode.contended(start), guard))
}
