//! Durations of other instruments (channel latency, lock wait and hold, stream item
//! intervals) recorded into per-thread [`SiteCell`]s, so they get the same plain-store
//! recording, histograms, merge and thread-exit folding as functions.
//!
//! Metrics have an id space and per-thread recorders of their own, apart from function
//! sites: however many entries the instruments create, a measured function never loses
//! its row to them. An entry takes its metric ids when it is created (a cold path); ids
//! past the cells' capacity have no cells and their values are counted as dropped
//! (entries are capped per instrument well below that, see `entries`).
//!
//! A metric cell holds durations (`calls`, `sum`, `min`, `max`, histogram: see
//! [`record_metric`]) and, separately, a count of events that carry no duration
//! (`polls`: see [`count_metric`]), such as lock acquisitions of which only a sample is
//! timed.

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicU32, AtomicU8, AtomicUsize, Ordering::Relaxed};

use super::cell::{SiteCell, SiteTotals};
use super::weighted::SHADOW_ONLY;
use super::{Cells, Current, ExitHook, Recorder, Registry};
use crate::sampling::{self, Sampled};
use crate::{memory, switch};

/// Cells for metric ids below 32,768. Entries take 1 (stream) to 4 (RwLock) metrics, 9
/// over the four instruments, and each instrument holds at most `MAX_SHARED` +
/// `MAX_INSTANCES` (3,000) entries besides its sites' overflow entries (`entries`).
type MetricCells = Cells<SiteCell, 512>;
/// The ids [`MetricCells`] holds.
const CAPACITY: usize = 32_768;

/// Under the overhead budget, each metric's timing rate `2^-shift`, set by the budget's
/// thread (`budget/`); 0 (every operation timed) without one. 32 KiB of zeroed memory,
/// touched only where ids are used.
static SHIFTS: [AtomicU8; CAPACITY] = [const { AtomicU8::new(0) }; CAPACITY];
/// One past the highest id whose shift was ever set: a session's start resets those
/// only (reading all 32 KiB cost every `#[hotpath::main]`'s start about 130k
/// instructions and 8 page faults).
static SET_BELOW: AtomicUsize = AtomicUsize::new(0);

/// One quantity of one entry: an index into every thread's metric cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Metric(u32);

static NEXT: AtomicU32 = AtomicU32::new(0);

impl Metric {
    /// A new metric; called when an entry is created, never per operation.
    pub(crate) fn new() -> Self {
        Self(NEXT.fetch_add(1, Relaxed))
    }

    /// Its id: what timeline events of its entry carry.
    #[inline(always)]
    pub(crate) fn id(self) -> u32 {
        self.0
    }

    /// Its timing rate under the budget, `2^-shift`.
    #[inline(always)]
    pub(crate) fn shift(self) -> u32 {
        SHIFTS.get(self.0 as usize).map_or(0, |s| u32::from(s.load(Relaxed)))
    }

    /// Its totals in `totals` (from [`collect`]), if it recorded anything.
    pub(crate) fn totals(self, totals: &[SiteTotals]) -> Option<&SiteTotals> {
        totals.get(self.0 as usize)
    }
}

/// One thread's metric cells. Written only by that thread.
struct MetricRecorder {
    cells: MetricCells,
}

impl MetricRecorder {
    fn new() -> Self {
        memory::allocated(std::mem::size_of::<Self>());
        Self { cells: Cells::new() }
    }
}

impl Recorder for MetricRecorder {
    type Cell = SiteCell;
    fn for_each_cell(&self, f: impl FnMut(usize, &SiteCell)) {
        self.cells.for_each(f);
    }
}

impl Drop for MetricRecorder {
    fn drop(&mut self) {
        memory::freed(std::mem::size_of::<Self>());
    }
}

static REGISTRY: Registry<MetricRecorder, SiteTotals> = Registry::new();

thread_local! {
    static CURRENT: Current<MetricRecorder> = const { Cell::new(ptr::null()) };
    static EXIT: ExitHook<MetricRecorder, SiteTotals> = const { ExitHook::new(&CURRENT, &REGISTRY) };
}

/// Runs `f` on this thread's cell of `metric`; `None` when there is none (the thread is
/// exiting, or the id is past [`CAPACITY`]).
#[inline(always)]
fn with_cell<O>(metric: Metric, f: impl FnOnce(&SiteCell) -> O) -> Option<O> {
    super::with_recorder(
        &REGISTRY,
        &CURRENT,
        &EXIT,
        MetricRecorder::new,
        #[inline(always)]
        |r| r.cells.get(metric.0).map(f),
    )
    .flatten()
}

/// Whether this operation of `metric` (an instrument whose static rate is `kind`'s) is
/// timed, and the shift of its weight if so (`sampling::timed_at`). An operation the
/// budget leaves untimed is counted, so that the budget sees the metric's rate.
#[inline(always)]
pub(crate) fn metric_timed(kind: Sampled, metric: Metric) -> Option<u32> {
    let shift = metric.shift();
    let timed = sampling::timed_at(kind, shift);
    if timed.is_none() && shift > 0 {
        return count_untimed(metric);
    }
    timed
}

/// Counts an untimed operation; `None`, or under `SHADOW` [`SHADOW_ONLY`] (tests:
/// the caller times it for the shadow total alone).
#[cold]
#[inline(never)]
fn count_untimed(metric: Metric) -> Option<u32> {
    if switch::enabled() {
        with_cell(metric, |cell| cell.count_untimed());
    }
    (switch::state() == switch::SHADOW).then_some(SHADOW_ONLY)
}

/// Records `ticks` for `metric` on this thread, an operation timed at rate `2^-shift`
/// (weighted by `2^shift`, `weighted.rs`). One relaxed load when profiling is off.
#[inline(always)]
pub(crate) fn record_metric(metric: Metric, ticks: u64, shift: u32) {
    if !switch::enabled() {
        return;
    }
    if with_cell(metric, |cell| cell.record(ticks, shift)).is_none() {
        switch::count_dropped();
    }
}

/// Each metric's operations counted on live threads, timed or not, and the timed ones
/// (the overhead budget's reading), indexed by id.
pub(crate) fn metric_counts() -> Vec<(u64, u64)> {
    REGISTRY.live_counts(SiteCell::counted)
}

/// Sets metric `id`'s timing rate to `2^-shift` (the budget's thread).
pub(crate) fn set_metric_shift(id: usize, shift: u32) {
    if let Some(s) = SHIFTS.get(id) {
        SET_BELOW.fetch_max(id + 1, Relaxed);
        s.store(shift.min(u32::from(u8::MAX)) as u8, Relaxed);
    }
}

/// Every metric timed at rate 1 again (a new session).
pub(crate) fn reset_metric_shifts() {
    let set = &SHIFTS[..SET_BELOW.load(Relaxed).min(CAPACITY)];
    set.iter().filter(|s| s.load(Relaxed) != 0).for_each(|s| s.store(0, Relaxed));
}

/// The current shift of metric `id`.
pub(crate) fn metric_shift(id: usize) -> u32 {
    SHIFTS.get(id).map_or(0, |s| u32::from(s.load(Relaxed)))
}

/// Counts `n` events for `metric` on this thread; returns the thread's new count for the
/// metric (0 when nothing was recorded), which callers use to pick samples.
#[inline(always)]
pub(crate) fn count_metric(metric: Metric, n: u64) -> u64 {
    if !switch::enabled() {
        return 0;
    }
    with_cell(metric, |cell| cell.count_events(n)).unwrap_or_else(|| {
        switch::count_dropped();
        0
    })
}

/// Zeroes every thread's numbers and forgets exited threads' (a new session).
pub(crate) fn reset() {
    REGISTRY.reset();
}

/// Every metric's totals over live and exited threads, indexed by metric id.
pub(crate) fn collect() -> Vec<SiteTotals> {
    REGISTRY.collect()
}
