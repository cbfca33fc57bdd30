//! Builds the `functions-alloc` section.

use hotpath_model::{FunctionAlloc, FunctionsAlloc, Percentiles};

use crate::alloc_counters as counters;
use crate::histogram::Histogram;
use crate::options::Options;
use crate::record::{select, Named};

/// Rows sorted by bytes allocated, largest first. `None` when nothing was measured.
pub(crate) fn section(named: &[Named], config: &Options) -> Option<FunctionsAlloc> {
    if named.is_empty() {
        return None;
    }
    let mut rows: Vec<FunctionAlloc> = named.iter().filter(|n| n.totals.calls > 0).map(|n| row(n, config)).collect();
    rows.sort_by(|a, b| b.bytes_total.cmp(&a.bytes_total).then_with(|| a.name.cmp(&b.name)));
    let (total_functions, rows) = select(rows, |r| &r.name, config);
    let process = counters::process_totals();
    let mut section = FunctionsAlloc::default();
    section.mode = if crate::record::inclusive() { "inclusive" } else { "exclusive" }.into();
    section.process_alloc_bytes = process.alloc_bytes;
    section.process_allocs = process.alloc_count;
    section.total_functions = total_functions;
    section.rows = rows;
    Some(section)
}

/// Bucket midpoints clamped into the observed range, so p0, p100 and single calls are exact.
fn percentiles(h: &Histogram, min: u64, max: u64, config: &Options) -> Percentiles {
    let min = min.min(max);
    Percentiles(config.percentiles.iter().map(|&p| (p, h.percentile(p).clamp(min, max))).collect())
}

fn row(named: &Named, config: &Options) -> FunctionAlloc {
    let (site, t) = (named.site, &named.totals.alloc);
    let calls = named.totals.calls;
    let mut row = FunctionAlloc::default();
    row.name = named.name.clone();
    row.file = site.file().to_string();
    row.line = site.line();
    row.is_async = site.is_async();
    row.calls = calls;
    row.bytes_total = t.bytes_total;
    row.bytes_avg = t.bytes_sum.checked_div(calls).unwrap_or(0);
    row.bytes_max = t.bytes_max;
    row.bytes_percentiles = percentiles(&t.bytes, t.bytes_min, t.bytes_max, config);
    row.allocs_total = t.allocs_total;
    row.allocs_avg = t.allocs_sum.checked_div(calls).unwrap_or(0);
    row.allocs_max = t.allocs_max;
    row.allocs_percentiles = percentiles(&t.allocs, t.allocs_min, t.allocs_max, config);
    row
}
