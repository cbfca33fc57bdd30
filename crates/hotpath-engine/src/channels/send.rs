//! The one send sequence every channel backend shares: note the message (`log = true`),
//! take the tick, send; a send that would wait tries first and, only when the channel
//! is full, times the waiting send as blocked. Each backend maps its own methods and
//! error types onto [`Tx::send_now`], [`Tx::send_or_wait`] and [`Tx::send_or_wait_async`].

#[cfg(any(feature = "tokio", feature = "flume", feature = "async-channel"))]
use std::future::Future;

use super::handle::{Note, Tx};
use crate::clock;

/// Why a first, non-waiting try did not send.
pub(crate) enum Refused<T, E> {
    /// No room: the message back, to send by waiting.
    Full(T),
    /// The channel cannot take it (closed, disconnected): the caller's error.
    Failed(E),
}

/// A send in progress: the message's note and the tick taken before it was sent.
struct Sending {
    note: Note,
    tick: u64,
}

impl<T> Tx<T> {
    #[inline(always)]
    fn begin(&self, message: &T) -> Sending {
        Sending { note: self.note(message), tick: clock::now() }
    }

    #[inline(always)]
    fn done(&self, sending: Sending, tick: u64) {
        self.on_send(tick, 1);
        self.sent(sending.note);
    }

    /// The blocked time of a wait that started at `start`; the tick it ended.
    #[inline(always)]
    fn waited(&self, start: u64) -> u64 {
        let end = clock::now();
        self.on_blocked(end.saturating_sub(start));
        end
    }

    /// A send that does not wait (`try_send`, an unbounded or a std `send`): counted
    /// when `send` succeeds, with what it returns.
    #[inline(always)]
    pub(crate) fn send_now<R, E>(&self, message: T, send: impl FnOnce(T) -> Result<R, E>) -> Result<R, E> {
        let sending = self.begin(&message);
        let returned = send(message)?;
        let tick = sending.tick;
        self.done(sending, tick);
        Ok(returned)
    }

    /// A send that may wait: `try_send` first; when it finds the channel full, `wait`
    /// sends (blocking) and its whole duration counts as blocked, sent or not.
    #[inline(always)]
    pub(crate) fn send_or_wait<E>(
        &self,
        message: T,
        try_send: impl FnOnce(T) -> Result<(), Refused<T, E>>,
        wait: impl FnOnce(T) -> Result<(), E>,
    ) -> Result<(), E> {
        let sending = self.begin(&message);
        let tick = match try_send(message) {
            Ok(()) => sending.tick,
            Err(Refused::Failed(error)) => return Err(error),
            Err(Refused::Full(message)) => {
                let start = clock::now();
                let result = wait(message);
                let end = self.waited(start);
                result?;
                end
            }
        };
        self.done(sending, tick);
        Ok(())
    }

    /// As [`Tx::send_or_wait`], for an async send: `wait` returns the send's future.
    #[cfg(any(feature = "tokio", feature = "flume", feature = "async-channel"))]
    #[inline(always)]
    pub(crate) async fn send_or_wait_async<E, F>(
        &self,
        message: T,
        try_send: impl FnOnce(T) -> Result<(), Refused<T, E>>,
        wait: impl FnOnce(T) -> F,
    ) -> Result<(), E>
    where
        F: Future<Output = Result<(), E>>,
    {
        let sending = self.begin(&message);
        let tick = match try_send(message) {
            Ok(()) => sending.tick,
            Err(Refused::Failed(error)) => return Err(error),
            Err(Refused::Full(message)) => {
                let start = clock::now();
                let result = wait(message).await;
                let end = self.waited(start);
                result?;
                end
            }
        };
        self.done(sending, tick);
        Ok(())
    }
}
