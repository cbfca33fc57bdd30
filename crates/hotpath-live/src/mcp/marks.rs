//! `mark` and `changes_since_mark`: what changed between two moments of a live
//! program, the question an agent asks after changing code or load.

use std::collections::HashMap;
use std::sync::Mutex;

use hotpath_model::{NamedMetrics, Report, Section, SECTIONS};
use serde_json::{json, Map, Value};

use super::tools::rows_mut;
use crate::lock;

/// Marks kept at once; marking more forgets the oldest.
const MAX_MARKS: usize = 16;

struct Mark {
    report: Report,
    order: u64,
}

static MARKS: Mutex<Option<(HashMap<String, Mark>, u64)>> = Mutex::new(None);

/// Remembers `report` under `name`.
pub(super) fn mark(name: &str, report: Report) -> usize {
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
pub(super) fn get(name: &str) -> Option<Report> {
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
/// the average duration of the calls made in between. Rows whose type lists its
/// figures (`RowMetrics`) are compared through it; the others by their JSON.
pub(super) fn changes(before: &Report, now: &Report, limit: usize) -> Value {
    let elapsed = now.meta.wall_ns.saturating_sub(before.meta.wall_ns);
    let mut sections = Map::new();
    // Per-thread samples are not cumulative: their deltas would mean nothing.
    for def in SECTIONS.iter().filter(|d| d.section != Section::Threads) {
        let moved = match now.row_metrics(def.section) {
            Some(rows_now) => typed_deltas(&rows_now, &before.row_metrics(def.section).unwrap_or_default()),
            None => json_deltas(before, now, def.section),
        };
        let mut changed: Vec<(f64, Value)> = Vec::new();
        for (name, new, deltas) in moved.into_iter().filter(|(_, _, d)| !d.is_empty()) {
            let weight = deltas.values().filter_map(Value::as_f64).map(f64::abs).fold(0.0, f64::max);
            let mut entry = json!({ "name": name, "new": new, "delta": deltas });
            if def.section == Section::FunctionsTiming {
                interval_average(&mut entry, now, before, &name);
            }
            changed.push((weight, entry));
        }
        changed.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !changed.is_empty() {
            let total = changed.len();
            let rows: Vec<Value> = changed.into_iter().take(limit).map(|(_, v)| v).collect();
            sections.insert(def.key.to_string(), json!({ "changed_rows": total, "rows": rows }));
        }
    }
    json!({ "elapsed_ns": elapsed, "sections": sections })
}

/// A row's name, whether it is new since the mark, and its figures that moved.
type Moved = (String, bool, Map<String, Value>);

/// The moved figures of typed rows, by name (the first row of a name before).
fn typed_deltas(now: &[NamedMetrics], before: &[NamedMetrics]) -> Vec<Moved> {
    now.iter()
        .map(|(name, metrics)| {
            let previous = before.iter().find(|(n, _)| n == name).map(|(_, m)| m);
            let old = |key: &str| previous.and_then(|m| m.iter().find(|p| p.key == key)).map_or(0.0, |p| p.value);
            let deltas = metrics
                .iter()
                .filter(|m| m.value != old(&m.key))
                .map(|m| (m.key.clone(), json!(m.value - old(&m.key))))
                .collect();
            (name.clone(), previous.is_none(), deltas)
        })
        .collect()
}

/// The moved numbers of rows of a section whose type lists no figures (none today: a
/// section added without `RowMetrics`), by the JSON.
fn json_deltas(before: &Report, now: &Report, section: Section) -> Vec<Moved> {
    let Some(mut section_now) = now.section_json(section) else { return Vec::new() };
    let Some(rows_now) = rows_mut(&mut section_now) else { return Vec::new() };
    let mut old = before.section_json(section).unwrap_or(Value::Null);
    let rows_before: Vec<Value> = rows_mut(&mut old).map(|r| r.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for row in rows_now.iter() {
        let Some(name) = row.get("name").and_then(Value::as_str) else { continue };
        let previous = rows_before.iter().find(|r| r.get("name").and_then(Value::as_str) == Some(name));
        let mut deltas = Map::new();
        flatten_deltas("", row, previous.unwrap_or(&Value::Null), &mut deltas);
        out.push((name.to_string(), previous.is_none(), deltas));
    }
    out
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
fn interval_average(entry: &mut Value, now: &Report, before: &Report, name: &str) {
    let totals = |r: &Report| {
        r.functions_timing
            .iter()
            .flat_map(|s| &s.rows)
            .find(|row| row.name == name)
            .map_or((0u64, 0u64), |row| (row.calls, row.avg_ns.saturating_mul(row.calls)))
    };
    let ((calls_now, sum_now), (calls_then, sum_then)) = (totals(now), totals(before));
    if calls_now > calls_then {
        let avg = sum_now.saturating_sub(sum_then) as f64 / (calls_now - calls_then) as f64;
        entry["interval_avg_ns"] = json!(avg.round() as u64);
    }
    if calls_then > 0 {
        entry["avg_ns_before"] = json!((sum_then as f64 / calls_then as f64).round() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(wall_ns: u64, rows: &[(&str, u64, u64, u32)]) -> Report {
        let mut report = Report::default();
        report.meta.wall_ns = wall_ns;
        let mut section = hotpath_model::FunctionsTiming::default();
        for &(name, calls, avg_ns, line) in rows {
            let mut row = hotpath_model::FunctionTiming::default();
            row.name = name.into();
            row.calls = calls;
            row.avg_ns = avg_ns;
            row.line = line;
            section.rows.push(row);
        }
        report.functions_timing = Some(section);
        report
    }

    #[test]
    fn reports_changed_and_new_rows_with_interval_average() {
        let before = timing(1000, &[("a", 10, 100, 3), ("b", 5, 50, 0)]);
        let now = timing(3000, &[("a", 20, 550, 3), ("b", 5, 50, 0), ("c", 1, 7, 0)]);
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
    fn typed_rows_move_by_their_figures() {
        let mutexes = |acquisitions: u64| {
            let mut row = hotpath_model::MutexRow::default();
            (row.name, row.line, row.lock.acquisitions) = ("m".into(), 7, acquisitions);
            let mut section = hotpath_model::Mutexes::default();
            section.rows.push(row);
            let mut report = Report::default();
            report.mutexes = Some(section);
            report
        };
        let c = changes(&mutexes(2), &mutexes(5), 10);
        let row = &c["sections"]["mutexes"]["rows"][0];
        assert_eq!(
            (&row["name"], &row["new"], &row["delta"]),
            (&json!("m"), &json!(false), &json!({"lock.acquisitions": 3.0}))
        );
        assert!(changes(&mutexes(5), &mutexes(5), 10)["sections"].as_object().unwrap().is_empty());
    }

    #[test]
    fn marks_are_bounded() {
        for i in 0..(MAX_MARKS + 4) {
            mark(&format!("m{i}"), Report::default());
        }
        assert_eq!(names().len(), MAX_MARKS);
        assert!(get("m0").is_none() && get(&format!("m{}", MAX_MARKS + 3)).is_some());
    }
}
