//! `std::sync::mpsc`: `channel()` and `sync_channel(n)`, wrapped half by half.
//!
//! The wrappers hold the very `Sender`/`SyncSender`/`Receiver` that were passed in, so
//! capacity, blocking, errors and message type are the channel's own. A blocking send
//! on a `SyncSender` first tries `try_send`; only when that finds the channel full does
//! it time the blocking `send` that follows (blocked time).

use std::sync::mpsc::{self, RecvError, RecvTimeoutError, SendError, TryRecvError, TrySendError};
use std::time::Duration;

use super::handle::{open, Rx, Tx};
use super::instance::Flavor;
use super::instrument::{InstrumentChannel, Wrapping};
use super::send::Refused;

/// A wrapped [`std::sync::mpsc::Sender`].
pub struct Sender<T> {
    inner: mpsc::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`std::sync::mpsc::SyncSender`].
pub struct SyncSender<T> {
    inner: mpsc::SyncSender<T>,
    meta: Tx<T>,
}

/// A wrapped [`std::sync::mpsc::Receiver`].
pub struct Receiver<T> {
    inner: mpsc::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (mpsc::Sender<T>, mpsc::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "std::channel", None, Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> InstrumentChannel for (mpsc::SyncSender<T>, mpsc::Receiver<T>) {
    type Message = T;
    type Output = (SyncSender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        // std does not expose the bound; latencies use the largest ring.
        let (tx, rx) = open::<T>(at, "std::sync_channel", None, Flavor::Fifo);
        (SyncSender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`std::sync::mpsc::Sender::send`].
    #[inline]
    pub fn send(&self, t: T) -> Result<(), SendError<T>> {
        self.meta.send_now(t, |t| self.inner.send(t))
    }
}

impl<T> SyncSender<T> {
    /// As [`std::sync::mpsc::SyncSender::send`]; time spent waiting for room is counted
    /// as blocked.
    #[inline]
    pub fn send(&self, t: T) -> Result<(), SendError<T>> {
        let first = |t| {
            self.inner.try_send(t).map_err(|error| match error {
                TrySendError::Full(t) => Refused::Full(t),
                TrySendError::Disconnected(t) => Refused::Failed(SendError(t)),
            })
        };
        self.meta.send_or_wait(t, first, |t| self.inner.send(t))
    }

    /// As [`std::sync::mpsc::SyncSender::try_send`].
    #[inline]
    pub fn try_send(&self, t: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(t, |t| self.inner.try_send(t))
    }
}

impl<T> Receiver<T> {
    /// As [`std::sync::mpsc::Receiver::recv`].
    #[inline]
    pub fn recv(&self) -> Result<T, RecvError> {
        self.meta.receive(self.inner.recv())
    }

    /// As [`std::sync::mpsc::Receiver::try_recv`].
    #[inline]
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        self.meta.receive(self.inner.try_recv())
    }

    /// As [`std::sync::mpsc::Receiver::recv_timeout`].
    #[inline]
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        self.meta.receive(self.inner.recv_timeout(timeout))
    }

    /// As [`std::sync::mpsc::Receiver::iter`]: blocks for each message until the
    /// channel closes.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { rx: self }
    }

    /// As [`std::sync::mpsc::Receiver::try_iter`]: the messages already queued.
    pub fn try_iter(&self) -> TryIter<'_, T> {
        TryIter { rx: self }
    }
}

receiver_iters!(
    "As [`std::sync::mpsc::IntoIter`].",
    "As [`std::sync::mpsc::Iter`].",
    "As [`std::sync::mpsc::TryIter`]."
);

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone() }
    }
}

impl<T> Clone for SyncSender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone() }
    }
}

wraps!(Sender => mpsc::Sender<T>);

wraps!(SyncSender => mpsc::SyncSender<T>);

wraps!(Receiver => mpsc::Receiver<T>);
