//! Input that must not hang or exhaust `hotpath compare` and `hotpath report`: a
//! character device that never ends (`/dev/zero`), a FIFO nobody writes to, a file
//! over the size limit, and a large valid report, whose peak memory must stay within
//! a small multiple of its size. Every child runs under a deadline.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longer than any of these runs needs, short enough to catch a hang.
const DEADLINE: Duration = Duration::from_secs(120);

struct Finished {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident set size of the child, bytes.
    max_rss: u64,
}

/// Runs `hotpath ARGS` to its end or the deadline (then kills it and fails).
// The child is reaped by wait4 below, which also gives its peak memory.
#[allow(clippy::zombie_processes)]
fn hotpath(args: &[&str]) -> Finished {
    let dir = tempfile::tempdir().unwrap();
    let (out_path, err_path) = (dir.path().join("out"), dir.path().join("err"));
    let child = Command::new(env!("CARGO_BIN_EXE_hotpath"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("hotpath runs");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: rusage is plain old data that wait4 fills; an all-zero value is valid.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child without blocking; both pointers are valid for the call.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(got >= 0, "wait4: {}", std::io::Error::last_os_error());
        if got == pid {
            break (status, usage);
        }
        if start.elapsed() > DEADLINE {
            // SAFETY: kill only signals the child we spawned, which has not been reaped yet.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("hotpath {args:?} still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Finished {
        code,
        stdout: std::fs::read_to_string(out_path).unwrap(),
        stderr: std::fs::read_to_string(err_path).unwrap(),
        max_rss: usage.ru_maxrss as u64 * 1024,
    }
}

fn report_head(out: &mut impl Write) {
    write!(
        out,
        r#"{{"schema_version": 1, "meta": {{"hotpath_version": "0.23.0", "caller": "app::main", "pid": 1,
        "started_unix_ms": 0, "wall_ns": 1000000, "ended_by": "main_returned", "percentiles": [50.0, 95.0, 99.9],
        "limit": 0, "clock": "tsc", "dropped": 0, "warnings": []}}"#
    )
    .unwrap();
}

/// A valid report of about `rows` × 1.2 KB: timing rows and generic sections with nested objects.
fn big_report(path: &Path, rows: usize) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    report_head(&mut out);
    let summary = |n: usize| {
        format!(
            r#"{{"count": {n}, "total_ns": {}, "avg_ns": 1000, "max_ns": 9000, "percentiles_ns": {{"p50": 900, "p95": 4000, "p99.9": 9000}}}}"#,
            n * 1000
        )
    };
    write!(out, r#", "functions_timing": {{"total_functions": {rows}, "rows": ["#).unwrap();
    for i in 0..rows {
        let sep = if i == 0 { "" } else { "," };
        write!(out, r#"{sep}{{"name": "app::module::function_{i}", "file": "src/module.rs", "line": {i}, "is_async": false, "calls": {i}, "cancelled": 0, "polls": 0, "busy_ns": 0, "total_ns": {}, "self_ns": 500, "avg_ns": 1000, "min_ns": 100, "max_ns": 9000, "percentiles_ns": {{"p50": 900, "p95": 4000, "p99.9": 9000}}}}"#, i * 1000).unwrap();
    }
    write!(out, r#"]}}, "channels": {{"slow_consumer_rule": "r", "total_channels": {rows}, "rows": ["#).unwrap();
    for i in 0..rows {
        let sep = if i == 0 { "" } else { "," };
        write!(out, r#"{sep}{{"name": "channel_{i}", "file": "src/module.rs", "line": {i}, "kind": "tokio::mpsc", "message_type": "Job", "capacity": 64, "instances": 1, "closed_instances": 0, "state": "open", "sent": {i}, "received": {i}, "queue_len": 0, "max_queue_len": 3, "blocked": {}, "latency": {}, "slow_consumer": false, "slow_consumer_now": false}}"#, summary(i), summary(i + 1)).unwrap();
    }
    write!(out, "]}}}}").unwrap();
}

fn assert_refused(out: &Finished, parts: &[&str]) {
    assert_eq!(out.code, Some(2), "stderr: {}", out.stderr);
    assert!(out.stderr.starts_with("error: ") && out.stderr.lines().count() == 1, "{}", out.stderr);
    for part in parts {
        assert!(out.stderr.contains(part), "missing {part:?} in: {}", out.stderr);
    }
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

fn small_report(dir: &Path) -> String {
    let path = dir.join("small.json");
    big_report(&path, 2);
    path.to_str().unwrap().to_string()
}

#[test]
fn dev_zero_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let good = small_report(dir.path());
    let out = hotpath(&["compare", "/dev/zero", &good]);
    assert_refused(&out, &["cannot read base report /dev/zero: not a regular file (a character device)"]);
    let out = hotpath(&["report", "/dev/zero"]);
    assert_refused(&out, &["cannot read /dev/zero: not a regular file (a character device)"]);
}

#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let good = small_report(dir.path());
    let fifo = dir.path().join("pipe.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    let out = hotpath(&["compare", &good, fifo]);
    assert_refused(&out, &[&format!("cannot read head report {fifo}: not a regular file (a named pipe)")]);
    let out = hotpath(&["report", fifo]);
    assert_refused(&out, &[&format!("cannot read {fifo}: not a regular file (a named pipe)")]);
}

#[test]
fn a_file_over_the_limit_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    big_report(&path, 2_000);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 1 << 20, "{size}");
    let big = path.to_str().unwrap();
    let out = hotpath(&["compare", big, big, "--max-input-mb", "1"]);
    assert_refused(
        &out,
        &[
            &format!("cannot read base report {big}: the file is "),
            "over the 1 MiB input limit (--max-input-mb raises it)",
        ],
    );
    let out = hotpath(&["report", big, "--max-input-mb", "1"]);
    assert_refused(&out, &["over the 1 MiB input limit (--max-input-mb raises it)"]);
    let out = hotpath(&["compare", big, big, "--max-input-mb", "2"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn a_large_report_takes_memory_in_proportion_to_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.json");
    big_report(&path, 12_000);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 8 << 20, "{size}");
    let (large, small) = (path.to_str().unwrap(), small_report(dir.path()));
    // The process's own footprint, to count only what reading the report adds.
    let baseline = hotpath(&["compare", &small, &small]).max_rss;
    for args in [vec!["report", large], vec!["compare", large, &small], vec!["compare", large, large]] {
        let out = hotpath(&args);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        let inputs = if args.len() == 3 && args[2] == large { 2 * size } else { size };
        let grown = out.max_rss.saturating_sub(baseline);
        eprintln!("{args:?}: {} KB over {} KB baseline for {} KB", grown >> 10, baseline >> 10, inputs >> 10);
        assert!(grown < 4 * inputs, "{args:?}: peak RSS grew by {} MB for {} MB of input", grown >> 20, inputs >> 20);
    }
}
