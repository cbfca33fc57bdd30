//! Any report section read as plain JSON, so that sections added after this code
//! are compared without touching it. The conventions relied on (docs/JSON_SCHEMA.md):
//! a section is an object with a `rows` array (or an array itself) whose rows name
//! themselves with `name`; numeric fields are classified by name (`kind.rs`); one
//! level of nested objects (`percentiles_ns`) is flattened to `parent.key`. A section
//! that is a plain object of numbers (runtime gauges) becomes one row named after it.

use serde_json::{Map, Value};

use super::kind::{classify, Kind};
use super::samples::{Metric, Section};

/// The comparable rows of section `key`, or `None` when it has no row shape.
/// `limit` is the report's row limit: a section holding exactly that many rows may
/// have been cut.
pub(crate) fn section(key: &str, value: &Value, limit: usize) -> Option<Section> {
    let rows: Vec<(String, &Map<String, Value>)> = match value {
        Value::Array(items) => named_rows(items),
        Value::Object(map) => match map.get("rows") {
            Some(Value::Array(items)) => named_rows(items),
            Some(_) => return None,
            None => vec![(key.to_string(), map)],
        },
        _ => return None,
    };
    let mut section = Section { truncated: limit > 0 && rows.len() >= limit, ..Section::default() };
    for (name, row) in rows {
        let metrics = metrics(row);
        if !metrics.is_empty() {
            section.rows.insert(name, metrics);
        }
    }
    Some(section)
}

/// Rows that are objects with a string `name`. A name seen again (several threads
/// called `tokio-runtime-worker`) gets ` #2`, ` #3`... in order of appearance.
fn named_rows(items: &[Value]) -> Vec<(String, &Map<String, Value>)> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    let mut out = Vec::new();
    for row in items.iter().filter_map(Value::as_object) {
        let Some(name) = row.get("name").and_then(Value::as_str) else { continue };
        let n = match seen.iter_mut().find(|(s, _)| *s == name) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((name, 1));
                1
            }
        };
        out.push((if n == 1 { name.to_string() } else { format!("{name} #{n}") }, row));
    }
    out
}

fn metrics(row: &Map<String, Value>) -> Vec<Metric> {
    let mut out = Vec::new();
    for (field, value) in row {
        match value {
            Value::Number(n) => push(&mut out, field, None, n),
            Value::Object(inner) => {
                for (sub, v) in inner {
                    if let Value::Number(n) = v {
                        push(&mut out, sub, Some(field), n);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn push(out: &mut Vec<Metric>, field: &str, parent: Option<&str>, n: &serde_json::Number) {
    let (Some(value), is_integer) = (n.as_f64(), n.is_u64() || n.is_i64()) else { return };
    let Some(kind): Option<Kind> = classify(field, parent, is_integer) else { return };
    let key = match parent {
        Some(p) => format!("{p}.{field}"),
        None => field.to_string(),
    };
    out.push(Metric::new(key.clone(), key, kind, value));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(section: &Section, row: &str) -> Vec<(String, Kind, f64)> {
        section.rows[row].iter().map(|m| (m.key.clone(), m.kind, m.value)).collect()
    }

    #[test]
    fn rows_with_numbers_nested_percentiles_and_skipped_identity() {
        let value = json!({"total_functions": 1, "rows": [
            {"name": "app::f", "file": "a.rs", "line": 4, "is_async": false, "alloc_bytes": 4096,
             "alloc_count": 2, "percentiles_bytes": {"p50": 512}, "wait_ns": 30}]});
        let s = section("custom_alloc", &value, 0).unwrap();
        assert_eq!(
            keys(&s, "app::f"),
            [
                ("alloc_bytes".to_string(), Kind::Bytes, 4096.0),
                ("alloc_count".to_string(), Kind::Count, 2.0),
                ("percentiles_bytes.p50".to_string(), Kind::Bytes, 512.0),
                ("wait_ns".to_string(), Kind::Duration, 30.0),
            ]
        );
        assert!(!s.truncated);
    }

    #[test]
    fn duplicate_names_are_numbered_and_unnamed_rows_skipped() {
        let value = json!([{"name": "worker", "cpu_ns": 1}, {"cpu_ns": 5}, {"name": "worker", "cpu_ns": 2}]);
        let s = section("threads", &value, 0).unwrap();
        let names: Vec<&String> = s.rows.keys().collect();
        assert_eq!(names, ["worker", "worker #2"]);
    }

    #[test]
    fn a_plain_object_is_one_row_and_odd_shapes_are_ignored() {
        let s = section("tokio_runtime", &json!({"workers": 4, "busy_ratio": 0.5}), 0).unwrap();
        // Field order follows the JSON (serde_json keeps it with `preserve_order`, which the console enables).
        let workers = keys(&s, "tokio_runtime").into_iter().find(|(k, _, _)| k == "workers");
        assert_eq!(workers, Some(("workers".to_string(), Kind::Count, 4.0)));
        assert!(section("x", &json!(3), 0).is_none());
        assert!(section("x", &json!({"rows": 3}), 0).is_none());
    }

    #[test]
    fn a_section_at_the_row_limit_may_be_cut() {
        let value = json!({"rows": [{"name": "a", "calls": 1}, {"name": "b", "calls": 1}]});
        assert!(section("io", &value, 2).unwrap().truncated);
        assert!(!section("io", &value, 3).unwrap().truncated);
    }
}
