//! `channels` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_durations, RowMetric, RowMetrics};
use crate::units::Unit;

use super::ChannelRow;

impl RowMetrics for ChannelRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        if let Some(capacity) = self.capacity {
            push(&mut out, "capacity", Unit::Count, capacity as f64);
        }
        let counts = [
            ("instances", self.instances),
            ("closed_instances", self.closed_instances),
            ("sent", self.sent),
            ("received", self.received),
            ("queue_len", self.queue_len),
            ("max_queue_len", self.max_queue_len),
        ];
        for (key, value) in counts {
            push(&mut out, key, Unit::Count, value as f64);
        }
        push_durations(&mut out, "blocked", &self.blocked);
        push_durations(&mut out, "latency", &self.latency);
        // Informational (`Unit::judging`): a hint about the program, not a cost.
        push(&mut out, "derefs", Unit::Count, self.derefs as f64);
        out
    }
}
