//! `tokio::sync::mpsc`: bounded `channel(n)` and `unbounded_channel()`.
//!
//! Sends that can wait for room (`send`, `blocking_send`, `reserve`) first try without
//! waiting; only when the channel is full is the wait timed as blocked. Tokio's bounded
//! channel hands freed slots to waiting senders in order, so the first try never
//! overtakes them. `reserve_many`, `send_timeout` and weak senders are reached through
//! `Deref` and are not counted.

use std::convert::Infallible;
use std::fmt;
use std::task::{Context, Poll};

use ::tokio::sync::mpsc::{self, error};

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};
use super::super::send::Refused;

/// A wrapped [`tokio::sync::mpsc::Sender`].
pub struct Sender<T> {
    inner: mpsc::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`tokio::sync::mpsc::Receiver`].
pub struct Receiver<T> {
    inner: mpsc::Receiver<T>,
    meta: Rx,
}

/// A wrapped [`tokio::sync::mpsc::UnboundedSender`].
pub struct UnboundedSender<T> {
    inner: mpsc::UnboundedSender<T>,
    meta: Tx<T>,
}

/// A wrapped [`tokio::sync::mpsc::UnboundedReceiver`].
pub struct UnboundedReceiver<T> {
    inner: mpsc::UnboundedReceiver<T>,
    meta: Rx,
}

/// A wrapped [`tokio::sync::mpsc::Permit`]: counts the message it sends.
pub struct Permit<'a, T> {
    inner: mpsc::Permit<'a, T>,
    meta: &'a Tx<T>,
}

/// A wrapped [`tokio::sync::mpsc::OwnedPermit`].
pub struct OwnedPermit<T> {
    inner: mpsc::OwnedPermit<T>,
    meta: Tx<T>,
}

impl<T> InstrumentChannel for (mpsc::Sender<T>, mpsc::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let capacity = self.0.max_capacity();
        let (tx, rx) = open::<T>(at, "tokio::mpsc", Some(capacity), Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> InstrumentChannel for (mpsc::UnboundedSender<T>, mpsc::UnboundedReceiver<T>) {
    type Message = T;
    type Output = (UnboundedSender<T>, UnboundedReceiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "tokio::mpsc::unbounded", None, Flavor::Fifo);
        (UnboundedSender { inner: self.0, meta: tx }, UnboundedReceiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::mpsc::Sender::send`]; waiting for room counts as blocked.
    pub async fn send(&self, value: T) -> Result<(), error::SendError<T>> {
        let first = |value| self.try_first(value);
        self.meta.send_or_wait_async(value, first, |value| self.inner.send(value)).await
    }

    /// As [`tokio::sync::mpsc::Sender::try_send`].
    pub fn try_send(&self, value: T) -> Result<(), error::TrySendError<T>> {
        self.meta.send_now(value, |value| self.inner.try_send(value))
    }

    /// As [`tokio::sync::mpsc::Sender::blocking_send`].
    pub fn blocking_send(&self, value: T) -> Result<(), error::SendError<T>> {
        let first = |value| self.try_first(value);
        self.meta.send_or_wait(value, first, |value| self.inner.blocking_send(value))
    }

    /// `try_send`, its refusal seen as the core's.
    #[inline(always)]
    fn try_first(&self, value: T) -> Result<(), Refused<T, error::SendError<T>>> {
        self.inner.try_send(value).map_err(|error| match error {
            error::TrySendError::Full(value) => Refused::Full(value),
            error::TrySendError::Closed(value) => Refused::Failed(error::SendError(value)),
        })
    }

    /// As [`tokio::sync::mpsc::Sender::reserve`]; waiting for room counts as blocked.
    pub async fn reserve(&self) -> Result<Permit<'_, T>, error::SendError<()>> {
        let inner = match self.inner.try_reserve() {
            Ok(permit) => permit,
            Err(error::TrySendError::Closed(())) => return Err(error::SendError(())),
            Err(error::TrySendError::Full(())) => self.meta.blocked_async(self.inner.reserve()).await.0?,
        };
        Ok(Permit { inner, meta: &self.meta })
    }

    /// As [`tokio::sync::mpsc::Sender::try_reserve`].
    pub fn try_reserve(&self) -> Result<Permit<'_, T>, error::TrySendError<()>> {
        Ok(Permit { inner: self.inner.try_reserve()?, meta: &self.meta })
    }

    /// As [`tokio::sync::mpsc::Sender::reserve_owned`].
    pub async fn reserve_owned(self) -> Result<OwnedPermit<T>, error::SendError<()>> {
        let Self { inner, meta } = self;
        let inner = match inner.try_reserve_owned() {
            Ok(permit) => permit,
            Err(error::TrySendError::Closed(_)) => return Err(error::SendError(())),
            Err(error::TrySendError::Full(inner)) => meta.blocked_async(inner.reserve_owned()).await.0?,
        };
        Ok(OwnedPermit { inner, meta })
    }

    /// As [`tokio::sync::mpsc::Sender::try_reserve_owned`]; the error gives back this
    /// wrapped sender.
    pub fn try_reserve_owned(self) -> Result<OwnedPermit<T>, error::TrySendError<Self>> {
        let Self { inner, meta } = self;
        match inner.try_reserve_owned() {
            Ok(inner) => Ok(OwnedPermit { inner, meta }),
            Err(error::TrySendError::Full(inner)) => Err(error::TrySendError::Full(Self { inner, meta })),
            Err(error::TrySendError::Closed(inner)) => Err(error::TrySendError::Closed(Self { inner, meta })),
        }
    }
}

impl<T> Permit<'_, T> {
    /// As [`tokio::sync::mpsc::Permit::send`].
    pub fn send(self, value: T) {
        let Ok(()) = self.meta.send_now(value, |value| {
            self.inner.send(value);
            Ok::<_, Infallible>(())
        });
    }
}

impl<T> OwnedPermit<T> {
    /// As [`tokio::sync::mpsc::OwnedPermit::send`]: gives back the wrapped sender.
    pub fn send(self, value: T) -> Sender<T> {
        let Ok(inner) = self.meta.send_now(value, |value| Ok::<_, Infallible>(self.inner.send(value)));
        Sender { inner, meta: self.meta }
    }

    /// As [`tokio::sync::mpsc::OwnedPermit::release`].
    pub fn release(self) -> Sender<T> {
        Sender { inner: self.inner.release(), meta: self.meta }
    }
}

impl<T> UnboundedSender<T> {
    /// As [`tokio::sync::mpsc::UnboundedSender::send`].
    pub fn send(&self, value: T) -> Result<(), error::SendError<T>> {
        self.meta.send_now(value, |value| self.inner.send(value))
    }
}

/// The receiving methods, the same for bounded and unbounded receivers.
macro_rules! receiver {
    ($name:ident, $doc:literal) => {
        impl<T> $name<T> {
            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::recv`].")]
            pub async fn recv(&mut self) -> Option<T> {
                self.meta.receive(self.inner.recv().await)
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::try_recv`].")]
            pub fn try_recv(&mut self) -> Result<T, error::TryRecvError> {
                self.meta.receive(self.inner.try_recv())
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::blocking_recv`].")]
            pub fn blocking_recv(&mut self) -> Option<T> {
                self.meta.receive(self.inner.blocking_recv())
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::recv_many`].")]
            pub async fn recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
                self.meta.receive(self.inner.recv_many(buffer, limit).await)
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::blocking_recv_many`].")]
            pub fn blocking_recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
                self.meta.receive(self.inner.blocking_recv_many(buffer, limit))
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::poll_recv`].")]
            pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<T>> {
                self.meta.receive(self.inner.poll_recv(cx))
            }

            #[doc = concat!("As [`tokio::sync::mpsc::", $doc, "::poll_recv_many`].")]
            pub fn poll_recv_many(&mut self, cx: &mut Context<'_>, buffer: &mut Vec<T>, limit: usize) -> Poll<usize> {
                self.meta.receive(self.inner.poll_recv_many(cx, buffer, limit))
            }
        }

        wraps!($name => mpsc::$name<T>, mut);
    };
}

receiver!(Receiver, "Receiver");
receiver!(UnboundedReceiver, "UnboundedReceiver");

/// `Clone`, `Deref` and `Debug` of a sender.
macro_rules! sender {
    ($name:ident) => {
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                Self { inner: self.inner.clone(), meta: self.meta.clone() }
            }
        }

        wraps!($name => mpsc::$name<T>);
    };
}

sender!(Sender);
sender!(UnboundedSender);

impl<T> Sender<T> {
    /// As [`tokio::sync::mpsc::Sender::closed`]: waits until every receiver is gone.
    pub async fn closed(&self) {
        self.inner.closed().await
    }

    crate::reach::forward! { "tokio::sync::mpsc::Sender";
        fn is_closed(&self) -> bool;
        fn capacity(&self) -> usize;
        fn max_capacity(&self) -> usize;
        fn same_channel(&self, other: &Self) -> bool;
        fn strong_count(&self) -> usize;
        fn weak_count(&self) -> usize;
    }
}

impl<T> UnboundedSender<T> {
    /// As [`tokio::sync::mpsc::UnboundedSender::closed`]: waits until every receiver is gone.
    pub async fn closed(&self) {
        self.inner.closed().await
    }

    crate::reach::forward! { "tokio::sync::mpsc::UnboundedSender";
        fn is_closed(&self) -> bool;
        fn same_channel(&self, other: &Self) -> bool;
        fn strong_count(&self) -> usize;
        fn weak_count(&self) -> usize;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "tokio::sync::mpsc::Receiver";
        fn close(&mut self);
        fn is_closed(&self) -> bool;
        fn is_empty(&self) -> bool;
        fn len(&self) -> usize;
        fn capacity(&self) -> usize;
        fn max_capacity(&self) -> usize;
    }
}

impl<T> UnboundedReceiver<T> {
    crate::reach::forward! { "tokio::sync::mpsc::UnboundedReceiver";
        fn close(&mut self);
        fn is_closed(&self) -> bool;
        fn is_empty(&self) -> bool;
        fn len(&self) -> usize;
    }
}

impl<T> fmt::Debug for Permit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

impl<T> fmt::Debug for OwnedPermit<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
