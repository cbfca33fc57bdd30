//! The `futures` section: `future!` sites and measured async functions, per poll and
//! per call (first poll to ready).

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::DurationStats;

/// Every `future!` site and `#[measure]`d async function that was polled.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Futures {
    /// Futures polled at least once, before the focus filter and the row limit.
    pub total_futures: usize,
    /// Rows after focus and limit, sorted by total wall time, largest first.
    pub rows: Vec<FutureRow>,
}

/// One `future!` site or async function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FutureRow {
    /// The label, the async function's path, or `file:line` of an unlabelled `future!`.
    pub name: String,
    /// Source file of the macro or annotated function.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `future` (a `future!` site) or `async_fn` (`#[measure]` on an async fn or an awaiting block).
    pub kind: String,
    /// Calls that completed (returned `Ready`).
    pub calls: u64,
    /// Under time sampling, the completed calls whose polls and wall time were
    /// measured (the rest are counted only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_calls: Option<u64>,
    /// Calls dropped after their first poll and before `Ready`.
    pub cancelled: u64,
    /// Polls of all calls, cancelled ones included.
    pub polls: u64,
    /// Time spent inside those polls.
    pub busy_ns: u64,
    /// Wall time of completed calls, first poll to `Ready` (waiting included).
    pub wall: DurationStats,
    /// Mean bytes allocated per completed call, all polls summed (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc_bytes_avg: Option<u64>,
    /// Mean allocations per completed call (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocs_avg: Option<u64>,
}
