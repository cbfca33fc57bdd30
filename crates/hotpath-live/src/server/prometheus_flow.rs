//! `/metrics` families of the data-flow and I/O sections (channels, futures,
//! streams, mutexes, rw-locks, `io!`), declared as a table: a family reads one or
//! two fields of every row of its section, by dotted path.

use std::fmt::Write;

use serde_json::Value;

use super::snapshot::Snapshot;

/// An extra `(label, value)` pair telling a family's series apart (`direction="read"`).
type Extra = Option<(&'static str, &'static str)>;
/// `(extra label, field path, divisor)`; the divisor turns nanoseconds into seconds.
type Series = &'static [(Extra, &'static str, f64)];

/// One family: which rows, which label names the row, which fields are its series.
struct Family {
    section: &'static str,
    label: &'static str,
    metric: &'static str,
    kind: &'static str,
    help: &'static str,
    series: Series,
}

const fn counter(
    section: &'static str,
    label: &'static str,
    metric: &'static str,
    help: &'static str,
    series: Series,
) -> Family {
    Family { section, label, metric, kind: "counter", help, series }
}

const READ: Extra = Some(("direction", "read"));
const WRITE: Extra = Some(("direction", "write"));
const SHARED: Extra = Some(("mode", "read"));
const EXCLUSIVE: Extra = Some(("mode", "write"));

const FAMILIES: &[Family] = &[
    counter(
        "channels",
        "channel",
        "hotpath_channel_sent_total",
        "Messages sent into each channel.",
        &[(None, "sent", 1.0)],
    ),
    counter(
        "channels",
        "channel",
        "hotpath_channel_received_total",
        "Messages received from each channel.",
        &[(None, "received", 1.0)],
    ),
    Family {
        section: "channels",
        label: "channel",
        metric: "hotpath_channel_queue_length",
        kind: "gauge",
        help: "Messages sent and not yet received.",
        series: &[(None, "queue_len", 1.0)],
    },
    counter("futures", "future", "hotpath_future_completed_total", "Futures that completed.", &[(None, "calls", 1.0)]),
    counter(
        "futures",
        "future",
        "hotpath_future_cancelled_total",
        "Futures dropped before completing.",
        &[(None, "cancelled", 1.0)],
    ),
    counter("futures", "future", "hotpath_future_polls_total", "Polls of each future.", &[(None, "polls", 1.0)]),
    counter("streams", "stream", "hotpath_stream_items_total", "Items each stream yielded.", &[(None, "items", 1.0)]),
    counter(
        "mutexes",
        "mutex",
        "hotpath_mutex_acquisitions_total",
        "Lock acquisitions.",
        &[(None, "lock.acquisitions", 1.0)],
    ),
    counter(
        "mutexes",
        "mutex",
        "hotpath_mutex_contended_total",
        "Acquisitions that had to wait.",
        &[(None, "lock.contended", 1.0)],
    ),
    counter(
        "mutexes",
        "mutex",
        "hotpath_mutex_wait_seconds_total",
        "Time spent waiting for the lock.",
        &[(None, "lock.wait.total_ns", 1e9)],
    ),
    counter(
        "rw_locks",
        "rw_lock",
        "hotpath_rw_lock_acquisitions_total",
        "Read and write acquisitions.",
        &[(SHARED, "reads.acquisitions", 1.0), (EXCLUSIVE, "writes.acquisitions", 1.0)],
    ),
    counter(
        "rw_locks",
        "rw_lock",
        "hotpath_rw_lock_wait_seconds_total",
        "Time spent waiting for read and write access.",
        &[(SHARED, "reads.wait.total_ns", 1e9), (EXCLUSIVE, "writes.wait.total_ns", 1e9)],
    ),
    counter(
        "io",
        "io",
        "hotpath_io_bytes_total",
        "Bytes read and written.",
        &[(READ, "read.bytes", 1.0), (WRITE, "write.bytes", 1.0)],
    ),
    counter(
        "io",
        "io",
        "hotpath_io_operations_total",
        "Read and write operations.",
        &[(READ, "read.ops", 1.0), (WRITE, "write.ops", 1.0)],
    ),
    counter(
        "io",
        "io",
        "hotpath_io_errors_total",
        "Failed read and write operations.",
        &[(READ, "read.errors", 1.0), (WRITE, "write.errors", 1.0)],
    ),
];

/// Every family whose section the snapshot has.
pub(crate) fn render(out: &mut String, snapshot: &Snapshot) {
    for family in FAMILIES {
        let rows = snapshot.report.get(family.section).and_then(|s| s.get("rows")).and_then(Value::as_array);
        let Some(rows) = rows else { continue };
        super::prometheus::family(out, family.metric, family.kind, family.help);
        for row in rows {
            let name = super::prometheus::escape(row.get("name").and_then(Value::as_str).unwrap_or(""));
            for (extra, path, divisor) in family.series {
                let Some(value) = path.split('.').try_fold(row, |v, k| v.get(k)).and_then(Value::as_f64) else {
                    continue;
                };
                let mut labels = format!("{}=\"{name}\"", family.label);
                if let Some((key, val)) = extra {
                    let _ = write!(labels, ",{key}=\"{val}\"");
                }
                super::prometheus::sample(out, family.metric, &labels, value / divisor);
            }
        }
    }
}
