//! One function's numbers on one thread, and their merge over threads.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release};

pub(crate) use super::site_totals::SiteTotals;
use super::starts::{StartSlot, Starts};
use super::weighted::WeightedCell;
use super::{FnSite, Usage};
use crate::histogram::LocalHistogram;
use crate::record::Totals;
use crate::sync::bump;

/// Per-thread record of one site. Written only by its thread; read by the collector.
pub(crate) struct SiteCell {
    calls: AtomicU64,
    /// Calls not timed under time sampling: counted, never measured.
    untimed: AtomicU64,
    /// Sum of per-call inclusive durations (the numerator of Avg).
    sum: AtomicU64,
    /// Inclusive time of outermost calls only (recursion counted once).
    total: AtomicU64,
    /// Exclusive time: inclusive minus nested measured calls, polls only for async.
    self_time: AtomicU64,
    min: AtomicU64,
    max: AtomicU64,
    cancelled: AtomicU64,
    /// Async only: polls, and time spent inside them.
    polls: AtomicU64,
    busy: AtomicU64,
    /// Calls of this site currently on this thread's stack; owner-only.
    depth: AtomicU32,
    /// Start tick of the outermost of those calls (0 when none): the oldest active call.
    active_since: AtomicU64,
    /// Async calls first polled here minus those that ended here (wrapping: a call may
    /// start on one thread and end on another; the sum over threads is exact).
    running: AtomicU64,
    /// Start ticks of running async calls first polled here.
    starts: Starts,
    histogram: LocalHistogram,
    /// Calls timed under the overhead budget at a rate below 1 (`weighted.rs`).
    weighted: WeightedCell,
    #[cfg(feature = "alloc")]
    alloc: crate::record::AllocCell,
    /// The site (a function cell's, found by id when the cell is made; a placeholder
    /// in other id spaces), and its calls' first timeline word: what the end of a call
    /// needs to write the timeline, beside the numbers it writes anyway.
    site: &'static FnSite,
    what: u64,
}

impl Default for SiteCell {
    fn default() -> Self {
        Self::new()
    }
}

impl SiteCell {
    pub(crate) const fn new() -> Self {
        Self {
            calls: AtomicU64::new(0),
            untimed: AtomicU64::new(0),
            sum: AtomicU64::new(0),
            total: AtomicU64::new(0),
            self_time: AtomicU64::new(0),
            min: AtomicU64::new(u64::MAX),
            max: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
            polls: AtomicU64::new(0),
            busy: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            active_since: AtomicU64::new(0),
            running: AtomicU64::new(0),
            starts: Starts::new(),
            histogram: LocalHistogram::new(),
            weighted: WeightedCell::new(),
            #[cfg(feature = "alloc")]
            alloc: crate::record::AllocCell::new(),
            site: &super::site::UNKNOWN,
            what: 0,
        }
    }

    /// The cell of function site `id` on a thread.
    pub(crate) fn for_site(id: usize) -> Self {
        let site = super::site::by_id(id);
        Self { site, what: crate::timeline::Event::what(crate::timeline::Kind::Call, id as u32), ..Self::new() }
    }

    /// The site (see the field).
    #[inline(always)]
    pub(crate) fn site(&self) -> &'static FnSite {
        self.site
    }

    /// The first word of this site's calls in the timeline.
    #[inline(always)]
    pub(crate) fn what(&self) -> u64 {
        self.what
    }

    /// Marks a sync call as started at `tick`; recursion depth decides what counts as
    /// outermost, whose start is the age of the oldest active call. The start is stored
    /// before the depth is published (release), and read only while the depth is above
    /// zero, so an ended call's start never needs clearing. `| 1` keeps it non-zero
    /// (zero means no call) at the cost of one tick.
    /// Returns how many calls of the site were on the stack before this one. An
    /// untimed call under the budget (`functions/budgeted.rs`) enters at `u64::MAX`:
    /// on the stack, its start unknown.
    #[inline(always)]
    pub(crate) fn enter(&self, tick: u64) -> u32 {
        let depth = self.depth.load(Relaxed);
        if depth == 0 {
            self.active_since.store(tick | 1, Relaxed);
        }
        self.depth.store(depth + 1, Release);
        depth
    }

    /// An untimed call (entered at `u64::MAX`) ends: whether it was the outermost of
    /// its site on the stack.
    pub(crate) fn exit_untimed(&self) -> bool {
        let depth = self.depth.load(Relaxed) - 1;
        self.depth.store(depth, Relaxed);
        depth == 0
    }

    /// An async call's first poll (on this thread) at `tick`: counted as running, its
    /// start kept in a slot if one is free (the call releases it when it ends).
    #[inline(always)]
    pub(crate) fn start_running(&self, tick: u64) -> Option<StartSlot> {
        self.running.store(self.running.load(Relaxed).wrapping_add(1), Relaxed);
        self.starts.claim(tick)
    }

    /// Whether a running async call holds a start slot here.
    pub(crate) fn holds_start(&self) -> bool {
        self.starts.held()
    }

    /// An async call that ended (ready or dropped) on this thread.
    #[inline(always)]
    pub(crate) fn stop_running(&self) {
        self.running.store(self.running.load(Relaxed).wrapping_sub(1), Relaxed);
    }

    /// Ends a sync call begun with [`enter`](Self::enter); `then` runs before the
    /// histogram's update (whose rare out-of-line path is then the last thing that can
    /// call out, so `then` needs nothing kept across it).
    #[inline(always)]
    pub(crate) fn exit(&self, inclusive: Usage, exclusive: Usage, then: impl FnOnce()) {
        let depth = self.depth.load(Relaxed) - 1;
        self.depth.store(depth, Relaxed);
        let outermost = depth == 0;
        if outermost {
            bump(&self.total, inclusive.ticks);
        }
        bump(&self.self_time, exclusive.ticks);
        self.count(inclusive.ticks);
        then();
        self.histogram.record(inclusive.ticks);
        #[cfg(feature = "alloc")]
        self.alloc.record(inclusive, exclusive, outermost);
    }

    /// Ends a call timed by the budget at rate `2^-shift`: sums and histogram weighted
    /// by `2^shift` (`weighted.rs`); allocations unscaled, as under time sampling.
    /// Returns whether it was the outermost call of the site on the stack.
    #[inline]
    pub(crate) fn exit_weighted(&self, inclusive: Usage, own: (Usage, i64), shift: u32, child_var: f64) -> bool {
        let exclusive = own.1;
        let depth = self.depth.load(Relaxed) - 1;
        self.depth.store(depth, Relaxed);
        let d = inclusive.ticks;
        #[cfg(feature = "alloc")]
        self.alloc.record(inclusive, own.0, depth == 0);
        bump(&self.total, if depth == 0 { d << shift } else { 0 });
        bump(&self.self_time, (exclusive as u64) << shift);
        // The sum grows by `d << shift` in all.
        self.count(d);
        bump(&self.sum, (d << shift) - d);
        self.weighted.record(shift, d, exclusive, child_var, depth == 0);
        self.histogram.record_n(d, 1 << shift);
        depth == 0
    }

    /// The budget's countdown, weighted sums and shadow total.
    #[inline(always)]
    pub(crate) fn weighted(&self) -> &WeightedCell {
        &self.weighted
    }

    /// Calls counted here, timed or not, and the timed ones (the overhead budget's
    /// reading).
    pub(crate) fn counted(&self) -> (u64, u64) {
        let timed = self.calls.load(Relaxed);
        (timed + self.untimed.load(Relaxed), timed)
    }

    /// Accounts one poll of an async call timed at rate `2^-shift` (`weighted.rs`):
    /// its duration and exclusive time (signed: children's estimates subtracted).
    #[inline(always)]
    pub(crate) fn add_poll(&self, elapsed: u64, self_time: i64, shift: u32) {
        bump(&self.polls, 1);
        bump(&self.busy, elapsed << shift);
        bump(&self.self_time, (self_time as u64) << shift);
    }

    /// Ends an async call timed at `2^-shift`: `wall` ticks span first poll to ready;
    /// `own` is its polls' self time and the variance their children's sampling put
    /// in it; `inclusive` and `exclusive` sum the allocations of all its polls.
    #[inline(always)]
    pub(crate) fn complete_async(&self, wall: u64, shift: u32, own: (i64, f64), inclusive: Usage, exclusive: Usage) {
        bump(&self.total, wall << shift);
        self.complete(wall, shift, own);
        #[cfg(feature = "alloc")]
        self.alloc.record(inclusive, exclusive, true);
        #[cfg(not(feature = "alloc"))]
        let _ = (inclusive, exclusive);
    }

    /// Records one duration of a metric (see `record::metric`) timed at `2^-shift`:
    /// count, sum, min, max and histogram, as for a completed call.
    #[inline(always)]
    pub(crate) fn record(&self, elapsed: u64, shift: u32) {
        self.complete(elapsed, shift, (elapsed as i64, 0.0));
    }

    /// Counts `n` events of a metric site that carry no duration (lock acquisitions,
    /// stream items), kept in the `polls` counter; returns this thread's new count.
    #[inline(always)]
    pub(crate) fn count_events(&self, n: u64) -> u64 {
        let count = self.polls.load(Relaxed) + n;
        self.polls.store(count, Relaxed);
        count
    }

    /// A completed call or duration timed at `2^-shift`: the sum and histogram weighted by
    /// `2^shift`, the variance kept when estimated (`weighted::SHADOW_ONLY`: shadow only).
    #[inline(always)]
    fn complete(&self, elapsed: u64, shift: u32, own: (i64, f64)) {
        if shift == 0 && own.1 == 0.0 {
            self.count(elapsed);
            return self.histogram.record(elapsed);
        } else if self.weighted.shadowed(shift, elapsed) {
            return;
        }
        self.count(elapsed);
        bump(&self.sum, (elapsed << shift) - elapsed);
        self.weighted.record(shift, elapsed, own.0, own.1, true);
        self.histogram.record_n(elapsed, 1 << shift);
    }

    /// A completed call's count, sum and extremes.
    #[inline(always)]
    fn count(&self, elapsed: u64) {
        bump(&self.calls, 1);
        bump(&self.sum, elapsed);
        if elapsed < self.min.load(Relaxed) {
            self.min.store(elapsed, Relaxed);
        }
        if elapsed > self.max.load(Relaxed) {
            self.max.store(elapsed, Relaxed);
        }
    }

    /// An async call dropped before it completed.
    pub(crate) fn cancel(&self) {
        bump(&self.cancelled, 1);
    }

    /// Zeroes the numbers for a new session; the live call depth stays.
    pub(crate) fn reset(&self) {
        for counter in [
            &self.calls,
            &self.untimed,
            &self.sum,
            &self.total,
            &self.self_time,
            &self.cancelled,
            &self.polls,
            &self.busy,
        ] {
            counter.store(0, Relaxed);
        }
        self.min.store(u64::MAX, Relaxed);
        self.max.store(0, Relaxed);
        self.histogram.reset();
        self.weighted.reset();
        #[cfg(feature = "alloc")]
        self.alloc.reset();
    }

    /// A call that time sampling left untimed: counted only.
    #[inline(always)]
    pub(crate) fn count_untimed(&self) {
        bump(&self.untimed, 1);
    }
}

impl crate::record::Reset for SiteCell {
    fn reset(&self) {
        SiteCell::reset(self);
    }
}

impl Totals<SiteCell> for SiteTotals {
    /// Adds one thread's cell.
    fn add_cell(&mut self, cell: &SiteCell) {
        self.calls += cell.calls.load(Relaxed);
        self.untimed += cell.untimed.load(Relaxed);
        // Acquire: a depth above zero comes with the start its `enter` stored.
        let depth = cell.depth.load(Acquire);
        self.active = self.active.wrapping_add(u64::from(depth)).wrapping_add(cell.running.load(Relaxed));
        if depth > 0 {
            self.active_since = self.active_since.min(cell.active_since.load(Relaxed));
        }
        self.sum += cell.sum.load(Relaxed);
        self.total += cell.total.load(Relaxed);
        self.self_time += cell.self_time.load(Relaxed);
        self.min = self.min.min(cell.min.load(Relaxed));
        self.max = self.max.max(cell.max.load(Relaxed));
        self.cancelled += cell.cancelled.load(Relaxed);
        self.polls += cell.polls.load(Relaxed);
        self.busy += cell.busy.load(Relaxed);
        self.histogram.merge_local(&cell.histogram);
        self.weighted.add_cell(&cell.weighted);
        #[cfg(feature = "alloc")]
        self.alloc.add_cell(&cell.alloc);
    }

    /// Running async calls' starts: read from live threads' cells and from exited
    /// threads' whose slots are still held, never kept in the retired totals.
    fn add_held(&mut self, cell: &SiteCell) {
        self.active_since = self.active_since.min(cell.starts.oldest());
    }

    /// Heap bytes held by the merged histograms.
    fn heap_bytes(&self) -> usize {
        #[cfg(feature = "alloc")]
        return self.histogram.heap_bytes() + self.alloc.heap_bytes();
        #[cfg(not(feature = "alloc"))]
        self.histogram.heap_bytes()
    }
}
