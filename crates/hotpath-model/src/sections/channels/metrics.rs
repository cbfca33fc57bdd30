//! `channels` for the sinks: rows by channel, and its metric families.

use crate::export::{EstimateFamilies, Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Channels;

impl SectionData for Channels {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut sent =
            Family::new("hotpath_channel_sent_total", MetricKind::Counter, "Messages sent into each channel.");
        let mut received =
            Family::new("hotpath_channel_received_total", MetricKind::Counter, "Messages received from each channel.");
        let mut queue =
            Family::new("hotpath_channel_queue_length", MetricKind::Gauge, "Messages sent and not yet received.");
        let mut latency = Family::new(
            "hotpath_channel_latency_seconds",
            MetricKind::Histogram,
            "Time from a successful send to the matching receive.",
        );
        let mut blocked = Family::new(
            "hotpath_channel_blocked_seconds",
            MetricKind::Histogram,
            "Time sends waited on a full bounded channel.",
        );
        // The section's own verdict, so an alert needs no second guess at the rule.
        let mut slow = Family::new(
            "hotpath_channel_slow_consumer",
            MetricKind::Gauge,
            "1 while the queue has grown for the slow-consumer window (the report's rule), else 0.",
        );
        let mut estimated = EstimateFamilies::new(
            "hotpath_channel_latency_timed_ratio",
            "hotpath_channel_latency_seconds_ci95",
            "95% interval of the estimated total latency, where the overhead budget timed a share of messages.",
        );
        for row in &self.rows {
            let l = [("channel", row.name.as_str())];
            estimated.add_stats(&l, &row.latency);
            sent.value(&l, row.sent as f64);
            received.value(&l, row.received as f64);
            queue.value(&l, row.queue_len as f64);
            latency.histogram(&l, row.latency.buckets.as_ref());
            blocked.histogram(&l, row.blocked.buckets.as_ref());
            slow.value(&l, f64::from(u8::from(row.slow_consumer_now)));
        }
        out.extend([sent, received, queue, latency, blocked, slow]);
        out.extend(estimated.into_families());
    }

    fn row_names(&self) -> Vec<&str> {
        self.rows.iter().map(|r| r.name.as_str()).collect()
    }

    fn keep_rows(&mut self, keep: &[usize]) {
        keep_rows(&mut self.rows, keep);
    }

    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        visit_rows(&self.rows, each)
    }

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("total_channels", crate::Unit::Count, self.total_channels as f64);
        true
    }
}
