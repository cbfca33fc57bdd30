//! The `sql` section: queries through sqlx (its `sqlx::query` tracing events) and
//! diesel (its instrumentation), one row per normalized query, route (scope) and
//! calling function.

mod metrics;
mod row_metrics;
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
    /// Time over all rows (before the limit): what `total_percent` is a share of.
    #[serde(default)]
    pub total_ns: u64,
    /// Rows after focus and limit, by total time, longest first.
    pub rows: Vec<SqlRow>,
}

impl SqlRow {
    /// What the `Rows` column shows: rows returned by a read, affected by a write
    /// (where a write also returned rows, `RETURNING`, the two agree).
    pub fn rows(&self) -> u64 {
        self.rows_returned.max(self.rows_affected)
    }
}

/// One normalized query, as run from one route and function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SqlRow {
    /// Unique row name: the query, then ` <- route` and ` in function` when known.
    pub name: String,
    /// The statement with every literal and placeholder as `?`, comments dropped,
    /// `IN (...)` lists as `IN (?)`, `VALUES` rows as the first, whitespace collapsed;
    /// at most 1 KiB (head ` … ` tail ` #hash` past it).
    pub query: String,
    /// `sqlx` or `diesel`.
    pub library: String,
    /// The server route whose request ran it (route scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// The innermost measured function that ran it (with `hotpath-cpu`): the table's
    /// `Source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Executions.
    pub calls: u64,
    /// Executions that failed.
    pub errors: u64,
    /// Rows the executions returned, where the library says (sqlx does).
    pub rows_returned: u64,
    /// Rows they changed, where the library says (sqlx does); 0 for statements that
    /// only read (sqlx reports an earlier write's count for them on SQLite).
    pub rows_affected: u64,
    /// Execution time, as the library measured it (sqlx) or from start to finish
    /// events (diesel).
    pub latency: DurationStats,
    /// `latency.total_ns` as a percentage of the section's `total_ns` (one decimal):
    /// the table's `% Total`.
    #[serde(default)]
    pub total_percent: f64,
    /// The first raw statement of this row, literals included: only with
    /// `HOTPATH_SQL_RAW_LOGS=1`, since it may hold personal data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_example: Option<String>,
}
