//! `sql` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_durations, RowMetric, RowMetrics};
use crate::units::Unit;

use super::SqlRow;

impl RowMetrics for SqlRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        push(&mut out, "errors", Unit::Count, self.errors as f64);
        push(&mut out, "rows_returned", Unit::Count, self.rows_returned as f64);
        push(&mut out, "rows_affected", Unit::Count, self.rows_affected as f64);
        push_durations(&mut out, "latency", &self.latency);
        push(&mut out, "total_percent", Unit::Percent, self.total_percent);
        out
    }
}
