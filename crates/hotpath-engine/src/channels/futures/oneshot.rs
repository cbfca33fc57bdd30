//! `futures::channel::oneshot`: one message; the receiver is a future.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_channel::oneshot::{self, Canceled};

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};

/// A wrapped [`futures::channel::oneshot::Sender`](futures_channel::oneshot::Sender).
pub struct Sender<T> {
    inner: oneshot::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`futures::channel::oneshot::Receiver`](futures_channel::oneshot::Receiver).
pub struct Receiver<T> {
    inner: oneshot::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (oneshot::Sender<T>, oneshot::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "futures::oneshot", Some(1), Flavor::Fifo);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As `futures::channel::oneshot::Sender::send`.
    pub fn send(self, value: T) -> Result<(), T> {
        self.meta.send_now(value, |value| self.inner.send(value))
    }
}

impl<T> Receiver<T> {
    /// As `futures::channel::oneshot::Receiver::try_recv`.
    pub fn try_recv(&mut self) -> Result<Option<T>, Canceled> {
        // `Ok(None)`: nothing sent yet, nothing received.
        Ok(self.meta.receive(self.inner.try_recv()?))
    }
}

impl<T> Future for Receiver<T> {
    type Output = Result<T, Canceled>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        this.meta.receive(Pin::new(&mut this.inner).poll(cx))
    }
}

impl<T> Sender<T> {
    crate::reach::forward! { "futures_channel::oneshot::Sender";
        fn is_canceled(&self) -> bool;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "futures_channel::oneshot::Receiver";
        fn close(&mut self);
    }
}

wraps!(Sender => oneshot::Sender<T>, mut);

wraps!(Receiver => oneshot::Receiver<T>, mut);
