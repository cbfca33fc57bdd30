//! A site's numbers merged over threads (`cell.rs` adds each thread's cell).

use super::weighted::WeightedTotals;
use crate::histogram::Histogram;

/// A site's numbers merged over threads, in ticks.
#[derive(Clone)]
pub(crate) struct SiteTotals {
    pub(crate) calls: u64,
    /// Calls counted but not timed (time sampling); `calls` are the timed ones.
    pub(crate) untimed: u64,
    /// Calls running now: sync calls on some thread's stack plus async calls polled and
    /// not yet ended.
    pub(crate) active: u64,
    /// Start tick of the oldest active call whose start is kept: sync calls, and async
    /// calls holding a start slot (`u64::MAX` when none).
    pub(crate) active_since: u64,
    pub(crate) sum: u64,
    pub(crate) total: u64,
    pub(crate) self_time: u64,
    pub(crate) min: u64,
    pub(crate) max: u64,
    pub(crate) cancelled: u64,
    pub(crate) polls: u64,
    pub(crate) busy: u64,
    pub(crate) histogram: Histogram,
    pub(crate) weighted: WeightedTotals,
    #[cfg(feature = "alloc")]
    pub(crate) alloc: crate::record::AllocTotals,
}

impl Default for SiteTotals {
    fn default() -> Self {
        Self {
            calls: 0,
            untimed: 0,
            active: 0,
            active_since: u64::MAX,
            sum: 0,
            total: 0,
            self_time: 0,
            min: u64::MAX,
            max: 0,
            cancelled: 0,
            polls: 0,
            busy: 0,
            histogram: Histogram::default(),
            weighted: WeightedTotals::default(),
            #[cfg(feature = "alloc")]
            alloc: crate::record::AllocTotals::default(),
        }
    }
}

impl SiteTotals {
    /// Adds another total.
    pub(crate) fn add(&mut self, other: &SiteTotals) {
        self.calls += other.calls;
        self.untimed += other.untimed;
        self.active = self.active.wrapping_add(other.active);
        self.active_since = self.active_since.min(other.active_since);
        self.sum += other.sum;
        self.total += other.total;
        self.self_time += other.self_time;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.cancelled += other.cancelled;
        self.polls += other.polls;
        self.busy += other.busy;
        self.histogram.merge(&other.histogram);
        self.weighted.add(&other.weighted);
        #[cfg(feature = "alloc")]
        self.alloc.add(&other.alloc);
    }
}
