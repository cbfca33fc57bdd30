//! The row selection every function section shares (timing, allocations, CPU,
//! instructions): per-site totals merged by display name, then the focus filter and
//! the row limit.

use super::site::{registered, FnSite};
use super::SiteTotals;
use crate::options::Options;

/// A site's totals under its display name; sites sharing a name are merged.
pub(crate) struct Named {
    pub(crate) name: String,
    pub(crate) site: &'static FnSite,
    pub(crate) totals: SiteTotals,
}

/// Every site with calls that `keep` accepts, merged by display name.
pub(crate) fn named(totals: &[SiteTotals], keep: impl Fn(&FnSite) -> bool) -> Vec<Named> {
    let sites = registered();
    let mut merged: Vec<Named> = Vec::new();
    for (id, t) in totals.iter().enumerate().skip(1) {
        let Some(site) = sites.get(id) else { continue };
        if (t.calls == 0 && t.untimed == 0 && t.cancelled == 0 && t.active as i64 <= 0) || !keep(site) {
            continue;
        }
        let name = site.name();
        match merged.iter_mut().find(|n| n.name == name) {
            Some(existing) => existing.totals.add(t),
            None => merged.push(Named { name, site, totals: t.clone() }),
        }
    }
    merged
}

/// Keeps the rows matching the focus filter, then the first `limit` (already sorted).
/// Returns how many rows there were before filtering, and the kept rows.
pub(crate) fn select<T>(mut rows: Vec<T>, name: impl Fn(&T) -> &str, config: &Options) -> (usize, Vec<T>) {
    let total = rows.len();
    if let Some(focus) = &config.focus {
        rows.retain(|r| focus.matches(name(r)));
    }
    if config.limit > 0 {
        rows.truncate(config.limit);
    }
    (total, rows)
}
