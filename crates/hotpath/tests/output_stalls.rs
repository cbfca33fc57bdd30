//! An output that nobody reads (a FIFO without a reader, a full stdout pipe) never
//! holds the program: the report is given up after a deadline with a warning, and a
//! second SIGTERM ends the process at once. A failed stdout write is a warning, and
//! the exit status stays the program's.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::ffi::CString;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{bounded, command};

const LIMIT: Duration = Duration::from_secs(60);

/// A FIFO in a fresh directory; nobody ever opens it for reading.
fn fifo(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotpath-fifo-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("report");
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    path
}

fn stderr_of(child: &mut Child) -> String {
    bounded::rest(&bounded::lines(child.stderr.take().unwrap()), Duration::from_secs(10)).join("\n")
}

#[test]
fn a_fifo_nobody_reads_is_given_up_with_a_warning() {
    let path = fifo("return");
    let mut child = command("case_exit_paths")
        .arg("return")
        .env("HOTPATH_OUTPUT_PATH", &path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = bounded::wait(&mut child, LIMIT, "exit_paths return with a FIFO");
    let err = stderr_of(&mut child);
    assert!(status.success(), "{status:?}: {err}");
    let warning =
        format!("[hotpath] warning: gave up writing the report to {}: it accepted nothing for", path.display());
    assert_eq!(err.matches(&warning).count(), 1, "{err}");
}

/// A pipe whose buffer is already full, and that nobody reads.
fn full_pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: room for the two descriptors; each is owned exactly once below.
    let (read, write) = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    let fd = fds[1];
    // SAFETY: fcntl and write on the pipe's write end, which `write` owns and keeps open.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        let chunk = [b'x'; 4096];
        while libc::write(fd, chunk.as_ptr().cast(), chunk.len()) > 0 {}
        libc::fcntl(fd, libc::F_SETFL, flags);
    }
    (read, write)
}

#[test]
fn a_full_stdout_pipe_is_given_up_with_a_warning() {
    let (_read, write) = full_pipe();
    let mut child =
        command("case_exit_paths").arg("return").stdout(Stdio::from(write)).stderr(Stdio::piped()).spawn().unwrap();
    let status = bounded::wait(&mut child, LIMIT, "exit_paths return with a full stdout");
    let err = stderr_of(&mut child);
    assert!(status.success(), "{status:?}: {err}");
    assert!(err.contains("[hotpath] warning: gave up writing the report to standard output"), "{err}");
}

/// `case_exit_paths wait` with its report going to a FIFO nobody reads, started.
fn waiting_on_a_fifo(name: &str) -> (Child, std::sync::mpsc::Receiver<String>) {
    let path = fifo(name);
    let mut child = command("case_exit_paths")
        .arg("wait")
        .env("HOTPATH_OUTPUT_PATH", &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = bounded::lines(child.stdout.take().unwrap());
    bounded::line_starting(&lines, "ready", LIMIT);
    (child, lines)
}

#[test]
fn sigterm_with_a_stuck_output_ends_after_the_deadline() {
    let (mut child, _lines) = waiting_on_a_fifo("one-signal");
    bounded::kill(child.id(), libc::SIGTERM);
    let status = bounded::wait(&mut child, LIMIT, "SIGTERM with a stuck report");
    let err = stderr_of(&mut child);
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{err}");
    assert!(err.contains("gave up writing the report"), "{err}");
}

#[test]
fn a_second_signal_ends_the_process_at_once() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let (mut child, _lines) = waiting_on_a_fifo(&format!("two-signals-{signal}"));
        bounded::kill(child.id(), libc::SIGTERM);
        // Again and again: the first one is being reported, any later one must end it.
        let end = Instant::now() + LIMIT;
        let status = loop {
            std::thread::sleep(Duration::from_millis(100));
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > end {
                let _ = child.kill();
                let _ = child.wait();
                panic!("still running after signals for {LIMIT:?}");
            }
            // The child is not reaped yet, so its pid is still its own.
            bounded::kill(child.id(), signal);
        };
        let err = stderr_of(&mut child);
        assert_eq!(status.signal(), Some(signal), "{err}");
        // It ended before the report's deadline ran out.
        assert!(!err.contains("gave up writing the report"), "{err}");
    }
}

#[test]
fn a_failed_stdout_write_is_a_warning() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = command("case_exit_paths").arg("return").stdout(full).output().unwrap();
    assert!(out.status.success(), "the exit status stays the program's: {:?}", out.status);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[hotpath] warning: could not write the report to standard output: "), "{err}");
    assert_eq!(err.matches("[hotpath] warning").count(), 1, "{err}");
}
