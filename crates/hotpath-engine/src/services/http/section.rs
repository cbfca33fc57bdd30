//! The `http` section from the endpoint rows and their merged totals.

use hotpath_model::{Http, HttpRow};

use super::call::{Client, ENDPOINTS};
use crate::options::Options;
use crate::record::select;
use crate::services::cell::RequestTotals;
use crate::services::names::{row_name, Names};
use crate::services::totals::{self, by_total};

/// Rows with calls, by total time. `None` when no call was made.
pub(crate) fn section(totals: &[RequestTotals], names: &Names, options: &Options) -> Option<Http> {
    let empty = RequestTotals::default();
    let mut rows: Vec<HttpRow> = Vec::new();
    for endpoint in ENDPOINTS.all() {
        let t = totals.get(endpoint.id() as usize).unwrap_or(&empty);
        if t.calls == 0 {
            continue;
        }
        let mut row = HttpRow::default();
        row.label = endpoint.label().map(str::to_string);
        row.endpoint = match endpoint.label() {
            Some(label) => format!("{label}: {}", endpoint.text()),
            None => endpoint.text().to_string(),
        };
        row.method = endpoint.text().split_once(' ').map_or("", |(m, _)| m).to_string();
        row.client = Client::name(endpoint.tag()).to_string();
        row.route = names.route(endpoint.route());
        row.function = names.function(endpoint.function());
        row.name = row_name(&row.endpoint, row.route.as_ref(), row.function.as_ref());
        row.calls = t.calls;
        row.status = totals::status(t);
        row.transport_errors = t.transport_errors;
        row.errors = t.errors;
        row.latency = totals::latency(t, options);
        row.response_bytes = t.amounts[0];
        row.sized_responses = t.sized;
        rows.push(row);
    }
    if rows.is_empty() {
        return None;
    }
    let calls = rows.iter().map(|r| r.calls).sum();
    let total_ns = totals::shares(&mut rows, |r| (r.latency.total_ns, &mut r.total_percent));
    by_total(&mut rows, |r| (r.latency.total_ns, r.name.as_str()));
    let (total_endpoints, rows) = select(rows, |r| &r.name, options);
    let mut section = Http::default();
    section.total_endpoints = total_endpoints;
    section.calls = calls;
    section.total_ns = total_ns;
    section.rows = rows;
    Some(section)
}
