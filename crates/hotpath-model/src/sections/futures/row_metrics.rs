//! `futures` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_durations, RowMetric, RowMetrics};
use crate::units::Unit;

use super::FutureRow;

impl RowMetrics for FutureRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        if let Some(timed) = self.timed_calls {
            push(&mut out, "timed_calls", Unit::Count, timed as f64);
        }
        push(&mut out, "cancelled", Unit::Count, self.cancelled as f64);
        push(&mut out, "polls", Unit::Count, self.polls as f64);
        push(&mut out, "busy_ns", Unit::Nanoseconds, self.busy_ns as f64);
        push_durations(&mut out, "wall", &self.wall);
        if let Some(bytes) = self.alloc_bytes_avg {
            push(&mut out, "alloc_bytes_avg", Unit::Bytes, bytes as f64);
        }
        if let Some(allocs) = self.allocs_avg {
            push(&mut out, "allocs_avg", Unit::Count, allocs as f64);
        }
        out
    }
}
