//! `functions-alloc` for the sinks: rows by function, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::FunctionsAlloc;

impl SectionData for FunctionsAlloc {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut bytes = Family::new(
            "hotpath_allocated_bytes_total",
            MetricKind::Counter,
            "Bytes allocated by the whole process since profiling started.",
        );
        bytes.value(&[], self.process_alloc_bytes as f64);
        let mut allocs = Family::new(
            "hotpath_allocations_total",
            MetricKind::Counter,
            "Allocations made by the whole process since profiling started.",
        );
        allocs.value(&[], self.process_allocs as f64);
        let mut fn_bytes = Family::new(
            "hotpath_function_allocated_bytes_total",
            MetricKind::Counter,
            "Bytes allocated inside measured functions.",
        );
        let mut fn_allocs = Family::new(
            "hotpath_function_allocations_total",
            MetricKind::Counter,
            "Allocations made inside measured functions.",
        );
        for row in &self.rows {
            let l = [("function", row.name.as_str())];
            fn_bytes.value(&l, row.bytes_total as f64);
            fn_allocs.value(&l, row.allocs_total as f64);
        }
        out.extend([bytes, allocs, fn_bytes, fn_allocs]);
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
        each("process_alloc_bytes", crate::Unit::Bytes, self.process_alloc_bytes as f64);
        each("process_allocs", crate::Unit::Count, self.process_allocs as f64);
        each("total_functions", crate::Unit::Count, self.total_functions as f64);
        true
    }
}
