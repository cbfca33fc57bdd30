//! The `tokio_runtime` section: Tokio runtimes registered with `tokio_runtime!()`,
//! their workers, queues, a short history, and flags that say what looks wrong.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

/// Every monitored runtime.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokioRuntimes {
    /// Milliseconds between samples (`HOTPATH_TOKIO_RUNTIME_INTERVAL_MS`).
    pub interval_ms: u64,
    /// True when the program was built with `--cfg tokio_unstable`: the optional
    /// fields below are then present.
    pub tokio_unstable: bool,
    /// Runtimes registered, before the focus filter.
    pub total_runtimes: usize,
    /// Runtimes whose name passes the focus filter, in registration order.
    pub runtimes: Vec<TokioRuntime>,
}

/// One runtime, from its registration to this report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokioRuntime {
    /// `label = "..."` of the macro, or `file:line` of the call.
    pub name: String,
    /// Source file of the `tokio_runtime!()` call.
    pub file: String,
    /// Source line of the call.
    pub line: u32,
    /// `current_thread`, `multi_thread` or `other`.
    pub flavor: String,
    /// Time from registration to this report, ns.
    pub monitored_ns: u64,
    /// Samples taken every `interval_ms`, the one at registration included (the
    /// reading each report takes is not counted: it depends on who reads, not on the
    /// interval).
    pub samples: u64,
    /// Worker threads of the runtime.
    pub num_workers: usize,
    /// Tasks alive now (spawned and not finished).
    pub alive_tasks: usize,
    /// Highest `alive_tasks` sampled.
    pub max_alive_tasks: usize,
    /// Tasks waiting in the global (injection) queue now.
    pub global_queue_depth: usize,
    /// Highest `global_queue_depth` sampled.
    pub max_global_queue_depth: usize,
    /// Threads of the blocking pool now (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking_threads: Option<usize>,
    /// Idle threads of the blocking pool now (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_blocking_threads: Option<usize>,
    /// `spawn_blocking` work waiting for a thread now (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking_queue_depth: Option<usize>,
    /// Highest `blocking_queue_depth` sampled (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_blocking_queue_depth: Option<usize>,
    /// Tasks spawned since registration (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawned_tasks: Option<u64>,
    /// Tasks scheduled from outside the runtime since registration (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote_schedules: Option<u64>,
    /// Times a task was forced to yield by the cooperative budget since registration
    /// (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_forced_yields: Option<u64>,
    /// What looks wrong, each with the reason; empty when nothing was detected.
    pub flags: Vec<TokioFlag>,
    /// Per-worker rows after the row limit (busiest kept), in worker order.
    pub workers: Vec<TokioWorker>,
    /// Recent samples, oldest first (at most 128).
    pub history: Vec<TokioPoint>,
}

/// One worker thread, from the runtime's registration to this report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokioWorker {
    /// Worker index, as Tokio numbers them.
    pub index: usize,
    /// Time spent processing tasks (polls and scheduling between them), ns.
    pub busy_ns: u64,
    /// `busy_ns` as a share of the monitored time.
    pub busy_percent: f64,
    /// Times the worker parked (ran out of work).
    pub parks: u64,
    /// Tasks polled (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polls: Option<u64>,
    /// Tasks stolen from other workers (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steals: Option<u64>,
    /// Steal operations, each taking one or more tasks (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_operations: Option<u64>,
    /// Times the local queue was full and tasks went to the global queue (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overflows: Option<u64>,
    /// Tasks in the worker's local queue now (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_queue_depth: Option<usize>,
    /// Highest `local_queue_depth` sampled (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_local_queue_depth: Option<usize>,
    /// Tokio's moving average of this worker's poll time, ns (`tokio_unstable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_poll_ns: Option<u64>,
    /// Longest time the worker was seen running without any progress, ns (a lower bound).
    pub longest_stall_ns: u64,
    /// Stalls of 250 ms or more (more on a machine short of CPU; see the README).
    pub stalls: u64,
}

/// Something the sampler detected, with the numbers that triggered it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokioFlag {
    /// `imbalance`, `global_queue_growth` or `blocking`.
    pub kind: String,
    /// Workers involved (empty for runtime-wide flags).
    pub workers: Vec<usize>,
    /// When the strongest evidence was seen, ns after registration.
    pub at_ns: u64,
    /// Why it fired, in one line.
    pub message: String,
}

/// One sample of the history.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokioPoint {
    /// Milliseconds after registration.
    pub at_ms: u64,
    /// Global queue depth.
    pub global_queue_depth: usize,
    /// Alive tasks.
    pub alive_tasks: usize,
    /// Mean busy share of the workers since the previous sample.
    pub busy_percent: f64,
}
