//! The `sql` section: queries through sqlx (its `sqlx::query` tracing events) and
//! diesel (its instrumentation), one row per normalized query, route (scope) and
//! calling function.

mod metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::DurationStats;

/// Every query run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Sql {
    /// Rows before the focus filter and the row limit.
    pub total_queries: usize,
    /// Queries run over all rows (before the limit).
    pub calls: u64,
    /// Rows after focus and limit, by total time, longest first.
    pub rows: Vec<SqlRow>,
}

/// One normalized query, as run from one route and function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SqlRow {
    /// Unique row name: the query, then ` <- route` and ` in function` when known.
    pub name: String,
    /// The statement with literals and placeholders as `?`, `IN (...)` lists as
    /// `IN (?)`, whitespace collapsed.
    pub query: String,
    /// `sqlx` or `diesel`.
    pub library: String,
    /// The server route whose request ran it (route scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// The innermost measured function that ran it (with `hotpath-cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Executions.
    pub calls: u64,
    /// Executions that failed.
    pub errors: u64,
    /// Rows the executions returned, where the library says (sqlx does).
    pub rows_returned: u64,
    /// Rows they changed, where the library says (sqlx does).
    pub rows_affected: u64,
    /// Execution time, as the library measured it (sqlx) or from start to finish
    /// events (diesel).
    pub latency: DurationStats,
    /// The first raw statement of this row, literals included: only with
    /// `HOTPATH_SQL_RAW_LOGS=1`, since it may hold personal data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_example: Option<String>,
}
