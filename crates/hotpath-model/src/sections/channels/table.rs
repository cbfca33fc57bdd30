//! The printed table of the `channels` section.

use crate::derefs::{channel_module, noted, Reached};
use crate::format::{format_count, format_duration_ns};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::stats::DurationStats;

use super::Channels;

impl Channels {
    /// The `channels` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let mut header: Vec<String> =
            ["Channel", "Kind", "Message", "Inst", "Sent", "Recv", "Queue", "Max Q", "Blocked"]
                .map(String::from)
                .to_vec();
        header.extend(DurationStats::header("Latency", meta));
        header.extend(["State".to_string(), "Slow".into()]);
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let blocked = if row.blocked.count == 0 {
                "-".to_string()
            } else if meta.untimed() {
                format_count(row.blocked.count)
            } else {
                format!("{} ({})", format_duration_ns(row.blocked.total_ns), format_count(row.blocked.count))
            };
            let mut cells = vec![
                row.name.clone(),
                row.kind.clone(),
                row.message_type.clone(),
                format_count(row.instances),
                format_count(row.sent),
                format_count(row.received),
                format_count(row.queue_len),
                format_count(row.max_queue_len),
                blocked,
            ];
            cells.extend(row.latency.cells(meta));
            let slow = match (row.slow_consumer, row.slow_consumer_now) {
                (_, true) => "YES (now)",
                (true, false) => "yes",
                _ => "-",
            };
            cells.extend([row.state.clone(), slow.to_string()]);
            table.row(cells);
        }
        let summary = format!("{}; Slow: {}", shown(self.rows.len(), self.total_channels), self.slow_consumer_rule);
        let mut rendered = titled(
            "channels",
            "Messages, queue length, time senders blocked on a full channel, send-to-receive latency.",
            &summary,
            &table,
        );
        rendered.push_str(DurationStats::estimate_note(self.rows.iter().map(|r| &r.latency)));
        noted(
            rendered,
            self.rows.iter().map(|r| Reached {
                name: &r.name,
                derefs: r.derefs,
                unmeasured: "sends and receives",
                fix: format!("{}::...<{}>", channel_module(&r.kind), r.message_type),
            }),
        )
    }
}
