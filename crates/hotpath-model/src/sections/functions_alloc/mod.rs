//! The `functions-alloc` section: heap allocations per call of measured functions.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::percentiles::Percentiles;

/// Allocations of every measured function (needs the `hotpath-alloc` feature).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionsAlloc {
    /// `exclusive` (nested measured calls' allocations not counted, the default) or `inclusive`.
    pub mode: String,
    /// Bytes allocated by the whole program during profiling (denominator of % Total).
    pub process_alloc_bytes: u64,
    /// Allocations made by the whole program during profiling.
    pub process_allocs: u64,
    /// Functions with at least one call, before the focus filter and the row limit.
    pub total_functions: usize,
    /// Rows after focus and limit, sorted by bytes allocated, largest first.
    pub rows: Vec<FunctionAlloc>,
}

/// One measured function's allocations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionAlloc {
    /// Display name, as in `functions_timing`.
    pub name: String,
    /// Source file of the annotated item.
    pub file: String,
    /// Source line of the annotated item.
    pub line: u32,
    /// Async calls sum the allocations of all their polls, on any thread.
    pub is_async: bool,
    /// Completed calls.
    pub calls: u64,
    /// Bytes allocated by all calls (in inclusive mode, outermost calls only).
    pub bytes_total: u64,
    /// Mean bytes allocated per call.
    pub bytes_avg: u64,
    /// Most bytes allocated by one call.
    pub bytes_max: u64,
    /// Configured percentiles of bytes per call.
    pub bytes_percentiles: Percentiles,
    /// Allocations made by all calls (in inclusive mode, outermost calls only).
    pub allocs_total: u64,
    /// Mean allocations per call.
    pub allocs_avg: u64,
    /// Most allocations made by one call.
    pub allocs_max: u64,
    /// Configured percentiles of allocations per call.
    pub allocs_percentiles: Percentiles,
}
