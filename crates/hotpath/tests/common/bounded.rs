//! Child processes waited for with a bound: a test that finds a program hung kills
//! it and fails instead of hanging too.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ExitStatus};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Waits up to `limit` for `child` to end; kills it and panics otherwise.
pub(crate) fn wait(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let end = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait works") {
            return status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}, killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lines of `pipe`, read on a thread as they come.
pub(crate) fn lines(pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Waits up to `limit` for a line starting with `prefix`; returns it.
pub(crate) fn line_starting(lines: &mpsc::Receiver<String>, prefix: &str, limit: Duration) -> String {
    let end = Instant::now() + limit;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.starts_with(prefix) => return line,
            Ok(_) => {}
            Err(e) => panic!("no line starting with {prefix:?} within {limit:?} ({e})"),
        }
    }
}

/// Every line until the pipe closes, or until `limit` has passed.
pub(crate) fn rest(lines: &mpsc::Receiver<String>, limit: Duration) -> Vec<String> {
    let end = Instant::now() + limit;
    let mut out = Vec::new();
    while let Ok(line) = lines.recv_timeout(end.saturating_duration_since(Instant::now())) {
        out.push(line);
    }
    out
}

/// Sends `signal` to process `pid`.
#[cfg(unix)]
pub(crate) fn kill(pid: u32, signal: i32) {
    // SAFETY: kill(2) with a pid this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0, "kill {pid}");
}

/// Runs `cmd` to its end, bounded by `limit`, capturing its output.
#[allow(dead_code)]
pub(crate) fn output(cmd: &mut std::process::Command, limit: Duration) -> std::process::Output {
    use std::process::Stdio;
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the program starts");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = wait(&mut child, limit, "the program");
    std::process::Output { status, stdout: out_thread.join().unwrap(), stderr: err_thread.join().unwrap() }
}
