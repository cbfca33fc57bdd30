//! Byte-level I/O: `io!` wrappers around `Read`/`Write` (and with the `tokio`
//! feature `AsyncRead`/`AsyncWrite`) values.
//!
//! - `site`: the static call site each `io!` emits (the `entries` mechanism), and its
//!   entries (one per concrete type, or per instance with `iter = true`), resolved at
//!   instance creation.
//! - `wrapper`: `Io<T>`, delegating the sync traits and measuring each operation.
//! - `tokio`: the async traits; an operation spans its first poll to `Ready`.
//! - `sampling`: which operations are timed (`HOTPATH_TIME_SAMPLING_RATE`, or the
//!   overhead budget's rate per entry); what an operation carries from its first
//!   clock read to its end (its tick, and its weight under the budget) is
//!   `record/weighted_tick.rs`.
//! - `record`: the per-operation hot path into this thread's cell.
//! - `cell`, `recorder`: per-thread counters and histograms, merged over threads.
//! - `section`: the `io` section of the report.

mod cell;
mod record;
mod recorder;
mod sampling;
mod section;
mod site;
#[cfg(feature = "tokio")]
mod tokio;
mod wrapper;

pub(crate) use cell::IoTotals;
pub(crate) use recorder::{collect, op_counts, reset};
pub(crate) use sampling::{reset_shifts, set_shift, shift};
pub(crate) use section::{section, timed};
pub(crate) use site::registered;
pub use site::{IoEntry, IoSite};
pub use wrapper::{io_unwrap, Io};
