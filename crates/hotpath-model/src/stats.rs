//! Summary of one kind of duration (wait, hold, latency, ...) shared by the async and
//! concurrency sections: a count, the total, the mean, the maximum and percentiles.

use serde::{Deserialize, Serialize};

use crate::buckets::Buckets;
use crate::percentiles::Percentiles;

/// Durations of one kind, in nanoseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DurationStats {
    /// Durations recorded.
    pub count: u64,
    /// Their sum.
    pub total_ns: u64,
    /// Their mean (0 when none were recorded).
    pub avg_ns: u64,
    /// The longest.
    pub max_ns: u64,
    /// Configured percentiles.
    pub percentiles_ns: Percentiles,
    /// The same durations in fixed buckets (live snapshots only, not in JSON).
    #[serde(skip)]
    pub buckets: Option<Buckets>,
    /// Under the overhead budget, when some durations were not timed: the rate and
    /// 95% intervals of the estimated figures (`count` is then estimated too, where
    /// the instrument does not count every operation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Box<crate::DurationEstimate>>,
}

/// Acquisitions of one lock mode (a mutex, or the read or write side of an RwLock).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LockTiming {
    /// Successful acquisitions (blocking and `try_` ones).
    pub acquisitions: u64,
    /// Acquisitions that found the lock taken: the first `try_lock` failed and the caller waited.
    pub contended: u64,
    /// Wait to acquire, over all acquisitions (an uncontended one waits 0).
    pub wait: DurationStats,
    /// Time the guard was held, acquisition to drop.
    pub hold: DurationStats,
}
