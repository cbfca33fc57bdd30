use hotpath_model::Unit;

use super::*;
use crate::compare::samples::{RunSamples, Section};

const S: Settings = Settings {
    threshold_pct: 10.0,
    alpha: 0.05,
    icount_threshold_pct: 1.0,
    noise_floor_ns: 0.0,
    control: crate::compare::family::ErrorControl::Holm,
};

/// One run: section `functions_timing` with rows of (name, avg_ns, alloc_bytes).
fn run(rows: &[(&str, f64, f64)], truncated: bool) -> RunSamples {
    let mut section = Section { truncated, ..Section::default() };
    for (name, avg, bytes) in rows {
        section.push(name, "avg_ns", "avg", Unit::Nanoseconds, *avg);
        section.push(name, "alloc_bytes", "alloc_bytes", Unit::Bytes, *bytes);
    }
    let mut run = RunSamples::default();
    run.sections.insert("functions_timing".into(), section);
    run
}

fn side(runs: Vec<RunSamples>) -> Side {
    Side::new("x", vec![], runs)
}

fn rows<'c>(c: &'c Comparison<'_>) -> Vec<RowDiff<'c>> {
    c.sections().next().unwrap().rows().collect()
}

fn row<'c>(rows: &'c [RowDiff<'c>], name: &str) -> &'c RowDiff<'c> {
    rows.iter().find(|r| r.name == name).unwrap()
}

#[test]
fn regressions_additions_and_removals() {
    let base: Vec<_> =
        (0..5).map(|i| run(&[("slow", 100.0 + f64::from(i), 64.0), ("gone", 5.0, 0.0)], false)).collect();
    let head: Vec<_> =
        (0..5).map(|i| run(&[("slow", 900.0 + f64::from(i), 640.0), ("new", 5.0, 0.0)], false)).collect();
    let (base, head) = (side(base), side(head));
    let c = Comparison::new(&base, &head, S);
    let rows = rows(&c);
    let slow = row(&rows, "slow");
    assert_eq!(slow.status, RowStatus::Compared);
    assert!(slow.metrics.iter().all(|m| m.verdict == Verdict::Regressed));
    assert_eq!(row(&rows, "new").status, RowStatus::Added);
    assert_eq!(row(&rows, "gone").status, RowStatus::Removed);
    let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
    assert_eq!(names, ["slow", "new", "gone"], "head order, then rows only in base");
    assert_eq!(c.sections().next().unwrap().row_count(), 3);
    assert_eq!(
        c.summary,
        Summary {
            regressed_metrics: 2,
            regressed_rows: 1,
            added_rows: 1,
            removed_rows: 1,
            compared_metrics: 2,
            tested_metrics: 1,
            ..Summary::default()
        }
    );
}

#[test]
fn same_reports_change_nothing() {
    let runs = || (0..3).map(|_| run(&[("f", 100.0, 64.0)], false)).collect();
    let (base, head) = (side(runs()), side(runs()));
    let c = Comparison::new(&base, &head, S);
    assert!(row(&rows(&c), "f").metrics.iter().all(|m| m.verdict == Verdict::Unchanged));
    assert_eq!(c.summary.regressed_metrics + c.summary.added_rows + c.summary.removed_rows, 0);
}

#[test]
fn rows_hidden_by_a_row_limit_are_not_called_added() {
    let base = side(vec![run(&[("a", 1.0, 0.0)], true)]);
    let head = side(vec![run(&[("a", 1.0, 0.0), ("b", 2.0, 0.0)], false)]);
    let c = Comparison::new(&base, &head, S);
    assert_eq!(row(&rows(&c), "b").status, RowStatus::OutsideLimit);
    assert_eq!(c.summary.added_rows, 0);
}

#[test]
fn a_metric_on_one_side_only_is_listed() {
    let mut head = run(&[("f", 1.0, 0.0)], false);
    head.sections["functions_timing"].push("f", "percentiles_ns.p99", "p99", Unit::Nanoseconds, 3.0);
    let (base, head) = (side(vec![run(&[("f", 1.0, 0.0)], false)]), side(vec![head]));
    let c = Comparison::new(&base, &head, S);
    let rows = rows(&c);
    let p99 = row(&rows, "f").metrics.iter().find(|m| m.label == "p99").unwrap();
    assert_eq!((p99.verdict, p99.base.is_none()), (Verdict::Added, true));
}

#[test]
fn json_lists_every_section_row_and_metric() {
    let (base, head) = (side(vec![run(&[("f", 1.0, 8.0)], false)]), side(vec![run(&[("f", 1.0, 16.0)], false)]));
    let c = Comparison::new(&base, &head, S);
    let v: serde_json::Value = serde_json::to_value(&c).unwrap();
    assert_eq!(v["compare_version"], 2);
    let m = &v["sections"][0]["rows"][0]["metrics"][1];
    assert_eq!(
        (m["key"].as_str(), m["kind"].as_str(), m["unit"].as_str()),
        (Some("alloc_bytes"), Some("bytes"), Some("bytes"))
    );
    assert_eq!((m["verdict"].as_str(), m["head"]["values"][0].as_f64()), (Some("regressed"), Some(16.0)));
}

#[test]
fn a_policy_chooses_the_judged_metrics_and_the_minimum_change_per_section() {
    use crate::compare::policy::{Policy, SectionPolicy};
    let section = SectionPolicy { judge: Some(vec!["avg".into()]), min_change_pct: Some(50.0) };
    let policy = Policy { sections: [("functions_timing".to_string(), section)].into(), ..Policy::default() };
    // avg 100 -> 140 ns (+40%, significant), bytes 64 -> 640 (exact, 10x).
    let base: Vec<_> = (0..8).map(|i| run(&[("f", 1_000.0 + f64::from(i), 64.0)], false)).collect();
    let head: Vec<_> = (0..8).map(|i| run(&[("f", 1_400.0 + f64::from(i), 640.0)], false)).collect();
    let (base, head) = (side(base), side(head));
    let plain = Comparison::new(&base, &head, S);
    assert_eq!(plain.summary.regressed_metrics, 2, "without the policy both regress");
    let c = Comparison::with_policy(&base, &head, S, Some(&policy));
    let rows = rows(&c);
    let f = row(&rows, "f");
    let verdict = |key: &str| f.metrics.iter().find(|m| m.key == key).unwrap().verdict;
    assert_eq!(verdict("avg_ns"), Verdict::WithinThreshold, "+40% is within the section's 50%");
    assert_eq!(verdict("alloc_bytes"), Verdict::NotJudged, "not in the section's judge list");
    assert_eq!((c.summary.regressed_metrics, c.summary.informational_metrics), (0, 1));
}
