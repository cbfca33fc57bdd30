//! The comparison of two sides: every section, row and metric with its verdict.
//! This is what the renderers print and what `--format json` serializes.

use std::path::PathBuf;

use serde::Serialize;

use super::kind::Kind;
use super::notes;
use super::side::{Side, SideRow, SideSection};
use super::stats::MannWhitney;
use super::verdict::{judge, Method, Settings, Stats, Verdict};

/// Version of the `--format json` output; bumped when a field changes meaning.
pub(crate) const COMPARE_VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Comparison {
    pub(crate) compare_version: u32,
    pub(crate) base: SideInfo,
    pub(crate) head: SideInfo,
    pub(crate) settings: SettingsInfo,
    /// Caveats about this comparison, one sentence each.
    pub(crate) notes: Vec<String>,
    pub(crate) summary: Summary,
    pub(crate) sections: Vec<SectionDiff>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct SideInfo {
    pub(crate) label: String,
    pub(crate) runs: usize,
    pub(crate) files: Vec<PathBuf>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct SettingsInfo {
    pub(crate) threshold_pct: f64,
    pub(crate) alpha: f64,
    pub(crate) test: &'static str,
}

/// Counts over the whole comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Summary {
    /// Metrics judged regressed, and the rows they belong to.
    pub(crate) regressed_metrics: usize,
    pub(crate) regressed_rows: usize,
    pub(crate) improved_metrics: usize,
    pub(crate) improved_rows: usize,
    pub(crate) inconclusive_metrics: usize,
    pub(crate) added_rows: usize,
    pub(crate) removed_rows: usize,
    pub(crate) compared_metrics: usize,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct SectionDiff {
    pub(crate) name: String,
    pub(crate) rows: Vec<RowDiff>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RowStatus {
    /// On both sides.
    Compared,
    /// Only in head.
    Added,
    /// Only in base.
    Removed,
    /// On one side only, and the other side's reports were cut by their row limit.
    OutsideLimit,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct RowDiff {
    pub(crate) name: String,
    pub(crate) status: RowStatus,
    pub(crate) metrics: Vec<MetricDiff>,
}

impl RowDiff {
    pub(crate) fn has(&self, verdict: Verdict) -> bool {
        self.metrics.iter().any(|m| m.verdict == verdict)
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct MetricDiff {
    pub(crate) key: String,
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) base: Option<Stats>,
    pub(crate) head: Option<Stats>,
    pub(crate) change_pct: Option<f64>,
    pub(crate) method: Option<Method>,
    pub(crate) p_value: Option<f64>,
    pub(crate) verdict: Verdict,
}

/// Compares every section, row and metric of `head` against `base`.
pub(crate) fn compare(base: &Side, head: &Side, settings: Settings) -> Comparison {
    let mut mw = MannWhitney::default();
    let empty = SideSection::default();
    let mut sections = Vec::new();
    for name in union(head.sections.keys(), base.sections.keys()) {
        let b = base.sections.get(name).unwrap_or(&empty);
        let h = head.sections.get(name).unwrap_or(&empty);
        let mut rows = Vec::new();
        for row in union(h.rows.keys(), b.rows.keys()) {
            let diff = match (b.rows.get(row), h.rows.get(row)) {
                (Some(br), Some(hr)) => compared(row, br, hr, settings, &mut mw),
                (None, Some(hr)) => one_sided(row, hr, b.truncated, RowStatus::Added),
                (Some(br), None) => one_sided(row, br, h.truncated, RowStatus::Removed),
                (None, None) => continue,
            };
            rows.push(diff);
        }
        sections.push(SectionDiff { name: name.clone(), rows });
    }
    let summary = summarize(&sections);
    Comparison {
        compare_version: COMPARE_VERSION,
        base: SideInfo { label: base.label.clone(), runs: base.runs, files: base.files.clone() },
        head: SideInfo { label: head.label.clone(), runs: head.runs, files: head.files.clone() },
        settings: SettingsInfo {
            threshold_pct: settings.threshold_pct,
            alpha: settings.alpha,
            test: "Mann-Whitney U, two-sided, on per-run values",
        },
        notes: notes::notes(base, head, settings),
        summary,
        sections,
    }
}

/// Keys of `first` in order, then those only in `second`.
fn union<'a>(
    first: impl Iterator<Item = &'a String>,
    second: impl Iterator<Item = &'a String>,
) -> indexmap::IndexSet<&'a String> {
    first.chain(second).collect()
}

fn compared(name: &str, base: &SideRow, head: &SideRow, settings: Settings, mw: &mut MannWhitney) -> RowDiff {
    let mut metrics = Vec::new();
    for key in union(head.metrics.keys(), base.metrics.keys()) {
        let metric = match (base.metrics.get(key), head.metrics.get(key)) {
            (Some(b), Some(h)) => {
                let j = judge(h.kind, &b.values, &h.values, settings, mw);
                MetricDiff {
                    key: key.clone(),
                    label: h.label.clone(),
                    kind: h.kind,
                    base: Some(j.base),
                    head: Some(j.head),
                    change_pct: j.change_pct,
                    method: Some(j.method),
                    p_value: j.p_value,
                    verdict: j.verdict,
                }
            }
            (None, Some(only)) => one_metric(key, only, false),
            (Some(only), None) => one_metric(key, only, true),
            (None, None) => continue,
        };
        metrics.push(metric);
    }
    RowDiff { name: name.to_string(), status: RowStatus::Compared, metrics }
}

fn one_metric(key: &str, series: &super::side::Series, is_base: bool) -> MetricDiff {
    let stats = Some(Stats::of(&series.values));
    let (base, head) = if is_base { (stats, None) } else { (None, stats) };
    MetricDiff {
        key: key.to_string(),
        label: series.label.clone(),
        kind: series.kind,
        base,
        head,
        change_pct: None,
        method: None,
        p_value: None,
        verdict: if is_base { Verdict::Removed } else { Verdict::Added },
    }
}

/// A row on one side only; `other_cut` says the other side may have hidden it.
fn one_sided(name: &str, row: &SideRow, other_cut: bool, status: RowStatus) -> RowDiff {
    let is_base = status == RowStatus::Removed;
    let status = if other_cut { RowStatus::OutsideLimit } else { status };
    let metrics = row
        .metrics
        .iter()
        .map(|(key, series)| {
            let mut m = one_metric(key, series, is_base);
            if other_cut {
                m.verdict = Verdict::OutsideLimit;
            }
            m
        })
        .collect();
    RowDiff { name: name.to_string(), status, metrics }
}

fn summarize(sections: &[SectionDiff]) -> Summary {
    let mut s = Summary::default();
    for row in sections.iter().flat_map(|sec| &sec.rows) {
        match row.status {
            RowStatus::Added => s.added_rows += 1,
            RowStatus::Removed => s.removed_rows += 1,
            RowStatus::Compared | RowStatus::OutsideLimit => {}
        }
        s.regressed_rows += usize::from(row.has(Verdict::Regressed));
        s.improved_rows += usize::from(row.has(Verdict::Improved));
        for m in &row.metrics {
            s.compared_metrics += usize::from(m.method.is_some());
            match m.verdict {
                Verdict::Regressed => s.regressed_metrics += 1,
                Verdict::Improved => s.improved_metrics += 1,
                Verdict::Inconclusive => s.inconclusive_metrics += 1,
                _ => {}
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::{Metric, RunSamples, Section};

    const S: Settings = Settings { threshold_pct: 10.0, alpha: 0.05 };

    /// One run: section `functions_timing` with rows of (name, avg_ns, alloc_bytes).
    fn run(rows: &[(&str, f64, f64)], truncated: bool) -> RunSamples {
        let mut section = Section { truncated, ..Section::default() };
        for (name, avg, bytes) in rows {
            section.rows.insert(
                name.to_string(),
                vec![
                    Metric::new("avg_ns", "avg", Kind::Duration, *avg),
                    Metric::new("alloc_bytes", "alloc_bytes", Kind::Bytes, *bytes),
                ],
            );
        }
        let mut run = RunSamples::default();
        run.sections.insert("functions_timing".into(), section);
        run
    }

    fn side(runs: Vec<RunSamples>) -> Side {
        Side::new("x", vec![], runs)
    }

    fn row<'a>(c: &'a Comparison, name: &str) -> &'a RowDiff {
        c.sections[0].rows.iter().find(|r| r.name == name).unwrap()
    }

    #[test]
    fn regressions_additions_and_removals() {
        let base: Vec<_> =
            (0..5).map(|i| run(&[("slow", 100.0 + f64::from(i), 64.0), ("gone", 5.0, 0.0)], false)).collect();
        let head: Vec<_> =
            (0..5).map(|i| run(&[("slow", 900.0 + f64::from(i), 640.0), ("new", 5.0, 0.0)], false)).collect();
        let c = compare(&side(base), &side(head), S);
        let slow = row(&c, "slow");
        assert_eq!(slow.status, RowStatus::Compared);
        assert!(slow.metrics.iter().all(|m| m.verdict == Verdict::Regressed));
        assert_eq!(row(&c, "new").status, RowStatus::Added);
        assert_eq!(row(&c, "gone").status, RowStatus::Removed);
        let names: Vec<&str> = c.sections[0].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["slow", "new", "gone"], "head order, then rows only in base");
        assert_eq!(
            c.summary,
            Summary {
                regressed_metrics: 2,
                regressed_rows: 1,
                added_rows: 1,
                removed_rows: 1,
                compared_metrics: 2,
                ..Summary::default()
            }
        );
    }

    #[test]
    fn same_reports_change_nothing() {
        let runs = || (0..3).map(|_| run(&[("f", 100.0, 64.0)], false)).collect();
        let c = compare(&side(runs()), &side(runs()), S);
        assert!(row(&c, "f").metrics.iter().all(|m| m.verdict == Verdict::Unchanged));
        assert_eq!(c.summary.regressed_metrics + c.summary.added_rows + c.summary.removed_rows, 0);
    }

    #[test]
    fn rows_hidden_by_a_row_limit_are_not_called_added() {
        let base = side(vec![run(&[("a", 1.0, 0.0)], true)]);
        let head = side(vec![run(&[("a", 1.0, 0.0), ("b", 2.0, 0.0)], false)]);
        let c = compare(&base, &head, S);
        assert_eq!(row(&c, "b").status, RowStatus::OutsideLimit);
        assert_eq!(c.summary.added_rows, 0);
    }

    #[test]
    fn a_metric_on_one_side_only_is_listed() {
        let mut head = run(&[("f", 1.0, 0.0)], false);
        head.sections["functions_timing"].rows["f"].push(Metric::new("percentiles_ns.p99", "p99", Kind::Duration, 3.0));
        let c = compare(&side(vec![run(&[("f", 1.0, 0.0)], false)]), &side(vec![head]), S);
        let p99 = row(&c, "f").metrics.iter().find(|m| m.label == "p99").unwrap();
        assert_eq!((p99.verdict, p99.base.is_none()), (Verdict::Added, true));
    }
}
