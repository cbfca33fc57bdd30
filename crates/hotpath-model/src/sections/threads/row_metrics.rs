//! `threads` rows list their figures for typed readers (the console's detail pane, MCP).

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::ThreadRow;

impl RowMetrics for ThreadRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        let percents = [("cpu_percent", self.cpu_percent), ("max_cpu_percent", self.max_cpu_percent)];
        for (key, value) in percents {
            if let Some(value) = value {
                push(&mut out, key, Unit::Percent, value);
            }
        }
        push(&mut out, "cpu_user_ns", Unit::Nanoseconds, self.cpu_user_ns as f64);
        push(&mut out, "cpu_sys_ns", Unit::Nanoseconds, self.cpu_sys_ns as f64);
        for (key, value) in [("alloc_bytes", self.alloc_bytes), ("dealloc_bytes", self.dealloc_bytes)] {
            if let Some(value) = value {
                push(&mut out, key, Unit::Bytes, value as f64);
            }
        }
        out
    }
}
