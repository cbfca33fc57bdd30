//! Calls in flight are rows with their ages in nanoseconds: a sync call, three async
//! calls and `main` of `case_inflight`, on the live endpoint, on `/metrics` and in a
//! report written on SIGTERM. Each age is checked against the program's own clock: at
//! least the time the call has run by a reading taken before the snapshot, at most the
//! time since just before it was made by a reading taken after.
#![cfg(all(feature = "hotpath", feature = "tokio", unix))]

mod common;

use std::io::{Read, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use common::bounded;
use common::live::Live;
use serde_json::Value;

/// Clock conversion error (the TSC ratio is accurate to about 1e-4) and rounding.
const SLACK_NS: u64 = 5_000_000;

/// Asks the program for its readings (`lower` or `upper`) and returns them.
fn readings(stdin: &mut ChildStdin, lines: &Receiver<String>, which: &str) -> Vec<u64> {
    writeln!(stdin, "{which}").unwrap();
    let line = bounded::line_starting(lines, which, Duration::from_secs(30));
    line.split_whitespace().skip(1).map(|n| n.parse().unwrap()).collect()
}

fn row<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no row {name}: {rows:#?}"))
}

/// The row shows `active` calls in flight, none completed, the oldest aged in `range`.
fn check(row: &Value, active: u64, range: (u64, u64)) {
    assert_eq!(row["active"], active, "{row:#}");
    assert_eq!(row["calls"], 0, "{row:#}");
    let age = row["oldest_active_ns"].as_u64().unwrap_or_else(|| panic!("no oldest age: {row:#}"));
    assert!(range.0 <= age && age <= range.1, "age {age} ns outside the program's {range:?}: {row:#}");
}

#[test]
fn live_rows_of_calls_in_flight_with_ages_in_nanoseconds() {
    let spawned = Instant::now();
    let mut cmd = common::command("case_inflight");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_METRICS_PORT", "0").env("HOTPATH_OUTPUT_FORMAT", "none");
    cmd.stdin(Stdio::piped());
    let mut live = Live::start(cmd);
    let mut stdin = live.child.stdin.take().unwrap();
    bounded::line_starting(&live.stderr, "ready", Duration::from_secs(30));
    let lower = readings(&mut stdin, &live.stderr, "lower");
    // Past the server's 200 ms snapshot cache: the snapshot is built after `lower`.
    std::thread::sleep(Duration::from_millis(250));
    let rows = live.json("/functions_timing?limit=0")["rows"].as_array().cloned().unwrap();
    let metrics = live.get("/metrics", "").body;
    let upper = readings(&mut stdin, &live.stderr, "upper");
    let test_ns = spawned.elapsed().as_nanos() as u64;
    check(row(&rows, "case_inflight::hold_sync"), 1, (lower[0], upper[0] + SLACK_NS));
    check(row(&rows, "case_inflight::hold_async"), 3, (lower[1], upper[1] + SLACK_NS));
    // `main` began before its first line and after this test spawned the program.
    check(row(&rows, "case_inflight::main"), 1, (lower[2], test_ns));
    for (function, active) in [("hold_sync", 1), ("hold_async", 3), ("main", 1)] {
        let series = format!("hotpath_function_active{{function=\"case_inflight::{function}\"}} {active}\n");
        assert!(metrics.contains(&series), "{series} in {metrics}");
    }
    assert!(metrics.contains("# TYPE hotpath_function_active gauge"), "{metrics}");
    assert!(metrics.contains("hotpath_function_oldest_active_seconds{function=\"case_inflight::hold_async\"}"));
    drop(stdin);
    bounded::wait(&mut live.child, Duration::from_secs(30), "case_inflight after stdin closed");
}

#[test]
fn a_report_on_sigterm_has_the_ages_in_nanoseconds() {
    let spawned = Instant::now();
    let mut child = common::command("case_inflight")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let lines = bounded::lines(child.stderr.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    bounded::line_starting(&lines, "ready", Duration::from_secs(30));
    let lower = readings(&mut stdin, &lines, "lower");
    bounded::kill(child.id(), libc::SIGTERM);
    bounded::wait(&mut child, Duration::from_secs(30), "case_inflight after SIGTERM");
    let test_ns = spawned.elapsed().as_nanos() as u64;
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let report: Value =
        out.lines().rev().find_map(|l| serde_json::from_str(l).ok()).unwrap_or_else(|| panic!("no report: {out}"));
    assert_eq!(report["meta"]["ended_by"], "signal");
    let rows = report["functions_timing"]["rows"].as_array().unwrap();
    check(row(rows, "case_inflight::hold_sync"), 1, (lower[0], test_ns));
    check(row(rows, "case_inflight::hold_async"), 3, (lower[1], test_ns));
}
