//! The one send sequence every channel backend shares: note the message (`log = true`),
//! take the message's word (its tick, if its latency is timed: `stamp.rs`), send, count
//! the send and keep the note; a send that would wait tries
//! first and, only when the channel is full, times the waiting send as blocked. Each
//! backend maps its own methods and error types onto [`Tx::send_now`] (or
//! [`Tx::send_counted`]), [`Tx::send_or_wait`] and `Tx::send_or_wait_async`; a wait
//! that is not a send (tokio's `reserve`) is timed by `Tx::blocked_async` alone.

#[cfg(any(feature = "tokio", feature = "flume", feature = "async-channel"))]
use std::future::Future;

use super::handle::{Note, Tx};
use super::stamp::retick;
use crate::clock;

/// Why a first, non-waiting try did not send.
pub(crate) enum Refused<T, E> {
    /// No room: the message back, to send by waiting.
    Full(T),
    /// The channel cannot take it (closed, disconnected): the caller's error.
    Failed(E),
}

impl<T> Tx<T> {
    /// Before a send that may wait: the message's note and word.
    /// ([`Tx::send_counted`], the std `send` of the benchmarks, takes the two itself:
    /// through this pair, or a struct, the `channel` row of `scripts/bench icount` rose
    /// from 164 to 168 instructions.)
    #[inline(always)]
    fn begin(&self, message: &T) -> (Note, u64) {
        (self.note(message), self.send_word())
    }

    /// After a send that succeeded with `word`, delivering `deliveries` messages.
    #[inline(always)]
    fn done(&self, note: Note, word: u64, deliveries: u64) {
        self.on_send(word, deliveries);
        self.sent(note);
    }

    /// Runs `wait`, its whole duration counted as blocked: what it returned and the
    /// tick it ended.
    #[inline(always)]
    fn blocked<R>(&self, wait: impl FnOnce() -> R) -> (R, u64) {
        let start = clock::now();
        let returned = wait();
        (returned, self.waited(start))
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
        self.send_counted(message, send, |_| 1)
    }

    /// [`Tx::send_now`] for a send that delivers `deliveries(returned)` messages (a
    /// broadcast: one per receiver).
    #[inline(always)]
    pub(crate) fn send_counted<R, E>(
        &self,
        message: T,
        send: impl FnOnce(T) -> Result<R, E>,
        deliveries: impl FnOnce(&R) -> u64,
    ) -> Result<R, E> {
        let note = self.note(&message);
        let word = self.send_word();
        let returned = send(message)?;
        self.on_send(word, deliveries(&returned));
        self.sent(note);
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
        let (note, word) = self.begin(&message);
        let word = match try_send(message) {
            Ok(()) => word,
            Err(Refused::Failed(error)) => return Err(error),
            Err(Refused::Full(message)) => {
                let (result, end) = self.blocked(|| wait(message));
                result?;
                retick(word, end)
            }
        };
        self.done(note, word, 1);
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
        let (note, word) = self.begin(&message);
        let word = match try_send(message) {
            Ok(()) => word,
            Err(Refused::Failed(error)) => return Err(error),
            Err(Refused::Full(message)) => {
                let (result, end) = self.blocked_async(wait(message)).await;
                result?;
                retick(word, end)
            }
        };
        self.done(note, word, 1);
        Ok(())
    }

    /// As [`Tx::blocked`], awaiting `wait`: its output and the tick it ended.
    #[cfg(any(feature = "tokio", feature = "flume", feature = "async-channel"))]
    #[inline(always)]
    pub(crate) async fn blocked_async<F: Future>(&self, wait: F) -> (F::Output, u64) {
        let start = clock::now();
        let returned = wait.await;
        (returned, self.waited(start))
    }
}
