//! The live metrics server of a running program: every endpoint, the token,
//! malformed requests, slow clients, a port in use, and `/metrics` checked by
//! Prometheus's own `promtool`.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use common::live::{live_command, send, Live};
use common::{command, run, stderr, stdout};

/// Every section's endpoint key, from the model's table (the one section list).
fn section_keys() -> Vec<&'static str> {
    hotpath_model::SECTIONS.iter().map(|d| d.key).collect()
}

/// Sections this build may produce besides those of [`produced`]: CPU samples land
/// in a measured function only when the sampler happens to hit one, and the heap
/// section is there once a sampled allocation is live.
fn maybe_produced() -> Vec<&'static str> {
    let mut sections = Vec::new();
    if cfg!(feature = "hotpath-cpu") {
        sections.push("functions_cpu");
    }
    if cfg!(feature = "hotpath-heap") {
        sections.push("heap");
    }
    sections
}

/// The sections this build produces for `case_live` (it allocates in `step`).
fn produced() -> Vec<&'static str> {
    let mut sections = vec!["functions_timing"];
    if cfg!(feature = "hotpath-alloc") {
        sections.push("functions_alloc");
    }
    if cfg!(feature = "threads") {
        sections.push("threads");
    }
    // Natively the instruction-count section is a note saying it needs Callgrind.
    if cfg!(feature = "hotpath-callgrind") {
        sections.push("functions_icount");
    }
    sections
}

#[test]
fn every_endpoint() {
    let mut live = Live::start(live_command(60));
    let first = live.calls("case_live::step");
    // The worker thread's first batch may finish after main's first step.
    live.calls("worker batch");

    let index = live.json("/");
    let endpoints: Vec<&str> = index["endpoints"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
    for path in ["/profiler_status", "/metrics", "/report"] {
        assert!(endpoints.contains(&path), "{path} listed in {endpoints:?}");
    }
    for section in section_keys() {
        assert!(endpoints.contains(&format!("/{section}").as_str()));
    }

    let status = live.json("/profiler_status");
    assert_eq!(status["pid"], live.child.id());
    assert_eq!(status["caller"], "case_live::main");
    assert_eq!(status["hotpath_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(status["recording"], true);
    assert_eq!(status["auth"], false);
    assert!(status["uptime_ns"].as_u64().unwrap() > 0);
    let sections: Vec<&str> = status["sections"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    let expected: Vec<&str> = produced().into_iter().chain(maybe_produced()).collect();
    assert!(produced().iter().all(|s| sections.contains(s)), "{sections:?}");
    assert!(sections.iter().all(|s| expected.contains(s)), "{sections:?}");
    assert!(status["unavailable"]["io"].as_str().unwrap().contains("io!"));

    let timing = live.json("/functions_timing");
    let names: Vec<&str> = timing["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    for name in ["case_live::step", "case_live::parse", "case_live::checksum", "worker batch"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert_eq!(live.json("/functions_timing?limit=1")["rows"].as_array().unwrap().len(), 1);
    let focused = live.json("/functions_timing?focus=%2F%3A%3Ap%5Ba-z%5D%2B%24%2F&limit=0");
    let focused: Vec<&str> = focused["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(focused, ["case_live::parse"]);

    if cfg!(feature = "threads") {
        let threads = live.json("/threads?limit=0");
        let names: Vec<&str> =
            threads["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"main") && names.contains(&"worker"), "{names:?}");
        assert!(names.iter().all(|n| !n.starts_with("hp-")), "profiler threads hidden: {names:?}");
    }
    if cfg!(feature = "hotpath-alloc") {
        // The served snapshot may predate step's first allocation on a loaded machine: wait
        // for it (the bound only catches a hang).
        let mut alloc = live.json("/functions_alloc?focus=step");
        for _ in 0..300 {
            if alloc["rows"][0]["bytes_total"].as_u64().is_some_and(|b| b > 0) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
            alloc = live.json("/functions_alloc?focus=step");
        }
        assert!(alloc["rows"][0]["bytes_total"].as_u64().is_some_and(|b| b > 0), "{alloc}");
    }

    // Sections this build does not produce: a JSON 404 that says why.
    for section in section_keys().into_iter().filter(|s| !produced().contains(s) && !maybe_produced().contains(s)) {
        let reply = live.get(&format!("/{section}"), "");
        assert_eq!(reply.status, 404, "/{section}: {}", reply.body);
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with(&format!("section {section} not available: ")), "{error}");
    }

    let report = live.json("/report?limit=2");
    assert_eq!(report["schema_version"], 1);
    assert_eq!(report["meta"]["ended_by"], "live");
    assert_eq!(report["meta"]["limit"], 2);
    assert_eq!(report["functions_timing"]["rows"].as_array().unwrap().len(), 2);

    let metrics = live.get("/metrics", "");
    assert_eq!(metrics.status, 200);
    assert_eq!(metrics.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
    assert!(metrics.body.contains("# TYPE hotpath_function_duration_seconds histogram"));

    let head = send(live.address, b"HEAD /profiler_status HTTP/1.1\r\n\r\n");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty() && head.header("content-length").unwrap().parse::<u64>().unwrap() > 0);

    let unknown = live.get("/nope", "");
    assert_eq!(unknown.status, 404);
    assert!(unknown.json()["error"].as_str().unwrap().contains("GET / lists the endpoints"));

    // Live numbers move: snapshots are cached for 200 ms, not frozen.
    std::thread::sleep(Duration::from_millis(400));
    assert!(live.calls("case_live::step") > first);
    assert!(live.running());
}

#[test]
fn bad_requests_get_json_errors() {
    let live = Live::start(live_command(60));
    let cases: [(&[u8], u16, &str); 8] = [
        (b"hello there\r\n\r\n", 400, "malformed request"),
        (b"GET http://x/metrics HTTP/1.1\r\n\r\n", 400, "not an absolute path"),
        (b"POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi", 405, "method POST not allowed"),
        (b"DELETE /functions_timing HTTP/1.1\r\n\r\n", 405, "not allowed"),
        (b"GET /functions_timing?limit=many HTTP/1.1\r\n\r\n", 400, "limit=\"many\""),
        (b"GET /report?focus=%2F(%2F HTTP/1.1\r\n\r\n", 400, "not a valid regex"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", 413, "request body larger"),
        (b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411, "Content-Length"),
    ];
    for (request, status, text) in cases {
        let reply = send(live.address, request);
        assert_eq!(reply.status, status, "{}: {reply:?}", String::from_utf8_lossy(request));
        assert_eq!(reply.json()["status"], status);
        assert!(reply.json()["error"].as_str().unwrap().contains(text), "{reply:?}");
    }
    let mut huge = b"GET / HTTP/1.1\r\n".to_vec();
    huge.extend(std::iter::repeat_n(b"X-Filler: 0123456789012345678901234567890123456789\r\n", 300).flatten());
    huge.extend(b"\r\n");
    assert_eq!(send(live.address, &huge).status, 431);
    assert_eq!(live.json("/profiler_status")["pid"], live.child.id(), "still serving");
}

#[test]
fn slow_clients_time_out_without_blocking_others() {
    let live = Live::start(live_command(60));
    // Two clients that send half a request and then nothing.
    let mut stuck: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(live.address).unwrap();
            s.write_all(b"GET /metrics HTTP/1.1\r\nHost: slo").unwrap();
            s
        })
        .collect();
    for _ in 0..20 {
        assert_eq!(live.get("/profiler_status", "").status, 200);
    }
    if cfg!(target_os = "linux") {
        // Bounded: a fixed pool of server threads, however many clients came.
        let tasks = std::fs::read_dir(format!("/proc/{}/task", live.child.id())).unwrap();
        let names: Vec<String> = tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .map(|n| n.trim().to_string())
            .filter(|n| n.starts_with("hp-http-"))
            .collect();
        assert_eq!(names.len(), 4, "{names:?}");
    }
    // The server gives up on them with a 408 (after its 5 s deadline).
    for s in &mut stuck {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(s, &mut text).unwrap();
        assert!(text.starts_with("HTTP/1.1 408 "), "{text}");
        assert!(text.contains("\"request not received in time\""));
    }
}

#[test]
fn token_is_required_on_every_request() {
    let mut cmd = live_command(60);
    cmd.env("HOTPATH_AUTH_TOKEN", "open-sesame").env("HOTPATH_METRICS_HOST", "127.0.0.1");
    let live = Live::start(cmd);
    for path in ["/", "/profiler_status", "/metrics", "/functions_timing", "/nope"] {
        let reply = live.get(path, "");
        assert_eq!(reply.status, 401, "{path}");
        assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
        assert!(reply.json()["error"].as_str().unwrap().contains("Authorization: Bearer"));
        assert_eq!(live.get(path, "Authorization: Bearer open-sesamE\r\n").status, 401, "{path}: wrong token");
        assert_eq!(live.get(path, "Authorization: open-sesame\r\n").status, 401, "{path}: no scheme");
    }
    let ok = live.get("/profiler_status", "Authorization: Bearer open-sesame\r\n");
    assert_eq!(ok.status, 200);
    assert_eq!(ok.json()["auth"], true);
    assert_eq!(live.get("/metrics", "authorization: bearer open-sesame\r\n").status, 200);
}

#[test]
fn another_host_needs_a_token() {
    let mut cmd = live_command(60);
    cmd.env("HOTPATH_METRICS_HOST", "0.0.0.0");
    let live = Live::start(cmd);
    assert!(live.address.ip().is_loopback(), "fell back to loopback: {}", live.address);
    assert_eq!(live.get("/profiler_status", "").status, 200);
}

#[test]
fn server_off_binds_nothing() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = live_command(1);
    cmd.env("HOTPATH_METRICS_PORT", port.to_string()).env("HOTPATH_METRICS_SERVER_OFF", "1");
    let out = run(&mut cmd);
    assert!(out.status.success());
    assert!(!stderr(&out).contains("metrics server"), "{}", stderr(&out));
}

#[test]
fn port_in_use_is_a_warning_in_the_report() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = run(command("case_live")
        .arg("1")
        .env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", port.to_string()));
    assert!(out.status.success(), "the program runs on: {}", stderr(&out));
    let warning = format!("metrics server not started: cannot listen on 127.0.0.1:{port}");
    assert_eq!(stderr(&out).matches(&warning).count(), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let header: Vec<&str> = text.lines().take(2).collect();
    assert!(header[0].starts_with("[hotpath] Profile of case_live::main"), "{text}");
    assert!(header[1].starts_with(&format!("[hotpath] warning: {warning}")), "{text}");
    assert!(text.contains("| case_live::step "), "the report is complete: {text}");
    drop(taken);
}

#[test]
fn metrics_pass_promtool() {
    let live = Live::start(live_command(60));
    live.calls("case_live::step");
    std::thread::sleep(Duration::from_millis(300));
    let metrics = live.get("/metrics", "");
    assert_eq!(metrics.status, 200);
    common::live::promtool_accepts(&metrics.body);
    // Real buckets: cumulative, ending in +Inf = _count.
    let series = |prefix: &str| -> Vec<f64> {
        metrics
            .body
            .lines()
            .filter(|l| l.starts_with(prefix))
            .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
            .collect()
    };
    let buckets = series("hotpath_function_duration_seconds_bucket{function=\"case_live::step\"");
    assert_eq!(buckets.len(), 10);
    assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{buckets:?}");
    let count = series("hotpath_function_duration_seconds_count{function=\"case_live::step\"}");
    assert_eq!(buckets.last(), count.first());
    assert!(count[0] >= 1.0);
    // step takes microseconds: nothing at or below 100 ns, everything by 10 s.
    assert_eq!(buckets[0], 0.0);
    let sum = series("hotpath_function_duration_seconds_sum{function=\"case_live::step\"}")[0];
    assert!(sum > 0.0 && sum < count[0] * 10.0);
    for family in [
        "hotpath_info{",
        "hotpath_uptime_seconds ",
        "hotpath_function_self_time_seconds_total{",
        "hotpath_http_responses_total{code=\"2xx\"}",
    ] {
        assert!(metrics.body.contains(family), "{family} in:\n{}", metrics.body);
    }
}
