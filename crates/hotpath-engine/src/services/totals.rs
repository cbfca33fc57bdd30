//! A row's merged totals as the model's pieces: durations, status classes, route
//! scope and allocations per request.

use hotpath_model::{DurationStats, Percentiles};

use super::cell::RequestTotals;
use crate::options::Options;

/// Durations (already nanoseconds) as the model's summary.
pub(crate) fn latency(t: &RequestTotals, options: &Options) -> DurationStats {
    let (min, max) = if t.calls == 0 { (0, 0) } else { (t.min_ns, t.max_ns) };
    let mut stats = DurationStats::default();
    stats.count = t.calls;
    stats.total_ns = t.sum_ns;
    stats.avg_ns = t.sum_ns.checked_div(t.calls).unwrap_or(0);
    stats.max_ns = max;
    stats.percentiles_ns =
        Percentiles(options.percentiles.iter().map(|&p| (p, t.histogram.percentile(p).clamp(min, max))).collect());
    stats.buckets = crate::record::buckets(&t.histogram, t.sum_ns, 1.0, options);
    stats
}

#[cfg(any(feature = "axum", feature = "services-http"))]
pub(crate) fn status(t: &RequestTotals) -> hotpath_model::StatusClasses {
    let mut s = hotpath_model::StatusClasses::default();
    for (class, n) in t.status.iter().enumerate() {
        s.count(100 * (class as u16 + 1), *n);
    }
    s
}

/// What the route scope attributed; `None` when no request was scoped. Function time
/// is in clock ticks until here.
#[cfg(feature = "axum")]
pub(crate) fn scope(t: &RequestTotals, ratio: f64) -> Option<hotpath_model::RouteScope> {
    let [requests, sql_queries, sql_ns, http_calls, http_ns, ticks] = t.scope;
    (requests > 0).then(|| {
        let mut s = hotpath_model::RouteScope::default();
        (s.requests, s.sql_queries, s.sql_ns, s.http_calls, s.http_ns) =
            (requests, sql_queries, sql_ns, http_calls, http_ns);
        s.function_ns = crate::clock::to_ns(ticks, ratio);
        s
    })
}

/// Allocations per completed request.
#[cfg(feature = "alloc")]
pub(crate) fn alloc(t: &RequestTotals, options: &Options) -> Option<hotpath_model::RequestAlloc> {
    (t.calls > 0).then(|| {
        let mut a = hotpath_model::RequestAlloc::default();
        a.total_bytes = t.alloc_bytes;
        a.avg_bytes = t.alloc_bytes / t.calls;
        a.avg_allocs = t.allocs / t.calls;
        a.max_bytes = t.alloc_max;
        a.percentiles_bytes = Percentiles(
            options.percentiles.iter().map(|&p| (p, t.alloc_histogram.percentile(p).min(t.alloc_max))).collect(),
        );
        a
    })
}

/// The rows' summed time, and each row's `% Total` of it (one decimal), set through
/// `parts`: the share of a row among all rows, those past the limit included.
pub(crate) fn shares<T>(rows: &mut [T], parts: impl Fn(&mut T) -> (u64, &mut f64)) -> u64 {
    let whole: u64 = rows.iter_mut().map(|r| parts(r).0).sum();
    for row in rows.iter_mut() {
        let (part, percent) = parts(row);
        *percent = if whole == 0 { 0.0 } else { (part as f64 * 1000.0 / whole as f64).round() / 10.0 };
    }
    whole
}

/// Rows sorted by total time, longest first, then by name.
pub(crate) fn by_total<T>(rows: &mut [T], total: impl Fn(&T) -> (u64, &str)) {
    rows.sort_by(|a, b| {
        let ((ta, na), (tb, nb)) = (total(a), total(b));
        tb.cmp(&ta).then_with(|| na.cmp(nb))
    });
}
