//! `debug` rows list their figures for typed readers (the console's Debug tab).
//! A gauge's value has no unit the model knows: it is a level, [`Unit::Ratio`].

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::DebugRow;

impl RowMetrics for DebugRow {
    fn row_name(&self) -> &str {
        self.name()
    }

    /// The count of updates and when the last one was (ids, lines and columns identify
    /// the tracker and are left out); a gauge's value now and the lowest and highest.
    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        match self {
            DebugRow::Dbg(r) => push(&mut out, "count", Unit::Count, r.count as f64),
            DebugRow::Val(r) => push(&mut out, "count", Unit::Count, r.count as f64),
            DebugRow::Gauge(r) => {
                push(&mut out, "updates", Unit::Count, r.updates as f64);
                for (key, value) in [("current", r.current), ("min", r.min), ("max", r.max)] {
                    push(&mut out, key, Unit::Ratio, value);
                }
            }
        }
        let last_at_ns = match self {
            DebugRow::Dbg(r) => r.last_at_ns,
            DebugRow::Val(r) => r.last_at_ns,
            DebugRow::Gauge(r) => r.last_at_ns,
        };
        push(&mut out, "last_at_ns", Unit::Nanoseconds, last_at_ns as f64);
        out
    }
}
