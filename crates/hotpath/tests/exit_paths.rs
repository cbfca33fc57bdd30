//! The report is written however `main` ends: return, `?` error, panic,
//! `process::exit`, SIGINT and SIGTERM.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

use common::{command, run, stderr, stdout, table_columns, table_row};

fn assert_table(text: &str, ended: &str) {
    assert!(text.contains("[hotpath] Profile of case_exit_paths::main: "), "{text}");
    assert!(text.contains(&format!("({ended})")), "expected '{ended}' in:\n{text}");
    assert_eq!(
        table_columns(text),
        ["Function", "Calls", "Avg", "P50", "P95", "P99.9", "Total", "% Total", "Self", "% Self"]
    );
    assert!(text.contains("| case_exit_paths::work "), "{text}");
}

#[test]
fn main_returns() {
    let out = run(command("case_exit_paths").arg("return"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_table(&stdout(&out), "main returned");
    let work = table_row(&stdout(&out), "case_exit_paths::work");
    assert_eq!(work[1], "101", "calls: {work:?}");
    assert_eq!(table_row(&stdout(&out), "case_exit_paths::fallible")[1], "1");
}

#[test]
fn main_returns_an_error_through_question_mark() {
    let out = run(command("case_exit_paths").arg("error"));
    assert_eq!(out.status.code(), Some(1));
    assert_table(&stdout(&out), "main returned");
    assert!(stdout(&out).contains("| case_exit_paths::fallible "));
}

#[test]
fn main_panics() {
    let out = run(command("case_exit_paths").arg("panic"));
    assert_eq!(out.status.code(), Some(101));
    assert!(stderr(&out).contains("requested panic"));
    assert_table(&stdout(&out), "main panicked");
}

#[test]
fn process_exit() {
    let out = run(command("case_exit_paths").arg("exit"));
    assert_eq!(out.status.code(), Some(3));
    assert_table(&stdout(&out), "process::exit");
}

fn interrupted(signal: i32) {
    let mut cmd = command("case_exit_paths");
    cmd.arg("wait").stdout(Stdio::piped()).stderr(Stdio::piped());
    // A shell without job control starts background commands with SIGINT ignored, and the
    // child would inherit that (the profiler leaves an ignored signal ignored): the test
    // is about a program that takes the signal's default.
    // SAFETY: `signal` is async-signal-safe, the only call made between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
            libc::signal(signal, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    // SAFETY: sends a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(signal), "the process ends by the signal, as without hotpath");
    assert_table(&rest, "interrupted by a signal");
}

#[test]
fn sigint_reports_then_exits_by_the_signal() {
    interrupted(libc::SIGINT);
}

#[test]
fn sigterm_reports_then_exits_by_the_signal() {
    interrupted(libc::SIGTERM);
}
