//! Turns the merged totals of a site (counts, sums and histograms in clock ticks) into
//! the report's [`DurationStats`], for every section that summarizes durations.

use hotpath_model::BUCKET_BOUNDS_NS;
use hotpath_model::{exponential_index, percentile_label, Buckets, DurationEstimate, DurationStats, Percentiles};

use crate::clock::to_ns;
use crate::histogram::Histogram;
use crate::options::Options;
use crate::record::weighted::{percentile_ci95, sum_ci95};
use crate::record::SiteTotals;

/// Count, total, mean, max and configured percentiles of the durations in `t`, plus
/// `zeros` durations of zero that were counted but never recorded (an uncontended lock
/// acquisition waits 0 and costs no histogram write). Percentiles are bucket midpoints
/// clamped into the observed `[min, max]`, so a single value is exact.
///
/// Under the overhead budget the sums and histogram are already weighted (each timed
/// duration stands for `2^k`, `weighted.rs`): the count adds the durations the timed
/// ones stand for, and the summary gets its rate and 95% intervals. Where operations
/// were left untimed while none timed at a rate below 1 stood for them (a site whose
/// rate fell briefly, all of its operations then untimed), the timed ones are a plain
/// sample: the count is the exact one and the sum is scaled by all over timed.
pub(crate) fn stats(t: &SiteTotals, zeros: u64, ratio: f64, config: &Options) -> DurationStats {
    let ns = |ticks| to_ns(ticks, ratio);
    let w = &t.weighted;
    // Not beside a static rate: one wins over the budget for its instrument, whose
    // timed operations are then the seed's unscaled sample (which instrument this is
    // is not known here, so any static rate keeps the seed's figures).
    let budget_only = config.overhead_budget.is_some() && config.time_sampling.iter().all(|&r| r >= 1.0);
    let plain = w.extra == 0 && t.untimed > 0 && t.calls > 0 && budget_only;
    let (count, sum) = if plain {
        let all = t.calls + t.untimed;
        (all + zeros, (t.sum as f64 * all as f64 / t.calls as f64) as u64)
    } else {
        (t.calls + w.extra + zeros, t.sum)
    };
    let (min, max) = match (t.calls, zeros) {
        (0, 0) => (0, 0),
        (0, _) => (0, 0),
        (_, 0) => (t.min.min(t.max), t.max),
        _ => (0, t.max),
    };
    let mut histogram = t.histogram.clone();
    histogram.record_n(0, zeros);
    let mut stats = DurationStats::default();
    stats.count = count;
    stats.total_ns = ns(sum);
    stats.avg_ns = sum.checked_div(count).map_or(0, ns);
    stats.max_ns = ns(max);
    stats.percentiles_ns =
        Percentiles(config.percentiles.iter().map(|&p| (p, ns(histogram.percentile(p).clamp(min, max)))).collect());
    // The live histogram's `_sum` is the total, which the interval is around.
    stats.buckets = buckets(&histogram, sum, ratio, config);
    if w.extra > 0 || plain {
        let at = |p: f64| ns(histogram.percentile(p).clamp(min, max));
        let mut e = DurationEstimate::default();
        // Operations the budget left untimed are counted (`untimed`) where the
        // instrument decides per operation; the weights' own count otherwise.
        e.rate = t.calls as f64 / (t.calls + t.untimed.max(w.extra)).max(1) as f64;
        e.min_rate = 1.0 / f64::from(1u32 << w.max_shift.min(31));
        e.total_ns_ci95 = sum_ci95(stats.total_ns, w.var_total, max, w.max_shift, ratio);
        if plain {
            // The sample's spread is not kept: taken as its mean (an exponential
            // duration's), `N (N/n - 1) mean²`, plus a longest-timed operation missed
            // at the sample's own rate.
            let (all, n) = (t.calls + t.untimed, t.calls);
            let mean = t.sum as f64 / n as f64;
            let var = all as f64 * (all as f64 / n as f64 - 1.0) * mean * mean;
            let k = (all as f64 / n as f64).log2().ceil() as u32;
            e.min_rate = e.rate;
            e.total_ns_ci95 = sum_ci95(stats.total_ns, var, max, k, ratio);
        }
        e.percentiles_ns_ci95 =
            config.percentiles.iter().map(|&p| (percentile_label(p), percentile_ci95(p, t.calls, at))).collect();
        // Tests only: the untimed operations' shadow plus the timed ones' own time.
        let truth = w.shadow + t.sum.saturating_sub(w.excess);
        e.shadow_total_ns = (config.budget_shadow && w.shadow > 0).then(|| ns(truth));
        stats.estimate = Some(Box::new(e));
    }
    stats
}

/// The histogram at the model's fixed bounds, for live snapshots (`options.buckets`);
/// `None` otherwise, so final reports pay nothing for it. A bucket counts a value when
/// the midpoint of its histogram bucket is at most the bound (the same ≤ 0.8% error as
/// the percentiles).
pub(crate) fn buckets(histogram: &Histogram, sum_ticks: u64, ratio: f64, options: &Options) -> Option<Buckets> {
    if !options.buckets {
        return None;
    }
    // A last bound at u64::MAX counts every value: `count` then agrees with the other
    // buckets even while threads keep recording.
    let bounds: Vec<u64> =
        BUCKET_BOUNDS_NS.iter().map(|&ns| (ns as f64 / ratio) as u64).chain(std::iter::once(u64::MAX)).collect();
    let mut cumulative = histogram.cumulative(&bounds);
    let count = cumulative.pop().unwrap_or(0);
    let (zeros, exponential) = exponential(histogram, ratio);
    Some(Buckets::new(cumulative, count, to_ns(sum_ticks, ratio)).with_exponential(zeros, exponential))
}

/// The histogram in the model's exponential buckets: each recorder bucket counted at
/// its midpoint, converted to seconds. Durations of zero are returned apart.
fn exponential(histogram: &Histogram, ratio: f64) -> (u64, Vec<(i32, u64)>) {
    let mut zeros = 0;
    let mut out: Vec<(i32, u64)> = Vec::new();
    for (ticks, n) in histogram.midpoints() {
        if ticks <= 0.0 {
            zeros += n;
            continue;
        }
        let i = exponential_index(ticks * ratio / 1e9);
        match out.last_mut() {
            Some((last, count)) if *last == i => *count += n,
            _ => out.push((i, n)),
        }
    }
    (zeros, out)
}

#[cfg(test)]
mod tests {
    use hotpath_model::exponential_upper;

    use super::*;

    /// 40 operations under the budget, 2 timed at rate 1 (10 and 30 ticks), 38 left
    /// untimed while the rate was below 1: an estimate from a plain sample, with the
    /// exact count; without a budget (a static rate) the seed's figures stay as they
    /// were: the timed ones, unmarked.
    #[test]
    fn untimed_operations_with_no_weighted_ones_still_make_an_estimate() {
        let mut t = SiteTotals::default();
        (t.calls, t.untimed, t.sum, t.min, t.max) = (2, 38, 40, 10, 30);
        t.histogram.record_n(10, 1);
        t.histogram.record_n(30, 1);
        let config = Options { overhead_budget: Some(0.01), buckets: true, ..Options::default() };
        let s = stats(&t, 0, 1.0, &config);
        assert_eq!((s.count, s.total_ns, s.avg_ns), (40, 800, 20));
        assert_eq!(s.buckets.as_ref().map(|b| b.sum_ns), Some(800), "the live histogram's sum is the total");
        let e = s.estimate.as_ref().expect("marked as an estimate");
        assert_eq!((e.rate, e.min_rate), (0.05, 0.05));
        let [lo, hi] = e.total_ns_ci95;
        assert!(lo < 800 && 800 < hi && hi - lo > 800, "wide, around the estimate: {lo}..{hi}");
        let s = stats(&t, 0, 1.0, &Options::default());
        assert_eq!((s.count, s.total_ns), (2, 40));
        assert!(s.estimate.is_none());
    }

    /// Each value lands in the exponential bucket of its recorder bucket's midpoint
    /// (within 1.1% of the value), zeros apart, and the counts add up.
    #[test]
    fn exponential_buckets_hold_each_value_within_their_error() {
        let mut h = Histogram::default();
        let values = [0u64, 0, 7, 1_000, 1_001, 250_000, 3_000_000_000];
        values.iter().for_each(|&v| h.record_n(v, 1));
        let (zeros, buckets) = exponential(&h, 1.0);
        assert_eq!(zeros, 2);
        assert_eq!(buckets.iter().map(|b| b.1).sum::<u64>(), 5);
        assert!(buckets.windows(2).all(|w| w[0].0 < w[1].0));
        for v in &values[2..] {
            let s = *v as f64 / 1e9;
            let near = buckets.iter().any(|&(i, _)| {
                let (lo, hi) = (exponential_upper(i - 1), exponential_upper(i));
                lo <= s * 1.011 && hi >= s / 1.011
            });
            assert!(near, "{v} ns has a bucket within 1.1%: {buckets:?}");
        }
        // 1000 and 1001 ns share a recorder bucket, so one exponential bucket of 2.
        assert_eq!(buckets.iter().filter(|b| b.1 == 2).count(), 1);
    }
}
