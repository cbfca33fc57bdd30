//! HTTP requests served, HTTP calls made and SQL queries on the timeline, and a route
//! over its threshold writing the timeline out (`HOTPATH_TIMELINE_TRIGGER` names the
//! route as the report does). The program is `service_case`, as in `services.rs`; the
//! trace is read back as Chrome trace-event JSON.
#![cfg(feature = "profile")]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotpath-services-timeline-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn requests_calls_and_queries_are_slices_and_a_slow_route_writes_the_timeline() {
    let dir = scratch();
    let trace = dir.join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_service_case"))
        .arg(&dir)
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_OUTPUT_PATH", dir.join("report"))
        .env("HOTPATH_METRICS_SERVER_OFF", "1")
        .env("HOTPATH_TIMELINE_OUTPUT", &trace)
        .env("HOTPATH_TIMELINE_TRIGGER", "GET /users/{id}>1ns")
        .env("HOTPATH_TIMELINE_MIN_INTERVAL_MS", "0")
        .env("HOTPATH_TIMELINE_MAX_FILES", "100")
        .env("HOTPATH_TIMELINE_DIR", &dir)
        .output()
        .expect("service_case runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let json: Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).expect("Chrome JSON");
    let begins: Vec<&Value> =
        json["traceEvents"].as_array().unwrap().iter().filter(|e| e["ph"] == "B" && e["cat"] == "request").collect();
    let named = |name: &str| begins.iter().filter(|e| e["name"] == name).count();
    // Eight requests to the route (seven answered 200, one 404), as the report counts them.
    assert_eq!(named("GET /users/{id}"), 8, "{begins:?}");
    let statuses: Vec<u64> = begins
        .iter()
        .filter(|e| e["name"] == "GET /users/{id}")
        .filter_map(|e| e["args"]["status"].as_u64())
        .collect();
    assert_eq!((statuses.iter().filter(|s| **s == 200).count(), statuses.iter().filter(|s| **s == 404).count()), (7, 1));
    assert!(named("GET 127.0.0.1:{port}/users/{id}") >= 3, "the reqwest calls");
    assert!(begins.iter().any(|e| e["name"].as_str().is_some_and(|n| n.starts_with("SELECT name FROM items"))), "sqlx");

    let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report")).unwrap()).unwrap();
    let files = report["meta"]["timeline"]["files"].as_array().unwrap();
    let slow: Vec<&Value> = files.iter().filter(|f| f["reason"] == "slow_call").collect();
    assert_eq!(slow.len(), 8, "one file per request of the route over 1 ns: {files:?}");
    assert!(slow.iter().all(|f| f["subject"].as_str().unwrap().starts_with("GET /users/{id} took")));
    assert!(slow.iter().all(|f| PathBuf::from(f["path"].as_str().unwrap()).is_file()));
    let _ = std::fs::remove_dir_all(&dir);
}
