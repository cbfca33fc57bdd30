//! `heap` for the sinks: rows by allocation stack, and its metric families (the top
//! rows only: the section's row limit bounds the label values).

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Heap;

impl SectionData for Heap {
    fn is_empty(&self) -> bool {
        self.live_samples == 0 && self.rows.is_empty()
    }

    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut total = Family::new("hotpath_heap_live_total_bytes", MetricKind::Gauge, "Estimated live heap bytes (sampled).");
        total.value(&[], self.live_bytes as f64);
        let mut live = Family::new(
            "hotpath_heap_live_bytes",
            MetricKind::Gauge,
            "Estimated live heap bytes per allocation stack (top stacks only).",
        );
        let mut growing =
            Family::new("hotpath_heap_growing", MetricKind::Gauge, "1 when a stack's live bytes grew over most recent snapshots.");
        for row in &self.rows {
            let l = [("stack", row.name.as_str())];
            live.value(&l, row.live_bytes as f64);
            growing.value(&l, if row.growing { 1.0 } else { 0.0 });
        }
        let mut per_function = Family::new(
            "hotpath_heap_function_live_bytes",
            MetricKind::Gauge,
            "Estimated live heap bytes allocated under each measured function (inclusive).",
        );
        for row in &self.functions {
            per_function.value(&[("function", row.name.as_str())], row.live_bytes as f64);
        }
        out.extend([total, live, growing, per_function]);
    }

    fn row_names(&self) -> Vec<&str> {
        self.rows.iter().map(|r| r.name.as_str()).collect()
    }

    fn keep_rows(&mut self, keep: &[usize]) {
        keep_rows(&mut self.rows, keep);
    }

    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        visit_rows(&self.rows, each)
    }

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("sample_bytes", crate::Unit::Bytes, self.sample_bytes as f64);
        each("confidence", crate::Unit::Ratio, self.confidence);
        each("growth_window", crate::Unit::Count, self.growth_window as f64);
        each("live_samples", crate::Unit::Count, self.live_samples as f64);
        each("live_bytes", crate::Unit::Bytes, self.live_bytes as f64);
        each("live_bytes_low", crate::Unit::Bytes, self.live_bytes_low as f64);
        each("live_bytes_high", crate::Unit::Bytes, self.live_bytes_high as f64);
        each("live_objects", crate::Unit::Count, self.live_objects as f64);
        each("ignored_bytes", crate::Unit::Bytes, self.ignored_bytes as f64);
        each("dropped_samples", crate::Unit::Count, self.dropped_samples as f64);
        each("total_stacks", crate::Unit::Count, self.total_stacks as f64);
        true
    }
}
