//! The `functions-cpu` section: CPU samples attributed to measured functions.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

/// CPU samples of the program (needs the `hotpath-cpu` feature, Linux).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionsCpu {
    /// Samples per CPU-second of each thread (`HOTPATH_CPU_HZ`).
    pub hz: u64,
    /// CPU time one sample stands for, ns.
    pub period_ns: u64,
    /// All samples taken (the denominator of the percentages).
    pub samples: u64,
    /// Samples taken while no measured function was active on the thread.
    pub unmeasured_samples: u64,
    /// Samples lost because the sample queue was full.
    pub dropped_samples: u64,
    /// Samples whose measured stack was deeper than 64 frames (outer frames kept).
    pub truncated_samples: u64,
    /// Samples that arrived in one signal merging expiries over more than 20 ms of
    /// CPU (one expiry of a long period is on time): the kernel found them late (it
    /// checks CPU timers at scheduler ticks while the thread runs, and on a contended
    /// CPU far less often). They are charged to the code running at delivery, so a
    /// function shorter than that gets an unreliable share when they are a large part
    /// of `samples`.
    #[serde(default)]
    pub late_samples: u64,
    /// Whether native call stacks were captured (for the exported files).
    pub native_stacks: bool,
    /// Samples whose native stack could not be unwound.
    pub samples_without_stack: u64,
    /// Mean time the sampler spent unwinding one sample, ns.
    pub unwind_ns_per_sample: u64,
    /// Folded stacks, flamegraph SVG and pprof files written (`HOTPATH_CPU_OUTPUT`).
    pub files: Vec<String>,
    /// Measured functions with at least one sample, before focus and limit.
    pub total_functions: usize,
    /// Rows after focus and limit, most self samples first.
    pub rows: Vec<FunctionCpu>,
}

/// One measured function's samples.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionCpu {
    /// Display name, as in `functions_timing`.
    pub name: String,
    /// Samples where it was the innermost measured function on its thread.
    pub self_samples: u64,
    /// Samples where it was anywhere on the measured stack (recursion counted once).
    pub inclusive_samples: u64,
    /// `self_samples` × period.
    pub self_cpu_ns: u64,
    /// `inclusive_samples` × period.
    pub inclusive_cpu_ns: u64,
}
