//! The sync frame: created as the first statement of a measured function, dropped
//! when it returns, unwinds or breaks out.
//!
//! While the timeline records (`switch::TRACED`), calls take an out-of-line path that
//! also writes the call to the thread's ring: its guard's cell pointer carries a tag
//! bit, and the cell knows its site. The common path pays one more test in the drop.

use crate::record::{self as recorder, hooks, ThreadRecorder};
use crate::record::{FnSite, SiteCell, Usage};
use crate::sampling::{self, Sampled};
use crate::switch;
use crate::timeline::{self, Kind};

/// The low bit of a guard's cell pointer: the call goes to the timeline too.
const TRACED: usize = 1;

/// Times one call of a sync function. Not `Send`: it must end on its own thread.
pub struct FnGuard {
    recorder: *const ThreadRecorder,
    /// Null when the call is not timed; tagged with [`TRACED`].
    cell: *const SiteCell,
    saved: Usage,
    start: Usage,
}

impl FnGuard {
    /// Starts timing a call of `site` on this thread.
    #[inline(always)]
    pub fn enter(site: &'static FnSite) -> Self {
        // Every call is timed when the state is ON: one compare on that path.
        let state = switch::state();
        if state != switch::ON {
            if state == switch::OFF {
                return Self::off();
            }
            if state & switch::TRACED != 0 {
                return Self::traced(site, state);
            }
            if !sampling::timed(Sampled::Functions) {
                return Self::untimed(site);
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
        Self { recorder, cell, saved, start }
    }

    /// A call while the timeline records: timed as any (unless time sampling leaves it
    /// untimed), its guard tagged so that its end goes to the ring.
    #[inline(never)]
    fn traced(site: &'static FnSite, state: u8) -> Self {
        if state & switch::SAMPLED != 0 && !sampling::timed(Sampled::Functions) {
            return Self::untimed(site);
        }
        let mut guard = Self::timed(site);
        // SAFETY: a non-null cell comes from this thread's live recorder (`timed`).
        if let Some(cell) = unsafe { guard.cell.as_ref() } {
            cell.note_site(site);
            guard.cell = guard.cell.map_addr(|a| a | TRACED);
        }
        guard
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
    fn inactive() -> Self {
        Self { recorder: std::ptr::null(), cell: std::ptr::null(), saved: Usage::default(), start: Usage::default() }
    }

    /// Accounts the call in `cell`; returns its inclusive usage.
    #[inline(always)]
    fn finish(&self, cell: &SiteCell) -> Usage {
        let inclusive = Usage::now().elapsed_since(self.start);
        hooks::exit();
        // SAFETY: set together with the cell in `timed` from this thread's live recorder.
        let recorder = unsafe { &*self.recorder };
        let exclusive = recorder.pop_frame(self.saved, inclusive);
        cell.exit(inclusive, exclusive);
        inclusive
    }

    /// The end of a traced call: accounted, then written to the ring, its trigger checked.
    #[inline(never)]
    fn finish_traced(&self) {
        // SAFETY: the untagged pointer is the cell `timed` found.
        let cell = unsafe { &*self.cell.map_addr(|a| a & !TRACED) };
        let inclusive = self.finish(cell);
        if let Some(site) = cell.site() {
            timeline::slice(Kind::Call, site.registered_id(), self.start.ticks, inclusive.ticks, 0);
            site.check_threshold(inclusive.ticks);
        }
    }
}

impl Drop for FnGuard {
    #[inline(always)]
    fn drop(&mut self) {
        if self.cell.is_null() {
            return;
        }
        if self.cell.addr() & TRACED != 0 {
            return self.finish_traced();
        }
        // SAFETY: an untagged non-null cell comes from this thread's live recorder.
        self.finish(unsafe { &*self.cell });
    }
}
