//! Builds the `functions-timing` section from merged per-site totals.

use hotpath_model::{FunctionTiming, FunctionsTiming, Percentiles};

use super::site::registered;
use super::SiteTotals;
use crate::clock::to_ns;
use crate::config::Config;

/// Rows for every site with calls, merged by name, sorted by total time, then
/// filtered by focus and cut to the limit. `None` when nothing was measured.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Config) -> Option<FunctionsTiming> {
    let sites = registered();
    let mut merged: Vec<(String, &'static super::FnSite, SiteTotals)> = Vec::new();
    for (id, t) in totals.iter().enumerate().skip(1) {
        let Some(site) = sites.get(id) else { continue };
        if t.calls == 0 && t.cancelled == 0 {
            continue;
        }
        let name = site.name();
        match merged.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, _, existing)) => existing.add(t),
            None => merged.push((name, site, t.clone())),
        }
    }
    if merged.is_empty() {
        return None;
    }
    let mut rows: Vec<FunctionTiming> =
        merged.into_iter().map(|(name, site, t)| row(name, site, &t, ratio, config)).collect();
    rows.sort_by(|a, b| b.total_ns.cmp(&a.total_ns).then_with(|| a.name.cmp(&b.name)));
    let mut section = FunctionsTiming::default();
    section.total_functions = rows.len();
    if let Some(focus) = &config.focus {
        rows.retain(|r| focus.matches(&r.name));
    }
    if config.limit > 0 {
        rows.truncate(config.limit);
    }
    section.rows = rows;
    Some(section)
}

fn row(name: String, site: &super::FnSite, t: &SiteTotals, ratio: f64, config: &Config) -> FunctionTiming {
    let ns = |ticks| to_ns(ticks, ratio);
    let (min, max) = if t.calls == 0 { (0, 0) } else { (t.min, t.max) };
    let mut row = FunctionTiming::default();
    row.name = name;
    row.file = site.file().to_string();
    row.line = site.line();
    row.is_async = site.is_async();
    row.calls = t.calls;
    row.cancelled = t.cancelled;
    row.polls = t.polls;
    row.busy_ns = ns(t.busy);
    row.total_ns = ns(t.total);
    row.self_ns = ns(t.self_time);
    row.avg_ns = t.sum.checked_div(t.calls).map_or(0, ns);
    row.min_ns = ns(min);
    row.max_ns = ns(max);
    // Bucket midpoints are clamped into the observed range, so p0 and p100 are exact.
    row.percentiles_ns =
        Percentiles(config.percentiles.iter().map(|&p| (p, ns(t.histogram.percentile(p).clamp(min, max)))).collect());
    row
}
