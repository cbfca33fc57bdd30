//! `sql` for the sinks: rows by query, and its metric families (`query`).

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Sql;

impl SectionData for Sql {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut calls = Family::new("hotpath_sql_queries_total", MetricKind::Counter, "Queries run, per statement.");
        let mut errors = Family::new("hotpath_sql_errors_total", MetricKind::Counter, "Queries that failed.");
        let mut latency = Family::new("hotpath_sql_query_seconds", MetricKind::Histogram, "Execution time of queries.");
        for row in &self.rows {
            let l = [("query", row.name.as_str())];
            calls.value(&l, row.calls as f64);
            errors.value(&l, row.errors as f64);
            latency.histogram(&l, row.latency.buckets.as_ref());
        }
        out.extend([calls, errors, latency]);
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
        each("total_queries", crate::Unit::Count, self.total_queries as f64);
        each("calls", crate::Unit::Count, self.calls as f64);
        each("total_ns", crate::Unit::Nanoseconds, self.total_ns as f64);
        true
    }
}
