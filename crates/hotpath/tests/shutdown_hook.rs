//! A `before_shutdown` hook that calls `process::exit`: no hang, no abort, one report.
//! The programs are `tests/programs/shutdown_hook.rs`, waited for with a bound that
//! only catches a hang.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use common::{bounded, command};
use serde_json::Value;

/// Runs the program in `mode`: its status, the JSON reports on stdout, its stderr.
fn run(mode: &str) -> (ExitStatus, Vec<Value>, Vec<String>) {
    let mut child = command("case_shutdown_hook")
        .arg(mode)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let out = bounded::lines(child.stdout.take().unwrap());
    let err = bounded::lines(child.stderr.take().unwrap());
    let status = bounded::wait(&mut child, Duration::from_secs(60), mode);
    let reports = bounded::rest(&out, Duration::from_secs(5))
        .iter()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (status, reports, bounded::rest(&err, Duration::from_secs(5)))
}

fn calls(report: &Value, name: &str) -> u64 {
    common::row(report, name)["calls"].as_u64().unwrap()
}

#[test]
fn a_hook_that_exits_after_the_guard_drop_ends_with_its_status_and_one_report() {
    let (status, reports, err) = run("drop-exit");
    assert_eq!(status.code(), Some(7), "{err:?}");
    assert_eq!(reports.len(), 1, "{err:?}");
    assert_eq!(reports[0]["meta"]["ended_by"], "process_exit");
    assert_eq!(calls(&reports[0], "case_shutdown_hook::in_hook"), 1, "the hook's calls are counted");
    assert_eq!(calls(&reports[0], "case_shutdown_hook::work"), 11);
    assert!(err.is_empty(), "{err:?}");
}

#[test]
fn a_hook_that_exits_while_main_exits_does_not_abort() {
    let (status, reports, err) = run("exit-first");
    // Already exiting: Rust lets one thread exit, so the status stays main's.
    assert_eq!(status.code(), Some(3), "{err:?}");
    assert_eq!(reports.len(), 1, "{err:?}");
    assert_eq!(reports[0]["meta"]["ended_by"], "process_exit");
    assert_eq!(calls(&reports[0], "case_shutdown_hook::in_hook"), 1);
    assert!(!err.iter().any(|l| l.contains("re-entrantly")), "{err:?}");
    let warnings: Vec<&String> = err.iter().filter(|l| l.starts_with("[hotpath] warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err:?}");
    assert!(warnings[0].contains("the before_shutdown hook did not return"), "{warnings:?}");
}

#[test]
fn a_hook_that_returns_while_main_exits_is_waited_for() {
    let (status, reports, err) = run("exit-first-returns");
    assert_eq!(status.code(), Some(3), "{err:?}");
    assert_eq!(reports.len(), 1, "{err:?}");
    assert_eq!(calls(&reports[0], "case_shutdown_hook::in_hook"), 1);
    assert_eq!(calls(&reports[0], "case_shutdown_hook::work"), 11);
    assert!(err.is_empty(), "{err:?}");
}

#[test]
fn a_signal_while_the_hook_runs_waits_for_it() {
    let (status, reports, err) = run("signal-in-hook");
    // Whichever end reports (the signal thread, or the guard's drop), it is after the hook.
    assert!(status.success() || status.signal() == Some(libc::SIGTERM), "{status:?} {err:?}");
    assert_eq!(reports.len(), 1, "{err:?}");
    assert_eq!(calls(&reports[0], "case_shutdown_hook::in_hook"), 1, "the report follows the hook");
}
