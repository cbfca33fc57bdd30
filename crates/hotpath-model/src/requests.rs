//! What the request-like sections share (`server`, `http`, `sql`): response status
//! classes, the numbers a route scope attributes to a request, and allocations per
//! request. A leaf: the three sections read it, it reads none of theirs.

use serde::{Deserialize, Serialize};

use crate::format::{format_bytes, format_count, format_duration_ns};
use crate::percentiles::Percentiles;

/// Responses by status class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StatusClasses {
    /// 100–199 (informational; rare as a final status).
    pub status_1xx: u64,
    /// 200–299.
    pub status_2xx: u64,
    /// 300–399.
    pub status_3xx: u64,
    /// 400–499.
    pub status_4xx: u64,
    /// 500–599 (and anything above).
    pub status_5xx: u64,
}

impl StatusClasses {
    /// The counter of `status`'s class.
    pub fn count(&mut self, status: u16, n: u64) {
        let slot = match status {
            0..=199 => &mut self.status_1xx,
            200..=299 => &mut self.status_2xx,
            300..=399 => &mut self.status_3xx,
            400..=499 => &mut self.status_4xx,
            _ => &mut self.status_5xx,
        };
        *slot += n;
    }

    /// Responses of every class.
    pub fn total(&self) -> u64 {
        self.status_1xx + self.status_2xx + self.status_3xx + self.status_4xx + self.status_5xx
    }

    /// Table cells `2xx`, `3xx`, `4xx`, `5xx` (1xx are in the JSON only).
    pub(crate) fn cells(&self) -> [String; 4] {
        [self.status_2xx, self.status_3xx, self.status_4xx, self.status_5xx].map(format_count)
    }

    pub(crate) const HEADER: [&'static str; 4] = ["2xx", "3xx", "4xx", "5xx"];
}

/// What the program did while serving a route's requests (route scope): SQL queries,
/// outgoing HTTP calls and measured functions, over every poll of the handler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RouteScope {
    /// Completed requests served with the scope on: the divisor of the per-request figures.
    pub requests: u64,
    /// SQL queries made while serving them.
    pub sql_queries: u64,
    /// Time those queries took.
    pub sql_ns: u64,
    /// Outgoing HTTP calls made while serving them.
    pub http_calls: u64,
    /// Time those calls took.
    pub http_ns: u64,
    /// Time inside `#[measure]`d functions called while serving them (outermost calls).
    pub function_ns: u64,
}

impl RouteScope {
    /// `total / requests` as a count with two decimals; `-` without requests.
    pub(crate) fn per_request_count(&self, total: u64) -> String {
        match self.requests {
            0 => "-".into(),
            n if total % n == 0 => format_count(total / n),
            n => format!("{:.2}", total as f64 / n as f64),
        }
    }

    /// `ns / requests` as a duration; `-` without requests.
    pub(crate) fn per_request_ns(&self, ns: u64) -> String {
        ns.checked_div(self.requests).map_or_else(|| "-".into(), format_duration_ns)
    }
}

/// Heap allocations per completed request (`hotpath-alloc`), summed over every poll of
/// the request, on whichever threads polled it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RequestAlloc {
    /// Bytes allocated by all requests.
    pub total_bytes: u64,
    /// Mean bytes per request.
    pub avg_bytes: u64,
    /// The most one request allocated.
    pub max_bytes: u64,
    /// Configured percentiles of bytes per request.
    pub percentiles_bytes: Percentiles,
    /// Mean allocations per request.
    pub avg_allocs: u64,
}

impl RequestAlloc {
    /// `Alloc/req` and `Allocs/req` cells.
    pub(crate) fn cells(alloc: Option<&Self>) -> [String; 2] {
        match alloc {
            Some(a) => [format_bytes(a.avg_bytes), format_count(a.avg_allocs)],
            None => ["-".into(), "-".into()],
        }
    }
}

/// `Some(name)` unless empty: optional attribution columns print `-` when absent.
pub(crate) fn or_dash(value: Option<&String>) -> String {
    value.filter(|v| !v.is_empty()).cloned().unwrap_or_else(|| "-".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_per_request_figures() {
        let mut s = StatusClasses::default();
        for status in [101, 200, 204, 301, 404, 418, 500, 599, 999] {
            s.count(status, 1);
        }
        assert_eq!((s.status_1xx, s.status_2xx, s.status_3xx, s.status_4xx, s.status_5xx), (1, 2, 1, 2, 3));
        assert_eq!(s.total(), 9);
        let scope = RouteScope { requests: 4, sql_queries: 8, sql_ns: 4_000, http_calls: 3, ..RouteScope::default() };
        assert_eq!(scope.per_request_count(scope.sql_queries), "2");
        assert_eq!(scope.per_request_count(scope.http_calls), "0.75");
        assert_eq!(scope.per_request_ns(scope.sql_ns), "1.00 µs");
        assert_eq!(RouteScope::default().per_request_ns(5), "-");
    }
}
