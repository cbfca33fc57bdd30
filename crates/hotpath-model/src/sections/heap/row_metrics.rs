//! `heap` rows list their figures for typed readers (MCP, the console; the section
//! is not compared: its figures are estimates from random samples).

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::HeapStack;

impl RowMetrics for HeapStack {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "live_bytes", Unit::Bytes, self.live_bytes as f64);
        push(&mut out, "live_bytes_low", Unit::Bytes, self.live_bytes_low as f64);
        push(&mut out, "live_bytes_high", Unit::Bytes, self.live_bytes_high as f64);
        push(&mut out, "live_objects", Unit::Count, self.live_objects as f64);
        push(&mut out, "samples", Unit::Count, self.samples as f64);
        out
    }
}
