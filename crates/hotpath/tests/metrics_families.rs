//! `/metrics` of a program that uses every instrument (the MCP test program): every
//! family is there with its own labels, channel latency, lock wait and hold, stream
//! item time and I/O durations are histogram families of their own, no series has an
//! empty label value, every label name is one process labels may not take
//! (`RESERVED_LABELS`), and `promtool check metrics` accepts all of it.
#![cfg(all(feature = "hotpath", feature = "tokio", target_os = "linux"))]

mod common;

use std::time::{Duration, Instant};

use common::live::Live;

/// The families a run of `case_agent` exports, each with the labels of its series.
const FAMILIES: &[(&str, &[&str])] = &[
    ("hotpath_info", &["version", "caller", "clock"]),
    ("hotpath_function_duration_seconds_bucket", &["function", "le"]),
    ("hotpath_function_time_seconds_total", &["function"]),
    ("hotpath_function_self_time_seconds_total", &["function"]),
    ("hotpath_function_active", &["function"]),
    ("hotpath_future_duration_seconds_count", &["future"]),
    ("hotpath_future_polls_total", &["future"]),
    ("hotpath_stream_items_total", &["stream"]),
    ("hotpath_stream_item_seconds_bucket", &["stream", "le"]),
    ("hotpath_channel_sent_total", &["channel"]),
    ("hotpath_channel_latency_seconds_bucket", &["channel", "le"]),
    ("hotpath_channel_blocked_seconds_count", &["channel"]),
    ("hotpath_channel_slow_consumer", &["channel"]),
    ("hotpath_mutex_acquisitions_total", &["mutex"]),
    ("hotpath_mutex_wait_seconds_bucket", &["mutex", "le"]),
    ("hotpath_mutex_hold_seconds_count", &["mutex"]),
    ("hotpath_rw_lock_acquisitions_total", &["rw_lock", "mode"]),
    ("hotpath_rw_lock_wait_seconds_bucket", &["rw_lock", "mode", "le"]),
    ("hotpath_rw_lock_hold_seconds_count", &["rw_lock", "mode"]),
    ("hotpath_io_bytes_total", &["io", "direction"]),
    ("hotpath_io_operation_seconds_bucket", &["io", "direction", "le"]),
    ("hotpath_thread_cpu_seconds_total", &["thread", "tid", "mode"]),
    ("hotpath_tokio_worker_busy_seconds_total", &["runtime", "worker"]),
    ("hotpath_http_responses_total", &["code"]),
];

/// `name{a="x",b="y"} 1` → (name, [(a, x), (b, y)]); label values never contain `",` here.
fn parse(line: &str) -> (&str, Vec<(&str, &str)>) {
    let series = line.rsplit_once(' ').map_or(line, |(s, _)| s);
    let Some((name, labels)) = series.split_once('{') else { return (series, Vec::new()) };
    let labels = labels.trim_end_matches('}');
    let pairs = labels
        .split("\",")
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.split_once("=\"").map(|(k, v)| (k, v.trim_end_matches('"'))))
        .collect();
    (name, pairs)
}

#[test]
fn every_family_has_its_labels_and_passes_promtool() {
    let mut cmd = common::command("case_agent");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .env("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", "50")
        .arg("60");
    let live = Live::start(cmd);
    let deadline = Instant::now() + Duration::from_secs(30);
    let body = loop {
        let body = live.get("/metrics", "").body;
        let missing: Vec<&str> = FAMILIES.iter().map(|f| f.0).filter(|f| !body.contains(&format!("{f}{{"))).collect();
        if missing.is_empty() {
            break body;
        }
        assert!(Instant::now() < deadline, "families never appeared: {missing:?}\n{body}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let functions: Vec<String> = live.json("/functions_timing")["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    for line in body.lines().filter(|l| !l.starts_with('#')) {
        let (name, labels) = parse(line);
        assert!(labels.iter().all(|(_, v)| !v.is_empty()), "empty label value: {line}");
        // Process labels (HOTPATH_METRICS_LABELS) may not take these names: no collision.
        assert!(labels.iter().all(|(k, _)| hotpath_model::RESERVED_LABELS.contains(k)), "unlisted label: {line}");
        if let Some((_, labels_wanted)) = FAMILIES.iter().find(|f| f.0 == name) {
            let keys: Vec<&str> = labels.iter().map(|(k, _)| *k).collect();
            assert_eq!(&keys, labels_wanted, "{line}");
        }
        if name.starts_with("hotpath_function_duration_seconds") {
            // Only measured functions: no channel, lock or stream time merged in.
            let function = labels.iter().find(|(k, _)| *k == "function").map(|(_, v)| *v).unwrap();
            assert!(functions.iter().any(|f| f == function), "{function} is no measured function: {functions:?}");
        }
    }
    common::live::promtool_accepts(&body);
}
