//! Writing the report. Nothing here may panic or hold the program: a closed or full
//! stdout, an unwritable path or a FIFO nobody reads turns into one warning line on
//! stderr. What the destination takes without waiting (a regular file, a terminal,
//! a pipe with room: `poll(2)` says so before each chunk) is written from the calling
//! thread; the rest goes out from a `hp-output` thread, and when the destination
//! accepts nothing for [`STALL`], the report is given up with a warning and the program
//! goes on ending (the thread stays blocked and ends with the process). A short run
//! thus pays no thread for its report, and its exit waits on none.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use hotpath_engine::diag::warn;
use hotpath_engine::spawn::SpawnMasked;
use hotpath_model::{render_table, Report};

use crate::config::{Config, Format};

/// How long the destination may accept nothing before the report is given up.
const STALL: Duration = Duration::from_secs(5);
/// Bytes per write, so that progress is visible to the waiting thread.
const CHUNK: usize = 16 * 1024;
/// Bytes per write from the calling thread: a pipe that `poll` calls writable takes
/// this many (`PIPE_BUF`) without blocking.
const NOW_CHUNK: usize = 4096;

/// Renders the report in the configured format to the configured destination.
pub(crate) fn emit(report: &Report, config: &Config) {
    let text = match config.format {
        Format::Table => render_table(report),
        Format::Json => report.to_json(false) + "\n",
        Format::JsonPretty => report.to_json(true) + "\n",
        Format::None => return,
    };
    let path = config.output_path.as_deref();
    let name = path.map_or("standard output".to_string(), |p| p.display().to_string());
    let sent = match write_now(path, text.as_bytes()) {
        Ok(sent) if sent == text.len() => return,
        Ok(sent) => sent,
        Err(e) => return outcome(&name, Err(e)),
    };
    let text: Arc<str> = text.into();
    let progress = Arc::new(AtomicUsize::new(0));
    let (done, result) = mpsc::channel();
    let (bytes, written, target) = (Arc::clone(&text), Arc::clone(&progress), config.output_path.clone());
    let spawned = std::thread::Builder::new().name("hp-output".into()).stack_size(64 * 1024).spawn_masked(move || {
        hotpath_engine::memory::profiler_thread();
        let _ = done.send(write(target.as_deref(), &bytes.as_bytes()[sent..], &written));
    });
    if spawned.is_err() {
        // No thread to spare: write from here, without a deadline, rather than lose it.
        return outcome(&name, write(path, &text.as_bytes()[sent..], &progress));
    }
    let mut seen = 0;
    loop {
        match result.recv_timeout(STALL) {
            Ok(written) => return outcome(&name, written),
            Err(mpsc::RecvTimeoutError::Disconnected) => return warn("internal error while writing the report"),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = progress.load(Relaxed);
                if now == seen {
                    return warn(&format!(
                        "gave up writing the report to {name}: it accepted nothing for {} s (is anything reading it?)",
                        STALL.as_secs()
                    ));
                }
                seen = now;
            }
        }
    }
}

fn outcome(name: &str, written: io::Result<()>) {
    if let Err(e) = written {
        warn(&format!("could not write the report to {name}: {e}"));
    }
}

/// Writes from the calling thread what the destination takes without waiting; returns
/// how many bytes went out. A file is written whole if it is a regular one (or new),
/// else left to the thread (opening a FIFO waits for a reader). Standard output is
/// written chunk by chunk while `poll` says it is writable; the thread writes the rest.
fn write_now(path: Option<&Path>, bytes: &[u8]) -> io::Result<usize> {
    if let Some(path) = path {
        return match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => Ok(0),
            _ => write(Some(path), bytes, &AtomicUsize::new(0)).map(|()| bytes.len()),
        };
    }
    let mut out = io::stdout().lock();
    let mut sent = 0;
    for chunk in bytes.chunks(NOW_CHUNK) {
        if !writable_now(&out) {
            return Ok(sent);
        }
        out.write_all(chunk)?;
        sent += chunk.len();
    }
    out.flush()?;
    Ok(sent)
}

/// Whether standard output takes a write now (or fails at once: closed, in error).
#[cfg(unix)]
fn writable_now(out: &io::StdoutLock<'_>) -> bool {
    let fd = std::os::fd::AsRawFd::as_raw_fd(out);
    let mut poll = libc::pollfd { fd, events: libc::POLLOUT, revents: 0 };
    // SAFETY: one live, initialised pollfd; a zero timeout only asks.
    unsafe { libc::poll(&mut poll, 1, 0) == 1 }
}

/// Without `poll`, everything goes to the thread, which has a deadline.
#[cfg(not(unix))]
fn writable_now(_out: &io::StdoutLock<'_>) -> bool {
    false
}

/// Writes `bytes` in chunks, counting them in `progress`.
fn write(path: Option<&Path>, bytes: &[u8], progress: &AtomicUsize) -> io::Result<()> {
    let chunks = |out: &mut dyn Write| -> io::Result<()> {
        for chunk in bytes.chunks(CHUNK) {
            out.write_all(chunk)?;
            progress.fetch_add(chunk.len(), Relaxed);
        }
        out.flush()
    };
    match path {
        Some(path) => chunks(&mut std::fs::File::create(path)?),
        None => chunks(&mut io::stdout().lock()),
    }
}
