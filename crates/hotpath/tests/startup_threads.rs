//! A short run pays for no profiler thread it does not need: an empty
//! `#[hotpath::main]` program, with the live server and signal handlers on as by
//! default, has only the starter (`hp-start`) from start to exit; its report is
//! written without a thread, so exit has no `hp-*` thread but the idle starter to
//! wait for. The threads it did not need start when they are: the threads sampler
//! after its first interval, the server's listener at the first connection.
#![cfg(all(feature = "hotpath", target_os = "linux"))]

mod common;

use std::process::Output;

use common::{command, run, stderr, stdout};

/// How many threads besides main the program listed at `label` ("start", "end", "at
/// exit"), and their names (a thread that has not named itself yet shows the process's).
fn listed(out: &Output, label: &str) -> (usize, Vec<String>) {
    let text = stdout(out);
    let prefix = format!("{label}: ");
    let line =
        text.lines().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_else(|| panic!("no '{label}' line: {text}"));
    let (_, names) = line.split_once('[').unwrap_or_else(|| panic!("{line}"));
    let names: Vec<String> =
        names.trim_end_matches(']').split(',').filter(|n| !n.is_empty()).map(String::from).collect();
    (names.len(), names)
}

/// `n` profiler threads, plus the CPU sampler of the opt-in `hotpath-cpu` feature,
/// which samples from the start.
fn profiler(n: usize) -> usize {
    n + usize::from(cfg!(feature = "hotpath-cpu"))
}

/// The program with the live server on a free port of its own.
fn with_server(mode: Option<&str>) -> Output {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = command("case_startup_threads");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_METRICS_PORT", port.to_string());
    cmd.args(mode);
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("[hotpath] Profile of case_startup_threads::main"), "{}", stdout(&out));
    out
}

#[test]
fn a_short_run_has_only_the_starter_and_writes_its_report_without_a_thread() {
    let out = with_server(None);
    let text = stdout(&out);
    assert_eq!(listed(&out, "start").0, profiler(1), "the starter only: {text}");
    assert_eq!(listed(&out, "end").0, profiler(1), "the starter only: {text}");
    // The starter may not have named itself yet on a busy machine: counted, not named.
    assert_eq!(listed(&out, "at exit").0, profiler(1), "no sampler, signal, listener or output thread: {text}");
}

#[test]
fn the_threads_sampler_starts_after_its_first_interval() {
    let mut cmd = command("case_startup_threads");
    let out = run(cmd.arg("interval").env("HOTPATH_THREADS_INTERVAL_MS", "50"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(listed(&out, "start").0, profiler(1), "{text}");
    let end = listed(&out, "end").1;
    assert!(end.iter().any(|name| name == "hp-threads") && end.len() == profiler(2), "{text}");
}

#[test]
fn the_listener_starts_with_the_first_connection_and_answers_it() {
    let out = with_server(Some("connect"));
    let text = stdout(&out);
    assert_eq!(listed(&out, "start").0, profiler(1), "{text}");
    assert!(text.contains("status: HTTP/1.1 200"), "{text}");
    assert!(listed(&out, "end").1.iter().any(|name| name == "hp-listen"), "{text}");
}
