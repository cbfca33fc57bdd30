//! Durations of other instruments (channel latency, lock wait and hold, stream item
//! intervals) recorded into the calling thread's cell of a metric [`FnSite`], so they get
//! the same plain-store recording, histograms, merge and thread-exit folding as
//! functions, with no machinery of their own.
//!
//! A metric cell holds durations (`calls`, `sum`, `min`, `max`, histogram: see
//! [`record_metric`]) and, separately, a count of events that carry no duration
//! (`polls`: see [`count_metric`]), such as lock acquisitions of which only a sample is
//! timed.

use crate::functions::FnSite;
use crate::{switch, thread};

/// Records `ticks` for `site` on this thread. One relaxed load when profiling is off.
#[inline(always)]
pub(crate) fn record_metric(site: &'static FnSite, ticks: u64) {
    if !switch::enabled() {
        return;
    }
    // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
    match unsafe { thread::current().as_ref() }.and_then(|r| r.cell(site.id())) {
        Some(cell) => cell.record(ticks),
        None => switch::count_dropped(),
    }
}

/// Counts `n` events for `site` on this thread; returns the thread's new count for the
/// site (0 when nothing was recorded), which callers use to pick samples.
#[inline(always)]
pub(crate) fn count_metric(site: &'static FnSite, n: u64) -> u64 {
    if !switch::enabled() {
        return 0;
    }
    // SAFETY: as in `record_metric`.
    match unsafe { thread::current().as_ref() }.and_then(|r| r.cell(site.id())) {
        Some(cell) => cell.count_events(n),
        None => {
            switch::count_dropped();
            0
        }
    }
}
