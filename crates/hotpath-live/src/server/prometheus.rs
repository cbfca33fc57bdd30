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
    tokio(&mut out, snapshot);
    super::prometheus_flow::render(&mut out, snapshot);
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

/// Monitored Tokio runtimes: queue and task gauges, per-worker busy time and parks.
fn tokio(out: &mut String, snapshot: &Snapshot) {
    let Some(runtimes) = snapshot.report.get("tokio_runtime").and_then(|s| s.get("runtimes")).and_then(Value::as_array)
    else {
        return;
    };
    let label = |rt: &Value| format!("runtime=\"{}\"", escape(rt.get("name").and_then(Value::as_str).unwrap_or("")));
    let gauges = [
        ("hotpath_tokio_workers", "num_workers", "Worker threads of the runtime."),
        ("hotpath_tokio_alive_tasks", "alive_tasks", "Tasks alive in the runtime."),
        ("hotpath_tokio_global_queue_depth", "global_queue_depth", "Tasks waiting in the runtime's global queue."),
    ];
    for (metric, field, help) in gauges {
        family(out, metric, "gauge", help);
        for rt in runtimes {
            sample(out, metric, &label(rt), number(rt, field));
        }
    }
    let counters = [
        (
            "hotpath_tokio_worker_busy_seconds_total",
            "busy_ns",
            1e9,
            "Time each worker spent busy since monitoring began.",
        ),
        ("hotpath_tokio_worker_parks_total", "parks", 1.0, "Times each worker parked since monitoring began."),
    ];
    for (metric, field, scale, help) in counters {
        family(out, metric, "counter", help);
        for rt in runtimes {
            for worker in rt.get("workers").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
                let labels = format!("{},worker=\"{}\"", label(rt), number(worker, "index"));
                sample(out, metric, &labels, number(worker, field) / scale);
            }
        }
    }
}

fn http(out: &mut String, stats: &Stats) {
    let name = "hotpath_http_responses_total";
    family(out, name, "counter", "Responses of the live metrics server by status class.");
    for (class, count) in stats.responses() {
        sample(out, name, &format!("code=\"{class}xx\""), count as f64);
    }
}

pub(crate) fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n");
}

pub(crate) fn sample(out: &mut String, name: &str, labels: &str, value: f64) {
    if labels.is_empty() {
        let _ = writeln!(out, "{name} {value}");
    } else {
        let _ = writeln!(out, "{name}{{{labels}}} {value}");
    }
}

/// Label values escape backslash, double quote and newline.
pub(crate) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_engine::DurationBuckets;
    use std::io::Write as _;
    use std::time::Duration;

    /// Every family, from a snapshot with every section this exporter knows.
    fn full() -> String {
        let mut snapshot = Snapshot::from_report(&hotpath_model::Report::default(), Duration::from_millis(1500));
        let report = serde_json::json!({
            "meta": {"hotpath_version": "0.23.0", "caller": "app::\"main\"", "clock": "tsc", "dropped": 2},
            "functions_timing": {"rows": [{"name": "app::f", "total_ns": 5_000_000, "self_ns": 1_000_000, "cancelled": 1, "polls": 7, "busy_ns": 10}]},
            "functions_alloc": {"process_alloc_bytes": 4096, "process_allocs": 3, "rows": [{"name": "app::f", "bytes_total": 4096, "allocs_total": 3}]},
            "functions_cpu": {"samples": 12, "rows": [{"name": "app::f", "inclusive_cpu_ns": 120_000_000, "self_cpu_ns": 10_000_000}]},
            "threads": {"rss_bytes": 8_000_000, "rows": [{"name": "main", "tid": 7, "cpu_user_ns": 2_000_000_000u64, "cpu_sys_ns": 1}]},
            "tokio_runtime": {"runtimes": [{"name": "api", "num_workers": 2, "alive_tasks": 5, "global_queue_depth": 1,
                "workers": [{"index": 0, "busy_ns": 3_000_000, "parks": 4}]}]},
            "channels": {"rows": [{"name": "jobs", "sent": 10, "received": 8, "queue_len": 2}]},
            "futures": {"rows": [{"name": "fetch", "calls": 3, "cancelled": 1, "polls": 9}]},
            "streams": {"rows": [{"name": "ticks", "items": 40}]},
            "mutexes": {"rows": [{"name": "state", "lock": {"acquisitions": 7, "contended": 2, "wait": {"total_ns": 5_000}}}]},
            "rw_locks": {"rows": [{"name": "cfg", "reads": {"acquisitions": 5, "wait": {"total_ns": 0}}, "writes": {"acquisitions": 1, "wait": {"total_ns": 2_000_000_000u64}}}]},
            "io": {"rows": [{"name": "redis", "read": {"ops": 4, "bytes": 400, "errors": 0}, "write": {"ops": 2, "bytes": 64, "errors": 1}}]}
        });
        snapshot.report = report.as_object().unwrap().clone();
        snapshot.buckets = vec![DurationBuckets {
            name: "app::f".into(),
            cumulative: vec![0, 1, 1, 2, 3, 3, 3, 3, 3],
            count: 3,
            sum_ns: 1_500_000,
        }];
        render(&snapshot, &Stats::default())
    }

    #[test]
    fn every_family_passes_promtool() {
        let text = full();
        for line in [
            "hotpath_info{version=\"0.23.0\",caller=\"app::\\\"main\\\"\",clock=\"tsc\"} 1",
            "hotpath_function_duration_seconds_bucket{function=\"app::f\",le=\"0.0000001\"} 0",
            "hotpath_function_duration_seconds_bucket{function=\"app::f\",le=\"+Inf\"} 3",
            "hotpath_function_duration_seconds_sum{function=\"app::f\"} 0.0015",
            "hotpath_function_time_seconds_total{function=\"app::f\"} 0.005",
            "hotpath_function_allocated_bytes_total{function=\"app::f\"} 4096",
            "hotpath_function_cpu_seconds_total{function=\"app::f\"} 0.12",
            "hotpath_thread_cpu_seconds_total{thread=\"main\",tid=\"7\",mode=\"user\"} 2",
            "hotpath_tokio_worker_busy_seconds_total{runtime=\"api\",worker=\"0\"} 0.003",
            "hotpath_tokio_global_queue_depth{runtime=\"api\"} 1",
            "hotpath_channel_queue_length{channel=\"jobs\"} 2",
            "hotpath_mutex_wait_seconds_total{mutex=\"state\"} 0.000005",
            "hotpath_rw_lock_wait_seconds_total{rw_lock=\"cfg\",mode=\"write\"} 2",
            "hotpath_io_bytes_total{io=\"redis\",direction=\"read\"} 400",
            "hotpath_stream_items_total{stream=\"ticks\"} 40",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
        }
        let mut check = std::process::Command::new("promtool")
            .args(["check", "metrics"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("promtool is installed (scripts/test installs the prometheus package)");
        check.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let out = check.wait_with_output().unwrap();
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && said.is_empty(), "promtool: {said}\n{text}");
    }

    #[test]
    fn escapes_label_values() {
        assert_eq!(escape("<a as b>::\"c\"\\\n"), "<a as b>::\\\"c\\\"\\\\\\n");
    }
}
