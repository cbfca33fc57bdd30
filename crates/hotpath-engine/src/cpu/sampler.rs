//! The `hp-cpu` thread: keeps one CPU-time timer per program thread, drains the
//! sample ring every 10 ms, and owns the aggregated profile.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
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
static STOP: AtomicBool = AtomicBool::new(false);

/// Starts sampling with the session's configuration.
pub(crate) fn start(config: &Options) {
    if let Err(problem) = signal::install() {
        warn(&format!("hotpath-cpu: CPU sampling is off: {problem}"));
        return;
    }
    let hz = config.cpu_hz;
    let output = config.cpu_output.clone();
    *lock(&COLLECTOR) = Some(Collector { profile: Profile::new(hz), modules: None, output, written: Vec::new() });
    let spawned = std::thread::Builder::new().name("hp-cpu".into()).spawn_masked(move || {
        crate::memory::profiler_thread();
        // Module tables are read here, not on the program's thread, to keep start-up short.
        let modules = Modules::load();
        if let Some(collector) = lock(&COLLECTOR).as_mut() {
            collector.modules = Some(modules);
        }
        run(1_000_000_000 / hz);
    });
    if let Err(e) = spawned {
        warn(&format!("hotpath-cpu: could not start the sampling thread ({e})"));
    }
}

fn run(period_ns: u64) {
    let mut timers: HashMap<u64, ThreadTimer> = HashMap::new();
    let mut last_scan: Option<Instant> = None;
    let mut failures = 0u32;
    while !STOP.load(Ordering::Relaxed) {
        if last_scan.is_none_or(|t| t.elapsed() >= Duration::from_millis(100)) {
            sync_timers(&mut timers, period_ns, &mut failures);
            last_scan = Some(Instant::now());
        }
        drain();
        std::thread::sleep(Duration::from_millis(10));
    }
    // Deleting the timers (on drop) stops the signals.
}

/// One timer per live program thread: new threads get one, exited threads lose theirs.
fn sync_timers(timers: &mut HashMap<u64, ThreadTimer>, period_ns: u64, failures: &mut u32) {
    let Ok(entries) = std::fs::read_dir("/proc/self/task") else { return };
    let mut alive = Vec::new();
    for entry in entries.flatten() {
        let Some(tid) = entry.file_name().to_str().and_then(|n| n.parse::<u64>().ok()) else { continue };
        alive.push(tid);
        if timers.contains_key(&tid) {
            continue;
        }
        let comm = std::fs::read_to_string(format!("/proc/self/task/{tid}/comm")).unwrap_or_default();
        if comm.starts_with("hp-") {
            continue;
        }
        match ThreadTimer::start(tid, period_ns) {
            Ok(timer) => {
                timers.insert(tid, timer);
            }
            // A thread may exit between listing and timer creation; warn only on repeats.
            Err(e) => {
                *failures += 1;
                if *failures == 3 {
                    warn(&format!("hotpath-cpu: cannot create CPU timers ({e}); some threads are not sampled"));
                }
            }
        }
    }
    timers.retain(|tid, _| alive.contains(tid));
}

/// Moves published samples from the ring into the profile. Once the session has
/// ended the profile is frozen (it is what the written files hold), and samples that
/// still arrive before the timers are deleted are discarded.
pub(crate) fn drain() {
    let mut guard = lock(&COLLECTOR);
    // After `finish` the profile is frozen, so the report counts exactly the samples
    // that went into the files; stragglers still in the ring are left there.
    if STOP.load(Ordering::Relaxed) {
        return;
    }
    let Some(Collector { profile, modules: Some(modules), .. }) = guard.as_mut() else { return };
    if STOP.load(Ordering::Relaxed) {
        RING.drain(|_| {});
    } else {
        RING.drain(|raw| profile.add(raw, modules));
    }
}

/// At the end of the session: last drain, stop sampling, write the files if asked.
pub(crate) fn finish(started_unix_ms: u64, wall_ns: u64) {
    drain();
    STOP.store(true, Ordering::Relaxed);
    let mut guard = lock(&COLLECTOR);
    let Some(collector) = guard.as_mut() else { return };
    let Some(dir) = collector.output.clone() else { return };
    let span = Span { started_unix_ns: (started_unix_ms * 1_000_000) as i64, duration_ns: wall_ns as i64 };
    // A program shorter than module loading: load them here to name what was sampled.
    let modules = collector.modules.get_or_insert_with(Modules::load);
    match export::write_all(&dir, &collector.profile, modules, &span) {
        Ok(paths) => collector.written = paths,
        Err(e) => warn(&format!("hotpath-cpu: could not write profiles to {}: {e}", dir.display())),
    }
}
