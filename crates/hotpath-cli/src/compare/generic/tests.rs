use hotpath_model::Unit;
use serde::de::DeserializeSeed;
use serde_json::{json, Value};

use super::SectionSeed;
use crate::compare::samples::Section;

fn section(key: &str, value: &Value, limit: usize) -> Option<Section> {
    let text = value.to_string();
    let mut de = serde_json::Deserializer::from_str(&text);
    SectionSeed { key, limit }.deserialize(&mut de).unwrap()
}

fn keys(section: &Section, row: &str) -> Vec<(String, Unit, f64)> {
    section.rows[row].iter().map(|(m, v)| (section.info(*m).key.clone(), section.info(*m).unit, *v)).collect()
}

#[test]
fn rows_with_numbers_nested_percentiles_and_skipped_identity() {
    let value = json!({"total_functions": 1, "rows": [
        {"name": "app::f", "file": "a.rs", "line": 4, "is_async": false, "alloc_bytes": 4096,
         "alloc_count": 2, "percentiles_bytes": {"p50": 512}, "wait_ns": 30, "tags": [1, 2]}]});
    let s = section("custom_alloc", &value, 0).unwrap();
    assert_eq!(
        keys(&s, "app::f"),
        [
            ("alloc_bytes".to_string(), Unit::Bytes, 4096.0),
            ("alloc_count".to_string(), Unit::Count, 2.0),
            ("percentiles_bytes.p50".to_string(), Unit::Bytes, 512.0),
            ("wait_ns".to_string(), Unit::Nanoseconds, 30.0),
        ]
    );
    assert!(!s.truncated);
}

#[test]
fn deeper_objects_are_flattened_by_path() {
    let value = json!({"rows": [{"name": "ledger", "lock": {"acquisitions": 41,
        "wait": {"count": 41, "avg_ns": 4000, "percentiles_ns": {"p50": 4100, "p99.9": 6400}}}}]});
    let s = section("mutexes", &value, 0).unwrap();
    let got: Vec<(String, Unit)> = keys(&s, "ledger").into_iter().map(|(k, u, _)| (k, u)).collect();
    let want = [
        ("lock.acquisitions", Unit::Count),
        ("lock.wait.count", Unit::Count),
        ("lock.wait.avg_ns", Unit::Nanoseconds),
        ("lock.wait.percentiles_ns.p50", Unit::Nanoseconds),
        ("lock.wait.percentiles_ns.p99.9", Unit::Nanoseconds),
    ];
    assert_eq!(got, want.map(|(k, u)| (k.to_string(), u)));
}

#[test]
fn duplicate_names_are_numbered_and_unnamed_rows_skipped() {
    let value = json!([{"name": "worker", "cpu_ns": 1}, {"cpu_ns": 5}, {"name": "worker", "cpu_ns": 2}, {"name": "worker", "cpu_ns": 3}, 7]);
    let s = section("threads", &value, 0).unwrap();
    let names: Vec<&String> = s.rows.keys().collect();
    assert_eq!(names, ["worker", "worker #2", "worker #3"]);
    assert_eq!(s.rows["worker #3"][0].1, 3.0);
}

#[test]
fn a_plain_object_is_one_row_and_odd_shapes_are_ignored() {
    let s =
        section("tokio_runtime", &json!({"workers": 4, "busy_ratio": 0.5, "runtimes": [{"name": "x"}]}), 0).unwrap();
    let workers = keys(&s, "tokio_runtime").into_iter().find(|(k, _, _)| k == "workers");
    assert_eq!(workers, Some(("workers".to_string(), Unit::Count, 4.0)));
    assert!(section("x", &json!(3), 0).is_none());
    assert!(section("x", &json!({"rows": 3}), 0).is_none());
    assert!(section("x", &json!({"rows": {"a": 1}}), 0).is_none());
}

#[test]
fn a_section_at_the_row_limit_may_be_cut() {
    let value = json!({"rows": [{"name": "a", "calls": 1}, {"name": "b", "calls": 1}]});
    assert!(section("io", &value, 2).unwrap().truncated);
    assert!(!section("io", &value, 3).unwrap().truncated);
}
