//! The `http` section: outgoing HTTP calls (reqwest through reqwest-middleware, ureq),
//! one row per normalized endpoint, route (scope) and calling function.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::requests::StatusClasses;
use crate::stats::DurationStats;

/// Every endpoint called.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Http {
    /// Rows before the focus filter and the row limit.
    pub total_endpoints: usize,
    /// Calls over all rows (before the limit).
    pub calls: u64,
    /// Time over all rows (before the limit): what `total_percent` is a share of.
    #[serde(default)]
    pub total_ns: u64,
    /// Rows after focus and limit, by total time, longest first.
    pub rows: Vec<HttpRow>,
}

/// One endpoint, as called from one route and function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HttpRow {
    /// Unique row name: the endpoint, then ` <- route` and ` in function` when known.
    pub name: String,
    /// `METHOD host/path`, path segments that are numbers, UUIDs or long hex folded to
    /// `{id}`, an explicit port to `:{port}`, query dropped; prefixed `label: ` when the
    /// client was labelled.
    pub endpoint: String,
    /// The client's label (`http!(client, label = "github")`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The request method.
    pub method: String,
    /// `reqwest` or `ureq`.
    pub client: String,
    /// The server route whose request made these calls (route scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// The innermost measured function that made them (with `hotpath-cpu`, which keeps
    /// each thread's stack of measured functions): the table's `Source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Calls that got a response or failed.
    pub calls: u64,
    /// Responses by status class.
    pub status: StatusClasses,
    /// Calls that failed without a response (connect, timeout, protocol).
    pub transport_errors: u64,
    /// Transport errors plus responses with status 400 or above.
    pub errors: u64,
    /// Call to response head (or to the failure).
    pub latency: DurationStats,
    /// `latency.total_ns` as a percentage of the section's `total_ns` (one decimal):
    /// the table's `% Total`.
    #[serde(default)]
    pub total_percent: f64,
    /// Response body bytes announced by `Content-Length`.
    pub response_bytes: u64,
    /// Responses that announced a length (the others are not in `response_bytes`).
    pub sized_responses: u64,
}
