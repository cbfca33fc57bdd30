//! The profiling session: started by the `#[hotpath::main]` guard, reported once,
//! whichever comes first of main returning, main panicking, a signal or `process::exit`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use hotpath_engine::{diag, memory, switch, Moment};
use hotpath_model::{Report, SCHEMA_VERSION};

use crate::config::{Config, MainConfig};
use crate::end::End;
use crate::output;

static STARTED: AtomicBool = AtomicBool::new(false);
static FINISHED: AtomicBool = AtomicBool::new(false);
static SESSION: OnceLock<Session> = OnceLock::new();

struct Session {
    config: Config,
    started: Instant,
    started_unix_ms: u64,
    warnings: Vec<String>,
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
            diag::warn(&format!("profiling is already running; the #[hotpath::main] on {} is ignored", main.caller()));
            return Self { owner: false };
        }
        let (config, warnings) = Config::resolve(&main, |name| std::env::var_os(name));
        warnings.iter().for_each(|w| diag::warn(w));
        hotpath_engine::start(&config.options);
        // Under Valgrind the program runs tens of times slower: no live server there.
        let mut config = config;
        if hotpath_engine::under_valgrind() {
            config.server.enabled = false;
        }
        let started_unix_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let _ = SESSION.set(Session { config, started: Instant::now(), started_unix_ms, warnings });
        switch::set_enabled(true);
        #[cfg(unix)]
        {
            crate::signals::install(finish);
            // SAFETY: registers a plain extern "C" function that only stores atomics and calls
            // async-signal-safe functions, as a handler run in a forked child must.
            unsafe { libc::pthread_atfork(None, None, Some(in_forked_child)) };
        }
        if let Some(session) = SESSION.get() {
            crate::live::start(&session.config.server);
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

/// In a child just forked: the profiler is off there, as if it never ran. Recording
/// stops, no report of the parent's data is written, and signals are the child's own.
#[cfg(unix)]
extern "C" fn in_forked_child() {
    FINISHED.store(true, Ordering::Relaxed);
    switch::set_enabled(false);
    crate::signals::forget_in_child();
}

/// Writes the final report once; later calls do nothing.
pub(crate) fn finish(end: End) {
    if FINISHED.swap(true, Ordering::AcqRel) {
        return;
    }
    let Some(session) = SESSION.get() else { return };
    let written = catch_unwind(AssertUnwindSafe(|| {
        memory::untracked(|| {
            let report = build(session, &session.config, end);
            switch::set_enabled(false);
            output::emit(&report, &session.config);
        })
    }));
    if written.is_err() {
        diag::warn("internal error while writing the report; it was skipped");
    }
}

/// A report of everything measured so far, or `None` before the session starts.
pub fn snapshot() -> Option<Report> {
    memory::untracked(|| SESSION.get().map(|s| build(s, &s.config, End::Live)))
}

/// A live report for the live surfaces to cut per request: every row (no row limit),
/// and duration buckets for Prometheus histograms.
pub fn snapshot_live() -> Option<Report> {
    let session = SESSION.get()?;
    let mut config = session.config.clone();
    config.options.limit = 0;
    config.options.threads_limit = usize::MAX;
    config.options.buckets = true;
    Some(memory::untracked(|| build(session, &config, End::Live)))
}

/// Time since the session started, for live status.
pub fn uptime() -> Option<std::time::Duration> {
    SESSION.get().map(|s| s.started.elapsed())
}

fn build(session: &Session, config: &Config, end: End) -> Report {
    let wall = session.started.elapsed();
    let mut report = Report::default();
    report.schema_version = SCHEMA_VERSION;
    let meta = &mut report.meta;
    meta.hotpath_version = env!("CARGO_PKG_VERSION").to_string();
    meta.caller = config.caller.clone();
    meta.pid = std::process::id();
    meta.started_unix_ms = session.started_unix_ms;
    meta.wall_ns = wall.as_nanos() as u64;
    meta.ended_by = end.as_str().to_string();
    meta.percentiles = config.options.percentiles.clone();
    meta.limit = config.options.limit;
    meta.focus = config.options.focus.as_ref().map(|f| f.as_string());
    meta.clock = hotpath_engine::clock_source().to_string();
    meta.clock_reason = hotpath_engine::clock_reason().to_string();
    meta.negative_intervals = hotpath_engine::negative_intervals();
    meta.dropped = switch::dropped();
    meta.warnings = session.warnings.iter().cloned().chain(diag::report_warnings()).collect();
    let moment = if end == End::Live { Moment::Live } else { Moment::Final };
    let wanted = |_: hotpath_model::Section| true;
    hotpath_engine::collect(
        &mut report,
        &config.options,
        moment,
        session.started_unix_ms,
        wall.as_nanos() as u64,
        &wanted,
    );
    report
}
