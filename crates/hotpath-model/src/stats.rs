//! Summary of one kind of duration (wait, hold, latency, ...) shared by the async and
//! concurrency sections: a count, the total, the mean, the maximum and percentiles.

use serde::{Deserialize, Serialize};

use crate::format::format_duration_ns;
use crate::percentiles::{percentile_label, Percentiles};
use crate::report::Meta;

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
}

impl DurationStats {
    /// Header cells `"<prefix> Avg"`, `"<prefix> P50"`, ... in configured order.
    pub(crate) fn header(prefix: &str, meta: &Meta) -> Vec<String> {
        let join = |s: &str| if prefix.is_empty() { s.to_string() } else { format!("{prefix} {s}") };
        let mut cells = vec![join("Avg")];
        cells.extend(meta.percentiles.iter().map(|p| join(&percentile_label(*p).to_uppercase())));
        cells
    }

    /// Cells matching [`header`](Self::header); `-` where nothing was recorded.
    pub(crate) fn cells(&self, meta: &Meta) -> Vec<String> {
        let dash = || "-".to_string();
        let mut cells = vec![if self.count == 0 { dash() } else { format_duration_ns(self.avg_ns) }];
        cells.extend(meta.percentiles.iter().map(|p| match self.percentiles_ns.get(*p) {
            Some(v) if self.count > 0 => format_duration_ns(v),
            _ => dash(),
        }));
        cells
    }
}
