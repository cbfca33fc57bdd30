//! `async-channel` (feature `async-channel`): `bounded(n)` and `unbounded()`. Both halves
//! are `Clone`; the receiver is also a `Stream`. `force_send` replaces the oldest message
//! of a full channel: the replaced one leaves the queue unreceived.

use std::pin::Pin;
use std::task::{Context, Poll};

use ::async_channel::{self as ac, RecvError, SendError, TryRecvError, TrySendError};
use futures_core::{FusedStream, Stream};
use pin_project_lite::pin_project;

use super::handle::{open, Rx, Tx};
use super::instance::Flavor;
use super::instrument::{InstrumentChannel, Wrapping};
use super::send::Refused;

/// A wrapped [`async_channel::Sender`].
pub struct Sender<T> {
    inner: ac::Sender<T>,
    meta: Tx<T>,
}

pin_project! {
    /// A wrapped [`async_channel::Receiver`].
    pub struct Receiver<T> {
        #[pin]
        inner: ac::Receiver<T>,
        meta: Rx,
    }
}

impl<T> InstrumentChannel for (ac::Sender<T>, ac::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let capacity = self.0.capacity();
        let kind = if capacity.is_some() { "async_channel::bounded" } else { "async_channel::unbounded" };
        let (tx, rx) = open::<T>(at, kind, capacity, Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`async_channel::Sender::send`]; waiting for room counts as blocked.
    pub async fn send(&self, msg: T) -> Result<(), SendError<T>> {
        self.meta.send_or_wait_async(msg, |msg| self.try_first(msg), |msg| self.inner.send(msg)).await
    }

    /// As [`async_channel::Sender::send_blocking`]; waiting for room counts as blocked.
    pub fn send_blocking(&self, msg: T) -> Result<(), SendError<T>> {
        self.meta.send_or_wait(msg, |msg| self.try_first(msg), |msg| self.inner.send_blocking(msg))
    }

    /// As [`async_channel::Sender::try_send`].
    pub fn try_send(&self, msg: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(msg, |msg| self.inner.try_send(msg))
    }

    /// `try_send`, its refusal seen as the core's.
    #[inline(always)]
    fn try_first(&self, msg: T) -> Result<(), Refused<T, SendError<T>>> {
        self.inner.try_send(msg).map_err(|error| match error {
            TrySendError::Full(msg) => Refused::Full(msg),
            TrySendError::Closed(msg) => Refused::Failed(SendError(msg)),
        })
    }

    /// As [`async_channel::Sender::force_send`].
    pub fn force_send(&self, msg: T) -> Result<Option<T>, SendError<T>> {
        let replaced = self.meta.send_now(msg, |msg| self.inner.force_send(msg))?;
        if replaced.is_some() {
            self.meta.on_discard(1);
        }
        Ok(replaced)
    }
}

impl<T> Receiver<T> {
    /// As [`async_channel::Receiver::recv`].
    pub async fn recv(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv().await)
    }

    /// As [`async_channel::Receiver::recv_blocking`].
    pub fn recv_blocking(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv_blocking())
    }

    /// As [`async_channel::Receiver::try_recv`].
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.meta.receive(self.inner.try_recv())
    }
}

impl<T> Stream for Receiver<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let this = self.project();
        this.meta.receive(this.inner.poll_next(cx))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<T> FusedStream for Receiver<T> {
    fn is_terminated(&self) -> bool {
        self.inner.is_terminated()
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone() }
    }
}

impl<T> Clone for Receiver<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.another() }
    }
}

impl<T> Sender<T> {
    crate::reach::forward! { "async_channel::Sender";
        fn close(&self) -> bool;
        fn is_closed(&self) -> bool;
        fn is_empty(&self) -> bool;
        fn is_full(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> Option<usize>;
        fn same_channel(&self, other: &Self) -> bool;
        fn sender_count(&self) -> usize;
        fn receiver_count(&self) -> usize;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "async_channel::Receiver";
        fn close(&self) -> bool;
        fn is_closed(&self) -> bool;
        fn is_empty(&self) -> bool;
        fn is_full(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> Option<usize>;
        fn same_channel(&self, other: &Self) -> bool;
        fn sender_count(&self) -> usize;
        fn receiver_count(&self) -> usize;
    }
}

wraps!(Sender => ac::Sender<T>);

wraps!(Receiver => ac::Receiver<T>);
