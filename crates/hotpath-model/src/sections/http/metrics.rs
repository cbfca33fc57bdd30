//! `http` for the sinks: rows by endpoint, and its metric families (`endpoint`, `class`).

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Http;

impl SectionData for Http {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut calls =
            Family::new("hotpath_http_client_calls_total", MetricKind::Counter, "Outgoing HTTP calls, per endpoint.");
        let mut responses =
            Family::new("hotpath_http_client_responses_total", MetricKind::Counter, "Responses by status class.");
        let mut errors = Family::new(
            "hotpath_http_client_errors_total",
            MetricKind::Counter,
            "Calls that failed: transport errors and status >= 400.",
        );
        let mut latency =
            Family::new("hotpath_http_client_call_seconds", MetricKind::Histogram, "Time from call to response head.");
        for row in &self.rows {
            let l = [("endpoint", row.name.as_str())];
            calls.value(&l, row.calls as f64);
            let s = &row.status;
            for (class, n) in [("1xx", s.status_1xx), ("2xx", s.status_2xx), ("3xx", s.status_3xx)]
                .into_iter()
                .chain([("4xx", s.status_4xx), ("5xx", s.status_5xx)])
            {
                responses.value(&[("endpoint", row.name.as_str()), ("class", class)], n as f64);
            }
            errors.value(&l, row.errors as f64);
            latency.histogram(&l, row.latency.buckets.as_ref());
        }
        out.extend([calls, responses, errors, latency]);
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
        each("total_endpoints", crate::Unit::Count, self.total_endpoints as f64);
        each("calls", crate::Unit::Count, self.calls as f64);
        each("total_ns", crate::Unit::Nanoseconds, self.total_ns as f64);
        true
    }
}
