//! Turns the merged totals of a site (counts, sums and histograms in clock ticks) into
//! the report's [`DurationStats`], for every section that summarizes durations.

use hotpath_model::{Buckets, DurationStats, Percentiles, BUCKET_BOUNDS_NS};

use crate::clock::to_ns;
use crate::histogram::Histogram;
use crate::options::Options;
use crate::record::SiteTotals;

/// Count, total, mean, max and configured percentiles of the durations in `t`, plus
/// `zeros` durations of zero that were counted but never recorded (an uncontended lock
/// acquisition waits 0 and costs no histogram write). Percentiles are bucket midpoints
/// clamped into the observed `[min, max]`, so a single value is exact.
pub(crate) fn stats(t: &SiteTotals, zeros: u64, ratio: f64, config: &Options) -> DurationStats {
    let ns = |ticks| to_ns(ticks, ratio);
    let count = t.calls + zeros;
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
    stats.total_ns = ns(t.sum);
    stats.avg_ns = t.sum.checked_div(count).map_or(0, ns);
    stats.max_ns = ns(max);
    stats.percentiles_ns =
        Percentiles(config.percentiles.iter().map(|&p| (p, ns(histogram.percentile(p).clamp(min, max)))).collect());
    stats.buckets = buckets(&histogram, t.sum, ratio, config);
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
    Some(Buckets::new(cumulative, count, to_ns(sum_ticks, ratio)))
}
