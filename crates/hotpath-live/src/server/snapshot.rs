//! The data every endpoint serves, built off the hot path and cached briefly, so
//! that many clients polling at once cost one build per interval, not one each.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hotpath_model::Report;
use serde_json::{Map, Value};

use crate::lock;
use hotpath_engine::memory;
use hotpath_engine::options::Focus;
use hotpath_engine::{duration_buckets, DurationBuckets};

/// How long one snapshot is reused.
const MAX_AGE: Duration = Duration::from_millis(200);

/// Upper bounds of the Prometheus duration buckets: decades from 100 ns to 10 s.
pub(crate) const BUCKET_BOUNDS_NS: [u64; 9] =
    [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000];

/// One consistent view of the profiled program.
pub(crate) struct Snapshot {
    /// The report with every row (no row limit), as a JSON object.
    pub(crate) report: Map<String, Value>,
    /// Call-duration histograms per function at [`BUCKET_BOUNDS_NS`].
    pub(crate) buckets: Vec<DurationBuckets>,
    pub(crate) uptime: Duration,
    pub(crate) profiler_bytes: usize,
    pub(crate) recording_threads: usize,
    pub(crate) recording: bool,
    taken: Instant,
}

impl Snapshot {
    /// A snapshot of `report`, with process figures read now; histograms are added by [`live`].
    pub(crate) fn from_report(report: &Report, uptime: Duration) -> Self {
        let report = match serde_json::to_value(report) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        Self {
            report,
            buckets: Vec::new(),
            uptime,
            profiler_bytes: memory::profiler_bytes(),
            recording_threads: hotpath_engine::live_threads(),
            recording: hotpath_engine::switch::enabled(),
            taken: Instant::now(),
        }
    }

    /// The `meta` object of the report.
    pub(crate) fn meta(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        self.report.get("meta").and_then(Value::as_object).unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }
}

static CACHE: Mutex<Option<Arc<Snapshot>>> = Mutex::new(None);

/// The live snapshot of the session, rebuilt when older than [`MAX_AGE`]; `None`
/// before a session has started. Concurrent callers wait for one build.
pub(crate) fn live() -> Option<Arc<Snapshot>> {
    let mut cache = lock(&CACHE);
    if let Some(s) = cache.as_ref().filter(|s| s.taken.elapsed() < MAX_AGE) {
        return Some(Arc::clone(s));
    }
    let report = hotpath_session::snapshot_unlimited()?;
    let focus = report.meta.focus.as_deref().and_then(|f| f.parse::<Focus>().ok());
    let mut snapshot = Snapshot::from_report(&report, hotpath_session::uptime().unwrap_or_default());
    snapshot.buckets = duration_buckets(&BUCKET_BOUNDS_NS, focus.as_ref());
    let snapshot = Arc::new(snapshot);
    *cache = Some(Arc::clone(&snapshot));
    Some(snapshot)
}
