//! The profiling session: started by a guard (`#[hotpath::main]` or
//! `HotpathGuardBuilder`), reported once, whichever comes first of the guard's drop,
//! a panic, a signal, `process::exit` or the shutdown timer. One session at a time: a
//! guard built while another is alive says so and does nothing; one built after the
//! previous session reported starts afresh.

use std::ffi::OsString;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, Once};
use std::thread::ThreadId;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hotpath_engine::{diag, memory, switch};
use hotpath_model::Report;

use crate::config::{Config, MainConfig};
use crate::end::End;
use crate::state::Session;
use crate::{build, output};

/// The running session, if any.
static SESSION: Mutex<Option<Arc<Session>>> = Mutex::new(None);
/// The thread writing a final report now, if any; [`REPORTED`] when it is written.
static REPORTER: Mutex<Option<ThreadId>> = Mutex::new(None);
static REPORTED: Condvar = Condvar::new();
/// Sessions started so far (a later one starts from zeroed recorders).
static STARTED: Mutex<u64> = Mutex::new(0);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn current() -> Option<Arc<Session>> {
    lock(&SESSION).clone()
}

/// Profiles the program while alive; writes the report when dropped.
#[must_use = "profiling stops and the report is printed when the guard is dropped"]
pub struct MainGuard {
    /// The session this guard started; `None` for a guard that found one running.
    session: Option<u64>,
}

impl MainGuard {
    /// Starts a session: resolves configuration, picks the clock, installs the signal
    /// and exit hooks, then turns recording on. If a session is running already, one
    /// line on stderr says so and the guard does nothing.
    pub fn start(main: MainConfig) -> Self {
        Self::start_from(|| main)
    }

    /// As [`start`](Self::start), with the configuration built by `main` inside the
    /// profiler's untracked scope: `#[hotpath::main]`'s expansion, whose builder copies
    /// the caller's name and parses its parameters (allocations that were counted as
    /// the program's, 21 bytes for `case_budget::main` with a format).
    pub fn start_from(main: impl FnOnce() -> MainConfig) -> Self {
        memory::untracked(|| Self { session: start(main(), None) })
    }

    /// Whether this guard runs the session (false when another one was running).
    pub fn is_active(&self) -> bool {
        self.session.is_some()
    }
}

impl Drop for MainGuard {
    fn drop(&mut self) {
        if let Some(id) = self.session {
            finish_session(id, if std::thread::panicking() { End::Panic } else { End::MainReturned });
        }
    }
}

/// Starts a session that no guard ends: its report is written after `delay`
/// (`HOTPATH_SHUTDOWN_MS` beats it), then the process exits with status 0; a zero
/// delay keeps it running until the program ends, which writes the report.
pub fn start_with_shutdown(main: MainConfig, delay: Duration) {
    memory::untracked(|| start(main, Some(delay)));
}

fn start(main: MainConfig, shutdown: Option<Duration>) -> Option<u64> {
    let mut slot = lock(&SESSION);
    if let Some(running) = slot.as_ref() {
        diag::warn(&format!(
            "a profiling session ({}) is already running; the one for {} is not started \
             (one session at a time: start the next after this one's report)",
            running.config.caller,
            main.caller()
        ));
        return None;
    }
    let vars = configuration_vars();
    let (config, warnings) = Config::resolve(&main, |name| {
        debug_assert!(is_configuration_var(name.as_bytes()), "{name} is not in the snapshot");
        vars.iter().find(|(var, _)| var == name).map(|(_, value)| value.clone())
    });
    warnings.iter().for_each(|w| diag::warn(w));
    let id = {
        let mut started = lock(&STARTED);
        *started += 1;
        *started
    };
    if id > 1 {
        // A new session counts from zero: the previous report has been written.
        hotpath_engine::reset();
    }
    // The threads the start queues (sampler, signal watcher, listener) go to the starter
    // together: it is created once with all of them instead of woken for each.
    let batch = hotpath_engine::spawn::Batch::open();
    hotpath_engine::start(&config.options);
    let started_unix_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let shutdown = config.shutdown_ms.map(Duration::from_millis).or(shutdown);
    let mut server = config.server.clone();
    // Under Valgrind the program runs tens of times slower: no live server there,
    // unless HOTPATH_METRICS_SERVER_ON asks for one.
    if hotpath_engine::under_valgrind() && !server.force_on {
        server.enabled = false;
    }
    let before_shutdown = main.shutdown_hook();
    let main_thread = hotpath_engine::ThreadMark::here();
    let started = Instant::now();
    // Log times count from here, after `started`: a log the report shows is never later
    // than its wall time, however long this thread was preempted since the engine's start.
    hotpath_engine::logs_start_now();
    *slot = Some(Arc::new(Session { id, config, started, started_unix_ms, warnings, before_shutdown, main_thread }));
    drop(slot);
    switch::set_enabled(true);
    static HOOKS: Once = Once::new();
    HOOKS.call_once(|| {
        #[cfg(unix)]
        {
            crate::signals::install(finish);
            // SAFETY: registers a plain extern "C" function that only stores atomics and calls
            // async-signal-safe functions, as a handler run in a forked child must.
            unsafe { libc::pthread_atfork(None, None, Some(in_forked_child)) };
        }
    });
    if id == 1 {
        crate::live::start(&server);
    }
    if let Some(delay) = shutdown {
        crate::shutdown::after(id, delay, finish_session);
    }
    drop(batch);
    Some(id)
}

/// The environment variables the configuration reads (`HOTPATH_*`, `OTEL_*`), taken
/// in one pass over the environment: resolving looks up about 100 names, and each
/// `env::var_os` scans the whole environment again.
fn configuration_vars() -> Vec<(OsString, OsString)> {
    std::env::vars_os().filter(|(name, _)| is_configuration_var(name.as_encoded_bytes())).collect()
}

fn is_configuration_var(name: &[u8]) -> bool {
    name.starts_with(b"HOTPATH_") || name.starts_with(b"OTEL_")
}

/// In a child just forked: the profiler is off there, as if it never ran. Recording
/// stops, no report of the parent's data is written, and signals are the child's own.
#[cfg(unix)]
extern "C" fn in_forked_child() {
    crate::shutdown::forget_in_child();
    switch::set_enabled(false);
    hotpath_engine::stop_heap_sampling();
    crate::signals::forget_in_child();
}

/// Writes the final report of the running session, if any (signals, `process::exit`).
#[cfg(unix)]
pub(crate) fn finish(end: End) {
    if let Some(session) = current() {
        finish_session(session.id, end);
    }
}

/// Writes the final report of session `id` once; later calls do nothing.
pub(crate) fn finish_session(id: u64, end: End) {
    if crate::shutdown::in_forked_child() {
        return;
    }
    let Some(session) = current().filter(|s| s.id == id) else { return };
    // Taken out first: the hook runs outside every lock of ours (one that calls
    // `process::exit` comes back here through the exit hook, on this thread).
    crate::hook::before_report(session.before_shutdown.as_ref(), end);
    drop(session);
    // The live surfaces' last look at the session (bounded: the OTLP push waits at
    // most a few seconds), while it still answers live snapshots.
    crate::live::ending(id);
    // Taken under the locks: of two ends racing, one reports, and the other waits for
    // its report (a signal's end re-raises, an exit's end exits, once it returns).
    let me = std::thread::current().id();
    let mut reporter = lock(&REPORTER);
    let ours = {
        let mut slot = lock(&SESSION);
        match slot.as_ref() {
            Some(s) if s.id == id => slot.take(),
            _ => None,
        }
    };
    let Some(session) = ours else {
        drop(REPORTED.wait_while(reporter, |r| r.is_some_and(|other| other != me)));
        return;
    };
    *reporter = Some(me);
    drop(reporter);
    let written = catch_unwind(AssertUnwindSafe(|| {
        memory::untracked(|| {
            crate::timeline::at_end(&session.config.options);
            let report = build::report(&session, &session.config, end);
            switch::set_enabled(false);
            output::emit(&report, &session.config);
        })
    }));
    *lock(&REPORTER) = None;
    REPORTED.notify_all();
    if written.is_err() {
        diag::warn("internal error while writing the report; it was skipped");
    }
}

/// A report of everything measured so far, or `None` when no session runs.
pub fn snapshot() -> Option<Report> {
    let session = current()?;
    Some(memory::untracked(|| build::report(&session, &session.config, End::Live)))
}

/// A live report for the live surfaces to cut per request: every row (no row limit),
/// and duration buckets for Prometheus histograms.
pub fn snapshot_live() -> Option<Report> {
    snapshot_live_session().map(|(_, report)| report)
}

/// [`snapshot_live`] with the number of the session it comes from (1 for the
/// process's first): counters start again at zero when that number changes.
pub fn snapshot_live_session() -> Option<(u64, Report)> {
    let session = current()?;
    let mut config = session.config.clone();
    config.limits.set_all(0);
    config.options.buckets = true;
    Some((session.id, memory::untracked(|| build::report(&session, &config, End::Live))))
}

/// Time since the running session started, for live status.
pub fn uptime() -> Option<Duration> {
    current().map(|s| s.started.elapsed())
}
