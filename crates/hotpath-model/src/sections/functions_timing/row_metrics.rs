//! `functions_timing` rows list their figures for typed readers (MCP's summaries and
//! `changes_since_mark`; `hotpath compare` reads timing through its own typed reader).

use crate::percentiles::percentile_label;
use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::FunctionTiming;

impl RowMetrics for FunctionTiming {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        if let Some(timed) = self.timed_calls {
            push(&mut out, "timed_calls", Unit::Count, timed as f64);
        }
        // As in the JSON: only while calls run.
        if self.active > 0 {
            push(&mut out, "active", Unit::Count, self.active as f64);
        }
        if let Some(oldest) = self.oldest_active_ns {
            push(&mut out, "oldest_active_ns", Unit::Nanoseconds, oldest as f64);
        }
        push(&mut out, "cancelled", Unit::Count, self.cancelled as f64);
        push(&mut out, "polls", Unit::Count, self.polls as f64);
        let durations = [
            ("busy_ns", self.busy_ns),
            ("total_ns", self.total_ns),
            ("self_ns", self.self_ns),
            ("avg_ns", self.avg_ns),
            ("min_ns", self.min_ns),
            ("max_ns", self.max_ns),
        ];
        for (key, value) in durations {
            push(&mut out, key, Unit::Nanoseconds, value as f64);
        }
        for (p, value) in &self.percentiles_ns.0 {
            push(&mut out, &format!("percentiles_ns.{}", percentile_label(*p)), Unit::Nanoseconds, *value as f64);
        }
        out
    }
}
