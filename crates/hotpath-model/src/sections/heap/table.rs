//! The printed table of the `heap` section.

use crate::format::{format_bytes, format_count};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;

use super::Heap;

impl Heap {
    /// The `heap` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let mut table =
            Table::new(["Allocated at", "Live bytes", "95% interval", "Objects", "Samples", "Growing"]).names(meta.name_width);
        for row in &self.rows {
            table.row(vec![
                row.name.clone(),
                format_bytes(row.live_bytes),
                format!("{} - {}", format_bytes(row.live_bytes_low), format_bytes(row.live_bytes_high)),
                format_count(row.live_objects),
                format_count(row.samples),
                if row.growing { "yes" } else { "" }.to_string(),
            ]);
        }
        let mut summary = format!(
            "{}; {} live ({} - {}), sampled every {} on average",
            shown(self.rows.len(), self.total_stacks),
            format_bytes(self.live_bytes),
            format_bytes(self.live_bytes_low),
            format_bytes(self.live_bytes_high),
            format_bytes(self.sample_bytes)
        );
        if self.ignored_bytes > 0 {
            summary.push_str(&format!(", {} allow-listed", format_bytes(self.ignored_bytes)));
        }
        if self.dropped_samples > 0 {
            summary.push_str(&format!(", {} samples dropped", format_count(self.dropped_samples)));
        }
        titled(
            "heap",
            "Live heap by allocation stack, estimated from sampled allocations (at exit: still allocated when main returned).",
            &summary,
            &table,
        )
    }
}
