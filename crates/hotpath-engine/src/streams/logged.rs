//! `stream!(.., log = true)`: a measured stream that also keeps the `Debug` text of the
//! last items it yielded, in its entry's ring (see `logs::log_ring`).

use std::fmt::Debug;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::{FusedStream, Stream};
use pin_project_lite::pin_project;

use super::entry::StreamSite;
use super::stream::{stream, MeasuredStream};
use crate::switch;

pin_project! {
    /// A stream wrapped by `stream!(.., log = true)`; yields exactly what the inner
    /// stream yields.
    pub struct LoggedStream<S> {
        #[pin]
        inner: MeasuredStream<S>,
    }
}

/// Wraps a stream created at `site` and logs its items (the expansion of
/// `stream!(.., log = true)`).
pub fn stream_logged<S>(site: &'static StreamSite, label: Option<&str>, inner: S) -> LoggedStream<S>
where
    S: Stream,
    S::Item: Debug,
{
    LoggedStream { inner: stream(site, label, inner) }
}

impl<S> LoggedStream<S> {
    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        self.inner.get_ref()
    }
}

impl<S> Stream for LoggedStream<S>
where
    S: Stream,
    S::Item: Debug,
{
    type Item = S::Item;

    #[inline]
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let inner = self.project().inner;
        let entry = inner.entry();
        let result = inner.poll_next(cx);
        if let Poll::Ready(Some(item)) = &result {
            if switch::enabled() {
                entry.logs.record_entry("streams", entry.name(), item);
            }
        }
        result
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<S> FusedStream for LoggedStream<S>
where
    S: FusedStream,
    S::Item: Debug,
{
    fn is_terminated(&self) -> bool {
        self.inner.is_terminated()
    }
}

impl<S: Debug> Debug for LoggedStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}
