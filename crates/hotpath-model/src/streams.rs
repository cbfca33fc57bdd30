//! The `streams` section: `stream!` sites, their instances and the items they yielded.

use serde::{Deserialize, Serialize};

use crate::format::format_count;
use crate::report::Meta;
use crate::stats::DurationStats;
use crate::table::{shown, titled, Table};

/// Every `stream!` site (or instance, with `iter = true`) that was created.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Streams {
    /// Rows before the focus filter and the row limit.
    pub total_streams: usize,
    /// Rows after focus and limit, sorted by items yielded, most first.
    pub rows: Vec<StreamRow>,
}

/// One `stream!` site and item type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StreamRow {
    /// The label or `file:line`; `label-2`, `label-3`, ... for further instances with `iter = true`.
    pub name: String,
    /// Source file of the macro.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Type of the items.
    pub item_type: String,
    /// Streams wrapped at this site.
    pub instances: u64,
    /// Of those, polled at least once and neither finished nor dropped yet.
    pub active: u64,
    /// Finished: returned `None`.
    pub completed: u64,
    /// Dropped after their first poll and before returning `None`.
    pub cancelled: u64,
    /// Items yielded.
    pub items: u64,
    /// Lifetimes summed over instances: first poll to end (or to now while active).
    pub lifetime_ns: u64,
    /// `items / lifetime`: items per second of a stream's life. For concurrent instances
    /// it is the rate of one instance; times `active` bounds the site's throughput.
    pub items_per_sec: f64,
    /// Time per item, averaged over windows of 32 items (a window also ends with its
    /// stream); `count` is the number of windows.
    pub item_interval: DurationStats,
}

impl Streams {
    /// The `streams` table.
    pub(crate) fn render(&self, meta: &Meta) -> String {
        let mut header: Vec<String> =
            ["Stream", "Item", "Inst", "Active", "Done", "Items", "Rate"].map(String::from).to_vec();
        header.extend(DurationStats::header("Interval", meta));
        let mut table = Table::new(header);
        for row in &self.rows {
            let mut cells = vec![
                row.name.clone(),
                row.item_type.clone(),
                format_count(row.instances),
                format_count(row.active),
                format_count(row.completed),
                format_count(row.items),
                format_rate(row.items_per_sec),
            ];
            cells.extend(row.item_interval.cells(meta));
            table.row(cells);
        }
        titled(
            "streams",
            "Streams: instances, items yielded, items per second of a stream's life, time per item.",
            &shown(self.rows.len(), self.total_streams),
            &table,
        )
    }
}

/// `1234.5` → `"1.2K/s"`, `12.0` → `"12.0/s"`.
pub(crate) fn format_rate(per_sec: f64) -> String {
    if per_sec >= 1_000_000.0 {
        format!("{:.1}M/s", per_sec / 1_000_000.0)
    } else if per_sec >= 1_000.0 {
        format!("{:.1}K/s", per_sec / 1_000.0)
    } else {
        format!("{per_sec:.1}/s")
    }
}
