//! A `functions-timing` row under the overhead budget: the cells' sums are already
//! weighted (each timed call stands for `2^k` calls, `record/weighted.rs`), so the
//! figures are read as they are, and each estimated one gets its interval.

use std::collections::BTreeMap;

use hotpath_model::{percentile_label, Estimate, FunctionTiming, Percentiles};

use crate::clock::to_ns;
use crate::options::Options;
use crate::record::weighted::{percentile_ci95, sum_ci95};
use crate::record::SiteTotals;
use crate::sampling::Sampled;

/// Whether this session's function rows follow the budget: one is set, and no static
/// functions rate (which wins over it) is.
pub(crate) fn budgeted(config: &Options) -> bool {
    config.overhead_budget.is_some() && config.time_sampling[Sampled::Functions as usize] >= 1.0
}

/// Fills the durations of `row` from weighted totals, and its estimate when any.
pub(crate) fn budget_row(row: &mut FunctionTiming, t: &SiteTotals, ratio: f64, config: &Options) {
    let ns = |ticks: u64| to_ns(ticks, ratio);
    let (min, max) = if t.calls == 0 { (0, 0) } else { (t.min, t.max) };
    let w = &t.weighted;
    // Self time sums signed per-call estimates: below zero only by noise.
    let self_ticks = if (t.self_time as i64) < 0 { 0 } else { t.self_time };
    row.timed_calls = (t.untimed > 0).then_some(t.calls);
    row.total_ns = ns(t.total);
    row.self_ns = ns(self_ticks);
    row.avg_ns = t.sum.checked_div(t.calls + w.extra).map_or(0, ns);
    row.min_ns = ns(min);
    row.max_ns = ns(max);
    let at = |p: f64| ns(t.histogram.percentile(p).clamp(min, max));
    row.percentiles_ns = Percentiles(config.percentiles.iter().map(|&p| (p, at(p))).collect());
    if t.untimed == 0 && !w.estimated() {
        return;
    }
    let interval = |value: u64, var: f64| sum_ci95(value, var, max, w.max_shift, ratio);
    let percentiles: BTreeMap<String, [u64; 2]> =
        config.percentiles.iter().map(|&p| (percentile_label(p), percentile_ci95(p, t.calls, at))).collect();
    let mut estimate = Estimate::default();
    estimate.rate = t.calls as f64 / (t.calls + t.untimed).max(1) as f64;
    estimate.min_rate = 1.0 / f64::from(1u32 << w.max_shift.min(31));
    estimate.total_ns_ci95 = interval(row.total_ns, w.var_total);
    estimate.self_ns_ci95 = interval(row.self_ns, w.var_self);
    estimate.percentiles_ns_ci95 = percentiles;
    // Tests only. A sync site's shadow is every outermost call's time; an async
    // site's, its untimed calls' wall times (`functions/future.rs`), beside the timed
    // calls' own in the sums.
    let truth = if row.is_async { w.shadow + t.sum.saturating_sub(w.excess) } else { w.shadow };
    estimate.shadow_total_ns = config.budget_shadow.then(|| ns(truth));
    row.estimate = Some(Box::new(estimate));
}
