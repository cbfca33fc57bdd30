//! `http` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_durations, push_status, RowMetric, RowMetrics};
use crate::units::Unit;

use super::HttpRow;

impl RowMetrics for HttpRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        push_status(&mut out, &self.status);
        push(&mut out, "transport_errors", Unit::Count, self.transport_errors as f64);
        push(&mut out, "errors", Unit::Count, self.errors as f64);
        push_durations(&mut out, "latency", &self.latency);
        push(&mut out, "total_percent", Unit::Percent, self.total_percent);
        push(&mut out, "response_bytes", Unit::Bytes, self.response_bytes as f64);
        push(&mut out, "sized_responses", Unit::Count, self.sized_responses as f64);
        out
    }
}
