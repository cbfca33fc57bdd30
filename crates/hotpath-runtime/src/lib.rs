//! The measurement engine of hotpath, linked only with the `hotpath` feature.
//!
//! Macros emit a `static` call site per measured item and a guard or future
//! wrapper around its body; both record into thread-local memory with two clock
//! reads and plain stores. A session (`MainGuard`) turns recording on and, at its
//! end, merges every thread's numbers into a [`hotpath_model::Report`].
//! See `docs/ARCHITECTURE.md` for the data flow.

#![deny(missing_docs)]

#[cfg(feature = "alloc")]
mod alloc;
pub mod channels;
mod clock;
mod config;
#[cfg(feature = "cpu")]
mod cpu;
mod durations;
mod entries;
mod functions;
mod futures;
mod histogram;
mod io;
pub mod locks;
#[cfg(feature = "mcp")]
mod mcp;
mod memory;
#[cfg(any(feature = "alloc", feature = "threads"))]
mod os;
mod output;
mod server;
mod session;
#[cfg(unix)]
mod signals;
pub mod streams;
mod sync;
mod thread;
#[cfg(feature = "threads")]
mod threads;
#[cfg(feature = "tokio")]
mod tokio_runtime;

#[cfg(feature = "alloc")]
pub use alloc::CountingAllocator;
pub use channels::{channel, InstrumentChannel};
pub use config::MainConfig;
pub use entries::WrapSite;
pub use functions::{FnGuard, FnSite, MeasuredFuture, SiteName};
pub use hotpath_model as model;
pub use io::{io_unwrap, Io, IoSite};
pub use locks::{mutex, rw_lock, InstrumentMutex, InstrumentRwLock};
pub use memory::profiler_bytes;
pub use server::{mount, ChunkedBody, HttpRequest, Mount, MountConnection};
pub use session::{snapshot, MainGuard};
pub use streams::{stream, MeasuredStream};
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

/// Threads that currently hold a recorder (exited threads are folded and freed).
pub fn live_threads() -> usize {
    thread::live_threads()
}
