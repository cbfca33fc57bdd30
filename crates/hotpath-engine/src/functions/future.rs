//! The async frame. A measured future pushes a frame at the start of every poll and
//! pops it at the end, on whichever thread polls it, so nothing is held across an
//! `.await`: other tasks that run on the thread in between are not counted as its
//! children, and a task that resumes on another worker leaves no state behind.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::record::StartSlot;
use crate::record::{self as recorder, hooks, ThreadRecorder};
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
        inclusive: Usage,
        exclusive: Usage,
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
            inclusive: Usage::default(),
            exclusive: Usage::default(),
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
            State::NotPolled if !sampling::timed(this.site.sampled()) => *this.state = State::Untimed,
            _ => {}
        }
        if *this.state == State::Untimed {
            let result = inner.poll(cx);
            let ready = result.is_ready();
            if ready {
                *this.state = State::Done;
            }
            // Polls are counted exactly although the call is not timed (as under Callgrind).
            // SAFETY: a non-null recorder is valid on this thread until its exit hook runs.
            match unsafe { recorder::current().as_ref() }.and_then(|r| r.cell(this.site.id())) {
                Some(cell) => {
                    cell.count_events(1);
                    if ready {
                        cell.count_untimed();
                    }
                }
                None if ready => switch::count_dropped(),
                None => {}
            }
            return result;
        }
        let recorder = recorder::current();
        // SAFETY: a non-null recorder is valid on this thread for the whole poll.
        let Some(recorder) = (unsafe { recorder.as_ref() }) else { return inner.poll(cx) };
        let id = this.site.id();
        let Some(cell) = recorder.cell(id) else { return inner.poll(cx) };
        let frame = PollFrame::begin(recorder, cell, id);
        if *this.state == State::NotPolled {
            *this.start = frame.start.ticks;
            *this.state = State::Running;
            *this.slot = cell.start_running(frame.start.ticks);
        }
        let result = inner.poll(cx);
        let (end, inclusive, exclusive) = frame.end();
        *this.inclusive = this.inclusive.plus(inclusive);
        *this.exclusive = this.exclusive.plus(exclusive);
        if result.is_ready() {
            *this.state = State::Done;
            cell.stop_running();
            if let Some(slot) = this.slot.take() {
                slot.release();
            }
            // First poll and last poll may run on CPUs whose counters disagree.
            cell.complete_async(crate::clock::elapsed(*this.start, end), *this.inclusive, *this.exclusive);
        }
        if timeline::on() {
            poll_on_timeline(this.site, *this.start, end, inclusive.ticks, result.is_ready());
        }
        result
    }
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

/// One poll's frame; accounts itself on drop too, so a panicking poll (which a
/// runtime may catch) leaves this thread's frame stack consistent.
struct PollFrame<'a> {
    recorder: &'a ThreadRecorder,
    cell: &'a SiteCell,
    saved: Usage,
    start: Usage,
    ended: bool,
}

impl<'a> PollFrame<'a> {
    #[inline(always)]
    fn begin(recorder: &'a ThreadRecorder, cell: &'a SiteCell, id: u32) -> Self {
        hooks::enter(id);
        let saved = recorder.push_frame();
        Self { recorder, cell, saved, start: Usage::now(), ended: false }
    }

    /// Ends the poll: the end tick and the poll's inclusive and exclusive usage.
    #[inline(always)]
    fn end(mut self) -> (u64, Usage, Usage) {
        let end = Usage::now();
        let (inclusive, exclusive) = self.account(end);
        self.ended = true;
        (end.ticks, inclusive, exclusive)
    }

    #[inline(always)]
    fn account(&self, end: Usage) -> (Usage, Usage) {
        hooks::exit();
        let inclusive = end.elapsed_since(self.start);
        let exclusive = self.recorder.pop_frame(self.saved, inclusive);
        self.cell.add_poll(inclusive.ticks, exclusive.ticks);
        (inclusive, exclusive)
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
