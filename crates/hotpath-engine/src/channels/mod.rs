//! Channels: `channel!` wraps both halves of a channel it is given.
//!
//! - `instrument`: the [`InstrumentChannel`] trait `channel!` dispatches on, one
//!   implementation per backend's `(sender, receiver)` pair.
//! - `entry`: one row per site and message type, live instances plus retired totals.
//! - `instance`: counters shared by the halves of one channel.
//! - `handle`: what each wrapped half holds; tracks which halves are alive and hands
//!   the instance back to its entry when the last is gone.
//! - `send`, `receive`: the one send and the one receive sequence; each backend only
//!   maps its own calls onto them.
//! - `ring`: send ticks matched to receives in FIFO order, for latency; `stamp`:
//!   which messages' latencies are timed, decided at the send.
//! - `slow`: the slow-consumer rule, sampled by the channel's own operations.
//! - one file per backend: `std` always; `tokio_*` (`tokio`), `futures_*` (`futures`),
//!   `crossbeam`, `flume`, `async_channel` behind their features.
//! - `section`: the `channels` section.
//!
//! Wrapping never rebuilds a channel: the wrappers hold the halves that were passed in
//! and call the same methods, so capacity, backpressure and errors are unchanged.

/// `Deref` (and `DerefMut` with `mut`) to the backend's half a wrapper holds in
/// its `inner` field, and `Debug` as that half: the wrappers are the backend's
/// types with counters beside them. Defined before the backend modules that use it.
/// The wrappers define the backend's common non-messaging methods (`len`, `capacity`,
/// `is_closed`, `same_channel`), so a deref is code reaching the backend's half,
/// whose operations go unmeasured: counted in the entry (`crate::reach`).
macro_rules! wraps {
    ($wrapper:ident => $inner:ty $(, $mutable:ident)?) => {
        impl<T> ::std::ops::Deref for $wrapper<T> {
            type Target = $inner;
            fn deref(&self) -> &$inner {
                self.meta.deref_hit();
                &self.inner
            }
        }

        $(wraps!(@$mutable $wrapper);)?

        impl<T> ::std::fmt::Debug for $wrapper<T>
        where
            $inner: ::std::fmt::Debug,
        {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                self.inner.fmt(f)
            }
        }
    };
    (@mut $wrapper:ident) => {
        impl<T> ::std::ops::DerefMut for $wrapper<T> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                self.meta.deref_hit();
                &mut self.inner
            }
        }
    };
}

/// A receiver's blocking iterators: `IntoIter` (documented as `$into`) and the two
/// `IntoIterator` impls, each item a `recv()` (counted there); with `$iter` and `$try`
/// also `iter()`'s `Iter` and `try_iter()`'s `TryIter` (a `try_recv()` each).
macro_rules! receiver_iters {
    ($into:literal $(, $iter:literal, $try:literal)?) => {
        $(
            #[doc = $iter]
            #[derive(Debug)]
            pub struct Iter<'a, T> {
                rx: &'a Receiver<T>,
            }

            #[doc = $try]
            #[derive(Debug)]
            pub struct TryIter<'a, T> {
                rx: &'a Receiver<T>,
            }

            impl<T> Iterator for Iter<'_, T> {
                type Item = T;
                fn next(&mut self) -> Option<T> {
                    self.rx.recv().ok()
                }
            }

            impl<T> Iterator for TryIter<'_, T> {
                type Item = T;
                fn next(&mut self) -> Option<T> {
                    self.rx.try_recv().ok()
                }
            }
        )?

        #[doc = $into]
        #[derive(Debug)]
        pub struct IntoIter<T> {
            rx: Receiver<T>,
        }

        impl<T> Iterator for IntoIter<T> {
            type Item = T;
            fn next(&mut self) -> Option<T> {
                self.rx.recv().ok()
            }
        }

        impl<'a, T> IntoIterator for &'a Receiver<T> {
            type Item = T;
            type IntoIter = Iter<'a, T>;
            fn into_iter(self) -> Iter<'a, T> {
                self.iter()
            }
        }

        impl<T> IntoIterator for Receiver<T> {
            type Item = T;
            type IntoIter = IntoIter<T>;
            fn into_iter(self) -> IntoIter<T> {
                IntoIter { rx: self }
            }
        }
    };
}

#[cfg(feature = "async-channel")]
pub mod async_channel;
#[cfg(feature = "crossbeam")]
pub mod crossbeam;
mod entry;
#[cfg(feature = "flume")]
pub mod flume;
#[cfg(feature = "futures")]
pub mod futures;
mod handle;
mod instance;
mod instrument;
mod receive;
mod ring;
mod section;
mod send;
mod slow;
mod stamp;
pub mod std;
#[cfg(feature = "tokio")]
pub mod tokio;

pub use entry::{ChannelEntry, ChannelSite};
pub use instrument::{channel, channel_logged, InstrumentChannel, Wrapping};
pub(crate) use section::section;
