//! `tokio::sync::broadcast`: every receiver gets every message sent while it exists.
//!
//! A message counts once in `sent` and once per receiver in the queue (the count `send`
//! returns), so the queue is the number of pending deliveries. Each wrapped receiver
//! keeps the sequence number of its next message to pair latencies; a lagged receiver's
//! skipped messages and a dropped receiver's backlog leave the queue unreceived.

use ::tokio::sync::broadcast::{self, error};

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};

/// A wrapped [`tokio::sync::broadcast::Sender`].
pub struct Sender<T> {
    inner: broadcast::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`tokio::sync::broadcast::Receiver`].
pub struct Receiver<T> {
    inner: broadcast::Receiver<T>,
    meta: Rx,
    /// Sequence number of the next message this receiver gets.
    next: u64,
}

impl<T> InstrumentChannel for (broadcast::Sender<T>, broadcast::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "tokio::broadcast", None, Flavor::Broadcast);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx, next: 0 })
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::broadcast::Sender::send`].
    pub fn send(&self, value: T) -> Result<usize, error::SendError<T>> {
        self.meta.send_counted(value, |value| self.inner.send(value), |&receivers| receivers as u64)
    }

    /// As [`tokio::sync::broadcast::Sender::subscribe`].
    pub fn subscribe(&self) -> Receiver<T> {
        let meta = self.meta.subscribe();
        let next = meta.sent();
        Receiver { inner: self.inner.subscribe(), meta, next }
    }
}

impl<T> Receiver<T> {
    fn received(&mut self) {
        self.meta.on_receive(Some(self.next));
        self.next += 1;
    }

    fn lagged(&mut self, skipped: u64) {
        self.meta.on_discard(skipped);
        self.next += skipped;
    }
}

impl<T: Clone> Receiver<T> {
    fn count(&mut self, result: &Result<T, error::RecvError>) {
        match result {
            Ok(_) => self.received(),
            Err(error::RecvError::Lagged(n)) => self.lagged(*n),
            Err(error::RecvError::Closed) => {}
        }
    }

    /// As [`tokio::sync::broadcast::Receiver::recv`].
    pub async fn recv(&mut self) -> Result<T, error::RecvError> {
        let result = self.inner.recv().await;
        self.count(&result);
        result
    }

    /// As [`tokio::sync::broadcast::Receiver::blocking_recv`].
    pub fn blocking_recv(&mut self) -> Result<T, error::RecvError> {
        let result = self.inner.blocking_recv();
        self.count(&result);
        result
    }

    /// As [`tokio::sync::broadcast::Receiver::try_recv`].
    pub fn try_recv(&mut self) -> Result<T, error::TryRecvError> {
        let result = self.inner.try_recv();
        match &result {
            Ok(_) => self.received(),
            Err(error::TryRecvError::Lagged(n)) => self.lagged(*n),
            Err(_) => {}
        }
        result
    }

    /// As [`tokio::sync::broadcast::Receiver::resubscribe`].
    pub fn resubscribe(&self) -> Self {
        let meta = self.meta.another();
        let next = meta.sent();
        Self { inner: self.inner.resubscribe(), meta, next }
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        // Messages this receiver will never get leave the queue with it.
        self.meta.on_discard(self.inner.len() as u64);
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.clone() }
    }
}

impl<T> Sender<T> {
    crate::reach::forward! { "tokio::sync::broadcast::Sender";
        fn len(&self) -> usize;
        fn is_empty(&self) -> bool;
        fn receiver_count(&self) -> usize;
        fn same_channel(&self, other: &Self) -> bool;
        fn strong_count(&self) -> usize;
        fn weak_count(&self) -> usize;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "tokio::sync::broadcast::Receiver";
        fn len(&self) -> usize;
        fn is_empty(&self) -> bool;
        fn is_closed(&self) -> bool;
        fn same_channel(&self, other: &Self) -> bool;
    }
}

wraps!(Sender => broadcast::Sender<T>);

wraps!(Receiver => broadcast::Receiver<T>);
