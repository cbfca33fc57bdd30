//! Reading Tokio's runtime metrics: the stable ones always, the `tokio_unstable` ones
//! when this crate is compiled with that cfg (RUSTFLAGS reaches Tokio and hotpath
//! alike, so the two always agree).
//!
//! Everything here is relaxed atomic loads on Tokio's side: it never takes a lock
//! the runtime holds and never waits for a worker.

use std::time::Instant;

use tokio::runtime::{RuntimeFlavor, RuntimeMetrics};

/// True when the unstable metrics are read.
pub(crate) const UNSTABLE: bool = cfg!(tokio_unstable);

/// Runtime-wide values at one instant. Counters are cumulative since the runtime started.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RuntimeReading {
    pub(crate) alive_tasks: usize,
    pub(crate) global_queue_depth: usize,
    pub(crate) blocking_threads: usize,
    pub(crate) idle_blocking_threads: usize,
    pub(crate) blocking_queue_depth: usize,
    pub(crate) spawned_tasks: u64,
    pub(crate) remote_schedules: u64,
    pub(crate) budget_forced_yields: u64,
}

/// One worker's values at one instant. Tokio publishes them when the worker parks
/// and every 61 scheduler ticks (maintenance), not continuously.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkerReading {
    pub(crate) busy_ns: u64,
    pub(crate) parks: u64,
    /// Odd while the worker is parked, even while it runs.
    pub(crate) park_unparks: u64,
    pub(crate) polls: u64,
    pub(crate) steals: u64,
    pub(crate) steal_operations: u64,
    pub(crate) overflows: u64,
    pub(crate) local_queue_depth: usize,
    pub(crate) mean_poll_ns: u64,
}

impl WorkerReading {
    /// The counters that move whenever the worker publishes: if none moved, the worker
    /// neither parked nor reached maintenance since the previous reading.
    pub(crate) fn progress(&self) -> (u64, u64, u64, u64) {
        (self.busy_ns, self.parks, self.park_unparks, self.polls)
    }

    /// The worker is running (unparked), by Tokio's park/unpark parity.
    pub(crate) fn active(&self) -> bool {
        self.park_unparks % 2 == 0
    }
}

/// `current_thread`, `multi_thread` or `other`.
pub(crate) fn flavor(handle: &tokio::runtime::Handle) -> &'static str {
    match handle.runtime_flavor() {
        RuntimeFlavor::CurrentThread => "current_thread",
        RuntimeFlavor::MultiThread => "multi_thread",
        _ => "other",
    }
}

/// Reads the runtime and every worker into `workers` (sized to the worker count);
/// returns the runtime-wide values and the instant of the reading.
pub(crate) fn read(metrics: &RuntimeMetrics, workers: &mut [WorkerReading]) -> (RuntimeReading, Instant) {
    let at = Instant::now();
    let mut rt = RuntimeReading {
        alive_tasks: metrics.num_alive_tasks(),
        global_queue_depth: metrics.global_queue_depth(),
        ..RuntimeReading::default()
    };
    read_unstable_runtime(metrics, &mut rt);
    for (index, w) in workers.iter_mut().enumerate() {
        read_stable_worker(metrics, index, w);
        read_unstable_worker(metrics, index, w);
    }
    (rt, at)
}

// Busy time and park counts exist only where Tokio has 64-bit atomics.
#[cfg(target_has_atomic = "64")]
fn read_stable_worker(metrics: &RuntimeMetrics, index: usize, w: &mut WorkerReading) {
    w.busy_ns = metrics.worker_total_busy_duration(index).as_nanos() as u64;
    w.parks = metrics.worker_park_count(index);
    w.park_unparks = metrics.worker_park_unpark_count(index);
}

#[cfg(not(target_has_atomic = "64"))]
fn read_stable_worker(_metrics: &RuntimeMetrics, _index: usize, _w: &mut WorkerReading) {}

#[cfg(tokio_unstable)]
fn read_unstable_runtime(metrics: &RuntimeMetrics, rt: &mut RuntimeReading) {
    rt.blocking_threads = metrics.num_blocking_threads();
    rt.idle_blocking_threads = metrics.num_idle_blocking_threads();
    rt.blocking_queue_depth = metrics.blocking_queue_depth();
    rt.spawned_tasks = metrics.spawned_tasks_count();
    rt.remote_schedules = metrics.remote_schedule_count();
    rt.budget_forced_yields = metrics.budget_forced_yield_count();
}

#[cfg(not(tokio_unstable))]
fn read_unstable_runtime(_metrics: &RuntimeMetrics, _rt: &mut RuntimeReading) {}

#[cfg(tokio_unstable)]
fn read_unstable_worker(metrics: &RuntimeMetrics, index: usize, w: &mut WorkerReading) {
    w.polls = metrics.worker_poll_count(index);
    w.steals = metrics.worker_steal_count(index);
    w.steal_operations = metrics.worker_steal_operations(index);
    w.overflows = metrics.worker_overflow_count(index);
    w.local_queue_depth = metrics.worker_local_queue_depth(index);
    w.mean_poll_ns = metrics.worker_mean_poll_time(index).as_nanos() as u64;
}

#[cfg(not(tokio_unstable))]
fn read_unstable_worker(_metrics: &RuntimeMetrics, _index: usize, _w: &mut WorkerReading) {}
