//! The `functions-timing` section: per measured function, call counts and durations.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::buckets::Buckets;
use crate::percentiles::Percentiles;

/// Timing of every measured function and block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionsTiming {
    /// Functions with at least one call, before the focus filter and the row limit.
    pub total_functions: usize,
    /// Rows after focus and limit, sorted by total time, largest first.
    pub rows: Vec<FunctionTiming>,
}

/// One measured function (or `measure_block!` label).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionTiming {
    /// Display name: the label, or the function's module path.
    pub name: String,
    /// Source file of the annotated item.
    pub file: String,
    /// Source line of the annotated item.
    pub line: u32,
    /// True for async functions and awaiting blocks, whose durations span first poll to ready.
    pub is_async: bool,
    /// Completed calls.
    pub calls: u64,
    /// Under time sampling, the calls whose duration was measured: Avg and the
    /// percentiles come from them, Total and Self are scaled up to `calls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_calls: Option<u64>,
    /// Calls running at the time of the report: on a thread's stack, or async and polled
    /// but not ended. A long-running loop shows here before it completes a call.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub active: u64,
    /// Age of the oldest running sync call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oldest_active_ns: Option<u64>,
    /// Async calls dropped before completing (not part of the durations).
    pub cancelled: u64,
    /// Async only: times the future was polled (0 for sync functions).
    pub polls: u64,
    /// Async only: time spent inside polls, nested measured calls included (0 for sync).
    pub busy_ns: u64,
    /// Inclusive time of outermost calls: a recursive call inside another call
    /// of the same function is not counted twice.
    pub total_ns: u64,
    /// Exclusive time: inclusive time minus time in nested measured calls; for async
    /// functions only the time spent being polled.
    pub self_ns: u64,
    /// Mean inclusive duration of one call.
    pub avg_ns: u64,
    /// Shortest call.
    pub min_ns: u64,
    /// Longest call.
    pub max_ns: u64,
    /// Configured percentiles of the per-call inclusive duration.
    pub percentiles_ns: Percentiles,
    /// Under the overhead budget, when some calls were not timed (or nested calls
    /// were not): the rate and 95% intervals of the estimated figures. Boxed: most rows
    /// have none, and a report of many rows would carry its size in each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Box<crate::Estimate>>,
    /// Per-call durations in fixed buckets (live snapshots only, not in JSON).
    #[serde(skip)]
    pub buckets: Option<Buckets>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
