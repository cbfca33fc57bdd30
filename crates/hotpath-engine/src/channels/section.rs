//! Builds the `channels` section.

use hotpath_model::{ChannelRow, Channels};

use super::entry::ChannelEntry;
use super::instance::type_label;
use super::slow;
use crate::durations;
use crate::entries::{all, Entry};
use crate::functions::{select, SiteTotals};
use crate::options::Options;

/// Slow consumers first, then by messages sent. `None` when no channel was wrapped.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Channels> {
    let entries = all::<ChannelEntry>();
    if entries.is_empty() {
        return None;
    }
    let empty = SiteTotals::default();
    let metric = |site: &'static crate::functions::FnSite| totals.get(site.id() as usize).unwrap_or(&empty);
    let mut rows: Vec<ChannelRow> = entries
        .iter()
        .map(|e| {
            let t = e.totals();
            let h = e.header();
            let mut row = ChannelRow::default();
            row.name = h.name.clone();
            row.file = h.file().to_string();
            row.line = h.line();
            row.kind = e.kind.to_string();
            row.message_type = type_label(h.type_name);
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
