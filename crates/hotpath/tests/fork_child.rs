//! A forked child behaves as if the profiler were off: its signals are its own (a
//! SIGTERM ends the child, not the parent), and it writes no report of the parent's
//! data, whether it exits or returns from main.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::{bounded, command};

const LIMIT: Duration = Duration::from_secs(60);

/// Runs `case_fork MODE`; `signal` is sent to the child once the parent names it.
/// Returns the child's pid and every line on stdout (the parent's and the child's,
/// which share it); the parent must have returned from main.
fn run(mode: &str, signal: Option<i32>) -> (String, Vec<String>) {
    let mut parent = command("case_fork").arg(mode).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let lines = bounded::lines(parent.stdout.take().unwrap());
    let errors = bounded::lines(parent.stderr.take().unwrap());
    let mut out = Vec::new();
    let child: u32 = loop {
        let line = lines.recv_timeout(LIMIT).expect("the parent names its child");
        if let Some(pid) = line.strip_prefix("child ") {
            break pid.parse().unwrap();
        }
        out.push(line);
    };
    if let Some(signal) = signal {
        bounded::kill(child, signal);
    }
    let status = bounded::wait(&mut parent, LIMIT, mode);
    // SAFETY: ends the child if it outlived the parent (it would end by itself later).
    unsafe { libc::kill(child as i32, libc::SIGKILL) };
    out.extend(bounded::rest(&lines, Duration::from_secs(5)));
    let err = bounded::rest(&errors, Duration::from_secs(5)).join("\n");
    assert!(status.success(), "{mode}: the parent ended with {status:?}\nstdout: {out:?}\nstderr: {err}");
    (child.to_string(), out)
}

/// The JSON reports among `lines`.
fn reports(lines: &[String]) -> Vec<serde_json::Value> {
    lines.iter().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).collect()
}

fn names(report: &serde_json::Value) -> Vec<String> {
    report["functions_timing"]["rows"].as_array().unwrap().iter().map(|r| r["name"].to_string()).collect()
}

#[test]
fn a_signal_to_the_child_ends_the_child_only() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let (_, out) = run("wait", Some(signal));
        assert!(out.contains(&format!("child ended by signal {signal}")), "{out:?}");
        let reports = reports(&out);
        assert_eq!(reports.len(), 1, "{out:?}");
        assert_eq!(reports[0]["meta"]["ended_by"], "main_returned");
    }
}

#[test]
fn a_child_that_exits_writes_no_report() {
    for mode in ["exit", "return"] {
        let (child, out) = run(mode, None);
        assert!(out.contains(&"child exited 0".to_string()), "{mode}: {out:?}");
        let reports = reports(&out);
        assert_eq!(reports.len(), 1, "{mode}: only the parent reports: {out:?}");
        assert_ne!(reports[0]["meta"]["pid"].to_string(), child, "{mode}");
        let rows = names(&reports[0]);
        assert!(rows.contains(&"\"case_fork::parent_work\"".to_string()), "{rows:?}");
        assert!(!rows.contains(&"\"case_fork::child_work\"".to_string()), "{rows:?}");
    }
}
