//! Function timing: `#[measure]`, `#[measure_all]` and `measure_block!`.
//!
//! - `site`: the static call site each macro emits, registered once.
//! - `cell`: one site's numbers on one thread, and their merge over threads.
//! - `guard`: the sync frame (a guard on the caller's stack).
//! - `future`: the async frame, pushed and popped on every poll.
//! - `section`: the `functions-timing` section of the report.
//! - `buckets`: call-duration histograms at fixed bounds, for Prometheus.

mod buckets;
mod cell;
mod future;
mod guard;
mod section;
mod site;

pub(crate) use buckets::{duration_buckets, DurationBuckets};
pub(crate) use cell::{SiteCell, SiteTotals};
pub use future::MeasuredFuture;
pub use guard::FnGuard;
pub(crate) use section::section;
pub use site::{FnSite, SiteName};
