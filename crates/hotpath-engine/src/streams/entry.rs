//! A stream entry: one `stream!` site and item type (or one instance with `iter = true`).
//!
//! Instance starts and ends are rare events and update shared atomics; items go to
//! per-thread cells of the entry's metric site `items` (event count = items, durations =
//! mean time per item of each window, see `stream.rs`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::entries::{Entry, Instrument, Registry, Site};
use crate::logs::LogSlot;
use crate::record::Metric;

/// The call site `stream!` emits as a `static`. Not a public API.
pub type StreamSite = Site<StreamEntry>;

static REGISTRY: Registry<Entry<StreamEntry>> = Registry::new();

/// A `stream!` entry's own data. Not a public API.
pub struct StreamEntry {
    pub(crate) items: Metric,
    pub(crate) instances: AtomicU64,
    started: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
    /// Summed lifetimes of ended instances, ticks.
    ended_ticks: AtomicU64,
    /// Summed first-poll ticks of active instances (wrapping): with their count it gives
    /// their summed lifetimes at any instant without visiting them.
    active_starts: AtomicU64,
    /// `log = true`: the last items yielded.
    pub(crate) logs: LogSlot,
}

impl Instrument for StreamEntry {
    const MACRO: &'static str = "stream!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &REGISTRY
    }
}

/// Lifecycle counts of an entry at one instant.
pub(crate) struct Lifecycle {
    pub(crate) instances: u64,
    pub(crate) active: u64,
    pub(crate) completed: u64,
    pub(crate) cancelled: u64,
    pub(crate) lifetime_ticks: u64,
}

impl StreamEntry {
    pub(crate) fn new() -> Self {
        Self {
            items: Metric::new(),
            instances: AtomicU64::new(0),
            started: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
            ended_ticks: AtomicU64::new(0),
            active_starts: AtomicU64::new(0),
            logs: LogSlot::new(),
        }
    }

    /// An instance's first poll at `tick`.
    pub(crate) fn on_start(&self, tick: u64) {
        self.active_starts.fetch_add(tick, Relaxed);
        self.started.fetch_add(1, Relaxed);
    }

    /// An instance that started at `start` ended at `end`: finished, or dropped early.
    pub(crate) fn on_end(&self, start: u64, end: u64, finished: bool) {
        self.ended_ticks.fetch_add(end.saturating_sub(start), Relaxed);
        self.active_starts.fetch_sub(start, Relaxed);
        let counter = if finished { &self.completed } else { &self.cancelled };
        counter.fetch_add(1, Relaxed);
    }

    pub(crate) fn lifecycle(&self, now: u64) -> Lifecycle {
        let (completed, cancelled) = (self.completed.load(Relaxed), self.cancelled.load(Relaxed));
        let active = self.started.load(Relaxed).saturating_sub(completed + cancelled);
        let active_ticks = active.wrapping_mul(now).wrapping_sub(self.active_starts.load(Relaxed));
        // A racing start or end can leave the pair momentarily inconsistent; such a
        // reading would be huge, so it counts as no active time.
        let active_ticks = if active_ticks > active.saturating_mul(now) { 0 } else { active_ticks };
        Lifecycle {
            instances: self.instances.load(Relaxed),
            active,
            completed,
            cancelled,
            lifetime_ticks: self.ended_ticks.load(Relaxed) + active_ticks,
        }
    }
}
