//! A measured site's timeline trigger: the duration over which a call of it writes the
//! timeline out. Set in code (`#[measure(timeline_over = "50ms")]`) or by
//! `HOTPATH_TIMELINE_TRIGGER`; checked at the end of each call while the timeline is on,
//! with one load and one compare against a threshold kept in clock ticks.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The threshold of one site. `NONE` in ticks while it has none.
pub(crate) struct Threshold {
    /// The threshold the code set, in nanoseconds (0: none).
    code_ns: u64,
    /// The threshold in force, in nanoseconds (0: none).
    ns: AtomicU64,
    /// `ns` in ticks once the clock's rate is settled; 0 before (every call then
    /// checks on the slow path); `NONE` without a threshold.
    ticks: AtomicU64,
}

const NONE: u64 = u64::MAX;

impl Threshold {
    /// A threshold set in code (`0`: none); `const` for the macros' statics.
    pub(crate) const fn new(code_ns: u64) -> Self {
        Self { code_ns, ns: AtomicU64::new(0), ticks: AtomicU64::new(NONE) }
    }

    /// Puts in force the threshold the environment sets for `name`, else the code's.
    pub(crate) fn apply(&self, name: impl FnOnce() -> String) {
        let ns = super::trigger::threshold_for(&name()).unwrap_or(self.code_ns);
        self.ns.store(ns, Relaxed);
        self.ticks.store(if ns == 0 { NONE } else { 0 }, Relaxed);
    }

    /// Whether a call that lasted `ticks` breached: one load and one compare unless
    /// it is over the threshold in ticks (or the rate is not settled yet).
    #[cfg(feature = "services")]
    #[inline(always)]
    pub(crate) fn breached(&self, ticks: u64) -> bool {
        self.maybe_breached(ticks) && self.confirm(ticks)
    }

    /// The one load and one compare of [`breached`](Self::breached): false means not.
    #[inline(always)]
    pub(crate) fn maybe_breached(&self, ticks: u64) -> bool {
        ticks > self.ticks.load(Relaxed)
    }

    /// The rest of [`breached`](Self::breached), out of line.
    #[cold]
    #[inline(never)]
    pub(crate) fn confirm(&self, ticks: u64) -> bool {
        let ns = self.ns.load(Relaxed);
        if ns == 0 {
            return false;
        }
        let (over, settled) = crate::clock::ticks_in_ns(ns);
        if settled {
            self.ticks.store(over.max(1), Relaxed);
        }
        ticks > over
    }

    /// The threshold in force, in nanoseconds (0: none).
    pub(crate) fn ns(&self) -> u64 {
        self.ns.load(Relaxed)
    }
}
