//! Builds the `streams` section.

use hotpath_model::{StreamRow, Streams};

use super::entry::StreamEntry;
use crate::clock::{self, to_ns};
use crate::entries::{short_type_name, Instrument};
use crate::options::Options;
use crate::record::durations;
use crate::record::{select, SiteTotals};

/// Rows by items yielded, most first, from the metrics' `totals`. `None` when no stream
/// was wrapped.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Streams> {
    let entries = StreamEntry::registry().all();
    if entries.is_empty() {
        return None;
    }
    let now = clock::now();
    let empty = SiteTotals::default();
    let mut rows: Vec<StreamRow> = entries
        .iter()
        .map(|e| {
            let items = e.items.totals(totals).unwrap_or(&empty);
            let life = e.lifecycle(now);
            let mut row = StreamRow::default();
            row.name = e.name().to_string();
            row.file = e.file().to_string();
            row.line = e.line();
            row.item_type = short_type_name(e.type_name());
            row.instances = life.instances;
            row.active = life.active;
            row.completed = life.completed;
            row.cancelled = life.cancelled;
            row.items = items.polls;
            row.lifetime_ns = to_ns(life.lifetime_ticks, ratio);
            row.items_per_sec =
                if row.lifetime_ns == 0 { 0.0 } else { row.items as f64 * 1e9 / row.lifetime_ns as f64 };
            row.item_interval = durations::stats(items, 0, ratio, config);
            row
        })
        .collect();
    rows.sort_by(|a, b| b.items.cmp(&a.items).then_with(|| a.name.cmp(&b.name)));
    let (total_streams, rows) = select(rows, |r| &r.name, config);
    let mut section = Streams::default();
    section.total_streams = total_streams;
    section.rows = rows;
    Some(section)
}
