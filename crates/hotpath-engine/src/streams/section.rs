//! Builds the `streams` section.

use hotpath_model::{StreamRow, Streams};

use super::entry::StreamEntry;
use crate::clock::{self, to_ns};
use crate::durations;
use crate::entries::{all, short_type_name, Entry};
use crate::functions::{select, SiteTotals};
use crate::options::Options;

/// Rows by items yielded, most first. `None` when no stream was wrapped.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Streams> {
    let entries = all::<StreamEntry>();
    if entries.is_empty() {
        return None;
    }
    let now = clock::now();
    let empty = SiteTotals::default();
    let mut rows: Vec<StreamRow> = entries
        .iter()
        .map(|e| {
            let h = e.header();
            let items = totals.get(e.items.id() as usize).unwrap_or(&empty);
            let life = e.lifecycle(now);
            let mut row = StreamRow::default();
            row.name = h.name.clone();
            row.file = h.file().to_string();
            row.line = h.line();
            row.item_type = short_type_name(h.type_name);
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
