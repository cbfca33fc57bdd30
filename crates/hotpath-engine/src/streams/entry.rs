//! A stream entry: one `stream!` site and item type (or one instance with `iter = true`).
//!
//! Instance starts and ends are rare events and update shared atomics; items go to
//! per-thread cells of the entry's metric site `items` (event count = items, durations =
//! mean time per item of each window, see `stream.rs`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::entries::{Entry, EntryHeader, Instrument};
use crate::functions::FnSite;

static ENTRIES: Mutex<Vec<&'static StreamEntry>> = Mutex::new(Vec::new());

#[repr(C)]
pub(crate) struct StreamEntry {
    header: EntryHeader,
    pub(crate) items: &'static FnSite,
    pub(crate) instances: AtomicU64,
    started: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
    /// Summed lifetimes of ended instances, ticks.
    ended_ticks: AtomicU64,
    /// Summed first-poll ticks of active instances (wrapping): with their count it gives
    /// their summed lifetimes at any instant without visiting them.
    active_starts: AtomicU64,
}

// SAFETY: repr(C) with the header first; the only entry type using Instrument::Stream.
unsafe impl Entry for StreamEntry {
    const INSTRUMENT: Instrument = Instrument::Stream;
    fn registry() -> &'static Mutex<Vec<&'static Self>> {
        &ENTRIES
    }
    fn header(&self) -> &EntryHeader {
        &self.header
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
    pub(crate) fn new(header: EntryHeader) -> Self {
        Self {
            header,
            items: FnSite::metric(),
            instances: AtomicU64::new(0),
            started: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
            ended_ticks: AtomicU64::new(0),
            active_starts: AtomicU64::new(0),
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
