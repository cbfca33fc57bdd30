//! The `hp-cpu` thread: keeps one CPU-time timer per program thread, drains the
//! sample ring every 10 ms, and owns the aggregated profile.
//!
//! A session's sampling ends with it: its timers are deleted and the signal's
//! disposition given back, so a later session installs and samples afresh. On every
//! tick the thread checks that our handler is still the installed one; a program
//! that has installed its own for our signal keeps it: our timers are deleted, one
//! warning, and the report has the samples taken until then.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::export::{self, Span};
use super::profile::Profile;
use super::sample::RING;
use super::signal::{self, ThreadTimer};
use super::unwind::Modules;
use crate::diag::warn;
use crate::options::Options;
use crate::spawn::SpawnMasked;
use crate::sync::lock;

/// Everything the drain produces; one lock, so only one thread ever drains the ring.
pub(crate) struct Collector {
    pub(crate) profile: Profile,
    /// Loaded by the `hp-cpu` thread after start-up (it reads every module's file).
    pub(crate) modules: Option<Modules>,
    pub(crate) output: Option<PathBuf>,
    pub(crate) written: Vec<PathBuf>,
}

pub(crate) static COLLECTOR: Mutex<Option<Collector>> = Mutex::new(None);
/// The sampling run going on (each start takes the next number), 0 when none: the
/// `hp-cpu` thread of an earlier run sees it changed and ends.
static ACTIVE: AtomicU64 = AtomicU64::new(0);
static RUNS: AtomicU64 = AtomicU64::new(0);
/// The disposition our handler replaced, given back at the end.
static PREVIOUS: AtomicUsize = AtomicUsize::new(libc::SIG_DFL);
/// Our timers, one per sampled thread. Created and deleted under this lock only while
/// a run is active, so none outlives its run.
static TIMERS: Mutex<Vec<(u64, ThreadTimer)>> = Mutex::new(Vec::new());

/// Starts sampling with the session's configuration.
pub(crate) fn start(config: &Options) {
    let previous = match signal::install() {
        Ok(previous) => previous,
        Err(problem) => return warn(&format!("hotpath-cpu: CPU sampling is off: {problem}")),
    };
    PREVIOUS.store(previous, Ordering::Relaxed);
    // Samples of an earlier run's last moments are not this run's.
    RING.drain(|_| {});
    let hz = config.cpu_hz;
    let output = config.cpu_output.clone();
    *lock(&COLLECTOR) = Some(Collector { profile: Profile::new(hz), modules: None, output, written: Vec::new() });
    let run_id = RUNS.fetch_add(1, Ordering::Relaxed) + 1;
    ACTIVE.store(run_id, Ordering::Relaxed);
    let spawned = std::thread::Builder::new().name("hp-cpu".into()).spawn_masked(move || {
        crate::memory::profiler_thread();
        let period_ns = 1_000_000_000 / hz;
        let mut failures = 0;
        if !taken_over(run_id) {
            // Timers first: the ring keeps the samples taken while the modules load.
            sync_timers(run_id, period_ns, &mut failures);
            // Module tables are read here, not on the program's thread, to keep start-up short.
            load_modules();
            run(run_id, period_ns, failures);
        }
    });
    if let Err(e) = spawned {
        warn(&format!("hotpath-cpu: could not start the sampling thread ({e})"));
        stop();
    }
}

fn run(run_id: u64, period_ns: u64, mut failures: u32) {
    let mut last_scan = Instant::now();
    while ACTIVE.load(Ordering::Relaxed) == run_id {
        if taken_over(run_id) {
            return;
        }
        if last_scan.elapsed() >= Duration::from_millis(100) {
            sync_timers(run_id, period_ns, &mut failures);
            last_scan = Instant::now();
        }
        drain();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether the program has installed a handler of its own for our signal; if so the
/// run ends here, with the samples taken until then.
fn taken_over(run_id: u64) -> bool {
    if signal::is_ours() {
        return false;
    }
    load_modules();
    drain();
    if ACTIVE.compare_exchange(run_id, 0, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        lock(&TIMERS).clear();
        warn(&format!(
            "hotpath-cpu: the program took over {} (a handler of its own, or a disposition \
             reset); CPU sampling stopped (the report has the samples taken until then)",
            signal::signal_name()
        ));
    }
    true
}

/// Reads the module tables unless they are read already (two readers may race: the
/// first to finish is kept).
fn load_modules() {
    if lock(&COLLECTOR).as_ref().is_some_and(|c| c.modules.is_none()) {
        let modules = Modules::load();
        if let Some(collector) = lock(&COLLECTOR).as_mut() {
            collector.modules.get_or_insert(modules);
        }
    }
}

/// Ends the active run: no timer left, the signal's disposition given back (unless
/// the program's handler is installed now).
fn stop() {
    ACTIVE.store(0, Ordering::Relaxed);
    lock(&TIMERS).clear();
    signal::uninstall(PREVIOUS.load(Ordering::Relaxed));
}

/// One timer per live program thread: new threads get one, exited threads lose theirs.
fn sync_timers(run_id: u64, period_ns: u64, failures: &mut u32) {
    let Ok(entries) = std::fs::read_dir("/proc/self/task") else { return };
    let mut timers = lock(&TIMERS);
    if ACTIVE.load(Ordering::Relaxed) != run_id {
        return;
    }
    let mut alive = Vec::new();
    for entry in entries.flatten() {
        let Some(tid) = entry.file_name().to_str().and_then(|n| n.parse::<u64>().ok()) else { continue };
        alive.push(tid);
        if timers.iter().any(|(t, _)| *t == tid) {
            continue;
        }
        let comm = std::fs::read_to_string(format!("/proc/self/task/{tid}/comm")).unwrap_or_default();
        if comm.starts_with("hp-") {
            continue;
        }
        match ThreadTimer::start(tid, period_ns) {
            Ok(timer) => timers.push((tid, timer)),
            // A thread may exit between listing and timer creation; warn only on repeats.
            Err(e) => {
                *failures += 1;
                if *failures == 3 {
                    warn(&format!("hotpath-cpu: cannot create CPU timers ({e}); some threads are not sampled"));
                }
            }
        }
    }
    timers.retain(|(tid, _)| alive.contains(tid));
}

/// Moves published samples from the ring into the profile. Once the run has ended
/// the profile is frozen (it is what the written files hold): samples that still
/// arrive before the timers are deleted stay in the ring, discarded at the next start.
pub(crate) fn drain() {
    let mut guard = lock(&COLLECTOR);
    if ACTIVE.load(Ordering::Relaxed) == 0 {
        return;
    }
    if let Some(Collector { profile, modules: Some(modules), .. }) = guard.as_mut() {
        RING.drain(|raw| profile.add(raw, modules));
    }
}

/// At the end of the session: last drain, stop sampling, write the files if asked.
pub(crate) fn finish(started_unix_ms: u64, wall_ns: u64) {
    // A session that ends before the `hp-cpu` thread has read the module tables (a
    // short program, or one on a loaded machine): read them here if samples wait in
    // the ring or profiles are to be written, so that they are counted and named.
    if !RING.is_empty() || lock(&COLLECTOR).as_ref().is_some_and(|c| c.output.is_some()) {
        load_modules();
    }
    drain();
    stop();
    let mut guard = lock(&COLLECTOR);
    let Some(collector) = guard.as_mut() else { return };
    let Some(dir) = collector.output.clone() else { return };
    let span = Span { started_unix_ns: (started_unix_ms * 1_000_000) as i64, duration_ns: wall_ns as i64 };
    let Some(modules) = collector.modules.as_mut() else { return };
    match export::write_all(&dir, &collector.profile, modules, &span) {
        Ok(paths) => collector.written = paths,
        Err(e) => warn(&format!("hotpath-cpu: could not write profiles to {}: {e}", dir.display())),
    }
}
