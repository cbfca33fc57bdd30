//! The measurement engine of hotpath, linked only with the `hotpath` feature.
//!
//! Macros emit a `static` call site per measured item and a guard or future
//! wrapper around its body; both record into thread-local memory with two clock
//! reads and plain stores. A session (`MainGuard`) turns recording on and, at its
//! end, merges every thread's numbers into a [`hotpath_model::Report`].
//! See `docs/ARCHITECTURE.md` for the data flow.

#![deny(missing_docs)]

mod clock;
mod config;
mod functions;
mod histogram;
mod io;
mod memory;
mod output;
mod session;
#[cfg(unix)]
mod signals;
mod sync;
mod thread;

pub use config::MainConfig;
pub use functions::{FnGuard, FnSite, MeasuredFuture, SiteName};
pub use hotpath_model as model;
pub use io::{io_unwrap, Io, IoSite};
pub use memory::profiler_bytes;
pub use session::{snapshot, MainGuard};

/// Threads that currently hold a recorder (exited threads are folded and freed).
pub fn live_threads() -> usize {
    thread::live_threads()
}
