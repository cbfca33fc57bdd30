//! `io` for the sinks: rows by `io!` entry, and its metric families (`direction`).

use crate::export::{EstimateFamilies, Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::IoSection;

impl SectionData for IoSection {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut bytes = Family::new("hotpath_io_bytes_total", MetricKind::Counter, "Bytes read and written.");
        let mut ops = Family::new("hotpath_io_operations_total", MetricKind::Counter, "Read and write operations.");
        let mut errors =
            Family::new("hotpath_io_errors_total", MetricKind::Counter, "Failed read and write operations.");
        let mut duration = Family::new(
            "hotpath_io_operation_seconds",
            MetricKind::Histogram,
            "Duration of timed read and write operations (async: first poll to ready); under the overhead budget each weighs the inverse of its rate.",
        );
        let mut estimated = EstimateFamilies::new(
            "hotpath_io_operation_timed_ratio",
            "hotpath_io_operation_seconds_ci95",
            "95% interval of the estimated total time in operations (each timed one weighted by the inverse of its rate), where the overhead budget timed a share.",
        );
        for row in &self.rows {
            for (direction, t) in [("read", &row.read), ("write", &row.write)] {
                let l = [("io", row.name.as_str()), ("direction", direction)];
                if let Some(e) = &t.estimate {
                    estimated.add(&l, e.rate, e.total_ns_ci95);
                }
                bytes.value(&l, t.bytes as f64);
                ops.value(&l, t.ops as f64);
                errors.value(&l, t.errors as f64);
                duration.histogram(&l, t.buckets.as_ref());
            }
        }
        out.extend([bytes, ops, errors, duration]);
        out.extend(estimated.into_families());
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
        each("total_entries", crate::Unit::Count, self.total_entries as f64);
        each("time_sampling_rate", crate::Unit::Ratio, self.time_sampling_rate);
        true
    }
}
