//! Function timing: `#[measure]`, `#[measure_all]` and `measure_block!`.
//!
//! - `site`: the static call site each macro emits, registered once.
//! - `cell`: one site's numbers on one thread, and their merge over threads.
//! - `frame`: the usage (time, allocations) a frame reads at entry and exit.
//! - `guard`: the sync frame (a guard on the caller's stack).
//! - `future`: the async frame, pushed and popped on every poll.
//! - `section`: the `functions-timing` section of the report.
//! - `buckets`: call-duration histograms at fixed bounds, for Prometheus.

mod buckets;
mod cell;
mod frame;
mod future;
mod guard;
mod section;
mod site;

pub(crate) use buckets::{duration_buckets, DurationBuckets};
pub(crate) use cell::{SiteCell, SiteTotals};
pub(crate) use frame::Usage;
pub use future::MeasuredFuture;
pub use guard::FnGuard;
#[cfg(any(feature = "alloc", feature = "cpu"))]
pub(crate) use section::select;
#[cfg(feature = "alloc")]
pub(crate) use section::Named;
pub(crate) use section::{named, section};
#[cfg(all(feature = "cpu", target_os = "linux"))]
pub(crate) use site::registered as registered_sites;
pub use site::{FnSite, SiteName};
