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

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("hz", crate::Unit::Count, self.hz as f64);
        each("period_ns", crate::Unit::Nanoseconds, self.period_ns as f64);
        each("samples", crate::Unit::Count, self.samples as f64);
        each("unmeasured_samples", crate::Unit::Count, self.unmeasured_samples as f64);
        each("dropped_samples", crate::Unit::Count, self.dropped_samples as f64);
        each("truncated_samples", crate::Unit::Count, self.truncated_samples as f64);
        each("late_samples", crate::Unit::Count, self.late_samples as f64);
        each("samples_without_stack", crate::Unit::Count, self.samples_without_stack as f64);
        each("unwind_ns_per_sample", crate::Unit::Nanoseconds, self.unwind_ns_per_sample as f64);
        each("total_functions", crate::Unit::Count, self.total_functions as f64);
        true
    }
}
