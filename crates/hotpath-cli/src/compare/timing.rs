//! `functions_timing` through its typed model: the metrics worth comparing, with
//! short labels. Minimum and maximum are left out on purpose: each is a single
//! call, so they move with any hiccup; the percentiles carry the tail instead.

use hotpath_model::{percentile_label, FunctionTiming, FunctionsTiming};

use super::kind::Kind;
use super::samples::{Metric, Section};

/// The section's key in the report.
pub(crate) const SECTION: &str = "functions_timing";

pub(crate) fn section(timing: &FunctionsTiming) -> Section {
    let mut section = Section { truncated: timing.rows.len() < timing.total_functions, ..Section::default() };
    for row in &timing.rows {
        section.rows.insert(row.name.clone(), metrics(row));
    }
    section
}

fn metrics(row: &FunctionTiming) -> Vec<Metric> {
    let ns = |key: &str, label: &str, v: u64| Metric::new(key, label, Kind::Duration, v as f64);
    let count = |key: &str, v: u64| Metric::new(key, key, Kind::Count, v as f64);
    let mut out = vec![count("calls", row.calls), ns("avg_ns", "avg", row.avg_ns)];
    for (p, value) in &row.percentiles_ns.0 {
        let label = percentile_label(*p);
        out.push(ns(&format!("percentiles_ns.{label}"), &label, *value));
    }
    out.push(ns("total_ns", "total", row.total_ns));
    out.push(ns("self_ns", "self", row.self_ns));
    if row.is_async {
        out.push(ns("busy_ns", "busy", row.busy_ns));
        out.push(count("polls", row.polls));
        out.push(count("cancelled", row.cancelled));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_model::Percentiles;

    fn row(name: &str, is_async: bool) -> FunctionTiming {
        let mut row = FunctionTiming::default();
        row.name = name.into();
        row.is_async = is_async;
        row.calls = 3;
        row.avg_ns = 1_000;
        row.min_ns = 10;
        row.percentiles_ns = Percentiles(vec![(50.0, 900), (99.9, 2_000)]);
        row
    }

    fn labels(row: &FunctionTiming) -> Vec<String> {
        metrics(row).into_iter().map(|m| m.label).collect()
    }

    #[test]
    fn sync_rows_compare_calls_average_percentiles_total_and_self() {
        assert_eq!(labels(&row("f", false)), ["calls", "avg", "p50", "p99.9", "total", "self"]);
        let p = metrics(&row("f", false)).into_iter().find(|m| m.label == "p99.9").unwrap();
        assert_eq!((p.key.as_str(), p.kind, p.value), ("percentiles_ns.p99.9", Kind::Duration, 2_000.0));
    }

    #[test]
    fn async_rows_add_busy_polls_and_cancelled() {
        let l = labels(&row("f", true));
        assert_eq!(&l[l.len() - 3..], ["busy", "polls", "cancelled"]);
    }

    #[test]
    fn a_cut_section_is_marked_truncated() {
        let mut t = FunctionsTiming::default();
        t.total_functions = 2;
        t.rows = vec![row("a", false)];
        assert!(section(&t).truncated);
        t.total_functions = 1;
        assert!(!section(&t).truncated);
    }
}
