//! `functions-cpu` for the sinks: rows by function, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::FunctionsCpu;

impl SectionData for FunctionsCpu {
    fn is_empty(&self) -> bool {
        self.samples == 0
    }

    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut samples = Family::new("hotpath_cpu_samples_total", MetricKind::Counter, "CPU profile samples taken.");
        samples.value(&[], self.samples as f64);
        let mut inclusive = Family::new(
            "hotpath_function_cpu_seconds_total",
            MetricKind::Counter,
            "CPU time in measured functions, nested calls included (sampled).",
        );
        let mut own = Family::new(
            "hotpath_function_self_cpu_seconds_total",
            MetricKind::Counter,
            "CPU time in measured functions themselves (sampled).",
        );
        for row in &self.rows {
            let l = [("function", row.name.as_str())];
            inclusive.value(&l, row.inclusive_cpu_ns as f64 / 1e9);
            own.value(&l, row.self_cpu_ns as f64 / 1e9);
        }
        out.extend([samples, inclusive, own]);
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
}
