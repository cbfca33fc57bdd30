//! OTLP metrics export against the official schema: a loopback receiver
//! (tests/otlp/receiver.py, PyPI's `opentelemetry-proto`, installed by scripts/test
//! into the venv it names in HOTPATH_TEST_PYTHON) decodes every request of a program
//! that pushes every 200 ms with its live server off, and the requests agree with the
//! program's own JSON report: names and units, the call count in the exponential
//! buckets, the sum, cumulative temporality, fixed start times, resource attributes.
#![cfg(all(feature = "hotpath", feature = "live", unix))]

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::bounded;
use serde_json::Value;

/// A Python that can import the OTLP schema, or None (a failure under scripts/test).
fn python_with_otlp() -> Option<PathBuf> {
    let python = std::env::var_os("HOTPATH_TEST_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let import = "import opentelemetry.proto.collector.metrics.v1.metrics_service_pb2";
    if Command::new(&python).args(["-c", import]).output().is_ok_and(|o| o.status.success()) {
        return Some(python);
    }
    assert!(
        std::env::var_os("HOTPATH_TEST_SUITE").is_none(),
        "{} cannot import opentelemetry.proto; scripts/test installs it",
        python.display()
    );
    eprintln!("skipped: no Python with the `opentelemetry-proto` package (scripts/test installs one)");
    None
}

/// A JSON number, or a 64-bit integer that protobuf's JSON mapping writes as a string.
fn num(v: &Value) -> f64 {
    v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).unwrap_or(0.0)
}

fn metric<'a>(request: &'a Value, name: &str) -> Option<&'a Value> {
    let metrics = request["resource_metrics"][0]["scope_metrics"][0]["metrics"].as_array()?;
    metrics.iter().find(|m| m["name"] == name)
}

/// The data point of `metric` whose `function` attribute ends in `::work`.
fn work_point(metric: &Value, kind: &str) -> Value {
    let points = metric[kind]["data_points"].as_array().expect("data points");
    let is_work = |p: &&Value| {
        p["attributes"].as_array().is_some_and(|a| {
            a.iter().any(|kv| {
                kv["key"] == "function" && kv["value"]["string_value"].as_str().is_some_and(|s| s.ends_with("::work"))
            })
        })
    };
    points.iter().find(is_work).cloned().unwrap_or_else(|| panic!("no point of work in {metric:#}"))
}

#[test]
fn pushed_requests_decode_and_match_the_report() {
    let Some(python) = python_with_otlp() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otlp/receiver.py");
    let mut receiver = Command::new(python)
        .arg(script)
        .args(["--seconds", "120"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the receiver starts");
    let lines = bounded::lines(receiver.stdout.take().unwrap());
    let port = bounded::line_starting(&lines, "port ", Duration::from_secs(60))[5..].to_string();

    let mut cmd = common::command("case_otlp");
    cmd.env("HOTPATH_OTLP_ENDPOINT", format!("http://127.0.0.1:{port}"))
        .env("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test%20suite")
        .env("OTEL_SERVICE_NAME", "otlp-export-test")
        .env("HOTPATH_OUTPUT_FORMAT", "json");
    let out = bounded::output(&mut cmd, Duration::from_secs(120));
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(!common::stderr(&out).contains("[hotpath] warning"), "{}", common::stderr(&out));
    let report = common::json_report(&out);

    drop(receiver.stdin.take());
    let received = bounded::line_starting(&lines, "[", Duration::from_secs(60));
    bounded::wait(&mut receiver, Duration::from_secs(60), "the receiver");
    let mut rest = String::new();
    let _ = receiver.stdout.take().map(|mut s| s.read_to_string(&mut rest));
    let requests: Vec<Value> = serde_json::from_str(&received).expect("the receiver's JSON");
    // Pushes every 200 ms for about 1.2 s, and the last one at the end.
    assert!(requests.len() >= 2, "{} requests", requests.len());

    let rows = report["functions_timing"]["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["name"].as_str().is_some_and(|n| n.ends_with("::work"))).expect("work's row");
    let calls = num(&row["calls"]);
    assert_eq!(calls, 240.0);

    let mut start = None;
    let mut last_count = 0.0;
    for r in &requests {
        assert_eq!(
            (r["path"].as_str(), r["content_type"].as_str()),
            (Some("/v1/metrics"), Some("application/x-protobuf"))
        );
        assert_eq!(r["unknown_bytes"], 0, "fields the schema does not know");
        let request = &r["request"];
        let resource = &request["resource_metrics"][0]["resource"]["attributes"];
        let attribute = |key: &str| {
            let found = resource.as_array().unwrap().iter().find(|kv| kv["key"] == key);
            found.map(|kv| kv["value"].clone()).unwrap_or_else(|| panic!("no {key} in {resource:#}"))
        };
        assert_eq!(attribute("service.name")["string_value"], "otlp-export-test");
        assert_eq!(attribute("service")["string_value"], "otlp-case");
        assert_eq!(attribute("deployment.environment")["string_value"], "test suite");
        assert!(num(&attribute("process.pid")["int_value"]) > 0.0);
        assert_eq!(request["resource_metrics"][0]["scope_metrics"][0]["scope"]["name"], "hotpath");

        let Some(duration) = metric(request, "hotpath_function_duration_seconds") else { continue };
        assert_eq!(duration["unit"], "s");
        let histogram = &duration["exponential_histogram"];
        assert_eq!(histogram["aggregation_temporality"], "AGGREGATION_TEMPORALITY_CUMULATIVE");
        let p = work_point(duration, "exponential_histogram");
        let buckets: f64 = p["positive"]["bucket_counts"].as_array().map_or(0.0, |b| b.iter().map(num).sum());
        let count = num(&p["count"]);
        assert_eq!(buckets + num(&p["zero_count"]), count, "{p:#}");
        assert!(count >= last_count, "a cumulative count went down: {count} after {last_count}");
        last_count = count;
        // 5 ms sleeps: within the scale's bounds, one value per bucket index range.
        assert!(num(&p["scale"]) <= 8.0 && p["positive"]["bucket_counts"].as_array().unwrap().len() <= 160);
        let this_start = num(&p["start_time_unix_nano"]);
        assert!(this_start > 0.0 && this_start <= num(&p["time_unix_nano"]));
        assert_eq!(*start.get_or_insert(this_start), this_start, "the start time changed within the session");

        let time = metric(request, "hotpath_function_time_seconds_total").expect("the time counter");
        assert_eq!((time["unit"].as_str(), time["sum"]["is_monotonic"].as_bool()), (Some("s"), Some(true)));
        assert_eq!(time["sum"]["aggregation_temporality"], "AGGREGATION_TEMPORALITY_CUMULATIVE");
        let polls = metric(request, "hotpath_function_polls_total").expect("the polls counter");
        assert_eq!(polls["unit"].as_str().unwrap_or(""), "");
        assert!(metric(request, "hotpath_uptime_seconds").is_some_and(|m| m["gauge"].is_object()));
    }

    // The last request was pushed as the session ended: it counts every call.
    let last = &requests.last().unwrap()["request"];
    let duration = metric(last, "hotpath_function_duration_seconds").expect("work's histogram");
    let p = work_point(duration, "exponential_histogram");
    assert_eq!(num(&p["count"]), calls, "{p:#}");
    let total_s = num(&row["total_ns"]) / 1e9;
    let time = work_point(metric(last, "hotpath_function_time_seconds_total").unwrap(), "sum");
    assert!((num(&time["as_double"]) - total_s).abs() <= total_s * 1e-6, "{time:#} vs {total_s}");
    assert!((num(&p["sum"]) - total_s).abs() <= total_s * 0.01, "{p:#} vs {total_s}");
    let dropped = metric(last, "hotpath_otlp_dropped_batches_total").expect("the exporter's own counter");
    assert_eq!(num(&dropped["sum"]["data_points"][0]["as_double"]), 0.0);
}
