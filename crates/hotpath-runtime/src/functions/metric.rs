//! Durations of other instruments (channel latency, lock wait and hold, stream item
//! intervals) recorded into the calling thread's cell of a metric [`FnSite`], so they get
//! the same plain-store recording, histograms, merge and thread-exit folding as
//! functions, with no machinery of their own.

use crate::functions::FnSite;
use crate::{session, thread};

/// Records `ticks` for `site` on this thread. One relaxed load when profiling is off.
#[inline(always)]
pub(crate) fn record_metric(site: &'static FnSite, ticks: u64) {
    if !session::enabled() {
        return;
    }
    // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
    match unsafe { thread::current().as_ref() }.and_then(|r| r.cell(site.id())) {
        Some(cell) => cell.record(ticks),
        None => session::count_dropped(),
    }
}
