//! `/metrics` in the Prometheus text exposition format (version 0.0.4): `hotpath_*`
//! families with units in their names, counters ending in `_total`, and call
//! durations as real histograms (`_bucket{le}`, `_sum`, `_count`).
//!
//! Row limits do not apply here: a series must not vanish because another function
//! overtook it. The focus filter does apply. Series per function: a fixed 10
//! buckets plus a few counters, so cardinality is bounded by measured sites.

use std::fmt::Write;

use serde_json::Value;

use super::snapshot::{Snapshot, BUCKET_BOUNDS_NS};
use super::Stats;

/// The content type Prometheus expects for this format.
pub(crate) const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The whole exposition.
pub(crate) fn render(snapshot: &Snapshot, stats: &Stats) -> String {
    let mut out = String::with_capacity(4096);
    let meta = snapshot.meta();
    let text = |key: &str| meta.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    family(&mut out, "hotpath_info", "gauge", "Profiled program and hotpath version; always 1.");
    let labels = format!(
        "version=\"{}\",caller=\"{}\",clock=\"{}\"",
        escape(&text("hotpath_version")),
        escape(&text("caller")),
        escape(&text("clock"))
    );
    sample(&mut out, "hotpath_info", &labels, 1.0);
    family(&mut out, "hotpath_uptime_seconds", "gauge", "Time since profiling started.");
    sample(&mut out, "hotpath_uptime_seconds", "", snapshot.uptime.as_secs_f64());
    family(&mut out, "hotpath_recording", "gauge", "1 while measurements are recorded, 0 after the final report.");
    sample(&mut out, "hotpath_recording", "", f64::from(u8::from(snapshot.recording)));
    family(&mut out, "hotpath_dropped_measurements_total", "counter", "Measurements the profiler could not record.");
    let dropped = meta.get("dropped").and_then(Value::as_u64).unwrap_or(0);
    sample(&mut out, "hotpath_dropped_measurements_total", "", dropped as f64);
    family(&mut out, "hotpath_profiler_memory_bytes", "gauge", "Heap memory held by the profiler's recorders.");
    sample(&mut out, "hotpath_profiler_memory_bytes", "", snapshot.profiler_bytes as f64);
    family(&mut out, "hotpath_recording_threads", "gauge", "Threads with a live recorder.");
    sample(&mut out, "hotpath_recording_threads", "", snapshot.recording_threads as f64);
    functions(&mut out, snapshot);
    allocations(&mut out, snapshot);
    cpu(&mut out, snapshot);
    threads(&mut out, snapshot);
    http(&mut out, stats);
    out
}

fn functions(out: &mut String, snapshot: &Snapshot) {
    if !snapshot.buckets.is_empty() {
        let name = "hotpath_function_duration_seconds";
        family(
            out,
            name,
            "histogram",
            "Duration of completed calls of measured functions (async: first poll to ready).",
        );
        for f in &snapshot.buckets {
            let function = format!("function=\"{}\"", escape(&f.name));
            for (bound, count) in BUCKET_BOUNDS_NS.iter().zip(&f.cumulative) {
                let le = *bound as f64 / 1e9;
                sample(out, &format!("{name}_bucket"), &format!("{function},le=\"{le}\""), *count as f64);
            }
            sample(out, &format!("{name}_bucket"), &format!("{function},le=\"+Inf\""), f.count as f64);
            sample(out, &format!("{name}_sum"), &function, f.sum_ns as f64 / 1e9);
            sample(out, &format!("{name}_count"), &function, f.count as f64);
        }
    }
    let rows = snapshot.report.get("functions_timing").and_then(|s| s.get("rows")).and_then(Value::as_array);
    let Some(rows) = rows.filter(|r| !r.is_empty()) else { return };
    let counters: [(&str, &str, &str, f64); 5] = [
        (
            "hotpath_function_time_seconds_total",
            "total_ns",
            "Inclusive time of outermost calls (recursion counted once).",
            1e9,
        ),
        ("hotpath_function_self_time_seconds_total", "self_ns", "Exclusive time: minus nested measured calls.", 1e9),
        ("hotpath_function_cancelled_total", "cancelled", "Async calls dropped before completing.", 1.0),
        ("hotpath_function_polls_total", "polls", "Polls of measured async functions.", 1.0),
        ("hotpath_function_busy_seconds_total", "busy_ns", "Time inside polls of measured async functions.", 1e9),
    ];
    for (metric, field, help, scale) in counters {
        family(out, metric, "counter", help);
        for row in rows {
            let name = row.get("name").and_then(Value::as_str).unwrap_or("");
            let value = row.get(field).and_then(Value::as_u64).unwrap_or(0) as f64 / scale;
            sample(out, metric, &format!("function=\"{}\"", escape(name)), value);
        }
    }
}

/// Rows of `section` (its `rows` list), if the report has the section.
fn rows<'a>(snapshot: &'a Snapshot, section: &str) -> Option<&'a Vec<Value>> {
    snapshot.report.get(section)?.get("rows")?.as_array()
}

fn number(value: &Value, key: &str) -> f64 {
    value.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

/// Per-function allocations (`hotpath-alloc`): counters over all calls.
fn allocations(out: &mut String, snapshot: &Snapshot) {
    let Some(section) = snapshot.report.get("functions_alloc") else { return };
    let name = "hotpath_allocated_bytes_total";
    family(out, name, "counter", "Bytes allocated by the whole process since profiling started.");
    sample(out, name, "", number(section, "process_alloc_bytes"));
    let name = "hotpath_allocations_total";
    family(out, name, "counter", "Allocations made by the whole process since profiling started.");
    sample(out, name, "", number(section, "process_allocs"));
    let rows = rows(snapshot, "functions_alloc").map_or(&[][..], Vec::as_slice);
    let counters = [
        ("hotpath_function_allocated_bytes_total", "bytes_total", "Bytes allocated inside measured functions."),
        ("hotpath_function_allocations_total", "allocs_total", "Allocations made inside measured functions."),
    ];
    for (metric, field, help) in counters {
        family(out, metric, "counter", help);
        for row in rows {
            let function = row.get("name").and_then(Value::as_str).unwrap_or("");
            sample(out, metric, &format!("function=\"{}\"", escape(function)), number(row, field));
        }
    }
}

/// CPU samples per function (`hotpath-cpu`), as estimated CPU time.
fn cpu(out: &mut String, snapshot: &Snapshot) {
    let Some(section) = snapshot.report.get("functions_cpu") else { return };
    let name = "hotpath_cpu_samples_total";
    family(out, name, "counter", "CPU profile samples taken.");
    sample(out, name, "", number(section, "samples"));
    let rows = rows(snapshot, "functions_cpu").map_or(&[][..], Vec::as_slice);
    let counters = [
        (
            "hotpath_function_cpu_seconds_total",
            "inclusive_cpu_ns",
            "CPU time in measured functions, nested calls included (sampled).",
        ),
        (
            "hotpath_function_self_cpu_seconds_total",
            "self_cpu_ns",
            "CPU time in measured functions themselves (sampled).",
        ),
    ];
    for (metric, field, help) in counters {
        family(out, metric, "counter", help);
        for row in rows {
            let function = row.get("name").and_then(Value::as_str).unwrap_or("");
            sample(out, metric, &format!("function=\"{}\"", escape(function)), number(row, field) / 1e9);
        }
    }
}

/// Per-thread CPU time (threads view) and the process's resident memory.
fn threads(out: &mut String, snapshot: &Snapshot) {
    let Some(section) = snapshot.report.get("threads") else { return };
    let name = "hotpath_resident_memory_bytes";
    family(out, name, "gauge", "Resident set size of the process.");
    sample(out, name, "", number(section, "rss_bytes"));
    let name = "hotpath_thread_cpu_seconds_total";
    family(out, name, "counter", "CPU time of each thread of the program, user and system.");
    for row in rows(snapshot, "threads").map_or(&[][..], Vec::as_slice) {
        let thread = row.get("name").and_then(Value::as_str).unwrap_or("");
        let labels = format!("thread=\"{}\",tid=\"{}\"", escape(thread), number(row, "tid"));
        sample(out, name, &format!("{labels},mode=\"user\""), number(row, "cpu_user_ns") / 1e9);
        sample(out, name, &format!("{labels},mode=\"system\""), number(row, "cpu_sys_ns") / 1e9);
    }
}

fn http(out: &mut String, stats: &Stats) {
    let name = "hotpath_http_responses_total";
    family(out, name, "counter", "Responses of the live metrics server by status class.");
    for (class, count) in stats.responses() {
        sample(out, name, &format!("code=\"{class}xx\""), count as f64);
    }
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n");
}

fn sample(out: &mut String, name: &str, labels: &str, value: f64) {
    if labels.is_empty() {
        let _ = writeln!(out, "{name} {value}");
    } else {
        let _ = writeln!(out, "{name}{{{labels}}} {value}");
    }
}

/// Label values escape backslash, double quote and newline.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_label_values() {
        assert_eq!(escape("<a as b>::\"c\"\\\n"), "<a as b>::\\\"c\\\"\\\\\\n");
    }
}
