//! The flight recorder's trace from a running program: `GET /timeline` (Perfetto and
//! Chrome JSON, a window, bad parameters, the recorder off, the report's token),
//! `/profiler_status`'s `timeline` object, and `hotpath timeline` saving a file.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::live::{live_command, Live};
use serde_json::Value;

/// `case_live` (measured `step` on main, `worker batch` on `worker`) with `env` set.
fn start(env: &[(&str, &str)]) -> Live {
    let mut cmd = live_command(120);
    for (key, value) in env {
        cmd.env(key, value);
    }
    Live::start(cmd)
}

/// [`start`], once both functions have completed a call.
fn live(env: &[(&str, &str)]) -> Live {
    let live = start(env);
    live.calls("case_live::step");
    live.calls("worker batch");
    live
}

/// The `hotpath` binary of this target dir (`cargo build -p hotpath-cli` builds it).
fn hotpath_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap().join("hotpath");
    assert!(path.exists(), "{} missing: build it with `cargo build -p hotpath-cli`", path.display());
    path
}

/// `hotpath timeline ARGS` against `live`, without the caller's HOTPATH_* variables.
fn cli(live: &Live, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(hotpath_binary());
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    cmd.args(["timeline", "--host", "127.0.0.1", "--port", &live.address.port().to_string()]).args(args);
    cmd.envs(env.iter().copied()).output().expect("hotpath runs")
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotpath-live-timeline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Names of the threads whose track has a `B` event named `name`.
fn threads_with_slice(trace: &Value, name: &str) -> Vec<String> {
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let names: HashMap<u64, &str> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| (e["tid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap()))
        .collect();
    events
        .iter()
        .filter(|e| e["ph"] == "B" && e["name"] == name)
        .map(|e| names.get(&e["tid"].as_u64().unwrap()).copied().unwrap_or("?").to_string())
        .collect()
}

#[test]
fn traces_of_a_running_program() {
    let live = live(&[("HOTPATH_TIMELINE", "on")]);
    let pid = live.child.id();

    let reply = live.get("/timeline?format=json", "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(
        reply.header("content-disposition"),
        Some(format!("attachment; filename=\"hotpath-{pid}.json\"").as_str())
    );
    let trace = reply.json();
    assert!(threads_with_slice(&trace, "case_live::step").iter().any(|t| t == "main"), "step on main");
    assert!(threads_with_slice(&trace, "worker batch").iter().any(|t| t == "worker"), "batch on worker");
    let events: u64 = reply.header("x-hotpath-trace-events").and_then(|n| n.parse().ok()).expect("an event count");
    assert!(events > 0);

    let reply = live.get("/timeline", "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), Some("application/octet-stream"));
    assert_eq!(
        reply.header("content-disposition"),
        Some(format!("attachment; filename=\"hotpath-{pid}.pftrace\"").as_str())
    );
    // A Perfetto `Trace`: repeated field 1 (`packet`), length-delimited, tag 0x0a.
    assert_eq!(reply.bytes.first(), Some(&0x0a), "{} bytes", reply.bytes.len());
    assert!(reply.bytes.windows(15).any(|w| w == b"case_live::step"), "names interned in the protobuf");

    let reply = live.get("/timeline?seconds=0.5&format=json", "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.json()["traceEvents"].is_array());

    for (query, named) in
        [("seconds=abc", "seconds"), ("seconds=0", "seconds"), ("seconds=-2", "seconds"), ("format=xml", "format")]
    {
        let reply = live.get(&format!("/timeline?{query}"), "");
        assert_eq!(reply.status, 400, "{query}: {}", reply.body);
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(&format!("{named}=")), "{query}: {error}");
    }

    let index = live.json("/");
    assert!(index["endpoints"].as_array().unwrap().iter().any(|e| e == "/timeline"), "{index}");
    let status = live.json("/profiler_status");
    let timeline = &status["timeline"];
    assert_eq!(timeline["on"], true, "{status}");
    assert!(timeline["rings"].as_u64().unwrap() >= 2, "main and worker: {timeline}");
    assert!(timeline["events_written"].as_u64().unwrap() > 0, "{timeline}");
    assert!(timeline["bytes"].as_u64().unwrap() > 0 && timeline["events_per_thread"].as_u64().unwrap() > 0);
    assert!(timeline["files"].is_array() && timeline["suppressed"] == 0, "{timeline}");

    let dir = scratch("cli");
    let file = dir.join("trace.pftrace");
    let out = cli(&live, &["--seconds", "5", "-o", file.to_str().unwrap()], &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read(&file).expect("the trace file");
    assert_eq!(written.first(), Some(&0x0a));
    assert!(stdout.starts_with(&format!("wrote {} ({} bytes", file.display(), written.len())), "{stdout}");
    assert_eq!(stdout.trim().lines().count(), 1, "{stdout}");
    let file = dir.join("trace.json");
    let out = cli(&live, &["-o", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let trace: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).expect("a .json file is JSON");
    assert!(threads_with_slice(&trace, "case_live::step").iter().any(|t| t == "main"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn with_the_recorder_off_every_way_says_how_to_turn_it_on() {
    let live = live(&[]);
    let reply = live.get("/timeline", "");
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(reply.json()["error"].as_str().unwrap().contains("HOTPATH_TIMELINE=on"), "{}", reply.body);
    assert_eq!(live.json("/profiler_status")["timeline"]["on"], false);

    let dir = scratch("off");
    let file = dir.join("trace.pftrace");
    let out = cli(&live, &["-o", file.to_str().unwrap()], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("HTTP 409") && stderr.contains("HOTPATH_TIMELINE=on"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(!file.exists(), "no file without a trace");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The trace names functions and threads as the report does: the JSON endpoints'
/// token opens it, the Prometheus one does not.
#[test]
fn the_report_token_opens_the_timeline() {
    let tokens = [("HOTPATH_METRICS_AUTH_TOKEN", "report-token"), ("HOTPATH_PROMETHEUS_AUTH_TOKEN", "scrape-token")];
    let live = start(&[("HOTPATH_TIMELINE", "on"), tokens[0], tokens[1]]);
    let report = "Authorization: Bearer report-token\r\n";
    // `Live::calls` sends no token: wait for a measured call here.
    for _ in 0..600 {
        let reply = live.get("/functions_timing", report);
        if reply.status == 200 && reply.body.contains("case_live::step") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(live.get("/timeline", "").status, 401);
    assert_eq!(live.get("/timeline", "Authorization: Bearer scrape-token\r\n").status, 401);
    assert_eq!(live.get("/metrics", "Authorization: Bearer scrape-token\r\n").status, 200, "its own surface");
    let reply = live.get("/timeline?format=json", report);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(threads_with_slice(&reply.json(), "case_live::step").iter().any(|t| t == "main"), "{}", reply.body);

    let dir = scratch("token");
    let file = dir.join("trace.pftrace");
    let out = cli(&live, &["-o", file.to_str().unwrap()], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--token"), "{stderr}");
    let out = cli(&live, &["-o", file.to_str().unwrap()], &[tokens[0]]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap().first(), Some(&0x0a));
    let _ = std::fs::remove_dir_all(&dir);
}
