//! The sync frame under an overhead budget (`switch::BUDGET`): each site's calls are
//! timed at the site's own rate `2^-shift`, which the budget's collector sets. A timed
//! call is weighted by `2^shift`; an untimed one is counted, kept on the frame stack
//! (so its descendants' times are dropped rather than charged to its parent, and
//! recursion still knows its outermost call) and reads no clock. See
//! `record/weighted.rs` for why the estimates are unbiased.

use super::guard::{FnGuard, Mode};
use crate::record::{self as recorder, hooks, FnSite, SiteCell, Usage};
use crate::{sampling, switch};

impl FnGuard {
    /// Starts a call of `site` under the budget (`state` is `BUDGET` or `SHADOW`).
    /// Out of line, as [`finish_budgeted`](Self::finish_budgeted): exact mode's guard
    /// keeps the layout and registers it had without a budget.
    #[inline(never)]
    pub(super) fn budgeted(site: &'static FnSite, state: u8) -> Self {
        let recorder = recorder::current();
        let id = site.id();
        // SAFETY: a non-null recorder is valid on this thread until its exit hook runs,
        // which cannot happen while this frame is on the stack.
        let Some(r) = (unsafe { recorder.as_ref() }) else {
            switch::count_dropped();
            return Self::inactive();
        };
        let Some(cell) = r.cell(id) else {
            switch::count_dropped();
            return Self::inactive();
        };
        hooks::enter(id);
        let saved = r.push_budget_frame();
        let shift = site.shift();
        // The top `shift` bits of a uniform draw are all zero with probability 2^-shift.
        if shift != 0 && sampling::draw() >> (64 - shift) != 0 {
            cell.enter_untimed();
            let start = if state == switch::SHADOW { Usage::now() } else { Usage::default() };
            return Self::with(recorder, cell, saved, start, Mode::Skipped);
        }
        let start = Usage::now();
        cell.enter(start.ticks);
        Self::with(recorder, cell, saved, start, Mode::Weighted(shift))
    }

    /// Ends a call begun by [`budgeted`](Self::budgeted).
    #[inline(never)]
    pub(super) fn finish_budgeted(&self, cell: &SiteCell, mode: Mode) {
        // SAFETY: set together with the cell from this thread's live recorder.
        let recorder = unsafe { &*self.recorder };
        let Mode::Weighted(shift) = mode else {
            if self.start.ticks != 0 {
                cell.shadow(Usage::now().elapsed_since(self.start).ticks);
            }
            hooks::exit();
            recorder.pop_untimed(self.saved_budget());
            cell.exit_untimed();
            return;
        };
        let inclusive = Usage::now().elapsed_since(self.start);
        hooks::exit();
        let (excl, ticks, child_var) = recorder.pop_weighted(self.saved_budget(), inclusive, shift);
        if switch::state() == switch::SHADOW {
            cell.shadow(inclusive.ticks);
        }
        cell.exit_weighted(inclusive, (excl, ticks), shift, child_var);
        recorder.trace_call(cell, self.start.ticks, inclusive.ticks);
    }
}
