//! `streams` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_durations, RowMetric, RowMetrics};
use crate::units::Unit;

use super::StreamRow;

impl RowMetrics for StreamRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        let counts = [
            ("instances", self.instances),
            ("active", self.active),
            ("completed", self.completed),
            ("cancelled", self.cancelled),
            ("items", self.items),
        ];
        for (key, value) in counts {
            push(&mut out, key, Unit::Count, value as f64);
        }
        push(&mut out, "lifetime_ns", Unit::Nanoseconds, self.lifetime_ns as f64);
        push(&mut out, "items_per_sec", Unit::PerSecond, self.items_per_sec);
        push_durations(&mut out, "item_interval", &self.item_interval);
        out
    }
}
