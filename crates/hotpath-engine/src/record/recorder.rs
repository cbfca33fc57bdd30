//! A thread's function-recording state (its site cells and the frame stack's children
//! accumulator), and the registry of every thread's.
//!
//! Each thread that makes a measured call gets a [`ThreadRecorder`] on first use;
//! recording writes only that recorder, and when the thread exits its numbers fold into
//! the registry's retired totals (`record::Registry`).

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use super::cell::{SiteCell, SiteTotals};
use super::countdown::Countdowns;
use super::usage::Usage;
use crate::memory;
use crate::record::{Cells, Current, ExitHook, Recorder, Registry};
use crate::timeline::{Ring, Writer};

/// 256 chunks of 64: sites past 16,384 are not recorded (and are counted as dropped).
const CHUNKS: usize = 256;

/// Recording state of one thread. Written only by that thread.
pub(crate) struct ThreadRecorder {
    cells: Cells<SiteCell, CHUNKS>,
    /// Under the overhead budget: each site's timing countdown on this thread.
    countdowns: Countdowns,
    /// Inclusive usage of the finished measured calls nested in the current frame.
    /// Each frame saves it on entry and restores it (plus its own usage) on exit, so
    /// the frames form a stack through the guards on the native stack, without a
    /// depth limit. Owner-only.
    children: Children,
    /// Under the overhead budget, `f64` bits: the variance that sampled children's
    /// estimates put into the current frame's self time (`weighted.rs`). Owner-only.
    child_var: AtomicU64,
    /// Under the overhead budget: what the innermost measured call on this thread
    /// asks of the calls nested in it: [`NORMAL`], [`UNTIMED`] or [`FORCE`]
    /// (`functions/budgeted.rs`). Owner-only.
    mode: AtomicU8,
    /// Where the end of a timed call writes it to the timeline: null while the
    /// timeline does not record, else the header of the thread's ring. The switch
    /// tells every recorder when that changes; the ring is found then (or when the
    /// recorder is made), never on the call's path.
    ring: AtomicPtr<()>,
    /// The counted reference that keeps the ring this thread's while the recorder lives.
    ring_held: OnceLock<Arc<Ring>>,
    /// The thread's id, as the timeline's rings know it.
    tid: u64,
}

/// The `children` accumulator: one owner-only atomic per [`Usage`] component.
#[derive(Default)]
struct Children {
    ticks: AtomicU64,
    #[cfg(feature = "alloc")]
    bytes: AtomicU64,
    #[cfg(feature = "alloc")]
    allocs: AtomicU64,
}

impl Children {
    #[inline(always)]
    fn replace(&self, value: Usage) -> Usage {
        let r = Ordering::Relaxed;
        let old = Usage {
            ticks: self.ticks.load(r),
            #[cfg(feature = "alloc")]
            bytes: self.bytes.load(r),
            #[cfg(feature = "alloc")]
            allocs: self.allocs.load(r),
        };
        self.ticks.store(value.ticks, r);
        #[cfg(feature = "alloc")]
        {
            self.bytes.store(value.bytes, r);
            self.allocs.store(value.allocs, r);
        }
        old
    }
}

impl ThreadRecorder {
    fn new() -> Self {
        crate::switch::on_traced_change(traced_changed);
        memory::allocated(std::mem::size_of::<Self>());
        Self {
            cells: Cells::with_init(SiteCell::for_site),
            countdowns: Countdowns::new(),
            children: Children::default(),
            child_var: AtomicU64::new(0),
            mode: AtomicU8::new(NORMAL),
            ring: AtomicPtr::new(ptr::null_mut()),
            ring_held: OnceLock::new(),
            tid: crate::timeline::thread_id(),
        }
    }

    /// What `ring` holds while the timeline records (`on`) or not; finds the thread's
    /// ring the first time it is needed (`owner`: on the recorder's own thread, which
    /// names its ring itself). Under the registry's lock.
    fn ring_target(&self, on: bool, owner: bool) -> *mut () {
        if !on {
            return ptr::null_mut();
        }
        let ring = self.ring_held.get_or_init(|| {
            let own = if owner { crate::timeline::this_thread() } else { None };
            own.unwrap_or_else(|| crate::timeline::ring_of_thread(self.tid))
        });
        ring.writer().as_ptr().cast_mut()
    }

    /// The cell of site `id`, created on first use; `None` past 16,384 sites.
    #[inline(always)]
    pub(crate) fn cell(&self, id: u32) -> Option<&SiteCell> {
        self.cells.get(id)
    }

    /// The overhead budget's countdowns of this thread (`countdown.rs`).
    #[inline(always)]
    pub(crate) fn countdowns(&self) -> &Countdowns {
        &self.countdowns
    }

    /// At the end of a timed call of `cell`'s site that lasted `len` ticks from
    /// `start`: writes it to the timeline if that records, and checks the site's
    /// trigger. One load and one test when the timeline is off.
    #[inline(always)]
    pub(crate) fn trace_call(&self, cell: &SiteCell, start: u64, len: u64) {
        let ring = self.ring.load(Ordering::Relaxed);
        if ring.is_null() {
            return;
        }
        // SAFETY: a header of `ring_held`'s ring, alive as long as this recorder; this
        // thread is its only writer (the `Arc` held keeps it from being given away).
        unsafe { Writer::from_ptr(ring).push3(cell.what(), start, len) };
        cell.site().check_threshold(len);
    }

    /// Starts a frame: returns the enclosing frame's children usage and resets it.
    #[inline(always)]
    pub(crate) fn push_frame(&self) -> Usage {
        self.children.replace(Usage::default())
    }

    /// Ends a frame whose inclusive usage was `inclusive`: returns its exclusive usage
    /// and restores the enclosing frame's children usage, now including this frame.
    #[inline(always)]
    pub(crate) fn pop_frame(&self, saved: Usage, inclusive: Usage) -> Usage {
        let nested = self.children.replace(saved.plus(inclusive));
        inclusive.since(nested)
    }

    /// Starts a frame under the overhead budget: the enclosing frame's children usage
    /// and children variance, both reset.
    #[inline(always)]
    pub(crate) fn push_budget_frame(&self) -> (Usage, f64) {
        let var = f64::from_bits(self.child_var.swap_owned(0));
        (self.children.replace(Usage::default()), var)
    }

    /// Ends a frame timed at rate `2^-shift`: hands the enclosing frame this frame's
    /// inclusive usage with its ticks times `2^shift`, and its variance term (nothing
    /// when the enclosing call is untimed: `under_untimed`); returns the exclusive
    /// usage (ticks: inclusive minus the children's estimates, signed) and the
    /// variance the children put into it.
    #[inline]
    pub(crate) fn pop_weighted(
        &self,
        saved: (Usage, f64),
        inclusive: Usage,
        shift: u32,
        under_untimed: bool,
    ) -> (Usage, i64, f64) {
        let (restored, var) = if under_untimed {
            (saved.0, saved.1)
        } else {
            // Only the time is scaled (allocations, with `alloc`, are the timed call's).
            let mut scaled = inclusive;
            scaled.ticks <<= shift;
            (saved.0.plus(scaled), saved.1 + crate::record::weighted::WeightedCell::child_term(shift, inclusive.ticks))
        };
        let nested = self.children.replace(restored);
        let var = f64::from_bits(self.child_var.swap_owned(var.to_bits()));
        (inclusive.since(nested), inclusive.ticks.wrapping_sub(nested.ticks) as i64, var)
    }

    /// What the innermost measured call asks of the calls nested in it.
    #[inline(always)]
    pub(crate) fn mode(&self) -> u8 {
        self.mode.load(Ordering::Relaxed)
    }

    /// Sets the mode for the calls nested in the one beginning; returns the
    /// enclosing one's, which that call restores when it ends.
    #[inline(always)]
    pub(crate) fn set_mode(&self, mode: u8) -> u8 {
        let old = self.mode();
        self.mode.store(mode, Ordering::Relaxed);
        // Forced calls are timed: the countdowns read as empty to the untimed path,
        // which then need not test the mode for FORCE (`Countdowns::force`).
        if (old == FORCE) != (mode == FORCE) {
            self.countdowns.force(mode == FORCE);
        }
        old
    }

    /// An untimed call marks the thread (the enclosing call was timed): one store.
    #[inline(always)]
    pub(crate) fn mark_untimed(&self) {
        self.mode.store(UNTIMED, Ordering::Relaxed);
    }

    /// The untimed call that set the mark ends: one store.
    #[inline(always)]
    pub(crate) fn clear_untimed(&self) {
        self.mode.store(NORMAL, Ordering::Relaxed);
    }
}

/// Under the budget, nested calls decide for themselves (their countdowns).
pub(crate) const NORMAL: u8 = 0;
/// The innermost measured call is untimed: a timed call in it hands its time to no one.
pub(crate) const UNTIMED: u8 = 1;
/// The innermost measured call was timed by its own countdown at a rate below 1: the
/// calls nested directly in it are all timed, at weight 1, so its self time is exact.
pub(crate) const FORCE: u8 = 2;

/// A load and a store on an owner-only atomic.
trait SwapOwned {
    fn swap_owned(&self, value: u64) -> u64;
}

impl SwapOwned for AtomicU64 {
    #[inline(always)]
    fn swap_owned(&self, value: u64) -> u64 {
        let old = self.load(Ordering::Relaxed);
        self.store(value, Ordering::Relaxed);
        old
    }
}

impl Recorder for ThreadRecorder {
    type Cell = SiteCell;
    fn for_each_cell(&self, f: impl FnMut(usize, &SiteCell)) {
        self.cells.for_each(f);
    }

    fn holds(&self) -> bool {
        let mut held = false;
        self.cells.for_each(|_, cell| held |= cell.holds_start());
        held
    }

    fn attached(&self) {
        self.ring.store(self.ring_target(crate::timeline::on(), true), Ordering::Relaxed);
    }
}

/// Tells every live recorder whether the timeline records (the switch calls this
/// after each change). The setting is read under the registry's lock, not taken from
/// the caller: of two changes racing, the one that takes the lock last stores what the
/// switch holds last.
fn traced_changed() {
    REGISTRY.for_each_live(|r| r.ring.store(r.ring_target(crate::timeline::on(), false), Ordering::Relaxed));
}

impl Drop for ThreadRecorder {
    fn drop(&mut self) {
        // The thread has exited: its ring is kept for the next dump, then reused.
        if let Some(ring) = self.ring_held.get() {
            ring.alive.store(false, Ordering::Relaxed);
        }
        memory::freed(std::mem::size_of::<Self>());
    }
}

static REGISTRY: Registry<ThreadRecorder, SiteTotals> = Registry::new();

thread_local! {
    // Const-initialized and without a destructor: reading it is one TLS load.
    static CURRENT: Current<ThreadRecorder> = const { Cell::new(ptr::null()) };
    // Its destructor retires the recorder when the thread exits.
    static EXIT: ExitHook<ThreadRecorder, SiteTotals> = const { ExitHook::new(&CURRENT, &REGISTRY) };
}

/// This thread's recorder, attached on first use; null while the thread is exiting.
///
/// The pointer stays valid on this thread until its thread-local destructors run.
#[inline(always)]
pub(crate) fn current() -> *const ThreadRecorder {
    REGISTRY.current(&CURRENT, &EXIT, ThreadRecorder::new)
}

/// This thread's recorder if it is attached (null otherwise): one TLS load, no call.
#[inline(always)]
pub(crate) fn attached() -> *const ThreadRecorder {
    REGISTRY.attached(&CURRENT)
}

/// Zeroes every thread's numbers and forgets exited threads' (a new session).
pub(crate) fn reset() {
    REGISTRY.reset();
}

/// Opens a window over the measured calls this thread finishes until [`close_window`],
/// without being a frame itself (route scopes, around each poll of a request): returns
/// the enclosing frame's children usage, to pass to `close_window`.
#[cfg(feature = "axum")]
#[inline]
pub(crate) fn open_window() -> Usage {
    // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
    unsafe { current().as_ref() }.map_or_else(Usage::default, ThreadRecorder::push_frame)
}

/// Closes a window: returns the inclusive usage of the measured calls that finished in
/// it, and hands them on to the enclosing frame as its children, as if there had been
/// no window.
#[cfg(feature = "axum")]
#[inline]
pub(crate) fn close_window(saved: Usage) -> Usage {
    // SAFETY: as in `open_window`.
    let Some(recorder) = (unsafe { current().as_ref() }) else { return Usage::default() };
    let inside = recorder.children.replace(Usage::default());
    recorder.children.replace(saved.plus(inside));
    inside
}

/// One thread's time in its outermost measured calls (nested ones are inside them),
/// counted from when the mark was made: the session subtracts it from the wall time
/// for its main row's self time, so that other threads' work is not subtracted too.
/// Readable from any thread; it keeps the thread's recorder alive.
pub struct ThreadMark {
    recorder: Option<Arc<ThreadRecorder>>,
    start: u64,
}

impl ThreadMark {
    /// Marks the calling thread.
    pub fn here() -> Self {
        let p = current();
        if p.is_null() {
            return Self { recorder: None, start: 0 };
        }
        // SAFETY: a non-null pointer from `current` comes from `Arc::into_raw` in the
        // registry, and this thread's thread-local holds that reference until the thread
        // retires it, which cannot happen during this call; the extra strong count taken
        // first is the one `from_raw` hands to the new `Arc`.
        let recorder = unsafe {
            Arc::increment_strong_count(p);
            Arc::from_raw(p)
        };
        // Outside any frame, `children` sums the thread's finished outermost calls.
        let start = recorder.children.ticks.load(Ordering::Relaxed);
        Self { recorder: Some(recorder), start }
    }

    /// Nanoseconds the thread spent in outermost measured calls that finished since the
    /// mark (a call still running is not counted). Time-sampled calls that were not
    /// timed are not counted either.
    pub fn covered_ns(&self) -> u64 {
        let Some(recorder) = &self.recorder else { return 0 };
        let ticks = recorder.children.ticks.load(Ordering::Relaxed).saturating_sub(self.start);
        crate::clock::to_ns(ticks, crate::clock::ns_per_tick())
    }
}

impl std::fmt::Debug for ThreadMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadMark").field("covered_ns", &self.covered_ns()).finish()
    }
}

/// Every site's totals over live and exited threads, indexed by site id.
pub(crate) fn collect() -> Vec<SiteTotals> {
    REGISTRY.collect()
}

/// Every site's calls so far on live threads (timed or not) and timed calls, indexed
/// by site id: the overhead budget's cheap reading, no histogram merged.
pub(crate) fn call_counts() -> Vec<(u64, u64)> {
    REGISTRY.live_counts(SiteCell::counted)
}

/// Restarts the timing countdowns of the sites in `raised` (id, new shift) on every
/// live thread, each from the next of `bits` (the overhead budget raised their rates).
pub(crate) fn restart_countdowns(raised: &[(usize, u32)], bits: &mut dyn FnMut() -> u64) {
    REGISTRY.for_each_live(|r| raised.iter().for_each(|&(id, shift)| r.countdowns.restart(id, shift, bits())));
}

/// Threads with a live recorder.
pub(crate) fn live_threads() -> usize {
    REGISTRY.live_threads()
}
