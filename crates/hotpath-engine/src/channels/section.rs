//! Builds the `channels` section.

use hotpath_model::{ChannelRow, Channels};

use super::entry::ChannelEntry;
use super::slow;
use crate::entries::{short_type_name, Instrument};
use crate::options::Options;
use crate::record::durations;
use crate::record::{select, SiteTotals};

/// Slow consumers first, then by messages sent, from the metrics' `totals`. `None` when
/// no channel was wrapped.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Channels> {
    let entries = ChannelEntry::registry().all();
    if entries.is_empty() {
        return None;
    }
    let empty = SiteTotals::default();
    let metric = |metric: crate::record::Metric| metric.totals(totals).unwrap_or(&empty);
    let mut rows: Vec<ChannelRow> = entries
        .iter()
        .map(|e| {
            let t = e.totals();
            let mut row = ChannelRow::default();
            row.name = e.name().to_string();
            row.file = e.file().to_string();
            row.line = e.line();
            row.kind = e.kind.to_string();
            row.message_type = short_type_name(e.type_name());
            row.capacity = e.capacity;
            row.instances = t.instances;
            row.closed_instances = t.closed;
            row.state = if t.closed < t.instances { "open" } else { "closed" }.into();
            row.sent = t.sent;
            row.received = t.received;
            row.queue_len = t.queue_len;
            row.max_queue_len = t.max_queue_len;
            row.blocked = durations::stats(metric(e.blocked), 0, ratio, config);
            row.latency = durations::stats(metric(e.latency), 0, ratio, config);
            row.slow_consumer = t.slow_consumer;
            row.slow_consumer_now = t.slow_consumer_now;
            row.derefs = e.derefs.get();
            row
        })
        .collect();
    rows.sort_by(|a, b| (b.slow_consumer, b.sent).cmp(&(a.slow_consumer, a.sent)).then_with(|| a.name.cmp(&b.name)));
    let (total_channels, rows) = select(rows, |r| &r.name, config);
    let mut section = Channels::default();
    section.slow_consumer_rule = slow::rule();
    section.total_channels = total_channels;
    section.rows = rows;
    Some(section)
}
