//! [`MeasuredStream`]: counts items in the stream itself and hands them to the polling
//! thread's cell of the entry's metric site once per window of [`WINDOW`] items (and at
//! the end), with the window's mean time per item. Per item that is one increment; the
//! clock is read once per window, so a stream item costs about a nanosecond.
//! Live snapshots can lag by up to a window per active stream; final reports cannot
//! (a stream that ends or is dropped hands over what it counted).

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::{FusedStream, Stream};

use super::entry::StreamEntry;
use crate::clock;
use crate::entries::{entry, WrapSite};
use crate::functions::{count_metric, record_metric};
use crate::switch;

/// Items per window: one clock read and one cell update per window.
pub(crate) const WINDOW: u64 = 32;

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
    window_start: u64,
    window_items: u64,
}

/// Wraps a stream created at `site` (the expansion of `stream!`).
pub fn stream<S: Stream>(site: &'static WrapSite, inner: S) -> MeasuredStream<S> {
    let entry = entry(site, std::any::type_name::<S::Item>(), StreamEntry::new);
    entry.instances.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    MeasuredStream { inner, entry, state: State::NotPolled, start: 0, window_start: 0, window_items: 0 }
}

impl<S> MeasuredStream<S> {
    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// Hands the window's items and mean interval to this thread's cell.
    #[cold]
    fn flush(&mut self, now: u64) {
        if self.window_items > 0 {
            count_metric(self.entry.items, self.window_items);
            record_metric(self.entry.items, now.saturating_sub(self.window_start) / self.window_items);
        }
        self.window_start = now;
        self.window_items = 0;
    }
}

impl<S: Stream> Stream for MeasuredStream<S> {
    type Item = S::Item;

    #[inline]
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        // SAFETY: `inner` is structurally pinned: never moved out, and `Drop` leaves it alone.
        let this = unsafe { self.get_unchecked_mut() };
        let inner = unsafe { Pin::new_unchecked(&mut this.inner) };
        match this.state {
            State::Done => return inner.poll_next(cx),
            State::NotPolled if !switch::enabled() => return inner.poll_next(cx),
            State::NotPolled => {
                this.state = State::Running;
                this.start = clock::now();
                this.window_start = this.start;
                this.entry.on_start(this.start);
            }
            State::Running => {}
        }
        let result = inner.poll_next(cx);
        match &result {
            Poll::Ready(Some(_)) => {
                this.window_items += 1;
                if this.window_items == WINDOW {
                    this.flush(clock::now());
                }
            }
            Poll::Ready(None) => {
                let end = clock::now();
                this.flush(end);
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
            let end = clock::now();
            self.flush(end);
            self.entry.on_end(self.start, end, false);
        }
    }
}

impl<S: std::fmt::Debug> std::fmt::Debug for MeasuredStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}
