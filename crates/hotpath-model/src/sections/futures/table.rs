//! The printed table of the `futures` section.

use crate::format::{format_bytes, format_count, format_duration_ns, short_name};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::stats::DurationStats;

use super::Futures;

impl Futures {
    /// The `futures` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let alloc = self.rows.iter().any(|r| r.alloc_bytes_avg.is_some());
        let timed = !meta.untimed();
        let mut header: Vec<String> = ["Future", "Kind", "Calls", "Cancelled"].map(String::from).to_vec();
        header.push("Polls".into());
        if timed {
            header.push("Busy/Call".into());
            header.extend(DurationStats::header("Wall", meta));
            header.push("Wall Total".into());
        }
        if alloc {
            header.extend(["Alloc/Call".to_string(), "Allocs/Call".into()]);
        }
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let started = row.calls + row.cancelled;
            let busy = row.busy_ns.checked_div(started).map_or_else(|| "-".into(), format_duration_ns);
            let mut cells = vec![
                short_name(&row.name, meta.name_depth).to_string(),
                row.kind.replace('_', " "),
                format_count(row.calls),
                format_count(row.cancelled),
                format_count(row.polls),
            ];
            if timed {
                cells.push(busy);
                cells.extend(row.wall.cells(meta));
                cells.extend(row.wall.total_cell(meta));
            }
            if alloc {
                cells.push(row.alloc_bytes_avg.map_or_else(|| "-".into(), format_bytes));
                cells.push(row.allocs_avg.map_or_else(|| "-".into(), format_count));
            }
            table.row(cells);
        }
        let note = DurationStats::estimate_note(self.rows.iter().map(|r| &r.wall));
        let text = titled(
            "futures",
            if timed {
                "Futures and async functions; Busy is time inside polls, Wall spans first poll to ready."
            } else {
                "Futures and async functions; under Callgrind durations are not measured."
            },
            &shown(self.rows.len(), self.total_futures),
            &table,
        );
        text + note
    }
}
