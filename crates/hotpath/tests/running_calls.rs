//! Calls that never return are visible: the live endpoint lists them with their count
//! and the age of the oldest, and a report written on SIGTERM says what was running.
#![cfg(all(feature = "hotpath", feature = "tokio", unix))]

mod common;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::bounded;
use common::live::Live;

#[test]
fn running_calls_show_live() {
    let mut cmd = common::command("case_running");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_METRICS_PORT", "0").env("HOTPATH_OUTPUT_FORMAT", "none");
    let live = Live::start(cmd);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rows = live.json("/functions_timing")["rows"].as_array().cloned().unwrap_or_default();
        let running = |name: &str| rows.iter().find(|r| r["name"] == name).map(|r| r["active"].as_u64().unwrap_or(0));
        if running("case_running::produce") == Some(1) && running("case_running::consume") == Some(1) {
            let produce = rows.iter().find(|r| r["name"] == "case_running::produce").unwrap();
            assert_eq!(produce["calls"], 0, "it never returned: {produce:#}");
            assert!(produce["oldest_active_ns"].as_u64().unwrap() > 0, "{produce:#}");
            break;
        }
        assert!(Instant::now() < deadline, "never listed as running: {rows:#?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_report_on_sigterm_says_what_was_running() {
    let mut child = common::command("case_running")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let lines = bounded::lines(child.stderr.take().unwrap());
    bounded::line_starting(&lines, "ready", Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(300));
    bounded::kill(child.id(), libc::SIGTERM);
    bounded::wait(&mut child, Duration::from_secs(30), "case_running after SIGTERM");
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let header = out.lines().find(|l| l.contains("still running")).unwrap_or_else(|| panic!("{out}"));
    assert!(header.contains("case_running::produce (1 running for "), "{header}");
    assert!(header.contains("case_running::consume (1 running"), "{header}");
    let columns = common::table_columns(&out);
    assert!(columns.ends_with(&["Active".to_string(), "Oldest".to_string()]), "in-flight columns: {out}");
    let produce = common::table_row(&out, "case_running::produce");
    assert_eq!(produce[1], "0", "no call completed: {produce:?}");
    assert_eq!(produce[produce.len() - 2], "1", "one in flight: {produce:?}");
}
