//! The report model of hotpath: one typed snapshot that every sink renders.
//!
//! The runtime builds a [`Report`] from its recorders; the table printer, the JSON
//! writer, the live HTTP endpoints and `hotpath compare` all read the same types.
//! Values are raw integers (nanoseconds, bytes, counts); only the table printer
//! formats them for humans. The JSON form is versioned by [`SCHEMA_VERSION`] and
//! documented in `docs/JSON_SCHEMA.md`.

#![deny(missing_docs)]

mod channels;
mod format;
mod functions;
mod functions_alloc;
mod functions_cpu;
mod futures;
mod io;
mod mutexes;
mod percentiles;
mod render;
mod report;
mod rw_locks;
mod stats;
mod streams;
mod table;
mod threads;
mod tokio_runtime;
mod units;

pub use channels::{ChannelRow, Channels};
pub use format::{
    format_bytes, format_count, format_duration_ns, format_percent, format_percent_value, format_seconds,
};
pub use functions::{FunctionTiming, FunctionsTiming};
pub use functions_alloc::{FunctionAlloc, FunctionsAlloc};
pub use functions_cpu::{FunctionCpu, FunctionsCpu};
pub use futures::{FutureRow, Futures};
pub use io::{IoControl, IoRow, IoSection, IoTransfer};
pub use mutexes::{LockTiming, MutexRow, Mutexes};
pub use percentiles::{percentile_label, Percentiles};
pub use render::render_table;
pub use report::{Meta, Report, ReportError, SCHEMA_VERSION};
pub use rw_locks::{RwLockRow, RwLocks};
pub use stats::DurationStats;
pub use streams::{StreamRow, Streams};
pub use table::Table;
pub use threads::{AllocTotals, ThreadRow, Threads};
pub use tokio_runtime::{TokioFlag, TokioPoint, TokioRuntime, TokioRuntimes, TokioWorker};
pub use units::Unit;
