//! The `threads` section: per-thread CPU and memory statistics.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

/// Threads of the profiled process at the time of the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Threads {
    /// Process id.
    pub pid: u32,
    /// Resident set size of the process, bytes.
    pub rss_bytes: u64,
    /// Process-wide allocation totals (present with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc: Option<AllocTotals>,
    /// Milliseconds between samples (`HOTPATH_THREADS_INTERVAL_MS`).
    pub interval_ms: u64,
    /// Samples taken so far.
    pub samples: u64,
    /// Threads of the program (profiler threads excluded), live and ended, before the row limit.
    pub total_threads: usize,
    /// Ended threads not kept as rows: only the 256 that used the most CPU are.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub exited_dropped: u64,
    /// What the last sample could not read (for example with no file descriptor left);
    /// the threads concerned keep the values of an earlier sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Rows after `HOTPATH_THREADS_LIMIT`, by CPU time, busiest first.
    pub rows: Vec<ThreadRow>,
}

/// Bytes allocated and freed by all threads of the program.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AllocTotals {
    /// Bytes allocated.
    pub alloc_bytes: u64,
    /// Bytes freed.
    pub dealloc_bytes: u64,
}

/// One thread.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ThreadRow {
    /// `main`, the name given by the program or runtime, or `thread_N` when unnamed.
    pub name: String,
    /// OS thread id (what `top -H` and gdb show).
    pub tid: u64,
    /// `Running` (on CPU), `Sleeping` (parked or waiting), `Blocked` (uninterruptible wait)
    /// or `Exited` (ended: its final numbers).
    pub status: String,
    /// CPU use over the last sampling interval, in percent of one core; absent before two samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_percent: Option<f64>,
    /// Highest `cpu_percent` seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cpu_percent: Option<f64>,
    /// Cumulative user-mode CPU time, ns.
    pub cpu_user_ns: u64,
    /// Cumulative kernel-mode CPU time, ns.
    pub cpu_sys_ns: u64,
    /// Bytes allocated by this thread (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc_bytes: Option<u64>,
    /// Bytes freed by this thread (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealloc_bytes: Option<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
