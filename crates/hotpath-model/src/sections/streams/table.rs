//! The printed table of the `streams` section.

use crate::format::format_count;
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::stats::DurationStats;

use super::Streams;

impl Streams {
    /// The `streams` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let mut header: Vec<String> =
            ["Stream", "Item", "Inst", "Active", "Done", "Items", "Rate"].map(String::from).to_vec();
        header.extend(DurationStats::header("Interval", meta));
        let mut table = Table::new(header).names(meta.name_width);
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
