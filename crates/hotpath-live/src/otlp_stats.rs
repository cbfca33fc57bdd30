//! What the OTLP exporter has done, for `/profiler_status` and for its own counter in
//! the pushed batches. A leaf: the exporter (`otlp`) writes it and the server reads
//! it, and neither imports the other.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Value};

use crate::lock;

/// Counters of one process's exporter.
#[derive(Default)]
pub(crate) struct OtlpStats {
    /// Batches the endpoint accepted (2xx).
    pub(crate) sent: AtomicU64,
    /// Batches given up: pushed out of the full queue, or refused for good (a 4xx
    /// other than 429).
    pub(crate) dropped: AtomicU64,
    /// Attempts that failed and were kept for a retry (no connection, timeout, 429,
    /// 502, 503, 504).
    pub(crate) failed: AtomicU64,
    /// Batches waiting now.
    pub(crate) queued: AtomicU64,
    /// Data points the endpoint said it rejected (a partial success).
    pub(crate) rejected_points: AtomicU64,
    /// The last problem, for a person reading the status.
    pub(crate) last_error: Mutex<Option<String>>,
}

impl OtlpStats {
    pub(crate) fn note_error(&self, error: String) {
        *lock(&self.last_error) = Some(error);
    }

    pub(crate) fn count(counter: &AtomicU64) -> u64 {
        counter.load(Relaxed)
    }
}

/// The exporter's endpoint URL and counters, once it started.
pub(crate) static OTLP: OnceLock<(String, Arc<OtlpStats>)> = OnceLock::new();

/// `/profiler_status`'s `otlp` member: `null` when the export is off.
pub(crate) fn status() -> Value {
    let Some((endpoint, s)) = OTLP.get() else { return Value::Null };
    json!({
        "endpoint": endpoint,
        "sent_batches": OtlpStats::count(&s.sent),
        "dropped_batches": OtlpStats::count(&s.dropped),
        "failed_attempts": OtlpStats::count(&s.failed),
        "queued_batches": OtlpStats::count(&s.queued),
        "rejected_points": OtlpStats::count(&s.rejected_points),
        "last_error": *lock(&s.last_error),
    })
}
