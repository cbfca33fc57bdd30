//! Channels: `channel!` wraps both halves of a channel it is given.
//!
//! - `instrument`: the [`InstrumentChannel`] trait `channel!` dispatches on, one
//!   implementation per backend's `(sender, receiver)` pair.
//! - `entry`: one row per site and message type, live instances plus retired totals.
//! - `instance`: counters shared by the halves of one channel, and the handles that
//!   track which halves are alive.
//! - `ring`: send ticks matched to receives in FIFO order, for latency.
//! - `slow`: the slow-consumer rule, sampled by the channel's own operations.
//! - one file per backend: `std` always; `tokio_*` (`tokio`), `futures_*` (`futures`),
//!   `crossbeam`, `flume`, `async_channel` behind their features.
//! - `section`: the `channels` section.
//!
//! Wrapping never rebuilds a channel: the wrappers hold the halves that were passed in
//! and call the same methods, so capacity, backpressure and errors are unchanged.

#[cfg(feature = "async-channel")]
pub mod async_channel;
#[cfg(feature = "crossbeam")]
pub mod crossbeam;
mod entry;
#[cfg(feature = "flume")]
pub mod flume;
#[cfg(feature = "futures")]
pub mod futures;
mod instance;
mod instrument;
mod ring;
mod section;
mod slow;
pub mod std;
#[cfg(feature = "tokio")]
pub mod tokio;

pub use instrument::{channel, InstrumentChannel};
pub(crate) use section::section;
