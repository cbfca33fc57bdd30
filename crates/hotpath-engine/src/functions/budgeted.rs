//! The sync frame under an overhead budget (`switch::BUDGET`): each site's calls are
//! timed at the site's own rate `2^-k`, which the budget's collector sets.
//!
//! Each call decides for itself, independently of every other (a per-thread, per-site
//! countdown drawn from the geometric distribution, `record/countdown.rs`, which is the
//! same as an independent coin of probability `2^-k` per call), except that the calls
//! nested directly in one timed by its own countdown at a rate below 1 are all timed,
//! at weight 1 (the thread's mode [`FORCE`]): that call's self time is then exact, where
//! subtracting its children's estimates left it the difference of two (measured: off
//! by 10-30% in one run of the truth test). A timed call is weighted by `2^k`
//! (Horvitz–Thompson), a forced one by 1: given the coins of its parent, its inclusion
//! probability is 1, so every figure stays unbiased and the per-call variance terms
//! stay valid (a forced call adds none). An untimed call reads no clock and opens no
//! frame: it counts itself, and if the call enclosing it was timed (or there is none)
//! it marks the thread [`UNTIMED`] for its duration, so that a timed call nested in it
//! hands nothing to the timed ancestor's children (the untimed call stands for nothing
//! there; its own estimate comes from its own timed calls). Calls nested directly in
//! an untimed call find the mark already set and leave nothing to undo: their guard is
//! inactive. A forced call's own children decide for themselves again ([`NORMAL`]), so
//! a forced subtree is one level deep and the collector can pay for it (`budget/`).
//!
//! A site's total counts its outermost calls only, so a timed call must know whether
//! a call of its site, timed or not, is below it on the stack. The untimed path keeps
//! no depth; a site seen recursing (a timed call finding its site's depth above 0,
//! which before the session's first decision a site's first calls on a thread show at
//! once: all timed up to the provisional threshold, `budget/provisional.rs`) is marked
//! recursive and its calls all come here from then on (its countdown
//! slot is diverted, `record/countdown.rs`), where an untimed call enters the site's
//! depth and leaves it at its end ([`DEPTH`]). The untimed path of every other site
//! is unchanged.
//!
//! The guard says how a call ends by tagging its recorder pointer (cell null):
//! untagged, an untimed call that set the mark; [`TIMED`], a weighted call; [`DEPTH`],
//! an untimed call of a recursive site; [`SHADOW`] (tests only), an untimed call that
//! reads the clock anyway (and keeps the depth, for the shadow's outermost totals).

use std::mem::MaybeUninit;

use super::guard::{BudgetFrame, FnGuard};
use crate::record::{self as recorder, hooks, FnSite, SiteCell, ThreadRecorder, Usage, FORCE, NORMAL, UNTIMED};
use crate::switch;

/// A timed call under the budget.
const TIMED: usize = 1;
/// Tests only (`switch::SHADOW`): an untimed call timed into the shadow total.
const SHADOW: usize = 2;
/// An untimed call of a recursive site, on the site's depth until it ends.
const DEPTH: usize = 4;
const TAGS: usize = TIMED | SHADOW | DEPTH;
const _: () = assert!(std::mem::align_of::<ThreadRecorder>() > TAGS);

impl FnGuard {
    /// An untimed call under `BUDGET`, ended here and inline: the thread's recorder
    /// (one thread-local load), the site's countdown by index, the count and the
    /// mark. `None` (the call is timed, or its site, recorder or countdown is not
    /// made yet) takes [`budgeted`](Self::budgeted).
    #[inline(always)]
    pub(super) fn skipped(site: &'static FnSite) -> Option<Self> {
        let recorder = recorder::attached();
        // SAFETY: a non-null recorder is valid on this thread until its exit hook
        // runs, which cannot happen while this frame is on the stack.
        let r = unsafe { recorder.as_ref() }?;
        // Never true while the thread's calls are forced (the table reads as empty).
        if !r.countdowns().skip(site.registered_id()) {
            return None;
        }
        if r.mode() != NORMAL {
            return Some(Self::inactive());
        }
        r.mark_untimed();
        Some(Self::tagged(recorder))
    }

    /// A call the untimed path did not end: an untimed call of a recursive site, taken
    /// here with a short frame of registers, or any other ([`decided`](Self::decided)).
    /// Out of line and cold: exact mode (the default) keeps its code and registers
    /// (docs/PERFORMANCE.md).
    #[cold]
    #[inline(never)]
    pub(super) fn budgeted(site: &'static FnSite) -> Self {
        if site.is_recursive() && switch::state() == switch::BUDGET {
            if let Some(guard) = Self::depth_only(site) {
                return guard;
            }
        }
        Self::decided(site)
    }

    /// An untimed call of a recursive site under `BUDGET`: counted, on its site's depth
    /// until it ends ([`DEPTH`]). `None` if the call is timed or forced, or the thread's
    /// recorder, cell or slot is not made yet: [`decided`](Self::decided) then asks the
    /// same countdown again, which at its end says "timed" again without changing.
    #[inline(always)]
    fn depth_only(site: &'static FnSite) -> Option<Self> {
        let recorder = recorder::attached();
        // SAFETY: as in `skipped`.
        let r = unsafe { recorder.as_ref() }?;
        let id = site.registered_id();
        let cell = r.cell(id)?;
        let mode = r.mode();
        if mode == FORCE || !r.countdowns().slot(id, cell).countdown(cell, true).skip() {
            return None;
        }
        cell.count_untimed();
        if mode == NORMAL {
            r.mark_untimed();
        }
        Some(Self::on_depth(recorder, cell, mode, DEPTH))
    }

    /// The guard of a counted untimed call that keeps its site's depth until it ends
    /// (`tag` [`DEPTH`] or [`SHADOW`]), so that a timed call inside it is not outermost.
    #[inline(always)]
    fn on_depth(recorder: *const ThreadRecorder, cell: &SiteCell, saved_mode: u8, tag: usize) -> Self {
        cell.enter(u64::MAX);
        let mut guard = Self::tagged(recorder.wrapping_byte_add(tag));
        guard.budget = MaybeUninit::new(BudgetFrame { cell, saved_var: 0.0, shift: 0, saved_mode });
        guard
    }

    /// A timed call under the budget, any call under `SHADOW`, or one whose site,
    /// recorder or countdown is new.
    #[inline(never)]
    fn decided(site: &'static FnSite) -> Self {
        // Read again rather than passed: nothing is kept live across the call.
        let state = switch::state();
        let recorder = recorder::current();
        let id = site.id();
        // SAFETY: as in `skipped`.
        let Some((r, cell)) = (unsafe { recorder.as_ref() }).and_then(|r| Some((r, r.cell(id)?))) else {
            switch::count_dropped();
            return Self::inactive();
        };
        let recursive = site.is_recursive();
        let w = r.countdowns().slot(id, cell).countdown(cell, recursive);
        let mode = r.mode();
        // Under `BUDGET` the countdown said "timed" in `skipped` (asking again changes
        // nothing then), or the slot is new or diverted (a recursive site's), or the
        // call is forced; a forced call leaves its countdown alone.
        if mode != FORCE && w.skip() {
            cell.count_untimed();
            if mode == NORMAL {
                r.mark_untimed();
            }
            if !recursive && state != switch::SHADOW {
                return if mode == NORMAL { Self::tagged(recorder) } else { Self::inactive() };
            }
            if state != switch::SHADOW {
                return Self::on_depth(recorder, cell, mode, DEPTH);
            }
            let mut guard = Self::on_depth(recorder, cell, mode, SHADOW);
            guard.start = MaybeUninit::new(Usage::now());
            return guard;
        }
        let shift = if mode == FORCE {
            0
        } else {
            w.redraw(crate::budget::provisional_shift(site.shift(), || cell.counted().0))
        };
        hooks::enter(id);
        let saved_mode = r.set_mode(if shift > 0 { FORCE } else { NORMAL });
        let (saved, saved_var) = r.push_budget_frame();
        let start = Usage::now();
        if cell.enter(start.ticks) > 0 && !recursive {
            site.mark_recursive();
        }
        let mut guard = Self::tagged(recorder.wrapping_byte_add(TIMED));
        guard.saved = MaybeUninit::new(saved);
        guard.start = MaybeUninit::new(start);
        guard.budget = MaybeUninit::new(BudgetFrame { cell, saved_var, shift, saved_mode });
        guard
    }

    /// Ends a call whose guard has no exact cell and a recorder: the untimed call's
    /// mark is cleared inline; the tagged ones end out of line.
    #[inline(always)]
    pub(super) fn end_budgeted(&self) {
        if self.recorder.addr() & TAGS == 0 {
            // SAFETY: an untagged non-null recorder in a guard with no cell is this
            // thread's live recorder, set by `skipped` or `budgeted`.
            unsafe { &*self.recorder }.clear_untimed();
            return;
        }
        self.end_tagged();
    }

    /// An untimed call of a recursive site leaves its depth here; the others end in
    /// [`end_timed`](Self::end_timed), whose frame of registers it does not pay.
    #[inline(never)]
    fn end_tagged(&self) {
        let tag = self.recorder.addr() & TAGS;
        if tag != DEPTH {
            return self.end_timed(tag);
        }
        // SAFETY: as in `end_timed`.
        let (f, r) = unsafe { (self.budget.assume_init(), &*self.recorder.wrapping_byte_sub(tag)) };
        // SAFETY: as in `end_timed`.
        unsafe { &*f.cell }.exit_untimed();
        r.set_mode(f.saved_mode);
    }

    #[inline(never)]
    fn end_timed(&self, tag: usize) {
        // SAFETY: `budget` is written with every tagged recorder (in `budgeted`), and
        // the untagged pointer is this thread's live recorder.
        let (f, r) = unsafe { (self.budget.assume_init(), &*self.recorder.wrapping_byte_sub(tag)) };
        // SAFETY: the cell of that recorder, which outlives the frame.
        let cell = unsafe { &*f.cell };
        // SAFETY: `start` is written with the `SHADOW` and `TIMED` tags.
        let start = unsafe { self.start.assume_init() };
        if tag == SHADOW {
            let elapsed = Usage::now().elapsed_since(start).ticks;
            if cell.exit_untimed() {
                cell.weighted().shadow(elapsed);
            }
            r.set_mode(f.saved_mode);
            return;
        }
        let inclusive = Usage::now().elapsed_since(start);
        hooks::exit();
        let under_untimed = f.saved_mode == UNTIMED;
        // SAFETY: a `TIMED` guard's `saved` is written with its tag.
        let saved = unsafe { self.saved.assume_init() };
        let (excl, ticks, child_var) = r.pop_weighted((saved, f.saved_var), inclusive, f.shift, under_untimed);
        r.set_mode(f.saved_mode);
        let outermost = cell.exit_weighted(inclusive, (excl, ticks), f.shift, child_var);
        if outermost && switch::state() == switch::SHADOW {
            cell.weighted().shadow(inclusive.ticks);
        }
        r.trace_call(cell, start.ticks, inclusive.ticks);
    }
}
