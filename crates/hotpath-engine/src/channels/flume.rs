//! `flume` (feature `flume`): `bounded(n)` and `unbounded()`, sync and async halves.
//! Receivers are `Clone`. `stream()`, `sink()`, the `into_*` methods and weak senders
//! are reached through `Deref` and are not counted.

use std::time::{Duration, Instant};

use ::flume::{self as fl, RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError};

use super::handle::{open, Rx, Tx};
use super::instance::Flavor;
use super::instrument::{InstrumentChannel, Wrapping};
use super::send::Refused;

/// A wrapped [`flume::Sender`].
pub struct Sender<T> {
    inner: fl::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`flume::Receiver`].
pub struct Receiver<T> {
    inner: fl::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (fl::Sender<T>, fl::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let capacity = self.0.capacity();
        let kind = if capacity.is_some() { "flume::bounded" } else { "flume::unbounded" };
        let (tx, rx) = open::<T>(at, kind, capacity, Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`flume::Sender::send`]; on a full bounded channel the wait counts as blocked.
    pub fn send(&self, msg: T) -> Result<(), SendError<T>> {
        self.meta.send_or_wait(msg, |msg| self.try_first(msg, SendError), |msg| self.inner.send(msg))
    }

    /// As [`flume::Sender::send_async`]; waiting for room counts as blocked.
    pub async fn send_async(&self, msg: T) -> Result<(), SendError<T>> {
        let first = |msg| self.try_first(msg, SendError);
        self.meta.send_or_wait_async(msg, first, |msg| self.inner.send_async(msg)).await
    }

    /// As [`flume::Sender::try_send`].
    pub fn try_send(&self, msg: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(msg, |msg| self.inner.try_send(msg))
    }

    /// As [`flume::Sender::send_timeout`]; waiting counts as blocked.
    pub fn send_timeout(&self, msg: T, timeout: Duration) -> Result<(), SendTimeoutError<T>> {
        self.send_deadline(msg, Instant::now() + timeout)
    }

    /// As [`flume::Sender::send_deadline`]; waiting counts as blocked.
    pub fn send_deadline(&self, msg: T, deadline: Instant) -> Result<(), SendTimeoutError<T>> {
        let first = |msg| self.try_first(msg, SendTimeoutError::Disconnected);
        self.meta.send_or_wait(msg, first, |msg| self.inner.send_deadline(msg, deadline))
    }

    /// `try_send`, its refusal seen as the core's; `closed` makes the caller's error.
    #[inline(always)]
    fn try_first<E>(&self, msg: T, closed: fn(T) -> E) -> Result<(), Refused<T, E>> {
        self.inner.try_send(msg).map_err(|error| match error {
            TrySendError::Full(msg) => Refused::Full(msg),
            TrySendError::Disconnected(msg) => Refused::Failed(closed(msg)),
        })
    }
}

impl<T> Receiver<T> {
    /// As [`flume::Receiver::recv`].
    pub fn recv(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv())
    }

    /// As [`flume::Receiver::recv_async`].
    pub async fn recv_async(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv_async().await)
    }

    /// As [`flume::Receiver::try_recv`].
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.meta.receive(self.inner.try_recv())
    }

    /// As [`flume::Receiver::recv_timeout`].
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        self.meta.receive(self.inner.recv_timeout(timeout))
    }

    /// As [`flume::Receiver::recv_deadline`].
    pub fn recv_deadline(&self, deadline: Instant) -> Result<T, RecvTimeoutError> {
        self.meta.receive(self.inner.recv_deadline(deadline))
    }

    /// As [`flume::Receiver::iter`].
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { rx: self, blocking: true }
    }

    /// As [`flume::Receiver::try_iter`].
    pub fn try_iter(&self) -> Iter<'_, T> {
        Iter { rx: self, blocking: false }
    }

    /// As [`flume::Receiver::drain`]: the messages queued now.
    pub fn drain(&self) -> std::vec::IntoIter<T> {
        let drained: Vec<T> = self.inner.drain().collect();
        self.meta.receive(drained.len());
        drained.into_iter()
    }
}

/// As [`flume::Iter`] (blocking) and [`flume::TryIter`] (not).
#[derive(Debug)]
pub struct Iter<'a, T> {
    rx: &'a Receiver<T>,
    blocking: bool,
}

impl<T> Iterator for Iter<'_, T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        if self.blocking {
            self.rx.recv().ok()
        } else {
            self.rx.try_recv().ok()
        }
    }
}

receiver_iters!("As [`flume::IntoIter`].");

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
    crate::reach::forward! { "flume::Sender";
        fn is_disconnected(&self) -> bool;
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
    crate::reach::forward! { "flume::Receiver";
        fn is_disconnected(&self) -> bool;
        fn is_empty(&self) -> bool;
        fn is_full(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> Option<usize>;
        fn same_channel(&self, other: &Self) -> bool;
        fn sender_count(&self) -> usize;
        fn receiver_count(&self) -> usize;
    }
}

wraps!(Sender => fl::Sender<T>);

wraps!(Receiver => fl::Receiver<T>);
