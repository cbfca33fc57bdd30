//! `functions_cpu` rows list their figures for typed readers (MCP's summaries and
//! `changes_since_mark`; the section is not compared).

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::FunctionCpu;

impl RowMetrics for FunctionCpu {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "self_samples", Unit::Count, self.self_samples as f64);
        push(&mut out, "inclusive_samples", Unit::Count, self.inclusive_samples as f64);
        push(&mut out, "self_cpu_ns", Unit::Nanoseconds, self.self_cpu_ns as f64);
        push(&mut out, "inclusive_cpu_ns", Unit::Nanoseconds, self.inclusive_cpu_ns as f64);
        out
    }
}
