//! The `streams` section: `stream!` sites, their instances and the items they yielded.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::DurationStats;

/// Every `stream!` site (or instance, with `iter = true`) that was created.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Streams {
    /// Rows before the focus filter and the row limit.
    pub total_streams: usize,
    /// Rows after focus and limit, sorted by items yielded, most first.
    pub rows: Vec<StreamRow>,
}

/// One `stream!` site and item type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StreamRow {
    /// The label or `file:line`; `label-2`, `label-3`, ... for further instances with `iter = true`.
    pub name: String,
    /// Source file of the macro.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Type of the items.
    pub item_type: String,
    /// Streams wrapped at this site.
    pub instances: u64,
    /// Of those, polled at least once and neither finished nor dropped yet.
    pub active: u64,
    /// Finished: returned `None`.
    pub completed: u64,
    /// Dropped after their first poll and before returning `None`.
    pub cancelled: u64,
    /// Items yielded.
    pub items: u64,
    /// Lifetimes summed over instances: first poll to end (or to now while active).
    pub lifetime_ns: u64,
    /// `items / lifetime`: items per second of a stream's life. For concurrent instances
    /// it is the rate of one instance; times `active` bounds the site's throughput.
    pub items_per_sec: f64,
    /// Time per item, averaged over windows of 32 items (a window also ends with its
    /// stream); `count` is the number of windows.
    pub item_interval: DurationStats,
}
