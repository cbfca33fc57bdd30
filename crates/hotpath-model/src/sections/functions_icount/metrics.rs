//! `functions-icount` for the sinks: rows by function, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::FunctionsIcount;

impl SectionData for FunctionsIcount {
    /// A note (no Valgrind) is something to show too.
    fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.note.is_none()
    }

    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        if self.note.is_some() {
            return;
        }
        let mut program = Family::new(
            "hotpath_program_instructions_total",
            MetricKind::Counter,
            "Instructions the program executed while profiling (Callgrind Ir).",
        );
        program.value(&[], self.program_ir as f64);
        let mut inclusive = Family::new(
            "hotpath_function_instructions_total",
            MetricKind::Counter,
            "Instructions executed in measured functions, nested calls included (Callgrind Ir).",
        );
        let mut own = Family::new(
            "hotpath_function_self_instructions_total",
            MetricKind::Counter,
            "Instructions executed in measured functions outside nested measured calls (Callgrind Ir).",
        );
        for row in &self.rows {
            let l = [("function", row.name.as_str())];
            inclusive.value(&l, row.ir as f64);
            own.value(&l, row.self_ir as f64);
        }
        out.extend([program, inclusive, own]);
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
        each("program_ir", crate::Unit::Instructions, self.program_ir as f64);
        each("total_functions", crate::Unit::Count, self.total_functions as f64);
        true
    }
}
