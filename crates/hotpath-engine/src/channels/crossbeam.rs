//! `crossbeam_channel` (feature `crossbeam`): `bounded(n)` (including `bounded(0)`)
//! and `unbounded()`. Receivers are `Clone` (several consumers share one queue).
//!
//! `select!` and `Select` take the inner halves through `Deref`; messages they move are
//! not counted.

use std::time::{Duration, Instant};

use crossbeam_channel::{
    self as cb, RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError,
};

use super::handle::{open, Rx, Tx};
use super::instance::Flavor;
use super::instrument::{InstrumentChannel, Wrapping};
use super::send::Refused;

/// A wrapped [`crossbeam_channel::Sender`].
pub struct Sender<T> {
    inner: cb::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`crossbeam_channel::Receiver`].
pub struct Receiver<T> {
    inner: cb::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (cb::Sender<T>, cb::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let capacity = self.0.capacity();
        let kind = if capacity.is_some() { "crossbeam::bounded" } else { "crossbeam::unbounded" };
        let (tx, rx) = open::<T>(at, kind, capacity, Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`crossbeam_channel::Sender::send`]; on a full bounded channel the wait
    /// counts as blocked.
    pub fn send(&self, msg: T) -> Result<(), SendError<T>> {
        if self.inner.capacity().is_none() {
            return self.meta.send_now(msg, |msg| self.inner.send(msg));
        }
        self.meta.send_or_wait(msg, |msg| self.try_first(msg, SendError), |msg| self.inner.send(msg))
    }

    /// As [`crossbeam_channel::Sender::try_send`].
    pub fn try_send(&self, msg: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(msg, |msg| self.inner.try_send(msg))
    }

    /// As [`crossbeam_channel::Sender::send_timeout`]; waiting counts as blocked,
    /// whether or not the message went through in time.
    pub fn send_timeout(&self, msg: T, timeout: Duration) -> Result<(), SendTimeoutError<T>> {
        self.send_deadline(msg, Instant::now() + timeout)
    }

    /// As [`crossbeam_channel::Sender::send_deadline`].
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
    /// As [`crossbeam_channel::Receiver::recv`].
    pub fn recv(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv())
    }

    /// As [`crossbeam_channel::Receiver::try_recv`].
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.meta.receive(self.inner.try_recv())
    }

    /// As [`crossbeam_channel::Receiver::recv_timeout`].
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        self.meta.receive(self.inner.recv_timeout(timeout))
    }

    /// As [`crossbeam_channel::Receiver::recv_deadline`].
    pub fn recv_deadline(&self, deadline: Instant) -> Result<T, RecvTimeoutError> {
        self.meta.receive(self.inner.recv_deadline(deadline))
    }

    /// As [`crossbeam_channel::Receiver::iter`].
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { rx: self }
    }

    /// As [`crossbeam_channel::Receiver::try_iter`].
    pub fn try_iter(&self) -> TryIter<'_, T> {
        TryIter { rx: self }
    }
}

receiver_iters!(
    "As [`crossbeam_channel::IntoIter`].",
    "As [`crossbeam_channel::Iter`].",
    "As [`crossbeam_channel::TryIter`]."
);

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
    crate::reach::forward! { "crossbeam_channel::Sender";
        fn is_empty(&self) -> bool;
        fn is_full(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> Option<usize>;
        fn same_channel(&self, other: &Self) -> bool;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "crossbeam_channel::Receiver";
        fn is_empty(&self) -> bool;
        fn is_full(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> Option<usize>;
        fn same_channel(&self, other: &Self) -> bool;
    }
}

wraps!(Sender => cb::Sender<T>);

wraps!(Receiver => cb::Receiver<T>);
