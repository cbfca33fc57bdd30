//! Figures estimated from a share of timed calls (the overhead budget), with their
//! sampling rate and 95% confidence intervals, and the budget's own accounting.

use serde::{Deserialize, Serialize};

/// How a row's durations were estimated when some of its calls were not timed.
/// Counts stay exact; `total_ns`, `self_ns`, `avg_ns` and the percentiles of the row
/// are estimates, each call timed at rate `p` standing for `1/p` calls.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Estimate {
    /// Timed calls over all calls: the site's effective timing rate over the run.
    pub rate: f64,
    /// The lowest rate any of its calls was timed at (`2^-k`).
    pub min_rate: f64,
    /// 95% confidence interval of `total_ns`, `[low, high]`.
    pub total_ns_ci95: [u64; 2],
    /// 95% confidence interval of `self_ns` (children timed at a rate below 1 make a
    /// parent's self time an estimate even when the parent's own calls were all timed).
    pub self_ns_ci95: [u64; 2],
    /// 95% interval of each configured percentile, keyed like `percentiles_ns`: the
    /// values at the ranks `q ± 1.96·sqrt(q(1-q)/n)` of the `n` timed calls.
    pub percentiles_ns_ci95: std::collections::BTreeMap<String, [u64; 2]>,
    /// Tests only (`HOTPATH_OVERHEAD_BUDGET_SHADOW`): the total every call measured,
    /// timed into a shadow sum, the truth the estimate is checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadow_total_ns: Option<u64>,
}

impl Estimate {
    /// `±x%`: half the width of an interval relative to the estimate.
    pub fn relative_half_width(value: u64, ci: [u64; 2]) -> f64 {
        if value == 0 {
            return 0.0;
        }
        (ci[1].saturating_sub(ci[0])) as f64 / 2.0 / value as f64
    }
}

/// How a duration summary (lock waits and holds, channel latency, a future's wall
/// time, `io!` operations) was estimated under the overhead budget: the same as
/// [`Estimate`] without self time. `count` stays exact where the instrument counts
/// every operation; `total_ns`, `avg_ns` and the percentiles are estimates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DurationEstimate {
    /// Timed operations over all: the effective timing rate over the run.
    pub rate: f64,
    /// The lowest rate any operation was timed at (`2^-k`).
    pub min_rate: f64,
    /// 95% confidence interval of `total_ns`, `[low, high]`.
    pub total_ns_ci95: [u64; 2],
    /// 95% interval of each configured percentile, keyed like `percentiles_ns`.
    pub percentiles_ns_ci95: std::collections::BTreeMap<String, [u64; 2]>,
    /// Tests only (`HOTPATH_OVERHEAD_BUDGET_SHADOW`): the total of every operation,
    /// timed into a shadow sum, the truth the estimate is checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadow_total_ns: Option<u64>,
}

/// The overhead budget's accounting (`meta.overhead`), present when a budget is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Overhead {
    /// The configured budget, a fraction of the process's CPU time (0.01 for 1%).
    pub budget: f64,
    /// The profiler's estimated share of the process's CPU time since the start:
    /// calls × calibrated cost of a timed or untimed call, plus its `hp-budget` thread's
    /// decisions (not its one-off start-up calibration).
    pub profiler_overhead_ratio: f64,
    /// Of that, what counting every call costs: no timing rate can go below it.
    pub counting_floor_ratio: f64,
    /// Of that, the `hp-budget` thread's own decisions (its wake-ups, every 0.1 to
    /// 1.6 s): no rate lowers it either; in a mostly idle program it can be most of
    /// the ratio (absent in reports of older versions: 0).
    #[serde(default)]
    pub thread_ratio: f64,
    /// The calibrated cost of a timed call on this machine, ns (the accounting's unit).
    pub timed_call_ns: f64,
    /// The calibrated cost of an untimed (counted only) call, ns.
    pub untimed_call_ns: f64,
    /// The calibrated cost of an untimed call of a recursive function, which also keeps
    /// the function's depth, ns (absent in reports of older versions: 0).
    #[serde(default)]
    pub recursive_untimed_call_ns: f64,
}

impl Overhead {
    /// The budget's accounting; `costs`: a timed call, an untimed one and an untimed
    /// call of a recursive function, in ns.
    pub fn new(budget: f64, profiler_overhead_ratio: f64, counting_floor_ratio: f64, costs: (f64, f64, f64)) -> Self {
        let (timed_call_ns, untimed_call_ns, recursive_untimed_call_ns) = costs;
        Self {
            budget,
            profiler_overhead_ratio,
            counting_floor_ratio,
            thread_ratio: 0.0,
            timed_call_ns,
            untimed_call_ns,
            recursive_untimed_call_ns,
        }
    }

    /// The share of the `hp-budget` thread's decisions.
    #[must_use]
    pub fn with_thread_ratio(mut self, thread_ratio: f64) -> Self {
        self.thread_ratio = thread_ratio;
        self
    }
}
