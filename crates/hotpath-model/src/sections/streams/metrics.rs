//! `streams` for the sinks: rows by stream, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Streams;

impl SectionData for Streams {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut items = Family::new("hotpath_stream_items_total", MetricKind::Counter, "Items each stream yielded.");
        let mut interval = Family::new(
            "hotpath_stream_item_seconds",
            MetricKind::Histogram,
            "Time per item of each stream (mean over windows of items).",
        );
        for row in &self.rows {
            let l = [("stream", row.name.as_str())];
            items.value(&l, row.items as f64);
            interval.histogram(&l, row.item_interval.buckets.as_ref());
        }
        out.extend([items, interval]);
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
        each("total_streams", crate::Unit::Count, self.total_streams as f64);
        true
    }
}
