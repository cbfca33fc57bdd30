//! Function timing: `#[measure]`, `#[measure_all]` and `measure_block!`, recorded
//! through the recording core (`crate::record`).
//!
//! - `guard`: the sync frame (a guard on the caller's stack).
//! - `budgeted`: the sync frame's paths under an overhead budget (per-site rates).
//! - `future`: the async frame, pushed and popped on every poll.
//! - `dynamic`: sites of labels computed at run time, one per distinct label.
//! - `logged`, `logged_future`: `log = true`, the last values of a site or entry.
//! - `section`: the `functions-timing` section of the report; `estimate`: its rows
//!   under the overhead budget, with intervals.

mod budgeted;
mod dynamic;
mod estimate;
mod future;
mod guard;
mod logged;
mod logged_future;
mod section;

pub use dynamic::DynSites;
pub use future::MeasuredFuture;
pub use guard::FnGuard;
pub use logged::{log_value, logs};
pub use logged_future::{future_logged, LoggedFuture};
pub(crate) use section::section;
