//! OTLP metrics export (push), for OpenTelemetry users: every interval the `hp-otlp`
//! thread takes the live snapshot `/metrics` serves, turns the same metric families
//! into an OTLP `ExportMetricsServiceRequest` (`convert`: names, units, cumulative
//! sums, exponential histograms) and POSTs it as protobuf to
//! `HOTPATH_OTLP_ENDPOINT` + `/v1/metrics` (`client`, plain HTTP/1.1 over a std
//! `TcpStream`). Nothing runs on the program's threads: a slow or absent endpoint
//! only fills the bounded queue of the exporter's own thread (`outbox`), whose drops
//! are counted (`/profiler_status`'s `otlp`, and `hotpath_otlp_dropped_batches_total`
//! in the next batch that gets through).
//!
//! Started with the process's first session when an endpoint is set, with or without
//! the live server, and kept for the process's later sessions. Before each final
//! report the session calls [`ending`]: the exporter pushes a snapshot taken then and
//! the session waits for it at most [`FINAL_WAIT`].
//!
//! - `proto`: the OTLP messages, prost-derived from the published field numbers.
//! - `starts`: start times of cumulative series across sessions.

mod client;
mod convert;
mod outbox;
mod proto;
mod starts;
#[cfg(test)]
mod tests;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hotpath_model::{Families, Family, MetricKind};
use hotpath_session::OtlpSettings;
use prost::Message;

use crate::lock;
use crate::otlp_stats::{OtlpStats, OTLP};
use crate::server::{fresh_snapshot, live_snapshot, Snapshot};
use convert::When;
use outbox::Outbox;
use proto::{ExportMetricsServiceRequest, InstrumentationScope, KeyValue, Resource, ResourceMetrics, ScopeMetrics};
use starts::Starts;

/// Longest a session's end waits for its last push.
pub(crate) const FINAL_WAIT: Duration = Duration::from_secs(3);

/// Between the session's end and the exporter: which session asked for a last push,
/// and which one's last push is done.
#[derive(Default)]
struct Control {
    state: Mutex<(Option<u64>, u64)>,
    changed: Condvar,
}

static CONTROL: OnceLock<Control> = OnceLock::new();

/// Starts the exporter once per process (a warning if its thread cannot start).
pub(crate) fn start(settings: &OtlpSettings) {
    let stats = Arc::new(OtlpStats::default());
    if OTLP.set((settings.endpoint.url(), Arc::clone(&stats))).is_err() {
        return;
    }
    let _ = CONTROL.set(Control::default());
    hotpath_session::register_session_ending(ending);
    let mut exporter = Exporter::new(settings, stats);
    let interval = settings.interval;
    let builder = std::thread::Builder::new().name("hp-otlp".into()).stack_size(256 * 1024);
    let body = move || {
        hotpath_engine::memory::profiler_thread();
        exporter.run(interval);
    };
    let failed = |e: std::io::Error| hotpath_engine::diag::warn(&format!("OTLP export not started: {e}"));
    hotpath_engine::spawn::soon(builder, body, failed);
}

/// Session `id` is about to write its final report: push its last numbers, waiting
/// at most [`FINAL_WAIT`].
fn ending(id: u64) {
    let Some(control) = CONTROL.get() else { return };
    let deadline = Instant::now() + FINAL_WAIT;
    let mut state = lock(&control.state);
    state.0 = Some(id);
    control.changed.notify_all();
    while state.1 < id {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else { break };
        state = control.changed.wait_timeout(state, left).unwrap_or_else(|p| p.into_inner()).0;
    }
}

pub(crate) struct Exporter {
    outbox: Outbox,
    starts: Starts,
    resource: Vec<KeyValue>,
    stats: Arc<OtlpStats>,
}

impl Exporter {
    pub(crate) fn new(settings: &OtlpSettings, stats: Arc<OtlpStats>) -> Self {
        let mut resource: Vec<KeyValue> = settings.resource.iter().map(|(k, v)| KeyValue::string(k, v)).collect();
        if !settings.resource.iter().any(|(k, _)| k == "process.pid") {
            resource.push(KeyValue::int("process.pid", i64::from(std::process::id())));
        }
        let outbox = Outbox::new(settings.endpoint.clone(), Arc::clone(&stats));
        Self { outbox, starts: Starts::default(), resource, stats }
    }

    fn run(&mut self, interval: Duration) {
        let Some(control) = CONTROL.get() else { return };
        let mut next = Instant::now() + interval;
        loop {
            let mut state = lock(&control.state);
            while state.0.is_none() {
                let Some(left) = next.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else { break };
                state = control.changed.wait_timeout(state, left).unwrap_or_else(|p| p.into_inner()).0;
            }
            let last_of = state.0.take();
            drop(state);
            match last_of {
                Some(id) => {
                    if let Some(snapshot) = fresh_snapshot().filter(|s| s.session == id) {
                        let batch = self.batch(&snapshot);
                        self.outbox.push(batch);
                    }
                    self.outbox.flush(Instant::now() + FINAL_WAIT - Duration::from_millis(200));
                    let mut state = lock(&control.state);
                    state.1 = state.1.max(id);
                    control.changed.notify_all();
                }
                None => {
                    if let Some(snapshot) = live_snapshot() {
                        let batch = self.batch(&snapshot);
                        self.outbox.push(batch);
                    }
                    self.outbox.flush(Instant::now() + interval.min(Duration::from_secs(10)));
                    next = Instant::now() + interval;
                }
            }
        }
    }

    /// One snapshot as an encoded request.
    pub(crate) fn batch(&mut self, snapshot: &Snapshot) -> Vec<u8> {
        let mut families = self.process(snapshot);
        for (_, section) in snapshot.report.sections() {
            section.metrics(&mut families);
        }
        let now_ns = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let when = When { now_ns, session_start_ns: snapshot.report.meta.started_unix_ms * 1_000_000 };
        let metrics = families.iter().filter_map(|f| convert::metric(f, when, &mut self.starts)).collect();
        let scope = InstrumentationScope { name: "hotpath".into(), version: env!("CARGO_PKG_VERSION").into() };
        let request = ExportMetricsServiceRequest {
            resource_metrics: vec![ResourceMetrics {
                resource: Some(Resource { attributes: self.resource.clone() }),
                scope_metrics: vec![ScopeMetrics { scope: Some(scope), metrics }],
            }],
        };
        request.encode_to_vec()
    }

    /// Families about the profiler and the exporter rather than a section (those of
    /// `/metrics` but its HTTP responses, plus the exporter's drops).
    fn process(&self, snapshot: &Snapshot) -> Families {
        let mut families = snapshot.process_families();
        let mut batches = Family::new(
            "hotpath_otlp_dropped_batches_total",
            MetricKind::Counter,
            "OTLP batches dropped: the queue was full, or the endpoint refused them.",
        );
        batches.value(&[], self.stats.dropped.load(Relaxed) as f64);
        families.push(batches);
        families
    }
}
