//! The sync frame: created as the first statement of a measured function, dropped
//! when it returns, unwinds or breaks out.

use crate::record::{self as recorder, hooks, ThreadRecorder};
use crate::record::{FnSite, SiteCell, Usage};
use crate::sampling::{self, Sampled};
use crate::switch;
use crate::timeline::{self, Kind};

/// The site of a guard that records nothing.
static NO_SITE: FnSite = FnSite::new(crate::record::SiteName::Label(""), "", 0, false);

/// Times one call of a sync function. Not `Send`: it must end on its own thread.
pub struct FnGuard {
    recorder: *const ThreadRecorder,
    cell: *const SiteCell,
    saved: Usage,
    start: Usage,
    site: &'static FnSite,
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
            if !sampling::timed(Sampled::Functions) {
                return Self::untimed(site);
            }
        }
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
        Self { recorder, cell, saved, start, site }
    }

    /// A call time sampling leaves untimed: counted in its cell, no clock read.
    #[cold]
    #[inline(never)]
    fn untimed(site: &'static FnSite) -> Self {
        let recorder = recorder::current();
        // SAFETY: as in `enter`.
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
        Self {
            recorder: std::ptr::null(),
            cell: std::ptr::null(),
            saved: Usage::default(),
            start: Usage::default(),
            site: &NO_SITE,
        }
    }
}

impl Drop for FnGuard {
    #[inline(always)]
    fn drop(&mut self) {
        if self.cell.is_null() {
            return;
        }
        let inclusive = Usage::now().elapsed_since(self.start);
        hooks::exit();
        // SAFETY: set together in `enter` from this thread's live recorder.
        let (recorder, cell) = unsafe { (&*self.recorder, &*self.cell) };
        let exclusive = recorder.pop_frame(self.saved, inclusive);
        cell.exit(inclusive, exclusive);
        if timeline::on() {
            timeline::slice(Kind::Call, self.site.registered_id(), self.start.ticks, inclusive.ticks, 0);
            self.site.check_threshold(inclusive.ticks);
        }
    }
}
