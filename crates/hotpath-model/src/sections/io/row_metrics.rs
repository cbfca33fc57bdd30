//! `io` rows list their figures for typed readers (`hotpath compare`).

use crate::percentiles::percentile_label;
use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::{IoControl, IoRow, IoTransfer};

impl RowMetrics for IoRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "instances", Unit::Count, self.instances as f64);
        transfer(&mut out, "read", &self.read);
        transfer(&mut out, "write", &self.write);
        control(&mut out, "flush", &self.flush);
        control(&mut out, "shutdown", &self.shutdown);
        out
    }
}

/// One direction's figures under `prefix` (`read`), in JSON order.
fn transfer(out: &mut Vec<RowMetric>, prefix: &str, t: &IoTransfer) {
    let figures = [
        ("ops", Unit::Count, t.ops),
        ("bytes", Unit::Bytes, t.bytes),
        ("errors", Unit::Count, t.errors),
        ("timed_ops", Unit::Count, t.timed_ops),
        ("timed_bytes", Unit::Bytes, t.timed_bytes),
        ("timed_ns", Unit::Nanoseconds, t.timed_ns),
        ("avg_ns", Unit::Nanoseconds, t.avg_ns),
        ("min_ns", Unit::Nanoseconds, t.min_ns),
        ("max_ns", Unit::Nanoseconds, t.max_ns),
    ];
    for (name, unit, value) in figures {
        push(out, &format!("{prefix}.{name}"), unit, value as f64);
    }
    for (p, value) in &t.percentiles_ns.0 {
        push(out, &format!("{prefix}.percentiles_ns.{}", percentile_label(*p)), Unit::Nanoseconds, *value as f64);
    }
    if let Some(rate) = t.bytes_per_sec {
        push(out, &format!("{prefix}.bytes_per_sec"), Unit::BytesPerSecond, rate as f64);
    }
}

/// A flush's or shutdown's figures under `prefix`.
fn control(out: &mut Vec<RowMetric>, prefix: &str, c: &IoControl) {
    let figures = [
        ("ops", Unit::Count, c.ops),
        ("errors", Unit::Count, c.errors),
        ("timed_ops", Unit::Count, c.timed_ops),
        ("timed_ns", Unit::Nanoseconds, c.timed_ns),
    ];
    for (name, unit, value) in figures {
        push(out, &format!("{prefix}.{name}"), unit, value as f64);
    }
}
