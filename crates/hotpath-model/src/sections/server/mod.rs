//! The `server` section: requests an HTTP server answered (axum), one row per matched
//! route and method, with what each request did while it was served (route scope).

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::requests::{RequestAlloc, RouteScope, StatusClasses};
use crate::stats::DurationStats;

/// Every route that received a request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Server {
    /// Rows before the focus filter and the row limit.
    pub total_routes: usize,
    /// Completed requests over all rows (before the limit).
    pub requests: u64,
    /// Time over all rows (before the limit): what `total_percent` is a share of.
    #[serde(default)]
    pub total_ns: u64,
    /// Whether SQL queries, HTTP calls and measured functions were attributed to routes.
    pub route_scope: bool,
    /// Rows after focus and limit, by total response time, longest first.
    pub rows: Vec<ServerRow>,
}

/// One route and method.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ServerRow {
    /// `METHOD route`: `GET /users/{id}`, `GET <unmatched>`, `<other>`.
    pub name: String,
    /// The request method.
    pub method: String,
    /// The route template axum matched (`/users/{id}`); for requests no route matched,
    /// `<unmatched>` when the answer was an error, else the path with ids folded.
    pub route: String,
    /// True when axum matched a route (`MatchedPath`).
    pub matched: bool,
    /// Requests answered (a response head was produced).
    pub requests: u64,
    /// Requests dropped before a response (the client went away, a timeout layer fired).
    pub cancelled: u64,
    /// Responses by status class.
    pub status: StatusClasses,
    /// Requests being served at the snapshot.
    pub in_flight: u64,
    /// The most requests served at once.
    pub in_flight_max: u64,
    /// Request to response head.
    pub latency: DurationStats,
    /// `latency.total_ns` as a percentage of the section's `total_ns` (one decimal):
    /// the table's `% Total`.
    #[serde(default)]
    pub total_percent: f64,
    /// SQL, HTTP and function time per request, with the route scope on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<RouteScope>,
    /// Allocations per request (`hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc: Option<RequestAlloc>,
}
