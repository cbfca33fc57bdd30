//! A program that handles SIGINT/SIGTERM itself gets them, and shuts down as it
//! would without hotpath: the profiler's threads (started before main blocks the
//! signals) must never take them. The report then comes from main returning.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;
use std::time::Duration;

use common::{bounded, command};

const LIMIT: Duration = Duration::from_secs(60);

/// Runs `case_signals MODE` with the live server and samplers on, sends `signal`
/// once it is ready, and checks the program shut down by itself.
fn handled(mode: &str, signal: i32) {
    let mut child = command("case_signals")
        .arg(mode)
        .env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = bounded::lines(child.stdout.take().unwrap());
    bounded::line_starting(&lines, "ready", LIMIT);
    bounded::kill(child.id(), signal);
    let status = bounded::wait(&mut child, LIMIT, mode);
    let out = bounded::rest(&lines, LIMIT).join("\n");
    assert_eq!(status.signal(), None, "{mode}: killed by a signal it handles:\n{out}");
    assert!(status.success(), "{mode}: {status:?}\n{out}");
    assert!(out.contains(&format!("got signal {signal}")), "{mode}: the program got it:\n{out}");
    assert!(out.contains("(main returned)"), "{mode}: the report comes when main returns:\n{out}");
    assert!(out.contains("| case_signals::work "), "{out}");
}

#[test]
fn sigwait_gets_sigterm_and_sigint() {
    handled("sigwait", libc::SIGTERM);
    handled("sigwait", libc::SIGINT);
}

#[cfg(target_os = "linux")]
#[test]
fn signalfd_gets_sigterm_and_sigint() {
    handled("signalfd", libc::SIGTERM);
    handled("signalfd", libc::SIGINT);
}

#[test]
fn tokio_ctrl_c_shuts_down_gracefully() {
    handled("ctrl-c", libc::SIGINT);
}

/// The profiler's threads block the signals, whatever the program does.
#[cfg(target_os = "linux")]
#[test]
fn profiler_threads_block_termination_signals() {
    let mut live = common::live::Live::start(common::live::live_command(60));
    live.calls("case_live::step");
    let tasks = std::fs::read_dir(format!("/proc/{}/task", live.child.id())).unwrap();
    let mut seen = Vec::new();
    for task in tasks.map(|t| t.unwrap().path()) {
        let name = std::fs::read_to_string(task.join("comm")).unwrap_or_default().trim().to_string();
        let status = std::fs::read_to_string(task.join("status")).unwrap_or_default();
        let blocked = status.lines().find_map(|l| l.strip_prefix("SigBlk:")).unwrap_or("0").trim().to_string();
        let mask = u64::from_str_radix(&blocked, 16).unwrap();
        let both = (1 << (libc::SIGINT - 1)) | (1 << (libc::SIGTERM - 1));
        if name.starts_with("hp-") {
            assert_eq!(mask & both, both, "{name} blocks SIGINT and SIGTERM: SigBlk {blocked}");
            seen.push(name);
        }
    }
    // The starter watches the signal pipe (`hp-signal` starts with the first signal).
    assert!(seen.iter().any(|n| n == "hp-start") && seen.iter().any(|n| n.starts_with("hp-http-")), "{seen:?}");
    assert!(live.running());
}
