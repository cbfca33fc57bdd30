//! `/metrics` in the Prometheus text exposition format (version 0.0.4), or in the
//! protobuf format with native histograms when the scraper asks for it (`negotiate`,
//! `protobuf`). Every section's families come from the typed model
//! (`SectionData::metrics`); this file adds the process-level families and writes the
//! text: label escaping, histogram buckets in seconds, one `# HELP`/`# TYPE` pair per
//! family. Both formats serve the same families, labels and carried counts.
//!
//! Every series starts with the process labels (`HOTPATH_METRICS_LABELS`), and
//! counters and histograms go on from where an earlier session of the process left
//! them (`carry`). Bucket bounds are one constant ([`BUCKET_BOUNDS_NS`]): the same in
//! every process and every run, so `sum by (le)` across a fleet is a valid histogram.
//!
//! Row limits do not apply here: a series must not vanish because another function
//! overtook it. The focus filter does apply. Series per row: a fixed 10 buckets per
//! histogram plus a few counters, so cardinality is bounded by measured sites.

use std::fmt::Write;

use hotpath_model::{Families, Family, MetricKind, Sample, BUCKET_BOUNDS_NS};

use super::snapshot::Snapshot;
use super::state::Stats;

mod carry;
mod escape;
mod negotiate;
mod proto;
mod protobuf;

pub(crate) use carry::Exposition;
use escape::escape;
pub(crate) use negotiate::{negotiate, Format};

/// The whole exposition, in `format`.
pub(crate) fn render(snapshot: &Snapshot, stats: &Stats, exposition: &Exposition, format: Format) -> Vec<u8> {
    let mut families = process(snapshot, stats);
    for (_, section) in snapshot.report.sections() {
        section.metrics(&mut families);
    }
    exposition.carry(snapshot.session, &mut families);
    let served = families.iter().filter(|f| !f.series.is_empty());
    match format {
        Format::Text => {
            let mut out = String::with_capacity(4096);
            for family in served {
                write_family(&mut out, family, &exposition.labels);
            }
            out.into_bytes()
        }
        Format::Protobuf => {
            let mut out = Vec::with_capacity(4096);
            for family in served {
                protobuf::write_family(&mut out, family, &exposition.pairs);
            }
            out
        }
    }
}

/// Families about the profiler and the process rather than a section.
fn process(snapshot: &Snapshot, stats: &Stats) -> Families {
    let meta = &snapshot.report.meta;
    let mut info = Family::new("hotpath_info", MetricKind::Gauge, "Profiled program and hotpath version; always 1.");
    info.value(&[("version", &meta.hotpath_version), ("caller", &meta.caller), ("clock", &meta.clock)], 1.0);
    let mut uptime = Family::new("hotpath_uptime_seconds", MetricKind::Gauge, "Time since profiling started.");
    uptime.value(&[], snapshot.uptime.as_secs_f64());
    let mut recording = Family::new(
        "hotpath_recording",
        MetricKind::Gauge,
        "1 while measurements are recorded, 0 after the final report.",
    );
    recording.value(&[], f64::from(u8::from(snapshot.recording)));
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
    memory.value(&[], snapshot.profiler_bytes as f64);
    let mut threads = Family::new("hotpath_recording_threads", MetricKind::Gauge, "Threads with a live recorder.");
    threads.value(&[], snapshot.recording_threads as f64);
    let mut responses = Family::new(
        "hotpath_http_responses_total",
        MetricKind::Counter,
        "Responses of the live metrics server by status class.",
    );
    for (class, count) in stats.responses() {
        responses.value(&[("code", &format!("{class}xx"))], count as f64);
    }
    let mut families = vec![info, uptime, recording, dropped, memory, threads, responses];
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

fn write_family(out: &mut String, family: &Family, process: &[String]) {
    let name = family.name;
    let _ = write!(out, "# HELP {name} {}\n# TYPE {name} {}\n", family.help, family.kind.as_str());
    for series in &family.series {
        let own = series.labels.iter().map(|(k, v)| format!("{k}=\"{}\"", escape(v)));
        let labels: Vec<String> = process.iter().cloned().chain(own).collect();
        match &series.sample {
            Sample::Value(value) => sample(out, name, &labels, None, *value),
            Sample::Histogram(b) => {
                let bucket = format!("{name}_bucket");
                for (bound, count) in BUCKET_BOUNDS_NS.iter().zip(&b.cumulative) {
                    let le = format!("le=\"{}\"", *bound as f64 / 1e9);
                    sample(out, &bucket, &labels, Some(&le), *count as f64);
                }
                sample(out, &bucket, &labels, Some("le=\"+Inf\""), b.count as f64);
                sample(out, &format!("{name}_sum"), &labels, None, b.sum_ns as f64 / 1e9);
                sample(out, &format!("{name}_count"), &labels, None, b.count as f64);
            }
        }
    }
}

fn sample(out: &mut String, name: &str, labels: &[String], extra: Option<&str>, value: f64) {
    let all: Vec<&str> = labels.iter().map(String::as_str).chain(extra).collect();
    if all.is_empty() {
        let _ = writeln!(out, "{name} {value}");
    } else {
        let _ = writeln!(out, "{name}{{{}}} {value}", all.join(","));
    }
}

#[cfg(test)]
mod tests;
