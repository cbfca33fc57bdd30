//! The sync frame: created as the first statement of a measured function, dropped
//! when it returns, unwinds or breaks out.
//!
//! While the timeline records, the end of a timed call also writes it to the thread's
//! ring (through the recorder, which keeps the ring at hand, and the cell, which knows
//! its site): the start of a call is the same either way, and the end pays one test
//! when the timeline is off.

use std::mem::MaybeUninit;

use crate::record::{self as recorder, hooks, ThreadRecorder};
use crate::record::{FnSite, SiteCell, Usage};
use crate::sampling::{self, Sampled};
use crate::switch;

/// Times one call of a sync function. Not `Send`: it must end on its own thread.
///
/// Under the overhead budget (`budgeted.rs`) the cell is null and the recorder,
/// tagged in its low bits, says how the call ends; `budget` is written only then, so
/// exact mode builds, moves and drops the same four words it always did.
pub struct FnGuard {
    pub(super) recorder: *const ThreadRecorder,
    /// Null when the call is not timed exactly.
    cell: *const SiteCell,
    /// Written with a cell or a tag that reads them (`finish`, `end_tagged`): an
    /// untimed call's guard leaves them, as it leaves `budget`, unwritten.
    pub(super) saved: MaybeUninit<Usage>,
    pub(super) start: MaybeUninit<Usage>,
    pub(super) budget: MaybeUninit<BudgetFrame>,
}

/// What a guard under the overhead budget keeps beyond its four words (`budgeted.rs`).
#[derive(Clone, Copy)]
pub(super) struct BudgetFrame {
    pub(super) cell: *const SiteCell,
    /// The enclosing frame's children variance (`TIMED`).
    pub(super) saved_var: f64,
    /// The weight of a `TIMED` call, `2^shift`.
    pub(super) shift: u32,
    /// The thread's budget mode when this call began, restored when it ends.
    pub(super) saved_mode: u8,
}

impl FnGuard {
    /// Starts timing a call of `site` on this thread.
    #[inline(always)]
    pub fn enter(site: &'static FnSite) -> Self {
        // Every call is timed when the state is ON: one compare on that path, and
        // one more for the budget's.
        let state = switch::state_word();
        if state != u32::from(switch::ON) {
            // Laid out after exact mode's path (which LLVM otherwise puts second).
            unlikely();
            if state == u32::from(switch::BUDGET) {
                if let Some(guard) = Self::skipped(site) {
                    return guard;
                }
                return Self::budgeted(site);
            }
            // Read again: compared with the first read, the four states would make a
            // jump table that exact mode's calls pass through (6 more instructions).
            let state = switch::state();
            if state == switch::SAMPLED {
                if !sampling::timed(Sampled::Functions) {
                    return Self::untimed(site);
                }
            } else if state == switch::OFF {
                return Self::off();
            } else {
                return Self::budgeted(site);
            }
        }
        Self::timed(site)
    }

    #[inline(always)]
    fn timed(site: &'static FnSite) -> Self {
        let recorder = recorder::current();
        let id = site.id();
        // SAFETY: a non-null recorder is valid on this thread until its exit hook runs,
        // which cannot happen while this frame is on the stack.
        let Some(cell) = (unsafe { recorder.as_ref() }).and_then(|r| r.cell(id)) else {
            switch::count_dropped();
            return Self::inactive();
        };
        hooks::enter(id);
        // SAFETY: as above.
        let saved = unsafe { &*recorder }.push_frame();
        let start = Usage::now();
        cell.enter(start.ticks);
        Self {
            recorder,
            cell,
            saved: MaybeUninit::new(saved),
            start: MaybeUninit::new(start),
            budget: MaybeUninit::uninit(),
        }
    }

    /// A call time sampling leaves untimed: counted in its cell, no clock read.
    #[cold]
    #[inline(never)]
    fn untimed(site: &'static FnSite) -> Self {
        let recorder = recorder::current();
        // SAFETY: as in `timed`.
        match unsafe { recorder.as_ref() }.and_then(|r| r.cell(site.id())) {
            Some(cell) => cell.count_untimed(),
            None => switch::count_dropped(),
        }
        Self::inactive()
    }

    /// No session records: out of line, so the recording path is laid out first.
    #[cold]
    #[inline(never)]
    fn off() -> Self {
        Self::inactive()
    }

    #[inline(always)]
    pub(super) fn inactive() -> Self {
        Self::tagged(std::ptr::null())
    }

    /// A guard with no exact cell whose end is decided by `recorder` (null: nothing).
    #[inline(always)]
    pub(super) fn tagged(recorder: *const ThreadRecorder) -> Self {
        Self {
            recorder,
            cell: std::ptr::null(),
            saved: MaybeUninit::uninit(),
            start: MaybeUninit::uninit(),
            budget: MaybeUninit::uninit(),
        }
    }

    /// Accounts the call in `cell`, and writes it to the timeline if that records.
    /// Out of line, so that the drop left in the caller is the few instructions of
    /// an untimed call's end (the whole drop used to be one call for every path).
    #[inline(never)]
    fn finish(&self) {
        // SAFETY: called only with a non-null cell, which comes from this thread's
        // live recorder (passed in a register, the caller kept it live: 1 more
        // instruction per call).
        let cell = unsafe { &*self.cell };
        // SAFETY: `timed` wrote both with the cell. (Read where used, after the clock:
        // read before it, they took one more saved register, 4 instructions a call.)
        let (saved, start) = unsafe { (self.saved.assume_init_ref(), self.start.assume_init_ref()) };
        let inclusive = Usage::now().elapsed_since(*start);
        hooks::exit();
        // SAFETY: set together with the cell in `timed` from this thread's live recorder.
        let recorder = unsafe { &*self.recorder };
        let exclusive = recorder.pop_frame(*saved, inclusive);
        let start = start.ticks;
        cell.exit(inclusive, exclusive, || recorder.trace_call(cell, start, inclusive.ticks));
    }
}

/// Marks the branch that calls it as the unlikely one: LLVM lays it out of the way.
#[cold]
#[inline(always)]
fn unlikely() {}

impl Drop for FnGuard {
    #[inline(always)]
    fn drop(&mut self) {
        if self.cell.is_null() {
            // Only untimed, off and budget calls get here: exact ones never test this.
            if !self.recorder.is_null() {
                self.end_budgeted();
            }
            return;
        }
        self.finish();
    }
}
