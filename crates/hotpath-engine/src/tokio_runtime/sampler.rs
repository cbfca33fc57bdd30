//! The registry of monitored runtimes and the `hp-tokio` thread that samples them.
//!
//! The sampler is an OS thread, never a task on a monitored runtime: a runtime whose
//! workers are all blocked is exactly when it must keep sampling, and it must never
//! take a worker's time.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::runtime::Handle;

use super::monitor::Monitor;
use super::site::TokioSite;
use crate::diag::warn;
use crate::options::DEFAULT_TOKIO_RUNTIME_INTERVAL_MS;
use crate::spawn::SpawnMasked;
use crate::sync::lock;
use crate::{memory, switch};

/// Runtimes one process may register; more are ignored with a warning. Each costs
/// a history ring of 128 samples × its workers.
const MAX_RUNTIMES: usize = 64;

struct Registry {
    monitors: Vec<Monitor>,
    /// Known once the session started; sampling starts then.
    interval: Option<Duration>,
    thread_started: bool,
    warned_full: bool,
    warned_panic: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    monitors: Vec::new(),
    interval: None,
    thread_started: false,
    warned_full: false,
    warned_panic: false,
});

/// Starts monitoring `handle`'s runtime for `site`, once per site.
pub(crate) fn register(site: &'static TokioSite, handle: &Handle) {
    if !site.claim() {
        return;
    }
    memory::untracked(|| {
        let mut registry = lock(&REGISTRY);
        if registry.monitors.len() >= MAX_RUNTIMES {
            if !registry.warned_full {
                registry.warned_full = true;
                warn(&format!(
                    "tokio_runtime!() at {}: already monitoring {MAX_RUNTIMES} runtimes; this one is ignored",
                    site.name()
                ));
            }
            return;
        }
        let interval = registry.interval.unwrap_or(Duration::from_millis(DEFAULT_TOKIO_RUNTIME_INTERVAL_MS));
        match catch_unwind(AssertUnwindSafe(|| Monitor::new(site, handle, interval))) {
            Ok(monitor) => {
                memory::allocated(monitor.bytes());
                registry.monitors.push(monitor);
            }
            Err(_) => {
                site.release();
                warn(&format!("tokio_runtime!() at {}: could not read the runtime's metrics", site.name()));
                return;
            }
        }
        if registry.interval.is_some() {
            start_thread(&mut registry);
        }
    });
}

/// Called when the session starts: sampling runs from now on, every `interval`.
pub(crate) fn start(interval: Duration) {
    let mut registry = lock(&REGISTRY);
    registry.interval = Some(interval);
    registry.monitors.iter_mut().for_each(|m| m.set_interval(interval));
    if !registry.monitors.is_empty() {
        start_thread(&mut registry);
    }
}

fn start_thread(registry: &mut Registry) {
    let Some(interval) = registry.interval else { return };
    if std::mem::replace(&mut registry.thread_started, true) {
        return;
    }
    let spawned = std::thread::Builder::new().name("hp-tokio".into()).stack_size(128 * 1024).spawn_masked(move || {
        memory::profiler_thread();
        loop {
            let asleep = Instant::now();
            std::thread::sleep(interval);
            // The report is written; nothing reads samples any more.
            if !switch::enabled() {
                break;
            }
            // How long this thread waited for a core: the flags allow for the same wait
            // in the workers (see flags.rs).
            sample_all(Some(asleep.elapsed().saturating_sub(interval).as_nanos() as u64));
        }
    });
    if let Err(e) = spawned {
        warn(&format!("could not start the Tokio runtime sampler ({e}); runtimes are sampled only at the report"));
    }
}

/// Reads every registered runtime now (for the report, or a benchmark): not one of
/// the scheduled samples the runtimes count.
pub(crate) fn sample_now() {
    sample_all(None);
}

/// `delay_ns`: how late the sampler woke, `None` for a reading off its schedule.
fn sample_all(delay_ns: Option<u64>) {
    let mut registry = lock(&REGISTRY);
    let mut panicked = false;
    for monitor in &mut registry.monitors {
        panicked |= catch_unwind(AssertUnwindSafe(|| monitor.sample(delay_ns))).is_err();
    }
    if panicked && !registry.warned_panic {
        registry.warned_panic = true;
        warn("internal error while sampling a Tokio runtime; its figures may be incomplete");
    }
}

/// Runs `f` on the monitors and the sampling interval in force.
pub(crate) fn with_monitors<R>(f: impl FnOnce(&[Monitor], Duration) -> R) -> R {
    let registry = lock(&REGISTRY);
    let interval = registry.interval.unwrap_or(Duration::from_millis(DEFAULT_TOKIO_RUNTIME_INTERVAL_MS));
    f(&registry.monitors, interval)
}
