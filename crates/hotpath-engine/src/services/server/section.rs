//! The `server` section from the server rows and their merged totals.

use hotpath_model::{Server, ServerRow};

use super::serving::{is_matched, ROUTES};
use crate::options::Options;
use crate::record::select;
use crate::services::cell::RequestTotals;
use crate::services::scope;
use crate::services::totals::{self, by_total};

/// Every server row (their logs; the HTTP and SQL rows name their route from it).
pub(crate) fn rows() -> Vec<&'static crate::services::rows::Row> {
    ROUTES.all()
}

/// Rows with requests, by total response time. `None` when no request was served.
pub(crate) fn section(totals: &[RequestTotals], ratio: f64, options: &Options) -> Option<Server> {
    let empty = RequestTotals::default();
    let mut rows: Vec<ServerRow> = Vec::new();
    for route in ROUTES.all() {
        let t = totals.get(route.id() as usize).unwrap_or(&empty);
        let (in_flight, in_flight_max) = route.in_flight();
        if t.calls + t.cancelled == 0 && in_flight == 0 {
            continue;
        }
        let mut row = ServerRow::default();
        row.name = route.text().to_string();
        let (method, template) = route.text().split_once(' ').unwrap_or(("", route.text()));
        row.method = method.to_string();
        row.route = template.to_string();
        row.matched = is_matched(route.tag()) && !route.is_overflow();
        row.requests = t.calls;
        row.cancelled = t.cancelled;
        row.status = totals::status(t);
        row.in_flight = in_flight;
        row.in_flight_max = in_flight_max;
        row.latency = totals::latency(t, options);
        row.scope = totals::scope(t, ratio);
        #[cfg(feature = "alloc")]
        {
            row.alloc = totals::alloc(t, options);
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return None;
    }
    let requests = rows.iter().map(|r| r.requests).sum();
    let total_ns = totals::shares(&mut rows, |r| (r.latency.total_ns, &mut r.total_percent));
    by_total(&mut rows, |r| (r.latency.total_ns, r.name.as_str()));
    let (total_routes, rows) = select(rows, |r| &r.name, options);
    let mut section = Server::default();
    section.total_routes = total_routes;
    section.requests = requests;
    section.total_ns = total_ns;
    section.route_scope = scope::enabled();
    section.rows = rows;
    Some(section)
}
