//! The async frame. A measured future pushes a frame at the start of every poll and
//! pops it at the end, on whichever thread polls it, so nothing is held across an
//! `.await`: other tasks that run on the thread in between are not counted as its
//! children, and a task that resumes on another worker leaves no state behind.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::record::StartSlot;
use crate::record::{self as recorder, hooks, ThreadRecorder, FORCE, NORMAL, UNTIMED};
use crate::record::{FnSite, SiteCell, Usage};
use crate::sampling;
use crate::switch;
use crate::timeline::{self, Kind};

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    NotPolled,
    Running,
    Done,
    /// Profiling was off at the first poll; the future is passed through untouched.
    Untracked,
    /// Time sampling left this call untimed: polled through, counted when it ends.
    Untimed,
}

pin_project_lite::pin_project! {
    /// Wraps an async function's body or an awaiting `measure_block!`.
    ///
    /// Wall time (calls, Avg, percentiles, Total) spans the first poll to `Ready`;
    /// Self time sums the polls minus nested measured calls. Allocations of every poll,
    /// on whatever thread, add up in the future itself until it completes.
    pub struct MeasuredFuture<F> {
        #[pin]
        inner: F,
        site: &'static FnSite,
        start: u64,
        // The running call's start, published for the oldest age (see `record::starts`).
        slot: Option<StartSlot>,
        state: State,
        // The call's rate under the budget, `2^-shift`, or [`PLAIN`] without one.
        shift: u8,
        inclusive: Usage,
        exclusive: Usage,
        // Self time of its polls (signed under the budget) and their children's variance.
        own: (i64, f64),
    }

    impl<F> PinnedDrop for MeasuredFuture<F> {
        // A call that ended (or never started) holds no slot: one compare, inlined.
        #[inline(always)]
        fn drop(this: Pin<&mut Self>) {
            let this = this.project();
            if matches!(*this.state, State::Running | State::Untimed) {
                cancelled(this.site, *this.state, this.slot.take());
            }
        }
    }
}

/// A call dropped before it completed: counted as cancelled where it is dropped, its
/// start slot (held only while it runs) released.
#[cold]
#[inline(never)]
fn cancelled(site: &'static FnSite, state: State, slot: Option<StartSlot>) {
    if let Some(slot) = slot {
        slot.release();
    }
    // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
    if let Some(cell) = unsafe { recorder::current().as_ref() }.and_then(|r| r.cell(site.id())) {
        cell.cancel();
        if state == State::Running {
            cell.stop_running();
        }
    }
}

impl<F> MeasuredFuture<F> {
    /// Wraps `inner`, measured as `site`.
    #[inline]
    pub fn new(site: &'static FnSite, inner: F) -> Self {
        Self {
            inner,
            site,
            start: 0,
            slot: None,
            state: State::NotPolled,
            shift: 0,
            inclusive: Usage::default(),
            exclusive: Usage::default(),
            own: (0, 0.0),
        }
    }
}

impl<F: Future> Future for MeasuredFuture<F> {
    type Output = F::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let inner = this.inner;
        match *this.state {
            State::Done | State::Untracked => return inner.poll(cx),
            State::NotPolled if !switch::enabled() => {
                *this.state = State::Untracked;
                return inner.poll(cx);
            }
            State::NotPolled => {
                // The site's rate under the overhead budget, or the static one; a call
                // nested directly in one sampled below rate 1 is timed (`FORCE`).
                let shift = this.site.shift();
                let budget = switch::state() >= switch::BUDGET;
                match sampling::timed_at(this.site.sampled(), shift) {
                    Some(shift) if budget => *this.shift = shift as u8,
                    Some(_) => *this.shift = PLAIN,
                    None if budget && forced() => *this.shift = 0,
                    None => {
                        *this.state = State::Untimed;
                        *this.shift = if budget { shift as u8 } else { PLAIN };
                        // Tests only: the untimed call's wall time, into the shadow.
                        if switch::state() == switch::SHADOW {
                            *this.start = crate::clock::now().max(1);
                        }
                    }
                }
            }
            _ => {}
        }
        // SAFETY: a non-null recorder is valid on this thread for the whole poll.
        let recorder = unsafe { recorder::current().as_ref() };
        let id = this.site.id();
        if *this.state == State::Untimed {
            return untimed_poll(inner, cx, recorder, (id, *this.start), this.state, *this.shift);
        }
        let Some((recorder, cell)) = recorder.and_then(|r| Some((r, r.cell(id)?))) else { return inner.poll(cx) };
        let frame = PollFrame::begin(recorder, cell, id, *this.shift);
        if *this.state == State::NotPolled {
            *this.start = frame.start.ticks;
            *this.state = State::Running;
            *this.slot = cell.start_running(frame.start.ticks);
        }
        let result = inner.poll(cx);
        let (end, inclusive, exclusive, own) = frame.end();
        *this.inclusive = this.inclusive.plus(inclusive);
        *this.exclusive = this.exclusive.plus(exclusive);
        this.own.0 = this.own.0.wrapping_add(own.0);
        this.own.1 += own.1;
        if result.is_ready() {
            *this.state = State::Done;
            cell.stop_running();
            if let Some(slot) = this.slot.take() {
                slot.release();
            }
            // First poll and last poll may run on CPUs whose counters disagree.
            let wall = crate::clock::elapsed(*this.start, end);
            let shift = if *this.shift == PLAIN { 0 } else { u32::from(*this.shift) };
            cell.complete_async(wall, shift, *this.own, *this.inclusive, *this.exclusive);
        }
        if timeline::on() {
            poll_on_timeline(this.site, *this.start, end, inclusive.ticks, result.is_ready());
        }
        result
    }
}

/// Whether the innermost measured call on this thread was sampled below rate 1, so
/// that a call nested directly in it is timed (`functions/budgeted.rs`).
fn forced() -> bool {
    // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
    unsafe { recorder::current().as_ref() }.is_some_and(|r| r.mode() == FORCE)
}

/// A poll of a call time sampling left untimed: polled through, counted exactly
/// (polls, and the call when it ends). Under the budget (`shift` > 0) it marks the
/// thread [`UNTIMED`] for the poll when the enclosing call is timed, so that a timed
/// call nested in it hands nothing to that one (`functions/budgeted.rs`). `start` is 0
/// but under the shadow (tests only), where the call's wall time goes to the shadow.
#[inline]
fn untimed_poll<F: Future>(
    inner: Pin<&mut F>,
    cx: &mut Context<'_>,
    recorder: Option<&ThreadRecorder>,
    (id, start): (u32, u64),
    state: &mut State,
    shift: u8,
) -> Poll<F::Output> {
    let marked = recorder.filter(|r| shift > 0 && shift != PLAIN && r.mode() == NORMAL);
    if let Some(r) = marked {
        r.mark_untimed();
    }
    let result = inner.poll(cx);
    if let Some(r) = marked {
        r.clear_untimed();
    }
    let ready = result.is_ready();
    if ready {
        *state = State::Done;
    }
    match recorder.and_then(|r| r.cell(id)) {
        Some(cell) => {
            cell.count_events(1);
            if ready {
                cell.count_untimed();
                if start != 0 {
                    shadow_untimed(cell, start);
                }
            }
        }
        None if ready => switch::count_dropped(),
        None => {}
    }
    result
}

/// Tests only (`switch::SHADOW`): the shadow total of a future site is its untimed
/// calls' wall times, which the report adds to the timed calls' own
/// (`record::durations`, the other instruments' convention).
#[cold]
#[inline(never)]
fn shadow_untimed(cell: &SiteCell, start: u64) {
    cell.weighted().shadow(crate::clock::elapsed(start, crate::clock::now()));
}

/// A poll that ended at `end` after `ticks` on the timeline, with its call's start: the
/// export tells a call's polls (on whatever threads) by their site and that start, and
/// links them first to last. A last poll checks the call against the site's trigger.
/// Out of line and called last, so that the poll's path stays as short when the
/// timeline is off.
#[cold]
#[inline(never)]
fn poll_on_timeline(site: &'static FnSite, call_start: u64, end: u64, ticks: u64, last: bool) {
    let call = call_start & !1 | u64::from(last);
    timeline::slice(Kind::Poll, site.registered_id(), end.saturating_sub(ticks), ticks, call);
    if last {
        site.check_threshold(crate::clock::elapsed(call_start, end));
    }
}

/// A call's shift without a budget: its polls are plain frames.
const PLAIN: u8 = u8::MAX;

/// One poll's frame: plain without a budget, else weighted by `2^shift`
/// (`record/weighted.rs`), its children deciding for themselves ([`NORMAL`]). Accounts
/// itself on drop too, so a panicking poll (which a runtime may catch) leaves this
/// thread's frame stack consistent.
struct PollFrame<'a> {
    recorder: &'a ThreadRecorder,
    cell: &'a SiteCell,
    saved: (Usage, f64),
    start: Usage,
    shift: u8,
    saved_mode: u8,
    ended: bool,
}

impl<'a> PollFrame<'a> {
    #[inline(always)]
    fn begin(recorder: &'a ThreadRecorder, cell: &'a SiteCell, id: u32, shift: u8) -> Self {
        hooks::enter(id);
        let (saved, saved_mode) = if shift == PLAIN {
            ((recorder.push_frame(), 0.0), NORMAL)
        } else {
            let mode = recorder.set_mode(NORMAL);
            (recorder.push_budget_frame(), mode)
        };
        Self { recorder, cell, saved, start: Usage::now(), shift, saved_mode, ended: false }
    }

    /// Ends the poll: the end tick, the poll's inclusive and exclusive usage, and its
    /// signed self time with the variance its children put in it.
    #[inline(always)]
    fn end(mut self) -> (u64, Usage, Usage, (i64, f64)) {
        let end = Usage::now();
        let (inclusive, exclusive, own) = self.account(end);
        self.ended = true;
        (end.ticks, inclusive, exclusive, own)
    }

    #[inline(always)]
    fn account(&self, end: Usage) -> (Usage, Usage, (i64, f64)) {
        hooks::exit();
        let inclusive = end.elapsed_since(self.start);
        if self.shift == PLAIN {
            let exclusive = self.recorder.pop_frame(self.saved.0, inclusive);
            self.cell.add_poll(inclusive.ticks, exclusive.ticks as i64, 0);
            return (inclusive, exclusive, (exclusive.ticks as i64, 0.0));
        }
        let shift = u32::from(self.shift);
        let under_untimed = self.saved_mode == UNTIMED;
        let (exclusive, ticks, var) = self.recorder.pop_weighted(self.saved, inclusive, shift, under_untimed);
        self.recorder.set_mode(self.saved_mode);
        self.cell.add_poll(inclusive.ticks, ticks, shift);
        (inclusive, exclusive, (ticks, var))
    }
}

impl Drop for PollFrame<'_> {
    fn drop(&mut self) {
        if !self.ended {
            self.account(Usage::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::task::{Context, Waker};

    use super::MeasuredFuture;
    use crate::record::collect;
    use crate::record::{FnSite, SiteName};

    static SITE: FnSite = FnSite::new(SiteName::Label("future-tests::in-flight"), file!(), line!(), true);

    /// A call first polled on a thread that has exited since: its start slot keeps the
    /// thread's recorder, so the age is still known, until the call is dropped.
    #[test]
    fn an_async_call_keeps_its_start_after_its_thread_exits() {
        crate::clock::init(true);
        crate::switch::set_enabled(true);
        let before = crate::clock::now();
        let future = std::thread::spawn(|| {
            let mut future = Box::pin(MeasuredFuture::new(&SITE, std::future::pending::<()>()));
            assert!(future.as_mut().poll(&mut Context::from_waker(Waker::noop())).is_pending());
            future
        })
        .join()
        .unwrap();
        let id = SITE.id() as usize;
        let totals = &collect()[id];
        assert_eq!(totals.active, 1);
        assert!(totals.active_since >= before && totals.active_since <= crate::clock::now());
        drop(future);
        let totals = &collect()[id];
        assert_eq!((totals.active, totals.active_since), (0, u64::MAX));
        assert_eq!(totals.cancelled, 1);
    }
}
