//! The overhead budget (`HOTPATH_OVERHEAD_BUDGET`, `overhead_budget = "1%"`): the
//! share of the program's CPU time the profiler may spend timing function calls.
//!
//! Counts stay exact everywhere; what the budget lowers is each hot site's timing
//! rate (1, 1/2, 1/4, ... down to 2^-20, `plan::MAX_SHIFT`). The rates are decided here, on
//! the `hp-budget` thread, never on the hot path, which reads its site's rate with
//! one relaxed load (`FnSite::shift`). Every interval the thread reads each site's
//! call count (live threads' cells, no histogram), the process's CPU time, and
//! estimates what timing costs: calls × the cost of a timed call, measured once on
//! this thread at its start (`calibrate`). Then it shares the budget left after the
//! counting floor (every call, timed or not, is counted) among the sites by
//! water-filling: a site called less than the fair share of timed calls stays
//! exact, the hotter ones are timed at the power of two that brings them under it.
//!
//! - `calibrate`: the cost of a timed and an untimed call on this machine.
//! - `plan`: the water-filling, a pure function of rates and costs.
//! - `controller`: the thread, its state and the overhead accounting of the report.
//! - `provisional`: hot sites' rate before the thread's first decision.

mod calibrate;
mod controller;
mod plan;
mod provisional;

pub(crate) use controller::{overhead, start};
pub(crate) use provisional::shift as provisional_shift;
