//! The `io` section: byte-level I/O through `io!` wrappers, one row per call site
//! and concrete type (or per instance with `iter = true`).

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::buckets::Buckets;
use crate::percentiles::Percentiles;

/// Every `io!` entry with activity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct IoSection {
    /// Entries with any instance or operation, before the focus filter and the row limit.
    pub total_entries: usize,
    /// Fraction of operations whose duration was measured (`HOTPATH_TIME_SAMPLING_RATE`);
    /// counts and bytes are exact whatever it is.
    pub time_sampling_rate: f64,
    /// Rows after focus and limit, sorted by total operation time, largest first.
    pub rows: Vec<IoRow>,
}

/// One `io!` call site and wrapped type, or one instance of an `iter = true` site.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct IoRow {
    /// Display name: the label or `file:line`, `-2`, `-3`, ... for later `iter` instances.
    pub name: String,
    /// The `label` given to `io!`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Source file of the `io!` call.
    pub file: String,
    /// Source line of the `io!` call.
    pub line: u32,
    /// The wrapped value's type.
    pub type_name: String,
    /// True when the site gives every instance its own row (`iter = true`).
    pub iter: bool,
    /// Wrapper instances this row aggregates.
    pub instances: u64,
    /// `read` calls (`poll_read` completions for async values).
    pub read: IoTransfer,
    /// `write` calls.
    pub write: IoTransfer,
    /// `flush` calls.
    pub flush: IoControl,
    /// `poll_shutdown` completions (async writers only).
    pub shutdown: IoControl,
}

/// Reads or writes of one row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct IoTransfer {
    /// Completed operations (retryable `WouldBlock`/`Interrupted` results are not operations).
    pub ops: u64,
    /// Bytes transferred by them.
    pub bytes: u64,
    /// Failed operations.
    pub errors: u64,
    /// Operations whose duration was measured (all of them unless time sampling is on).
    pub timed_ops: u64,
    /// Bytes of the timed operations.
    pub timed_bytes: u64,
    /// Summed duration of the timed operations; async ones span first poll to ready.
    pub timed_ns: u64,
    /// Mean duration of a timed operation (under the overhead budget, each weighted
    /// by the inverse of its rate: the estimated mean of all).
    pub avg_ns: u64,
    /// Shortest timed operation.
    pub min_ns: u64,
    /// Longest timed operation.
    pub max_ns: u64,
    /// Configured percentiles of the timed operations' durations.
    pub percentiles_ns: Percentiles,
    /// `timed_bytes / timed_ns` in bytes per second; absent when nothing was timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_per_sec: Option<u64>,
    /// Timed operations' durations in fixed buckets (live snapshots only, not in JSON).
    #[serde(skip)]
    pub buckets: Option<Buckets>,
    /// Under the overhead budget, when some operations were not timed: the rate, and
    /// the 95% intervals of [`estimated_total_ns`](Self::estimated_total_ns) (as
    /// `total_ns_ci95`) and of the percentiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Box<crate::DurationEstimate>>,
    /// Under the overhead budget, when it timed operations at a rate below 1: the
    /// estimated total time of all, each timed operation weighted by the inverse of
    /// its rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_ns: Option<u64>,
}

/// Flushes or shutdowns of one row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct IoControl {
    /// Completed operations.
    pub ops: u64,
    /// Failed operations.
    pub errors: u64,
    /// Operations whose duration was measured.
    pub timed_ops: u64,
    /// Summed duration of the timed operations.
    pub timed_ns: u64,
}

impl IoTransfer {
    /// Estimated total time of all operations: the budget's weighted estimate
    /// ([`total_ns`](Self::total_ns)), else the timed sum scaled up to every operation
    /// under time sampling; `None` when nothing was timed.
    pub fn estimated_total_ns(&self) -> Option<u64> {
        if self.total_ns.is_some() {
            return self.total_ns;
        }
        (self.timed_ops > 0).then(|| (self.timed_ns as u128 * self.ops as u128 / self.timed_ops as u128) as u64)
    }
}

impl IoRow {
    /// Errors shown in the write table: write, flush and shutdown failures together.
    pub fn write_side_errors(&self) -> u64 {
        self.write.errors + self.flush.errors + self.shutdown.errors
    }
}
