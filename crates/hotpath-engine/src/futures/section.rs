//! Builds the `futures` section from `future!` sites and async function sites.

use hotpath_model::{FutureRow, Futures};

use crate::clock::to_ns;
use crate::options::Options;
use crate::record::durations;
use crate::record::{named, select, FnSite, Named, SiteKind, SiteTotals};

/// Rows sorted by total wall time, largest first. `None` when no future was polled.
pub(crate) fn section(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Futures> {
    let sites = named(totals, |s| s.kind() == SiteKind::Future || (s.kind() == SiteKind::Function && s.is_async()));
    if sites.is_empty() {
        return None;
    }
    let mut rows: Vec<FutureRow> = sites.iter().map(|n| row(n, ratio, config)).collect();
    rows.sort_by(|a, b| b.wall.total_ns.cmp(&a.wall.total_ns).then_with(|| a.name.cmp(&b.name)));
    let (total_futures, rows) = select(rows, |r| &r.name, config);
    let mut section = Futures::default();
    section.total_futures = total_futures;
    section.rows = rows;
    Some(section)
}

fn row(named: &Named, ratio: f64, config: &Options) -> FutureRow {
    let (site, t): (&FnSite, _) = (named.site, &named.totals);
    let mut row = FutureRow::default();
    row.name = named.name.clone();
    row.file = site.file().to_string();
    row.line = site.line();
    row.kind = if site.kind() == SiteKind::Future { "future" } else { "async_fn" }.into();
    row.calls = t.calls + t.untimed;
    row.timed_calls = (t.untimed > 0).then_some(t.calls);
    row.cancelled = t.cancelled;
    row.polls = t.polls;
    row.busy_ns = to_ns(t.busy, ratio);
    row.wall = durations::stats(t, 0, ratio, config);
    #[cfg(feature = "alloc")]
    {
        row.alloc_bytes_avg = t.alloc.bytes_sum.checked_div(t.calls);
        row.allocs_avg = t.alloc.allocs_sum.checked_div(t.calls);
    }
    row
}
