//! Call-duration histograms per function, read at a few fixed bounds for the
//! Prometheus exporter: the report carries percentiles, Prometheus wants cumulative
//! buckets. Fixed bounds keep the number of series per function small and stable.

use super::recorder;
use super::site::registered;
use super::SiteTotals;
use crate::clock::{ns_per_tick, to_ns};
use crate::options::Focus;

/// One function's call durations: cumulative counts at the requested bounds.
pub struct DurationBuckets {
    /// The function's display name.
    pub name: String,
    /// `cumulative[i]`: calls that took at most `bounds_ns[i]`.
    pub cumulative: Vec<u64>,
    /// Calls in all.
    pub count: u64,
    /// Their summed duration.
    pub sum_ns: u64,
}

/// Every function with completed calls (merged by name like the report rows, kept
/// by `focus`), sorted by name so series keep their order between scrapes.
pub fn duration_buckets(bounds_ns: &[u64], focus: Option<&Focus>) -> Vec<DurationBuckets> {
    let totals = recorder::collect();
    if totals.iter().all(|t| t.calls == 0) {
        return Vec::new();
    }
    let ratio = ns_per_tick();
    let sites = registered();
    let mut merged: Vec<(String, SiteTotals)> = Vec::new();
    for (id, t) in totals.iter().enumerate().skip(1) {
        let Some(site) = sites.get(id) else { continue };
        if t.calls == 0 {
            continue;
        }
        let name = site.name();
        if focus.is_some_and(|f| !f.matches(&name)) {
            continue;
        }
        match merged.iter_mut().find(|(n, _)| *n == name) {
            Some((_, existing)) => existing.add(t),
            None => merged.push((name, t.clone())),
        }
    }
    merged.sort_by(|a, b| a.0.cmp(&b.0));
    // A last bound at u64::MAX counts every value: the +Inf bucket and `_count` then
    // agree with the other buckets even while threads keep recording.
    let bounds_ticks: Vec<u64> =
        bounds_ns.iter().map(|&ns| (ns as f64 / ratio) as u64).chain(std::iter::once(u64::MAX)).collect();
    merged
        .into_iter()
        .map(|(name, t)| {
            let mut cumulative = t.histogram.cumulative(&bounds_ticks);
            let count = cumulative.pop().unwrap_or(0);
            DurationBuckets { name, cumulative, count, sum_ns: to_ns(t.sum, ratio) }
        })
        .collect()
}
