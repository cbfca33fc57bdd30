//! Function timing: `#[measure]`, `#[measure_all]` and `measure_block!`, and the
//! per-thread duration cells other instruments record their metrics into.
//!
//! - `site`: the static call site each macro emits, registered once.
//! - `cell`: one site's numbers on one thread, and their merge over threads.
//! - `recorder`: a thread's site cells and frame stack, and the registry of all threads'.
//! - `frame`: the usage (time, allocations) a frame reads at entry and exit.
//! - `guard`: the sync frame (a guard on the caller's stack).
//! - `future`: the async frame, pushed and popped on every poll.
//! - `starts`: start ticks of running async calls, for the oldest one's age.
//! - `dynamic`: sites of labels computed at run time, one per distinct label.
//! - `log_ring`, `logged`, `logged_future`: `log = true`, the last values of a site
//!   or entry.
//! - `section`: the `functions-timing` section of the report.
//! - `metric`: durations of other instruments, in cells of their own id space.

mod cell;
mod dynamic;
mod frame;
mod future;
mod guard;
pub(crate) mod log_ring;
mod logged;
mod logged_future;
mod metric;
mod recorder;
mod section;
mod site;
mod starts;

pub(crate) use cell::{SiteCell, SiteTotals};
pub use dynamic::DynSites;
pub(crate) use frame::Usage;
pub use future::MeasuredFuture;
pub use guard::FnGuard;
pub(crate) use log_ring::{debug_text, DebugText, LogSlot};
pub use logged::{log_value, logs};
pub use logged_future::{future_logged, LoggedFuture};
pub(crate) use metric::{collect as collect_metrics, count_metric, record_metric, reset as reset_metrics, Metric};
// Route scopes (the axum instrument) open windows over the measured calls.
pub use recorder::ThreadMark;
#[cfg(feature = "axum")]
pub(crate) use recorder::{close_window, open_window};
pub(crate) use recorder::{collect, live_threads, reset};
pub(crate) use section::{named, section, select, Named};
#[cfg(any(
    all(feature = "cpu", target_os = "linux"),
    feature = "icount",
    feature = "services-http",
    feature = "services-sql"
))]
pub(crate) use site::registered as registered_sites;
pub(crate) use site::SiteKind;
pub use site::{FnSite, SiteName};
