//! The one receive sequence every channel backend shares: receive with the backend's
//! own call, then count what came. Each backend passes what its call returned through
//! [`Rx::receive`]; [`Received`] says, for each shape a receive returns, how many
//! messages it holds.

use std::task::Poll;

use super::handle::Rx;

/// What a receiving call returns, and how many messages that is.
pub(crate) trait Received {
    /// Counts the messages received on `rx`.
    fn count_on(&self, rx: &Rx);
}

/// `Ok` holds one message (`recv`, `try_recv`, a oneshot's result, watch `changed`).
/// The `Ok` value must be the message itself: an API returning `Result<Option<T>, E>`
/// (a `try_next`) is unwrapped by its backend before it gets here.
impl<M, E> Received for Result<M, E> {
    #[inline(always)]
    fn count_on(&self, rx: &Rx) {
        if self.is_ok() {
            rx.on_receive(None);
        }
    }
}

/// `Some` holds one message (tokio's `recv`; `None` is a closed channel).
impl<M> Received for Option<M> {
    #[inline(always)]
    fn count_on(&self, rx: &Rx) {
        if self.is_some() {
            rx.on_receive(None);
        }
    }
}

/// A number of messages received at once (`recv_many`, `drain`).
impl Received for usize {
    #[inline(always)]
    fn count_on(&self, rx: &Rx) {
        (0..*self).for_each(|_| rx.on_receive(None));
    }
}

/// A poll: what is ready, counted as above.
impl<R: Received> Received for Poll<R> {
    #[inline(always)]
    fn count_on(&self, rx: &Rx) {
        if let Poll::Ready(ready) = self {
            ready.count_on(rx);
        }
    }
}

impl Rx {
    /// Counts what a receiving call returned and hands it back unchanged.
    #[inline(always)]
    pub(crate) fn receive<R: Received>(&self, received: R) -> R {
        received.count_on(self);
        received
    }
}
