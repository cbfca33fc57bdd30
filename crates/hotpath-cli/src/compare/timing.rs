//! `functions_timing` through its typed model: the metrics worth comparing, with
//! short labels. Minimum and maximum are left out on purpose: each is a single
//! call, so they move with any hiccup; the percentiles carry the tail instead.

use hotpath_model::{percentile_label, FunctionTiming, FunctionsTiming, Unit};

use super::samples::Section;

/// The section's key in the report.
pub(crate) const SECTION: &str = "functions_timing";

pub(crate) fn section(timing: &FunctionsTiming) -> Section {
    let mut section = Section { truncated: timing.rows.len() < timing.total_functions, ..Section::default() };
    for row in &timing.rows {
        push_row(&mut section, row);
    }
    section
}

fn push_row(s: &mut Section, row: &FunctionTiming) {
    let name = row.name.as_str();
    let ns = |s: &mut Section, key: &str, label: &str, v: u64| s.push(name, key, label, Unit::Nanoseconds, v as f64);
    s.push(name, "calls", "calls", Unit::Count, row.calls as f64);
    ns(s, "avg_ns", "avg", row.avg_ns);
    for (p, value) in &row.percentiles_ns.0 {
        let label = percentile_label(*p);
        ns(s, &format!("percentiles_ns.{label}"), &label, *value);
    }
    ns(s, "total_ns", "total", row.total_ns);
    ns(s, "self_ns", "self", row.self_ns);
    if row.is_async {
        ns(s, "busy_ns", "busy", row.busy_ns);
        s.push(name, "polls", "polls", Unit::Count, row.polls as f64);
        s.push(name, "cancelled", "cancelled", Unit::Count, row.cancelled as f64);
    }
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
        let mut s = Section::default();
        push_row(&mut s, row);
        s.rows[0].iter().map(|(m, _)| s.info(*m).label.clone()).collect()
    }

    #[test]
    fn sync_rows_compare_calls_average_percentiles_total_and_self() {
        assert_eq!(labels(&row("f", false)), ["calls", "avg", "p50", "p99.9", "total", "self"]);
        let mut s = Section::default();
        push_row(&mut s, &row("f", false));
        let (m, v) = s.rows["f"][3];
        let p = s.info(m);
        assert_eq!((p.key.as_str(), p.unit, v), ("percentiles_ns.p99.9", Unit::Nanoseconds, 2_000.0));
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
