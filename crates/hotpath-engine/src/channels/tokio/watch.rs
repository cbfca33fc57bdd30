//! `tokio::sync::watch`: one value, replaced by each send. Receivers see the latest
//! value, so there is no queue (shown as 0); a receive is a `changed()` (or `wait_for`)
//! that returned, and its latency runs from the latest send to it.

use std::convert::Infallible;

use ::tokio::sync::watch::{self, error};

use super::super::handle::{open, Rx, Tx};
use super::super::instance::Flavor;
use super::super::instrument::{InstrumentChannel, Wrapping};

/// A wrapped [`tokio::sync::watch::Sender`].
pub struct Sender<T> {
    inner: watch::Sender<T>,
    meta: Tx<T>,
}

/// A wrapped [`tokio::sync::watch::Receiver`].
pub struct Receiver<T> {
    inner: watch::Receiver<T>,
    meta: Rx,
}

impl<T> InstrumentChannel for (watch::Sender<T>, watch::Receiver<T>) {
    type Message = T;
    type Output = (Sender<T>, Receiver<T>);
    fn instrument(self, at: Wrapping<'_, T>) -> Self::Output {
        let (tx, rx) = open::<T>(at, "tokio::watch", Some(1), Flavor::Watch);
        (Sender { inner: self.0, meta: tx }, Receiver { inner: self.1, meta: rx })
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::watch::Sender::send`].
    pub fn send(&self, value: T) -> Result<(), error::SendError<T>> {
        self.meta.send_now(value, |value| self.inner.send(value))
    }

    /// As [`tokio::sync::watch::Sender::send_replace`].
    pub fn send_replace(&self, value: T) -> T {
        let Ok(old) = self.meta.send_now(value, |value| Ok::<_, Infallible>(self.inner.send_replace(value)));
        old
    }

    /// As [`tokio::sync::watch::Sender::send_modify`].
    pub fn send_modify<F: FnOnce(&mut T)>(&self, modify: F) {
        let word = self.meta.send_word();
        self.inner.send_modify(modify);
        self.meta.on_send(word, 1);
    }

    /// As [`tokio::sync::watch::Sender::send_if_modified`]; counts a send when it notified.
    pub fn send_if_modified<F: FnOnce(&mut T) -> bool>(&self, modify: F) -> bool {
        let word = self.meta.send_word();
        let modified = self.inner.send_if_modified(modify);
        if modified {
            self.meta.on_send(word, 1);
        }
        modified
    }

    /// As [`tokio::sync::watch::Sender::subscribe`].
    pub fn subscribe(&self) -> Receiver<T> {
        Receiver { inner: self.inner.subscribe(), meta: self.meta.subscribe() }
    }
}

impl<T> Receiver<T> {
    /// As [`tokio::sync::watch::Receiver::changed`].
    pub async fn changed(&mut self) -> Result<(), error::RecvError> {
        self.meta.receive(self.inner.changed().await)
    }

    /// As [`tokio::sync::watch::Receiver::wait_for`].
    pub async fn wait_for(&mut self, f: impl FnMut(&T) -> bool) -> Result<watch::Ref<'_, T>, error::RecvError> {
        self.meta.receive(self.inner.wait_for(f).await)
    }
}

impl<T> Clone for Receiver<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone(), meta: self.meta.another() }
    }
}

impl<T> Sender<T> {
    /// As [`tokio::sync::watch::Sender::closed`]: waits until every receiver is gone.
    pub async fn closed(&self) {
        self.inner.closed().await
    }

    crate::reach::forward! { "tokio::sync::watch::Sender";
        fn borrow(&self) -> watch::Ref<'_, T>;
        fn is_closed(&self) -> bool;
        fn receiver_count(&self) -> usize;
        fn same_channel(&self, other: &Self) -> bool;
    }
}

impl<T> Receiver<T> {
    crate::reach::forward! { "tokio::sync::watch::Receiver";
        fn borrow(&self) -> watch::Ref<'_, T>;
        fn borrow_and_update(&mut self) -> watch::Ref<'_, T>;
        fn has_changed(&self) -> Result<bool, error::RecvError>;
        fn is_closed(&self) -> bool;
        fn mark_changed(&mut self);
        fn mark_unchanged(&mut self);
        fn same_channel(&self, other: &Self) -> bool;
    }
}

wraps!(Sender => watch::Sender<T>);

wraps!(Receiver => watch::Receiver<T>, mut);
