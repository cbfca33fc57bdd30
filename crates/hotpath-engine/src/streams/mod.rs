//! Streams: `stream!` wraps a `futures_core::Stream`.
//!
//! - `entry`: one row per site and item type; instance lifecycle counters.
//! - `stream`: [`MeasuredStream`], counting items in windows handed to the polling
//!   thread's cell of the entry's metric.
//! - `section`: the `streams` section.

mod entry;
mod section;
mod stream;

pub use entry::{StreamEntry, StreamSite};
pub(crate) use section::section;
pub use stream::{stream, MeasuredStream};
