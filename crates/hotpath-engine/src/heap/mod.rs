//! Sampled heap profiling (`heap` feature, on top of `alloc`): which allocations are
//! still live, by allocation stack, estimated from a Poisson sample by bytes.
//!
//! - `sampler`: the allocator's side, called by `alloc::CountingAllocator`: a
//!   per-thread countdown of bytes (one subtraction and a branch per allocation),
//!   stack capture of the allocation that crosses it.
//! - `table`: the bounded lock-free table of live samples keyed by address, and the
//!   counting filter that makes a free of an unsampled block one load and a branch.
//! - `stacks`, `symtab`: return addresses to functions, files and lines (collector
//!   side; full paths from the symbol tables where debug info has bare names).
//! - `totals`: every sample ever taken per stack (pprof's `alloc_*`).
//! - `estimate`: samples to bytes and objects with 95% intervals.
//! - `section`: the `heap` section (live now; at exit, what `main` left: leaks),
//!   with each stack's history over snapshots and the growth flag.
//! - `export`: pprof and flamegraph files of the live heap.

mod estimate;
mod export;
mod sampler;
mod section;
mod stacks;
mod symtab;
mod table;
mod totals;

pub(crate) use sampler::{allocated, freed, realloc_done, realloc_take};
pub(crate) use section::section;

use crate::options::Options;

/// Starts sampling with the session's settings, from an empty table and history.
pub(crate) fn start(options: &Options) {
    sampler::stop();
    section::begin(options);
    sampler::start(options.heap_sample_bytes);
}

/// At the end of a session: the last snapshot of the growth history; the live
/// heap's pprof and flamegraph into `HOTPATH_HEAP_OUTPUT`'s directory, when set and
/// the section is reported (`write`); then sampling stops until the next session.
pub(crate) fn finish(options: &Options, write: bool) {
    if !sampler::sampling() {
        return;
    }
    section::snapshot();
    if let Some(dir) = options.heap_output.as_ref().filter(|_| write) {
        match export::write_all(dir, &options.heap_ignore) {
            Ok(paths) => section::set_written(paths),
            Err(e) => {
                crate::diag::warn(&format!("hotpath-heap: could not write the heap profile to {}: {e}", dir.display()))
            }
        }
    }
    sampler::stop();
}

/// Stops sampling (a forked child): one atomic store.
pub(crate) fn stop_sampling() {
    sampler::stop();
}

/// A snapshot of the growth history now, besides the `hp-heap` thread's (tests).
pub(crate) fn snapshot_now() {
    if sampler::sampling() {
        section::snapshot();
    }
}

/// Test access: sample every allocation from now on (mean 1 byte), and the size of
/// the live sample at an address.
#[cfg(test)]
pub(crate) mod testing {
    pub(crate) fn sample_everything() {
        super::sampler::start(1);
    }
    pub(crate) use super::table::size_at;
}
