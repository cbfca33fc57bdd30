//! The data every endpoint serves, built off the hot path and cached briefly, so
//! that many clients polling at once cost one build per interval, not one each.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hotpath_model::{Families, Family, MetricKind, Report};

use crate::lock;

/// How long one snapshot (and what is rendered from it, `rendered`) is reused.
pub(crate) const MAX_AGE: Duration = Duration::from_millis(200);

/// One consistent view of the profiled program.
pub(crate) struct Snapshot {
    /// The typed report with every row (no row limit) and duration buckets.
    pub(crate) report: Report,
    pub(crate) uptime: Duration,
    pub(crate) profiler_bytes: usize,
    pub(crate) recording_threads: usize,
    pub(crate) recording: bool,
    /// The session the report comes from (1 for the process's first).
    pub(crate) session: u64,
    taken: Instant,
}

impl Snapshot {
    /// Families about the profiler and the process rather than a section, the same
    /// on `/metrics` and in the OTLP push.
    pub(crate) fn process_families(&self) -> Families {
        let meta = &self.report.meta;
        let mut info =
            Family::new("hotpath_info", MetricKind::Gauge, "Profiled program and hotpath version; always 1.");
        info.value(&[("version", &meta.hotpath_version), ("caller", &meta.caller), ("clock", &meta.clock)], 1.0);
        let mut uptime = Family::new("hotpath_uptime_seconds", MetricKind::Gauge, "Time since profiling started.");
        uptime.value(&[], self.uptime.as_secs_f64());
        let mut recording = Family::new(
            "hotpath_recording",
            MetricKind::Gauge,
            "1 while measurements are recorded, 0 after the final report.",
        );
        recording.value(&[], f64::from(u8::from(self.recording)));
        let mut dropped = Family::new(
            "hotpath_dropped_measurements_total",
            MetricKind::Counter,
            "Measurements the profiler could not record.",
        );
        dropped.value(&[], meta.dropped as f64);
        let mut memory = Family::new(
            "hotpath_profiler_memory_bytes",
            MetricKind::Gauge,
            "Heap memory held by the profiler's recorders.",
        );
        memory.value(&[], self.profiler_bytes as f64);
        let mut threads = Family::new("hotpath_recording_threads", MetricKind::Gauge, "Threads with a live recorder.");
        threads.value(&[], self.recording_threads as f64);
        let mut families = vec![info, uptime, recording, dropped, memory, threads];
        if let Some(o) = &meta.overhead {
            let mut ratio = Family::new(
                "hotpath_profiler_overhead_ratio",
                MetricKind::Gauge,
                "The profiler's estimated share of the process's CPU time (overhead budget set).",
            );
            ratio.value(&[], o.profiler_overhead_ratio);
            let mut budget =
                Family::new("hotpath_overhead_budget_ratio", MetricKind::Gauge, "The configured overhead budget.");
            budget.value(&[], o.budget);
            families.extend([ratio, budget]);
        }
        families
    }

    /// A snapshot of `report`, with process figures read now.
    pub(crate) fn new(report: Report, uptime: Duration) -> Self {
        Self {
            report,
            uptime,
            profiler_bytes: hotpath_engine::profiler_bytes(),
            recording_threads: hotpath_engine::live_threads(),
            recording: hotpath_engine::switch::enabled(),
            session: 1,
            taken: Instant::now(),
        }
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
    build(&mut cache)
}

/// A snapshot taken now, whatever the cache holds (the OTLP exporter's last push
/// of a session must count every call up to its end).
pub(crate) fn fresh() -> Option<Arc<Snapshot>> {
    build(&mut lock(&CACHE))
}

fn build(cache: &mut Option<Arc<Snapshot>>) -> Option<Arc<Snapshot>> {
    let (session, report) = hotpath_session::snapshot_live_session()?;
    let snapshot =
        Arc::new(Snapshot { session, ..Snapshot::new(report, hotpath_session::uptime().unwrap_or_default()) });
    *cache = Some(Arc::clone(&snapshot));
    Some(snapshot)
}
