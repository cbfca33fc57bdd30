//! The recording core every instrument records through; it knows no instrument.
//!
//! - `registry`, `cells`, `thread`: the per-thread mechanism every recorder is built
//!   from, a table of cells by id and the registry of live and exited threads.
//!   Function sites (`recorder`), instrument metrics (`metric`) and `io!` entries
//!   (`io::recorder`) each own a registry and its thread-locals, so each has an id
//!   space of its own. Recording writes only the calling thread's recorder; when the
//!   thread exits its numbers fold into the registry's retired totals.
//! - `site`: the static call site each measuring macro emits, registered once.
//! - `cell`, `alloc_cell`, `starts`: one site's numbers on one thread (durations,
//!   allocations, start ticks of running async calls), and their merge over threads
//!   (`site_totals`).
//! - `recorder`: a thread's site cells and frame stack, and the registry of all threads'.
//! - `usage`: what a frame reads at entry and exit (ticks, and allocation counters).
//! - `hooks`: what a frame does besides timing, for the instruments that attach to
//!   measured calls (CPU stack, call sources); `stack` and `source` hold their
//!   per-thread state, and `crate::alloc_counters` the allocator's.
//! - `metric`: durations of other instruments, in cells of their own id space.
//! - `durations`: merged totals turned into the report's duration statistics.
//! - `select`: rows merged by name, focus filter and row limit.
//! - `countdown`: which calls the overhead budget times (a per-thread table by site of
//!   `countdown_word`s).
//! - `weighted`: what budget-sampled calls add (weights, variances) and the intervals;
//!   `weighted_tick`, the start tick of an operation timed at `2^-k` with its `k`
//!   (`io!` operations, channel messages).
//! - `exit_hook`: final numbers of threads that exit, for the threads view.

#[cfg(feature = "alloc")]
mod alloc_cell;
mod cell;
mod cells;
mod countdown;
mod countdown_word;
pub(crate) mod durations;
#[cfg(feature = "threads")]
pub(crate) mod exit_hook;
pub(crate) mod hooks;
mod metric;
mod recorder;
mod registry;
mod select;
mod site;
mod site_totals;
#[cfg(all(any(feature = "services-http", feature = "services-sql"), not(all(feature = "cpu", target_os = "linux"))))]
mod source;
#[cfg(all(feature = "cpu", target_os = "linux"))]
pub(crate) mod stack;
mod starts;
mod thread;
mod usage;
pub(crate) mod weighted;
pub(crate) mod weighted_tick;

#[cfg(feature = "alloc")]
pub(crate) use alloc_cell::{inclusive, set_inclusive, AllocCell, AllocTotals};
pub(crate) use cell::{SiteCell, SiteTotals};
pub(crate) use cells::Cells;
pub(crate) use countdown::Countdowns;
pub(crate) use durations::buckets;
pub(crate) use metric::{collect as collect_metrics, count_metric, record_metric, reset as reset_metrics, Metric};
pub(crate) use metric::{metric_counts, metric_shift, metric_timed, reset_metric_shifts, set_metric_shift};
pub use recorder::ThreadMark;
pub(crate) use recorder::{
    attached, call_counts, collect, current, live_threads, reset, restart_countdowns, ThreadRecorder, FORCE, NORMAL,
    UNTIMED,
};
#[cfg(feature = "axum")]
pub(crate) use recorder::{close_window, open_window};
pub(crate) use registry::{Current, ExitHook, Recorder, Registry, Reset, Totals};
pub(crate) use select::{named, select, Named};
pub(crate) use site::registered as registered_sites;
pub(crate) use site::SiteKind;
pub use site::{FnSite, SiteName};
pub(crate) use starts::StartSlot;
pub(crate) use thread::with_recorder;
pub(crate) use usage::Usage;
