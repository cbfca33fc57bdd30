//! `mark` and `changes_since_mark`: what changed between two moments of a live
//! program, the question an agent asks after changing code or load.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{json, Map, Value};

use super::tools::{number_at, rows_mut};
use crate::lock;

/// Marks kept at once; marking more forgets the oldest.
const MAX_MARKS: usize = 16;

struct Mark {
    report: Map<String, Value>,
    order: u64,
}

static MARKS: Mutex<Option<(HashMap<String, Mark>, u64)>> = Mutex::new(None);

/// Remembers `report` under `name`.
pub(super) fn mark(name: &str, report: Map<String, Value>) -> usize {
    let mut guard = lock(&MARKS);
    let (marks, counter) = guard.get_or_insert_with(|| (HashMap::new(), 0));
    *counter += 1;
    marks.insert(name.to_string(), Mark { report, order: *counter });
    if marks.len() > MAX_MARKS {
        if let Some(oldest) = marks.iter().min_by_key(|(_, m)| m.order).map(|(n, _)| n.clone()) {
            marks.remove(&oldest);
        }
    }
    marks.len()
}

/// The report remembered under `name`.
pub(super) fn get(name: &str) -> Option<Map<String, Value>> {
    lock(&MARKS).as_ref().and_then(|(m, _)| m.get(name)).map(|m| m.report.clone())
}

/// Names of the current marks.
pub(super) fn names() -> Vec<String> {
    let mut names: Vec<String> = lock(&MARKS).as_ref().map(|(m, _)| m.keys().cloned().collect()).unwrap_or_default();
    names.sort();
    names
}

/// Differences per section between `before` and `now`: for every row, the numeric
/// fields that changed; rows new since the mark are flagged. Timing rows also get
/// the average duration of the calls made in between.
pub(super) fn changes(before: &Map<String, Value>, now: &Map<String, Value>, limit: usize) -> Value {
    let elapsed = number_at(&Value::Object(now.clone()), "meta.wall_ns").unwrap_or(0.0)
        - number_at(&Value::Object(before.clone()), "meta.wall_ns").unwrap_or(0.0);
    let mut sections = Map::new();
    for (key, section) in now {
        if matches!(key.as_str(), "meta" | "schema_version" | "threads") {
            continue;
        }
        let mut section_now = section.clone();
        let Some(rows_now) = rows_mut(&mut section_now) else { continue };
        let mut old = before.get(key).cloned().unwrap_or(Value::Null);
        let rows_before: Vec<Value> = rows_mut(&mut old).map(|r| r.clone()).unwrap_or_default();
        let mut changed: Vec<(f64, Value)> = Vec::new();
        for row in rows_now.iter() {
            let Some(name) = row.get("name").and_then(Value::as_str) else { continue };
            let previous = rows_before.iter().find(|r| r.get("name").and_then(Value::as_str) == Some(name));
            let mut deltas = Map::new();
            flatten_deltas("", row, previous.unwrap_or(&Value::Null), &mut deltas);
            if deltas.is_empty() {
                continue;
            }
            let weight = deltas.values().filter_map(Value::as_f64).map(f64::abs).fold(0.0, f64::max);
            let mut entry = json!({ "name": name, "new": previous.is_none(), "delta": deltas });
            if key == "functions_timing" {
                interval_average(&mut entry, row, previous);
            }
            changed.push((weight, entry));
        }
        changed.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !changed.is_empty() {
            let total = changed.len();
            let rows: Vec<Value> = changed.into_iter().take(limit).map(|(_, v)| v).collect();
            sections.insert(key.clone(), json!({ "changed_rows": total, "rows": rows }));
        }
    }
    json!({ "elapsed_ns": elapsed.max(0.0) as u64, "sections": sections })
}

/// Deltas of the numeric fields (nested with dots) that differ from `before`.
fn flatten_deltas(prefix: &str, now: &Value, before: &Value, out: &mut Map<String, Value>) {
    let Some(object) = now.as_object() else { return };
    for (key, value) in object {
        if matches!(key.as_str(), "line" | "tid" | "pid") {
            continue;
        }
        let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        let old = before.get(key).unwrap_or(&Value::Null);
        match value {
            Value::Number(n) => {
                let (n, o) = (n.as_f64().unwrap_or(0.0), old.as_f64().unwrap_or(0.0));
                if n != o {
                    out.insert(path, json!(n - o));
                }
            }
            Value::Object(_) => flatten_deltas(&path, value, old, out),
            _ => {}
        }
    }
}

/// `interval_avg_ns`: the mean duration of the calls made since the mark, and the
/// average before it, so a slowdown is visible even when the totals still hide it.
fn interval_average(entry: &mut Value, now: &Value, before: Option<&Value>) {
    let calls = |r: &Value| number_at(r, "calls").unwrap_or(0.0);
    let sum = |r: &Value| number_at(r, "avg_ns").unwrap_or(0.0) * calls(r);
    let (calls_now, sum_now) = (calls(now), sum(now));
    let (calls_then, sum_then) = before.map_or((0.0, 0.0), |b| (calls(b), sum(b)));
    if calls_now > calls_then {
        entry["interval_avg_ns"] = json!(((sum_now - sum_then) / (calls_now - calls_then)).max(0.0).round() as u64);
    }
    if calls_then > 0.0 {
        entry["avg_ns_before"] = json!((sum_then / calls_then).round() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_changed_and_new_rows_with_interval_average() {
        let before: Map<String, Value> = serde_json::from_value(json!({
            "meta": {"wall_ns": 1000},
            "functions_timing": {"rows": [{"name": "a", "calls": 10, "avg_ns": 100, "line": 3}, {"name": "b", "calls": 5, "avg_ns": 50}]}
        }))
        .unwrap();
        let now: Map<String, Value> = serde_json::from_value(json!({
            "meta": {"wall_ns": 3000},
            "functions_timing": {"rows": [
                {"name": "a", "calls": 20, "avg_ns": 550, "line": 3},
                {"name": "b", "calls": 5, "avg_ns": 50},
                {"name": "c", "calls": 1, "avg_ns": 7}
            ]}
        }))
        .unwrap();
        let c = changes(&before, &now, 10);
        assert_eq!(c["elapsed_ns"], 2000);
        let rows = c["sections"]["functions_timing"]["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "b did not change: {rows:?}");
        let a = rows.iter().find(|r| r["name"] == "a").unwrap();
        assert_eq!(
            (a["delta"]["calls"].as_f64(), a["interval_avg_ns"].as_u64(), a["avg_ns_before"].as_u64()),
            (Some(10.0), Some(1000), Some(100))
        );
        assert!(a["delta"].get("line").is_none());
        assert_eq!(rows.iter().find(|r| r["name"] == "c").unwrap()["new"], true);
    }

    #[test]
    fn marks_are_bounded() {
        for i in 0..(MAX_MARKS + 4) {
            mark(&format!("m{i}"), Map::new());
        }
        assert_eq!(names().len(), MAX_MARKS);
        assert!(get("m0").is_none() && get(&format!("m{}", MAX_MARKS + 3)).is_some());
    }
}
