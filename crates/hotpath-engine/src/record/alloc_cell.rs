//! Per-site allocation numbers, kept beside the timing numbers of a `SiteCell`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::histogram::{Histogram, LocalHistogram};
use crate::record::Usage;
use crate::sync::bump;

/// Whether per-call numbers include nested measured calls (set once per session).
static INCLUSIVE: AtomicBool = AtomicBool::new(false);

pub(crate) fn set_inclusive(inclusive: bool) {
    INCLUSIVE.store(inclusive, Relaxed);
}

pub(crate) fn inclusive() -> bool {
    INCLUSIVE.load(Relaxed)
}

/// One site on one thread: bytes and allocation counts per call.
pub(crate) struct AllocCell {
    /// Sums over all calls (the numerator of Avg).
    bytes_sum: AtomicU64,
    allocs_sum: AtomicU64,
    /// Sums that never count an allocation twice: all calls when exclusive, outermost
    /// calls when inclusive (a recursive call is inside its caller's numbers).
    bytes_total: AtomicU64,
    allocs_total: AtomicU64,
    bytes_min: AtomicU64,
    allocs_min: AtomicU64,
    bytes_max: AtomicU64,
    allocs_max: AtomicU64,
    bytes: LocalHistogram,
    allocs: LocalHistogram,
}

/// Stores `value` into `slot` when `better(value, current)`; owner-only.
#[inline(always)]
fn keep(slot: &AtomicU64, value: u64, better: fn(u64, u64) -> bool) {
    if better(value, slot.load(Relaxed)) {
        slot.store(value, Relaxed);
    }
}

impl AllocCell {
    pub(crate) const fn new() -> Self {
        Self {
            bytes_sum: AtomicU64::new(0),
            allocs_sum: AtomicU64::new(0),
            bytes_total: AtomicU64::new(0),
            allocs_total: AtomicU64::new(0),
            bytes_min: AtomicU64::new(u64::MAX),
            allocs_min: AtomicU64::new(u64::MAX),
            bytes_max: AtomicU64::new(0),
            allocs_max: AtomicU64::new(0),
            bytes: LocalHistogram::new(),
            allocs: LocalHistogram::new(),
        }
    }

    /// Zeroes the numbers for a new session.
    pub(crate) fn reset(&self) {
        for counter in [
            &self.bytes_sum,
            &self.allocs_sum,
            &self.bytes_total,
            &self.allocs_total,
            &self.bytes_max,
            &self.allocs_max,
        ] {
            counter.store(0, Relaxed);
        }
        self.bytes_min.store(u64::MAX, Relaxed);
        self.allocs_min.store(u64::MAX, Relaxed);
        self.bytes.reset();
        self.allocs.reset();
    }

    /// Records one completed call.
    #[inline(always)]
    pub(crate) fn record(&self, inclusive: Usage, exclusive: Usage, outermost: bool) {
        let all = INCLUSIVE.load(Relaxed);
        let usage = if all { inclusive } else { exclusive };
        bump(&self.bytes_sum, usage.bytes);
        bump(&self.allocs_sum, usage.allocs);
        if outermost || !all {
            bump(&self.bytes_total, usage.bytes);
            bump(&self.allocs_total, usage.allocs);
        }
        keep(&self.bytes_min, usage.bytes, |v, c| v < c);
        keep(&self.allocs_min, usage.allocs, |v, c| v < c);
        keep(&self.bytes_max, usage.bytes, |v, c| v > c);
        keep(&self.allocs_max, usage.allocs, |v, c| v > c);
        self.bytes.record(usage.bytes);
        self.allocs.record(usage.allocs);
    }
}

/// [`AllocCell`]s merged over threads.
#[derive(Clone)]
pub(crate) struct AllocTotals {
    pub(crate) bytes_sum: u64,
    pub(crate) allocs_sum: u64,
    pub(crate) bytes_total: u64,
    pub(crate) allocs_total: u64,
    pub(crate) bytes_min: u64,
    pub(crate) allocs_min: u64,
    pub(crate) bytes_max: u64,
    pub(crate) allocs_max: u64,
    pub(crate) bytes: Histogram,
    pub(crate) allocs: Histogram,
}

impl Default for AllocTotals {
    fn default() -> Self {
        Self {
            bytes_sum: 0,
            allocs_sum: 0,
            bytes_total: 0,
            allocs_total: 0,
            bytes_min: u64::MAX,
            allocs_min: u64::MAX,
            bytes_max: 0,
            allocs_max: 0,
            bytes: Histogram::default(),
            allocs: Histogram::default(),
        }
    }
}

impl AllocTotals {
    pub(crate) fn add_cell(&mut self, cell: &AllocCell) {
        self.bytes_sum += cell.bytes_sum.load(Relaxed);
        self.allocs_sum += cell.allocs_sum.load(Relaxed);
        self.bytes_total += cell.bytes_total.load(Relaxed);
        self.allocs_total += cell.allocs_total.load(Relaxed);
        self.bytes_min = self.bytes_min.min(cell.bytes_min.load(Relaxed));
        self.allocs_min = self.allocs_min.min(cell.allocs_min.load(Relaxed));
        self.bytes_max = self.bytes_max.max(cell.bytes_max.load(Relaxed));
        self.allocs_max = self.allocs_max.max(cell.allocs_max.load(Relaxed));
        self.bytes.merge_local(&cell.bytes);
        self.allocs.merge_local(&cell.allocs);
    }

    pub(crate) fn add(&mut self, other: &AllocTotals) {
        self.bytes_sum += other.bytes_sum;
        self.allocs_sum += other.allocs_sum;
        self.bytes_total += other.bytes_total;
        self.allocs_total += other.allocs_total;
        self.bytes_min = self.bytes_min.min(other.bytes_min);
        self.allocs_min = self.allocs_min.min(other.allocs_min);
        self.bytes_max = self.bytes_max.max(other.bytes_max);
        self.allocs_max = self.allocs_max.max(other.allocs_max);
        self.bytes.merge(&other.bytes);
        self.allocs.merge(&other.allocs);
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.bytes.heap_bytes() + self.allocs.heap_bytes()
    }
}
