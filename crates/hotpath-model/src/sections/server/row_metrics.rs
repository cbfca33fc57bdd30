//! `server` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_bytes, push_durations, push_status, RowMetric, RowMetrics};
use crate::units::Unit;

use super::ServerRow;

impl RowMetrics for ServerRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "requests", Unit::Count, self.requests as f64);
        push(&mut out, "cancelled", Unit::Count, self.cancelled as f64);
        push_status(&mut out, &self.status);
        push(&mut out, "in_flight", Unit::Count, self.in_flight as f64);
        push(&mut out, "in_flight_max", Unit::Count, self.in_flight_max as f64);
        push_durations(&mut out, "latency", &self.latency);
        push(&mut out, "total_percent", Unit::Percent, self.total_percent);
        if let Some(scope) = &self.scope {
            let figures = [
                ("requests", Unit::Count, scope.requests),
                ("sql_queries", Unit::Count, scope.sql_queries),
                ("sql_ns", Unit::Nanoseconds, scope.sql_ns),
                ("http_calls", Unit::Count, scope.http_calls),
                ("http_ns", Unit::Nanoseconds, scope.http_ns),
                ("function_ns", Unit::Nanoseconds, scope.function_ns),
            ];
            for (name, unit, value) in figures {
                push(&mut out, &format!("scope.{name}"), unit, value as f64);
            }
        }
        if let Some(alloc) = &self.alloc {
            for (name, value) in
                [("total_bytes", alloc.total_bytes), ("avg_bytes", alloc.avg_bytes), ("max_bytes", alloc.max_bytes)]
            {
                push(&mut out, &format!("alloc.{name}"), Unit::Bytes, value as f64);
            }
            push_bytes(&mut out, "alloc.percentiles_bytes", &alloc.percentiles_bytes);
            push(&mut out, "alloc.avg_allocs", Unit::Count, alloc.avg_allocs as f64);
        }
        out
    }
}
