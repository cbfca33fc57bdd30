//! `futures::channel::mpsc`: bounded `channel(n)` and `unbounded()`. Senders are `Sink`s
//! and receivers `Stream`s, as the originals. A bounded sender that is not ready (its
//! `poll_ready` returned `Pending`) is blocked until it becomes ready again.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_channel::mpsc::{self, SendError, TryRecvError, TrySendError};
use futures_core::{FusedStream, Stream};
use futures_sink::Sink;

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};
use crate::clock;

/// A wrapped [`futures::channel::mpsc::Sender`](futures_channel::mpsc::Sender).
pub struct Sender<T> {
    inner: mpsc::Sender<T>,
    meta: Tx<T>,
    /// Tick of the first `Pending` from `poll_ready` while waiting for room (0: not waiting).
    blocked_since: u64,
}

/// A wrapped [`futures::channel::mpsc::Receiver`](futures_channel::mpsc::Receiver).
pub struct Receiver<T> {
    inner: mpsc::Receiver<T>,
    meta: Rx,
}

/// A wrapped [`futures::channel::mpsc::UnboundedSender`](futures_channel::mpsc::UnboundedSender).
pub struct UnboundedSender<T> {
    inner: mpsc::UnboundedSender<T>,
    meta: Tx<T>,
}

/// A wrapped [`futures::channel::mpsc::UnboundedReceiver`](futures_channel::mpsc::UnboundedReceiver).
pub struct UnboundedReceiver<T> {
    inner: mpsc::UnboundedReceiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (mpsc::Sender<T>, mpsc::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        // The bound (buffer plus one slot per sender) is not exposed: the largest ring.
        let (tx, rx) = open::<T>(at, "futures::mpsc", None, Flavor::Fifo);
        (Sender { inner: self.0, meta: tx, blocked_since: 0 }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> InstrumentChannel for (mpsc::UnboundedSender<T>, mpsc::UnboundedReceiver<T>) {
    type Message = T;
    type Output = (UnboundedSender<T>, UnboundedReceiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "futures::mpsc::unbounded", None, Flavor::Fifo);
        (UnboundedSender { inner: self.0, meta: tx }, UnboundedReceiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As `futures::channel::mpsc::Sender::try_send`.
    pub fn try_send(&mut self, msg: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(msg, |msg| self.inner.try_send(msg))
    }

    /// As `futures::channel::mpsc::Sender::poll_ready`; the time between a `Pending` and
    /// the next `Ready` counts as blocked.
    pub fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        let polled = self.inner.poll_ready(cx);
        match (&polled, self.blocked_since) {
            (Poll::Pending, 0) => self.blocked_since = clock::now().max(1),
            (Poll::Ready(_), since) if since != 0 => {
                self.meta.on_blocked(clock::now().saturating_sub(since));
                self.blocked_since = 0;
            }
            _ => {}
        }
        polled
    }

    /// As `futures::channel::mpsc::Sender::start_send`.
    pub fn start_send(&mut self, msg: T) -> Result<(), SendError> {
        self.meta.send_now(msg, |msg| self.inner.start_send(msg))
    }
}

impl<T> Sink<T> for Sender<T> {
    type Error = SendError;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Sender::poll_ready(self.get_mut(), cx)
    }

    fn start_send(self: Pin<&mut Self>, msg: T) -> Result<(), SendError> {
        Sender::start_send(self.get_mut(), msg)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Pin::new(&mut self.get_mut().inner).poll_close(cx)
    }
}

impl<T> UnboundedSender<T> {
    /// As `futures::channel::mpsc::UnboundedSender::unbounded_send`.
    pub fn unbounded_send(&self, msg: T) -> Result<(), TrySendError<T>> {
        self.meta.send_now(msg, |msg| self.inner.unbounded_send(msg))
    }

    /// As `futures::channel::mpsc::UnboundedSender::start_send`.
    pub fn start_send(&mut self, msg: T) -> Result<(), SendError> {
        self.meta.send_now(msg, |msg| self.inner.start_send(msg))
    }
}

impl<T> Sink<T> for UnboundedSender<T> {
    type Error = SendError;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Pin::new(&mut self.get_mut().inner).poll_ready(cx)
    }

    fn start_send(self: Pin<&mut Self>, msg: T) -> Result<(), SendError> {
        UnboundedSender::start_send(self.get_mut(), msg)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), SendError>> {
        Pin::new(&mut self.get_mut().inner).poll_close(cx)
    }
}

/// `try_recv`, `Stream`, `Deref` and `Debug` of a receiver.
macro_rules! receiver {
    ($name:ident) => {
        impl<T> $name<T> {
            /// As the wrapped receiver's `try_recv`.
            pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
                self.meta.receive(self.inner.try_recv())
            }
        }

        impl<T> Stream for $name<T> {
            type Item = T;

            fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
                let this = self.get_mut();
                this.meta.receive(Pin::new(&mut this.inner).poll_next(cx))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.inner.size_hint()
            }
        }

        impl<T> FusedStream for $name<T> {
            fn is_terminated(&self) -> bool {
                self.inner.is_terminated()
            }
        }

        wraps!($name => mpsc::$name<T>, mut);
    };
}

receiver!(Receiver);
receiver!(UnboundedReceiver);

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone(), blocked_since: 0 }
    }
}

impl<T> Clone for UnboundedSender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone() }
    }
}

wraps!(Sender => mpsc::Sender<T>, mut);

wraps!(UnboundedSender => mpsc::UnboundedSender<T>);

impl<T> Sender<T> {
    crate::reach::forward! { "futures_channel::mpsc::Sender";
        fn is_closed(&self) -> bool;
        fn close_channel(&mut self);
        fn disconnect(&mut self);
        fn same_receiver(&self, other: &Self) -> bool;
    }
}

impl<T> UnboundedSender<T> {
    crate::reach::forward! { "futures_channel::mpsc::UnboundedSender";
        fn is_closed(&self) -> bool;
        fn close_channel(&self);
        fn disconnect(&mut self);
        fn same_receiver(&self, other: &Self) -> bool;
        fn len(&self) -> usize;
        fn is_empty(&self) -> bool;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "futures_channel::mpsc::Receiver";
        fn close(&mut self);
    }
}

impl<T> UnboundedReceiver<T> {
    crate::reach::forward! { "futures_channel::mpsc::UnboundedReceiver";
        fn close(&mut self);
    }
}
