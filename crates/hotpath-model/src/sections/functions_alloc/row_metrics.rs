//! `functions_alloc` rows list their figures for typed readers (`hotpath compare`).

use crate::percentiles::percentile_label;
use crate::row_metrics::{push, push_bytes, RowMetric, RowMetrics};
use crate::units::Unit;

use super::FunctionAlloc;

impl RowMetrics for FunctionAlloc {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        for (name, value) in
            [("bytes_total", self.bytes_total), ("bytes_avg", self.bytes_avg), ("bytes_max", self.bytes_max)]
        {
            push(&mut out, name, Unit::Bytes, value as f64);
        }
        push_bytes(&mut out, "bytes_percentiles", &self.bytes_percentiles);
        for (name, value) in
            [("allocs_total", self.allocs_total), ("allocs_avg", self.allocs_avg), ("allocs_max", self.allocs_max)]
        {
            push(&mut out, name, Unit::Count, value as f64);
        }
        for (p, value) in &self.allocs_percentiles.0 {
            push(&mut out, &format!("allocs_percentiles.{}", percentile_label(*p)), Unit::Count, *value as f64);
        }
        out
    }
}
