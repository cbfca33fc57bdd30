//! Futures: `future!` sites and `#[measure]`d async functions.
//!
//! There is no wrapper of its own: `future!` wraps the future in the same
//! [`MeasuredFuture`](crate::MeasuredFuture) as an async function, under an
//! [`FnSite::future`](crate::FnSite::future) site, so polls, busy time, wall time,
//! cancellation and allocations per call come from the functions machinery. This folder
//! only builds the `futures` section from those sites and the async function sites.

mod section;

pub(crate) use section::section;
