//! `tokio::sync::oneshot`: one message, latency from `send` to the receiver's `Ready`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use ::tokio::sync::oneshot::{self, error};

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};

/// A wrapped [`tokio::sync::oneshot::Sender`].
pub struct Sender<T> {
    inner: oneshot::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`tokio::sync::oneshot::Receiver`]; a future like the original.
pub struct Receiver<T> {
    inner: oneshot::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (oneshot::Sender<T>, oneshot::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "tokio::oneshot", Some(1), Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::oneshot::Sender::send`].
    pub fn send(self, value: T) -> Result<(), T> {
        self.meta.send_now(value, |value| self.inner.send(value))
    }
}

impl<T> Receiver<T> {
    /// As [`tokio::sync::oneshot::Receiver::try_recv`].
    pub fn try_recv(&mut self) -> Result<T, error::TryRecvError> {
        self.meta.receive(self.inner.try_recv())
    }

    /// As [`tokio::sync::oneshot::Receiver::blocking_recv`].
    pub fn blocking_recv(self) -> Result<T, error::RecvError> {
        self.meta.receive(self.inner.blocking_recv())
    }
}

impl<T> Future for Receiver<T> {
    type Output = Result<T, error::RecvError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        this.meta.receive(Pin::new(&mut this.inner).poll(cx))
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::oneshot::Sender::closed`]: waits until the receiver is gone.
    pub async fn closed(&mut self) {
        self.inner.closed().await
    }

    crate::reach::forward! { "tokio::sync::oneshot::Sender";
        fn is_closed(&self) -> bool;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "tokio::sync::oneshot::Receiver";
        fn close(&mut self);
    }
}

wraps!(Sender => oneshot::Sender<T>, mut);

wraps!(Receiver => oneshot::Receiver<T>, mut);
