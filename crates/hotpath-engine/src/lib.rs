//! The measurement engine of hotpath, linked only with the `hotpath` feature: the
//! clock, the on/off switch, histograms, per-thread cells, call sites and every
//! instrument. Not a public API: programs use the `hotpath` crate.
//!
//! Macros emit a `static` call site per measured item and a guard or wrapper around
//! it; both record into thread-local memory with two clock reads and plain stores.
//! The session (`hotpath-session`) turns recording on and, at its end, asks
//! [`collect`] for every instrument's section of a [`hotpath_model::Report`].
//! Nothing here imports the session or the live server. See `docs/ARCHITECTURE.md`.

#![deny(missing_docs)]

#[cfg(feature = "alloc")]
mod alloc;
#[cfg(feature = "alloc")]
mod alloc_counters;
mod budget;
pub mod channels;
mod clock;
mod collect;
#[cfg(feature = "cpu")]
mod cpu;
pub mod debug;
pub mod diag;
mod entries;
pub mod export;
mod functions;
mod futures;
#[cfg(all(feature = "heap", target_os = "linux"))]
mod heap;
mod histogram;
#[cfg(feature = "icount")]
mod icount;
mod io;
pub mod locks;
mod logs;
pub mod memory;
#[cfg(all(loom, test))]
mod model_checks;
pub mod options;
#[cfg(any(feature = "alloc", feature = "threads"))]
mod os;
#[cfg(all(any(feature = "cpu", feature = "heap"), target_os = "linux"))]
mod pprof;
mod reach;
mod record;
mod row_logs;
pub mod sampling;
pub mod services;
#[cfg(any(target_os = "linux", target_os = "android"))]
mod small_file;
pub mod spawn;
pub mod streams;
pub mod switch;
mod sync;
#[cfg(feature = "threads")]
mod threads;
pub mod timeline;
#[cfg(feature = "tokio")]
mod tokio_runtime;

#[cfg(feature = "alloc")]
pub use alloc::CountingAllocator;
pub use channels::ChannelSite;
pub use channels::{channel, channel_logged, InstrumentChannel, Wrapping};
pub use clock::{ns_per_tick, reason as clock_reason, source as clock_source};
pub use collect::{collect, reset, start, Moment};

/// Log times (`dbg!`, `val!`, gauges, logged values) count from now: the session calls
/// it right after taking the instant its wall time counts from.
pub fn logs_start_now() {
    logs::start_now();
}

/// Stops heap sampling (an atomic store, safe in a forked child's atfork handler: the
/// profiler is off in the child, which then captures no allocation stacks).
pub fn stop_heap_sampling() {
    #[cfg(all(feature = "heap", target_os = "linux"))]
    heap::stop_sampling();
}

/// Takes a snapshot of the live heap's growth history now, besides those the `hp-heap`
/// thread takes every `HOTPATH_HEAP_SNAPSHOT_MS` (for test programs that judge growth
/// on snapshot counts, not time). Without heap sampling, nothing.
pub fn heap_snapshot() {
    #[cfg(all(feature = "heap", target_os = "linux"))]
    heap::snapshot_now();
}
pub use entries::Site;
pub use functions::{future_logged, log_value, logs, DynSites, FnGuard, LoggedFuture, MeasuredFuture};
pub use hotpath_model as model;
#[cfg(feature = "icount")]
pub use icount::Marked;
pub use io::{io_unwrap, Io, IoEntry, IoSite};
pub use locks::{mutex, rw_lock, InstrumentMutex, InstrumentRwLock, MutexSite, RwLockSite};
pub use memory::profiler_bytes;
pub use record::{FnSite, SiteName, ThreadMark};
pub use row_logs::{logs_named, row_logs};
pub use streams::{stream, stream_logged, LoggedStream, MeasuredStream, StreamSite};
#[cfg(feature = "tokio")]
pub use tokio_runtime::{monitor_tokio, monitor_tokio_current, TokioSite};

/// Takes one threads-view sample now (benchmarks and tests; the sampler thread
/// does this every `HOTPATH_THREADS_INTERVAL_MS`).
#[cfg(feature = "threads")]
pub fn sample_threads() {
    threads::sample_now();
}

/// Samples every runtime registered with `tokio_runtime!()` now (benchmarks; the
/// `hp-tokio` thread does this every `HOTPATH_TOKIO_RUNTIME_INTERVAL_MS`).
#[cfg(feature = "tokio")]
pub fn sample_tokio_runtimes() {
    tokio_runtime::sample_now();
}

/// Measured intervals whose end tick came before their start tick (clock reads on
/// CPUs whose counters disagree), recorded as 0, summed over every thread so far.
pub fn negative_intervals() -> u64 {
    clock::negative_intervals()
}

/// True when the program runs under Valgrind (instruction counting, `icount`
/// feature): the live server stays off there. Always false without the feature.
pub fn under_valgrind() -> bool {
    #[cfg(feature = "icount")]
    return icount::under_valgrind();
    #[cfg(not(feature = "icount"))]
    false
}

/// Threads that currently hold a recorder (exited threads are folded and freed).
pub fn live_threads() -> usize {
    record::live_threads()
}
