//! The `heap` section: sampled allocations still live, per allocation stack, with
//! estimates and their 95% intervals; at exit, what `main` left allocated (leaks).

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

/// Live heap estimated from sampled allocations (needs the `hotpath-heap` feature).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Heap {
    /// Mean bytes between two samples (`HOTPATH_HEAP_SAMPLE_BYTES`).
    pub sample_bytes: u64,
    /// Confidence of every `_low`/`_high` pair (0.95).
    pub confidence: f64,
    /// Sampled allocations still live (allow-listed stacks included).
    pub live_samples: u64,
    /// Estimated live bytes of the rows' stacks (allow-listed stacks excluded).
    pub live_bytes: u64,
    /// Lower end of the interval of `live_bytes`.
    pub live_bytes_low: u64,
    /// Upper end of the interval of `live_bytes`.
    pub live_bytes_high: u64,
    /// Estimated live objects of the rows' stacks.
    pub live_objects: u64,
    /// Estimated live bytes of stacks matching `HOTPATH_HEAP_IGNORE`, not shown as rows.
    pub ignored_bytes: u64,
    /// Prefixes of `HOTPATH_HEAP_IGNORE`.
    pub ignore: Vec<String>,
    /// Samples not kept because the live table was full.
    pub dropped_samples: u64,
    /// Snapshots the growth flags look back over.
    pub growth_window: usize,
    /// Stacks with live samples, before focus and limit.
    pub total_stacks: usize,
    /// pprof and flamegraph files written (`HOTPATH_HEAP_OUTPUT`).
    pub files: Vec<String>,
    /// Rows after focus and limit, most live bytes first.
    pub rows: Vec<HeapStack>,
    /// Live allocations per measured function anywhere on their stacks (inclusive: a
    /// stack counts once for each measured function it passes through), most bytes first.
    pub functions: Vec<HeapFunction>,
}

/// Live allocations made while a measured function was on the stack.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HeapFunction {
    /// Display name, as in `functions_timing`.
    pub name: String,
    /// Live sampled allocations.
    pub samples: u64,
    /// Estimated live bytes.
    pub live_bytes: u64,
    /// Lower end of the interval of `live_bytes`.
    pub live_bytes_low: u64,
    /// Upper end of the interval of `live_bytes`.
    pub live_bytes_high: u64,
    /// Estimated live objects.
    pub live_objects: u64,
}

/// Live allocations of one allocation stack.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HeapStack {
    /// The allocating frame, `function (file:line)`: the first frame outside the
    /// allocator, `alloc`, `core` and `std`.
    pub name: String,
    /// Function of the allocating frame.
    pub function: String,
    /// Source file of the allocating frame (empty without debug info).
    pub file: String,
    /// Source line of the allocating frame (0 without debug info).
    pub line: u32,
    /// The allocating frame and its callers, innermost first, `function (file:line)`.
    pub frames: Vec<String>,
    /// Live sampled allocations of this stack.
    pub samples: u64,
    /// Estimated live bytes.
    pub live_bytes: u64,
    /// Lower end of the interval of `live_bytes`.
    pub live_bytes_low: u64,
    /// Upper end of the interval of `live_bytes`.
    pub live_bytes_high: u64,
    /// Estimated live objects.
    pub live_objects: u64,
    /// Lower end of the interval of `live_objects`.
    pub live_objects_low: u64,
    /// Upper end of the interval of `live_objects`.
    pub live_objects_high: u64,
    /// Estimated live bytes at the last snapshots, oldest first (at most `growth_window`).
    pub history: Vec<u64>,
    /// Live bytes grew between most of the last `growth_window` snapshots.
    pub growing: bool,
}
