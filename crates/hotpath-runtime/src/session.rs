//! The profiling session: started by the `#[hotpath::main]` guard, reported once,
//! whichever comes first of main returning, main panicking, a signal or `process::exit`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use hotpath_model::{Report, SCHEMA_VERSION};

use crate::config::{Config, MainConfig};
use crate::functions::SiteKind;
use crate::{clock, functions, io, memory, output, thread};

/// The runtime switch every instrument reads first (one relaxed load).
static ENABLED: AtomicBool = AtomicBool::new(false);
static STARTED: AtomicBool = AtomicBool::new(false);
static FINISHED: AtomicBool = AtomicBool::new(false);
static DROPPED: AtomicU64 = AtomicU64::new(0);
static SESSION: OnceLock<Session> = OnceLock::new();

struct Session {
    config: Config,
    started: Instant,
    started_unix_ms: u64,
    warnings: Vec<String>,
}

/// True between the start of the session and its report.
#[inline(always)]
pub(crate) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Counts a measurement that could not be recorded.
#[cold]
pub(crate) fn count_dropped() {
    DROPPED.fetch_add(1, Ordering::Relaxed);
}

/// Why the report is being produced.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(unix), allow(dead_code))] // signals and atexit hooks are Unix-only for now
pub(crate) enum End {
    MainReturned,
    Panic,
    Signal,
    ProcessExit,
    Live,
}

impl End {
    fn as_str(self) -> &'static str {
        match self {
            Self::MainReturned => "main_returned",
            Self::Panic => "panic",
            Self::Signal => "signal",
            Self::ProcessExit => "process_exit",
            Self::Live => "live",
        }
    }
}

/// Profiles the program while alive; prints the report when dropped.
///
/// Created by `#[hotpath::main]`. Only the first guard of a process starts a
/// session; later ones do nothing.
#[must_use = "profiling stops and the report is printed when the guard is dropped"]
pub struct MainGuard {
    owner: bool,
}

impl MainGuard {
    /// Starts the session: resolves configuration, picks the clock, installs the
    /// signal and exit hooks, then turns recording on.
    pub fn start(main: MainConfig) -> Self {
        memory::untracked(|| Self::start_untracked(main))
    }

    fn start_untracked(main: MainConfig) -> Self {
        if STARTED.swap(true, Ordering::AcqRel) {
            output::warn(&format!(
                "profiling is already running; the #[hotpath::main] on {} is ignored",
                main.caller()
            ));
            return Self { owner: false };
        }
        let (config, warnings) = Config::resolve(&main, |name| std::env::var(name).ok());
        warnings.iter().for_each(|w| output::warn(w));
        clock::init(config.allow_tsc);
        #[cfg(feature = "alloc")]
        crate::alloc::set_inclusive(config.alloc_inclusive);
        io::set_rate(config.time_sampling_rate);
        let started_unix_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let _ = SESSION.set(Session { config, started: Instant::now(), started_unix_ms, warnings });
        ENABLED.store(true, Ordering::Release);
        #[cfg(unix)]
        crate::signals::install();
        if let Some(session) = SESSION.get() {
            // Mounted first, so that no request can reach the server before `/mcp` exists.
            #[cfg(feature = "mcp")]
            crate::mcp::start(session.config.server.token.is_some());
            crate::server::start(&session.config.server);
        }
        #[cfg(feature = "cpu")]
        if let Some(session) = SESSION.get() {
            crate::cpu::start(&session.config);
        }
        #[cfg(feature = "threads")]
        if let Some(session) = SESSION.get() {
            let interval = std::time::Duration::from_millis(session.config.threads_interval_ms);
            crate::threads::start(interval, crate::os::current_tid());
        }
        #[cfg(feature = "tokio")]
        if let Some(session) = SESSION.get() {
            crate::tokio_runtime::start(std::time::Duration::from_millis(session.config.tokio_runtime_interval_ms));
        }
        Self { owner: true }
    }
}

impl Drop for MainGuard {
    fn drop(&mut self) {
        if self.owner {
            finish(if std::thread::panicking() { End::Panic } else { End::MainReturned });
        }
    }
}

/// Writes the final report once; later calls do nothing.
pub(crate) fn finish(end: End) {
    if FINISHED.swap(true, Ordering::AcqRel) {
        return;
    }
    let Some(session) = SESSION.get() else { return };
    let written = catch_unwind(AssertUnwindSafe(|| {
        memory::untracked(|| {
            let report = build(session, end);
            ENABLED.store(false, Ordering::Release);
            output::emit(&report, &session.config);
        })
    }));
    if written.is_err() {
        output::warn("internal error while writing the report; it was skipped");
    }
}

/// A report of everything measured so far, or `None` before the session starts.
pub fn snapshot() -> Option<Report> {
    memory::untracked(|| SESSION.get().map(|s| build(s, End::Live)))
}

/// A live report with every row (no row limit), for the server to cut per request.
pub(crate) fn snapshot_unlimited() -> Option<Report> {
    let session = SESSION.get()?;
    let config = Config { limit: 0, threads_limit: usize::MAX, ..session.config.clone() };
    Some(memory::untracked(|| build_with(session, &config, End::Live)))
}

/// Time since the session started, for live status.
pub(crate) fn uptime() -> Option<std::time::Duration> {
    SESSION.get().map(|s| s.started.elapsed())
}

fn build(session: &Session, end: End) -> Report {
    build_with(session, &session.config, end)
}

fn build_with(session: &Session, config: &Config, end: End) -> Report {
    let wall = session.started.elapsed();
    let totals = thread::collect();
    let io_totals = io::collect();
    // Calibration may wait up to 1 ms; skip it when there is nothing to convert.
    let measured = totals.iter().any(|t| t.calls + t.cancelled > 0) || io::timed(&io_totals) || crate::entries::any();
    let ratio = if measured { clock::ns_per_tick() } else { 1.0 };
    let mut report = Report::default();
    report.schema_version = SCHEMA_VERSION;
    let meta = &mut report.meta;
    meta.hotpath_version = env!("CARGO_PKG_VERSION").to_string();
    meta.caller = config.caller.clone();
    meta.pid = std::process::id();
    meta.started_unix_ms = session.started_unix_ms;
    meta.wall_ns = wall.as_nanos() as u64;
    meta.ended_by = end.as_str().to_string();
    meta.percentiles = config.percentiles.clone();
    meta.limit = config.limit;
    meta.focus = config.focus.as_ref().map(|f| f.as_string());
    meta.clock = clock::source().to_string();
    meta.dropped = DROPPED.load(Ordering::Relaxed);
    meta.warnings = session.warnings.iter().cloned().chain(output::report_warnings()).collect();
    #[cfg(feature = "alloc")]
    match crate::alloc::counters::untracked_threads() {
        0 => {}
        n => meta.warnings.push(format!(
            "{n} threads started while 16384 were alive; their allocations are attributed to functions but missing from the threads view"
        )),
    }
    let named = functions::named(&totals, |site| site.kind() == SiteKind::Function);
    report.functions_timing = functions::section(&named, ratio, config);
    report.io = io::section(&io_totals, ratio, config);
    #[cfg(feature = "alloc")]
    {
        report.functions_alloc = crate::alloc::section(&named, config);
    }
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    {
        if !matches!(end, End::Live) {
            crate::cpu::finish(session.started_unix_ms, wall.as_nanos() as u64);
        }
        report.functions_cpu = crate::cpu::section(config);
    }
    report.futures = crate::futures::section(&totals, ratio, config);
    report.streams = crate::streams::section(&totals, ratio, config);
    report.channels = crate::channels::section(&totals, ratio, config);
    report.mutexes = crate::locks::mutexes(&totals, ratio, config);
    report.rw_locks = crate::locks::rw_locks(&totals, ratio, config);
    #[cfg(feature = "threads")]
    {
        report.threads = crate::threads::section(config.threads_limit);
    }
    #[cfg(feature = "tokio")]
    {
        report.tokio_runtime = crate::tokio_runtime::section(config);
    }
    report
}

/// Ends the session from a signal or `process::exit`.
#[cfg(unix)]
pub(crate) fn finish_from(end: End) {
    finish(end);
}
