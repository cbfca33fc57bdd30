//! CPU sampling and the program's own signals (`tests/programs/cpu_sessions.rs`):
//! each session samples and leaves nothing of ours installed; a SIGPROF handler or
//! an ITIMER_PROF timer of the program gets its own signals only, and a program that
//! takes our sampling signal keeps it, with one warning.
#![cfg(all(feature = "hotpath-cpu", target_os = "linux"))]

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::{bounded, command};
use serde_json::Value;

struct Run {
    reports: Vec<Value>,
    lines: Vec<String>,
    warnings: Vec<String>,
    stderr: Vec<String>,
}

/// The programs burn CPU; run side by side on two cores they contend for it, and the
/// kernel then checks CPU timers (ours and ITIMER_PROF) far less often than each tick.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run(mode: &str) -> Run {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = command("case_cpu_sessions")
        .arg(mode)
        .env("HOTPATH_CPU_HZ", "1000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let out = bounded::lines(child.stdout.take().unwrap());
    let err = bounded::lines(child.stderr.take().unwrap());
    let status = bounded::wait(&mut child, Duration::from_secs(60), mode);
    let (out, stderr) = (bounded::rest(&out, Duration::from_secs(5)), bounded::rest(&err, Duration::from_secs(5)));
    assert!(status.success(), "{stderr:?}");
    let (json, lines): (Vec<String>, Vec<String>) = out.into_iter().partition(|l| l.starts_with('{'));
    let reports = json.iter().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    let warnings = stderr.iter().filter(|l| l.starts_with("[hotpath] warning:")).cloned().collect();
    Run { reports, lines, warnings, stderr }
}

fn burn_samples(report: &Value) -> u64 {
    report["functions_cpu"]["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no functions_cpu rows in {report:#}"))
        .iter()
        .find(|r| r["name"] == "case_cpu_sessions::burn")
        .map_or(0, |r| r["self_samples"].as_u64().unwrap())
}

fn line<'a>(run: &'a Run, prefix: &str) -> &'a str {
    run.lines.iter().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no {prefix:?} in {:?}", run.lines))
}

#[test]
fn a_second_session_samples_again() {
    let run = run("two");
    assert!(run.warnings.is_empty(), "{:?}", run.stderr);
    assert_eq!(run.reports.len(), 2, "{:?}", run.stderr);
    // 300 ms of CPU at 1 kHz each: far more than one sample, whatever the machine's load.
    for report in &run.reports {
        assert!(burn_samples(report) >= 30, "{:#}", report["functions_cpu"]);
    }
    assert_eq!(line(&run, "between: "), "default", "the first session's handler is gone");
}

#[test]
fn a_sigprof_handler_installed_later_gets_none_of_our_signals() {
    let run = run("sigprof");
    assert_eq!(line(&run, "signals: "), "ours=0 other=0");
    assert!(run.warnings.is_empty(), "{:?}", run.stderr);
    assert!(burn_samples(&run.reports[0]) >= 40, "sampling goes on: {:#}", run.reports[0]["functions_cpu"]);
    assert_eq!(line(&run, "after: "), "program");
}

#[test]
fn an_itimer_prof_armed_later_is_the_programs_own() {
    let run = run("itimer");
    let counts = line(&run, "signals: ");
    let ours: u64 = counts.strip_prefix("ours=").and_then(|c| c.split(' ').next()).unwrap().parse().unwrap();
    // 400 ms of CPU with a 5 ms ITIMER_PROF: about 80 of its own signals, none of ours.
    assert!(ours >= 10 && counts.ends_with(" other=0"), "{counts}");
    assert!(run.warnings.is_empty(), "{:?}", run.stderr);
    assert!(burn_samples(&run.reports[0]) >= 40, "sampling goes on: {:#}", run.reports[0]["functions_cpu"]);
}

#[test]
fn a_program_that_takes_the_sampling_signal_keeps_it_with_one_warning() {
    let run = run("taken");
    assert_eq!(line(&run, "signals: "), "ours=0 other=0", "no timer of ours is left");
    assert_eq!(run.warnings.len(), 1, "{:?}", run.stderr);
    assert!(run.warnings[0].contains("the program took over SIGRTMAX-2"), "{:?}", run.warnings);
    assert_eq!(run.reports.len(), 1, "the report is written");
    assert_eq!(line(&run, "after: "), "program", "nothing of ours restored over the program's handler");
}
