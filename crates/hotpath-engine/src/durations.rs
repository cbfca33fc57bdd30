//! Turns the merged totals of a site (counts, sums and histograms in clock ticks) into
//! the report's [`DurationStats`], for every section that summarizes durations.

use hotpath_model::{DurationStats, Percentiles};

use crate::clock::to_ns;
use crate::functions::SiteTotals;
use crate::options::Options;

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
    stats
}
