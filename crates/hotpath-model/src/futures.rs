//! The `futures` section: `future!` sites and measured async functions, per poll and
//! per call (first poll to ready).

use serde::{Deserialize, Serialize};

use crate::format::{format_bytes, format_count, format_duration_ns};
use crate::report::Meta;
use crate::stats::DurationStats;
use crate::table::{shown, titled, Table};

/// Every `future!` site and `#[measure]`d async function that was polled.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Futures {
    /// Futures polled at least once, before the focus filter and the row limit.
    pub total_futures: usize,
    /// Rows after focus and limit, sorted by total wall time, largest first.
    pub rows: Vec<FutureRow>,
}

/// One `future!` site or async function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FutureRow {
    /// The label, the async function's path, or `file:line` of an unlabelled `future!`.
    pub name: String,
    /// Source file of the macro or annotated function.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `future` (a `future!` site) or `async_fn` (`#[measure]` on an async fn or an awaiting block).
    pub kind: String,
    /// Calls that completed (returned `Ready`).
    pub calls: u64,
    /// Calls dropped after their first poll and before `Ready`.
    pub cancelled: u64,
    /// Polls of all calls, cancelled ones included.
    pub polls: u64,
    /// Time spent inside those polls.
    pub busy_ns: u64,
    /// Wall time of completed calls, first poll to `Ready` (waiting included).
    pub wall: DurationStats,
    /// Mean bytes allocated per completed call, all polls summed (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc_bytes_avg: Option<u64>,
    /// Mean allocations per completed call (with `hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocs_avg: Option<u64>,
}

impl Futures {
    /// The `futures` table.
    pub(crate) fn render(&self, meta: &Meta) -> String {
        let alloc = self.rows.iter().any(|r| r.alloc_bytes_avg.is_some());
        let mut header: Vec<String> =
            ["Future", "Kind", "Calls", "Cancelled", "Polls", "Busy/Call"].map(String::from).to_vec();
        header.extend(DurationStats::header("Wall", meta));
        header.push("Wall Total".into());
        if alloc {
            header.extend(["Alloc/Call".to_string(), "Allocs/Call".into()]);
        }
        let mut table = Table::new(header);
        for row in &self.rows {
            let started = row.calls + row.cancelled;
            let busy = row.busy_ns.checked_div(started).map_or_else(|| "-".into(), format_duration_ns);
            let mut cells = vec![
                row.name.clone(),
                row.kind.replace('_', " "),
                format_count(row.calls),
                format_count(row.cancelled),
                format_count(row.polls),
                busy,
            ];
            cells.extend(row.wall.cells(meta));
            cells.push(format_duration_ns(row.wall.total_ns));
            if alloc {
                cells.push(row.alloc_bytes_avg.map_or_else(|| "-".into(), format_bytes));
                cells.push(row.allocs_avg.map_or_else(|| "-".into(), format_count));
            }
            table.row(cells);
        }
        titled(
            "futures",
            "Futures and async functions; Busy is time inside polls, Wall spans first poll to ready.",
            &shown(self.rows.len(), self.total_futures),
            &table,
        )
    }
}
