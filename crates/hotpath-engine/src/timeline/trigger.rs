//! Traces written when something breaches: a measured call over its threshold
//! (`#[measure(timeline_over = "50ms")]`, `HOTPATH_TIMELINE_TRIGGER`), a panic, a
//! channel turning slow-consumer. The breaching thread only queues a request (a cold
//! path, no file I/O); the `hp-timeline` thread, started on the first request, copies
//! the rings and writes the file. Requests are rate-limited (a minimum interval between
//! two files, a cap per run); the rest are counted as suppressed.
//!
//! The writing itself is the export's (above the instruments), handed in as a function
//! by the collector, so this module stays below every instrument.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc::{self, Sender};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hotpath_model::TraceFile;

use crate::spawn::SpawnMasked;
use crate::sync::lock;

/// Why a trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// A measured call ran longer than its threshold.
    SlowCall,
    /// The program panicked.
    Panic,
    /// A channel's queue kept growing (the slow-consumer rule).
    SlowConsumer,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::SlowCall => "slow_call",
            Reason::Panic => "panic",
            Reason::SlowConsumer => "slow_consumer",
        }
    }
}

/// Writes the trace of the last `window_ns` to a path, for the writer thread; returns the
/// events and torn events written.
pub(crate) type WriteTrace = fn(&std::path::Path, Option<u64>) -> std::io::Result<(u64, u64)>;

/// What breached.
pub(crate) enum Subject {
    /// Described already.
    Text(String),
    /// The entry of a metric (a channel), named when the file is written.
    Metric(u32),
}

struct Request {
    reason: Reason,
    subject: Subject,
    /// Nanoseconds of timeline to write.
    window_ns: Option<u64>,
}

/// A function (by its report name, or a suffix of it at a `::`) and the call duration
/// over which its timeline is written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineTrigger {
    /// The function's name as the report shows it.
    pub function: String,
    /// Nanoseconds a call must exceed.
    pub over_ns: u64,
}

/// What the triggers do, from a session's settings.
pub(crate) struct Settings {
    pub(crate) dir: PathBuf,
    pub(crate) max_files: usize,
    pub(crate) min_interval_ms: u64,
    pub(crate) window_ns: Option<u64>,
    pub(crate) triggers: Vec<TimelineTrigger>,
    pub(crate) write: Option<WriteTrace>,
    /// Names the entry of a metric id.
    pub(crate) name_metric: Option<fn(u32) -> String>,
}

/// `None` until a session configures the recorder.
static SETTINGS: Mutex<Option<Settings>> = Mutex::new(None);
static QUEUE: OnceLock<Mutex<Sender<Request>>> = OnceLock::new();
/// Files accepted this run (written or being written), and when the last was accepted.
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);
static LAST_MS: AtomicU64 = AtomicU64::new(0);
static SUPPRESSED: AtomicU64 = AtomicU64::new(0);
/// Requests accepted and not yet written, with a condition for `flush`.
static PENDING: Mutex<usize> = Mutex::new(0);
static DRAINED: Condvar = Condvar::new();
static FILES: Mutex<Vec<TraceFile>> = Mutex::new(Vec::new());
/// Entries dropped from the front of `FILES` to keep it at [`MAX_LISTED`].
static UNLISTED: AtomicU64 = AtomicU64::new(0);
/// Trace files the report and `/profiler_status` list: the latest ones (a program
/// writing a trace per request on demand must not grow its report without bound).
pub const MAX_LISTED: usize = 64;
/// Written files so far (listed or not): numbers each triggered file's name.
static WRITTEN: AtomicU64 = AtomicU64::new(0);

/// The window a trace reaches back when its caller names none
/// (`HOTPATH_TIMELINE_WINDOW`); `None`: all the rings hold.
pub(crate) fn window_ns() -> Option<u64> {
    lock(&SETTINGS).as_ref().and_then(|s| s.window_ns)
}

/// Applies a session's settings.
pub(crate) fn configure(settings: Settings) {
    *lock(&SETTINGS) = Some(settings);
}

/// The threshold `HOTPATH_TIMELINE_TRIGGER` sets for a function named `name` (a whole
/// name, or its tail after a `::`), in nanoseconds.
pub(crate) fn threshold_for(name: &str) -> Option<u64> {
    let s = lock(&SETTINGS);
    s.as_ref()?
        .triggers
        .iter()
        .find(|t| name == t.function || name.strip_suffix(t.function.as_str()).is_some_and(|head| head.ends_with("::")))
        .map(|t| t.over_ns)
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Something breached: queues a trace unless the rate limit or the cap says no.
/// `subject` is only built when the request is accepted.
#[cold]
#[inline(never)]
pub(crate) fn breach(reason: Reason, subject: impl FnOnce() -> Subject) {
    crate::memory::untracked(|| {
        let (max_files, interval, window_ns) = match lock(&SETTINGS).as_ref() {
            Some(s) if s.write.is_some() => (s.max_files, s.min_interval_ms, s.window_ns),
            _ => return,
        };
        let now = unix_ms();
        let last = LAST_MS.load(Relaxed);
        let spaced = last == 0 || now.saturating_sub(last) >= interval;
        let under_cap = ACCEPTED.load(Relaxed) < max_files;
        // One breach wins each interval: whoever moves `LAST_MS` writes.
        if !spaced || !under_cap || LAST_MS.compare_exchange(last, now.max(1), Relaxed, Relaxed).is_err() {
            SUPPRESSED.fetch_add(1, Relaxed);
            return;
        }
        ACCEPTED.fetch_add(1, Relaxed);
        *lock(&PENDING) += 1;
        let request = Request { reason, subject: subject(), window_ns };
        if queue().and_then(|q| lock(q).send(request).ok()).is_none() {
            done();
        }
    });
}

fn queue() -> Option<&'static Mutex<Sender<Request>>> {
    if let Some(q) = QUEUE.get() {
        return Some(q);
    }
    let (tx, rx) = mpsc::channel::<Request>();
    let spawned = std::thread::Builder::new().name("hp-timeline".into()).spawn_masked(move || {
        crate::memory::profiler_thread();
        for request in rx {
            write(request);
            done();
        }
    });
    spawned.ok()?;
    Some(QUEUE.get_or_init(|| Mutex::new(tx)))
}

fn done() {
    let mut pending = lock(&PENDING);
    *pending = pending.saturating_sub(1);
    DRAINED.notify_all();
}

fn write(request: Request) {
    let Some((dir, Some(write), name_metric)) =
        lock(&SETTINGS).as_ref().map(|s| (s.dir.clone(), s.write, s.name_metric))
    else {
        return;
    };
    let subject = match request.subject {
        Subject::Text(text) => text,
        Subject::Metric(id) => name_metric.map_or_else(|| format!("#{id}"), |name| name(id)),
    };
    let n = WRITTEN.fetch_add(1, Relaxed) + 1;
    let stem = format!("hotpath-timeline-{}-{n}-{}", std::process::id(), request.reason.as_str());
    let (path, written) = write_free(&dir, &stem, request.window_ns, write);
    let mut file = TraceFile::new(path.display().to_string(), request.reason.as_str(), subject, unix_ms());
    match written {
        Ok((events, torn)) => (file.events, file.torn) = (events, torn),
        Err(e) => file.error = Some(e.to_string()),
    }
    list(file);
}

/// Writes `dir/stem.pftrace`, or when that name is taken (an earlier run with the same
/// process id, common in containers, or a file planted there) `stem.2.pftrace` and so
/// on: never over an existing file (`write` creates its file exclusively).
pub(crate) fn write_free(
    dir: &std::path::Path,
    stem: &str,
    window_ns: Option<u64>,
    write: WriteTrace,
) -> (PathBuf, std::io::Result<(u64, u64)>) {
    let mut path = dir.join(format!("{stem}.pftrace"));
    let mut written = std::fs::create_dir_all(dir).and_then(|()| write(&path, window_ns));
    for k in 2..=16 {
        if !matches!(&written, Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists) {
            break;
        }
        path = dir.join(format!("{stem}.{k}.pftrace"));
        written = write(&path, window_ns);
    }
    (path, written)
}

/// Records a trace file written outside the triggers (at exit, on request).
pub fn record_file(file: TraceFile) {
    WRITTEN.fetch_add(1, Relaxed);
    list(file);
}

fn list(file: TraceFile) {
    let mut files = lock(&FILES);
    if files.len() >= MAX_LISTED {
        files.remove(0);
        UNLISTED.fetch_add(1, Relaxed);
    }
    files.push(file);
}

/// The program panicked (the recorder is on): writes the timeline; the hook runs
/// before the unwinding.
pub(crate) fn panicked(info: &std::panic::PanicHookInfo<'_>) {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(not a string)");
    let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
    breach(Reason::Panic, || Subject::Text(format!("{message}{place}")));
}

/// Waits up to `timeout` for queued traces to be written (the session's end).
pub fn flush(timeout: Duration) {
    let pending = lock(&PENDING);
    let _ = DRAINED.wait_timeout_while(pending, timeout, |p| *p > 0);
}

/// What the recorder wrote: the latest files, how many older ones the list dropped,
/// and the triggered traces the rate limit or the cap suppressed.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The latest [`MAX_LISTED`] files, oldest first.
    pub listed: Vec<TraceFile>,
    /// Files written but no longer listed.
    pub unlisted: u64,
    /// Triggered traces not written.
    pub suppressed: u64,
}

/// Trace files written so far (see [`Files`]).
pub fn files() -> Files {
    Files { listed: lock(&FILES).clone(), unlisted: UNLISTED.load(Relaxed), suppressed: SUPPRESSED.load(Relaxed) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_list_keeps_the_latest() {
        let before = files();
        for i in 0..MAX_LISTED + 5 {
            record_file(TraceFile::new(format!("f{i}"), "requested", String::new(), 0));
        }
        let after = files();
        assert_eq!(after.listed.len(), MAX_LISTED);
        assert_eq!(after.listed.last().unwrap().path, format!("f{}", MAX_LISTED + 4));
        assert_eq!(after.unlisted - before.unlisted, (before.listed.len() + 5) as u64);
    }
}
