//! [`MeasuredStream`]: each poll is an async frame (pushed and popped on the polling
//! thread, so self time and allocations of enclosing measured functions stay right), and
//! each item records the time since the previous item, or since the first poll.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::{FusedStream, Stream};

use super::entry::StreamEntry;
use crate::entries::{entry, WrapSite};
use crate::functions::PollFrame;
use crate::{clock, session, thread};

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    NotPolled,
    Running,
    Done,
}

/// A stream wrapped by `stream!`; yields exactly what the inner stream yields.
pub struct MeasuredStream<S> {
    inner: S,
    entry: &'static StreamEntry,
    state: State,
    start: u64,
    last: u64,
}

/// Wraps a stream created at `site` (the expansion of `stream!`).
pub fn stream<S: Stream>(site: &'static WrapSite, inner: S) -> MeasuredStream<S> {
    let entry = entry(site, std::any::type_name::<S::Item>(), StreamEntry::new);
    entry.instances.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    MeasuredStream { inner, entry, state: State::NotPolled, start: 0, last: 0 }
}

impl<S> MeasuredStream<S> {
    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

impl<S: Stream> Stream for MeasuredStream<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        // SAFETY: `inner` is structurally pinned: never moved out, and `Drop` leaves it alone.
        let this = unsafe { self.get_unchecked_mut() };
        let inner = unsafe { Pin::new_unchecked(&mut this.inner) };
        if this.state == State::Done || !session::enabled() {
            return inner.poll_next(cx);
        }
        // SAFETY: a non-null recorder is valid on this thread for the whole poll.
        let Some(recorder) = (unsafe { thread::current().as_ref() }) else { return inner.poll_next(cx) };
        let Some(cell) = recorder.cell(this.entry.items.id()) else { return inner.poll_next(cx) };
        let frame = PollFrame::begin(recorder, cell);
        if this.state == State::NotPolled {
            this.state = State::Running;
            this.start = clock::now();
            this.last = this.start;
            this.entry.on_start(this.start);
        }
        let result = inner.poll_next(cx);
        let (end, _, _) = frame.end();
        match &result {
            Poll::Ready(Some(_)) => {
                cell.record(end.saturating_sub(this.last));
                this.last = end;
            }
            Poll::Ready(None) => {
                this.state = State::Done;
                this.entry.on_end(this.start, end, true);
            }
            Poll::Pending => {}
        }
        result
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<S: FusedStream> FusedStream for MeasuredStream<S> {
    fn is_terminated(&self) -> bool {
        self.inner.is_terminated()
    }
}

impl<S> Drop for MeasuredStream<S> {
    fn drop(&mut self) {
        if self.state == State::Running {
            self.entry.on_end(self.start, clock::now(), false);
        }
    }
}

impl<S: std::fmt::Debug> std::fmt::Debug for MeasuredStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}
