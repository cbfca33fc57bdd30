//! Builds the `functions-timing` section from merged per-site totals.

use hotpath_model::{FunctionTiming, FunctionsTiming, Percentiles};

use crate::clock::to_ns;
use crate::options::Options;
use crate::record::{select, Named};

/// Rows sorted by total time, largest first. `None` when nothing was measured.
pub(crate) fn section(named: &[Named], ratio: f64, config: &Options) -> Option<FunctionsTiming> {
    if named.is_empty() {
        return None;
    }
    let mut rows: Vec<FunctionTiming> = named.iter().map(|n| row(n, ratio, config)).collect();
    rows.sort_by(|a, b| b.total_ns.cmp(&a.total_ns).then_with(|| a.name.cmp(&b.name)));
    let (total_functions, rows) = select(rows, |r| &r.name, config);
    let mut section = FunctionsTiming::default();
    section.total_functions = total_functions;
    section.rows = rows;
    Some(section)
}

fn row(named: &Named, ratio: f64, config: &Options) -> FunctionTiming {
    let (site, t) = (named.site, &named.totals);
    let ns = |ticks| to_ns(ticks, ratio);
    let (min, max) = if t.calls == 0 { (0, 0) } else { (t.min, t.max) };
    let mut row = FunctionTiming::default();
    row.name = named.name.clone();
    row.file = site.file().to_string();
    row.line = site.line();
    row.is_async = site.is_async();
    row.calls = t.calls + t.untimed;
    row.cancelled = t.cancelled;
    row.polls = t.polls;
    row.busy_ns = ns(t.busy);
    // Cells are read one after another while calls go on: an async call that started on
    // a thread already read and ended on one read later sums to -1. Not a call in flight.
    row.active = if (t.active as i64) < 0 { 0 } else { t.active };
    if t.active_since != u64::MAX {
        row.oldest_active_ns = Some(ns(crate::clock::now().saturating_sub(t.active_since)));
    }
    row.buckets = crate::record::buckets(&t.histogram, t.sum, ratio, config);
    if super::estimate::budgeted(config) {
        super::estimate::budget_row(&mut row, t, ratio, config);
        return row;
    }
    // Under time sampling the totals are estimates: the timed calls' sums scaled up
    // to every call.
    let scale = |ticks: u64| match t.untimed {
        0 => ticks,
        _ if t.calls == 0 => 0,
        _ => (u128::from(ticks) * u128::from(t.calls + t.untimed) / u128::from(t.calls)) as u64,
    };
    row.timed_calls = (t.untimed > 0).then_some(t.calls);
    row.total_ns = ns(scale(t.total));
    row.self_ns = ns(scale(t.self_time));
    row.avg_ns = t.sum.checked_div(t.calls).map_or(0, ns);
    row.min_ns = ns(min);
    row.max_ns = ns(max);
    // Bucket midpoints are clamped into the observed range, so p0 and p100 are exact.
    row.percentiles_ns =
        Percentiles(config.percentiles.iter().map(|&p| (p, ns(t.histogram.percentile(p).clamp(min, max)))).collect());
    row
}
