//! Streams: `stream!` wraps a `futures_core::Stream`.
//!
//! - `entry`: one row per site and item type; instance lifecycle counters.
//! - `stream`: [`MeasuredStream`], counting items in windows handed to the polling
//!   thread's cell of the entry's metric.
//! - `logged`: [`LoggedStream`], `stream!(.., log = true)`: keeps the last items.
//! - `section`: the `streams` section.

mod entry;
mod logged;
mod section;
mod stream;

pub use entry::{StreamEntry, StreamSite};
pub use logged::{stream_logged, LoggedStream};
pub(crate) use section::section;
pub use stream::{stream, MeasuredStream};
