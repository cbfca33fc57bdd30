//! [`MeasuredStream`]: counts items in the stream itself and hands them to the polling
//! thread's cell of the entry's metric `items` once per window of [`WINDOW`] items (and
//! at the end), with the window's mean time per item. Per item that is one increment;
//! the clock is read once per window, so a stream item costs about a nanosecond.
//! Live snapshots can lag by up to a window per active stream; final reports cannot
//! (a stream that ends or is dropped hands over what it counted).

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::{FusedStream, Stream};
use pin_project_lite::pin_project;

use super::entry::{StreamEntry, StreamSite};
use crate::clock;
use crate::entries::Entry;
use crate::record::{count_metric, record_metric};
use crate::switch;
use crate::timeline;

/// Items per window: one clock read and one cell update per window.
pub(crate) const WINDOW: u64 = 32;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    NotPolled,
    Running,
    Done,
}

pin_project! {
    /// A stream wrapped by `stream!`; yields exactly what the inner stream yields.
    pub struct MeasuredStream<S> {
        #[pin]
        inner: S,
        meter: Meter,
    }

    impl<S> PinnedDrop for MeasuredStream<S> {
        fn drop(this: Pin<&mut Self>) {
            this.project().meter.dropped();
        }
    }
}

/// What a stream counts about itself; never pinned.
struct Meter {
    entry: &'static Entry<StreamEntry>,
    state: State,
    start: u64,
    window_start: u64,
    window_items: u64,
}

/// Wraps a stream created at `site` (the expansion of `stream!`), in the row of
/// `label` when one was computed at run time.
pub fn stream<S: Stream>(site: &'static StreamSite, label: Option<&str>, inner: S) -> MeasuredStream<S> {
    let entry = site.entry_labelled::<S::Item>(label, StreamEntry::new);
    entry.instances.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let meter = Meter { entry, state: State::NotPolled, start: 0, window_start: 0, window_items: 0 };
    MeasuredStream { inner, meter }
}

impl<S> MeasuredStream<S> {
    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The entry this stream counts in.
    pub(crate) fn entry(&self) -> &'static Entry<StreamEntry> {
        self.meter.entry
    }
}

impl Meter {
    /// The first poll while profiling is on.
    fn begin(&mut self) {
        self.state = State::Running;
        self.start = clock::now();
        self.window_start = self.start;
        self.entry.on_start(self.start);
    }

    #[inline(always)]
    fn item(&mut self) {
        if timeline::on() {
            timeline::instant(timeline::Kind::Item, self.entry.items.id(), clock::now(), 0);
        }
        self.window_items += 1;
        if self.window_items == WINDOW {
            self.flush(clock::now());
        }
    }

    /// The stream ended (`Ready(None)`).
    fn finished(&mut self) {
        let end = clock::now();
        self.flush(end);
        self.state = State::Done;
        self.entry.on_end(self.start, end, true);
    }

    /// The stream is dropped: counts as cancelled if it was running.
    fn dropped(&mut self) {
        if self.state == State::Running {
            let end = clock::now();
            self.flush(end);
            self.entry.on_end(self.start, end, false);
        }
    }

    /// Hands the window's items and mean interval to this thread's cell.
    #[cold]
    fn flush(&mut self, now: u64) {
        if self.window_items > 0 {
            count_metric(self.entry.items, self.window_items);
            record_metric(self.entry.items, now.saturating_sub(self.window_start) / self.window_items, 0);
        }
        self.window_start = now;
        self.window_items = 0;
    }
}

impl<S: Stream> Stream for MeasuredStream<S> {
    type Item = S::Item;

    #[inline]
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = self.project();
        let meter = this.meter;
        match meter.state {
            State::Done => return this.inner.poll_next(cx),
            State::NotPolled if !switch::enabled() => return this.inner.poll_next(cx),
            State::NotPolled => meter.begin(),
            State::Running => {}
        }
        let result = this.inner.poll_next(cx);
        match &result {
            Poll::Ready(Some(_)) => meter.item(),
            Poll::Ready(None) => meter.finished(),
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

impl<S: std::fmt::Debug> std::fmt::Debug for MeasuredStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}
