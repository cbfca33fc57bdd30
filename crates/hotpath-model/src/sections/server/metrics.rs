//! `server` for the sinks: rows by route, and its metric families (`route`, `class`).

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Server;

impl SectionData for Server {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut requests =
            Family::new("hotpath_server_requests_total", MetricKind::Counter, "Requests answered, per route.");
        let mut responses =
            Family::new("hotpath_server_responses_total", MetricKind::Counter, "Responses by status class.");
        let mut in_flight = Family::new("hotpath_server_in_flight", MetricKind::Gauge, "Requests being served.");
        let mut latency =
            Family::new("hotpath_server_request_seconds", MetricKind::Histogram, "Time from request to response head.");
        for row in &self.rows {
            let l = [("route", row.name.as_str())];
            requests.value(&l, row.requests as f64);
            let s = &row.status;
            for (class, n) in [("1xx", s.status_1xx), ("2xx", s.status_2xx), ("3xx", s.status_3xx)]
                .into_iter()
                .chain([("4xx", s.status_4xx), ("5xx", s.status_5xx)])
            {
                responses.value(&[("route", row.name.as_str()), ("class", class)], n as f64);
            }
            in_flight.value(&l, row.in_flight as f64);
            latency.histogram(&l, row.latency.buckets.as_ref());
        }
        out.extend([requests, responses, in_flight, latency]);
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
        each("total_routes", crate::Unit::Count, self.total_routes as f64);
        each("requests", crate::Unit::Count, self.requests as f64);
        each("total_ns", crate::Unit::Nanoseconds, self.total_ns as f64);
        true
    }
}
